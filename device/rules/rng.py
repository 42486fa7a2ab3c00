"""Named random streams derived from one game seed.

Each stream (``deal``, ``ties``, ``bot:2`` ...) is its own ``random.Random`` seeded from a hash of
the game seed and the stream name, so adding a bot never changes the deal. Only ``random()`` is
ever called on a stream: the other methods' algorithms may change between Python versions.
"""

from __future__ import annotations

import hashlib
from random import Random


class Streams:
    """Factory of independent, reproducible random streams for one game."""

    def __init__(self, seed: int) -> None:
        self.seed = int(seed)
        self._streams: dict[str, Random] = {}

    def __getitem__(self, name: str) -> Random:
        """The stream called ``name`` (created on first use, then the same object)."""
        stream = self._streams.get(name)
        if stream is None:
            digest = hashlib.sha256(f"slapbox:{self.seed}:{name}".encode()).digest()
            stream = Random(int.from_bytes(digest[:8], "big"))
            self._streams[name] = stream
        return stream


def randbelow(rng: Random, n: int) -> int:
    """An integer in ``range(n)`` from ``rng.random()`` only."""
    return min(int(rng.random() * n), n - 1)
