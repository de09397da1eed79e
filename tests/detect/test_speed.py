"""The speed devices of ``phiscrub.detect`` change nothing: tries, run tests, tails, anchors.

``test_scan.py`` checks every pattern file against one plain alternation of its own
regexes; here each device is checked on its own, against the plain regexes of the files
(word lists unrewritten) and the engine.
"""

from __future__ import annotations

import re

import pytest

from phiscrub.detect import anchors, digits, gates, regex_shape, tails, tries
from phiscrub.detect.pattern_files import Pattern, PatternFile, load_pattern_file
from phiscrub.detect.patterns import PatternDetector
from phiscrub.detect.registry import RULE_FILES, VALIDATORS, pattern_detector
from phiscrub.detect.scan import WindowCursor

from .test_scan import TEXTS, _reference

FILES = [*RULE_FILES, "clinical"]


def test_folds_are_what_the_engine_folds() -> None:
    """``tries.FOLDS``: the characters ``(?i:x)`` matches besides x's two cases (BMP)."""
    chars = [chr(c) for c in range(0x10000) if not 0xD800 <= c <= 0xDFFF]
    for x in "abcdefghijklmnopqrstuvwxyz":
        rx = re.compile(f"(?i:{x})")
        got = {c for c in chars if rx.fullmatch(c)}
        assert got == {x, x.upper(), *tries.FOLDS.get(x, "")}, x


def test_trie_keeps_the_words_and_their_order() -> None:
    words = ["St", "Street", "Sq", "", "Square", "Ave", "Av", "AVE"]
    for folded in (False, True):
        rx = re.compile(f"(?:{tries.trie(words, folded)})")
        plain = re.compile(f"(?{'i' if folded else ''}:{'|'.join(map(re.escape, words))})")
        for text in [
            "Street",
            "St.",
            "Sq",
            "Square",
            "Av",
            "Avenue",
            "AVE",
            "sT",
            "x",
            "",
            "\u017ft",
        ]:
            a, b = rx.match(text), plain.match(text)
            assert (a and a.group()) == (b and b.group()), (text, folded)


@pytest.mark.parametrize("file", FILES)
def test_word_lists_as_tries_match_the_same(file: str) -> None:
    """The detector (word lists as tries) finds what the unrewritten pattern file finds."""
    fast = pattern_detector(file)
    plain = PatternDetector(load_pattern_file(file, optimize=False), VALIDATORS)
    for text in TEXTS:
        got = [(a, b, label, p.name) for a, b, label, p in fast.iter_matches(text)]
        assert got == [(a, b, label, p.name) for a, b, label, p in plain.iter_matches(text)]


@pytest.mark.parametrize("file", FILES)
def test_run_tests_admit_every_match(file: str) -> None:
    """Wherever a digit-led alternative matches at a run of ASCII digits, its run tests
    admit the run (its rest's length and the two characters after it)."""
    checked = 0
    for lane in pattern_detector(file)._lanes:
        for alone, tests in zip(lane.alones, lane.tests, strict=True):
            if tests is None:
                continue
            for text in TEXTS:
                for m in re.finditer(r"[0-9]+", text):
                    for p in range(m.start(), m.end()):
                        if alone.match(text, p):
                            after = text[m.end() : m.end() + 2]
                            key = (min(m.end() - p, gates.KMAX + 1), after[:1], after[1:])
                            assert digits.admits(tests, key), (alone.pattern, text[p : p + 20])
                            checked += 1
    if file in ("date", "clinical"):
        assert checked > 0


