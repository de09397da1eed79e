"""Section headings and attribute-value lines of clinical notes (seed 001 §3.3.1).

Headings. A line is a heading when, after optional indentation, it starts with

- a known heading (``phiscrub/data/sections.txt``, matched case-insensitively, any
  run of spaces or tabs between its words) followed by ``:`` or the end of the line:
  ``Social History:``, ``HPI: 45M with...``, ``Medications``; or
- an all-caps label of 1 to 6 words with at least two letters, followed by ``:``:
  ``SOCIAL HX:``. When text follows on the same line, the label needs at least four
  letters and the text must not start with a digit, so that measurements in capitals
  (``BP: 120/80``, ``TEMP: 98.6``) are not taken for headings.

A heading's name is normalized: upper case, runs of whitespace collapsed to one
space, no colon. Its span covers the label and the colon when there is one.

Attribute-value lines (``Cocaine: denies``, ``Marital status: married``,
``BP: 120/80``): after optional indentation and an optional bullet, an attribute of
1 to 4 words starting with a letter, the first colon of the line, and a non-empty
value running to the end of the line (trimmed). A colon between two digits (a time,
``at 10:30``) or followed by ``/`` (``http://``) is not a separator. The attribute
is normalized to lower case with whitespace collapsed (``marital status``). A known
heading followed by text (``Allergies: NKDA``) is both a heading and an attribute.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

from phiscrub.text._lexicon import load_lines
from phiscrub.text._lines import Line, lines

__all__ = [
    "AttributeValue",
    "Heading",
    "attribute_at",
    "attribute_values",
    "known_headings",
    "section_at",
    "section_headings",
]


class Heading(NamedTuple):
    """A section heading at ``text[start:end]``, with its normalized ``name``."""

    start: int
    end: int
    name: str


class AttributeValue(NamedTuple):
    """An ``attribute: value`` line: the pair spans ``[start, end)``, the value
    ``[value_start, value_end)``; ``attribute`` is normalized (lower case)."""

    start: int
    end: int
    attribute: str
    value_start: int
    value_end: int


_CAPS = re.compile(r"[ \t]*(?P<name>[^\W\d_][^\s:]*(?:[ \t]+[^\s:]+){0,5})[ \t]*:")
_AV = re.compile(
    r"[ \t]*(?:[-*•·][ \t]+)?(?P<attr>[^\W\d_][^\s:]*(?:[ \t]+[^\s:]+){0,3})[ \t]*:(?!/)"
)


def _normalize(name: str) -> str:
    return " ".join(name.upper().split())


@cache
def known_headings() -> frozenset[str]:
    """The normalized names of the headings listed in ``sections.txt``."""
    return frozenset(_normalize(h) for h in load_lines("sections.txt"))


@cache
def _known_pattern() -> re.Pattern[str]:
    names = sorted(known_headings(), key=len, reverse=True)
    body = "|".join(r"[ \t]+".join(map(re.escape, name.split())) for name in names)
    return re.compile(rf"[ \t]*(?P<name>{body})[ \t]*(?::|\Z)", re.IGNORECASE)


def _letters(s: str) -> int:
    return sum(ch.isalpha() for ch in s)


def _heading_in(text: str, line: Line) -> Heading | None:
    """The heading at the start of one line, if any."""
    known = _known_pattern().match(text, line.start, line.end)
    if known:
        colon = text[known.end() - 1 : known.end()] == ":"
        end = known.end() if colon else known.end("name")
        return Heading(known.start("name"), end, _normalize(known.group("name")))
    caps = _CAPS.match(text, line.start, line.end)
    if not caps:
        return None
    name = caps.group("name")
    if not name.isupper() or _letters(name) < 2:
        return None
    rest = text[caps.end() : line.end].strip()
    if rest and (_letters(name) < 4 or rest[0].isdigit()):
        return None
    return Heading(caps.start("name"), caps.end(), _normalize(name))


def section_headings(text: str) -> list[Heading]:
    """The section headings of ``text``, in order (see the module docstring)."""
    found = (_heading_in(text, line) for line in lines(text))
    return [heading for heading in found if heading is not None]


def section_at(headings: Sequence[Heading], offset: int) -> str | None:
    """The name of the section holding ``offset``: that of the last heading starting at
    or before it (None before the first heading). ``headings`` must be in order."""
    i = bisect_right(headings, offset, key=lambda h: h.start)
    return headings[i - 1].name if i else None


def _pair_in(text: str, line: Line) -> AttributeValue | None:
    """The attribute-value pair of one line, if any."""
    match = _AV.match(text, line.start, line.end)
    if not match:
        return None
    colon = match.end() - 1
    before, after = text[colon - 1 : colon], text[colon + 1 : colon + 2]
    if before.isdigit() and after.isdigit():  # a time (10:30), not a separator
        return None
    value = text[match.end() : line.end]
    stripped = value.strip()
    if not stripped:
        return None
    value_start = match.end() + len(value) - len(value.lstrip())
    value_end = value_start + len(stripped)
    attribute = " ".join(match.group("attr").lower().split())
    return AttributeValue(match.start("attr"), value_end, attribute, value_start, value_end)


def attribute_values(text: str) -> list[AttributeValue]:
    """The attribute-value lines of ``text``, in order (see the module docstring)."""
    found = (_pair_in(text, line) for line in lines(text))
    return [pair for pair in found if pair is not None]


def attribute_at(pairs: Sequence[AttributeValue], offset: int) -> str | None:
    """The attribute whose value holds ``offset`` (seed 001 feature 13), else None.
    ``pairs`` must be in order, as :func:`attribute_values` returns them."""
    i = bisect_right(pairs, offset, key=lambda p: p.value_start) - 1
    if i >= 0 and pairs[i].value_start <= offset < pairs[i].value_end:
        return pairs[i].attribute
    return None
