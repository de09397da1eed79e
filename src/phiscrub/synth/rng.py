"""Seeded randomness for the generator: reproducible on every machine and Python version.

The corpus key is derived from ``--seed``; every patient and every note gets its own
stream, seeded by ``HMAC-SHA256(key, patient, "SYNTH", what)`` (the surrogate engine's
``digest``), so a note can be generated alone, in any order, with the same result.
A stream is a ``random.Random`` seeded by an integer and read only through
``getrandbits``: the two parts of ``random`` whose output Python keeps stable.
"""

from __future__ import annotations

import hashlib
import random
from bisect import bisect_right
from collections.abc import Sequence
from typing import TypeVar

from phiscrub.surrogate.keys import digest

T = TypeVar("T")


def derive_key(seed: int | str) -> bytes:
    """The 32-byte corpus key of a seed."""
    return hashlib.sha256(b"phiscrub-synth\x1f" + str(seed).encode("utf-8")).digest()


class Rng:
    """A deterministic stream of choices (the interface of the surrogate engine's Chooser)."""

    __slots__ = ("_r",)

    def __init__(self, seed: bytes) -> None:
        self._r = random.Random(int.from_bytes(seed, "big"))

    @classmethod
    def keyed(cls, key: bytes, scope: str, what: str) -> Rng:
        return cls(digest(key, scope, "SYNTH", what))

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        bits = n.bit_length()
        while True:
            value = self._r.getrandbits(bits)
            if value < n:
                return value

    def between(self, low: int, high: int) -> int:
        """A uniform integer in [low, high] (both included)."""
        return low + self.below(high - low + 1)

    def chance(self, percent: int) -> bool:
        """True with probability ``percent``/100."""
        return self.below(100) < percent

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def weighted(self, items: Sequence[T], cumulative: Sequence[int]) -> T:
        """A choice weighted by integer weights given as running totals."""
        return items[bisect_right(cumulative, self.below(cumulative[-1]))]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """``k`` distinct items (all of them, shuffled, when ``k`` >= their number)."""
        pool = list(items)
        k = min(k, len(pool))
        for i in range(k):
            j = i + self.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]

    def digits(self, n: int) -> str:
        return "".join("0123456789"[self.below(10)] for _ in range(n))
