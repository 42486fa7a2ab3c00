"""A bridge without the hardware: the firmware's own logic on CPython, behind a socket or a pty.

``slapbox bridge emulate --listen URL`` runs `firmware_bridge.protocol.Device` (the code the Pico
runs) with an emulated µs counter (``--offset-us``, ``--drift-ppm``, on CLOCK_MONOTONIC_RAW like
a crystal that NTP never slews), a line with latency (``--latency-ms MIN,MAX``, each frame
independently, order kept as on a serial line) and faults on what the device sends (``--garble``,
``--drop``, ``--duplicate`` as a probability per frame; ``--reset-after S``: a reboot with a new
boot id; ``--unplug-after S``: the cable out for ``--unplug-for`` seconds, the device keeps its
unacknowledged events). Scripted presses (``--script FILE``, the press-script format, times from
the first connection) press the button at their time and let go ``hold_ms`` (default 60) later.

``--listen socket://127.0.0.1:PORT`` (PORT 0: any free port) or ``--listen pty`` (or
``pty:PATH``): a pseudo-terminal reached through a stable symlink (default
``$XDG_RUNTIME_DIR/slapbox-bridge``), re-pointed when the emulator restarts or replugs, so
``--input bridge:PATH`` keeps working. It prints ``listening on URL`` with the URL to give
``--input bridge:``, then one line per scripted press: ``press STATION BUTTON host_ns=T
device_us=D`` (T on CLOCK_MONOTONIC, the box's clock), so a test can check the mapping.
"""

from __future__ import annotations

import argparse
import functools
import heapq
import json
import os
import random
import select
import signal
import socket
import sys
import time
import tty
from collections.abc import Callable
from typing import Any

from firmware_bridge import protocol as P

__all__ = ["main", "Emulator", "EmulatorError", "load_script", "parse_latency"]

MS = 1_000_000


class EmulatorError(ValueError):
    """An option or a script line the emulator cannot use (the message says what was expected)."""


def _raw_ns() -> int:
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC_RAW)


def parse_latency(text: str) -> tuple[float, float]:
    parts = text.split(",")
    try:
        lo, hi = (float(parts[0]), float(parts[-1])) if len(parts) in (1, 2) else (None, None)
    except ValueError:
        lo = hi = None
    if lo is None or hi is None or not 0 <= lo <= hi or hi > 10_000:
        raise EmulatorError(f"--latency-ms {text!r}: expected MIN,MAX in milliseconds with "
                            "0 <= MIN <= MAX (e.g. 0.2,2.2)")
    return lo, hi


