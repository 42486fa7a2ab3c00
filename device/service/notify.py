"""Tells systemd how the box is doing (the sd_notify protocol, no library needed).

The kiosk unit is ``Type=notify`` with ``WatchdogSec=``: the box says ``READY=1`` once its first
frame is up, then ``WATCHDOG=1`` from its main loop at least twice per watchdog period. A loop
that freezes stops saying it, and systemd restarts the box, which resumes the game from its
journal. Outside systemd (``NOTIFY_SOCKET`` unset) every call does nothing.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

__all__ = ["Notifier"]

log = logging.getLogger("slapbox.notify")


class Notifier:
    """One connection to systemd's notification socket (or none)."""

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        env = os.environ if env is None else env
        self.address: str | None = None
        self.interval_ns: int | None = None  # how often to say WATCHDOG=1 (half the period)
        self._sock: socket.socket | None = None
        self._last = -(1 << 62)
        self._failing = False
        path = env.get("NOTIFY_SOCKET", "")
        if not path:
            return
        if path[0] not in "/@":
            log.warning("NOTIFY_SOCKET=%r: expected a path or an @abstract name; not notifying",
                        path)
            return
        self.address = "\0" + path[1:] if path[0] == "@" else path
        try:
            self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
        except OSError as e:
            log.warning("NOTIFY_SOCKET: cannot make a socket (%s); not notifying", e)
            return
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        if usec.isdigit() and int(usec) > 0 and (not pid or pid == str(os.getpid())):
            self.interval_ns = int(usec) * 1000 // 2

    @property
    def active(self) -> bool:
        return self._sock is not None

    def send(self, state: str) -> bool:
        """Send ``state`` (e.g. ``READY=1``); False if it could not be sent (logged once)."""
        if self._sock is None or self.address is None:
            return False
        try:
            self._sock.sendto(state.encode("utf-8"), self.address)
            self._failing = False
            return True
        except OSError as e:  # systemd re-executing, say: try again next time, say it once
            if not self._failing:
                log.warning("NOTIFY_SOCKET %s: %s; trying again", self.address, e)
            self._failing = True
            return False

    def ready(self) -> bool:
        """Say the box is up; True once sent (False outside systemd, or if it failed)."""
        return self.send("READY=1")

    def alive(self, now_ns: int) -> None:
        """Call from the main loop: says WATCHDOG=1 when half the watchdog period has passed."""
        if self.interval_ns is not None and now_ns - self._last >= self.interval_ns:
            if self.send("WATCHDOG=1"):
                self._last = now_ns

    def stopping(self) -> None:
        self.send("STOPPING=1")

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
