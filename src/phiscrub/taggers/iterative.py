"""Seed 002's document-level steps: heading entropy, trusted phrases, standardization, voting.

* Heading entropy: for every heading (the section heading, or the attribute name of an
  ``attribute: value`` line, which is how semi-structured notes head their fields), the
  Shannon entropy (bits) of the subtypes of the gold PHI phrases found under it in the
  training notes. A heading with entropy < 0.1 (and at least ``min_phrases`` phrases) is
  unambiguous: ``Attending:`` is followed by DOCTOR names and nothing else.
* Trusted phrases: phrases a first pass tagged under an unambiguous heading, with the
  heading's subtype, plus their acronyms (``Mercy General Hospital`` -> ``MGH``). Their
  other occurrences in the same note become features of the next pass (one column per
  category: the token is part of an occurrence of a trusted phrase of that category).
* Standardization: the same phrase in a note gets one label, the majority label of its
  predicted occurrences, and its untagged occurrences of two tokens or more are tagged.
* Voting: a token takes the label on which at least two of the three models agree, and is
  non-PHI otherwise.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from phiscrub.span import Span
from phiscrub.taggers.dense import Matrix
from phiscrub.taxonomy import CATEGORY_OF
from phiscrub.text import Token, attribute_at, attribute_values, section_at, section_headings

__all__ = [
    "CATEGORIES",
    "entropy",
    "heading_keys",
    "heading_table",
    "standardize",
    "trusted_columns",
    "trusted_phrases",
    "unambiguous_headings",
    "vote",
]

OUTSIDE = "O"
CATEGORIES = tuple(sorted(set(CATEGORY_OF.values())))


def entropy(counts: Iterable[int]) -> float:
    """Shannon entropy in bits of a distribution given by counts."""
    values = [c for c in counts if c > 0]
    total = sum(values)
    return -sum(c / total * math.log2(c / total) for c in values) if total else 0.0


def heading_keys(text: str, offsets: Sequence[int]) -> list[str | None]:
    """The heading of each offset: ``attr:NAME`` inside an attribute value, else
    ``section:NAME`` under a section heading, else None."""
    headings = section_headings(text)
    pairs = attribute_values(text)
    out: list[str | None] = []
    for offset in offsets:
        attr = attribute_at(pairs, offset)
        section = section_at(headings, offset)
        out.append(f"attr:{attr}" if attr else f"section:{section}" if section else None)
    return out


def heading_table(
    notes: Iterable[tuple[str, Sequence[Span]]],
) -> dict[str, Counter[str]]:
    """Per heading, how many gold phrases of each subtype stand under it."""
    table: dict[str, Counter[str]] = defaultdict(Counter)
    for text, spans in notes:
        for key, span in zip(heading_keys(text, [s.start for s in spans]), spans, strict=True):
            if key is not None:
                table[key][span.label] += 1
    return dict(table)


def unambiguous_headings(
    table: Mapping[str, Counter[str]], max_entropy: float = 0.1, min_phrases: int = 3
) -> dict[str, str]:
    """Headings whose phrase-subtype entropy is below ``max_entropy``, with their subtype."""
    out: dict[str, str] = {}
    for key, counts in sorted(table.items()):
        if sum(counts.values()) >= min_phrases and entropy(counts.values()) < max_entropy:
            out[key] = max(sorted(counts), key=lambda lab: counts[lab])
    return out


def _norm(words: Iterable[str]) -> tuple[str, ...]:
    return tuple(w.lower() for w in words)


def _acronym(words: Sequence[str]) -> str | None:
    alpha = [w for w in words if w[:1].isalpha()]
    return "".join(w[0] for w in alpha).lower() if len(alpha) >= 2 else None


def trusted_phrases(
    text: str, tokens: Sequence[Token], spans: Sequence[Span], unambiguous: Mapping[str, str]
) -> dict[tuple[str, ...], str]:
    """Phrases (lower-case token tuples) of ``spans`` standing under an unambiguous
    heading, with the heading's subtype; acronyms of multi-word phrases too."""
    out: dict[tuple[str, ...], str] = {}
    for key, span in zip(heading_keys(text, [s.start for s in spans]), spans, strict=True):
        label = unambiguous.get(key) if key else None
        if label is None:
            continue
        words = [t.text for t in tokens if span.start <= t.start and t.end <= span.end]
        if not words or not any(ch.isalnum() for w in words for ch in w):
            continue
        out[_norm(words)] = label
        acronym = _acronym(words)
        if acronym is not None and len(acronym) >= 2:
            out.setdefault((acronym,), label)
    return out


def _occurrences(lowers: Sequence[str], phrase: tuple[str, ...]) -> Iterable[int]:
    n = len(phrase)
    for i in range(len(lowers) - n + 1):
        if lowers[i] == phrase[0] and tuple(lowers[i : i + n]) == phrase:
            yield i


def trusted_columns(lowers: Sequence[str], trusted: Mapping[tuple[str, ...], str]) -> Matrix:
    """One row per token, one 0/1 column per category: the token is part of an
    occurrence of a trusted phrase of that category."""
    out = np.zeros((len(lowers), len(CATEGORIES)), dtype=np.float32)
    for phrase, label in trusted.items():
        col = CATEGORIES.index(CATEGORY_OF[label])
        for i in _occurrences(lowers, phrase):
            out[i : i + len(phrase), col] = 1.0
    return out


def vote(votes: Sequence[Sequence[str]]) -> list[str]:
    """Per token, the label given by at least two models, else ``O`` (seed 002)."""
    out: list[str] = []
    for labels in zip(*votes, strict=True):
        label, count = Counter(labels).most_common(1)[0]
        out.append(label if count >= 2 else OUTSIDE)
    return out


def _majority(spans: Sequence[Span]) -> str:
    counts = Counter(s.label for s in spans)
    best = max(counts.values())
    tied = sorted(lab for lab, c in counts.items() if c == best)
    if len(tied) == 1:
        return tied[0]
    return max(tied, key=lambda lab: sum(s.score for s in spans if s.label == lab))


def standardize(
    text: str, tokens: Sequence[Token], spans: Sequence[Span], min_tokens: int = 2
) -> list[Span]:
    """Phrase-label standardization (see the module docstring); ``spans`` must not overlap."""
    groups: dict[tuple[str, ...], list[Span]] = defaultdict(list)
    words_of: dict[Span, list[Token]] = {}
    for span in spans:
        words = [t for t in tokens if span.start <= t.start and t.end <= span.end]
        words_of[span] = words
        if words:
            groups[_norm(t.text for t in words)].append(span)
    out: list[Span] = []
    for span in spans:
        phrase = _norm(t.text for t in words_of[span])
        label = _majority(groups[phrase]) if phrase in groups else span.label
        out.append(Span(span.start, span.end, label, span.text, span.source, span.score))
    lowers = [t.text.lower() for t in tokens]
    for phrase, members in sorted(groups.items()):
        if len(phrase) < min_tokens:
            continue
        label, score = _majority(members), sum(s.score for s in members) / len(members)
        for i in _occurrences(lowers, phrase):
            start, end = tokens[i].start, tokens[i + len(phrase) - 1].end
            if not any(start < s.end and s.start < end for s in out):
                out.append(Span(start, end, label, text[start:end], members[0].source, score))
    return sorted(out)
