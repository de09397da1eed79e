"""Word lists of the pattern files as tries (speed only: the same matches, in the same order).

A definition such as ``STREET_SUFFIX = '(?:Street|St|Avenue|...)'`` is an alternation of
literal words. The engine tries its alternatives one after the other: it rejects one that
starts with another character cheaply (a branch whose first item is a literal is checked
before it is entered), but 70 of them still cost 70 checks wherever the list is tried, and
under ``(?i:...)`` (``FACILITY_GENERIC``) every alternative is entered, since a
case-folded literal is not checked ahead. :func:`optimize_def` rewrites such a list as a
trie: ``S(?:t(?:|reet)|quare|...)|A(?:...)``, one test per character; a case-folded list
gets explicit classes for its first characters (``[Tt]``, ``[Kk\\u212a]``: exactly what
``(?i:k)`` matches), which the engine checks ahead again, and below them the same trie of
lower-case literals under ``(?i:...)``: ``[Tt](?i:h(?:e(?:|y|ir)|is))``. (Classes at every
character matched as fast but made ``FACILITY_GENERIC`` a 12,000-character regex, used in
about ten look-aheads and compiled in several forms: 2 of the 4 seconds of pattern
compilation; the branches below the first character are few, so being entered costs
nothing measurable.)

Exactness: the same words match; and where two words can both match at a position (one is
a prefix of the other), they are tried in the original order: words are grouped by their
first character in order of first appearance (words with different first characters never
match at the same position), and an empty rest (a word that ends there) is kept in its
place between the groups, never moved past a word that could also match.
"""

from __future__ import annotations

import re

#: what ``(?i:x)`` matches besides x.lower() and x.upper(), for ASCII letters (the engine's
#: extra case folds: dotted and dotless i, the Kelvin sign, the long s); checked by a test
FOLDS = {"i": "\u0130\u0131", "k": "\u212a", "s": "\u017f"}
_WORD = r"(?:[A-Za-z0-9 '&\-]|\\[.\-'&])+"
_LIST = re.compile(rf"\(\?:({_WORD}(?:\|{_WORD})+)\)")
_FOLDED_LIST = re.compile(rf"\(\?i:\(\?:({_WORD}(?:\|{_WORD})+)\)\\b\)")
_UNESCAPE = re.compile(r"\\(.)")


def optimize_def(value: str) -> str:
    """A definition that is a list of literal words (``(?:w1|w2|...)``, or case-folded and
    followed by a word boundary: ``(?i:(?:w1|w2|...)\\b)``) as a trie; else ``value``."""
    if (m := _LIST.fullmatch(value)) is not None:
        return f"(?:{trie(_words(m.group(1)), folded=False)})"
    if (m := _FOLDED_LIST.fullmatch(value)) is not None:
        return f"(?:{trie(_words(m.group(1)), folded=True)})\\b"
    return value


def _words(body: str) -> list[str]:
    return [_UNESCAPE.sub(r"\1", w) for w in body.split("|")]


def _char(c: str, folded: bool, folds: bool = True) -> str:
    if folded and c.isascii() and c.isalpha():
        low = c.lower()
        return "[" + low.upper() + low + (FOLDS.get(low, "") if folds else "") + "]"
    return re.escape(c)


def trie(words: list[str], folded: bool, folds: bool = True) -> str:
    """The alternation of ``words`` (in this order; "" is an empty word) as a trie regex;
    ``folded``: either case, and with ``folds`` the engine's other case folds too (what
    ``(?i:...)`` matches; without them, for ASCII letter runs only)."""
    parts: list[str] = []
    groups: dict[str, list[str]] = {}  # first character -> rests, in order

    def flush() -> None:
        for key, rests in groups.items():
            if folded and folds and all(r.isascii() for r in rests):
                # below the first character: the same trie of lower-case literals under
                # (?i:...), which matches the same, and compiles several times faster
                inner = trie([r.lower() for r in rests], False)
                inner = f"(?i:{inner})" if inner else ""
            else:
                inner = trie(rests, folded, folds)
                inner = f"(?:{inner})" if "|" in inner else inner
            parts.append(_char(key, folded, folds) + inner)
        groups.clear()

    for w in words:
        if not w:
            flush()  # an empty word stays between the words before and after it
            parts.append("")
            continue
        key = w[0].lower() if folded else w[0]
        groups.setdefault(key, []).append(w[1:])
    flush()
    if parts == [""]:
        return ""
    return "|".join(parts)
