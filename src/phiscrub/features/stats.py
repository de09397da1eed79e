"""Word frequency and capitalization statistics learned from a training corpus (seed 002).

Seed 002 takes a token's frequency and the ratio of its capitalized to lower-case
occurrences from a large web corpus. We count them in the training notes instead (no
third-party frequency data): for each lower-case word type, how often it occurs and how
often it starts with a capital letter away from a sentence start.

Occurrences inside gold PHI spans are NOT counted, and types seen fewer than
``min_count`` times are dropped. So the statistics (which a model archive stores) hold no
patient's name, and a name looks the same (unseen or rare) at training and at tagging time.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from phiscrub.errors import UsageError
from phiscrub.span import Document
from phiscrub.text import sentences, tokenize

__all__ = ["CorpusStats"]


def _phi_mask(doc: Document, layer: str) -> list[tuple[int, int]]:
    return [(s.start, s.end) for s in doc.layer(layer)]


@dataclass(frozen=True, slots=True)
class CorpusStats:
    """Per lower-case type: (occurrences, capitalized occurrences not at a sentence start)."""

    counts: dict[str, tuple[int, int]] = field(default_factory=dict)
    documents: int = 0

    @classmethod
    def learn(
        cls, docs: Iterable[Document], layer: str = "gold", min_count: int = 2
    ) -> CorpusStats:
        """Count the non-PHI tokens of ``docs`` (gold spans of ``layer`` are skipped)."""
        total: Counter[str] = Counter()
        caps: Counter[str] = Counter()
        n = 0
        for doc in docs:
            n += 1
            starts = {start for start, _ in sentences(doc.text)}
            spans = sorted(_phi_mask(doc, layer))
            j = 0
            for tok in tokenize(doc.text):
                while j < len(spans) and spans[j][1] <= tok.start:
                    j += 1
                if j < len(spans) and spans[j][0] < tok.end:
                    continue  # inside (or touching) a PHI span
                if not any(ch.isalpha() for ch in tok.text):
                    continue
                lower = tok.text.lower()
                total[lower] += 1
                if tok.text[0].isupper() and tok.start not in starts:
                    caps[lower] += 1
        counts = {w: (c, caps[w]) for w, c in total.items() if c >= min_count}
        return cls(counts, n)

    def frequency_class(self, word: str) -> str:
        """``unseen`` or the base-2 logarithm class of the count (``f0``: once, ``f1``: 2-3...)."""
        entry = self.counts.get(word.lower())
        if entry is None:
            return "unseen"
        return f"f{min(int(math.log2(entry[0])), 12)}"

    def capitalization_class(self, word: str) -> str:
        """How often the type is capitalized mid-sentence: ``never``, ``rare``, ``half``,
        ``mostly``, ``always`` (or ``unseen``)."""
        entry = self.counts.get(word.lower())
        if entry is None:
            return "unseen"
        ratio = entry[1] / entry[0]
        if ratio == 0:
            return "never"
        if ratio < 0.25:
            return "rare"
        if ratio < 0.75:
            return "half"
        return "always" if ratio == 1 else "mostly"

    def to_dict(self) -> dict[str, Any]:
        return {
            "documents": self.documents,
            "counts": {w: list(c) for w, c in sorted(self.counts.items())},
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CorpusStats:
        try:
            counts = {str(w): (int(c[0]), int(c[1])) for w, c in data["counts"].items()}
            return cls(counts, int(data["documents"]))
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            raise UsageError("corpus statistics are malformed") from None
