"""Check the configuration file, or show the effective configuration with every default and its doc.

  slapbox config check [PATH]   one line per error (file: key: reason) and exit 1, or "ok: PATH"
  slapbox config show [PATH]    the effective configuration as a commented TOML file (an invalid
                                file: its errors, exit 2)

--config PATH works before or after `config`, `check` and `show`.
"""

from __future__ import annotations

import argparse
import sys

from device.config.schema import ConfigError, load_config

ACTIONS = {
    "check": "check the file: every error with its file, key and reason (exit 1), or 'ok: PATH'",
    "show": "print the effective configuration (defaults filled in, each key documented)",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="{check,show}", required=True)
    for name, text in ACTIONS.items():
        p = sub.add_parser(name, help=text, description=text)
        # as after every command word; SUPPRESS keeps an earlier --config from being reset
        p.add_argument("--config", metavar="PATH", default=argparse.SUPPRESS,
                       help="the configuration file (as the global --config)")
        p.add_argument("path", nargs="?", metavar="PATH", default=None,
                       help="the file to read (default: --config, $SLAPBOX_CONFIG, /etc/slapbox/config.toml)")


def run(args: argparse.Namespace) -> int:
    path = args.path or args.config
    try:
        cfg = load_config(path)
    except ConfigError as e:
        for line in e.errors:
            print(line, file=sys.stderr)
        return 1 if args.action == "check" else 2  # check's findings; show cannot show it
    if args.action == "check":
        note = "" if cfg.found else " (no such file: every key has its default)"
        print(f"ok: {cfg.path}{note}")
        return 0
    where = f"read from {cfg.path}" if cfg.found else f"{cfg.path} does not exist: every key has its default"
    sys.stdout.write(f"# {where}\n{cfg.to_toml()}")
    return 0
