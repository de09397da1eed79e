"""Age surrogates: ages under 90 are kept; 90 and over become ``90`` (or ``90+``).

HIPAA Safe Harbor pools every age over 89 into one category. The seed 004 corpus
wrote such ages as "90"; ``cap="90+"`` writes "90+" instead. Only the number inside
the span changes: ``91yo`` becomes ``90yo``, ``ninety-three`` becomes ``ninety``.
A date of birth can also reveal an age over 89: ``cap_birth_date`` moves its year.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import replace
from typing import Literal

from phiscrub.surrogate.dates import Order, parse_date, render
from phiscrub.surrogate.shape import mimic_case

AgeCap = Literal["90", "90+"]
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_UNITS = "one|two|three|four|five|six|seven|eight|nine"
_WORDS = re.compile(
    rf"\bninety(?:[\s-](?:{_UNITS}))?\b|\b(?:(?:one|a)\s)?hundred(?:(?:\sand)?\s(?:{_UNITS}|ten))?\b",
    re.I,
)
MAX_AGE = 89


def age_surrogate(text: str, cap: AgeCap = "90") -> str:
    """``text`` with every age of 90 or more written as ``cap``; other ages unchanged."""

    def number(m: re.Match[str]) -> str:
        return cap if float(m.group()) > MAX_AGE else m.group()

    out = _NUMBER.sub(number, text)
    return _WORDS.sub(lambda m: mimic_case(m.group(), "ninety"), out)


def cap_birth_date(
    dob: str, reference: dt.date | int, order: Order = "mdy", max_age: int = MAX_AGE
) -> str | None:
    """A date of birth whose implied age at ``reference`` (a date, or a year) is over
    ``max_age``, moved to the latest year that makes the age ``max_age + 1`` (90);
    the day and month are kept, the format too.

    Returns None when the birth date is not over the limit (keep it) or cannot be read
    with a year. With a year as reference the age is the difference of the years.
    Apply it to the ORIGINAL birth date, before date shifting; the result is then
    shifted like any date, so its distance to the note's dates stays honest (90).
    """
    parsed = parse_date(dob, order)
    if parsed is None or parsed.year is None:
        return None
    ref_year = reference if isinstance(reference, int) else reference.year
    age = ref_year - parsed.year
    before_birthday = (
        not isinstance(reference, int)
        and parsed.month is not None
        and parsed.day is not None
        and (parsed.month, parsed.day) > (reference.month, reference.day)
    )
    age -= int(before_birthday)
    if age <= max_age:
        return None
    new_year = parsed.year + (age - (max_age + 1))
    day = parsed.day
    if parsed.month == 2 and day == 29 and not _is_leap(new_year):
        day = 28  # 29 February of a year that has none
    return render(replace(parsed, year=new_year, day=day))


def _is_leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
