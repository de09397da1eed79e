"""Context hooks of rules round 6 (``validate = ["..."]`` in pattern files).

Kept apart from ``validators.py`` (check digits, calendar and name hooks), which is at its
size limit; ``registry.VALIDATORS`` merges both tables.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType

from phiscrub.detect.validators import Validator

#: the word before a bare extension (``lcsw  x5532``, ``or x5532``), at most 3 blanks away
_WORD_BEFORE = re.compile(r"\b([A-Za-z]{2,})[,.]?[ \t]{1,3}$")
#: words after which ``x1234`` is a count or a factor, not an extension
_UNIT_WORDS = frozenset(
    {
        "mg", "mcg", "ml", "g", "kg", "l", "cc", "units", "unit", "u", "iu", "tab", "tabs",
        "tablet", "tablets", "cap", "caps", "capsule", "capsules", "puffs", "drops", "times",
        "mm", "cm", "dose", "doses", "vials", "repeat", "repeated", "magnification", "mag",
        "objective", "power", "zoom",
    }
)  # fmt: skip


def after_word(text: str, start: int, end: int) -> bool:
    """The span (an extension's digits after ``x``) follows a word that is no unit or count
    word, on the same line (``m. quill, lcsw  x5532``; not ``0.5 mg x3400``)."""
    x = start - 1
    if x < 0 or text[x] not in "xX":
        return False
    m = _WORD_BEFORE.search(text, max(0, x - 40), x)
    return m is not None and m.group(1).lower() not in _UNIT_WORDS


#: a capitalised word right after a month name, on the same line (April Lindgren, June Halvorsen)
_NEXT_WORD = re.compile(r"[ ]([A-Z][a-z]{2,})\b(?![.])")
#: what stands before a month used as a first name: a relative or a role label, or a
#: surname and a comma (niece June, RN: June, Moreau, April)
_NAME_BEFORE = re.compile(
    r"(?:\b(?:in-law|wife|husband|daughter|son|sister|brother|mother|father|aunt|niece|"
    r"friend|partner|neighbou?r|caregiver|Mrs?\.?|Ms\.?|Miss|RN|Pt|Patient|Name|Nurse)[:,]?"
    r"|\b(?!(?:January|February|March|April|May|June|July|August|September|October|"
    r"November|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)\b)"
    r"[A-Z][a-z]+,)[ ]+$"
)
#: a date preposition right before the month keeps it a date (in June, since April)
_DATE_BEFORE = re.compile(
    r"\b(?:in|on|by|since|until|till|of|from|through|thru|during|before|after|early|mid|"
    r"late|last|next|this|and|or)[ ]+$",
    re.I,
)


def month_not_person(text: str, start: int, end: int) -> bool:
    """A bare month name is no first name: not after a relative, a role label or a
    'Surname,' (niece June; RN: April Lindgren; Moreau, April Rose), and not
    before a capitalised word that is no common English word (June Halvorsen), unless a
    date preposition stands before it (in June Clinic, since April)."""
    from phiscrub.detect import lexicon  # the lexicons load lazily, once

    before = text[max(0, start - 30) : start]
    if _DATE_BEFORE.search(before):
        return True
    if _NAME_BEFORE.search(before):
        return False
    m = _NEXT_WORD.match(text, end)
    return m is None or lexicon.lexicons().is_common(m.group(1))


def lot_code(text: str, start: int, end: int) -> bool:
    """A lot code: at least one letter and four digits (MR4471B, X55102, 7TD3301), so that
    a product name (PCV13, PPSV23) or a short count is not taken."""
    code = text[start:end]
    return sum(c.isdigit() for c in code) >= 4 and any(c.isalpha() for c in code)


CONTEXT_CHECKS: Mapping[str, Validator] = MappingProxyType(
    {"after_word": after_word, "lot_code": lot_code, "month_not_person": month_not_person}
)
