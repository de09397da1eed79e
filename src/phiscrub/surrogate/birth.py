"""Dates of birth that reveal an age over 89 (HIPAA Safe Harbor; seed 004 §5.2).

A DATE span is a birth date when a trigger phrase from ``data/surrogate/birth_triggers.txt``
(``DOB``, ``Date of birth``, ``born on``...) ends within a few characters before it.
Such a date is checked against the note's reference: the latest fully specified date
among the note's other DATE spans, or a reference year given by the user when it is
not earlier. ``cap_birth_date`` then moves its year so that the age at the reference is 90.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from functools import lru_cache

from phiscrub.span import Span
from phiscrub.surrogate.dates import Order, parse_date
from phiscrub.surrogate.lexicon import lexicon

#: how many characters before a DATE span are searched for a trigger
WINDOW = 32
_GLUE = r"[\s:;=#(\[\-]*(?:(?:is|was|on|of)\s+)?$"


@lru_cache(maxsize=1)
def _trigger() -> re.Pattern[str]:
    phrases = sorted(lexicon("birth_triggers.txt"), key=len, reverse=True)
    alternatives = "|".join(r"\s+".join(map(re.escape, p.split())) for p in phrases)
    return re.compile(rf"(?<![^\W\d_])(?:{alternatives}){_GLUE}", re.IGNORECASE)


def is_birth_date(text: str, span: Span) -> bool:
    """Whether a trigger phrase ends just before ``span`` in ``text``."""
    return span.label == "DATE" and bool(
        _trigger().search(text, max(0, span.start - WINDOW), span.start)
    )


def reference_date(
    dates: Iterable[Span], order: Order = "mdy", reference_year: int | None = None
) -> dt.date | int | None:
    """The latest fully specified date among ``dates`` (the note's DATE spans that are
    not birth dates), or ``reference_year`` when it is that date's year or later (so that
    every note up to that year is capped against the same year, consistently); None if
    there is neither."""
    latest: dt.date | None = None
    for span in dates:
        parsed = parse_date(span.text, order)
        if parsed is None or None in (parsed.year, parsed.month, parsed.day):
            continue
        assert parsed.year is not None and parsed.month is not None and parsed.day is not None
        day = dt.date(parsed.year, parsed.month, parsed.day)
        latest = day if latest is None or day > latest else latest
    if reference_year is not None and (latest is None or reference_year >= latest.year):
        return reference_year
    return latest
