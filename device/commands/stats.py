"""The leaderboard and the names the box remembers, read from its state folder (and a name forgotten).

``slapbox stats`` prints the board, players keyed by the names they picked on their buttons
(bots are not on it), then the remembered names, most recent first. ``--forget NAME`` is the
menu's "Forget a name" from a terminal. ``--journal`` is the folder `slapbox play` writes to
(default: the same as play's; ``--service``: the kiosk's /var/lib/slapbox).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from device.journal.journal import default_dir
from device.journal.names import FILE_NAME as NAMES_FILE
from device.journal.names import NameBook
from device.journal.stats import FILE_NAME, Leaderboard


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--journal", metavar="DIR", help="the state folder (default: play's)")
    parser.add_argument("--service", action="store_true", help="the kiosk's folder, /var/lib/slapbox")
    parser.add_argument("--limit", type=int, default=20, metavar="N", help="rows of the board (default 20)")
    parser.add_argument("--forget", metavar="NAME", help="the box no longer offers this name")


def _ms(v: float | None) -> str:
    return "-" if v is None else f"{v:.0f} ms"


def run(args: argparse.Namespace) -> int:
    folder = Path(args.journal) if args.journal else default_dir(service=args.service)
    book = NameBook(folder / NAMES_FILE)
    if book.warning:
        print(f"slapbox stats: warning: {book.warning}", file=sys.stderr)
    if args.forget is not None:
        if not book.forget(args.forget):
            known = ", ".join(book.names) or "none"
            print(f"slapbox stats: error: {folder / NAMES_FILE}: no remembered name {args.forget!r} "
                  f"(the names are: {known})", file=sys.stderr)
            return 2
        try:
            book.save()
        except OSError as e:
            print(f"slapbox stats: error: cannot write {folder / NAMES_FILE}: {e.strerror or e}",
                  file=sys.stderr)
            return 2
        print(f"forgotten: {args.forget}")
        return 0
    board = Leaderboard(folder / FILE_NAME)
    if board.warning:
        print(f"slapbox stats: warning: {board.warning}", file=sys.stderr)
    rows = board.rows(max(1, args.limit))
    print(f"leaderboard ({folder / FILE_NAME}):")
    if not rows:
        print("  no game finished yet")
    else:
        width = max(len(r.name) for r in rows)
        print(f"  {'name':<{width}}  games  wins  slaps  wrong  mean      fastest")
        for r in rows:
            print(f"  {r.name:<{width}}  {r.games:>5}  {r.wins:>4}  {r.slaps_won:>5}  {r.wrong_slaps:>5}  "
                  f"{_ms(r.mean_reaction_ms):<8}  {_ms(r.fastest_ms)}")
    print(f"remembered names, most recent first: {', '.join(book.names) if book.names else 'none'}")
    return 0
