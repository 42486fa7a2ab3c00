#!/usr/bin/env bash
# Removes what systemd/install.sh installed: the service (stopped and disabled), the program
# (/opt/slapbox), the udev and polkit rules and the modules-load file. Keeps the configuration
# (/etc/slapbox), the journals and statistics (/var/lib/slapbox) and the slapbox user, unless
# --purge. Safe to run again: what is already gone is skipped.
#
#   sudo bash systemd/uninstall.sh             remove the program and the system files
#   sudo bash systemd/uninstall.sh --purge     also the config, the state and the slapbox user
#   bash systemd/uninstall.sh --dry-run        print every step, change nothing
#   bash systemd/uninstall.sh --destdir DIR    remove the files under DIR only (no systemctl, no user)
# DRY_RUN=1 and DESTDIR=DIR work as the options do.
set -euo pipefail
dry_run="${DRY_RUN:-0}"
destdir="${DESTDIR:-}"
purge=0
while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) dry_run=1 ;;
    --destdir) [ $# -ge 2 ] || { echo "uninstall.sh: --destdir needs a directory" >&2; exit 2; }
               destdir="$2"; shift ;;
    --destdir=*) destdir="${1#--destdir=}" ;;
    --purge) purge=1 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "uninstall.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
[ "$dry_run" = 1 ] || dry_run=0
D="${destdir%/}"
if [ -n "$D" ] && [ ! -d "$D" ]; then echo "uninstall.sh: no directory $D" >&2; exit 2; fi
if [ "$dry_run" = 0 ] && [ -z "$D" ] && [ "$(id -u)" != 0 ]; then
  echo "uninstall.sh: run it as root (sudo bash systemd/uninstall.sh), or with --dry-run or --destdir" >&2
  exit 2
fi
say() { echo "slapbox uninstall: $*"; }
# show, step (print and run unless a dry run), system (not run under --destdir)
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/steps.sh"
# remove PATH...: each that exists (a dry run lists them all)
remove() {
  local p
  for p in "$@"; do
    if [ "$dry_run" = 1 ] || [ -e "$p" ] || [ -L "$p" ]; then step rm -rf --one-file-system "$p"; fi
  done
}

if [ -z "$D" ] && [ "$dry_run" = 0 ]; then
  if systemctl list-unit-files slapbox.service >/dev/null 2>&1; then
    step systemctl disable --now slapbox.service || say "warning: could not stop slapbox.service (above)"
  fi
else
  system systemctl disable --now slapbox.service
fi
remove "$D/etc/systemd/system/slapbox.service" \
       "$D/etc/udev/rules.d/70-slapbox-bridge.rules" \
       "$D/etc/polkit-1/rules.d/50-slapbox-poweroff.rules" \
       "$D/etc/modules-load.d/slapbox.conf" \
       "$D/opt/slapbox"
system systemctl daemon-reload
system systemctl reset-failed slapbox.service 2>/dev/null || true
system udevadm control --reload
if [ "$purge" = 1 ]; then
  remove "$D/etc/slapbox" "$D/var/lib/slapbox"
  if [ -n "$D" ] || [ "$dry_run" = 1 ]; then
    echo "# if the user slapbox exists:"
    system userdel slapbox
  elif getent passwd slapbox >/dev/null; then
    step userdel slapbox
  fi
else
  say "kept $D/etc/slapbox (config), $D/var/lib/slapbox (journals, statistics) and the slapbox user: --purge removes them"
fi
say "done"
