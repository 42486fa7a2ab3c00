"""The `slapbox` command: global options, one subcommand per module, every error as one line.

Each subcommand is a module listed in :data:`COMMANDS` exposing ``add_arguments(parser)`` and
``run(args) -> int``; the first line of its docstring is its help. Only the chosen module is
imported (a laptop without pygame can still run ``slapbox simulate``); the others are listed in
``slapbox --help`` from their docstrings, read without importing them.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import importlib.util
import os
import sys
import traceback
from collections.abc import Sequence
from typing import Any, NoReturn

from device import __version__
from device.config.schema import DEFAULT_PATH, ENV_VAR, ConfigError
from device.errors import SlapboxError

# Name -> module, in the order `slapbox --help` lists them. Add a line when a command lands;
# a module not in the checkout yet is simply not offered.
COMMANDS: dict[str, str] = {
    "play": "device.commands.play",
    "demo": "device.commands.demo",
    "simulate": "device.commands.simulate",
    "replay": "device.commands.replay",
    "bench": "device.commands.bench",
    "bridge": "device.commands.bridge",
    "stats": "device.commands.stats",
    "config": "device.commands.config_cmd",
    "screenshot": "device.commands.screenshot",
}

GLOBAL_WITH_VALUE = ("--config",)  # global options that take a value (for finding the command word)
EX_USAGE, EX_SOFTWARE = 2, 70


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line, ``slapbox <sub>: error: <message>``, exit 2."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The deepest parser that matched ends up in args._parser (a subparser's defaults win).
        self.set_defaults(_parser=self)

    def error(self, message: str) -> NoReturn:
        self.exit(EX_USAGE, f"{self.prog}: error: {message}\n")


def available_commands() -> dict[str, str]:
    """The commands whose module exists in this checkout."""
    return {name: mod for name, mod in COMMANDS.items() if _find(mod)}


def _find(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def _docstring(module: str) -> str:
    """The module's docstring, read from its source so that listing commands imports nothing."""
    spec = importlib.util.find_spec(module)
    try:
        with open(spec.origin, encoding="utf-8") as fh:  # type: ignore[union-attr, arg-type]
            return ast.get_docstring(ast.parse(fh.read())) or ""
    except (OSError, SyntaxError, TypeError, ValueError):
        return ""


def _command_word(argv: Sequence[str]) -> str | None:
    """The subcommand named in ``argv`` (the first word that is not a global option)."""
    i = 0
    while i < len(argv):
        word = argv[i]
        if word == "--":
            return argv[i + 1] if i + 1 < len(argv) else None
        if word in GLOBAL_WITH_VALUE:
            i += 2
            continue
        if not word.startswith("-"):
            return word
        i += 1
    return None


def build_parser(argv: Sequence[str] = ()) -> Parser:
    """The full parser; only the command named in ``argv`` gets its own arguments (and is imported)."""
    parser = Parser(
        prog="slapbox",
        description="slapbox: the slap-game party box (Bataille corse, Egyptian Ratscrew and friends).",
        epilog=f"Configuration: --config PATH, else ${ENV_VAR}, else {DEFAULT_PATH} (a missing default "
               "file means every default; see 'slapbox config show'). Set SLAPBOX_DEBUG=1 to see "
               "tracebacks of internal errors.",
        allow_abbrev=False,  # keeps _command_word exact
    )
    parser.add_argument("--config", metavar="PATH", default=None,
                        help=f"the configuration file (default: ${ENV_VAR} or {DEFAULT_PATH})")
    parser.add_argument("--version", action="version", version=f"slapbox {__version__}")
    sub = parser.add_subparsers(dest="command", title="commands", metavar="COMMAND")
    chosen = _command_word(argv)
    for name, module in available_commands().items():
        doc = _docstring(module)
        first = doc.splitlines()[0].strip() if doc else ""
        p = sub.add_parser(name, help=first, description=doc or None, allow_abbrev=False,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        # Also accepted after the command word; SUPPRESS keeps a global --config from being reset.
        p.add_argument("--config", metavar="PATH", default=argparse.SUPPRESS,
                       help="the configuration file (as the global --config)")
        if name == chosen:
            importlib.import_module(module).add_arguments(p)
    return parser


def _code(code: Any) -> int:
    """A SystemExit code as an exit status (argparse and commands may raise SystemExit)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``slapbox ARGV``; returns the exit status (0 ok, 1 check failed, 2 bad input, 70 bug)."""
    argv = _glue_dash_values(list(sys.argv[1:] if argv is None else argv))
    prog = "slapbox"
    try:
        try:
            parser = build_parser(argv)
            args, extra = parser.parse_known_args(argv)
            if extra:
                args._parser.error(f"unrecognized arguments: {' '.join(extra)}")
        except SystemExit as e:  # --help, --version, usage errors (already printed)
            return _code(e.code)
        if args.command is None:
            parser.print_help()
            return 0
        prog = args._parser.prog
        module = importlib.import_module(COMMANDS[args.command])
        return _code(module.run(args))
    except ConfigError as e:
        for line in e.errors:
            print(line, file=sys.stderr)
        return EX_USAGE
    except SlapboxError as e:
        # Bad input (an unknown option, a bad deal, script or journal): the person can fix it.
        for line in e.user_message.splitlines():
            print(f"{prog}: error: {line}", file=sys.stderr)
        return e.exit_code
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        # `slapbox config show | head`: the reader left; say nothing, and keep Python's exit flush quiet.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
    except SystemExit as e:
        return _code(e.code)
    except Exception as e:  # noqa: BLE001 -- the user gets one line, the developer the traceback
        return _internal_error(e)


# Options whose value may itself start with '-' (a deal of number cards: --deal ---K/-Q--).
DASH_VALUED = ("--deal",)


def _glue_dash_values(argv: list[str]) -> list[str]:
    """``--deal -K-`` becomes ``--deal=-K-`` so that argparse does not take the value for an option."""
    out: list[str] = []
    i = 0
    while i < len(argv):
        if argv[i] in DASH_VALUED and i + 1 < len(argv) and argv[i + 1].startswith("-") \
                and argv[i + 1] != "--":
            out.append(f"{argv[i]}={argv[i + 1]}")
            i += 2
        else:
            out.append(argv[i])
            i += 1
    return out


def _internal_error(e: BaseException) -> int:
    debug = os.environ.get("SLAPBOX_DEBUG") == "1"
    if debug:
        traceback.print_exc()
    hint = "" if debug else " (set SLAPBOX_DEBUG=1 to see the traceback)"
    text = " / ".join(str(e).splitlines())  # one line, whatever the exception says
    print(f"slapbox: internal error: {type(e).__name__}: {text}{hint}", file=sys.stderr)
    return EX_SOFTWARE


if __name__ == "__main__":
    raise SystemExit(main())