def test_run_tests_read_the_regex() -> None:
    tests = gates.run_tests(r"\b\d{1,2}/\d{1,2}\b", 0)
    assert tests is not None
    assert digits.admits(tests, (2, "/", "3")) and digits.admits(tests, (1, "/", "0"))
    assert not digits.admits(tests, (3, "/", "3")) and not digits.admits(tests, (2, "-", "3"))
    assert not digits.admits(tests, (2, "/", "x")) and not digits.admits(tests, (2, "/", ""))
    year = gates.run_tests(r"(?:19|20)\d\d(?![\d%])", 0)
    assert year is not None and year[3] == ""  # four digits or more, then anything
    assert not digits.admits(year, (3, " ", "a")) and digits.admits(year, (3, "\u0663", "a"))
    assert gates.run_tests(r"\d*", 0) is None  # a match may be empty


def test_end_of_text_in_run_tests() -> None:
    """``\\Z`` after a run or after the character ending it: "" (the end) in the run key."""
    regex = r"(?<=[a-z])\d{2,5}[ \t]*(?:\n|\Z)"
    end = gates.run_tests(regex, 0)
    assert end is not None
    assert digits.admits(end, (3, "", "")) and digits.admits(end, (3, " ", ""))
    assert digits.admits(end, (2, "\n", "x"))
    assert not digits.admits(end, (3, " ", "x")) and not digits.admits(end, (6, "", ""))
    anchor = re.compile(regex)
    for text in ("jdoe42", "ab12 \nx", "ab123456", "ab12 x", "q7 9", "ab12\t", "x1234 \t"):
        assert anchors.anchor_spans(anchor, text) == [m.span() for m in anchor.finditer(text)]


@pytest.mark.parametrize("file", FILES)
def test_anchor_spans_make_the_same_windows(file: str) -> None:
    for _, anchor, before, _ in pattern_detector(file)._anchored:
        for text in TEXTS:
            plain = [m.span() for m in anchor.finditer(text)]
            got = anchors.anchor_spans(anchor, text)
            assert WindowCursor.windows_at(text, got, before) == WindowCursor.windows_at(
                text, plain, before
            ), anchor.pattern


def test_split_tails_and_shapes() -> None:
    assert regex_shape.split_top(r"(?i:\bq\d|\b\d+x)") == [r"(?i:\bq\d)", r"(?i:\b\d+x)"]
    assert regex_shape.split_top(r"(?i:a(b|c))") == [r"(?i:a(b|c))"]
    tail = tails.split_tail(r"(?<![\w\-])(?P<CITY>[A-Z][a-z]+),[ \t]*(?P<ST>OH|MA)\b", 0)
    assert tail == tails.Tail(r",[ \t]*(?P<ST>OH|MA)\b", 0, r"(?<![\w\-])[A-Z][a-z]+")
    assert tails.split_tail(r"[A-Z][a-z]+\s+\d{5}", 0) is None  # a digit tail: not selective
    assert gates.no_line_break(r"[A-Z][a-z]+,[ \t]*[A-Z]") and not gates.no_line_break(r"a\sb")
    assert gates.max_breaks(r"[A-Z]\.\s?[A-Z]") == 1 and gates.max_breaks(r"a\s+b") is None


@pytest.mark.parametrize("file", FILES)
def test_notes_whose_lower_case_moves_offsets(file: str) -> None:
    """A note where lower-casing changes the length (dotted I) cannot use the word lane:
    the regex searchers give the same matches."""
    det = pattern_detector(file)
    for text in TEXTS[:3] + TEXTS[-40:]:
        odd = "\u0130 " + text
        got = [(a, b, label, p.name) for a, b, label, p in det.iter_matches(odd)]
        assert got == _reference(file, odd)


