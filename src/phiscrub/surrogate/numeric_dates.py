"""The common all-numeric full dates (``04/05/69``, ``2069-04-05``) shifted without the
general parser of ``dates.py``, for speed; the results are the general parser's
(``tests/surrogate/test_dates.py`` checks it on generated dates)."""

from __future__ import annotations

import datetime as dt
import re

#: two-digit years 00-30 are read as 20xx, 31-99 as 19xx
PIVOT = 30


def century(yy: int) -> int:
    """The century a two-digit year is read in."""
    return 2000 if yy <= PIVOT else 1900


_NUMERIC_MDY = re.compile(r"(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})")
_NUMERIC_ISO = re.compile(r"(\d{4})([/.-])(\d{1,2})\2(\d{1,2})")


def shift_numeric(text: str, offset: int, order: str = "mdy") -> str | None:
    """The common all-numeric full dates (``04/05/69``, ``2069-04-05``), without the
    general parser; the result is the one the general parser gives (tested)."""
    if m := _NUMERIC_ISO.fullmatch(text):
        year_tok, sep, first, second = m.groups()
        month_tok, day_tok, month_first = first, second, True
    elif m := _NUMERIC_MDY.fullmatch(text):
        first, sep, second, year_tok = m.groups()
        x, y = int(first), int(second)
        month_first = x <= 12 if order == "mdy" else y > 12
        month_tok, day_tok = (first, second) if month_first else (second, first)
    else:
        return None
    yy = int(year_tok)
    year = yy if len(year_tok) == 4 else yy + century(yy)
    try:
        new = dt.date(year, int(month_tok), int(day_tok)) + dt.timedelta(days=offset)
    except (ValueError, OverflowError):
        return None
    known = [len(t) == 2 for t in (first, second) if len(t) == 1 or t.startswith("0")]
    default = known[0] if known else True
    month = _pad(new.month, month_tok, default)
    day = _pad(new.day, day_tok, default)
    new_year = f"{new.year:04d}" if len(year_tok) == 4 else f"{new.year % 100:02d}"
    if m.re is _NUMERIC_ISO:
        return f"{new_year}{sep}{month}{sep}{day}"
    return (
        f"{month}{sep}{day}{sep}{new_year}" if month_first else f"{day}{sep}{month}{sep}{new_year}"
    )


def _pad(n: int, model: str, default: bool) -> str:
    padded = len(model) == 2 and (model.startswith("0") or default)
    return f"{n:02d}" if padded else str(n)
