"""The fast searchers of ``phiscrub.detect.scan`` find exactly what the plain regexes find."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from phiscrub.detect import lanes, scan
from phiscrub.detect.patterns import PatternDetector, _hits
from phiscrub.detect.registry import RULE_FILES, pattern_detector, pattern_file

CASES = Path(__file__).parent / "cases"


def _texts() -> list[str]:
    out = [
        (CASES / name).read_text(encoding="utf-8")
        for name in (
            "negatives.txt",
            "negatives_heldout.txt",
            "negatives_roles.txt",
            "negatives_places.txt",
        )
    ]
    for path in sorted(CASES.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        out.extend(c["text"] for c in data.get("cases", []))
    return out


TEXTS = _texts()


def _plain(regex: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    out, pos = [], 0
    while (m := regex.search(text, pos)) is not None:
        out.append(m.span())
        pos = m.start() + 1
    return out


def _fast(s: scan.Searcher, text: str) -> list[tuple[int, int]]:
    cur = s.cursor(text, text.lower())
    out: list[tuple[int, int]] = []
    pos = 0
    while cur is not None and (found := cur.find(pos)) is not None:
        out.append((found[0], found[1]))
        pos = found[0] + 1
    return out


@pytest.mark.parametrize("file", [*RULE_FILES, "clinical", "baseline"])
def test_searchers_equal_plain_regex(file: str) -> None:
    for pat in pattern_file(file).patterns:
        alts = scan.split_top(pat.regex)
        for alt, s in zip(alts, scan.searchers(pat.regex, pat.flags), strict=True):
            plain = re.compile(f"(?{pat.flags}:{alt})" if pat.flags else alt)
            for text in TEXTS:
                assert _fast(s, text) == _plain(plain, text), (pat.name, s.kind)


def test_split_and_strip() -> None:
    assert scan.split_top(r"a(b|c)|[|]d|\|e") == ["a(b|c)", "[|]d", r"\|e"]
    assert scan.strip_lead(r"\b(?<![\d/])12") == (r"\b(?<![\d/])", "12")
    assert scan.first_set(r"\b[01]?\d") == frozenset("0123456789")
    assert scan.first_set(r"\w+") is None
    assert scan.start_strings(r"\b(?:Dr|DR)\.?\s") == frozenset({"Dr", "DR"})
    assert scan.start_strings(r"(?i:mrn)\d") == frozenset({"mrn"})
    assert scan.needs(r"\d+\s*(?:tablet|capsule)") == frozenset({"tablet", "capsule"})


def test_every_kind_is_used() -> None:
    kinds = {
        s.kind
        for file in (*RULE_FILES, "clinical")
        for pat in pattern_file(file).patterns
        for s in scan.searchers(pat.regex, pat.flags)
    }
    assert {"trigger", "prefix", "first"} <= kinds


def _reference(
    file: str, text: str, det: PatternDetector | None = None
) -> list[tuple[int, int, str, str]]:
    """One alternation of the file's plain regexes, leftmost first, earlier pattern winning a
    tie, a match failing its hooks giving way to the next one: what the lanes must return.
    ``det``: another detector than the file's (its patterns)."""
    det = det if det is not None else pattern_detector(file)
    cands: list[tuple[int, int, re.Match[str], int]] = []
    order = 0
    for k, comp in enumerate(det._order):
        pat = comp.pattern
        for alt in scan.split_top(pat.regex) if "x" not in pat.flags else [pat.regex]:
            rx = re.compile(f"(?{pat.flags}:{alt})" if pat.flags else alt)
            pos = 0
            while (m := rx.search(text, pos)) is not None:
                cands.append((m.start(), order, m, k))
                pos = m.start() + 1
            order += 1
    cands.sort(key=lambda c: (c[0], c[1]))
    out: list[tuple[int, int, str, str]] = []
    pos = 0
    for start, _, m, k in cands:
        if start < pos:
            continue
        hits = _hits(det._order[k], m, start, m.end(), text)
        if hits:
            out.extend((a, b, label, p.name) for a, b, label, p in hits)
            pos = max(m.end(), start + 1)
    return out


@pytest.mark.parametrize("file", [*RULE_FILES, "clinical"])
def test_lanes_equal_one_plain_alternation(file: str) -> None:
    det = pattern_detector(file)
    for text in TEXTS:
        got = [(a, b, label, p.name) for a, b, label, p in det.iter_matches(text)]
        assert got == _reference(file, text)


def test_lanes_are_used() -> None:
    det = pattern_detector("date")
    assert det._lanes and det._word_full
    assert lanes.at_word(r"(?i:\b(?:pain|score))")
    assert not lanes.at_word(r"(?:\bfoo|bar)")
    # after a look-behind: one that takes every ASCII letter, or that ends with a non-letter
    assert lanes.at_word(r"(?<![A-Za-z])Foo") and lanes.at_word(r"(?i:(?<![a-z])foo)")
    assert not lanes.at_word(r"(?<![a-z])Foo")  # "XFoo": F starts no letter run
    assert lanes.at_word(r"(?<=Fri/)Sat\b") and lanes.at_word(r"(?<=(?:Mon|Tue)-)Sun")
    assert not lanes.at_word(r"(?<=a)Sat") and not lanes.at_word(r"(?<=Fri/x)Sat")
    assert lanes.word_starts(r"\b(?:K|Na)\s*\d", 0) == (frozenset({"K", "Na"}), False, True)
    assert lanes.word_starts(r"\bP(?:ager)?\s*\d", 0) == (frozenset({"P", "Pager"}), False, True)
    assert lanes.word_starts(r"\bMRN", 0) == (frozenset({"MRN"}), False, False)
