#!/usr/bin/env bash
# The firmware bridge's test set-up: MicroPython 1.27 under Node.js, so the shared logic module
# (firmware_bridge/protocol.py) is tested on real MicroPython as well as on CPython.
# Installs Debian's nodejs and npm if missing, then the npm package into firmware_bridge/.node/
# (git-ignored). Idempotent; runs as root in CI with no standard input.
set -euo pipefail
cd "$(dirname "$0")/../.."

pkg="@micropython/micropython-webassembly-pyscript"
version="1.27.0"
dest="firmware_bridge/.node"

need=()
command -v node >/dev/null 2>&1 || need+=(nodejs)
command -v npm >/dev/null 2>&1 || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then sudo=""; elif sudo -n true 2>/dev/null; then sudo="sudo -n"; else
    echo "tests/setup.d/bridge.sh: please install these Debian packages first: ${need[*]} (needs root or sudo)" >&2
    exit 3
  fi
  echo "tests/setup.d/bridge.sh: installing ${need[*]}"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" </dev/null >/dev/null
fi

installed="$dest/node_modules/$pkg/package.json"
if [ -f "$installed" ] && grep -q "\"version\": *\"$version\"" "$installed"; then
  exit 0
fi
echo "tests/setup.d/bridge.sh: installing $pkg@$version into $dest"
mkdir -p "$dest"
# a package.json of its own, so npm never climbs to a parent folder's
[ -f "$dest/package.json" ] || echo '{"name": "slapbox-bridge-tests", "private": true}' > "$dest/package.json"
if ! npm install --prefix "$dest" --no-audit --no-fund --loglevel=error "$pkg@$version" </dev/null >/dev/null; then
  echo "tests/setup.d/bridge.sh: npm could not install $pkg@$version into $dest (expected access to the npm registry)" >&2
  exit 4
fi
