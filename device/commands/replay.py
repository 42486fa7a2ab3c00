"""Replay a game's journal and check that every judgement comes out the same.

Exit status 0: identical; 1: the first difference is printed (file, line, both records); 2: the
file cannot be read. A torn last line (a power cut while writing) is tolerated.
"""

from __future__ import annotations

import argparse
import sys

from device.journal.journal import JournalError, read_journal
from device.journal.replay import ReplayMismatch, replay


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="a journal (.jsonl) written by a game")
    parser.add_argument("--from-edges", action="store_true",
                        help="re-derive the presses from the journal's raw edges (recorded with "
                             "play --record-edges) through the box's debouncer, then re-judge "
                             "the whole game: a disputed slap, re-judged from what the kernel "
                             "delivered")


def run(args: argparse.Namespace) -> int:
    try:
        result = replay(args.file, from_edges=args.from_edges)
    except JournalError as e:
        print(f"slapbox replay: error: {e}", file=sys.stderr)
        return 2
    except ReplayMismatch as e:
        print(f"slapbox replay: different: {e}", file=sys.stderr)
        return 1
    for w in result.warnings:
        print(f"slapbox replay: warning: {w}", file=sys.stderr)
    outcome = result.table.game.outcome()
    left = any(r.get("k") == "abandon" for r in read_journal(args.file)[1])
    if outcome:
        end = f"ended: {outcome.termination}" + (
            f", seat {outcome.winner + 1} won" if outcome.winner is not None else "")
    elif left:
        end = "left (the players quit it from the menu)"
    else:
        end = "unfinished (it stops where the journal stops)"
    print(f"ok: {result.path}: {result.inputs} inputs replayed, {result.checked} judgements and "
          f"events identical; {end}")
    return 0
