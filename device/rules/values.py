"""Frozen value classes for the rules' events and actions, made without generating code.

`dataclasses` writes and compiles an ``__init__``, ``__repr__``, ``__eq__``, ``__hash__`` and
``__setattr__`` for every class it decorates, and rebuilds the class for its slots: for the rules'
sixty-odd events and actions that was about 150 million instructions at every start, a good part
of the box's start-up on a Pi Zero 2 W. `value` gives the same behaviour (positional and keyword
arguments with defaults, frozen, slotted, equal and hashed by type and fields, the same repr,
``__match_args__``) with methods shared by every class. Type checkers see it as a dataclass
(`typing.dataclass_transform`). Standard library only: the rules core uses it.
"""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar, dataclass_transform

_T = TypeVar("_T", bound=type)


class FrozenValueError(AttributeError):
    """A field of a frozen value was assigned (the values are immutable, like dataclasses')."""


class Value:
    """What every value class shares: its fields' names (``_fields``) and their defaults."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()
    _defaults: ClassVar[dict[str, Any]] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        names = self._fields
        if len(args) > len(names):
            raise TypeError(f"{type(self).__name__}() takes {len(names)} arguments, "
                            f"{len(args)} were given")
        setter = object.__setattr__
        for name, arg in zip(names, args):
            setter(self, name, arg)
        for name in names[len(args):]:
            if name in kwargs:
                setter(self, name, kwargs.pop(name))
            elif name in self._defaults:
                setter(self, name, self._defaults[name])
            else:
                raise TypeError(f"{type(self).__name__}() is missing its argument {name!r}")
        if kwargs:
            raise TypeError(f"{type(self).__name__}() got an unexpected or repeated argument "
                            f"{next(iter(kwargs))!r}")

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._fields)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__qualname__}({inner})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenValueError(f"cannot assign to field {name!r}: {type(self).__name__} is frozen")

    def __delattr__(self, name: str) -> None:
        raise FrozenValueError(f"cannot delete field {name!r}: {type(self).__name__} is frozen")


@dataclass_transform(frozen_default=True)
def value(cls: _T) -> _T:
    """Make ``cls`` (a subclass of `Value`) a frozen, slotted value of its annotated fields, after
    its bases' fields, in order; a field with a value in the class body has it as its default."""
    inherited: tuple[str, ...] = ()
    defaults: dict[str, Any] = {}
    for base in reversed(cls.__mro__[1:]):
        if "_fields" in base.__dict__:
            inherited = tuple(dict.fromkeys(inherited + base.__dict__["_fields"]))
            defaults.update(base.__dict__["_defaults"])
    own = [n for n in cls.__dict__.get("__annotations__", {}) if n not in inherited]
    ns = {k: v for k, v in cls.__dict__.items() if k not in ("__dict__", "__weakref__", *own)}
    for name in own:
        if name in cls.__dict__:
            defaults[name] = cls.__dict__[name]
    fields = inherited + tuple(own)
    ns["__slots__"] = tuple(own)
    ns["_fields"] = fields
    ns["_defaults"] = defaults
    ns["__match_args__"] = fields
    made = type(cls)(cls.__name__, cls.__bases__, ns)
    made.__qualname__ = cls.__qualname__
    return made


__all__ = ["Value", "value", "FrozenValueError"]
