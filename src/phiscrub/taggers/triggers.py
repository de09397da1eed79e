"""Trigger words learned from the training notes, in seed 002's three variants.

A trigger is a non-PHI word (or word n-gram) that often stands at a given offset from PHI
of a category (NAME, LOCATION, DATE... ``phiscrub.taxonomy``):

* ``token``: the words 1..``reach`` (3) tokens before or after every PHI *token*; the
  column ``NAME@+2`` of a target says that the word two tokens after it is a NAME trigger
  at +2 (``M.D.`` in ``John Smith , M.D.`` for both ``John``... ``Smith``, ``,``);
* ``phrase``: the words 1..``phrase_reach`` (4) tokens before the first or after the last
  token of every PHI *phrase*; ``NAME@+2`` is set for the phrase's last token only
  (``Smith``), ``NAME@-1`` for its first;
* ``trigram``: the word bigrams and trigrams just before a phrase or just after it;
  ``NAME@b2`` says that the bigram ending just before the target precedes NAME phrases,
  ``NAME@a3`` that the trigram starting just after it follows them (``, M.D.``).

A candidate (key, offset, category) is kept when it was seen ``min_count`` times and at
least ``min_precision`` of the key's occurrences (at any place in the training notes) are
at that offset from that category (seed 002 filtered on frequency and information gain).
Only words outside PHI count, so the lists (stored in a model archive) hold context words
of the training notes, not their PHI.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from phiscrub.errors import UsageError
from phiscrub.taggers.dense import Matrix
from phiscrub.taxonomy import CATEGORY_OF

__all__ = ["VARIANTS", "TriggerLists", "phrases_of"]

VARIANTS = ("token", "phrase", "trigram")
OUTSIDE = "O"
#: (lower-case tokens, per-token subtype or "O", phrases as (start, end, subtype))
Sample = tuple[Sequence[str], Sequence[str], Sequence[tuple[int, int, str]]]


def phrases_of(bio: Sequence[str]) -> list[tuple[int, int, str]]:
    """Phrases (start, end, subtype) of a BIO tag sequence (a stray ``I-`` starts one)."""
    out: list[tuple[int, int, str]] = []
    for i, tag in enumerate(bio):
        if tag == OUTSIDE:
            continue
        label = tag[2:]
        if tag.startswith("I-") and out and out[-1][1] == i and out[-1][2] == label:
            out[-1] = (out[-1][0], i + 1, label)
        else:
            out.append((i, i + 1, label))
    return out


def _grams(lowers: Sequence[str], start: int, size: int) -> str | None:
    if start < 0 or start + size > len(lowers):
        return None
    return " ".join(lowers[start : start + size])


@dataclass(slots=True)
class TriggerLists:
    """Learned triggers of one variant: ``(key, offset) -> categories``."""

    variant: str
    categories: tuple[str, ...] = tuple(sorted(set(CATEGORY_OF.values())))
    reach: int = 3
    triggers: dict[tuple[str, str], frozenset[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise UsageError(f"unknown trigger variant {self.variant!r}")

    @property
    def offsets(self) -> list[str]:
        if self.variant == "trigram":
            return ["b2", "b3", "a2", "a3"]
        signed = [d for d in range(-self.reach, self.reach + 1) if d]
        return [f"{d:+d}" for d in signed]

    def columns(self) -> list[str]:
        return [f"{self.variant}:{c}@{o}" for c in self.categories for o in self.offsets]

    # -- learning -------------------------------------------------------------------
    def _events(
        self, lowers: Sequence[str], labels: Sequence[str], phrases: Any
    ) -> Iterable[tuple[str, str, str]]:
        """(key, offset, category) for every trigger candidate of one note."""
        n = len(lowers)
        if self.variant == "token":
            for i, lab in enumerate(labels):
                if lab != OUTSIDE:
                    for d in range(-self.reach, self.reach + 1):
                        if d and 0 <= i + d < n and labels[i + d] == OUTSIDE:
                            yield lowers[i + d], f"{d:+d}", CATEGORY_OF[lab]
            return
        for s, e, lab in phrases:
            cat = CATEGORY_OF[lab]
            if self.variant == "phrase":
                for d in range(1, self.reach + 1):
                    if s - d >= 0 and labels[s - d] == OUTSIDE:
                        yield lowers[s - d], f"{-d:+d}", cat
                    if e - 1 + d < n and labels[e - 1 + d] == OUTSIDE:
                        yield lowers[e - 1 + d], f"{d:+d}", cat
                continue
            for size in (2, 3):
                before, after = _grams(lowers, s - size, size), _grams(lowers, e, size)
                if before and all(x == OUTSIDE for x in labels[s - size : s]):
                    yield before, f"b{size}", cat
                if after and all(x == OUTSIDE for x in labels[e : e + size]):
                    yield after, f"a{size}", cat

    def _occurrences(self, samples: Sequence[Sample]) -> Counter[str]:
        total: Counter[str] = Counter()
        for lowers, _, _ in samples:
            if self.variant == "trigram":
                for size in (2, 3):
                    total.update(
                        " ".join(lowers[j : j + size]) for j in range(len(lowers) - size + 1)
                    )
            else:
                total.update(lowers)
        return total

    def learn(
        self, samples: Sequence[Sample], min_count: int = 3, min_precision: float = 0.2
    ) -> None:
        """Collect and filter the triggers of ``samples`` (see the module docstring)."""
        counts: Counter[tuple[str, str, str]] = Counter()
        for lowers, labels, phrases in samples:
            counts.update(self._events(lowers, labels, phrases))
        total = self._occurrences(samples)
        kept: dict[tuple[str, str], set[str]] = defaultdict(set)
        for (key, offset, cat), c in counts.items():
            if c >= min_count and c / total[key] >= min_precision:
                kept[(key, offset)].add(cat)
        self.triggers = {k: frozenset(v) for k, v in sorted(kept.items())}

    # -- encoding -------------------------------------------------------------------------
    def _hits(self, lowers: Sequence[str], i: int) -> Iterable[tuple[str, str]]:
        n = len(lowers)
        if self.variant != "trigram":
            for d in range(-self.reach, self.reach + 1):
                if d and 0 <= i + d < n:
                    key = (lowers[i + d], f"{d:+d}")
                    for cat in self.triggers.get(key, ()):
                        yield cat, key[1]
            return
        for size in (2, 3):
            for gram, off in ((_grams(lowers, i - size, size), f"b{size}"),
                              (_grams(lowers, i + 1, size), f"a{size}")):  # fmt: skip
                if gram is not None:
                    for cat in self.triggers.get((gram, off), ()):
                        yield cat, off

    def encode(self, lowers: Sequence[str]) -> Matrix:
        """One row per token, one 0/1 column per (category, offset)."""
        index = {c: k for k, c in enumerate(self.columns())}
        out = np.zeros((len(lowers), len(index)), dtype=np.float32)
        if not self.triggers:
            return out
        for i in range(len(lowers)):
            for cat, off in self._hits(lowers, i):
                out[i, index[f"{self.variant}:{cat}@{off}"]] = 1.0
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "reach": self.reach,
            "categories": list(self.categories),
            "triggers": [[k, o, sorted(c)] for (k, o), c in self.triggers.items()],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TriggerLists:
        try:
            out = cls(str(data["variant"]), tuple(data["categories"]), int(data["reach"]))
            out.triggers = {(str(k), str(o)): frozenset(c) for k, o, c in data["triggers"]}
        except (KeyError, TypeError, ValueError):
            raise UsageError("the trigger lists of the model are malformed") from None
        return out
