"""The emulator in a subprocess, over a real pty and over a socket: scripted presses reach the
arbiter stamped on the host clock; kills, unplugs, resets and a lossy line lose or double nothing."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import time
from pathlib import Path
from random import Random
from typing import Any

import pytest

from device.clock import MonotonicClock
from device.inputs.bridge import BridgeInput
from device.inputs.press import Press
from firmware_bridge.link import BridgeStatus, parse_source, wait_until

try:  # the arbiter's home during the device/ refactor
    from device.table.arbiter import Arbiter, Award
except ImportError:  # pragma: no cover
    from device.arbiter import Arbiter, Award  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parents[1]
MS = 1_000_000


class Emulator:
    """``python -m firmware_bridge.emulator`` as a child process, its output lines collected."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "firmware_bridge.emulator", *args],
                                     cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)
        assert self.proc.stdout is not None
        first = self.proc.stdout.readline().strip()
        assert first.startswith("listening on "), (first, self.proc.stderr.read())
        self.url = first[len("listening on "):]
        self.lines: queue.SimpleQueue[str] = queue.SimpleQueue()
        import threading
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.strip())

    def presses(self) -> list[dict[str, int]]:
        """The emulator's own record of each scripted press: station, host_ns, device_us."""
        out = []
        while True:
            try:
                line = self.lines.get_nowait()
            except queue.Empty:
                return out
            if line.startswith("press "):
                _, station, button, host, dev = line.split()
                out.append({"station": int(station), "button": button,
                            "host_ns": int(host.split("=")[1]), "device_us": int(dev.split("=")[1])})

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(5)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(5)


def _script(tmp_path: Path, name: str, presses: list[tuple[float, int]]) -> str:
    p = tmp_path / name
    p.write_text("".join(json.dumps({"t_ms": t, "station": s, "button": "slap"}) + "\n"
                         for t, s in presses))
    return str(p)


def _collect(q: queue.SimpleQueue[Any], want: int, timeout_s: float) -> list[Press]:
    got: list[Press] = []
    deadline = time.monotonic() + timeout_s
    while len(got) < want and time.monotonic() < deadline:
        try:
            e = q.get(timeout=0.05)
        except queue.Empty:
            continue
        if isinstance(e, Press) and e.edge == "press":
            got.append(e)
    return got


@pytest.fixture
def emulators() -> Any:
    started: list[Emulator] = []

    def start(*args: str) -> Emulator:
        e = Emulator(*args)
        started.append(e)
        return e

    yield start
    for e in started:
        e.stop()


@pytest.mark.parametrize("listen", ["pty", "socket://127.0.0.1:0"])
def test_scripted_presses_are_judged_by_the_arbiter_on_the_host_clock(
        tmp_path: Path, emulators: Any, listen: str) -> None:
    if listen == "pty":
        listen = f"pty:{tmp_path / 'bridge'}"
    script = _script(tmp_path, "s.jsonl", [(800, 2), (800.3, 0), (1200, 1)])
    emu = emulators("--listen", listen, "--script", script, "--offset-us", "987654321",
                    "--drift-ppm", "150", "--latency-ms", "0.1,0.6", "--seed", "3")
    if listen.startswith("pty:"):
        assert emu.url == str(tmp_path / "bridge") and os.path.islink(emu.url)
    q: queue.SimpleQueue[Any] = queue.SimpleQueue()
    clock = MonotonicClock()
    with BridgeInput(emu.url, q, clock=clock) as bridge:
        got = _collect(q, 3, 15)
        assert bridge.connected
    truth = emu.presses()
    assert [p.station for p in got] == [2, 0, 1] == [t["station"] for t in truth]
    for p, t in zip(got, truth):
        dev_us, err_us = parse_source(p.source) or (None, None)
        assert dev_us == t["device_us"]  # the raw device time is kept
        # mapped onto the host clock: the 987 s offset and 150 ppm are gone; what is left is
        # the error bar plus the emulator's own unequal processing time in the two directions
        assert abs(p.t_ns - t["host_ns"]) <= err_us * 1000 + 2 * MS, (p, t)
    # the arbiter orders by those stamps: station 0 pressed 0.3 ms after station 2
    arb = Arbiter(3, Random(1))
    arb.shown(0, got[0].t_ns - 100 * MS, True)
    for p in got[:2]:
        arb.press(p.station, p.t_ns, clock.now_ns())
    awards = [d for d in arb.advance(clock.now_ns() + 10**9) if isinstance(d, Award)]
    assert [a.station for a in awards] == [2]


