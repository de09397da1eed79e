"""Entity and token matching with the semantics of the official i2b2 2014 scorer.

The official scorer (kotfic/i2b2_evaluation_scripts, ``evaluate.py phi``) was read for
its semantics, and they are implemented here independently:

* A tag is keyed by (category, start, end, TYPE). Gold and system tags of a document are
  put into Python *sets*, so duplicate tags count once; tp = |gold & sys|,
  fp = |sys - gold|, fn = |gold - sys|.
* Relaxed matching: same category, TYPE and start, and ends at most 2 characters apart.
  Because this equality is not transitive, the set a file's tags are put in keeps a tag
  only if it is not within 2 characters of one already kept (file order), and the
  intersection counts the elements of the *smaller* set (the system set when sizes tie)
  that match some element of the other. We reproduce both.
* Token measure: each tag is cut into runs of ASCII letters and digits (``[a-zA-Z0-9]+``)
  of the document text inside it, and each run is keyed by (category, TYPE, start, end).
  Non-ASCII letters therefore split tokens, as in the official scorer. A tag that starts at
  offset 0 also gets an empty token (0, 0): the scorer's tokenizer adds one when it is
  asked to tokenize from the start of a document.
* Only documents present in both GOLD and SYSTEM are scored; a document missing from
  SYSTEM is silently left out by the official scorer (we warn; see ``evaluate.report``).
* Micro: counts pooled over documents. Macro: precision and recall per document (0.0 when
  the denominator is 0, so a document without any PHI scores 0, not 1), their mean and
  population standard deviation; macro F1 is the harmonic mean of macro P and macro R.
* HIPAA figures keep only tags whose TYPE is in ``taxonomy.HIPAA`` (IDNUM is not: the
  scorer's pattern for it has a trailing space and never matches).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy

from phiscrub.span import Span

ALNUM_RUN = re.compile(r"[a-zA-Z0-9]+")
RELAXED_END = 2

Key = tuple[object, ...]


@dataclass(frozen=True, slots=True)
class Counts:
    """True positives, false positives and false negatives of one document or a pool."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    def __add__(self, other: Counts) -> Counts:
        return Counts(self.tp + other.tp, self.fp + other.fp, self.fn + other.fn)

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    @property
    def f1(self) -> float:
        return f1(self.precision, self.recall)


def f1(p: float, r: float) -> float:
    """Harmonic mean, computed as the official scorer does (2 * (p*r / (p+r)))."""
    return 2 * ((p * r) / (p + r)) if p + r else 0.0


@dataclass(frozen=True, slots=True)
class Macro:
    precision: float
    recall: float
    precision_sd: float
    recall_sd: float

    @property
    def f1(self) -> float:
        return f1(self.precision, self.recall)


def macro(per_doc: Sequence[Counts]) -> Macro:
    """Mean and population SD of per-document precision and recall.

    numpy's mean and std (ddof=0) are used because the official scorer uses them, so that
    even the last printed digit agrees.
    """
    if not per_doc:
        return Macro(0.0, 0.0, 0.0, 0.0)
    ps = numpy.array([c.precision for c in per_doc])
    rs = numpy.array([c.recall for c in per_doc])
    return Macro(float(ps.mean()), float(rs.mean()), float(ps.std()), float(rs.std()))


def total(per_doc: Iterable[Counts]) -> Counts:
    out = Counts()
    for c in per_doc:
        out = out + c
    return out


# --- keys -------------------------------------------------------------------------------


def entity_keys(spans: Iterable[Span], typed: bool = True) -> list[Key]:
    """(category, start, end, label) per span, or (start, end) when untyped (binary)."""
    if typed:
        return [(s.category, s.start, s.end, s.label) for s in spans]
    return [(s.start, s.end) for s in spans]


def token_keys(text: str, spans: Iterable[Span], typed: bool = True) -> list[Key]:
    """The official scorer's tokens: ASCII alphanumeric runs inside each span."""
    keys: list[Key] = []
    for s in spans:
        if typed and s.start == 0:
            # the official tokenizer adds an empty token (0, 0) for a tag at offset 0
            keys.append((s.category, s.label, 0, 0))
        for m in ALNUM_RUN.finditer(text, s.start, s.end):
            if typed:
                keys.append((s.category, s.label, m.start(), m.end()))
            else:
                keys.append((m.start(), m.end()))
    return keys


# --- counting ---------------------------------------------------------------------------


def strict_counts(gold: Iterable[Key], pred: Iterable[Key]) -> Counts:
    g, p = set(gold), set(pred)
    return Counts(len(g & p), len(p - g), len(g - p))


def _fuzzy_equal(a: Key, b: Key) -> bool:
    # keys are (category, start, end, label) or (start, end); the end is the key's
    # second-to-last field when typed, last when untyped
    if len(a) == 4:
        return a[0] == b[0] and a[1] == b[1] and a[3] == b[3] and _close(a[2], b[2])
    return a[0] == b[0] and _close(a[1], b[1])


def _close(x: object, y: object) -> bool:
    assert isinstance(x, int) and isinstance(y, int)
    return abs(x - y) <= RELAXED_END


def _bucket(key: Key) -> Key:
    """Everything but the end: only keys in one bucket can be fuzzy-equal."""
    return (key[0], key[1], key[3]) if len(key) == 4 else (key[0],)


def _fuzzy_set(keys: Iterable[Key]) -> dict[Key, list[Key]]:
    """Greedy dedup in input order, as a Python set with fuzzy equality behaves."""
    buckets: dict[Key, list[Key]] = {}
    for k in keys:
        kept = buckets.setdefault(_bucket(k), [])
        if not any(_fuzzy_equal(k, other) for other in kept):
            kept.append(k)
    return buckets


def _count_matched(iterated: dict[Key, list[Key]], other: dict[Key, list[Key]]) -> int:
    n = 0
    for bucket, keys in iterated.items():
        candidates = other.get(bucket, [])
        n += sum(1 for k in keys if any(_fuzzy_equal(k, c) for c in candidates))
    return n


def relaxed_counts(gold: Iterable[Key], pred: Iterable[Key]) -> Counts:
    """Relaxed matching (end within 2 characters) with the official scorer's set semantics."""
    g, p = _fuzzy_set(gold), _fuzzy_set(pred)
    n_g = sum(len(v) for v in g.values())
    n_p = sum(len(v) for v in p.values())
    # set.intersection iterates the smaller set (the argument when sizes tie) and keeps
    # its elements that the other set contains
    tp = _count_matched(g, p) if n_p > n_g else _count_matched(p, g)
    fp = n_p - _count_matched(p, g)
    fn = n_g - _count_matched(g, p)
    return Counts(tp, fp, fn)


Counter = Callable[[Iterable[Key], Iterable[Key]], Counts]
