"""The kiosk service's config section, [service]: shutdown command, journal folder, the main
loop's watched stretch before deadlines, and when the attract mode starts."""

from __future__ import annotations

from device.clock import SPIN_NS
from device.config.schema import Field, register_section

SERVICE_FIELDS = (
    Field("shutdown_command", "str", "systemctl poweroff", "run when MENU is held 5 s and the shutdown "
          "is confirmed (never in developer mode)"),
    Field("journal_dir", "str", "", 'where journals and the leaderboard go; "" means /var/lib/slapbox '
          'for the service, $XDG_STATE_HOME/slapbox otherwise; "none" keeps no journal'),
    Field("spin_ms", "number", SPIN_NS // 1_000_000, "the main loop stops sleeping this long before a judgement or a card "
          "is due and watches the clock, so it is on time even when the system wakes it late; it "
          "costs a core for that long (0: always sleep)", low=0, high=20),
    Field("idle_attract_s", "int", 90, "after this long without a press outside a game, the attract mode "
          "(a bots' demo game) starts", low=10, high=3600),
)


register_section("service", SERVICE_FIELDS, "The kiosk service.")
