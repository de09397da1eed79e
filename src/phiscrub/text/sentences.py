"""Sentence boundaries for clinical notes, as half-open ``(start, end)`` offsets.

Clinical notes are half prose, half lists and headers, so a sentence ends at any of:

1. Terminal punctuation: ``.``, ``!`` or ``?`` (a run of them, plus closing quotes or
   brackets) followed by whitespace that holds a line break, or whose next character
   is an uppercase letter (possibly after an opening quote or bracket) or starts an
   enumerator (``2.``, ``3)``). Whitespace is required after it, so decimals
   (``2.5 mg``) and dotted words never end a sentence. A single period does not end a
   sentence after a known abbreviation (``Dr. Smith``, ``b.i.d.``; the list is
   ``phiscrub/data/abbreviations.txt``), after initials (``J. Smith``, ``U.S.``), or
   after an enumerator (a number of up to three digits or one letter) that starts its
   line or follows the end of a sentence or a colon (``1. Aspirin. 2. Tylenol.``).
2. A blank line (a line holding only whitespace).
3. A colon at the end of a line (seed 001, §3.3.1 note 1: "a colon followed by a
   newline [is] a sentence separator").
4. A line break before a list item (a line starting with a bullet ``- * •`` or an
   enumerator ``1.`` ``2)`` ``a.``).
5. A line break after a header-like line: a short line (at most ``SHORT_LINE``
   characters, stripped) ending in a letter, digit, ``)``, ``]`` or ``%`` (no final
   punctuation) followed by a line starting with an uppercase letter
   (``Vitals\\nBP 120/80``, ``Cocaine: denies\\nAlcohol: rarely``), unless its last
   word is one that a sentence cannot end with (``Seen by\\nDr. Smith``; the list is
   ``phiscrub/data/sentence_continuations.txt``). Long lines are taken as
   fixed-width wrapping of one sentence and never cut this way.

Lines are what ``str.splitlines`` says (``\\n``, ``\\r\\n``, ``\\r`` and the other
Unicode line boundaries). Each sentence is trimmed of whitespace at both ends, and
together the sentences cover every non-whitespace character of the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from itertools import pairwise

from phiscrub.text._lexicon import load_lines
from phiscrub.text._lines import LINE_BREAKS, lines

__all__ = ["SHORT_LINE", "sentences"]

#: a line at most this long (stripped) may be a header or list item (rule 5)
SHORT_LINE = 40

_OPENERS = "\"'\u201c\u2018([{"  # quotes (straight and curly), brackets
_CLOSERS = "\"'\u201d\u2019)]"
_END = re.compile("[.!?]+[\"'\u201d\u2019)\\]]*(?=\\s)")
_SPACE = re.compile(r"\s*")
_INITIALS = re.compile(r"(?:[^\W\d_]\.)*[^\W\d_]")
_ENUMERATOR = re.compile(r"\(?(?:\d{1,3}|[^\W\d_])\)?")
_ENUMERATOR_AHEAD = re.compile(r"\(?\d{1,3}[.)](?=\s)")
_LIST_ITEM = re.compile(r"\s*(?:[-*•·‣◦▪]|\(?(?:\d{1,3}|[^\W\d_])[.)])(?=\s)")


@cache
def _words(name: str) -> frozenset[str]:
    return frozenset(word.lower() for word in load_lines(name))


def _no_end_after(text: str, dot: int) -> bool:
    """Whether the single period at ``dot`` closes an abbreviation, initials or enumerator."""
    start = dot
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    word = text[start:dot].lstrip(_OPENERS)
    if not word:
        return False
    if word.lower() in _words("abbreviations.txt"):
        return True
    if word.isupper() and _INITIALS.fullmatch(word):  # J. / U.S. / J.R.
        return True
    if _ENUMERATOR.fullmatch(word) is None:
        return False
    return _first_on_line(text, start) or _after_sentence(text, start)


def _after_sentence(text: str, pos: int) -> bool:
    """Whether the last non-space character before ``pos`` ends a sentence or a label."""
    while pos > 0 and text[pos - 1].isspace():
        pos -= 1
    return pos > 0 and text[pos - 1] in ".!?:"


def _first_on_line(text: str, pos: int) -> bool:
    """Whether only spaces (no line break) separate ``pos`` from the start of its line."""
    while pos > 0 and text[pos - 1].isspace():
        if text[pos - 1] in LINE_BREAKS:
            return True
        pos -= 1
    return pos == 0


def _starts_sentence(text: str, pos: int) -> bool:
    """Whether an enumerator (``2.``) or an uppercase letter (after an optional opening
    mark) is at ``pos``."""
    if _ENUMERATOR_AHEAD.match(text, pos):
        return True
    if pos < len(text) and text[pos] in _OPENERS:
        pos += 1
    return pos < len(text) and text[pos].isupper()


def _punctuation_cuts(text: str) -> Iterator[int]:
    """Offsets just after sentence-ending punctuation (rule 1)."""
    for match in _END.finditer(text):
        end = match.end()
        after = _SPACE.match(text, end)
        nxt = after.end() if after else end
        line_break = any(ch in LINE_BREAKS for ch in text[end:nxt])
        if not (line_break or _starts_sentence(text, nxt)):
            continue
        if match.group().rstrip(_CLOSERS) == "." and _no_end_after(text, match.start()):
            continue
        yield end


def _is_header_like(line: str) -> bool:
    stripped = line.strip()
    if not stripped or len(stripped) > SHORT_LINE:
        return False
    last = stripped[-1]
    if not (last.isalnum() or last in ")]%"):
        return False
    return stripped.split()[-1].lower() not in _words("sentence_continuations.txt")


def _line_cuts(text: str) -> Iterator[int]:
    """Offsets of line ends where a sentence ends (rules 2 to 5)."""
    all_lines = lines(text)
    for line, nxt in pairwise(all_lines):
        body = text[line.start : line.end].strip()
        following = text[nxt.start : nxt.end]
        first = following.lstrip()[:1]
        if (
            not body
            or not first
            or body.endswith(":")
            or _LIST_ITEM.match(following)
            or (_is_header_like(body) and first.isupper())
        ):
            yield line.end


def sentences(text: str) -> list[tuple[int, int]]:
    """Half-open ``(start, end)`` offsets of the sentences of ``text``, in order.

    Every sentence is trimmed (no whitespace at either end) and non-empty; together
    they hold every non-whitespace character. See the module docstring for the rules.
    """
    cuts = sorted({*_punctuation_cuts(text), *_line_cuts(text), len(text)})
    out: list[tuple[int, int]] = []
    prev = 0
    for cut in cuts:
        chunk = text[prev:cut]
        stripped = chunk.strip()
        if stripped:
            start = prev + len(chunk) - len(chunk.lstrip())
            out.append((start, start + len(stripped)))
        prev = cut
    return out
