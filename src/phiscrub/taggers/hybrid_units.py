"""Hybrid split of a hospital's unit off its name (``hospital_units``, after the place steps),
and the edges of institution names (``institution_edges``, after it).

A HOSPITAL span that is a hospital's name and then one of its units, the unit ending in a
unit word (``institution_words.txt``, kind ``unit_end``: center, institute, clinic, suite,
program...), is two things: the hospital (HOSPITAL) and its unit (DEPARTMENT, GUIDELINES.md:
"Named wards and units are DEPARTMENT"). The hospital's name is

- an acronym of 2-6 capitals (``SARMC Pinecrest Child Development Center``,
  ``FRHMC Aspen Grove Wound Center``, ``LLMC Main OR``), or
- a name ending in a hospital word (kind ``head_end``: ``North Shore Lutheran Hospital
  Birthing Center``, ``Ironbound University Hospital Kessler-Amado Transplant Institute``).

The unit keeps its tag even when its words are generic (``Lymphoma Center``): some writers
tag those too, and a generic unit after a hospital's name tagged DEPARTMENT costs one false
positive where the joined span cost a false positive and a miss; binary coverage is the same.

``institution_edges``: an institution or place span loses a leading lower-case article
(``the Teche Sugar Cooperative``; the corpora tag ``the`` outside the name 82 times, inside
2; ``at The Anthracite Grille`` keeps its capital ``The``), a leading verb or preposition
the rules or the CRF took in (``Attends``, ``Parishioner of``, ``OF``) and a trailing plan
type (``Heartland Mutual Health PPO``: outside 7 times, inside 1); a name ending in ``Co``
before ``-op`` takes it in (``Bluestem Grain Co-op``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from phiscrub.span import Span
from phiscrub.taggers.hybrid_places import institution_words

__all__ = ["hospital_units", "institution_edges"]

#: words with their offsets inside a span (letters, digits, ``&``, inner ``'`` and ``-``)
_WORDS = re.compile(r"[\w&][\w'&.-]*")
_ACRONYM = re.compile(r"[A-Z]{2,6}")


def _split_at(text: str, words: list[re.Match[str]]) -> int | None:
    """The index of the unit's first word, or None when the span is one name."""
    lex = institution_words()
    units, heads = lex["unit_end"], lex["head_end"]
    if len(words) < 2 or words[-1].group().lower() not in units:
        return None
    if _ACRONYM.fullmatch(words[0].group()) and not text.isupper():
        return 1
    lowered = [w.group().lower().rstrip(".") for w in words]
    for k in range(len(words) - 1, 0, -1):  # the last head word that leaves a unit after it
        one, two = lowered[k - 1], " ".join(lowered[max(0, k - 2) : k])
        if one in heads or two in heads:
            return k
    return None


def hospital_units(text: str, spans: Sequence[Span]) -> list[Span]:
    """HOSPITAL spans of a hospital's name and a unit split in HOSPITAL + DEPARTMENT."""
    out: list[Span] = []
    for s in spans:
        if s.label != "HOSPITAL":
            out.append(s)
            continue
        words = list(_WORDS.finditer(s.text))
        k = _split_at(s.text, words)
        if k is None:
            out.append(s)
            continue
        head_end = s.start + words[k - 1].end()
        unit_start = s.start + words[k].start()
        source = f"{s.source}+unit"
        out.append(Span(s.start, head_end, "HOSPITAL", text[s.start : head_end], source, s.score))
        out.append(Span(unit_start, s.end, "DEPARTMENT", text[unit_start : s.end], source, s.score))
    return out


_EDGED = frozenset(["HOSPITAL", "ORGANIZATION", "DEPARTMENT", "LOCATION-OTHER"])
#: what leads no institution's name: an article, a verb or a preposition taken in
_LEAD = re.compile(
    r"(?:the|[Aa]ttends|ATTENDS|[Pp]arishioner of|[Mm]ember of|of|OF)[ ]+(?=[A-Za-z])"
)
#: a plan type after an insurer's name
_PLAN_TAIL = re.compile(r"[ ]+(?:PPO|HMO|EPO|POS)$")


def institution_edges(text: str, spans: Sequence[Span]) -> list[Span]:
    """Institutions and places without a leading article, verb or preposition or a
    trailing plan type; ``Co`` + ``-op`` joined (see the module docstring)."""
    out: list[Span] = []
    for s in spans:
        if s.label in _EDGED:
            start, end = s.start, s.end
            lead = _LEAD.match(s.text)
            if lead and lead.end() < len(s.text):
                start += lead.end()
            tail = _PLAN_TAIL.search(text, start, end)
            if tail and s.label == "ORGANIZATION" and tail.start() > start:
                end = tail.start()
            if text.endswith("Co", start, end) and text.startswith("-op", end):
                end += 3
            if (start, end) != (s.start, s.end):
                s = Span.of(text, start, end, s.label, s.source + "+edge", s.score)
        out.append(s)
    return out
