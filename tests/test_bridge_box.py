"""The whole box on the bridge: `slapbox play --headless --input bridge:PATH` against the emulator
over a real pty. Scripted presses reach the table's journal stamped on the host clock with the
device's own time beside it, and a game waits (paused) while the bridge is unplugged."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from firmware_bridge.link import parse_source
from test_bridge_emulator import Emulator, _script

ROOT = Path(__file__).resolve().parents[1]


def _records(folder: Path) -> list[dict]:
    out = []
    for path in folder.glob("*.jsonl"):
        for line in path.read_text().splitlines():
            try:
                out.append(json.loads(line))
            except ValueError:
                pass  # the line being written
    return out


def _wait(what: str, folder: Path, test, seconds: float = 30.0) -> list[dict]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        records = _records(folder)
        if test(records):
            return records
        time.sleep(0.05)
    raise AssertionError(f"no {what} within {seconds} s; journal: {_records(folder)[-8:]}")


def _box(url: str, folder: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "device.cli", "play", "--headless", "--input", f"bridge:{url}",
         "--preset", "bataille-corse", "--players", "2", "--tempo", "400", "--journal", str(folder)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_presses_through_the_bridge_are_judged_with_the_devices_time_in_the_journal(tmp_path):
    emu = Emulator("--listen", f"pty:{tmp_path / 'bridge'}", "--seed", "3",
                   "--script", _script(tmp_path, "s.jsonl", [(2500, 0), (4000, 0)]))
    folder = tmp_path / "j"
    box = _box(emu.url, folder)
    try:
        records = _wait("judgement of station 0's bridge press", folder, lambda rs: any(
            r["k"] == "judge" and r.get("station") == 0 for r in rs))
        presses = [r for r in records if r["k"] == "press" and r["source"].startswith("bridge@")]
        assert presses and presses[0]["station"] == 0 and presses[0]["edge"] == "press"
        device_us, err_ns = parse_source(presses[0]["source"])
        assert device_us > 0 and 0 < err_ns < 5_000_000  # the raw stamp and its error bar, kept
        assert presses[0]["arrival"] >= presses[0]["t"]  # stamped at the device, before arrival
    finally:
        box.terminate()
        box.wait(10)
        emu.stop()


def test_a_game_waits_while_the_bridge_is_unplugged_and_goes_on_when_it_is_back(tmp_path):
    emu = Emulator("--listen", f"pty:{tmp_path / 'bridge'}", "--unplug-after", "2",
                   "--unplug-for", "1.5")
    folder = tmp_path / "j"
    box = _box(emu.url, folder)
    try:
        # the game waits for the first sync, then for the unplugged bridge
        records = _wait("two pauses and their ends", folder, lambda rs: [
            r["on"] for r in rs if r["k"] == "pause"][:4] == [True, False, True, False], seconds=40)
        pauses = [r for r in records if r["k"] == "pause"]
        paused, back = pauses[2], pauses[3]
        shown = [r["t"] for r in records if r["k"] == "shown"]
        assert not [t for t in shown if paused["t"] < t < back["t"]]  # no card while it waited
        assert back["t"] - paused["t"] > 500_000_000  # it waited for the cable, not a moment
        assert box.poll() is None  # the box is still playing
    finally:
        box.terminate()
        _, err = box.communicate(timeout=10)
        emu.stop()
    assert "buttons (bridge): disconnected" in err  # said in the log, once per loss
