"""Print the pin map in use on the 40-pin header, and draw it as an SVG (buttons, LEDs, loopback).

  slapbox wiring                         station, button, GPIO, header pin, what else uses the pin
  slapbox wiring --svg FILE              also draw the header with every wire (FILE - : stdout)
  slapbox wiring --with spi-panel        name the pins a 3.5" SPI panel takes (also: i2s, i2s-i2c)

The map is the config's [pins] (--config PATH), so the picture never drifts from what the box
runs. A pin that something else needs (an attached board, the UART, a boot pull-up under an LED)
is named as a conflict (exit status 1); a use that needs a config.txt line (enable_uart=0 for
the UART pins, gpio=N=op,dl for an LED pulled up at boot) is listed under "needs".
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from device.inputs.header import ATTACHED, conflicts, notes, rows_from_pins, svg

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--svg", metavar="FILE", default=None,
                        help="write an SVG of the header with every wire ('-': standard output)")
    parser.add_argument("--with", dest="attached", action="append", default=[],
                        choices=sorted(ATTACHED), metavar="BOARD",
                        help="a board on the header whose pins count as taken: "
                             + ", ".join(sorted(ATTACHED)) + " (repeatable)")
    parser.add_argument("--title", default=None, help="the SVG's title (default: the config file)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")


def run(args: argparse.Namespace) -> int:
    from device.config.schema import load_config
    cfg = load_config(getattr(args, "config", None))
    pins = dict(cfg.section("pins"))
    rows = rows_from_pins(pins, args.attached)
    found = conflicts(rows)
    needs = notes(rows)
    if args.json:
        print(json.dumps({"config": str(cfg.path), "rows": [r.to_dict() for r in rows],
                          "conflicts": found, "notes": needs}, indent=2))
    elif args.svg != "-":
        print(f"pin map of {cfg.path}" + ("" if cfg.found else " (not found: the defaults)")
              + (f", with {', '.join(args.attached)}" if args.attached else ""))
        print(f"{'station':<9} {'button':<11} {'GPIO':>4} {'header':>6}  also")
        for r in rows:
            print(f"{r.station:<9} {r.role:<11} {r.gpio:>4} {r.header:>6}  {r.also}")
        for line in needs:
            print(f"needs: {line}")
        for line in found:
            print(f"conflict: {line}")
        if not found:
            print("no conflict")
    if args.svg:
        title = args.title or f"slapbox wiring: {cfg.path if cfg.found else 'the default pin map'}"
        picture = svg(rows, title, args.attached)
        if args.svg == "-":
            sys.stdout.write(picture)
        else:
            Path(args.svg).write_text(picture, encoding="utf-8")
            if not args.json:
                print(f"wrote {args.svg}")
    return 1 if found else 0
