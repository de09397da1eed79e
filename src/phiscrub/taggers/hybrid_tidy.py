"""Tidying the CRF spans of the hybrid before they are merged with the rule spans.

A token-level CRF knows nothing of layout or of the clinical invalidation the rules apply,
so two of its error patterns are systematic (both follow from the annotation guidelines,
not from any note's strings):

- ``tidy``: a PHI mention never runs across a line break, a tab, a run of spaces (the
  column gap of a table or form) or a sentence end (``Freight. Attends``); it never ends
  or starts inside a word (the tokenizer splits ``McCall`` into ``Mc`` + ``Call``, and the
  CRF may tag only ``Mc``). Spans are cut at those breaks, snapped to whole words, and
  stripped of outer punctuation.
- ``clinical_filter``: a CRF span of a number-like category (DATE, AGE, CONTACT, ID)
  inside a clinical number or phrase that the rules invalidate (``BP 120/80``, ``pain
  8/10``, ``GCS 15``, ``#150``) is dropped, as is a slashed DATE with a non-date word
  (``SOX10/Melan``, ``Kleinert/Duran``) or numbers that can be no month and day.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

from phiscrub.span import Span

__all__ = ["clinical_filter", "tidy"]

#: where a mention cannot continue: line breaks, tabs, column gaps, a sentence end
_BREAK = re.compile(r"[\n\r\t\f\v]|  +|(?<=[a-z]{3})[.;:!?] +(?=[A-Z])|[.;:!?] +(?=[A-Z][a-z]+ )")
#: abbreviations that end with a period inside names (``St. Agnes``, ``Mt. Auburn``)
_ABBREV = frozenset(
    [
        "st",
        "mt",
        "ft",
        "dr",
        "mr",
        "mrs",
        "ms",
        "jr",
        "sr",
        "inc",
        "co",
        "corp",
        "ltd",
        "univ",
        "hosp",
        "ctr",
        "med",
        "gen",
        "ave",
        "blvd",
        "rd",
    ]
)
#: a form field's label at the end of a span: a capitalized word and ``#`` or ``:``
_FIELD_LABEL = re.compile(r"\s+[A-Z][A-Za-z]*\.?\s*[#:]$")
_OUTER = " ,;:.()[]{}\"'-/&"
_NUMBERLIKE = frozenset({"DATE", "AGE", "CONTACT", "ID"})
_WORDLIKE = frozenset({"NAME", "LOCATION", "PROFESSION"})
_MONTHS = frozenset(
    [
        "jan",
        "feb",
        "mar",
        "apr",
        "may",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "january",
        "february",
        "march",
        "april",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ]
)
_ALPHA = re.compile(r"[A-Za-z]{2,}")
#: the only CRF spans a clinical pattern can block: short numbers (``8/10``, ``15``, ``1300``)
_SHORT_NUMBER = re.compile(r"^[#(]?\d[\d/.:+\-x ]{0,6}\)?$")
_WINDOW = 80
_SLASHED = re.compile(r"^(\d{1,2})/(\d{1,2})$")


def _is_crf(span: Span) -> bool:
    return span.source.startswith("crf")


def _pieces(text: str, span: Span) -> list[tuple[int, int]]:
    """The parts of ``span`` between breaks (offsets into ``text``)."""
    cuts: list[tuple[int, int]] = []
    for m in _BREAK.finditer(span.text):
        before = span.text[: m.start()].split()
        if m.group()[0] == "." and before and before[-1].lower().rstrip(".") in _ABBREV:
            continue
        if m.group()[0] == "." and before and len(before[-1]) == 1:  # an initial: T. McCall
            continue
        cuts.append((span.start + m.start(), span.start + m.end()))
    if not cuts:
        return [(span.start, span.end)]
    out, cursor = [], span.start
    for a, b in cuts:
        out.append((cursor, a))
        cursor = b
    out.append((cursor, span.end))
    return out


def _snap(text: str, start: int, end: int) -> tuple[int, int]:
    """Widen to whole words, then strip outer punctuation and spaces."""
    while start > 0 and text[start - 1].isalpha() and text[start].isalpha():
        start -= 1
    while end < len(text) and text[end - 1].isalpha() and text[end].isalpha():
        end += 1
    while start < end and text[start] in _OUTER:
        start += 1
    while end > start and text[end - 1] in _OUTER and not text[start:end].endswith("."):
        end -= 1
    if end > start and text[end - 1] == "." and not _keeps_period(text[start:end]):
        end -= 1
    return start, end


def _keeps_period(mention: str) -> bool:
    words = mention.split()
    last = words[-1].rstrip(".").lower() if words else ""
    return len(last) == 1 or last in _ABBREV


def tidy(text: str, spans: Sequence[Span]) -> list[Span]:
    """CRF spans cut at layout and sentence breaks, and (for names, places and
    professions) snapped to whole words; other spans are returned unchanged."""
    out: list[Span] = []
    for s in spans:
        if not _is_crf(s):
            out.append(s)
            continue
        pieces = _pieces(text, s)
        for a, b in pieces:
            b = _before_field_label(text, a, b)
            if len(pieces) > 1 and not _worth_keeping(text[a:b], s.category):
                continue
            if s.category in _WORDLIKE:
                a, b = _snap(text, a, b)
            else:
                while a < b and text[a].isspace():
                    a += 1
                while b > a and text[b - 1].isspace():
                    b -= 1
            if b > a and any(ch.isalnum() for ch in text[a:b]):
                if (a, b) == (s.start, s.end):
                    out.append(s)
                else:
                    out.append(Span(a, b, s.label, text[a:b], s.source + "+tidy", s.score))
    return sorted(set(out))


def _worth_keeping(piece: str, category: str) -> bool:
    """A piece cut from a longer CRF span is kept when it still looks like PHI: a
    name-like piece needs a word that is not common English; other pieces a digit."""
    if category not in _WORDLIKE:
        return any(ch.isdigit() for ch in piece)
    from phiscrub.taggers.hybrid_steps import common_words

    common = common_words()
    return any(w.lower() not in common for w in _ALPHA.findall(piece))


def _before_field_label(text: str, a: int, b: int) -> int:
    """Where a span ends once the label of the next form field is cut off its end
    (``12 Wharf St. Account #``, ``Main St Phone:``); a name before a colon stays."""
    label = _FIELD_LABEL.search(text, a, b)
    if label is None or label.end() != b or label.start() <= a:
        return b
    from phiscrub.taggers.hybrid_steps import common_words

    word = label.group().strip(" \t.#:").lower()
    return label.start() if label.group().endswith("#") or word in common_words() else b


@functools.cache
def _blocker() -> Any:
    from phiscrub.detect.registry import pattern_detector

    return pattern_detector("clinical")


def _bad_date(mention: str) -> bool:
    if "/" in mention:
        words = [w.lower() for w in _ALPHA.findall(mention)]
        if any(w not in _MONTHS for w in words):
            return True
    m = _SLASHED.match(mention)
    return m is not None and int(m.group(1)) > 12 and int(m.group(2)) > 12


def clinical_filter(text: str, spans: Sequence[Span]) -> list[Span]:
    """CRF spans of number-like categories that the rules' clinical invalidation would
    block, or slashed DATEs that cannot be dates, are dropped."""
    drop: set[Span] = set()
    for s in spans:
        if not _is_crf(s) or s.category not in _NUMBERLIKE:
            continue
        if (s.label == "DATE" and _bad_date(s.text)) or (
            _SHORT_NUMBER.match(s.text) and _blocked(text, s)
        ):
            drop.add(s)
    return [s for s in spans if s not in drop] if drop else list(spans)


def _blocked(text: str, span: Span) -> bool:
    """Is ``span`` inside a clinical match? The patterns are run on a window around the
    span only (they look at most a few words around a number)."""
    lo = max(0, span.start - _WINDOW)
    window = text[lo : span.end + _WINDOW]
    a, b = span.start - lo, span.end - lo
    return any(x <= a and b <= y for x, y, _, _ in _blocker().iter_matches(window))
