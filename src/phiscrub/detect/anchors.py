"""Anchors: the spans that make a pattern's windows (speed only, exact).

A pattern with an ``anchor`` is searched in windows: from ``before`` characters ahead of a
match of its anchor to the end of that match's line (:meth:`scan.WindowCursor.windows_at`).
:func:`anchor_spans` gives the spans that make those windows, found once per note and
anchor (patterns sharing one scan it once):

- when the anchor cannot match a line break, only the first match of each line counts (a
  later one on the line adds nothing to the windows): the scan skips the rest of the line
  in C (``ANCHOR[^\\n]*``);
- an anchor that starts with an ASCII digit is looked for at the runs of the note's shared
  digit index (:func:`phiscrub.detect.digits.digit_runs`), only at the positions its run
  tests admit, instead of a scan of every digit;
- else a digit-led anchor is put behind its FIRST set (``[0-9](?<=(?=(?P<_m>A))(?s:.))``);
- an anchor that has no literal prefix but whose every match starts with one of a few
  literal strings (``[ ](?:at|for)[ ]|[Ee]mployer|...``: the engine would try it at every
  space and common letter) is matched only where ``str.find`` finds one of them.
"""

from __future__ import annotations

import re

from phiscrub.detect.digits import KeyMemo, RunKey, admits, after_non_digit, digit_runs
from phiscrub.detect.gates import KMAX, Test, no_line_break, run_tests
from phiscrub.detect.lanes import note_index, word_starts
from phiscrub.detect.regex_shape import (
    WHOLE,
    char_class,
    first_set,
    has_literal_prefix,
    has_prefix,
    literal_prefix,
    split_top,
    start_strings,
)

_DIGITS = frozenset("0123456789")
_MANY = KMAX + 1
_RUN = re.compile(r"[0-9]+")
#: an anchor led by more start strings than this is scanned by the engine
_MAX_FINDS = 40
_anchor_memo: dict[str, tuple[str, list[tuple[int, int]]]] = {}
#: an anchor pattern found from the word index -> is it led by a space (see index_anchor)
_spaced: dict[str, bool] = {}


def index_anchor(pattern: str) -> tuple[frozenset[str], bool, bool] | None:
    """What the word lane looks up for an anchor whose windows come from the note's word
    index (:func:`lanes.word_starts`), or None. An anchor led by words gives their places;
    one led by a space then words, on one line (``[ ](?:Street|St|...)\\b``, ``[ ]%USPS%\\b``:
    the engine tried them at every space of a note), the places of the words, each
    checked by :func:`word_anchor_spans`."""
    if (found := word_starts(pattern, 0)) is not None:
        _spaced[pattern] = False
        return found
    rest = pattern[3:] if pattern.startswith("[ ]") else ""
    if (
        not rest
        or rest[0] in "*+?{"
        or len(split_top(pattern)) != 1
        or not no_line_break(pattern)
        or (found := word_starts(f"(?<![A-Za-z])(?:{rest})", 0)) is None
    ):
        return None
    _spaced[pattern] = True
    return found


def word_anchor_spans(
    anchor: re.Pattern[str], text: str, places: list[int] | tuple[()]
) -> list[tuple[int, int]]:
    """Spans that make the same windows as the anchor's matches, from the places the word
    lane found for :func:`index_anchor`: (p, p) at each word; for a space-led anchor,
    (p - 1, p - 1) where the space is there and the anchor matches (the windows need the
    first match of each line, every match is on one line, and each starts a space before
    a letter run that the index holds)."""
    if not _spaced[anchor.pattern]:
        return [(p, p) for p in places]
    match = anchor.match
    return [(p - 1, p - 1) for p in places if p and text[p - 1] == " " and match(text, p - 1)]


