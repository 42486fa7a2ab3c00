#!/usr/bin/env bash
# Installs slapbox as the box's kiosk service on Raspberry Pi OS (Bookworm), from this checkout.
# Run as root:  sudo bash systemd/install.sh      (DRY_RUN=1 prints the steps without doing them)
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
prefix=/opt/slapbox
run() { if [ "${DRY_RUN:-0}" = 1 ]; then echo "+ $*"; else "$@"; fi; }

if [ "${DRY_RUN:-0}" != 1 ] && [ "$(id -u)" != 0 ]; then
  echo "systemd/install.sh: run it as root (sudo bash systemd/install.sh)" >&2; exit 2
fi
# gpiozero and lgpio from Raspberry Pi OS's own packages: lgpio has no aarch64 wheel on PyPI.
run apt-get install -y --no-install-recommends python3-venv python3-gpiozero python3-lgpio
run id -u slapbox >/dev/null 2>&1 || run useradd --system --home-dir /var/lib/slapbox --shell /usr/sbin/nologin slapbox
for g in gpio video render input audio; do
  if getent group "$g" >/dev/null; then run usermod -aG "$g" slapbox; fi
done
run mkdir -p "$prefix" /etc/slapbox
run cp -a "$src/." "$prefix/"
run python3 -m venv --system-site-packages "$prefix/.venv"
run "$prefix/.venv/bin/pip" install -q "$prefix"
if [ ! -e /etc/slapbox/config.toml ]; then
  run sh -c "'$prefix/.venv/bin/slapbox' config show > /etc/slapbox/config.toml"
  run sed -i 's/^source = "keyboard"/source = "gpio"/' /etc/slapbox/config.toml
fi
# The MENU button's safe shutdown: let the slapbox user power the box off.
run sh -c "cat > /etc/polkit-1/rules.d/50-slapbox-poweroff.rules <<'RULES'
polkit.addRule(function(action, subject) {
  if (action.id == 'org.freedesktop.login1.power-off' && subject.user == 'slapbox') return polkit.Result.YES;
});
RULES"
run install -m 0644 "$src/systemd/slapbox.service" /etc/systemd/system/slapbox.service
run systemctl daemon-reload
run systemctl enable --now slapbox.service
echo "slapbox: installed; 'journalctl -u slapbox -f' shows its log, /etc/slapbox/config.toml its settings"