def _rate(name: str, text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        v = -1.0
    if not 0.0 <= v <= 1.0:
        raise EmulatorError(f"{name} {text!r}: expected a probability per frame from 0 to 1")
    return v


def load_script(path: str, stations: int) -> list[tuple[int, int, int, int]]:
    """(t_ns, station, button bit, hold_ns) per scripted press, from a press-script file."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise EmulatorError(f"{path}: cannot read the script: {e}") from None
    out = []
    for i, line in enumerate(lines, start=1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        where = f"{path}: line {i}"
        try:
            d = json.loads(s)
        except ValueError:
            raise EmulatorError(f"{where}: expected one JSON object per line, like "
                                '{"t_ms": 1500, "station": 0, "button": "slap"}') from None
        if not isinstance(d, dict):
            raise EmulatorError(f"{where}: expected a JSON object, got {type(d).__name__}")
        if d.get("k") is not None:
            continue  # a journal's header or record: not a scripted press
        if d.get("edge", "press") == "release":
            continue  # the device reports releases itself, after hold_ms
        if d.get("edge", "press") != "press":
            raise EmulatorError(f"{where}: edge={d.get('edge')!r}, expected press or release")
        station = d.get("station")
        button = d.get("button", "slap")
        if button == "menu":
            if station not in (None, -1):
                raise EmulatorError(f"{where}: the menu button belongs to station -1, "
                                    f"got station={station!r}")
            bit = P.MENU_BIT
        else:
            if not isinstance(station, int) or isinstance(station, bool) or \
                    not 0 <= station < stations:
                raise EmulatorError(f"{where}: station={station!r}, expected 0 to {stations - 1}")
            if button not in ("slap", "flip"):
                raise EmulatorError(f"{where}: button={button!r}, expected slap, flip or menu")
            bit = 2 * station + (1 if button == "flip" else 0)
        t = _ns(d, "t", where, None)
        hold = _ns(d, "hold", where, 60 * MS)
        if hold <= 0:
            raise EmulatorError(f"{where}: hold_ms must be above 0")
        out.append((t, station if isinstance(station, int) and bit != P.MENU_BIT else -1, bit, hold))
    out.sort()
    return out


def _ns(d: dict[str, Any], name: str, where: str, default: int | None) -> int:
    for unit, mult in (("ns", 1), ("ms", MS)):
        key = f"{name}_{unit}"
        if key in d:
            v = d[key]
            if isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0:
                return round(v * mult)
            raise EmulatorError(f"{where}: {key}={v!r}, expected a number >= 0")
    if default is None:
        raise EmulatorError(f"{where}: missing t_ms (or t_ns): when, after the first connection")
    return default


class _Transport:
    """The emulator's end of the line: a TCP listener with one client, or a pty behind a symlink."""

    def __init__(self, listen: str) -> None:
        self.conn: socket.socket | None = None
        self.listener: socket.socket | None = None
        self.master: int | None = None
        self.slave: int | None = None
        self.link: str | None = None
        self.pty_name = ""
        if listen.startswith("socket://"):
            host, _, port = listen[9:].rpartition(":")
            if not host or not port.isdigit() or int(port) > 65535:
                raise EmulatorError(f"--listen {listen!r}: expected socket://HOST:PORT "
                                    "(PORT 0: any free port)")
            self.host, self.port = host, int(port)
            self.kind = "socket"
        elif listen == "pty" or listen.startswith("pty:"):
            self.kind = "pty"
            base = os.environ.get("XDG_RUNTIME_DIR") or "/tmp"
            self.link = listen[4:] or os.path.join(base, "slapbox-bridge")
            if os.path.lexists(self.link) and not os.path.islink(self.link):
                raise EmulatorError(f"--listen {listen!r}: {self.link} exists and is not a "
                                    "symlink; expected a free path for the pty's symlink")
        else:
            raise EmulatorError(f"--listen {listen!r}: expected socket://HOST:PORT or pty[:PATH]")
        self.plug()

    def url(self) -> str:
        if self.kind == "socket":
            return f"socket://{self.host}:{self.port}"
        assert self.link is not None
        return self.link

    def plug(self) -> None:
        if self.kind == "socket":
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                s.bind((self.host, self.port))
            except OSError as e:
                s.close()
                raise EmulatorError(f"--listen socket://{self.host}:{self.port}: cannot listen "
                                    f"({e.strerror}); expected a free local port") from None
            s.listen(1)
            self.port = s.getsockname()[1]
            self.listener = s
        else:
            master, slave = os.openpty()
            tty.setraw(slave)  # no echo, no line editing: bytes as they are
            os.set_blocking(master, False)
            self.master, self.slave = master, slave
            self.pty_name = os.ttyname(slave)
            assert self.link is not None
            tmp = f"{self.link}.{os.getpid()}.tmp"
            if os.path.lexists(tmp):
                os.unlink(tmp)
            os.symlink(self.pty_name, tmp)
            os.replace(tmp, self.link)

    def unplug(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None
        if self.listener is not None:
            self.listener.close()
            self.listener = None
        for fd in (self.master, self.slave):
            if fd is not None:
                os.close(fd)
        self.master = self.slave = None

    def fds(self) -> list[Any]:
        if self.kind == "socket":
            return [x for x in (self.conn or self.listener,) if x is not None]
        return [self.master] if self.master is not None else []

    def readable(self, fd: Any) -> bytes | None:
        """Bytes from the host; b"" when the host left; None when nothing to read."""
        if self.kind == "socket":
            if fd is self.listener:
                assert self.listener is not None
                conn, _ = self.listener.accept()
                conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                conn.setblocking(False)
                self.conn = conn
                return None
            try:
                data = self.conn.recv(4096) if self.conn is not None else b""
            except BlockingIOError:
                return None
            except OSError:
                data = b""
            if not data and self.conn is not None:
                self.conn.close()
                self.conn = None
                return b""
            return data
        try:
            return os.read(self.master, 4096) if self.master is not None else None
        except BlockingIOError:
            return None
        except OSError:
            return None  # no host has the slave open: nothing to read

    def write(self, data: bytes) -> None:
        try:
            if self.kind == "socket":
                if self.conn is not None:
                    self.conn.sendall(data)
            elif self.master is not None:
                os.write(self.master, data)
        except OSError:
            pass  # nobody reading (a full pty, a closed socket): the frame is lost on the line

    def close(self) -> None:
        self.unplug()
        if self.link is not None and os.path.islink(self.link):
            if os.readlink(self.link) == self.pty_name:
                os.unlink(self.link)


class Emulator:
    """The event loop: timers, the transport, the shared `Device`."""

    def __init__(self, args: argparse.Namespace, out: Callable[[str], None]) -> None:
        self.args = args
        self.out = out
        self.rng = random.Random(args.seed)
        self.lat = parse_latency(args.latency_ms)
        self.garble = _rate("--garble", args.garble)
        self.drop = _rate("--drop", args.drop)
        self.duplicate = _rate("--duplicate", args.duplicate)
        if not 1 <= args.stations <= P.MAX_STATIONS:
            raise EmulatorError(f"--stations {args.stations}: expected 1 to {P.MAX_STATIONS}")
        self.script = load_script(args.script, args.stations) if args.script else []
        self.drift_ppb = round(args.drift_ppm * 1000)
        if abs(self.drift_ppb) > 10_000_000:
            raise EmulatorError(f"--drift-ppm {args.drift_ppm}: expected -10000 to 10000")
        self.transport = _Transport(args.listen)
        self.timers: list[tuple[int, int, Callable[[], None]]] = []
        self._n = 0
        self._out_at = 0
        self._in_at = 0
        self.first_connection: int | None = None
        self.stop = False
        self._boot()

    def _boot(self) -> None:
        self.base_raw = _raw_ns()
        self.offset_us = self.args.offset_us
        stations = [(2 * s, 2 * s + 1, 20 + s) for s in range(self.args.stations)]
        # a boot id is random at every boot, never from the seed: a restarted emulator is a reset
        boot_id = int.from_bytes(os.urandom(4), "little")
        self.device = P.Device(boot_id, stations, menu_pin=28)
        self.device.take_tx()  # the boot hello goes nowhere: no host yet
        self.levels = (1 << 17) - 1  # every button up

    def device_us(self, raw: int) -> int:
        el = raw - self.base_raw
        return self.offset_us + el * (1_000_000_000 + self.drift_ppb) // 1_000_000_000_000

    def at(self, t: int, fn: Callable[[], None]) -> None:
        self._n += 1
        heapq.heappush(self.timers, (t, self._n, fn))

    # -- the line --

    def _latency(self) -> int:
        lo, hi = self.lat
        return round(self.rng.uniform(lo, hi) * MS)

    def _send_from_device(self) -> None:
        now = _raw_ns()
        for frame in self.device.take_tx():
            if self.drop and self.rng.random() < self.drop:
                continue
            copies = 2 if self.duplicate and self.rng.random() < self.duplicate else 1
            for _ in range(copies):
                f = frame
                if self.garble and self.rng.random() < self.garble:
                    b = bytearray(f)
                    i = self.rng.randrange(len(b))
                    b[i] ^= 1 << self.rng.randrange(8)
                    f = bytes(b)
                lat = self._latency()
                if lat == 0 and self._out_at <= now:
                    self.transport.write(f)  # no latency asked: on the line at once
                    continue
                self._out_at = max(self._out_at, now + lat)
                self.at(self._out_at, functools.partial(self.transport.write, f))

    def _from_host(self, data: bytes) -> None:
        now = _raw_ns()
        lat = self._latency()
        if lat == 0 and self._in_at <= now:
            self._deliver(data)
            return
        self._in_at = max(self._in_at, now + lat)
        self.at(self._in_at, lambda: self._deliver(data))

    def _deliver(self, data: bytes) -> None:
        raw = _raw_ns()
        self.device.receive(data, self.device_us(raw))
        if self.first_connection is None and self.device.configured:
            self._start(raw)
        self._send_from_device()

    # -- the world --

    def _start(self, raw: int) -> None:
        """The first connection: the script's and the faults' times count from here."""
        self.first_connection = raw
        mono0 = time.monotonic_ns() - (_raw_ns() - raw)
        for t, station, bit, hold in self.script:
            self.at(raw + t, functools.partial(self._pin, station, bit, 0, mono0 + t))
            self.at(raw + t + hold, functools.partial(self._pin, None, bit, 1, None))
        if self.args.reset_after is not None:
            self.at(raw + round(self.args.reset_after * 1e9), self._reset)
        if self.args.unplug_after is not None:
            self.at(raw + round(self.args.unplug_after * 1e9), self._unplug)

    def _pin(self, station: int | None, bit: int, level: int, mono: int | None) -> None:
        raw = _raw_ns()
        t_us = self.device_us(raw)
        if level:
            self.levels |= 1 << bit
        else:
            self.levels &= ~(1 << bit)
        self.device.sample(1 << bit, self.levels, t_us)
        if station is not None and mono is not None:
            button = "menu" if bit == P.MENU_BIT else ("flip" if bit & 1 else "slap")
            host_ns = time.monotonic_ns() - (_raw_ns() - raw)
            self.out(f"press {station} {button} host_ns={host_ns} device_us={t_us}")
        self._send_from_device()

    def _reset(self) -> None:
        self.out("reset")
        self.transport.unplug()
        self._boot()
        self.at(_raw_ns() + 300 * MS, self._replug)

    def _unplug(self) -> None:
        self.out("unplugged")
        self.transport.unplug()
        self.device.reset_link()
        self.at(_raw_ns() + round(self.args.unplug_for * 1e9), self._replug)

    def _replug(self) -> None:
        self.transport.plug()
        self.out("plugged in")

    # -- the loop --

    def run(self) -> int:
        self.out(f"listening on {self.transport.url()}")
        try:
            while not self.stop:
                now = _raw_ns()
                while self.timers and self.timers[0][0] <= now:
                    heapq.heappop(self.timers)[2]()
                    now = _raw_ns()
                dev_now = self.device_us(now)
                self.device.tick(dev_now)
                self._send_from_device()
                wake = self.device.next_deadline(dev_now) - dev_now  # µs
                wait_ns = min(wake * 1000, 50 * MS)
                if self.timers:
                    wait_ns = min(wait_ns, self.timers[0][0] - now)
                fds = self.transport.fds()
                if not fds:  # unplugged: only timers
                    time.sleep(max(0, wait_ns) / 1e9)
                    continue
                r, _, _ = select.select(fds, [], [], max(0, wait_ns) / 1e9)
                for fd in r:
                    data = self.transport.readable(fd)
                    if data:
                        self._from_host(data)
                    elif data == b"":
                        self.device.reset_link()  # the host closed its end
        finally:
            self.transport.close()
        return 0


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise EmulatorError(f"{message} (see --help)")


def make_parser(prog: str = "slapbox bridge emulate") -> argparse.ArgumentParser:
    p = _Parser(prog=prog, description="Run the bridge firmware's logic behind a socket or a "
                "pty, as a Pico would be on USB.")
    p.add_argument("--listen", required=True, help="socket://HOST:PORT (PORT 0: any) or pty[:PATH]")
    p.add_argument("--script", help="press script (JSON lines; times from the first connection)")
    p.add_argument("--stations", type=int, default=4, help="stations with slap and flip (1-8)")
    p.add_argument("--offset-us", type=int, default=0, help="the device counter at start (µs)")
    p.add_argument("--drift-ppm", type=float, default=0.0, help="device crystal error (ppm)")
    p.add_argument("--latency-ms", default="0,0", help="MIN,MAX one-way latency per frame (ms)")
    p.add_argument("--garble", default="0", help="probability a sent frame has a bit flipped")
    p.add_argument("--drop", default="0", help="probability a sent frame is lost")
    p.add_argument("--duplicate", default="0", help="probability a sent frame is sent twice")
    p.add_argument("--reset-after", type=float, help="reboot (new boot id) after S seconds")
    p.add_argument("--unplug-after", type=float, help="unplug after S seconds")
    p.add_argument("--unplug-for", type=float, default=1.0, help="how long unplugged (s)")
    p.add_argument("--seed", type=int, default=1, help="seed of the faults and latencies")
    return p


def main(argv: list[str]) -> int:
    """``slapbox bridge emulate``: returns 0 when stopped by SIGTERM/SIGINT, 2 on a bad option."""
    def out(line: str) -> None:
        print(line, flush=True)

    try:
        args = make_parser().parse_args(argv)
        emu = Emulator(args, out)
    except EmulatorError as e:
        print(f"slapbox bridge emulate: {e}", file=sys.stderr)
        return 2

    def stop(signum: int, frame: object) -> None:
        emu.stop = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    return emu.run()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
