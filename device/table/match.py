"""One game at the table, from its start to its end: the table, its runner (bots, scripts), its
journal and the outputs its records go to."""

from __future__ import annotations

import datetime
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from device.clock import Clock
from device.inputs.script import ScriptedPress
from device.journal.journal import FileJournal, journal_name
from device.table.runner import Runner
from device.table.session import GameSpec, bot_hands, bot_minds, make_table
from device.table.table import Table

log = logging.getLogger("slapbox")
#: builds the screen's feed for a table (None: no screen)
FeedFactory = Callable[[Table], Any]
#: every record the table hands out, with the match it came from (sound, LEDs)
OnItem = Callable[[Any, "Match"], None]


class Match:
    """One game: its table, runner (bots, scripts), journal and feed."""

    def __init__(self, spec: GameSpec, table: Table, journal: FileJournal | None, clock: Clock, *,
                 attract: bool = False, feed_factory: FeedFactory | None = None,
                 on_item: OnItem | None = None, headless: bool = False,
                 script: list[ScriptedPress] | None = None, resumed: bool = False) -> None:
        self.spec = spec
        self.table = table
        self.journal = journal
        self.attract = attract
        self.resumed = resumed
        self.on_item = on_item
        self.feed = feed_factory(table) if feed_factory is not None else None
        self.runner = Runner(table, clock, hands=bot_hands(table), minds=bot_minds(table),
                             headless=headless, outputs=[self._out])
        if script:
            self.runner.schedule_script(script)

    @classmethod
    def start(cls, spec: GameSpec, clock: Clock, folder: Path | None, *, attract: bool = False,
              feed_factory: FeedFactory | None = None, on_item: OnItem | None = None,
              headless: bool = False, script: list[ScriptedPress] | None = None) -> Match:
        """A new game now, journaled in ``folder`` (None: no journal)."""
        journal: FileJournal | None = None
        wall = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        if folder is not None:
            try:
                journal = FileJournal(folder / journal_name(spec.preset, spec.seed, wall))
            except OSError as e:
                log.warning("journal: cannot write in %s (%s); playing without a journal", folder, e)
        table = make_table(spec, start_ns=clock.now_ns(), journal=journal, wall=wall)
        return cls(spec, table, journal, clock, attract=attract, feed_factory=feed_factory,
                   on_item=on_item, headless=headless, script=script)

    def _out(self, item: Any, now: int) -> None:
        if self.feed is not None:
            self.feed.push(item, now)
        if self.on_item is not None:
            self.on_item(item, self)

    @property
    def over(self) -> bool:
        return self.table.game.outcome() is not None

    def close(self) -> None:
        """The process stops (quit, shutdown, a signal): the journal is closed as it is, and an
        unfinished game can be resumed by the next start."""
        if self.journal is not None:
            self.journal.close()

    def abandon(self) -> None:
        """The players left this game (the menu's quit, a new game): it will not be resumed."""
        if self.journal is not None and not self.over:
            self.journal.write({"k": "abandon", "t": self.table.now_ns})
        self.close()


def result_line(table: Table) -> str:
    """How the game ended, in one line for the terminal."""
    outcome = table.game.outcome()
    if outcome is None:
        return "game unfinished"
    names = {s.seat: s.name for s in table.seats}
    if outcome.winner is not None:
        # people count seats from 1
        return f"{outcome.termination}: seat {outcome.winner + 1} ({names[outcome.winner]}) wins"
    return f"{outcome.termination}: no winner"


__all__ = ["Match", "result_line", "FeedFactory", "OnItem"]
