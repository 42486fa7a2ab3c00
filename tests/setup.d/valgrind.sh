#!/usr/bin/env bash
# The start-up benchmark's test set-up (tests/test_startup.py): valgrind, whose callgrind counts
# the instructions from exec to the first frame (the figure that carries over to a Pi).
# Installs only what is missing; runs as root in CI with no standard input.
set -euo pipefail
command -v valgrind >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = 0 ]; then sudo=""; elif sudo -n true 2>/dev/null; then sudo="sudo -n"; else
  echo "tests/setup.d/valgrind.sh: please install this Debian package first: valgrind (needs root or sudo)" >&2
  exit 3
fi
echo "tests/setup.d/valgrind.sh: installing valgrind"
$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends valgrind </dev/null >/dev/null