def test_a_killed_and_restarted_emulator_loses_and_doubles_nothing_acknowledged(
        tmp_path: Path, emulators: Any) -> None:
    link = str(tmp_path / "bridge")
    first = emulators("--listen", f"pty:{link}", "--script",
                      _script(tmp_path, "a.jsonl", [(300 + 150 * i, i % 4) for i in range(4)]))
    q: queue.SimpleQueue[Any] = queue.SimpleQueue()
    statuses: list[BridgeStatus] = []
    with BridgeInput(link, q, clock=MonotonicClock(), on_status=statuses.append) as bridge:
        got = _collect(q, 4, 15)
        assert [p.station for p in got] == [0, 1, 2, 3]
        wait_until(lambda: bridge.link.session.heartbeat.get("queue_len") == 0, 5)
        first.kill()  # mid-stream: no goodbye
        assert wait_until(lambda: not bridge.connected, 5)
        second = emulators("--listen", f"pty:{link}", "--script",
                           _script(tmp_path, "b.jsonl", [(400 + 150 * i, 3 - i) for i in range(4)]))
        got2 = _collect(q, 4, 15)
        assert [p.station for p in got2] == [3, 2, 1, 0]
        assert [t["device_us"] for t in second.presses()] == \
            [parse_source(p.source)[0] for p in got2]  # type: ignore[index]
        assert _collect(q, 1, 0.5) == []  # nothing doubled
        assert bridge.counters()["reset"] == 1  # a new boot id: the host said so
        assert any("restarted" in s.reason for s in statuses)


def test_an_unplugged_lossy_line_delivers_every_press_exactly_once(
        tmp_path: Path, emulators: Any) -> None:
    presses = [(300 + 120 * i, i % 4) for i in range(12)]
    emu = emulators("--listen", "socket://127.0.0.1:0", "--script",
                    _script(tmp_path, "c.jsonl", presses), "--drop", "0.25", "--duplicate",
                    "0.2", "--garble", "0.1", "--unplug-after", "0.9", "--unplug-for", "0.5",
                    "--seed", "7")
    q: queue.SimpleQueue[Any] = queue.SimpleQueue()
    with BridgeInput(emu.url, q, clock=MonotonicClock()) as bridge:
        got = _collect(q, 12, 30)
        assert _collect(q, 1, 0.5) == []
        c = bridge.counters()
    truth = emu.presses()
    assert [parse_source(p.source)[0] for p in got] == [t["device_us"] for t in truth]  # type: ignore[index]
    assert [p.station for p in got] == [s for _, s in presses]
    assert c["connections"] >= 2 and c.get("crc", 0) + c.get("cobs", 0) > 0
    assert c.get("reset", 0) == 0  # an unplug is not a reset: the device resent its queue


def test_a_reset_is_detected_and_the_game_can_go_on(tmp_path: Path, emulators: Any) -> None:
    emu = emulators("--listen", "socket://127.0.0.1:0", "--reset-after", "0.6", "--script",
                    _script(tmp_path, "d.jsonl", [(200, 1), (1500, 2)]))
    q: queue.SimpleQueue[Any] = queue.SimpleQueue()
    with BridgeInput(emu.url, q, clock=MonotonicClock()) as bridge:
        got = _collect(q, 2, 15)
        assert [p.station for p in got] == [1, 2]
        assert bridge.counters()["reset"] == 1
        assert wait_until(lambda: bridge.connected, 5)


@pytest.mark.parametrize("args,message", [
    (["--listen", "udp://x"], "expected socket://HOST:PORT or pty[:PATH]"),
    (["--listen", "pty", "--latency-ms", "3,1"], "expected MIN,MAX in milliseconds"),
    (["--listen", "pty", "--drop", "2"], "expected a probability per frame from 0 to 1"),
    (["--listen", "pty", "--script", "/nonexistent/s.jsonl"], "cannot read the script"),
    (["--drop", "0.1"], "--listen"),
])
def test_bad_options_give_one_line_naming_what_was_expected(args: list[str], message: str) -> None:
    r = subprocess.run([sys.executable, "-m", "firmware_bridge.emulator", *args], cwd=ROOT,
                       capture_output=True, text=True, timeout=20)
    assert r.returncode == 2
    assert message in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "Traceback" not in r.stderr


def test_a_bad_script_line_names_its_file_line_and_what_was_expected(tmp_path: Path) -> None:
    p = tmp_path / "bad.jsonl"
    p.write_text('{"t_ms": 1, "station": 0}\n{"t_ms": 2, "station": 9}\n')
    r = subprocess.run([sys.executable, "-m", "firmware_bridge.emulator", "--listen", "pty",
                        "--script", str(p)], cwd=ROOT, capture_output=True, text=True, timeout=20)
    assert r.returncode == 2
    assert f"{p}: line 2: station=9, expected 0 to 3" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_a_bad_url_is_refused_before_any_thread_starts() -> None:
    from firmware_bridge.link import BridgeURLError
    with pytest.raises(BridgeURLError, match="expected a serial device"):
        BridgeInput("nope://x", queue.SimpleQueue(), clock=MonotonicClock())
    with pytest.raises(BridgeURLError, match="socket://HOST:PORT"):
        BridgeInput("socket://localhost", queue.SimpleQueue(), clock=MonotonicClock())
