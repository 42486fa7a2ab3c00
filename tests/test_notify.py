"""The box tells systemd it is ready and alive (sd_notify), over a real Unix datagram socket."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest

from device.service.notify import Notifier

MS = 1_000_000


@pytest.fixture
def listener(tmp_path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = tmp_path / "notify"
    sock.bind(str(path))
    sock.settimeout(30)  # a deadline for each message, never a fixed wait
    yield sock, str(path)
    sock.close()


def test_ready_then_watchdog_pings_at_half_the_period(listener):
    sock, path = listener
    n = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "2000000"})
    assert n.active and n.interval_ns == 1000 * MS
    n.ready()
    assert sock.recv(100) == b"READY=1"
    n.alive(0)
    n.alive(500 * MS)   # too soon: nothing
    n.alive(1000 * MS)
    n.stopping()
    assert [sock.recv(100) for _ in range(3)] == [b"WATCHDOG=1", b"WATCHDOG=1", b"STOPPING=1"]
    n.close()
    assert not n.send("READY=1")


def test_a_failed_send_is_tried_again_next_time(tmp_path):
    # systemd re-executing: the socket is briefly gone; the next ping must still go out
    path = tmp_path / "later"
    n = Notifier({"NOTIFY_SOCKET": str(path), "WATCHDOG_USEC": "2000000"})
    n.alive(0)
    assert n.active and n._last < 0  # not sent, not counted as sent
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(30)
    try:
        n.alive(1)
        assert sock.recv(100) == b"WATCHDOG=1"
    finally:
        sock.close()


def test_an_abstract_socket_name_works_and_no_socket_means_no_notifying():
    name = f"slapbox-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(30)
    try:
        Notifier({"NOTIFY_SOCKET": "@" + name}).ready()
        assert sock.recv(100) == b"READY=1"
    finally:
        sock.close()
    quiet = Notifier({})
    assert not quiet.active and not quiet.send("READY=1")
    quiet.alive(10**12)  # nothing to do, nothing raised
    assert not Notifier({"NOTIFY_SOCKET": "relative/path"}).active
    # a watchdog meant for another process (WATCHDOG_PID) is not ours to feed
    other = Notifier({"NOTIFY_SOCKET": "/nonexistent", "WATCHDOG_USEC": "1000000",
                      "WATCHDOG_PID": str(os.getpid() + 1)})
    assert other.interval_ns is None


def test_the_headless_box_says_ready_keeps_the_watchdog_fed_and_says_when_it_stops(listener,
                                                                                   tmp_path):
    sock, path = listener
    config = tmp_path / "config.toml"
    config.write_text('[game]\npreset = "bataille-corse"\nplayers = 2\nseed = 7\n'
                      '[game.options]\nmax_rounds = 20\n'
                      '[timing]\ntempo_ms = 100\ntempo_min_ms = 100\nfirst_card_ms = 0\n'
                      'pile_pause_ms = 0\ncollect_delay_ms = 50\n')
    env = {**os.environ, "NOTIFY_SOCKET": path, "WATCHDOG_USEC": "400000"}
    proc = subprocess.Popen([sys.executable, "-m", "device.cli", "play", "--config", str(config),
                             "--headless", "--bots", "all", "--journal", "none"], env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        got = [sock.recv(100)]
        while got[-1] != b"STOPPING=1":
            got.append(sock.recv(100))
    finally:
        out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 0, out
    assert got[0] == b"READY=1" and got[-1] == b"STOPPING=1"
    pings = got[1:-1]
    assert pings and set(pings) == {b"WATCHDOG=1"}
    assert len(pings) >= 3  # a game of 20 turns at 100 ms: seconds, a ping every 0.2 s
