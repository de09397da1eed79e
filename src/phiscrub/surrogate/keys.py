"""Keyed determinism: every surrogate choice is a pure function of a secret key.

A choice for one original value is seeded by
``HMAC-SHA256(key, scope \\x1f category \\x1f normalized value)`` where ``scope`` is the
patient id (or a fixed corpus scope for clinicians). A ``Chooser`` expands that digest
into a stream of integers with SHA-256 in counter mode and rejection sampling, so the
same key, scope, category and value give the same choices in any process, on any
machine and in any Python version (``random`` makes no such promise).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
import struct
from bisect import bisect_right
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import TypeVar

from phiscrub.errors import PhiscrubError

T = TypeVar("T")

#: minimum key length in bytes (HMAC-SHA256 keys shorter than this are guessable)
MIN_KEY_BYTES = 16
_SEP = b"\x1f"
_SPACES = re.compile(r"\s+")


class SurrogateKeyError(PhiscrubError, ValueError):
    """No usable secret key for surrogate generation."""

    code = "E401"
    hint = (
        "put a secret of at least 16 bytes in a file and pass its path, or set the "
        "PHISCRUB_KEY environment variable (hex or text); to use a one-off random key "
        "on purpose, call phiscrub.surrogate.random_key()"
    )


def _decode_key(raw: str | bytes, where: str) -> bytes:
    data = raw.encode("utf-8") if isinstance(raw, str) else raw
    data = data.strip()
    try:
        text = data.decode("ascii")
        if len(text) >= 2 * MIN_KEY_BYTES and re.fullmatch(r"[0-9a-fA-F]+", text):
            data = bytes.fromhex(text) if len(text) % 2 == 0 else data
    except UnicodeDecodeError:
        pass
    if len(data) < MIN_KEY_BYTES:
        raise SurrogateKeyError(f"the key from {where} is shorter than {MIN_KEY_BYTES} bytes")
    return data


def load_key(path: str | os.PathLike[str] | None = None, env: str = "PHISCRUB_KEY") -> bytes:
    """Read the secret key from ``path`` if given, else from the environment variable ``env``.

    A 32+ character hexadecimal text is decoded to bytes; anything else is used as is
    (surrounding whitespace stripped). Raises ``SurrogateKeyError`` (E401) when there is none.
    """
    if path is not None:
        try:
            return _decode_key(Path(path).read_bytes(), "the key file")
        except OSError as exc:
            raise SurrogateKeyError(
                f"cannot read the key file ({exc.strerror})", path=str(path)
            ) from None
    value = os.environ.get(env)
    if value:
        return _decode_key(value, f"${env}")
    raise SurrogateKeyError(f"no surrogate key: no key file given and ${env} is not set")


def random_key() -> bytes:
    """A fresh random 32-byte key: surrogates made with it can never be recomputed."""
    return secrets.token_bytes(32)


def normalize(value: str) -> str:
    """Case-folded, whitespace-collapsed form of an original value."""
    return _SPACES.sub(" ", value.strip()).casefold()


@lru_cache(maxsize=65536)
def digest(key: bytes, scope: str, category: str, value: str) -> bytes:
    """HMAC-SHA256 of (scope, category, value) under ``key``; ``value`` is used as given."""
    message = _SEP.join((scope.encode("utf-8"), category.encode("utf-8"), value.encode("utf-8")))
    return hmac.digest(key, message, "sha256")


_TWO64 = 1 << 64


_UNPACK_SHA256 = struct.Struct(">4Q").unpack


def _words(block: bytes) -> tuple[int, ...]:
    """A digest cut into big-endian 64-bit words (a trailing part shorter than 8 bytes
    is dropped, as the stream never used it)."""
    if len(block) == 32:  # every SHA-256 digest
        return _UNPACK_SHA256(block)
    return struct.unpack(f">{len(block) // 8}Q", block[: len(block) // 8 * 8])


class Chooser:
    """Deterministic choices from one digest (local state only: one per choice)."""

    __slots__ = ("_block", "_counter", "_pos", "_seed")

    def __init__(self, seed: bytes) -> None:
        self._seed = seed
        self._counter = 0
        self._block = _words(seed)  # the seed itself gives the first 64-bit words
        self._pos = 0

    @classmethod
    def keyed(cls, key: bytes, scope: str, category: str, value: str) -> Chooser:
        return cls(digest(key, scope, category, value))

    def _bits64(self) -> int:
        """The next big-endian 64-bit word of seed, SHA-256(seed + 1), SHA-256(seed + 2)..."""
        if self._pos == len(self._block):
            self._counter += 1
            block = hashlib.sha256(self._seed + self._counter.to_bytes(4, "big")).digest()
            self._block = _words(block)
            self._pos = 0
        out = self._block[self._pos]
        self._pos += 1
        return out

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = _TWO64 - _TWO64 % n
        while True:
            if self._pos < len(self._block):  # _bits64, inlined: this is the hot path
                value = self._block[self._pos]
                self._pos += 1
            else:
                value = self._bits64()
            if value < limit:
                return value % n

    def between(self, low: int, high: int) -> int:
        """A uniform integer in [low, high] (both included)."""
        return low + self.below(high - low + 1)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def weighted(self, items: Sequence[T], cumulative: Sequence[int]) -> T:
        """A choice weighted by integer weights given as running totals."""
        point = self.below(cumulative[-1])
        return items[bisect_right(cumulative, point)]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A keyed permutation (Fisher-Yates)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out