def anchor_spans(anchor: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    """The spans of ``anchor`` in ``text`` that make its windows, left to right: what
    ``finditer`` gives, or only the first of each line when the anchor cannot match a
    line break."""
    got = _anchor_memo.get(anchor.pattern)
    if got is not None and got[0] is text:
        return got[1]
    plan = _plan(anchor)
    spans: list[tuple[int, int]] = []
    if plan.parts:
        spans = _from_parts(anchor, plan, text)
    elif plan.tests is not None:
        spans = _from_runs(anchor, plan, text)
    elif plan.starts is not None:
        spans = _from_starts(anchor, plan, text)
    elif plan.per_line:
        spans = [m.span(WHOLE) for m in plan.regex.finditer(text)]
    else:  # what finditer gives: matches overlapping an earlier one dropped
        last = 0
        for m in plan.regex.finditer(text):
            a = m.start(WHOLE)
            if a >= last:
                last = m.end(WHOLE)
                spans.append((a, last))
    _anchor_memo[anchor.pattern] = (text, spans)
    return spans


class _Plan:
    __slots__ = (
        "guard",
        "low_starts",
        "parts",
        "per_line",
        "regex",
        "shifts",
        "starts",
        "tests",
    )

    def __init__(
        self,
        regex: re.Pattern[str],
        per_line: bool,
        tests: tuple[Test, ...] | None,
        guard: bool = False,
    ) -> None:
        self.regex = regex
        self.per_line = per_line
        self.tests = tests
        self.guard = guard  # no digit precedes a match: only a run's first digit
        self.starts: frozenset[str] | None = None  # literal strings every match starts with
        self.low_starts: frozenset[str] = frozenset()  # the same, lower case
        # a line's anchor whose alternatives are found apart (see _from_parts)
        self.parts: tuple[re.Pattern[str], ...] = ()
        # run key number -> where a match may start in a run of that key (see shifts)
        self.shifts: KeyMemo[tuple[int, ...]] = KeyMemo(self.learn)

    def learn(self, key: RunKey) -> tuple[int, ...] | None:
        """Where a match may start in a run of this key, as shifts from the run's start:
        (0,) when guarded and the tests admit it; (-1,) for a long run (every digit); else
        n - k for each length k of the run's rest that they admit. None: nowhere."""
        n, c1, c2 = key
        if self.guard:
            got: tuple[int, ...] = (0,) if admits(self.tests, key) else ()
        elif n == _MANY:
            got = (-1,)  # every digit of a long run
        else:
            got = tuple(n - k for k in range(1, n + 1) if admits(self.tests, (k, c1, c2)))
        return got or None


#: the run index is used for a digit-led anchor only when a match needs at least this many
#: digits or a character after them (else nearly every run is a candidate, each tried from
#: Python: a scan in C is cheaper)
_MIN_RUN = 4


def _selective(tests: tuple[Test, ...] | None) -> bool:
    return tests is not None and all(t != "" for t in tests[: _MIN_RUN - 1])


_plans: dict[tuple[str, int], _Plan] = {}


def _plan(anchor: re.Pattern[str]) -> _Plan:
    key = (anchor.pattern, anchor.flags)
    if key not in _plans:
        bits = anchor.flags & (re.I | re.M | re.S | re.X)
        first = first_set(anchor.pattern, bits)
        lead = first is not None and first <= _DIGITS
        per_line = no_line_break(anchor.pattern, bits)
        tests = run_tests(anchor.pattern, bits) if lead else None
        if not _selective(tests):
            tests = None
        guard = after_non_digit(anchor.pattern, bits)
        core = f"(?P<{WHOLE}>{anchor.pattern})"
        if not bits and not lead and (after := _after_class(anchor.pattern)) is not None:
            # a class (n times) then a literal or another class ([A-Z]#, [a-z][ ]\d{1,2},
            # [A-Z]{2}[/:], [ ]\d[A-Z]{2}): the engine skips to what follows the class,
            # rarer than it, and tries the anchor that many characters before
            lit, width = after
            core = f"{lit}(?<=(?=(?P<{WHOLE}>{anchor.pattern}))(?s:.){{{width}}})"
        elif (
            first is not None
            and not bits
            and (lead or anchor.pattern.startswith("(?<") or not has_prefix(anchor.pattern, 0))
        ):
            # behind its FIRST set: the engine skips to it (a look-behind first has no prefix,
            # nor has an alternation of classes, [NS],?[ ]+\d|GPS|[Cc]oordinates: the
            # engine would try it at every character)
            core = f"{char_class(first)}(?<=(?=(?P<{WHOLE}>{anchor.pattern}))(?s:.))"
        if per_line and not bits:
            _plans[key] = _Plan(re.compile(core + "[^\\n]*"), True, tests, guard)
        else:
            flags = 0 if core.startswith("[") else bits
            _plans[key] = _Plan(re.compile(core, flags), per_line, tests, guard)
        if tests is None and not bits and not has_literal_prefix(anchor.pattern, bits):
            starts = start_strings(anchor.pattern, bits)
            if starts is not None and len(starts) <= _MAX_FINDS:
                _plans[key].starts = starts
                _plans[key].low_starts = frozenset(x.lower() for x in starts)
        plan = _plans[key]
        if plan.per_line and not bits and plan.tests is None and plan.starts is None:
            alts = split_top(anchor.pattern)
            parts = tuple(re.compile(alt) for alt in alts) if len(alts) > 1 else ()
            # each found without a scan that tests a class at every character: by the digit
            # runs, by str.find of its start strings, or by the engine's literal search
            if parts and all(
                _plan(part).tests is not None
                or _plan(part).starts is not None
                or has_literal_prefix(part.pattern, 0)
                for part in parts
            ):
                plan.parts = parts
    return _plans[key]


_CLASS_LEAD = re.compile(r"\[\^?\]?(?:\\.|[^\]\\])*\]")
#: one character class after the leading one (``\d``, a category, is tested slowly)
_ONE_CLASS = re.compile(r"\[\^?\]?(?:\\.|[^\]\\])*\]")
#: an exact count after the leading class
_EXACT = re.compile(r"\{(\d+)\}")


def _after_class(pattern: str) -> tuple[str, int] | None:
    """What follows a leading one-character class taken ``n`` times (``[A-Z]``, ``[A-Z]{2}``;
    a class that never takes a line break), as a regex to skip to, and the width from the
    anchor's start to the end of it: its literal prefix, else one bracket class (``[/:]``)
    not repeated, after a class of several characters. None when the pattern has a
    top-level ``|`` or another shape. Every match then has that many characters before
    the part skipped to: the anchor's matches start that far before its places, in the
    same order (finditer's, or the first of each line)."""
    m = _CLASS_LEAD.match(pattern)
    if m is None or len(split_top(pattern)) != 1 or re.match(m.group(), "\n") is not None:
        return None
    n, end = 1, m.end()
    if (q := _EXACT.match(pattern, end)) is not None:
        n, end = int(q.group(1)), q.end()
    if pattern[end : end + 1] in ("*", "+", "?", "{"):
        return None
    rest = pattern[end:]
    try:
        lit = literal_prefix(rest, 0)
    except re.error:
        return None
    if lit and "\n" not in lit:
        return re.escape(lit), n + len(lit)
    one = _ONE_CLASS.match(rest)
    if (
        one is None
        or rest[one.end() : one.end() + 1] in ("*", "+", "?", "{")
        or len(first_set(m.group(), 0) or ()) < 2  # [ ]: a literal, which the engine skips to
    ):
        return None
    return one.group(), n + 1


def _starts(plan: _Plan, text: str) -> list[int]:
    """Every ASCII digit where the anchor may start a match (its run tests admit the rest
    of the run from there: its length and the two characters after it), sorted."""
    out: list[int] = []
    runs = digit_runs(text)
    shifts = plan.shifts.admitted()
    for key in runs.keys() & shifts.keys():
        starts = runs[key]
        got = shifts[key]
        if got[0] < 0:  # a long run: every digit of it
            for s in starts:
                m = _RUN.match(text, s)
                assert m is not None
                out.extend(range(s, m.end()))
        elif len(got) == 1:  # the rest of the run is this long: one place per run
            shift = got[0]
            out.extend([s + shift for s in starts] if shift else starts)
        else:
            out.extend([s + k for s in starts for k in got])
    out.sort()
    return out


def _from_parts(anchor: re.Pattern[str], plan: _Plan, text: str) -> list[tuple[int, int]]:
    """The spans of a line's anchor (no match crosses a line break) that is an alternation
    of which some alternatives have a cheap plan (digit runs, start strings: ``india_pin``'s
    ``(?<=[\\-\u2013][ ])[1-9]\\d{5}(?!\\d)|[Pp]in[ ]?[Cc]ode|...``, which the engine tried
    at every digit and every P, p, C, c): the first match of a line starts where the first
    match of one of the alternatives on that line starts, the leftmost of them; it is
    matched there again for its end."""
    firsts: dict[int, int] = {}  # line start -> the leftmost match start on the line
    rfind = text.rfind
    for part in plan.parts:
        for a, _ in anchor_spans(part, text):  # the first of each line, left to right
            line = rfind("\n", 0, a) + 1
            if a < firsts.get(line, a + 1):
                firsts[line] = a
    spans: list[tuple[int, int]] = []
    match = anchor.match
    for a in sorted(firsts.values()):
        m = match(text, a)
        assert m is not None
        spans.append((a, m.end()))
    return spans


def _from_starts(anchor: re.Pattern[str], plan: _Plan, text: str) -> list[tuple[int, int]]:
    """The spans of a literal-led anchor: matched where one of its start strings is."""
    assert plan.starts is not None
    places: list[int] = []
    starts, find = plan.starts, text.find
    if len(plan.low_starts) < len(starts) and (ix := note_index(text)).aligned:
        # fewer strings in the lower-cased text (every place of a start string has its
        # lower case there): the anchor is then matched at a superset of its places
        starts, find = plan.low_starts, ix.low.find
    for st in starts:
        i = find(st)
        while i >= 0:
            places.append(i)
            i = find(st, i + 1)
    places.sort()
    spans: list[tuple[int, int]] = []
    match = anchor.match
    last = 0
    for p in places:
        if p < last:
            continue
        m = match(text, p)
        if m is None:
            continue
        end = m.end()
        spans.append((p, end))
        last = end
        if plan.per_line:  # the first of the line: the next one is on another line
            nl = text.find("\n", end)
            last = len(text) if nl < 0 else nl
    return spans


def _from_runs(anchor: re.Pattern[str], plan: _Plan, text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    match = anchor.match
    last = 0
    for p in _starts(plan, text):
        if p < last:
            continue
        m = match(text, p)
        if m is None:
            continue
        spans.append((p, m.end()))
        last = m.end()
        if plan.per_line:  # the first of the line: the next one is on another line
            nl = text.find("\n", m.end())
            last = len(text) if nl < 0 else nl
    return spans
