"""Static analysis of pattern regexes (from their parse tree): what a match can start with.

Used by the searchers of :mod:`phiscrub.detect.scan` and the lanes of
:mod:`phiscrub.detect.lanes` to decide where a regex needs to be tried at all:

- :func:`split_top`: the top-level alternatives of a regex;
- :func:`strip_lead`: leading zero-width assertions (``\\b``, look-behinds) and the rest;
- :func:`first_set`: the characters every match starts with;
- :func:`needs`: literal strings one of which every match contains;
- :func:`start_strings`: literal strings one of which every match starts with;
- :func:`folds_case`: does any part of the regex ignore case.

Every answer is either exact or None ("cannot tell"), never a guess.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from re import _compiler as sre_compile  # type: ignore[attr-defined]
from re import _constants as C  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

FLAG_BITS = {"i": re.I, "m": re.M, "x": re.X}
_LEAD = re.compile(r"\\b|\(\?<[!=]")
#: leading assertions that make a match start where a run of letters starts
AT_WORD = re.compile(r"\\b|\(\?<!\[[^\]]*(?:\\w|A-Za-z)")
_CATEGORY_CHARS = {C.CATEGORY_DIGIT: "0123456789", C.CATEGORY_SPACE: " \t\n\r\f\v"}
#: a FIRST set larger than this is not worth a prefix
_MAX_FIRST = 80
#: the group that holds the real match of a wrapped searcher
WHOLE = "_m"


class _Unknown(Exception):
    """The analysis cannot bound the set (a negated class, a back-reference...)."""


@functools.lru_cache(maxsize=8192)
def parse(regex: str, flags: int = 0) -> Any:
    """The parse tree of ``regex`` (re's own parser), shared by the analyses of a pattern:
    they only read it."""
    return sre_parse.parse(regex, flags)


_FLAG_GROUP = re.compile(r"\(\?([aiLmsux]+):")


def split_top(regex: str) -> list[str]:
    """The top-level alternatives of ``regex`` (one item when there is no top-level ``|``).
    A regex that is one scoped-flags group is split inside it: ``(?i:A|B)`` gives
    ``(?i:A)`` and ``(?i:B)`` (the same alternation, in the same order)."""
    parts = _split(regex)
    if len(parts) == 1 and (m := _FLAG_GROUP.match(regex)) and _group_end(regex, 0) == len(regex):
        inner = _split(regex[m.end() : -1])
        if len(inner) > 1:
            return [f"(?{m.group(1)}:{alt})" for alt in inner]
    return parts


def _split(regex: str) -> list[str]:
    parts: list[str] = []
    depth, start, i, in_class = 0, 0, 0, False
    while i < len(regex):
        c = regex[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]" or regex[i - 1] == "["
        elif c == "[":
            in_class = True
            if regex[i + 1 : i + 2] == "^":
                i += 1
            if regex[i + 1 : i + 2] == "]":
                i += 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            parts.append(regex[start:i])
            start = i + 1
        i += 1
    parts.append(regex[start:])
    return parts


def _group_end(regex: str, i: int) -> int:
    """The index after the group opening at ``regex[i] == '('``."""
    depth, in_class = 0, False
    while i < len(regex):
        c = regex[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("unbalanced group")


def strip_lead(regex: str) -> tuple[str, str]:
    """``(leading assertions, the rest)``: ``\\b`` and look-behinds at the very start."""
    i = 0
    while (m := _LEAD.match(regex, i)) is not None:
        i = m.end() if m.group(0) == "\\b" else _group_end(regex, i)
    return regex[:i], regex[i:]


def _chars(items: Iterable[tuple[Any, Any]], icase: bool) -> set[str]:
    out: set[str] = set()
    for op, av in items:
        if op is C.LITERAL:
            out.add(chr(av))
        elif op is C.RANGE:
            if av[1] - av[0] > _MAX_FIRST:
                raise _Unknown
            out.update(chr(x) for x in range(av[0], av[1] + 1))
        elif op is C.CATEGORY and av in _CATEGORY_CHARS:
            out.update(_CATEGORY_CHARS[av])
        else:
            raise _Unknown
    if icase:
        out |= {c.lower() for c in out} | {c.upper() for c in out}
    return out


def _first_seq(items: Sequence[tuple[Any, Any]], flags: int) -> tuple[set[str], bool]:
    """(the characters a match of the sequence can start with, can it match empty?)"""
    acc: set[str] = set()
    for op, av in items:
        chars, empty = _first_item(op, av, flags)
        acc |= chars
        if not empty:
            return acc, False
    return acc, True


def _first_item(op: Any, av: Any, flags: int) -> tuple[set[str], bool]:
    icase = bool(flags & re.I)
    if op is C.LITERAL:
        return _chars([(op, av)], icase), False
    if op is C.IN:
        return _chars(av, icase), False
    if op is C.BRANCH:
        acc: set[str] = set()
        empty = False
        for alt in av[1]:
            chars, e = _first_seq(alt.data, flags)
            acc |= chars
            empty |= e
        return acc, empty
    if op is C.SUBPATTERN:
        _, add, delete, sub = av
        return _first_seq(sub.data, (flags | add) & ~delete)
    if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
        chars, empty = _first_seq(av[2].data, flags)
        return chars, empty or av[0] == 0
    if op is C.ATOMIC_GROUP:
        return _first_seq(av.data, flags)
    if op in (C.AT, C.ASSERT, C.ASSERT_NOT):
        return set(), True
    raise _Unknown


def first_set(regex: str, flags: int = 0) -> frozenset[str] | None:
    """The characters every match starts with, or None when unbounded or too many."""
    try:
        parsed = parse(regex, flags)
        chars, empty = _first_seq(parsed.data, parsed.state.flags)
    except _Unknown:
        return None
    if empty or not chars or len(chars) > _MAX_FIRST:
        return None
    return frozenset(chars)


def _lits_seq(items: Sequence[tuple[Any, Any]], flags: int) -> set[str] | None:
    """Strings (lower case) one of which every match of the sequence contains."""
    best: set[str] | None = None
    run: list[str] = []

    def consider(cand: set[str] | None) -> None:
        nonlocal best
        if cand and (best is None or _better(cand, best)):
            best = cand

    for op, av in items:
        if op is C.LITERAL:
            run.append(chr(av).lower())
            continue
        if run:
            consider({"".join(run)})
            run = []
        consider(_lits_item(op, av, flags))
    if run:
        consider({"".join(run)})
    return best


def _better(a: set[str], b: set[str]) -> bool:
    return (min(map(len, a)), -len(a)) > (min(map(len, b)), -len(b))


def _lits_item(op: Any, av: Any, flags: int) -> set[str] | None:
    if op is C.BRANCH:
        out: set[str] = set()
        for alt in av[1]:
            sub = _lits_seq(alt.data, flags)
            if not sub:
                return None
            out |= sub
        return out
    if op is C.SUBPATTERN:
        _, add, delete, sub_p = av
        return _lits_seq(sub_p.data, (flags | add) & ~delete)
    if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT) and av[0] >= 1:
        return _lits_seq(av[2].data, flags)
    if op is C.IN and len(av) <= 3 and all(o is C.LITERAL for o, _ in av):
        return {chr(a).lower() for _, a in av}
    return None


def needs(regex: str, flags: int = 0) -> frozenset[str] | None:
    """Lower-case strings one of which every match contains (None: no useful set)."""
    try:
        parsed = parse(regex, flags)
        found = _lits_seq(parsed.data, parsed.state.flags)
    except (_Unknown, re.error):
        return None
    if not found or len(found) > 200:
        return None
    return frozenset(found)


#: at most this many start strings (a str.find each; the word lane of lanes.py takes up to
#: MAX_STARTS, looked up in a table); shorter ones than _MIN_START are not selective enough
_MAX_FIND = 400
MAX_STARTS = 4000
_MIN_START = 2
#: a character class of at most this many characters is expanded into start strings
_MAX_CLASS = 10


def _starts_seq(
    items: Sequence[tuple[Any, Any]], flags: int, lead: bool = True
) -> tuple[set[str], bool]:
    """(strings one of which every match starts with, is each string the whole match);
    ``lead``: the sequence starts the match."""
    acc = {""}
    for k, (op, av) in enumerate(items):
        if op in (C.AT, C.ASSERT, C.ASSERT_NOT):
            continue
        first = lead and acc == {""}
        if op in (C.MAX_REPEAT, C.MIN_REPEAT) and av[0] == 0 and av[1] == 1:
            # X? REST: the starts of X REST and those of REST
            rest = list(items[k + 1 :])
            with_x, c1 = _starts_seq([*av[2].data, *rest], flags, first)
            without, c2 = _starts_seq(rest, flags, first)
            if "" in with_x or "" in without:
                return acc, False
            return _cross(acc, with_x | without), c1 and c2
        sub, complete = _starts_item(op, av, flags, first)
        if not sub:
            return acc, False
        acc = _cross(acc, sub)
        if not complete:
            return acc, False
    return acc, True


def _cross(a: set[str], b: set[str]) -> set[str]:
    out = {x + y for x in a for y in b}
    if len(out) > MAX_STARTS:
        raise _Unknown
    return out


def _starts_item(op: Any, av: Any, flags: int, lead: bool = False) -> tuple[set[str], bool]:
    if op is C.LITERAL:
        return {chr(av).lower() if flags & re.I else chr(av)}, True
    if op is C.IN:
        try:
            chars = _chars(av, False)
        except _Unknown:
            return set(), False
        if flags & re.I:
            chars = {c.lower() for c in chars}
        # a class of listed letters after the first character (a word list's trie:
        # M[EDAINSOT]) may be wider than one with a category (\s: six start strings for
        # every one before it) or one that starts the match ([CTLS]: too many words)
        most = _MAX_CLASS if not lead and all(o is C.LITERAL for o, _ in av) else 3
        return (chars, True) if len(chars) <= most else (set(), False)
    if op is C.BRANCH:
        out: set[str] = set()
        complete = True
        for alt in av[1]:
            sub, c = _starts_seq(alt.data, flags, lead)
            if not sub or "" in sub:
                return set(), False
            out |= sub
            complete &= c
        return out, complete
    if op is C.SUBPATTERN:
        _, add, delete, sub_p = av
        return _starts_seq(sub_p.data, (flags | add) & ~delete, lead)
    return set(), False


def _any_icase(items: Sequence[tuple[Any, Any]], flags: int) -> bool:
    if flags & re.I:
        return True
    for op, av in items:
        if op is C.SUBPATTERN:
            if _any_icase(av[3].data, (flags | av[1]) & ~av[2]):
                return True
        elif op is C.BRANCH:
            if any(_any_icase(alt.data, flags) for alt in av[1]):
                return True
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT) and _any_icase(
            av[2].data, flags
        ):
            return True
    return False


def start_strings(
    regex: str, flags: int = 0, min_len: int = _MIN_START, most: int = _MAX_FIND
) -> frozenset[str] | None:
    """Strings one of which every match starts with (None: not selective). Lower case when
    any part of the regex ignores case (then they are looked for in the lower-cased text)."""
    try:
        parsed = parse(regex, flags)
        folded = _any_icase(parsed.data, parsed.state.flags)
        found, _ = _starts_seq(parsed.data, parsed.state.flags | (re.I if folded else 0))
    except (_Unknown, re.error):
        return None
    if not found or min(map(len, found)) < min_len or len(found) > most:
        return None
    # drop a string that another one starts with: its occurrences cover the longer one's
    kept = sorted(found, key=len)
    out: list[str] = []
    for s in kept:
        if not any(s.startswith(k) for k in out):
            out.append(s)
    return frozenset(out)


def has_prefix(regex: str, flags: int) -> bool:
    parsed = parse(regex, flags)
    lo, _ = parsed.getwidth()
    if lo == 0:
        return False
    prefix, _, _ = sre_compile._get_literal_prefix(parsed, flags)
    return bool(prefix) or bool(sre_compile._get_charset_prefix(parsed, flags))


def has_literal_prefix(regex: str, flags: int) -> bool:
    """Does the engine skip to a literal string every match starts with?"""
    return bool(literal_prefix(regex, flags))


def literal_prefix(regex: str, flags: int) -> str:
    """The literal string every match starts with, which the engine skips to ("" if none)."""
    parsed = parse(regex, flags)
    prefix, _, _ = sre_compile._get_literal_prefix(parsed, flags)
    return "".join(map(chr, prefix))


def char_class(chars: Iterable[str]) -> str:
    """A character class of exactly ``chars`` (every character escaped by its code)."""
    return "[" + "".join(f"\\U{ord(c):08x}" for c in sorted(chars)) + "]"


def folds_case(regex: str, bits: int) -> bool:
    """Does any part of the regex ignore case (then start strings are lower case)?"""
    parsed = parse(regex, bits)
    return _any_icase(parsed.data, parsed.state.flags)


def _is_word_char(c: str) -> bool:
    return c.isalnum() or c == "_"


def _run_ended(s: str) -> bool:
    """Does ``s`` start with ASCII letters followed by another character (``Trauma ``)?"""
    n = len(s) - len(s.lstrip(_ASCII_LETTERS))
    return 0 < n < len(s)


def whole_words(
    regex: str, flags: int = 0, letters: bool = False, cut: bool = False
) -> frozenset[str] | None:
    """Strings one of which every match starts with, each followed by no ASCII letter: a
    match starts with a whole letter run (``\\b(?:T|Temp)\\b``, ``Dr\\.?\\s``); None when a
    letter may follow (or cannot tell). Lower case when any part of the regex ignores case.
    ``letters``: only for the matches that start with an ASCII letter (a class of up to 26
    of them may start: the strings are whole letter runs). ``cut``: stop at the first place
    where no letter may follow (``%WD1%/%WD1%/...`` gives ``M``, ``Tu``..., where the
    strings up to the end would be thousands): what a match starts with, but not all of
    it that is literal."""
    try:
        parsed = parse(regex, flags)
        folded = _any_icase(parsed.data, parsed.state.flags)
        bits = parsed.state.flags | (re.I if folded else 0)
        found = _whole_words(list(parsed.data), bits, letters=letters, cut=cut)
    except (_Unknown, re.error):
        return None
    return None if found is None or len(found) > MAX_STARTS else found


_ASCII_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_ENDS = (C.AT_END, C.AT_END_LINE, C.AT_END_STRING)


def _whole_words(
    items: list[tuple[Any, Any]],
    flags: int,
    acc: frozenset[str] = frozenset({""}),
    letters: bool = False,
    cut: bool = False,
) -> frozenset[str] | None:
    """The strings ``acc`` continued by ``items`` up to where no letter can follow."""
    k = 0
    while k < len(items):
        op, av = items[k]
        if cut and acc != {""} and "" not in acc and op is not C.SUBPATTERN:
            ahead, empty = _first_item(op, av, flags)  # the next item alone, mostly
            if empty:
                ahead, empty = _first_seq(items[k:], flags)
            if not empty and not any(c.isascii() and c.isalpha() for c in ahead):
                return acc  # the strings' letter runs end here
        if op is C.SUBPATTERN:  # inline a group (case folding is already in ``flags``)
            items = [*av[3].data, *items[k + 1 :]]
            k = 0
            continue
        if acc == {""} and op in (C.AT, C.ASSERT, C.ASSERT_NOT):
            k += 1  # leading assertions
            continue
        if op is C.AT and (av is C.AT_BOUNDARY or av in _ENDS):
            if all(s and (_is_word_char(s[-1]) or _run_ended(s)) for s in acc) or av in _ENDS:
                return acc  # a word character then a boundary (or a line end): the run ends
            return None
        if op is C.ASSERT and av[0] == 1 and acc != {""} and all(acc):
            ahead, empty = _first_seq(av[1].data, flags)
            if not empty and not any(c.isascii() and c.isalpha() for c in ahead):
                return acc  # (?=\\d): no letter follows the strings
        if op in (C.ASSERT, C.ASSERT_NOT):
            k += 1  # consumes nothing: what follows decides
            continue
        if op in (C.MAX_REPEAT, C.MIN_REPEAT) and av[0] == 0 and av[1] == 1:
            rest = list(items[k + 1 :])  # X? REST: the words of X REST and those of REST
            with_x = _whole_words([*av[2].data, *rest], flags, acc, letters, cut)
            without = _whole_words(rest, flags, acc, letters, cut)
            return None if with_x is None or without is None else with_x | without
        if letters and acc == {""} and op not in (C.BRANCH, C.LITERAL, C.IN, C.AT):
            lead_first, _ = _first_seq(items[k:], flags)
            if not any(c.isascii() and c.isalpha() for c in lead_first):
                return frozenset()  # no match on this path starts with a letter
        if letters and acc == {""} and op in (C.LITERAL, C.IN):
            try:  # the first character: its letters only (other starts are found elsewhere)
                lead = {
                    c for c in _chars([(op, av)] if op is C.LITERAL else av, bool(flags & re.I))
                }
            except _Unknown:
                return None
            lead = {c.lower() if flags & re.I else c for c in lead if c.isascii() and c.isalpha()}
            if not lead:
                return frozenset()
            acc = frozenset(lead)
            k += 1
            continue
        if op is C.LITERAL or op is C.BRANCH or (op is C.IN and len(av) <= _MAX_CLASS):
            sub, complete = _starts_item(op, av, flags, acc == {""})
            if sub and "" not in sub and complete:
                acc = frozenset(_cross(set(acc), sub))
                k += 1
                continue
            if op is C.BRANCH:  # each alternative followed by the rest
                rest = list(items[k + 1 :])
                out: set[str] = set()
                for alt in av[1]:
                    got = _whole_words([*alt.data, *rest], flags, acc, letters, cut)
                    if got is None:
                        return None
                    out |= got
                    if len(out) > MAX_STARTS:
                        raise _Unknown
                return frozenset(out)
        break
    if "" in acc or k >= len(items):
        return None  # a match may end right after the string: a letter may follow
    first, empty = _first_seq(items[k:], flags)
    if empty or any(c.isascii() and c.isalpha() for c in first):
        return None
    return acc
