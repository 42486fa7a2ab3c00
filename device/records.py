"""Immutable records for the hot paths: typed NamedTuples that compare by type AND value.

A press, a judgement, a card to show: one is built for every button edge and every card, so they
are NamedTuples (2-3x cheaper to build than frozen dataclasses; ``tuple.__new__(Cls, fields)``
cheaper still, where a path counts every 100 ns). A plain NamedTuple equals any tuple with the
same fields; `typed` makes ``Stuck(0, "slap", 5) != Unstuck(0, "slap", 5)``, as dataclasses do.
"""

from __future__ import annotations

from typing import Any, TypeVar

__all__ = ["typed", "new"]

T = TypeVar("T", bound=type)

#: ``new(Cls, (a, b))`` builds a record without the NamedTuple's Python-level ``__new__``
new = tuple.__new__


def _eq(self: tuple[Any, ...], other: object) -> bool:
    return type(other) is type(self) and tuple.__eq__(self, other)


def _ne(self: tuple[Any, ...], other: object) -> bool:
    return not _eq(self, other)


def typed(cls: T) -> T:
    """Class decorator for a NamedTuple subclass: equality by type and value, tuple hashing."""
    cls.__eq__ = _eq  # type: ignore[assignment]
    cls.__ne__ = _ne  # type: ignore[assignment]
    cls.__hash__ = tuple.__hash__  # type: ignore[assignment]
    return cls
