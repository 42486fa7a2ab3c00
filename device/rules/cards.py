"""Cards as small integers, decks, the deal, and the `--deal` notation.

A card is ``rank * 4 + suit``: ranks 2..10, J=11, Q=12, K=13, A=14, Joker=15; suit 0..3 (for a
joker, which of the jokers). Rank 0 is a number card whose value does not matter (``-`` in a deal
spec): it is never equal to another card for slaps. Ints keep the engine fast and the journal small.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from device.errors import SlapboxError

JACK, QUEEN, KING, ACE, JOKER = 11, 12, 13, 14, 15
ANY_NUMBER = 0
SUITS = "SHDC"  # spades, hearts, diamonds, clubs (drawn on screen only)

RANK_CHARS = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10,
              "J": JACK, "Q": QUEEN, "K": KING, "A": ACE, "X": JOKER, "-": ANY_NUMBER}
CHAR_OF_RANK = {v: k for k, v in RANK_CHARS.items()}


class DealError(SlapboxError, ValueError):
    """A `--deal` spec that cannot be read or is refused by the preset."""


#: a `--deal` pack holds at most four 52-card decks, and a deal at most 16 packs (no preset seats
#: more than 11): anything bigger is a mistake, and would only make the simulator work for minutes
MAX_PACK_CARDS = 208
MAX_PACKS = 16


def card(rank: int, suit: int = 0) -> int:
    return rank * 4 + suit


def rank(c: int) -> int:
    return c >> 2


def suit(c: int) -> int:
    return c & 3


def is_face(c: int) -> bool:
    """J, Q, K, A or Joker."""
    return c >> 2 >= JACK


def is_number(c: int) -> bool:
    """2..10, or a number whose value does not matter."""
    return c >> 2 <= 10


def name(c: int) -> str:
    """Short name, e.g. ``QH``, ``TS``, ``X0`` (joker), ``-`` (any number)."""
    r = c >> 2
    if r == ANY_NUMBER:
        return "-"
    if r == JOKER:
        return f"X{c & 3}"
    return CHAR_OF_RANK[r] + SUITS[c & 3]


def rank_char(c: int) -> str:
    return CHAR_OF_RANK[c >> 2]


def make_deck(size: int) -> list[int]:
    """A deck of 52, 54 (with 2 jokers), 104 (two 52) or 108 (two 54, 4 jokers), in a fixed order."""
    if size not in (52, 54, 104, 108):
        raise ValueError(f"deck must be 52, 54, 104 or 108 cards, not {size}")
    one = [card(r, s) for s in range(4) for r in range(2, 15)]
    jokers = [card(JOKER, 0), card(JOKER, 1)]
    if size == 52:
        return one
    if size == 54:
        return one + jokers
    if size == 104:
        return one + one
    return one + jokers + one + [card(JOKER, 2), card(JOKER, 3)]


def shuffle(cards: list[int], rng: Random) -> None:
    """Fisher-Yates in place, using only ``rng.random()`` (stable across Python versions)."""
    for i in range(len(cards) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


def deal(cards: Sequence[int], seats: int) -> list[list[int]]:
    """One card at a time from the top, seat 0 first; the first seats get the extra cards.

    Returns each seat's pack, top card first.
    """
    packs: list[list[int]] = [[] for _ in range(seats)]
    for i, c in enumerate(cards):
        packs[i % seats].append(c)
    return packs


def parse_deal(spec: str, *, allow_any_number: bool = True, allow_jokers: bool = True) -> list[list[int]]:
    """Read ``KQ--/A-7`` style packs (seat 0 first, top card first) into card lists.

    Suits are assigned in turn per rank so that the screen can draw distinct cards.
    """
    if not isinstance(spec, str) or spec.strip() != spec or spec == "":
        raise DealError("deal: expected packs like 'KQ--/A-7T' (seat 0 first, top card first)")
    texts = spec.split("/", MAX_PACKS)
    if len(texts) > MAX_PACKS:
        raise DealError(f"deal: more than {MAX_PACKS} packs; a deal has at most {MAX_PACKS} packs "
                        "(one per seat, separated by '/')")
    for seat, text in enumerate(texts):
        if len(text) > MAX_PACK_CARDS:
            raise DealError(f"deal: pack {seat} has {len(text):,} cards; a pack holds at most "
                            f"{MAX_PACK_CARDS} cards (four 52-card decks)")
    if not any(texts):
        raise DealError("deal: no cards at all; expected packs like 'KQ--/A-7T' "
                        "(seat 0 first, top card first)")
    next_suit: dict[int, int] = {}
    packs: list[list[int]] = []
    for seat, text in enumerate(texts):
        pack = []
        for pos, ch in enumerate(text):
            r = RANK_CHARS.get(ch.upper() if ch in "tjqkax" else ch)
            if r is None:
                raise DealError(
                    f"deal: pack {seat}, position {pos + 1}: {ch!r} is not a card "
                    "(expected one of 2-9 T J Q K A X -)")
            if r == ANY_NUMBER and not allow_any_number:
                raise DealError(f"deal: pack {seat}, position {pos + 1}: '-' (any number card) "
                                "is not accepted by this preset, whose number values matter")
            if r == JOKER and not allow_jokers:
                raise DealError(f"deal: pack {seat}, position {pos + 1}: 'X' (joker) "
                                "is not accepted by this preset")
            s = next_suit.get(r, 0)
            next_suit[r] = s + 1
            pack.append(card(r, s & 3))
        packs.append(pack)
    return packs


def format_pack(pack: Sequence[int]) -> str:
    return "".join(CHAR_OF_RANK[c >> 2] for c in pack)
