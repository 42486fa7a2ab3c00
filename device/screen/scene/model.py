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
