"""Date surrogates: parse a date into a value and a format, shift it, re-render it.

Policy (docs/surrogates.md): one offset in days per patient; a full date is shifted and
its weekday recomputed; month/day is shifted in the leap year 2000; month/year shifts
the 15th of the month; a year alone shifts July 1st of that year (so it may stay the
same year); a decade shifts July 1st of its sixth year; a lone weekday moves by the
offset modulo 7; seasons and holidays are kept and their year, if any, is shifted
like a year alone. Numeric dates are read month-first (``order="mdy"``) unless a field
forces otherwise, and are re-rendered in the same field order.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, replace
from typing import Literal

from phiscrub.errors import UsageError
from phiscrub.surrogate.keys import Chooser, digest, normalize
from phiscrub.surrogate.lexicon import pairs
from phiscrub.surrogate.numeric_dates import century as _century
from phiscrub.surrogate.numeric_dates import shift_numeric
from phiscrub.surrogate.shape import mimic_case, ordinal_suffix, shape_surrogate

Order = Literal["mdy", "dmy"]

MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August",
    "September", "October", "November", "December",
)  # fmt: skip
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTH_OF = (
    {m.lower(): i for i, m in enumerate(MONTHS, 1)}
    | {m[:3].lower(): i for i, m in enumerate(MONTHS, 1)}
    | {"sept": 9}
)
_WEEKDAY_OF = (
    {w.lower(): i for i, w in enumerate(WEEKDAYS)}
    | {w[:3].lower(): i for i, w in enumerate(WEEKDAYS)}
    | {"tues": 1, "weds": 2, "thur": 3, "thurs": 3}
)
_DATE_WORDS = dict(pairs("date_words.txt"))
#: words kept as they are inside a date: seasons, holidays, function words, times of day
KEPT_WORDS = frozenset(_DATE_WORDS)
#: seasons and holidays: a date made of these alone is kept as it is
EVENT_WORDS = frozenset(w for w, kind in _DATE_WORDS.items() if kind == "event")
_TOKEN = re.compile(
    r"(?P<time>\d{1,2}:\d{2}(?::\d{2})?)|(?P<num>\d+)|(?P<word>[^\W\d_]+)|(?P<other>[\W_]+)"
)
_ORDINALS = frozenset({"st", "nd", "rd", "th"})


@dataclass(frozen=True, slots=True)
class Field:
    """One rendered field: ``kind`` is day, month, monthname, weekday, year4, year2,
    decade4 or decade2; ``pad`` zero-pads numbers (for a month name: forces the
    abbreviation, as for ``May`` in ``01-May-1999``); ``model`` is the original token
    (its case and length guide the rendering); ``suffix`` an ordinal suffix as written."""

    kind: str
    model: str = ""
    pad: bool = False
    suffix: str = ""


Item = str | Field


@dataclass(frozen=True, slots=True)
class ParsedDate:
    """A parsed date: the fields present and the format to render them in."""

    items: tuple[Item, ...]
    year: int | None = None
    month: int | None = None
    day: int | None = None
    weekday: int | None = None
    decade: bool = False


@dataclass(frozen=True, slots=True)
class DateShift:
    """The range of the per-patient offset: ``min_days`` to ``max_days`` in the
    directions allowed (into the past, the future or both). Never 0."""

    min_days: int = 30
    max_days: int = 365
    past: bool = True
    future: bool = True

    def __post_init__(self) -> None:
        if not 1 <= self.min_days <= self.max_days or not (self.past or self.future):
            raise UsageError(
                "a date shift needs 1 <= min_days <= max_days and at least one direction"
            )


def patient_offset(key: bytes, scope: str, shift: DateShift = DateShift()) -> int:
    """The patient's offset in days (a keyed choice, never 0)."""
    chooser = Chooser(digest(key, scope, "DATE", "\x00offset"))
    size = shift.max_days - shift.min_days + 1
    n = chooser.below(size * (int(shift.past) + int(shift.future)))
    magnitude = shift.min_days + n % size
    negative = shift.past and (not shift.future or n >= size)
    return -magnitude if negative else magnitude


