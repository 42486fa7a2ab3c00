"""The microcontroller bridge: `slapbox bridge emulate` runs the firmware's logic without a Pico;
`slapbox bridge flash` copies the firmware onto one.

  slapbox bridge emulate --listen pty --script presses.jsonl   # prints: listening on PATH
  slapbox play --input bridge:PATH                             # the box reads those buttons
  slapbox bridge flash [--port /dev/ttyACM0]                   # MicroPython's mpremote copies it

`slapbox bridge emulate --help` and `slapbox bridge flash --help` list their options; the wire
protocol is firmware_bridge/PROTOCOL.md.
"""

from __future__ import annotations

import argparse
import importlib

#: action -> the module whose ``main(argv) -> int`` runs it
ACTIONS: dict[str, str] = {
    "emulate": "firmware_bridge.emulator",
    "flash": "firmware_bridge.flash",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=list(ACTIONS), metavar="ACTION",
                        help="emulate: a bridge behind a socket or a pty; flash: copy the firmware "
                             "onto a Pico")
    parser.add_argument("options", nargs=argparse.REMAINDER, metavar="...",
                        help="the action's own options (slapbox bridge ACTION --help)")


def run(args: argparse.Namespace) -> int:
    try:
        module = importlib.import_module(ACTIONS[args.action])
    except ModuleNotFoundError as e:
        print(f"slapbox bridge {args.action}: not in this checkout ({e.name})")
        return 2
    return int(module.main(list(args.options)))
