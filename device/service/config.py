"""The kiosk service's config section, [service]: shutdown command, journal folder and how many
journals it keeps, the main loop's watched stretch before deadlines, and when the attract mode
starts."""

from __future__ import annotations

from device.clock import SPIN_NS
from device.config.schema import Field, register_section
from device.journal.journal import KEEP_GAMES, MAX_MB

SERVICE_FIELDS = (
    Field("shutdown_command", "str", "systemctl poweroff", "run when MENU is held 5 s and the shutdown "
          "is confirmed (never in developer mode)"),
    Field("journal_dir", "str", "", 'where journals and the leaderboard go; "" means /var/lib/slapbox '
          'for the service, $XDG_STATE_HOME/slapbox otherwise; "none" keeps no journal'),
    Field("journal_keep_games", "int", KEEP_GAMES, "journals kept: when a game starts, the oldest "
          "beyond this many are deleted (never the game being played or one that could be "
          "resumed)", low=1, high=1_000_000),
    Field("journal_max_mb", "number", MAX_MB, "the journals' folder holds at most this many MB: "
          "when a game starts, the oldest journals beyond it are deleted (never the game being "
          "played or one that could be resumed)", low=1, high=1_000_000),
    Field("spin_ms", "number", SPIN_NS // 1_000_000, "the main loop stops sleeping this long before a judgement or a card "
          "is due and watches the clock, so it is on time even when the system wakes it late; it "
          "costs a core for that long (0: always sleep)", low=0, high=20),
    Field("idle_attract_s", "int", 90, "after this long without a press outside a game, the attract mode "
          "(a bots' demo game) starts", low=10, high=3600),
)


register_section("service", SERVICE_FIELDS, "The kiosk service.")
