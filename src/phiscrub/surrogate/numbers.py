"""Number surrogates: same shape (digit for digit, letter for letter, case and separators
kept), keyed per original; check digits recomputed for the types that have one.

The type is recognised from the original itself, whatever its label: an SSN-shaped
nine-digit SSN, a valid NPI (Luhn with the 80840 prefix), a valid DEA number, a valid
VIN (ISO 3779 check digit), a Luhn-valid card-like number (13-19 digits), and a NANP
phone number (10 or 11 digits). An original that fails its check stays invalid-free:
it just gets random characters of the same shape.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from phiscrub.surrogate.keys import Chooser, digest
from phiscrub.surrogate.shape import DIGITS, shape_surrogate

_ALNUM = re.compile(r"[^0-9A-Za-z]")
_NON_DIGIT = re.compile(r"\D")
_VIN_VALUES = dict(
    zip(
        "ABCDEFGHJKLMNPRSTUVWXYZ",
        [1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 7, 9, 2, 3, 4, 5, 6, 7, 8, 9],
        strict=True,
    )
)
_VIN_WEIGHTS = (8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2)
_VIN_LETTERS = "ABCDEFGHJKLMNPRSTUVWXYZ"  # no I, O, Q
_DEA_FIRST = "ABCDEFGHJKLMPRSTUX"
SSN_SHAPE = re.compile(r"\d{3}([- ]?)\d{2}\1\d{4}")
DEA_SHAPE = re.compile(r"[A-Za-z][A-Za-z9]\d{7}")


def luhn_digit(payload: str) -> str:
    """The Luhn check digit to append to ``payload``."""
    total = 0
    for i, ch in enumerate(reversed(payload)):
        d = int(ch) * (2 if i % 2 == 0 else 1)
        total += d - 9 if d > 9 else d
    return str((10 - total % 10) % 10)


def luhn_valid(number: str) -> bool:
    return len(number) > 1 and number.isdigit() and luhn_digit(number[:-1]) == number[-1]


def npi_valid(npi: str) -> bool:
    """A 10-digit NPI: Luhn over ``80840`` + the number."""
    return len(npi) == 10 and npi.isdigit() and luhn_digit("80840" + npi[:9]) == npi[9]


def dea_digit(digits6: str) -> str:
    d = [int(c) for c in digits6]
    return str((d[0] + d[2] + d[4] + 2 * (d[1] + d[3] + d[5])) % 10)


def dea_valid(dea: str) -> bool:
    return bool(DEA_SHAPE.fullmatch(dea)) and dea_digit(dea[2:8]) == dea[8]


def vin_digit(vin: str) -> str:
    """The ISO 3779 check digit (position 9) of a 17-character VIN."""
    total = 0
    for ch, weight in zip(vin.upper(), _VIN_WEIGHTS, strict=True):
        value = int(ch) if ch.isdigit() else _VIN_VALUES.get(ch, 0)
        total += value * weight
    rem = total % 11
    return "X" if rem == 10 else str(rem)


def vin_valid(vin: str) -> bool:
    return (
        len(vin) == 17
        and all(c.isdigit() or c.upper() in _VIN_LETTERS for c in vin)
        and vin_digit(vin) == vin[8].upper()
    )


def ssn_valid(ssn: str) -> bool:
    """Area not 000, 666 or 9xx; group not 00; serial not 0000."""
    d = re.sub(r"\D", "", ssn)
    return (
        len(d) == 9 and d[:3] not in ("000", "666") and d[0] != "9"
        and d[3:5] != "00" and d[5:] != "0000"
    )  # fmt: skip


def number_surrogate(key: bytes, scope: str, label: str, text: str) -> str:
    """A keyed same-shape surrogate of an identifier, phone, fax, ZIP or other number."""
    norm = _ALNUM.sub("", text).casefold()
    chooser = Chooser(digest(key, scope, "NUMBER", norm or text))
    digits = _NON_DIGIT.sub("", text)
    if SSN_SHAPE.fullmatch(text) and label not in ("PHONE", "FAX"):
        return _retry(text, lambda: _fill(text, _ssn_digits(chooser)))
    if npi_valid(text):
        return _retry(text, lambda: _npi(chooser))
    if dea_valid(text):
        return _retry(text, lambda: _dea(text, chooser))
    if vin_valid(text):
        return _retry(text, lambda: _vin(text, chooser))
    if label in ("PHONE", "FAX") and len(digits) in (10, 11):
        return _retry(text, lambda: _fill(text, _nanp(digits, chooser)))
    if 13 <= len(text) <= 19 and luhn_valid(text):
        return _retry(text, lambda: _luhn(text, chooser))
    return shape_surrogate(text, chooser)


def _retry(original: str, make: Callable[[], str]) -> str:
    out = original
    for _ in range(16):
        out = make()
        if out != original:
            return out
    return out


def _fill(template: str, digits: str) -> str:
    """``template`` with its digits replaced, in order, by ``digits``."""
    it = iter(digits)
    return "".join(next(it) if c.isdigit() else c for c in template)


def _rand_digits(chooser: Chooser, n: int) -> str:
    return "".join([DIGITS[chooser.below(10)] for _ in range(n)])


def _ssn_digits(chooser: Chooser) -> str:
    area = chooser.between(1, 899)
    while area == 666:
        area = chooser.between(1, 899)
    return f"{area:03d}{chooser.between(1, 99):02d}{chooser.between(1, 9999):04d}"


def _npi(chooser: Chooser) -> str:
    body = str(chooser.between(1, 2)) + _rand_digits(chooser, 8)
    return body + luhn_digit("80840" + body)


def _dea(text: str, chooser: Chooser) -> str:
    first = chooser.choice(_DEA_FIRST)
    second = chooser.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") if text[1] != "9" else "9"
    if text[:2].islower():
        first, second = first.lower(), second.lower()
    body = _rand_digits(chooser, 6)
    return first + second + body + dea_digit(body)


def _vin(text: str, chooser: Chooser) -> str:
    chars = []
    for ch in text:
        if ch.isdigit():
            chars.append(str(chooser.below(10)))
        else:
            pick = chooser.choice(_VIN_LETTERS)
            chars.append(pick if ch.isupper() else pick.lower())
    chars[8] = "0"
    digit = vin_digit("".join(chars))
    chars[8] = digit if text[8].isupper() or digit != "X" else "x"
    return "".join(chars)


def _nanp(digits: str, chooser: Chooser) -> str:
    """A North American number: area code and exchange start with 2-9."""
    lead = digits[0] if len(digits) == 11 else ""
    area = str(chooser.between(2, 9)) + _rand_digits(chooser, 2)
    exchange = str(chooser.between(2, 9)) + _rand_digits(chooser, 2)
    return lead + area + exchange + _rand_digits(chooser, 4)


def _luhn(text: str, chooser: Chooser) -> str:
    body = str(chooser.between(1, 9)) + _rand_digits(chooser, len(text) - 2)
    return body + luhn_digit(body)