def _tokens(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "other"
        out.append((kind, m.group()))
    return out


def _merge_suffixes(tokens: list[tuple[str, str]]) -> list[tuple[str, str, str]] | None:
    """Join ordinal and decade suffixes to their numbers: (kind, text, suffix)."""
    out: list[tuple[str, str, str]] = []
    i = 0
    while i < len(tokens):
        kind, text = tokens[i]
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if kind == "num" and nxt and nxt[0] == "word" and nxt[1].lower() in _ORDINALS:
            out.append(("ord", text, nxt[1]))
            i += 2
            continue
        if kind == "num" and nxt and nxt[1] in ("s", "S") and text.endswith("0"):
            out.append(("decade", text, nxt[1]))
            i += 2
            continue
        out.append((kind, text, ""))
        i += 1
    return out


def parse_date(text: str, order: Order = "mdy") -> ParsedDate | None:
    """Parse ``text`` as a date; None when it is not one this module can re-render."""
    merged = _merge_suffixes(_tokens(text))
    if merged is None:
        return None
    items: list[Item] = []
    values: dict[str, int] = {}
    numbers: list[int] = []  # positions in items of plain numbers, resolved below
    for kind, tok, suffix in merged:
        if not _classify(kind, tok, suffix, items, values, numbers):
            return None
    if not _resolve_numbers(items, values, numbers, order):
        return None
    return _finish(items, values)


def _classify(
    kind: str, tok: str, suffix: str, items: list[Item], values: dict[str, int], numbers: list[int]
) -> bool:
    low = tok.lower()
    if kind in ("other", "time"):
        items.append(tok)
    elif kind == "word" and low in _MONTH_OF and "month" not in values:
        values["month"] = _MONTH_OF[low]
        items.append(Field("monthname", tok, pad=low == "may" and _dash_before(items)))
    elif kind == "word" and low in _WEEKDAY_OF and "weekday" not in values:
        values["weekday"] = _WEEKDAY_OF[low]
        items.append(Field("weekday", tok))
    elif kind == "word" and low in KEPT_WORDS:
        items.append(tok)
    elif kind == "ord" and "day" not in values:
        values["day"] = int(tok)
        items.append(Field("day", tok, pad=tok.startswith("0"), suffix=suffix))
    elif kind == "decade" and len(tok) in (2, 4):
        values["year"] = int(tok) + (0 if len(tok) == 4 else _century(int(tok)))
        values["decade"] = 1
        items.append(Field("decade4" if len(tok) == 4 else "decade2", tok, suffix=suffix))
    elif kind == "num":
        numbers.append(len(items))
        items.append(tok)
    else:
        return False
    return True


def _dash_before(items: list[Item]) -> bool:
    """``May`` after ``-`` or ``/`` (``01-May-1999``) is the abbreviation style."""
    return bool(items) and isinstance(items[-1], str) and str(items[-1])[-1:] in "-/"


def _after_month(items: list[Item], pos: int) -> bool:
    """Whether the number at ``pos`` directly follows a month name after - / or '."""
    return (
        pos >= 2
        and isinstance(items[pos - 2], Field)
        and items[pos - 2].kind == "monthname"  # type: ignore[union-attr]
        and isinstance(items[pos - 1], str)
        and str(items[pos - 1]).strip() in ("-", "/", "'", "-'", ".")
    )


def _after_apostrophe(items: list[Item], pos: int) -> bool:
    return pos > 0 and isinstance(items[pos - 1], str) and str(items[pos - 1]).endswith("'")


def _resolve_numbers(
    items: list[Item], values: dict[str, int], numbers: list[int], order: Order
) -> bool:
    if not numbers:
        return True
    if "month" in values:
        return _resolve_with_month_name(items, values, numbers)
    if len(numbers) == 1:
        return _resolve_single(items, values, numbers[0])
    toks = [str(items[p]) for p in numbers]
    if len(numbers) == 2:
        kinds = _pair_kinds(toks, order)
    elif len(numbers) == 3 and len(toks[0]) == 4:
        kinds = ["year", "month", "day"]
    elif len(numbers) == 3 and len(toks[2]) in (2, 4):
        kinds = [*_pair_kinds(toks[:2], order, day_only=True), "year"]
    else:
        return False
    for pos, tok, kind in zip(numbers, toks, kinds, strict=True):
        if not kind or kind in values:
            return False
        _set_numeric(items, values, pos, tok, kind)
    return True


def _pair_kinds(toks: list[str], order: Order, day_only: bool = False) -> list[str]:
    a, b = toks
    if not day_only and len(a) == 4 and len(b) <= 2:
        return ["year", "month"]
    if not day_only and len(b) == 4 and len(a) <= 2:
        return ["month", "year"]
    if len(a) > 2 or len(b) > 2:
        return ["", ""]
    x, y = int(a), int(b)
    if not day_only and x <= 12 and y > 31:
        return ["month", "year"]
    month_first = ["month", "day"]
    if order == "mdy":
        return month_first if x <= 12 else ["day", "month"]
    return ["day", "month"] if y <= 12 else month_first


def _resolve_single(items: list[Item], values: dict[str, int], pos: int) -> bool:
    tok = str(items[pos])
    prev = str(items[pos - 1]) if pos > 0 and isinstance(items[pos - 1], str) else ""
    if len(tok) == 4 or (len(tok) == 2 and prev.endswith("'")):
        _set_numeric(items, values, pos, tok, "year")
    elif len(tok) == 8 and len(items) == 1:
        items[:] = [tok[:4], tok[4:6], tok[6:]]
        for p, kind in enumerate(("year", "month", "day")):
            _set_numeric(items, values, p, str(items[p]), kind)
    else:
        return False
    return True


def _resolve_with_month_name(items: list[Item], values: dict[str, int], numbers: list[int]) -> bool:
    for pos in numbers:
        tok = str(items[pos])
        n = int(tok)
        two_digit_year = len(tok) == 2 and (
            "day" in values or n > 31 or _after_month(items, pos) or _after_apostrophe(items, pos)
        )
        if "year" not in values and (len(tok) == 4 or two_digit_year):
            kind = "year"
        elif len(tok) <= 2 and "day" not in values and 1 <= n <= 31:
            kind = "day"
        else:
            return False
        _set_numeric(items, values, pos, tok, kind)
    return True


def _set_numeric(items: list[Item], values: dict[str, int], pos: int, tok: str, kind: str) -> None:
    n = int(tok)
    if kind == "year":
        values["year"] = n if len(tok) == 4 else n + _century(n)
        items[pos] = Field("year4" if len(tok) == 4 else "year2", tok)
    else:
        values[kind] = n
        items[pos] = Field(kind, tok, pad=len(tok) == 2 and tok.startswith("0"))


def _finish(items: list[Item], values: dict[str, int]) -> ParsedDate | None:
    year, month, day = values.get("year"), values.get("month"), values.get("day")
    if month is not None and not 1 <= month <= 12:
        return None
    if day is not None:
        if month is None and year is not None:
            return None
        try:
            dt.date(year if year and month else 2000, month or 1, day)
        except ValueError:
            return None
    if year is not None and not 1 <= year <= 9999:
        return None
    if not any(isinstance(i, Field) for i in items) and not any(
        isinstance(i, str) and i.lower() in EVENT_WORDS for i in items
    ):
        return None
    for i, item in enumerate(items[:-1]):
        if isinstance(item, Field) and item.model.lower() == "may" and items[i + 1] in ("-", "/"):
            items[i] = replace(item, pad=True)  # May-69: the abbreviation style
    fixed = _resolve_padding(items)
    return ParsedDate(fixed, year, month, day, values.get("weekday"), bool(values.get("decade")))


def _resolve_padding(items: list[Item]) -> tuple[Item, ...]:
    """Two-digit day or month numbers >= 10 do not show their padding: borrow it from
    a sibling field (1 digit: not padded; leading 0: padded), else assume padded when
    day and month are both numbers (``12/25``) and not padded otherwise (``May 30th``)."""
    numeric = [i for i in items if isinstance(i, Field) and i.kind in ("day", "month")]
    known = [len(f.model) == 2 for f in numeric if len(f.model) == 1 or f.model.startswith("0")]
    default = known[0] if known else len(numeric) > 1 and not any(f.suffix for f in numeric)
    out: list[Item] = []
    for item in items:
        if isinstance(item, Field) and item in numeric and len(item.model) == 2:
            item = replace(item, pad=item.pad or default)
        out.append(item)
    return tuple(out)


def shift_parsed(parsed: ParsedDate, offset: int) -> ParsedDate:
    """The date moved by ``offset`` days, by the policy in the module docstring."""
    y, m, d, wd = parsed.year, parsed.month, parsed.day, parsed.weekday
    if y is not None and m is not None and d is not None:
        new = dt.date(y, m, d) + dt.timedelta(days=offset)
        return ParsedDate(  # not dataclasses.replace: this is the hot path
            parsed.items, new.year, new.month, new.day, new.weekday(), parsed.decade
        )
    if wd is not None:
        wd = (wd + offset) % 7
    if m is not None and d is not None:
        new = dt.date(2000, m, d) + dt.timedelta(days=offset)
        return replace(parsed, month=new.month, day=new.day, weekday=wd)
    if y is not None and m is not None:
        new = dt.date(y, m, 15) + dt.timedelta(days=offset)
        return replace(parsed, year=new.year, month=new.month, weekday=wd)
    if y is not None:
        base = y + 5 if parsed.decade else y
        new_year = (dt.date(base, 7, 1) + dt.timedelta(days=offset)).year
        return replace(parsed, year=new_year, weekday=wd)  # a decade renders its floor
    if m is not None:
        new = dt.date(2000, m, 15) + dt.timedelta(days=offset)
        return replace(parsed, month=new.month, weekday=wd)
    if d is not None:
        new = dt.date(2000, 1, d) + dt.timedelta(days=offset)
        return replace(parsed, day=new.day, weekday=wd)
    return replace(parsed, weekday=wd)


def render(parsed: ParsedDate) -> str:
    """Write a parsed (and usually shifted) date back in its own format."""
    return "".join(
        item if isinstance(item, str) else _render_field(item, parsed) for item in parsed.items
    )


def _render_field(field: Field, parsed: ParsedDate) -> str:
    kind = field.kind
    if kind in ("day", "month"):
        n = parsed.day if kind == "day" else parsed.month
        assert n is not None
        text = f"{n:02d}" if field.pad else str(n)
        if field.suffix:
            text += mimic_case(field.suffix, ordinal_suffix(n))
        return text
    if kind in ("monthname", "weekday"):
        names, idx = (MONTHS, parsed.month) if kind == "monthname" else (WEEKDAYS, parsed.weekday)
        assert idx is not None
        name = names[idx - 1] if kind == "monthname" else names[idx]
        full = field.model.lower() in (n.lower() for n in names) and not field.pad
        return mimic_case(field.model, name if full else name[:3])
    assert parsed.year is not None
    year = parsed.year - parsed.year % 10 if kind.startswith("decade") else parsed.year
    text = f"{year:04d}" if kind.endswith("4") else f"{year % 100:02d}"
    return text + field.suffix


def shift_date(text: str, offset: int, order: Order = "mdy") -> str | None:
    """``text`` moved by ``offset`` days in its own format; None when it cannot be parsed."""
    fast = shift_numeric(text, offset, order)
    if fast is not None:
        return fast
    parsed = parse_date(text, order)
    if parsed is None:
        return None
    try:
        return render(shift_parsed(parsed, offset))
    except (ValueError, OverflowError):
        return None


def date_surrogate(
    text: str, offset: int, key: bytes, scope: str, order: Order = "mdy"
) -> tuple[str, bool]:
    """(surrogate, unparsed): the shifted date, or a keyed shape-preserving string that
    is flagged ``unparsed=True`` when the date cannot be parsed."""
    shifted = shift_date(text, offset, order)
    if shifted is not None:
        return shifted, False
    chooser = Chooser(digest(key, scope, "DATE", normalize(text)))
    return shape_surrogate(text, chooser), True
