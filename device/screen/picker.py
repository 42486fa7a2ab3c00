"""A player picks a name with their own arcade button: tap = next, hold = choose (plain data, no pygame).

First "keep <default>" (a player who skips holds once), then the names the box remembers (most
recent first; a name another player already took is not offered), then "new name". "New name" opens the letter wheel: A to Z, the
accented letters of French names, a hyphen, space, delete and done, one ring that a tap turns
and a hold takes from; the cursor stays on the letter just taken (a double letter is one more
hold). Letters are written as names are: the first of each word a capital, the rest small.
Developer mode can also type (``type_text``, ``backspace``, ``enter``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from device.journal.names import NAME_MAX, WIDEST_NAME
from device.screen.scene.model import PickerView
from device.screen.scene.text import text_width

SPACE, DELETE, DONE = " ", "delete", "done"
ACCENTS = tuple("ÉÈÊËÀÂÇÎÏÔÙÛÜ")
#: the letter wheel, in the order a tap turns it
WHEEL: tuple[str, ...] = (*"ABCDEFGHIJKLMNOPQRSTUVWXYZ", *ACCENTS, "-", SPACE, DELETE, DONE)
_WHEEL_KEYS = {SPACE: "wheel.space", DELETE: "wheel.delete", DONE: "wheel.done"}
NEW, KEEP = "\x00new", "\x00keep"  # the list's first and last entries (never names: not printable)
UPCOMING = 4  # letters shown after the one under the cursor
_REF_PX = 100


def fits(name: str) -> bool:
    """``name`` is no longer than NAME_MAX letters and no wider than WIDEST_NAME."""
    return len(name) <= NAME_MAX and text_width(name, _REF_PX) <= text_width(WIDEST_NAME, _REF_PX)


def written(typed: str, letter: str) -> str:
    """``typed`` with ``letter`` added as a name is written (a capital to start each word)."""
    starts_word = not typed or typed[-1] in " -"
    return typed + (letter.upper() if starts_word else letter.lower())


class NamePicker:
    """One station's name picker. ``taken``: the names other players have chosen (not offered,
    and a typed name equal to one is not accepted)."""

    def __init__(self, station: int, seat: int | None, default: str, known: Sequence[str]) -> None:
        self.station = station
        self.seat = seat
        self.default = default
        self.known = list(known)
        self.stage = "list"
        self.cursor = 0          # the list: the index of ``choice`` when it was last moved
        self.choice: str | None = None  # ... the entry under the cursor (None: the first)
        self.typed = ""
        self.letter = 0
        self.name = ""

    @property
    def done(self) -> bool:
        return self.stage == "done"

    def options(self, taken: Collection[str] = ()) -> list[str]:
        """"Keep <default>" (unless another player has that name), the remembered names nobody
        else has, "new name"."""
        keep = [] if self.default in taken else [KEEP]
        return keep + [n for n in self.known if n not in taken and n != self.default] + [NEW]

    def current(self, taken: Collection[str] = ()) -> str:
        """The list's entry under the cursor: the one the player moved to, even when another
        player's choice has since taken an entry out of the list (the cursor stays on its name;
        if its name was taken, on the entry that came after it)."""
        options = self.options(taken)
        if self.choice in options:
            return self.choice
        return options[min(self.cursor, len(options) - 1)]

    # --- the button ------------------------------------------------------------------------
    def tap(self, taken: Collection[str] = ()) -> None:
        if self.stage == "list":
            options = self.options(taken)
            self.cursor = (options.index(self.current(taken)) + 1) % len(options)
            self.choice = options[self.cursor]
        elif self.stage == "wheel":
            self.letter = (self.letter + 1) % len(WHEEL)

    def hold(self, taken: Collection[str] = ()) -> None:
        if self.stage == "list":
            choice = self.current(taken)
            if choice == NEW:
                self.stage, self.typed, self.letter = "wheel", "", 0
            elif choice == KEEP:
                self._finish(self.default)
            else:
                self._finish(choice)
        elif self.stage == "wheel":
            self._take(WHEEL[self.letter], taken)

    def _take(self, letter: str, taken: Collection[str]) -> None:
        if letter == DONE:
            self.enter(taken)
        elif letter == DELETE:
            self.backspace()
        elif letter == SPACE:
            if self.typed and not self.typed.endswith(" ") and fits(self.typed + " "):
                self.typed += " "
        elif fits(written(self.typed, letter)):
            self.typed = written(self.typed, letter)

    # --- developer mode: the keyboard types -----------------------------------------------------
    def type_text(self, text: str) -> None:
        """Letters typed on a keyboard (the wheel opens if it was not)."""
        if self.stage == "done":
            return
        self.stage = "wheel"
        for ch in text:
            if ch.isalpha() or ch in " -'":
                new = written(self.typed, ch) if ch.isalpha() else self.typed + ch
                if fits(new) and not (ch == " " and (not self.typed or self.typed.endswith(" "))):
                    self.typed = new

    def backspace(self) -> None:
        if self.stage == "wheel":
            if self.typed:
                self.typed = self.typed[:-1]
            else:  # deleting nothing goes back to the list
                self.stage, self.cursor, self.choice = "list", 0, None

    def enter(self, taken: Collection[str] = ()) -> None:
        """The typed name is done; an empty one goes back to the list, one already taken stays
        on the wheel (the screen still shows it, so its owner sees it needs a change)."""
        name = " ".join(self.typed.split())
        if not name:
            self.stage, self.cursor, self.choice = "list", 0, None
        elif name not in taken:
            self._finish(name)

    def _finish(self, name: str) -> None:
        self.name = name
        self.stage = "done"

    # --- what the screen shows ---------------------------------------------------------------
    def view(self, taken: Collection[str] = ()) -> PickerView:
        st, seat, stage, default = self.station, self.seat, self.stage, self.default
        if stage == "list":
            choice = self.current(taken)
            if choice in (NEW, KEEP):
                return PickerView(st, seat, stage, default,
                                  current_key="names.new" if choice == NEW else "names.keep")
            return PickerView(st, seat, stage, default, current=choice)
        if stage == "wheel":
            letter = WHEEL[self.letter]
            nxt = tuple(WHEEL[(self.letter + i) % len(WHEEL)] for i in range(1, UPCOMING + 1))
            return PickerView(st, seat, stage, default, typed=self.typed,
                              letter="" if letter in _WHEEL_KEYS else letter,
                              letter_key=_WHEEL_KEYS.get(letter),
                              upcoming=tuple(c for c in nxt if c not in _WHEEL_KEYS))
        return PickerView(st, seat, stage, default, name=self.name)


def unique_names(chosen: Sequence[str]) -> list[str]:
    """The names of one table, each once (a second "Anna" is "Anna 2"): the leaderboard and the
    statistics are keyed by name."""
    out: list[str] = []
    for name in chosen:
        candidate, n = name, 2
        while candidate in out:
            suffix = f" {n}"
            candidate = name[:NAME_MAX - len(suffix)] + suffix
            n += 1
        out.append(candidate)
    return out


__all__ = ["NamePicker", "WHEEL", "SPACE", "DELETE", "DONE", "NEW", "KEEP", "unique_names", "written"]
