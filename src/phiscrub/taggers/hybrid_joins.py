"""Hybrid step ``name_joins``, last of all: the pieces of one person's name made one span.

After the merge, the corrections and propagation, a name is sometimes left in pieces that
each carry part of it:

- two name spans side by side with one space between (``Cathal`` from the title rule and
  ``Ó Súilleabháin`` from the CRF; ``Rhys`` + ``ap Dafydd``; ``O`` + ``Adebayo-Wright``)
  are one name, unless one of them is a title or role alone (``Mrs``, ``DR.``, ``Outreach
  worker``). The label is the one a rule or a correction gave (``Tomás`` DOCTOR by his
  role, ``Ó Briain`` PATIENT by the CRF: DOCTOR), else the longer piece's;
- a capital initial between a title and a name (``Dr H Marchbanks``, ``Mrs A McAvoy``,
  British style, no period) belongs to the name, and so does one after a surname and a
  comma where a list or a column goes on (``Crew: Haskell, R (Paramedic``);
- a name never runs over a line break (``per Dr M.`` / ``Sue Bragdon, RN``): it is cut
  there into the pieces on each line.

Measured on the five choice sets (DEV, ``corpora/tune``, ``corpora/train2-4``): see
docs/models.md, tenth round.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from phiscrub.span import Span
from phiscrub.taggers.hybrid_words import not_a_title_or_role

__all__ = ["name_joins"]

_NAMES = frozenset(["PATIENT", "DOCTOR"])
#: a title, then a capital initial without its period, right before a name
_TITLE_INITIAL = re.compile(r"\b(?:Dr|Mr|Mrs|Ms|Miss|Mx|Prof)\.?[ ]([A-Z])[ ]$")
#: ``, X`` after a surname: its first initial (``Gunderson, L   5-14``, ``Haskell, R
#: (Paramedic``); not ``I`` (``Smith, I think``)
_LAST_INITIAL = re.compile(r",[ ]([A-HJ-Z])\.?(?=[ \t]*(?:$|\n|[(;,/|])|[ ]{2,}|[ ]\d)")
#: the letters of a piece of a name cut at a line break
_LETTER = re.compile(r"[^\W\d_]")


def _by_rule(span: Span) -> bool:
    return not span.source.startswith("crf")


def _joined(text: str, a: Span, b: Span) -> Span:
    """``a`` and ``b`` as one name; the label of the piece a rule gave, else the longer's."""
    if _by_rule(a) != _by_rule(b):
        label = a.label if _by_rule(a) else b.label
    else:
        label = a.label if a.end - a.start >= b.end - b.start else b.label
    return Span.of(text, a.start, b.end, label, f"{a.source}+join", min(a.score, b.score))


def _lines(text: str, span: Span) -> list[Span]:
    """``span`` cut at its line breaks, each piece trimmed to its letters."""
    if "\n" not in span.text:
        return [span]
    out: list[Span] = []
    offset = span.start
    for piece in span.text.split("\n"):
        core = piece.strip(" \t.,;:")
        if _LETTER.search(core):
            a = offset + piece.index(core)
            source = span.source + "+line"
            out.append(Span.of(text, a, a + len(core), span.label, source, span.score))
        offset += len(piece) + 1
    return out


def name_joins(text: str, spans: Sequence[Span]) -> list[Span]:
    """The spans of one note with the pieces of each name joined (see the module
    docstring)."""
    cut = sorted(part for s in spans for part in (_lines(text, s) if s.label in _NAMES else [s]))
    out: list[Span] = []
    for s in cut:
        if s.label in _NAMES:
            initial = _TITLE_INITIAL.search(text, max(0, s.start - 8), s.start)
            if initial:
                letter = initial.start(1)
                if out and out[-1].start == letter and out[-1].end == letter + 1:
                    out.pop()  # the initial the CRF tagged alone
                if not out or out[-1].end <= letter:
                    s = Span.of(text, letter, s.end, s.label, s.source + "+initial", s.score)
            last = _LAST_INITIAL.match(text, s.end)
            if last and " " not in s.text.strip() and s.text[:1].isupper():
                s = Span.of(text, s.start, last.end(), s.label, s.source + "+initial", s.score)
            prev = out[-1] if out else None
            if (
                prev is not None
                and prev.label in _NAMES
                and text[prev.end : s.start] == " "
                and not_a_title_or_role(prev.text)
                and not_a_title_or_role(s.text)
            ):
                out[-1] = _joined(text, prev, s)
                continue
        out.append(s)
    return out
