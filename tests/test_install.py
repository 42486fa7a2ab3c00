"""systemd/install.sh and uninstall.sh: the dry run lists every step; the steps that need no Pi
(wheel, venv, config, unit, rules) run for real into a temporary prefix (--destdir), twice, and
the installed unit passes ``systemd-analyze verify`` and ``security``. What only a Pi shows (apt,
the user, udev, polkit, the service starting) is a hardware.md check.

The install needs the package index pip is set up with (PyPI, or a proxy) for pygame-ce and the
other dependencies, as tests/run does.
"""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import stat
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
INSTALL = ROOT / "systemd" / "install.sh"
UNINSTALL = ROOT / "systemd" / "uninstall.sh"
VENV = "opt/slapbox/venv"


def run(script: pathlib.Path, *args: str, timeout: float = 900) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("DRY_RUN", "DESTDIR", "VIRTUAL_ENV")}
    return subprocess.run(["bash", str(script), *args], capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL, env=env)


def steps(out: str) -> list[str]:
    return [ln[2:] for ln in out.splitlines() if ln.startswith(("+ ", "- "))]


def index_of(lines: list[str], pattern: str) -> int:
    for i, line in enumerate(lines):
        if re.search(pattern, line):
            return i
    raise AssertionError(f"no step matches {pattern!r} in:\n" + "\n".join(lines))


def test_the_dry_run_lists_every_step_in_order_and_changes_nothing(tmp_path):
    proc = run(INSTALL, "--dry-run")
    assert proc.returncode == 0, proc.stderr
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("+ ")]
    order = [r"^\+ env DEBIAN_FRONTEND=noninteractive apt-get update",
             r"^\+ env DEBIAN_FRONTEND=noninteractive apt-get install .*python3-venv .*python3-gpiozero"
             r".*polkitd .*libgbm1 libegl1 libgles2 libgl1-mesa-dri python3-lgpio python3-libgpiod",
             r"^\+ useradd --system --user-group --home-dir /var/lib/slapbox .*--shell /usr/sbin/nologin"
             r" .* slapbox$",
             r"^\+ usermod --groups gpio.video.render.input.audio.dialout slapbox$",
             r"^\+ .*pip --disable-pip-version-check wheel .*--no-deps",
             r"^\+ /opt/slapbox/venv/bin/python -m pip .* install .*--force-reinstall --no-deps",
             r"^\+ /opt/slapbox/venv/bin/python -m compileall",
             r"^\+ install -d -m 0700 -o slapbox -g slapbox /var/lib/slapbox$",
             r"^\+ as_user slapbox /var/lib/slapbox /opt/slapbox/venv/bin/slapbox config show",
             r"^\+ install -D -m 0644 \S+/slapbox.service /etc/systemd/system/slapbox.service$",
             r"^\+ install -D -m 0644 \S+ /etc/udev/rules.d/70-slapbox-bridge.rules$",
             r"^\+ install -D -m 0644 \S+ /etc/polkit-1/rules.d/50-slapbox-poweroff.rules$",
             r"^\+ install -D -m 0644 \S+ /etc/modules-load.d/slapbox.conf$",
             r"^\+ udevadm control --reload$",
             r"^\+ systemctl daemon-reload$",
             r"^\+ systemctl enable slapbox.service$",
             r"^\+ systemctl restart slapbox.service$"]
    at = [index_of(lines, p) for p in order]
    assert at == sorted(at), list(zip(order, at))
    assert not any("cp -a" in ln or "pip install -e" in ln or "--editable" in ln for ln in lines)
    # DRY_RUN=1 is the same as --dry-run
    env_run = subprocess.run(["bash", str(INSTALL)], capture_output=True, text=True, timeout=300,
                             stdin=subprocess.DEVNULL, env={**os.environ, "DRY_RUN": "1"})
    assert env_run.returncode == 0 and "+ useradd " in env_run.stdout


