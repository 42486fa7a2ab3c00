"""``slapbox bridge flash`` (firmware_bridge.flash.main): the steps it prints with --dry-run, a run
against a fake mpremote on PATH with a pty standing in for the Pico (which answers the REPL
hand-over with BYE), and the one-line errors when mpremote, the Pico or a step is missing."""

from __future__ import annotations

import os
import shlex
import threading
import tty
from pathlib import Path

import pytest

import firmware_bridge.protocol as P
from firmware_bridge import flash

FAKE = """#!/bin/sh
echo "$@" >> "$FAKE_LOG"
if [ -n "$FAKE_FAIL" ] && [ "$3" = "$FAKE_FAIL" ]; then
  echo "Traceback (most recent call last):" >&2
  echo "mpremote: failed to access $2 (it may be in use by another program)" >&2
  exit 1
fi
exit 0
"""


@pytest.fixture
def fake_mpremote(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    bindir = tmp_path / "bin"
    bindir.mkdir()
    exe = bindir / "mpremote"
    exe.write_text(FAKE)
    exe.chmod(0o755)
    log = tmp_path / "mpremote.log"
    monkeypatch.setenv("PATH", str(bindir))
    monkeypatch.setenv("FAKE_LOG", str(log))
    return log


class FakePico:
    """A pty: reads what the flasher sends, answers a REPL frame with BYE (or stays silent)."""

    def __init__(self, answer: bool = True) -> None:
        self.master, slave = os.openpty()
        tty.setraw(slave)
        self.port = os.ttyname(slave)
        self.slave = slave
        self.got = b""
        self.answer = answer
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        reader = P.FrameReader()
        while True:
            try:
                data = os.read(self.master, 256)
            except OSError:
                return
            if not data:
                return
            self.got += data
            for mtype, payload in reader.feed(data):
                if mtype == P.REPL and P.unpack(P.REPL, payload)[0] == P.REPL_MAGIC and self.answer:
                    os.write(self.master, P.pack(P.BYE, 0) + b"\r\n>>> ")

    def close(self) -> None:
        os.close(self.slave)
        os.close(self.master)


def test_dry_run_prints_the_steps_and_runs_nothing(fake_mpremote: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert flash.main(["--dry-run", "--port", "/dev/ttyACM7"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert not fake_mpremote.exists()
    assert out[0].startswith("# 1. hand the port to the REPL: write 00 0b 01 0b 52 45 50 4c")
    cmds = [shlex.split(line) for line in out if not line.startswith("#")]
    assert [c[1:4] for c in cmds] == [["connect", "/dev/ttyACM7", "cp"], ["connect", "/dev/ttyACM7",
                                                                          "reset"]]
    assert cmds[0][-1] == ":" and [Path(f).name for f in cmds[0][4:-1]] == [
        "protocol.py", "bridge_core.py", "bridge_pio.py", "bridge_rp2.py", "bridge_config.py",
        "main.py"]
    assert all(Path(f).is_file() for f in cmds[0][4:-1])


def test_dry_run_without_mpremote_or_pico_still_shows_the_steps(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(flash, "find_spec", lambda name: None)
    monkeypatch.setattr(flash, "find_port", lambda: None)
    assert flash.main(["--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "mpremote connect /dev/slapbox-bridge cp" in out and "reset" in out


def test_flash_hands_over_copies_and_resets(fake_mpremote: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    pico = FakePico()
    try:
        assert flash.main(["--port", pico.port]) == 0
    finally:
        pico.close()
    assert pico.got.startswith(b"\x00" + P.pack(P.REPL, P.REPL_MAGIC))
    calls = fake_mpremote.read_text().splitlines()
    assert len(calls) == 2
    assert calls[0].startswith(f"connect {pico.port} cp ") and calls[0].endswith(" :")
    assert calls[1] == f"connect {pico.port} reset"
    out = capsys.readouterr().out
    assert "handed the port to the REPL" in out and "copied 6 files" in out


def test_a_pico_at_the_plain_repl_is_flashed_too(fake_mpremote: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    pico = FakePico(answer=False)
    try:
        assert flash.main(["--port", pico.port, "--handover-timeout", "0.05"]) == 0
    finally:
        pico.close()
    assert "assuming MicroPython's REPL" in capsys.readouterr().out
    assert len(fake_mpremote.read_text().splitlines()) == 2


def test_a_failing_mpremote_step_is_one_line(fake_mpremote: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("FAKE_FAIL", "cp")
    pico = FakePico()
    try:
        assert flash.main(["--port", pico.port]) == 1
    finally:
        pico.close()
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"slapbox bridge flash: mpremote cp failed (exit 1): mpremote: failed to access "
                   f"{pico.port} (it may be in use by another program)"]
    assert len(fake_mpremote.read_text().splitlines()) == 1  # no reset after a failed copy


def test_missing_mpremote_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(flash, "find_spec", lambda name: None)
    assert flash.main(["--port", "/dev/ttyACM0"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("slapbox bridge flash: mpremote not found: install it")


def test_missing_pico_is_one_line(fake_mpremote: Path, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(flash, "find_port", lambda: None)
    assert flash.main([]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("slapbox bridge flash: no Pico found (expected "
                                               "/dev/slapbox-bridge or a USB serial port 2e8a:0005)")
    assert flash.main(["--port", "/dev/no-such-pico"]) == 1
    assert capsys.readouterr().err.strip() == ("slapbox bridge flash: --port /dev/no-such-pico: no "
                                               "such device (is the Pico plugged in?)")
    assert not fake_mpremote.exists()


def test_a_bad_option_is_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert flash.main(["--bogus"]) == 2
    assert "slapbox bridge flash: unrecognized arguments: --bogus (see --help)" in capsys.readouterr().err
