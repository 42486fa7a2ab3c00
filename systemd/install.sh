#!/usr/bin/env bash
# Installs (or reinstalls) slapbox as the box's kiosk service, from this checkout, on Raspberry Pi
# OS Bookworm or Trixie (Python 3.11 or 3.13). Safe to run again: it reinstalls the program and the
# system files and keeps /etc/slapbox/config.toml and /var/lib/slapbox (journals, statistics).
#
#   sudo bash systemd/install.sh              install, enable and (re)start slapbox.service
#   bash systemd/install.sh --dry-run         print every step (with its condition), change nothing
#   bash systemd/install.sh --destdir DIR     the steps that need no Pi (wheel, venv, config, unit,
#                                             rules) for real under DIR; no apt, user or systemctl
#   sudo bash systemd/install.sh --no-start   install and enable, do not (re)start now
# DRY_RUN=1 and DESTDIR=DIR work as the options do.
#
# What it does (hardware.md, "The appliance", says why):
#  1. apt-get update, then the Debian packages: python3-venv, python3-gpiozero, polkitd, the
#     libraries SDL's kmsdrm driver loads (libgbm1, libegl1, libgles2, libgl1-mesa-dri), and where
#     the archive has them (Raspberry Pi OS does) python3-lgpio and python3-libgpiod.
#  2. the system user slapbox (no login, home /var/lib/slapbox) in exactly the groups it needs
#     that exist here: gpio video render input audio dialout.
#  3. a root-owned venv /opt/slapbox/venv (with the system's site packages: lgpio has no aarch64
#     wheel on PyPI); a wheel of this checkout, built as the checkout's owner (never as root, so
#     the checkout's build code never runs as root), installed into it, bytecode compiled now
#     (the service user cannot write .pyc files there). No copy of the checkout, no editable install.
#  4. /etc/slapbox/config.toml written from the defaults ([inputs] source = "gpio") only if it does
#     not exist, written and checked by slapbox running as the slapbox user.
#  5. /var/lib/slapbox, the unit, the udev rule (/dev/slapbox-bridge), the polkit rule (the MENU
#     button's power-off), the modules loaded at boot; then systemctl enable and restart.
set -euo pipefail
umask 022

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
src="$(cd "$here/.." && pwd)"
dry_run="${DRY_RUN:-0}"
destdir="${DESTDIR:-}"
start=1
while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) dry_run=1 ;;
    --destdir) [ $# -ge 2 ] || { echo "install.sh: --destdir needs a directory" >&2; exit 2; }
               destdir="$2"; shift ;;
    --destdir=*) destdir="${1#--destdir=}" ;;
    --no-start) start=0 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
[ "$dry_run" = 1 ] || dry_run=0
if [ -n "$destdir" ]; then
  mkdir -p "$destdir" 2>/dev/null || [ "$dry_run" = 1 ]
  destdir="$(cd "$destdir" 2>/dev/null && pwd || echo "$destdir")"
fi

prefix=/opt/slapbox
venv="$prefix/venv"
user=slapbox
groups_wanted="gpio video render input audio dialout"
D="$destdir"            # every path written is "$D/..."

say() { echo "slapbox install: $*"; }
# show, step (print and run unless a dry run), system (not run under --destdir)
source "$here/steps.sh"

if [ "$dry_run" = 0 ] && [ -z "$D" ] && [ "$(id -u)" != 0 ]; then
  echo "install.sh: run it as root (sudo bash systemd/install.sh), or with --dry-run or --destdir" >&2
  exit 2
fi
python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
  echo "install.sh: slapbox needs Python 3.11 or newer (python3 is $(python3 -V 2>&1))" >&2; exit 2; }
if [ -r /etc/os-release ]; then
  codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-}")"
  case "$codename" in bookworm|trixie) ;; *) say "note: written for Bookworm and Trixie, this is '${codename:-unknown}'" ;; esac
fi
[ "$dry_run" = 1 ] && say "dry run: nothing is changed; '+' lines are the steps, '#' their conditions"
[ -n "$D" ] && say "installing under $D (the steps that need the real system are listed with '-')"