def test_the_uninstall_dry_run_lists_its_steps():
    proc = run(UNINSTALL, "--dry-run", "--purge")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for line in ("+ systemctl disable --now slapbox.service", "+ rm -rf --one-file-system /opt/slapbox",
                 "+ rm -rf --one-file-system /etc/systemd/system/slapbox.service",
                 "+ rm -rf --one-file-system /etc/udev/rules.d/70-slapbox-bridge.rules",
                 "+ rm -rf --one-file-system /etc/polkit-1/rules.d/50-slapbox-poweroff.rules",
                 "+ rm -rf --one-file-system /etc/slapbox", "+ userdel slapbox"):
        assert line in out, line


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A real install into a temporary prefix, then the config edited, then a second install."""
    dest = tmp_path_factory.mktemp("destdir")
    first = run(INSTALL, "--destdir", str(dest))
    assert first.returncode == 0, first.stdout[-3000:] + first.stderr[-3000:]
    cfg = dest / "etc/slapbox/config.toml"
    written = cfg.read_text()
    edited = written.replace("players = 4", "players = 6", 1)
    assert edited != written
    cfg.write_text(edited)
    second = run(INSTALL, "--destdir", str(dest))
    assert second.returncode == 0, second.stdout[-3000:] + second.stderr[-3000:]
    return dest, first, second, written, edited


def test_the_install_into_a_prefix_runs_the_steps_that_need_no_pi(installed):
    dest, first, second, written, edited = installed
    for out in (first.stdout, second.stdout):
        skipped = [ln for ln in steps(out) if ln.endswith("# skipped: --destdir")]
        for word in ("apt-get update", "useradd", "usermod", "systemctl enable", "udevadm control"):
            assert any(word in ln for ln in skipped), word
    # the program: a wheel in a venv, no copy of the checkout, no editable install
    venv = dest / VENV
    assert not (dest / "opt/slapbox/pyproject.toml").exists()
    assert sorted(p.name for p in (dest / "opt/slapbox").iterdir()) == ["venv"]
    site = next((venv / "lib").glob("python3.*/site-packages"))
    dist = next(site.glob("slapbox-*.dist-info"))
    assert not (dist / "direct_url.json").exists() or '"editable"' not in (dist / "direct_url.json").read_text()
    assert not list(site.glob("__editable__*")) and not list(site.glob("*slapbox*.pth"))
    assert (site / "device" / "__init__.py").exists()
    assert "include-system-site-packages = true" in (venv / "pyvenv.cfg").read_text()
    # bytecode compiled at install for every module of the program
    tag = sys.implementation.cache_tag
    missing = [py for py in (site / "device").rglob("*.py")
               if not (py.parent / "__pycache__" / f"{py.stem}.{tag}.pyc").exists()]
    assert not missing, missing[:5]
    # the entry point runs from the venv
    proc = subprocess.run([str(venv / "bin/slapbox"), "config", "check", str(dest / "etc/slapbox/config.toml")],
                          capture_output=True, text=True, timeout=120, cwd="/")
    assert proc.returncode == 0 and proc.stdout.startswith("ok:"), proc.stdout + proc.stderr
    # the config: written once from the defaults with the GPIO buttons, kept on the second install
    assert 'source = "gpio"' in written and 'source = "keyboard"' not in written
    assert (dest / "etc/slapbox/config.toml").read_text() == edited
    assert "keeping" in second.stdout
    # state and system files
    assert stat.S_IMODE((dest / "var/lib/slapbox").stat().st_mode) == 0o700
    for rel, src in (("etc/systemd/system/slapbox.service", "slapbox.service"),
                     ("etc/udev/rules.d/70-slapbox-bridge.rules", "70-slapbox-bridge.rules"),
                     ("etc/polkit-1/rules.d/50-slapbox-poweroff.rules", "50-slapbox-poweroff.rules"),
                     ("etc/modules-load.d/slapbox.conf", "slapbox-modules.conf")):
        path = dest / rel
        assert stat.S_IMODE(path.stat().st_mode) == 0o644, rel
        committed = subprocess.run(["git", "-C", str(ROOT), "show", f"HEAD:systemd/{src}"],
                                   capture_output=True, text=True)
        if committed.returncode == 0:  # installed from the same commit as the wheel
            assert path.read_text() == committed.stdout, rel


def test_the_installed_unit_passes_systemd_analyze_verify_and_security(installed, tmp_path):
    dest = installed[0]
    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze is missing: tests/setup.d/systemd.sh installs it"
    unit = (dest / "etc/systemd/system/slapbox.service").read_text()
    assert "\nExecStart=/opt/slapbox/venv/bin/slapbox " in unit
    # verify checks that ExecStart exists: a copy of the installed unit whose ExecStart is the
    # prefix's own entry point (`--root` would also need the distribution's targets in the prefix)
    local = tmp_path / "slapbox.service"
    local.write_text(unit.replace("\nExecStart=/opt/slapbox/", f"\nExecStart={dest}/opt/slapbox/"))
    assert (dest / VENV / "bin/slapbox").exists()
    proc = subprocess.run([analyze, "verify", str(local)], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr
    assert "slapbox.service" not in proc.stderr, proc.stderr  # no warning about our unit
    sec = subprocess.run([analyze, "security", "--offline=true", "--no-pager", "--threshold=15",
                          str(local)], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert sec.returncode == 0, sec.stdout + sec.stderr


def test_the_uninstall_removes_the_program_and_keeps_config_and_state(installed, tmp_path):
    dest = tmp_path / "copy"
    shutil.copytree(installed[0], dest, symlinks=True)
    for _ in range(2):  # twice: the second finds nothing to do
        proc = run(UNINSTALL, "--destdir", str(dest))
        assert proc.returncode == 0, proc.stdout + proc.stderr
        for rel in ("opt/slapbox", "etc/systemd/system/slapbox.service",
                    "etc/udev/rules.d/70-slapbox-bridge.rules",
                    "etc/polkit-1/rules.d/50-slapbox-poweroff.rules", "etc/modules-load.d/slapbox.conf"):
            assert not (dest / rel).exists(), rel
        assert (dest / "etc/slapbox/config.toml").exists() and (dest / "var/lib/slapbox").is_dir()
    proc = run(UNINSTALL, "--destdir", str(dest), "--purge")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert not (dest / "etc/slapbox").exists() and not (dest / "var/lib/slapbox").exists()