def test_tails_from_the_word_index_and_stops() -> None:
    """Tails led by words after a head that never ends with a letter come from the word
    index; a segment starts after the last character the head never takes. Checked on
    patterns made for it (and on every case text) against the plain regexes."""
    assert tails.ends_non_letter(r"[A-Z][a-z]+[ \t]+", 0)
    assert tails.ends_non_letter(r"(?:[A-Z][a-z]+[ \t]+){1,4}", 0)
    assert not tails.ends_non_letter(r"[A-Z][a-z]+[ \t]*", 0)  # may end with a letter
    assert not tails.ends_non_letter(r"(?:x|\d)", 0) and not tails.ends_non_letter(r"(?<=a)", 0)
    assert tails.ends_non_letter(r"(?i:[^a-z])", 0)
    tail = tails.split_tail(r"(?<![\w.])(?P<D>[A-Z][a-z]+),?[ ]+(?:MD|RN)\b", 0)
    assert tail is not None and tail.regex == r"(?:MD|RN)\b"  # two-letter words: a tail
    assert tails.split_tail(r"[A-Z][a-z]+(?:MD|RN)\b", 0) is None  # a letter before them
    stop = tails.stop_before(r"[A-Z][a-z]+,?[ ]+", 0)
    assert stop is not None
    found = stop.match("x: Jo Ann, ", 0, 11)
    assert found is not None and found.end() == 2
    assert tails.stop_before(r"(?s:.)+", 0) is None
    cap = r"[A-Z][a-z]+"
    rules = [
        ("fac", "HOSPITAL", rf"\b(?P<v>{cap}(?:[ \t]+{cap}){{0,2}}[ \t]+(?:Hospital|Clinic))\b"),
        ("cred", "DOCTOR", rf"(?<![\w.])(?P<DOCTOR>{cap}(?:[ ]{cap})?),?[ ]+(?:MD|RN|DO)\b"),
        ("glued", "HOSPITAL", r"\b[A-Z][a-z]+(?:Hospital|Clinic)\b"),
        ("wide", "HOSPITAL", r"\b(?P<v>[A-Z]\w+)[ ](?:Hospital|Clinic)\b"),
    ]
    det = PatternDetector(
        PatternFile(
            "t",
            "",
            tuple(
                Pattern("t", n, label, "test", rx, anchor=r"\b(?:Hospital|Clinic|MD|RN|DO)")
                for n, label, rx in rules
            ),
        ),
        VALIDATORS,
    )
    assert det._tail_words and all(t.stop is not None for t in det._tails.values())
    texts = [
        "Seen at Mercy General Hospital today; MercyHospital; Bo Clinic.",
        "Dr: Jane Doe, MD\nBob Ray RN and x.Al Roe DO; 3Al Bo MD, Ann  Lee, RN",
        "St Anne Hospital\nOak Clinic, Elm Tree Clinic 9Oak Clinic S\u00e9 Clinic",
        "\u0130 Mercy Hospital, Jo Bo, MD",  # lower case moves offsets: no word lane
        "\u212a Mercy Hospital, Jo Bo, MD",  # the Kelvin sign
    ]
    for text in texts + TEXTS:
        got = [(a, b, label, p.name) for a, b, label, p in det.iter_matches(text)]
        assert got == _reference("t", text, det), text[:60]


def test_a_built_pipeline_keeps_no_parse_trees() -> None:
    """The analyses' parse trees are dropped once the stages are built: kept, they were
    most of the objects the garbage collector walks (``registry.get_pipeline``)."""
    from phiscrub.detect import get_pipeline

    get_pipeline("rules")
    assert regex_shape.parse.cache_info().currsize == 0


def test_clinical_blocks_are_those_of_the_text_asked() -> None:
    """The one-note memo shared by the CRF filter and ``invalidate`` answers for the text
    asked, never for the one before."""
    from phiscrub.detect.resolve import clinical_blocks

    blocker = pattern_detector("clinical")
    texts = ["BP 120/80, GCS 15.", "Seen 3/4 at 0800.", "No number"]
    for text in [*texts, *texts]:
        expected = sorted((a, b) for a, b, _, _ in blocker.iter_matches(text))
        first = clinical_blocks(blocker, text)
        assert first == clinical_blocks(pattern_detector("clinical"), text)
        assert first == (expected, max((b - a for a, b in expected), default=0))
    assert clinical_blocks(blocker, texts[0])[0]  # a blood pressure and a score
