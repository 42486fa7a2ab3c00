"""Footprint of `slapbox play` in a real window: start to first frame, CPU and memory.

``slapbox bench app`` starts Xvfb (when no DISPLAY is set and Xvfb is installed), then runs
``slapbox play`` twice as a separate process and reads /proc:
- busy: four bots playing bataille corse (``--bots all``) for ``--seconds``: CPU % of one core and
  peak resident memory (VmHWM);
- idle: a game in ``flip_mode = "buttons"`` whose first seat is a person who never flips: nothing
  happens on the table, so this is the cost of the loop itself; once with the keyboard (developer
  mode, keys looked for every 20 ms) and once as the box (GPIO, here gpiozero's mock pins);
and the time from starting the process to its "first frame" line, for each run. CPU is measured
after the first 6 s (the bots lay their first cards, then the person's turn never ends).
A benchmark: it prints figures and never fails on a time.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def measure(args: list[str], env: dict[str, str], seconds: float,
            settle: float = 6.0) -> tuple[float, float, float]:
    """(seconds to first frame, CPU % of one core after it, peak RSS MB)."""
    t0 = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "device.cli", "play", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            stdin=subprocess.DEVNULL)
    try:
        first = None
        while first is None:
            line = proc.stdout.readline()  # type: ignore[union-attr]
            if not line:
                raise RuntimeError("slapbox play ended before its first frame")
            if "first frame" in line:
                first = time.monotonic() - t0
        time.sleep(settle)  # the first cards are dealt; then the table is as it will stay
        cpu0, w0 = cpu_seconds(proc.pid), time.monotonic()
        time.sleep(seconds)
        cpu = (cpu_seconds(proc.pid) - cpu0) / (time.monotonic() - w0) * 100
        return first, cpu, peak_rss_mb(proc.pid)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="slapbox bench app", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=20.0, help="how long each run is watched (20)")
    ap.add_argument("--window", default="800x480")
    ap.add_argument("--spin-ms", type=float, default=None, metavar="MS",
                    help="[service] spin_ms for the runs (default: the config's default, 2)")
    args = ap.parse_args(argv)
    env = {**os.environ, "SDL_AUDIODRIVER": os.environ.get("SDL_AUDIODRIVER", "dummy")}
    xvfb = None
    if not env.get("DISPLAY") and env.get("SDL_VIDEODRIVER") not in ("dummy", "kmsdrm"):
        if not shutil.which("Xvfb"):
            print("bench_app: no DISPLAY and no Xvfb: install xvfb, or set SDL_VIDEODRIVER", file=sys.stderr)
            return 2
        read_fd, write_fd = os.pipe()
        xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write_fd), "-screen", "0", "1280x800x24",
                                 "-nolisten", "tcp"], pass_fds=(write_fd,),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write_fd)
        with os.fdopen(read_fd) as f:
            env["DISPLAY"] = ":" + f.readline().strip()
    with tempfile.TemporaryDirectory() as tmp:
        idle_cfg = Path(tmp) / "idle.toml"
        service = "" if args.spin_ms is None else f"[service]\nspin_ms = {args.spin_ms}\n"
        idle_cfg.write_text("[inputs]\nflip_mode = \"buttons\"\n[timing]\nauto_flip_timeout_ms = 60000\n"
                            + service)
        box_cfg = Path(tmp) / "box.toml"
        box_cfg.write_text("[inputs]\nsource = \"gpio\"\nflip_mode = \"buttons\"\n[pins]\nfactory = \"mock\"\n"
                           "[timing]\nauto_flip_timeout_ms = 60000\n" + service)
        empty = Path(tmp) / "empty.toml"
        empty.write_text(service)
        common = ["--window", args.window, "--journal", "none", "--lang", "en"]
        try:
            busy = measure(["--bots", "all", "--players", "4", "--preset", "bataille-corse", *common],
                           {**env, "SLAPBOX_CONFIG": str(empty)}, args.seconds)
            idle = measure(["--players", "4", "--preset", "bataille-corse", *common],
                           {**env, "SLAPBOX_CONFIG": str(idle_cfg)}, args.seconds)
            box = measure(["--players", "4", "--preset", "bataille-corse", *common],
                          {**env, "SLAPBOX_CONFIG": str(box_cfg)}, args.seconds)
        finally:
            if xvfb is not None:
                xvfb.terminate()
                xvfb.wait(timeout=10)
    where = f"DISPLAY={env.get('DISPLAY')}" if env.get("DISPLAY") else f"SDL_VIDEODRIVER={env.get('SDL_VIDEODRIVER')}"
    print(f"slapbox play {args.window}, {where}, watched {args.seconds:g} s each:")
    print(f"  busy (4 bots playing): first frame {busy[0]:.2f} s after start, CPU {busy[1]:.1f}% of one "
          f"core, peak RSS {busy[2]:.1f} MB")
    print(f"  idle, keyboard (nothing happening): first frame {idle[0]:.2f} s after start, CPU "
          f"{idle[1]:.1f}% of one core, peak RSS {idle[2]:.1f} MB")
    print(f"  idle, the box (GPIO on gpiozero's mock pins): first frame {box[0]:.2f} s after start, CPU "
          f"{box[1]:.1f}% of one core, peak RSS {box[2]:.1f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
