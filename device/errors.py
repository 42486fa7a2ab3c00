"""The one root of every error a person can act on (a bad file, key, byte, button or move).

Every part's own errors derive from `SlapboxError`, so the command line catches one class, prints
its `user_message` (one line per problem, naming the file, key or argument and what was expected)
and exits 2; anything else that escapes is a bug. Standard library only: the rules core uses it.
"""

from __future__ import annotations


class SlapboxError(Exception):
    """A problem the person at the box (or at the laptop) can fix; the message says how."""

    #: the command's exit status when this error stops it (2: bad input, as argparse's usage errors)
    exit_code = 2

    @property
    def user_message(self) -> str:
        """What to print: one line per problem, without a traceback."""
        return str(self) or type(self).__name__


__all__ = ["SlapboxError"]
