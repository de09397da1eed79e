"""The fast searchers of ``phiscrub.detect.scan`` find exactly what the plain regexes find."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from phiscrub.detect import scan
from phiscrub.detect.registry import RULE_FILES, pattern_file

CASES = Path(__file__).parent / "cases"


def _texts() -> list[str]:
    out = [
        (CASES / name).read_text(encoding="utf-8")
        for name in ("negatives.txt", "negatives_heldout.txt")
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
