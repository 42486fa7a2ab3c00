"""The scene model: what one frame shows, as plain data (boxes, texts, cards, bars), without pygame."""

from __future__ import annotations

from dataclasses import dataclass, field

from device.screen import palette
from device.screen.layout import CARD_ASPECT, Rect

RGB = palette.RGB


@dataclass(frozen=True, slots=True)
class Box:
    """A filled rectangle (``fill`` None: outline only), drawn under the texts of its layer."""

    rect: Rect
    fill: RGB | None
    border: RGB | None = None
    width: int = 0          # border width in px
    radius: int = 0
    alpha: int = 255        # < 255: a see-through veil (menus over a game)
    layer: int = 0


@dataclass(frozen=True, slots=True)
class Text:
    """One line of text, ``px`` as for ``pygame.font.Font(None, px)``; ``y`` is its top; ``x`` is
    its left, centre or right edge by ``align``. ``bg`` is the colour behind it (the contrast check
    and the renderer both use it); ``max_w``: the width it was fitted to."""

    x: int
    y: int
    px: int
    text: str
    colour: RGB
    bg: RGB
    align: str = "left"
    max_w: int | None = None
    layer: int = 0


@dataclass(frozen=True, slots=True)
class CardSprite:
    """A card at (x, y), ``height`` px high; ``number``: its card number k (for ``Shown``), if live."""

    card: int | None
    x: int
    y: int
    height: int
    face_up: bool = True
    number: int | None = None
    layer: int = 0

    @property
    def width(self) -> int:
        return round(self.height * CARD_ASPECT)


@dataclass(frozen=True, slots=True)
class Bar:
    """A solid bar (seat colour tags, the reaction-time chart)."""

    rect: Rect
    fill: RGB
    layer: int = 0


@dataclass
class Scene:
    """Everything one frame shows. Drawn per layer: boxes, bars, cards, then texts."""

    size: tuple[int, int]
    kind: str
    background: RGB = palette.TABLE
    boxes: list[Box] = field(default_factory=list)
    texts: list[Text] = field(default_factory=list)
    cards: list[CardSprite] = field(default_factory=list)
    bars: list[Bar] = field(default_factory=list)
    card_numbers: tuple[int, ...] = ()

    def all_text(self) -> str:
        """Every text of the scene, one per line (for tests and logs)."""
        return "\n".join(t.text for t in self.texts)


@dataclass(frozen=True)
class ChooserView:
    """A choice for the player holding the box: tap = next option, hold = choose.
    ``cards[i]``: the hand cards option i would lay (raised on screen when it is under the cursor)."""

    title: str
    options: list[str]
    cursor: int = 0
    cards: tuple[tuple[int, ...], ...] = ()


# --- the party screens (device.screen.party holds their state; device.screen.scene.party draws) ---
@dataclass(frozen=True)
class StationTile:
    """One station on the button check / join screen."""

    station: int                 # 0-based (people read station + 1)
    joined: bool                 # it pressed: it is seated
    seat: int | None             # the seat it takes (its colour: palette.seat_colour(seat))
    name: str                    # its player's name (the default until one is picked)
    problem: str | None = None   # None, "stuck" (held down), "chatter" (bouncing), "lost" (edges lost),
    #                              "full" (it pressed, but the game has no seat left)
    lit: bool = False            # it pressed a moment ago (its LED is lit)


@dataclass(frozen=True)
class JoinView:
    """The button check, which is also the join screen: "press your button"."""

    tiles: tuple[StationTile, ...]
    bots: int                    # the seats bots will take
    can_start: bool              # at least one station joined (or bots play alone)


@dataclass(frozen=True)
class PickerView:
    """One player's name picker (tap = next, hold = choose), in that player's part of the screen.

    ``stage``: "list" (the remembered names, then "new name", then "keep <default>"), "wheel" (the
    letter wheel) or "done". In the list, ``current`` is the name under the cursor, or "" with
    ``current_key`` the catalogue key of "new name" / "keep the default". On the wheel, ``typed``
    is the name so far and ``letter`` the one under the cursor (``letter_key`` the catalogue key
    of space, delete and done); ``upcoming`` the next few letters a tap would reach."""

    station: int
    seat: int | None
    stage: str
    default: str
    current: str = ""
    current_key: str | None = None
    typed: str = ""
    letter: str = ""
    letter_key: str | None = None
    upcoming: tuple[str, ...] = ()
    name: str = ""               # done: the name chosen


@dataclass(frozen=True)
class NamesView:
    """Everyone picks a name at once, each in their own part of the screen."""

    pickers: tuple[PickerView, ...]


@dataclass(frozen=True)
class StandingRow:
    name: str
    seat: int
    wins: int
    cards: int | None = None     # cards at the end of the last game (a timed game), else None
    leader: bool = False


@dataclass(frozen=True)
class StandingsView:
    """Between two games of a match, and at its end."""

    rows: tuple[StandingRow, ...]
    played: int                  # games played so far
    total: int | None            # best of N: N; a timed match: None
    minutes_left: int | None = None  # a timed match: whole minutes left (0: this was the last game)
    last_winner: str | None = None   # who won the game just played (None: a draw)
    photo: tuple[str, str, int] | None = None  # closest photo finish: (winner, runner-up, margin ns)
    over: bool = False           # the match is over
    winner: str | None = None    # ... its winner (None with over: a draw)
