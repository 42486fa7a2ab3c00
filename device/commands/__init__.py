"""The `slapbox` subcommands: one module each, exposing `add_arguments(parser)` and `run(args)`."""
