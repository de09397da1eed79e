"""Validation hooks named by pattern files (``validate = ["..."]``).

A hook gets the text and the range a pattern would tag and says whether the match stands.
Check digits (NPI Luhn, DEA, VIN) and calendar sanity live here; context that makes a
number clinical (``BP 120/80``, ``GCS 15``) lives in ``data/patterns/clinical.toml``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from types import MappingProxyType

#: a hook: the text and the range a pattern would tag -> does the match stand?
Validator = Callable[[str, int, int], bool]

_SPLIT = re.compile(r"[/.\-]")
_UNIT_AFTER = re.compile(
    r"\s?(?:mg|mcg|g|kg|lbs?|ml|mL|L|cc|units?|u|iu|IU|meq|mEq|mmol|kcal|cal|min|mins|"
    r"sec|hrs?|h|hours?|cells|copies|ms|mmHg|bpm|%|x)\b",
)
_TIME_BEFORE = re.compile(r"(?:\bat|@|~|\baround|\bnoon|\d-)\s*$", re.I)


def _digits(s: str) -> str:
    return "".join(c for c in s if c.isdigit())


def luhn_npi(text: str, start: int, end: int) -> bool:
    """A 10-digit NPI: Luhn check over the number prefixed with 80840 (CMS NPI standard)."""
    d = _digits(text[start:end])
    if len(d) != 10:
        return False
    total = 0
    for i, c in enumerate(reversed("80840" + d)):
        n = int(c)
        if i % 2 == 1:
            n = n * 2 - 9 if n > 4 else n * 2
        total += n
    return total % 10 == 0


def dea(text: str, start: int, end: int) -> bool:
    """A DEA registration number: 2 letters, 7 digits, the last a check digit."""
    s = text[start:end].replace(" ", "")
    if len(s) != 9 or not s[:2].isalpha() or not s[2:].isdigit():
        return False
    d = [int(c) for c in s[2:]]
    check = (d[0] + d[2] + d[4]) + 2 * (d[1] + d[3] + d[5])
    return check % 10 == d[6]


_VIN_VALUES = {
    **{str(i): i for i in range(10)},
    **dict(zip("ABCDEFGH", range(1, 9), strict=True)),
    **dict(zip("JKLMN", range(1, 6), strict=True)),
    "P": 7,
    "R": 9,
    **dict(zip("STUVWXYZ", range(2, 10), strict=True)),
}
_VIN_WEIGHTS = (8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2)


def vin(text: str, start: int, end: int) -> bool:
    """A 17-character vehicle identification number with its check digit (position 9)."""
    s = text[start:end].upper()
    if len(s) != 17 or any(c not in _VIN_VALUES for c in s):
        return False
    total = sum(_VIN_VALUES[c] * w for c, w in zip(s, _VIN_WEIGHTS, strict=True))
    check = total % 11
    return s[8] == ("X" if check == 10 else str(check))


def _valid_md(month: int, day: int) -> bool:
    return 1 <= month <= 12 and 1 <= day <= 31


def date_parts(text: str, start: int, end: int) -> bool:
    """A numeric date whose month and day exist (m/d, m/d/y, y-m-d, m/y)."""
    parts = [p for p in _SPLIT.split(text[start:end]) if p]
    if not all(p.isdigit() for p in parts):
        return False
    nums = [int(p) for p in parts]
    if len(parts) == 3:
        if len(parts[0]) == 4:
            return _valid_md(nums[1], nums[2])
        return _valid_md(nums[0], nums[1]) or _valid_md(nums[1], nums[0])
    if len(parts) == 2:
        if len(parts[1]) == 4:  # month/year
            return 1 <= nums[0] <= 12 and 1900 <= nums[1] <= 2100
        return _valid_md(nums[0], nums[1])
    return False


def not_unit(text: str, start: int, end: int) -> bool:
    """The number is not followed by a unit of measure (``2000 mL``, ``1900 kcal``)."""
    return _UNIT_AFTER.match(text, end) is None


def year(text: str, start: int, end: int) -> bool:
    """A plausible year (1900-2100), neither a quantity nor a clock time."""
    d = _digits(text[start:end])[:4]
    if len(d) != 4 or not 1900 <= int(d) <= 2100:
        return False
    if not not_unit(text, start, end):
        return False
    return _TIME_BEFORE.search(text, max(0, start - 8), start) is None


def age(text: str, start: int, end: int) -> bool:
    """An age a person can have (0 to 125)."""
    d = _digits(text[start:end])
    return bool(d) and int(d) <= 125


def ipv4(text: str, start: int, end: int) -> bool:
    """Four octets, each 0-255."""
    parts = text[start:end].split(".")
    return len(parts) == 4 and all(p.isdigit() and int(p) <= 255 for p in parts)


def nanp(text: str, start: int, end: int) -> bool:
    """A North American number: area code and exchange do not start with 0 or 1."""
    d = _digits(text[start:end])
    if len(d) == 11 and d[0] == "1":
        d = d[1:]
    if len(d) < 10:
        return True  # extensions and pagers: the context pattern decided
    return d[0] not in "01" and d[3] not in "01"


def has_digit(text: str, start: int, end: int) -> bool:
    """An identifier holds at least one digit (``MRN: pending`` is not one)."""
    return any(c.isdigit() for c in text[start:end])


def zip5(text: str, start: int, end: int) -> bool:
    """A ZIP code is not 00000."""
    return text[start : start + 5] != "00000"


VALIDATORS: Mapping[str, Validator] = MappingProxyType(
    {
        "luhn_npi": luhn_npi,
        "dea": dea,
        "vin": vin,
        "date_parts": date_parts,
        "year": year,
        "not_unit": not_unit,
        "age": age,
        "ipv4": ipv4,
        "nanp": nanp,
        "has_digit": has_digit,
        "zip5": zip5,
    }
)