# Runs CMD... as USER with a clean environment (HOME=DIR), or as the invoker when not root.
as_user() {
  local who="$1" home="$2"; shift 2
  local env=(env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$home" LC_ALL=C.UTF-8) v
  # a proxy or a package index the machine is set up with still applies
  for v in http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY PIP_INDEX_URL \
           PIP_EXTRA_INDEX_URL PIP_TRUSTED_HOST PIP_CERT SSL_CERT_FILE; do
    [ -z "${!v:-}" ] || env+=("$v=${!v}")
  done
  if [ "$(id -u)" = 0 ] && [ "$who" != root ]; then
    (cd / && runuser -u "$who" -- "${env[@]}" "$@")
  else
    (cd / && "${env[@]}" "$@")
  fi
}

# --- 1. Debian packages -------------------------------------------------------------------------
packages="python3-venv python3-gpiozero polkitd libgbm1 libegl1 libgles2 libgl1-mesa-dri"
optional="python3-lgpio python3-libgpiod"
system env DEBIAN_FRONTEND=noninteractive apt-get update -q
if [ "$dry_run" = 1 ] || [ -n "$D" ]; then
  echo "# python3-lgpio, python3-libgpiod: added where the archive has them (Raspberry Pi OS)"
  system env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $packages $optional
else
  for p in $optional; do
    if apt-cache show "$p" >/dev/null 2>&1; then packages="$packages $p"
    else say "note: $p is not in this system's archive (it is in Raspberry Pi OS's): skipped"; fi
  done
  step env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $packages
fi

# --- 2. The system user -------------------------------------------------------------------------
if [ -n "$D" ] || [ "$dry_run" = 1 ]; then
  echo "# if the user $user does not exist yet:"
  system useradd --system --user-group --home-dir /var/lib/slapbox --no-create-home \
    --shell /usr/sbin/nologin --comment "slapbox kiosk" "$user"
  echo "# exactly the groups of '$groups_wanted' that exist here:"
  system usermod --groups "${groups_wanted// /,}" "$user"
else
  if ! getent passwd "$user" >/dev/null; then
    step useradd --system --user-group --home-dir /var/lib/slapbox --no-create-home \
      --shell /usr/sbin/nologin --comment "slapbox kiosk" "$user"
  fi
  have=()
  for g in $groups_wanted; do getent group "$g" >/dev/null && have+=("$g"); done
  missing=""; for g in $groups_wanted; do getent group "$g" >/dev/null || missing="$missing $g"; done
  [ -z "$missing" ] || say "note: no group${missing} on this system (not a Raspberry Pi OS image?)"
  groups_csv="$(IFS=,; echo "${have[*]:-}")"
  step usermod --groups "$groups_csv" "$user"
fi

# --- 3. The program: a root-owned venv and a wheel of this checkout -----------------------------
if [ -e "$D$prefix/pyproject.toml" ] || [ -d "$D$prefix/.venv" ]; then
  # the old installer's layout: a copy of the checkout (owned as the checkout was) and .venv in it
  echo "# $D$prefix holds a copy of a checkout (the old installer's): removed"
  step rm -rf --one-file-system "$D$prefix"
fi
step install -d -m 0755 "$D$prefix"
pyver="$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
venv_ok=0
if [ -x "$D$venv/bin/python" ] &&
   [ "$("$D$venv/bin/python" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)" = "$pyver" ]; then
  venv_ok=1
fi
if [ "$venv_ok" = 0 ]; then
  echo "# no venv for Python $pyver at $D$venv yet (a new install, or Bookworm -> Trixie): made afresh"
  step python3 -m venv --clear --system-site-packages "$D$venv"
fi
builder="$(stat -c %U "$src")"
[ "$(id -u)" = 0 ] || builder="$(id -un)"
if [ "$dry_run" = 1 ]; then
  work=/tmp/slapbox-install.XXXXXX
  echo "+ work=\$(mktemp -d)"
else
  work="$(mktemp -d /tmp/slapbox-install.XXXXXX)"
  trap 'rm -rf "$work"' EXIT
  [ "$builder" = "$(id -un)" ] || chown "$builder" "$work"
fi
# The wheel is built as the checkout's owner ($builder), in a clean environment, from the checkout's
# committed tree (git archive HEAD into the work directory): a stale build/ or a stray file of the
# working tree cannot end up in it. Not a git checkout (a tarball): the directory itself.
build_from="$src"
if [ -d "$src/.git" ] || [ -f "$src/.git" ]; then
  build_from="$work/src"
  if [ "$dry_run" = 0 ]; then
    commit="$(as_user "$builder" "$work" git -C "$src" rev-parse --short HEAD)"
    if [ -n "$(as_user "$builder" "$work" git -C "$src" status --porcelain --untracked-files=no)" ]; then
      say "note: the checkout has uncommitted changes; the box gets its last commit, $commit"
    else
      say "installing commit $commit"
    fi
  fi
  step as_user "$builder" "$work" sh -c 'mkdir "$2" && git -C "$1" archive --format=tar HEAD | tar -x -C "$2"' \
    sh "$src" "$build_from"
fi
echo "# the wheel is built as the checkout's owner ($builder), in a clean environment"
step as_user "$builder" "$work" "$D$venv/bin/python" -m pip --disable-pip-version-check wheel \
  --quiet --no-deps --wheel-dir "$work" "$build_from"
if [ "$dry_run" = 1 ]; then wheel="$work/slapbox-*.whl"; else
  wheel="$(ls "$work"/slapbox-*.whl)"
fi
# --force-reinstall --no-deps: the same version number is installed again (a new checkout), then
# the second call brings the dependencies (pygame-ce, pyserial, gpiozero unless the system's fits).
step "$D$venv/bin/python" -m pip --disable-pip-version-check install --quiet --no-warn-script-location \
  --force-reinstall --no-deps "$wheel"
step "$D$venv/bin/python" -m pip --disable-pip-version-check install --quiet --no-warn-script-location \
  "$wheel"
step "$D$venv/bin/python" -m compileall -q -j 0 "$D$venv/lib"

# --- 4. The state directory and the configuration (both kept if they exist) --------------------
if [ -n "$D" ]; then
  step install -d -m 0700 "$D/var/lib/slapbox"
else
  step install -d -m 0700 -o "$user" -g "$user" /var/lib/slapbox
fi
step install -d -m 0755 "$D/etc/slapbox"
cfg="$D/etc/slapbox/config.toml"
run_as="$user"; home=/var/lib/slapbox
if [ -n "$D" ]; then run_as="$(id -un)"; home="$work"; fi
write_config() {
  as_user "$run_as" "$home" "$D$venv/bin/slapbox" config show /dev/null > "$work/config.toml"
  sed -i -e '1s|.*|# /etc/slapbox/config.toml, written by systemd/install.sh: every key at its default but [inputs] source|' \
         -e 's/^source = "keyboard"/source = "gpio"/' "$work/config.toml"
  grep -q '^source = "gpio"' "$work/config.toml" || { echo "install.sh: no [inputs] source key in 'slapbox config show'" >&2; return 1; }
  install -m 0644 "$work/config.toml" "$cfg"
}
if [ "$dry_run" = 1 ] || [ ! -e "$cfg" ]; then
  echo "# only if $cfg does not exist (it is kept on a reinstall): the defaults, with the GPIO buttons"
  if [ "$dry_run" = 1 ]; then
    echo "+ as_user $run_as $home $D$venv/bin/slapbox config show /dev/null > $work/config.toml"
    echo "+ sed -i -e '1s|.*|# ...written by systemd/install.sh...|' -e 's/^source = \"keyboard\"/source = \"gpio\"/' $work/config.toml"
    echo "+ install -m 0644 $work/config.toml $cfg"
  else
    write_config
  fi
else
  say "keeping $cfg"
fi
if [ "$dry_run" = 0 ]; then
  if ! as_user "$run_as" "$home" "$D$venv/bin/slapbox" config check "$cfg"; then
    say "warning: $cfg has errors (above): the box starts with the defaults for those keys; fix them, then: sudo systemctl restart slapbox"
  fi
else
  step as_user "$run_as" "$home" "$D$venv/bin/slapbox" config check "$cfg"
fi

# --- 5. State, unit, rules ----------------------------------------------------------------------
# from the same tree as the wheel, so the unit always matches the program it starts
files="$build_from/systemd"
step install -D -m 0644 "$files/slapbox.service" "$D/etc/systemd/system/slapbox.service"
step install -D -m 0644 "$files/70-slapbox-bridge.rules" "$D/etc/udev/rules.d/70-slapbox-bridge.rules"
step install -D -m 0644 "$files/50-slapbox-poweroff.rules" "$D/etc/polkit-1/rules.d/50-slapbox-poweroff.rules"
step install -D -m 0644 "$files/slapbox-modules.conf" "$D/etc/modules-load.d/slapbox.conf"
system modprobe -a cdc_acm drm snd || say "warning: modprobe failed (above); the box still starts, see hardware.md"
system udevadm control --reload
system udevadm trigger --action=add --subsystem-match=tty
system systemctl daemon-reload
system systemctl enable slapbox.service
if [ "$start" = 1 ]; then
  system systemctl restart slapbox.service
else
  echo "# --no-start: it starts at the next boot (or: sudo systemctl start slapbox)"
fi
if [ "$dry_run" = 1 ]; then say "dry run done"; exit 0; fi
if [ -n "$D" ]; then say "done under $D"; exit 0; fi
say "installed; 'journalctl -u slapbox -f' shows its log, $cfg its settings, hardware.md the checks to run"
