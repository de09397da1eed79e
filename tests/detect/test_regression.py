"""Regression cases per category (data in cases/*.json), in the style of deduce's tests.

A case is text plus the exact spans the ``rules`` pipeline must return (surface text and
label; offsets are found in the text). ``cases/known_failures.json`` lists the ids that
fail today: a listed case that starts passing fails the test (remove it from the list),
and an unlisted case that starts failing fails the test (a regression).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from phiscrub.detect import get_pipeline
from phiscrub.span import Document

CASES = Path(__file__).parent / "cases"
KNOWN_FAILURES: set[str] = set(json.loads((CASES / "known_failures.json").read_text())["ids"])


def _cases() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for path in sorted(CASES.glob("*.json")):
        if path.name == "known_failures.json":
            continue
        out.extend(json.loads(path.read_text(encoding="utf-8"))["cases"])
    return out


ALL = _cases()


def _expected(text: str, pairs: list[list[str]]) -> set[tuple[int, int, str]]:
    out: set[tuple[int, int, str]] = set()
    pos = 0
    for surface, label in pairs:
        start = text.index(surface, pos if text.find(surface, pos) >= 0 else 0)
        out.add((start, start + len(surface), label))
        pos = start + len(surface)
    return out


def _passes(case: dict[str, Any]) -> bool:
    doc = Document(case["id"], case["text"])
    got = {(s.start, s.end, s.label) for s in get_pipeline("rules").run(doc)}
    return got == _expected(case["text"], case["expected"])


def test_case_ids_unique() -> None:
    ids = [c["id"] for c in ALL]
    assert len(ids) == len(set(ids))
    assert set(ids) >= KNOWN_FAILURES, KNOWN_FAILURES - set(ids)


@pytest.mark.parametrize("case", ALL, ids=[c["id"] for c in ALL])
def test_case(case: dict[str, Any]) -> None:
    passed = _passes(case)
    if case["id"] in KNOWN_FAILURES:
        assert not passed, f"{case['id']} now passes: remove it from known_failures.json"
    else:
        assert passed, f"{case['id']} regressed"
