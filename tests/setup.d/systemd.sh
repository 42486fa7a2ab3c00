#!/usr/bin/env bash
# The kiosk unit's and the installer's test set-up (tests/test_systemd.py, tests/test_install.py):
# systemd-analyze (package systemd) for the unit's security score and verify, udevadm (udev) for
# the bridge's udev rule, node (nodejs) to run the polkit rule, runuser and unshare (util-linux).
# Installs only what is missing; runs as root in CI with no standard input.
set -euo pipefail
need=()
command -v systemd-analyze >/dev/null 2>&1 || need+=(systemd)
command -v udevadm >/dev/null 2>&1 || need+=(udev)
command -v node >/dev/null 2>&1 || need+=(nodejs)
{ command -v runuser && command -v unshare; } >/dev/null 2>&1 || need+=(util-linux)
[ ${#need[@]} -gt 0 ] || exit 0
if [ "$(id -u)" = 0 ]; then sudo=""; elif sudo -n true 2>/dev/null; then sudo="sudo -n"; else
  echo "tests/setup.d/systemd.sh: please install these Debian packages first: ${need[*]} (needs root or sudo)" >&2
  exit 3
fi
echo "tests/setup.d/systemd.sh: installing ${need[*]}"
$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" </dev/null >/dev/null
