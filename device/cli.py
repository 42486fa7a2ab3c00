"""The `slapbox` command: global options, one subcommand per module, every error as one line.

Each subcommand is a module listed in :data:`COMMANDS` exposing ``add_arguments(parser)`` and
``run(args) -> int``; the first line of its docstring is its help. Only the chosen module is
imported (a laptop without pygame can still run ``slapbox simulate``); the others are listed in
``slapbox --help`` from the first lines of their docstrings, read without importing or
parsing them.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import importlib.util
import inspect
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
    "selftest": "device.commands.selftest",
    "wiring": "device.commands.wiring",
}

#: commands that start without the cyclic garbage collector: play turns it back on at its first
#: frame; a screenshot and a simulation end soon after their start
START_WITHOUT_GC = ("play", "screenshot", "simulate")
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
    return {name: mod for name, mod in COMMANDS.items() if _source(mod) is not None}


def _source(module: str) -> str | None:
    """The path of ``module``'s source, or None if it has none. A command of ``device.commands``
    is looked for beside that package (one stat, where the import system would search each of
    its path finders at every start); any other through the import system."""
    package, _, leaf = module.rpartition(".")
    if package == "device.commands":
        import device.commands
        path = os.path.join(os.path.dirname(device.commands.__file__ or ""), leaf + ".py")
        return path if os.path.isfile(path) else None
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    return spec.origin if spec is not None else None


def _summary(module: str) -> str:
    """The first line of the module's docstring, read from the top of its source without
    importing or parsing it (listing the commands at every start must stay cheap)."""
    try:
        with open(_source(module) or "", encoding="utf-8") as fh:
            head = fh.read(4096).lstrip()
    except (OSError, ValueError):
        return ""
    quote = head[:3]
    if quote not in ('"' * 3, "'" * 3):
        return ""
    lines = head[3:].split(quote, 1)[0].strip().splitlines()
    return lines[0].strip() if lines else ""


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
        # Only the chosen command's module is imported (its docstring is its description);
        # the others show the first line of theirs, read from the source.
        mod = importlib.import_module(module) if name == chosen else None
        doc = inspect.cleandoc(mod.__doc__ or "") if mod is not None else ""
        first = doc.splitlines()[0].strip() if doc else _summary(module)
        p = sub.add_parser(name, help=first, description=doc or None, allow_abbrev=False,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        # Also accepted after the command word; SUPPRESS keeps a global --config from being reset.
        p.add_argument("--config", metavar="PATH", default=argparse.SUPPRESS,
                       help="the configuration file (as the global --config)")
        if mod is not None:
            mod.add_arguments(p)
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
    # The start builds thousands of objects and frees almost none: the cyclic collector would
    # sweep them again and again for nothing. It runs again before the command does, or, for
    # the commands of START_WITHOUT_GC, once they are up (device.box.end_of_start).
    collecting = gc.isenabled()
    gc.disable()
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
        if collecting and args.command not in START_WITHOUT_GC:
            gc.enable()
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
    finally:
        if collecting:
            gc.enable()


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
