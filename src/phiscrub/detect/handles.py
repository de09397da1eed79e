"""Validation hooks for logins (``user: cduvall``, ``e-sig lferreira_scribe``): is a string
after a login trigger one person's handle, or a generic account or an English word?

Kept apart from ``validators.py`` (check digits, calendar, phone and name hooks), which
registers these hooks under the names the pattern files give them.
"""

from __future__ import annotations

import functools
import re
import unicodedata

#: generic words that look like logins but name no one
_NOT_HANDLE_WORDS = (
    "admin administrator system root guest user users staff nurse nursing doctor provider "
    "pharmacy scribe interpreter patient family unknown none pending epic cerner portal "
    "triage dictation transcription sysadmin support helpdesk noreply"
)
_NOT_HANDLES = frozenset(_NOT_HANDLE_WORDS.split())
_HANDLE_CHARS = re.compile(r"[a-z]+")
NAME_WORD = re.compile(r"[^\W\d_]+(?:['\u2019\-][^\W\d_]+)*")


def fold_name(word: str) -> str:
    """A name word as a login spells it: lower case, accents dropped, letters only
    (Barragán -> barragan, Ruiz-Tagle -> ruiztagle, O'Driscoll -> odriscoll)."""
    w = unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode().lower()
    return "".join(c for c in w if c.isalpha())


@functools.cache
def common_words() -> frozenset[str]:
    """The English words of every SCOWL level, lower case (shared with ``validators``)."""
    from phiscrub.detect import lexicon  # the lexicons load lazily, once

    return frozenset(lexicon.lexicons().common_words)


def generic_login(word: str) -> bool:
    """Is the lower-case word an English word (all SCOWL levels) or a generic login
    (admin, nurse, noreply) rather than one person's?"""
    return word in _NOT_HANDLES or word in common_words()


def _capitalised(text: str, start: int) -> list[str]:
    """The capitalised words of the same line, up to 100 chars back."""
    line_start = text.rfind("\n", 0, start) + 1
    window = text[max(line_start, start - 100) : start]
    return [m.group() for m in NAME_WORD.finditer(window) if m.group()[0].isupper()]


def _name_parts(text: str, start: int) -> set[str]:
    """The capitalised words (and hyphenated compounds) of the same line, up to 100 chars back."""
    parts: set[str] = set()
    for word in _capitalised(text, start):
        parts.add(fold_name(word))
        parts.update(fold_name(p) for p in re.split(r"['\u2019\-]", word))
    return {p for p in parts if len(p) >= 3}


def _derived_from_name(handle: str, text: str, start: int) -> bool:
    """The handle is made from a name on the line before it: up to 3 initials or a first
    name, then a surname, then at most 2 letters, digits or an underscore tail
    (cduvall, toyelaran, bnakamuraflynn, smithj, lferreira_scribe)."""
    letters = _HANDLE_CHARS.match(handle.lower())
    if letters is None:
        return False
    h = letters.group()
    common = common_words()
    initials = {fold_name(w)[:1] for w in _capitalised(text, start)}
    for w in _name_parts(text, start):
        i = h.find(w)
        if i < 0:
            continue
        tail = h[i + len(w) :]
        if w in common and not (1 <= i <= 3 and all(c in initials for c in h[:i])):
            continue  # a surname that is also a word (Quill) needs the initials in front
        if i <= 3 and len(tail) <= 2 and (i > 0 or tail not in ("", "s", "es")):
            return True
        if i > 3 and tail == "" and fold_name(h[:i]) in _name_parts(text, start):
            return True  # first name + surname (mariagarcia)
    return False


def _handle_shape(handle: str, loose: bool) -> bool:
    if not 3 <= len(handle) <= 30 or not handle[0].isalpha():
        return False
    low = handle.lower()
    if low in _NOT_HANDLES:
        return False
    core = low.rstrip("0123456789")
    if any(c.isdigit() for c in handle) or "_" in handle or "." in handle.strip("."):
        return bool(core) and core not in _NOT_HANDLES
    if not (handle.islower() or (loose and handle.isupper())):
        return False  # a capitalised word after "signed by" is a name, not a login
    return len(handle) >= 5 and low not in common_words()


def handle(text: str, start: int, end: int) -> bool:
    """A login after a login trigger (user, login, e-sig): digits, _ or . inside, made from a
    name on the line, or a lower-case word of 5+ letters that is not an English word."""
    h = text[start:end]
    if _derived_from_name(h, text, start):
        return True
    return not h.isupper() and _handle_shape(h, loose=False)


def handle_loose(text: str, start: int, end: int) -> bool:
    """``handle``, and also an upper-case non-word after an explicit ``login`` (CIBARRAW)."""
    h = text[start:end]
    return _derived_from_name(h, text, start) or _handle_shape(h, loose=True)


def handle_of_name(text: str, start: int, end: int) -> bool:
    """A login written in parentheses right after a person: made from that person's name."""
    return _derived_from_name(text[start:end], text, start)
