"""Measure speed: `slapbox bench TARGET [its options]` (`slapbox bench TARGET --help` lists them).

engine: cards/s of every preset through the rules engine; press: CPU cost of the press path
(debounce, arbiter, table, journal); lateness: how late slaps are judged on the real clock during
a storm of presses; frame: time to build and draw a busy game frame; app: start-up, CPU and memory
of `slapbox play` in a real window; bots: the rule bot against a random player; bridge: the bridge's
codec, clock sync and press delivery. Benchmarks print
figures; they never pass or fail on a time (machines are shared and noisy).
"""

from __future__ import annotations

import argparse
import importlib

#: target -> the module whose ``main(argv) -> int`` runs it (all under device.bench, apart from
#: the product's code)
TARGETS: dict[str, str] = {
    "engine": "device.bench.engine",
    "press": "device.bench.press",
    "lateness": "device.bench.lateness",
    "frame": "device.bench.frame",
    "app": "device.bench.app",
    "bots": "device.bench.bots",
    "startup": "device.bench.startup",
    "bridge": "firmware_bridge.bench",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", choices=list(TARGETS), metavar="TARGET",
                        help="what to measure: " + ", ".join(TARGETS))
    parser.add_argument("options", nargs=argparse.REMAINDER, metavar="...",
                        help="the target's own options (slapbox bench TARGET --help)")


def run(args: argparse.Namespace) -> int:
    main = importlib.import_module(TARGETS[args.target]).main
    return int(main(list(args.options)))
