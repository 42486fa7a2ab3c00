"""The bridge's benchmarks: decoding speed, clock-sync error and its bar, press-to-arbiter delivery
over a real pty, and a million random bytes into the link (``slapbox bench bridge``)."""

from __future__ import annotations

import argparse
import json
import queue
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from firmware_bridge import protocol as P
from firmware_bridge.clocksync import ClockSync, HostClocks
from firmware_bridge.link import BridgeConfig, BridgeEdge, HostSession

__all__ = ["main", "decode_rate", "simulate_sync", "sync_figures", "random_bytes", "delivery"]

MS = 1_000_000


def decode_rate(frames: int = 200_000) -> float:
    """Frames per second through `FrameReader` and `unpack` (4 KiB reads, as from a port)."""
    one = b"".join(P.pack(P.EDGE, i, 10**9 + i, i % 8, 0, i % 2) for i in range(1, 101))
    stream = one * (frames // 100)
    chunks = [stream[i:i + 4096] for i in range(0, len(stream), 4096)]
    r = P.FrameReader()
    t0 = time.perf_counter()
    n = 0
    for c in chunks:
        for mtype, payload in r.feed(c):
            P.unpack(mtype, payload)
            n += 1
    dt = time.perf_counter() - t0
    assert n == frames and not r.errors
    return n / dt


def simulate_sync(seed: int, duration_s: float = 5.0, rate_hz: float = 100, drift_ppm: float = 100,
                  floor_ns: int = 200_000, jitter_ns: int = 2_000_000, slew_ppm: float = 500,
                  asymmetry_ns: int = 0) -> tuple[int, int]:
    """(error ns, error bar ns) of one press mapped after ``duration_s`` of pings.

    The device crystal is ``drift_ppm`` off; the host's monotonic clock is slewed in steps of up
    to ``slew_ppm`` (a new rate every 0.2-2 s) against the raw clock; each direction's latency
    is the floor plus an independent uniform jitter (``asymmetry_ns`` more on the way back: the
    bias no end can see); the press happens 0.2-10 ms before it is mapped.
    """
    rnd = random.Random(seed)
    off_us = rnd.randrange(1, 10**9)
    changes: list[tuple[float, float]] = []
    t, total = 0.0, (duration_s + 1) * 1e9
    while t < total:
        changes.append((t, rnd.uniform(-slew_ppm, slew_ppm)))
        t += rnd.uniform(0.2e9, 2e9)

    def mono(r: float) -> float:
        m, (pt, ps) = 0.0, changes[0]
        for ct, cs in changes[1:]:
            if ct >= r:
                break
            m += (ct - pt) * (1 + ps * 1e-6)
            pt, ps = ct, cs
        return m + (r - pt) * (1 + ps * 1e-6)

    def dev(r: float) -> int:
        return off_us + int(r * (1 + drift_ppm * 1e-6) // 1000)

    now = [0]
    sync = ClockSync()
    clocks = HostClocks(lambda: now[0], lambda: round(mono(now[0])))
    r, period = 0.0, 1e9 / rate_hz
    while r < duration_s * 1e9:
        up = floor_ns + rnd.uniform(0, jitter_ns)
        down = floor_ns + asymmetry_ns + rnd.uniform(0, jitter_ns)
        sync.add(int(r), dev(r + up), dev(r + up + 20_000), int(r + up + 20_000 + down))
        r += period
    now[0] = int(r)
    pressed = r - rnd.uniform(200_000, 10_000_000)
    m = sync.to_raw(dev(pressed))
    host, extra = clocks.to_host(m.t_ns)
    return round(host - mono(pressed)), m.err_ns + extra


def _pct(xs: list[int], q: float) -> int:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def sync_figures(runs: int = 300, seed: int = 1, **kw: Any) -> dict[str, float]:
    errs, bars = [], []
    for i in range(runs):
        e, b = simulate_sync(seed * 100_003 + i, **kw)
        errs.append(e)
        bars.append(b)
    return {"runs": runs, "p50_us": _pct([abs(e) for e in errs], 0.5) / 1000,
            "p99_us": _pct([abs(e) for e in errs], 0.99) / 1000,
            "max_us": max(abs(e) for e in errs) / 1000,
            "coverage": sum(abs(e) <= b for e, b in zip(errs, bars)) / runs,
            "bar_p50_us": _pct(bars, 0.5) / 1000}


def random_bytes(n: int = 1_000_000, seed: int = 1) -> dict[str, int]:
    """``n`` random bytes into a configured, synchronised host session: crashes, false presses."""
    rnd = random.Random(seed)
    got: list[BridgeEdge] = []
    clocks = HostClocks(lambda: 0, lambda: 0)
    s = HostSession(BridgeConfig(), clocks, got.append)
    s.connection_made(0)
    s.data_received(P.pack_hello(1, [(0, 1, 20)] * 8, 28), 0)
    for i in range(20):
        t = 20 * MS * i
        s._pings[i + 1] = t
        s.data_received(P.pack(P.PONG, i + 1, t, t // 1000, t // 1000), t + 100_000)
    crashes = 0
    done = 0
    while done < n:
        k = min(rnd.randrange(1, 2048), n - done)
        try:
            s.data_received(rnd.randbytes(k), 10**9)
        except Exception:  # noqa: BLE001 -- what we count
            crashes += 1
        done += k
    errors = s.errors()
    return {"bytes": n, "crashes": crashes, "false_presses": len(got),
            "rejected": sum(errors.values())}


def delivery(presses: int = 60, timeout_s: float = 60.0) -> dict[str, float]:
    """Press-to-arbiter delivery through the emulator over a real pty: from the emulated pin's
    change (its CLOCK_MONOTONIC) to the Press on the box's queue, p50/p99 in ms."""
    from device.clock import MonotonicClock
    from device.inputs.bridge import BridgeInput
    from device.inputs.press import Press

    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "s.jsonl"
        script.write_text("".join(json.dumps({"t_ms": 1000 + 97 * i, "station": i % 4}) + "\n"
                                  for i in range(presses)))
        link = str(Path(tmp) / "bridge")
        emu = subprocess.Popen([sys.executable, "-m", "firmware_bridge.emulator", "--listen",
                                f"pty:{link}", "--script", str(script)], stdout=subprocess.PIPE,
                               text=True)
        try:
            assert emu.stdout is not None
            emu.stdout.readline()
            q: queue.SimpleQueue[Any] = queue.SimpleQueue()
            clock = MonotonicClock()
            arrivals: list[tuple[Press, int]] = []
            with BridgeInput(link, lambda e: q.put((e, clock.now_ns())), clock=clock):
                deadline = time.monotonic() + timeout_s
                while len(arrivals) < presses and time.monotonic() < deadline:
                    try:
                        e, at = q.get(timeout=0.1)
                    except queue.Empty:
                        continue
                    if isinstance(e, Press) and e.edge == "press":
                        arrivals.append((e, at))
            emu.terminate()
            out = emu.communicate(timeout=10)[0]
        finally:
            if emu.poll() is None:
                emu.kill()
        truth = [int(line.split("host_ns=")[1].split()[0]) for line in out.splitlines()
                 if line.startswith("press ")]
        lat = [at - t for (_, at), t in zip(arrivals, truth)]
        err = [p.t_ns - t for (p, _), t in zip(arrivals, truth)]
        return {"presses": len(lat), "p50_ms": _pct(lat, 0.5) / MS, "p99_ms": _pct(lat, 0.99) / MS,
                "stamp_error_p50_us": _pct([abs(e) for e in err], 0.5) / 1000,
                "stamp_error_p99_us": _pct([abs(e) for e in err], 0.99) / 1000}


def main(argv: list[str]) -> int:
    """``slapbox bench bridge``: prints one line per figure."""
    p = argparse.ArgumentParser(prog="slapbox bench bridge", description=__doc__)
    p.add_argument("--frames", type=int, default=200_000)
    p.add_argument("--sync-runs", type=int, default=300)
    p.add_argument("--presses", type=int, default=60)
    p.add_argument("--random-bytes", type=int, default=1_000_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--skip-pty", action="store_true", help="no emulator subprocess")
    a = p.parse_args(argv)
    print(f"decode: {decode_rate(a.frames):,.0f} frames/s (goal >= 50,000)")
    f = sync_figures(a.sync_runs, a.seed)
    print(f"clock sync after 5 s (100 ppm drift, host slew steps to 500 ppm, latency 0.2 ms + "
          f"U(0, 2 ms) each way, {f['runs']} runs): error p50 {f['p50_us']:.1f} us, p99 "
          f"{f['p99_us']:.1f} us (goal <= 50), max {f['max_us']:.1f} us; error bar p50 "
          f"{f['bar_p50_us']:.1f} us, covers {100 * f['coverage']:.1f}% (goal >= 99%)")
    g = sync_figures(max(20, a.sync_runs // 5), a.seed, asymmetry_ns=100_000)
    print(f"  with 0.1 ms more minimum latency device->host (invisible): error p50 "
          f"{g['p50_us']:.1f} us (expected ~50: half of it), bar covers {100 * g['coverage']:.1f}%")
    r = random_bytes(a.random_bytes, a.seed)
    print(f"random bytes: {r['bytes']:,} -> {r['crashes']} crashes, {r['false_presses']} false "
          f"presses, {r['rejected']:,} chunks rejected and counted")
    if not a.skip_pty:
        d = delivery(a.presses)
        print(f"press to arbiter over a pty (emulator, {d['presses']} presses): p50 "
              f"{d['p50_ms']:.2f} ms, p99 {d['p99_ms']:.2f} ms; stamp error p50 "
              f"{d['stamp_error_p50_us']:.1f} us, p99 {d['stamp_error_p99_us']:.1f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
