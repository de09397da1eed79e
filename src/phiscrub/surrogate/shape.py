"""Surface-form helpers: case mimicry and shape-preserving random strings."""

from __future__ import annotations

import string

from phiscrub.surrogate.keys import Chooser

DIGITS = string.digits
UPPER = string.ascii_uppercase
LOWER = string.ascii_lowercase
NONZERO = "123456789"
HEX = "0123456789abcdef"


def case_of(text: str) -> str:
    """``upper``, ``lower``, ``title`` or ``mixed`` (letters only are looked at)."""
    if text.isupper():
        return "upper" if sum(map(str.isalpha, text)) > 1 else "title"
    if text.islower():
        return "lower"
    if text[:1].isupper() and text[1:].islower():
        return "title"
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return "mixed"
    if all(c.isupper() for c in letters):
        return "upper" if len(letters) > 1 else "title"
    if all(c.islower() for c in letters):
        return "lower"
    if letters[0].isupper() and all(c.islower() for c in letters[1:]):
        return "title"
    return "mixed"


def mimic_case(template: str, value: str) -> str:
    """``value`` written in the case of ``template`` (title case for mixed templates)."""
    style = case_of(template)
    if style == "upper":
        return value.upper()
    if style == "lower":
        return value.lower()
    if style == "title":
        return title(value)
    return value


def title(value: str) -> str:
    """Title case: a letter is upper after a non-letter other than an apostrophe."""
    if value.isalpha():
        return value.capitalize()
    out = []
    start = True
    for ch in value:
        out.append(ch.upper() if start else ch.lower())
        start = not ch.isalpha() and ch != "'"
    return "".join(out)


def shape_surrogate(text: str, chooser: Chooser, *, hex_digits: bool = False) -> str:
    """Digit for digit, letter for letter (case kept); other characters kept.

    A digit group that does not start with ``0`` does not start with ``0`` in the
    surrogate, so its apparent magnitude is kept. The result never equals ``text``
    when ``text`` holds a letter or a digit.
    """
    for _ in range(8):
        out = _shape_once(text, chooser, hex_digits)
        if out != text:
            return out
    return _force_change(text)


def _shape_once(text: str, chooser: Chooser, hex_digits: bool) -> str:
    out: list[str] = []
    below = chooser.below
    prev_digit = False
    for ch in text:
        if hex_digits and ch in "0123456789abcdefABCDEF":
            pick = HEX[below(16)]
            out.append(pick.upper() if ch.isupper() else pick)
        elif ch in DIGITS:
            if prev_digit or ch == "0":
                out.append(DIGITS[below(10)])
            else:  # a number that does not start with 0 keeps its magnitude
                out.append(NONZERO[below(9)])
        elif ch in UPPER:
            out.append(UPPER[below(26)])
        elif ch in LOWER:
            out.append(LOWER[below(26)])
        elif ch.isalpha():
            out.append(UPPER[below(26)] if ch.isupper() else LOWER[below(26)])
        else:
            out.append(ch)
        prev_digit = ch.isdigit()
    return "".join(out)


def _force_change(text: str) -> str:
    """Rotate the first letter or digit: the last resort of ``shape_surrogate``."""
    for i, ch in enumerate(text):
        if ch.isdigit() and ch.isascii():
            return text[:i] + str((int(ch) % 9) + 1 if ch != "9" else 1) + text[i + 1 :]
        if ch.isascii() and ch.isalpha():
            base = ord("A") if ch.isupper() else ord("a")
            return text[:i] + chr(base + (ord(ch) - base + 1) % 26) + text[i + 1 :]
    return text


def ordinal_suffix(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
