"""The kiosk unit, checked by systemd's own systemd-analyze; the installer's steps in dry run."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

SYSTEMD = pathlib.Path(__file__).resolve().parent.parent / "systemd"


def test_the_service_unit_passes_systemd_analyze_verify(tmp_path):
    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze is missing: tests/run installs the systemd package"
    unit = (SYSTEMD / "slapbox.service").read_text()
    assert "ExecStart=/opt/slapbox/.venv/bin/slapbox play --service --fullscreen" in unit
    # verify checks that ExecStart's program exists: point it at this Python for the check.
    local = tmp_path / "slapbox.service"
    local.write_text(unit.replace("/opt/slapbox/.venv/bin/slapbox", sys.executable))
    proc = subprocess.run([analyze, "verify", str(local)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "slapbox.service" not in proc.stderr, proc.stderr  # no warning about our unit
    for key in ("Type=notify", "WatchdogSec=10", "Restart=always", "User=slapbox",
                "NoNewPrivileges=yes", "ProtectSystem=strict",
                "StateDirectory=slapbox", "SupplementaryGroups=gpio video render input audio"):
        assert key in unit


def test_the_installer_dry_run_lists_its_steps():
    proc = subprocess.run(["bash", str(SYSTEMD / "install.sh")], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "DRY_RUN": "1"})
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "+ apt-get install -y --no-install-recommends python3-venv python3-gpiozero python3-lgpio" in out
    assert "python3 -m venv --system-site-packages /opt/slapbox/.venv" in out
    assert "+ systemctl enable --now slapbox.service" in out
