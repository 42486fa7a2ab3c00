"""``slapbox bridge flash [--port P] [--dry-run]``: copy the bridge firmware onto a Pico and reset it.

The Pico must already run MicroPython (hardware.md: hold BOOTSEL, plug in, copy the UF2). Then:

1. If the bridge firmware is running, it ignores Ctrl-C (``micropython.kbd_intr(-1)``), so
   mpremote could not take the port: send it the protocol's ``repl`` frame and wait (at most
   ``--handover-timeout`` s) for its ``bye``. A Pico at the plain REPL just sees a line of noise.
2. ``mpremote connect PORT cp <files> :``: the shared ``protocol.py`` and
   ``firmware/{bridge_core,bridge_pio,bridge_rp2,bridge_config,main}.py``, to the Pico's root.
3. ``mpremote connect PORT reset``: a hard reset; ``main.py`` starts the bridge.

The port: ``--port``, else ``/dev/slapbox-bridge`` (the udev rule), else the first USB serial port
with MicroPython's rp2 ids 2e8a:0005. ``--dry-run`` prints the steps and runs nothing.
Exit status: 0 done, 1 a step failed (one line on stderr says which and why), 2 a bad option.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import time
from importlib.util import find_spec
from pathlib import Path

from firmware_bridge import protocol as P

__all__ = ["main", "FILES", "find_port"]

HERE = Path(__file__).resolve().parent
FILES = [HERE / "protocol.py"] + [HERE / "firmware" / n for n in (
    "bridge_core.py", "bridge_pio.py", "bridge_rp2.py", "bridge_config.py", "main.py")]
STABLE = "/dev/slapbox-bridge"
VID, PID = 0x2E8A, 0x0005
PROG = "slapbox bridge flash"


class FlashError(Exception):
    """A step that cannot go on; the message is the whole one-line explanation."""


def find_port() -> str | None:
    if os.path.exists(STABLE):
        return STABLE
    try:
        from serial.tools import list_ports
    except ImportError:
        return None
    for p in list_ports.comports():
        if p.vid == VID and p.pid == PID:
            return str(p.device)
    return None


def mpremote() -> list[str] | None:
    """How to run mpremote: on PATH, else this Python's module, else None."""
    exe = shutil.which("mpremote")
    if exe:
        return [exe]
    if find_spec("mpremote") is not None:
        return [sys.executable, "-m", "mpremote"]
    return None


def commands(tool: list[str], port: str) -> list[list[str]]:
    return [tool + ["connect", port, "cp", *[str(f) for f in FILES], ":"],
            tool + ["connect", port, "reset"]]


def handover_frame() -> bytes:
    return P.DELIMITER + P.pack(P.REPL, P.REPL_MAGIC)


def hand_over(port: str, timeout: float) -> bool:
    """Ask a running bridge firmware for the REPL; True if it said bye."""
    import serial

    try:
        s = serial.serial_for_url(port, baudrate=115200, timeout=0.05)
    except (serial.SerialException, OSError, ValueError) as e:
        raise FlashError(f"{port}: cannot open the port ({e}); is the Pico plugged in, "
                         "and is the user in group dialout?") from None
    try:
        s.write(handover_frame())
        s.flush()
        reader = P.FrameReader()
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for mtype, _payload in reader.feed(s.read(256)):
                if mtype == P.BYE:
                    return True
        return False
    finally:
        s.close()


def _run(cmd: list[str], what: str) -> None:
    r = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if r.returncode != 0:
        lines = [ln.strip() for ln in (r.stderr + r.stdout).splitlines() if ln.strip()]
        why = lines[-1] if lines else "no message"
        raise FlashError(f"mpremote {what} failed (exit {r.returncode}): {why}")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        print(f"{PROG}: {message} (see --help)", file=sys.stderr)
        raise SystemExit(2)


def make_parser() -> argparse.ArgumentParser:
    p = _Parser(prog=PROG, description="Copy the bridge firmware onto a Pico running MicroPython "
                "(mpremote) and reset it.")
    p.add_argument("--port", help=f"the Pico's serial port (default: {STABLE}, else the first "
                   "2e8a:0005 USB serial port)")
    p.add_argument("--dry-run", action="store_true", help="print the steps, run nothing")
    p.add_argument("--handover-timeout", type=float, default=1.0, metavar="S",
                   help="how long to wait for a running firmware's bye (default 1 s)")
    return p


def main(argv: list[str]) -> int:
    try:
        args = make_parser().parse_args(argv)
    except SystemExit as e:
        return int(e.code or 0)
    missing = [str(f) for f in FILES if not f.is_file()]
    if missing:
        print(f"{PROG}: firmware files missing: {', '.join(missing)} (expected a full checkout)",
              file=sys.stderr)
        return 1
    port = args.port or find_port()
    tool = mpremote()
    if args.dry_run:
        shown = port or STABLE
        print(f"# 1. hand the port to the REPL: write {handover_frame().hex(' ')} to {shown}, "
              f"wait up to {args.handover_timeout:g} s for a bye frame")
        for i, cmd in enumerate(commands(tool or ["mpremote"], shown), start=2):
            print(f"# {i}.")
            print(shlex.join(cmd))
        return 0
    try:
        if tool is None:
            raise FlashError("mpremote not found: install it (pip install mpremote, or "
                             "pip install -e '.[dev]') and try again")
        if port is None:
            raise FlashError(f"no Pico found (expected {STABLE} or a USB serial port "
                             f"{VID:04x}:{PID:04x}): plug it in, or pass --port; a new Pico "
                             "needs MicroPython first (hardware.md)")
        if "://" not in port and not os.path.exists(port):
            raise FlashError(f"--port {port}: no such device (is the Pico plugged in?)")
        said_bye = hand_over(port, args.handover_timeout)
        print("the bridge firmware handed the port to the REPL" if said_bye else
              "no bridge firmware answered: assuming MicroPython's REPL", flush=True)
        cp, reset = commands(tool, port)
        _run(cp, "cp")
        _run(reset, "reset")
    except FlashError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 1
    print(f"copied {len(FILES)} files to {port} and reset it: the bridge is starting")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
