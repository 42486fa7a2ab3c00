"""Frame time of a busy game screen: build the scene and draw it (SDL dummy driver, no flip), p50/p99.

A bots' game of Bataille corse runs in virtual time, 50 ms of table time per frame (busier than
real time: a card, a slap or a won pile every few frames); each frame builds the Scene from the
table and the feed and draws it with one Renderer (dirty rectangles, as the app does). Card faces
are rendered once before timing, as the app should at start-up. Wall-clock and CPU time are both
reported: on a busy machine the wall-clock tail is the scheduler's, not the frame's.

    slapbox bench frame [--frames 500] [--size 800x480 --size 480x320]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from device.clock import VirtualClock  # noqa: E402
from device.rules.cards import make_deck  # noqa: E402
from device.screen import cardart  # noqa: E402
from device.screen.display import open_display  # noqa: E402
from device.screen.feed import Feed  # noqa: E402
from device.screen.render import Renderer  # noqa: E402
from device.screen.scene import game_scene  # noqa: E402
from device.table.runner import Runner  # noqa: E402
from device.table.session import DEFAULT_NAMES, GameSpec, bot_hands, make_table  # noqa: E402
from device.table.table import assign_seats  # noqa: E402

MS = 1_000_000
FRAME_NS = 50 * MS


def _pct(values: list[int], p: float) -> float:
    ordered = sorted(values)
    i = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[i] / 1e6


def bench(size: tuple[int, int], frames: int = 500, seed: int = 1) -> dict[str, float]:
    """Milliseconds per frame at ``size``: scene build, draw, and both (p50, p99), dirty share."""
    display = open_display(size, driver="dummy")
    surface = display.surface
    renderer = Renderer()
    build_ns: list[int] = []
    draw_ns: list[int] = []
    total_ns: list[int] = []
    cpu_ns: list[int] = []
    dirty_share: list[float] = []
    warmed: set[int] = set()
    while len(total_ns) < frames:
        seats = assign_seats(4, [], DEFAULT_NAMES, bots="free", level="hard")
        table = make_table(GameSpec("bataille-corse", seed, seats, {"slaps": ["doubles", "sandwich", "top-bottom"]}),
                           start_ns=0)
        feed = Feed(tie_window_ns=table.arbiter_settings.tie_ns)
        clock = VirtualClock(0)
        runner = Runner(table, clock, hands=bot_hands(table), outputs=[feed.push])
        t = 0
        while table.game.outcome() is None and len(total_ns) < frames:
            t += FRAME_NS
            runner.run_virtual(limit_ns=t)
            c0 = time.thread_time_ns()
            t0 = time.perf_counter_ns()
            scene = game_scene(table, feed, t, size, "en")
            t1 = time.perf_counter_ns()
            c1 = time.thread_time_ns()
            if not warmed:
                heights = {c.height for c in scene.cards} or {0}
                for h in heights - {0}:
                    for c in make_deck(54):
                        cardart.render_card(c, h)
                    cardart.render_back(h)
                warmed |= heights
            c1b = time.thread_time_ns()
            t1b = time.perf_counter_ns()
            dirty = renderer.draw(scene, surface)
            t2 = time.perf_counter_ns()
            cpu_ns.append(c1 - c0 + time.thread_time_ns() - c1b)
            build_ns.append(t1 - t0)
            draw_ns.append(t2 - t1b)
            total_ns.append(t1 - t0 + t2 - t1b)
            dirty_share.append(sum(r.w * r.h for r in dirty) / (size[0] * size[1]))
        seed += 1
    display.close()
    return {"frames": float(len(total_ns)),
            "build_p50_ms": _pct(build_ns, 50), "build_p99_ms": _pct(build_ns, 99),
            "draw_p50_ms": _pct(draw_ns, 50), "draw_p99_ms": _pct(draw_ns, 99),
            "total_p50_ms": _pct(total_ns, 50), "total_p99_ms": _pct(total_ns, 99),
            "cpu_p50_ms": _pct(cpu_ns, 50), "cpu_p99_ms": _pct(cpu_ns, 99),
            "mean_dirty_share": statistics.fmean(dirty_share)}


def _size(text: str) -> tuple[int, int]:
    w, _, h = text.lower().partition("x")
    try:
        return int(w), int(h)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 800x480, got {text!r}") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="slapbox bench frame", description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=500)
    parser.add_argument("--size", type=_size, action="append", help="WxH (repeatable; default 800x480 and 480x320)")
    args = parser.parse_args(argv)
    for size in args.size or [(800, 480), (480, 320)]:
        r = bench(size, args.frames)
        print(f"{size[0]}x{size[1]}: {int(r['frames'])} frames; build p50 {r['build_p50_ms']:.2f} ms "
              f"p99 {r['build_p99_ms']:.2f} ms; draw p50 {r['draw_p50_ms']:.2f} ms p99 {r['draw_p99_ms']:.2f} ms; "
              f"total p50 {r['total_p50_ms']:.2f} ms p99 {r['total_p99_ms']:.2f} ms "
              f"(CPU time p50 {r['cpu_p50_ms']:.2f} ms p99 {r['cpu_p99_ms']:.2f} ms); "
              f"redrawn {100 * r['mean_dirty_share']:.0f}% of the screen on average")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
