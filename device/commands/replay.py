"""Replay a game's journal and check that every judgement comes out the same.

Exit status 0: identical; 1: the first difference is printed (file, line, both records); 2: the
file cannot be read. A torn last line (a power cut while writing) is tolerated.
"""

from __future__ import annotations

import argparse
import sys

from device.journal.journal import JournalError
from device.journal.replay import ReplayMismatch, replay


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="a journal (.jsonl) written by a game")


def run(args: argparse.Namespace) -> int:
    try:
        result = replay(args.file)
    except JournalError as e:
        print(f"slapbox replay: error: {e}", file=sys.stderr)
        return 2
    except ReplayMismatch as e:
        print(f"slapbox replay: different: {e}", file=sys.stderr)
        return 1
    for w in result.warnings:
        print(f"slapbox replay: warning: {w}", file=sys.stderr)
    outcome = result.table.game.outcome()
    end = (f"ended: {outcome.termination}" + (f", seat {outcome.winner} won" if outcome.winner is not None else "")
           if outcome else "unfinished (it stops where the journal stops)")
    print(f"ok: {result.path}: {result.inputs} inputs replayed, {result.checked} judgements and "
          f"events identical; {end}")
    return 0
