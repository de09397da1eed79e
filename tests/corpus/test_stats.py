"""``corpus stats`` on a tiny hand-made corpus whose figures were computed by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from phiscrub.cli import main
from phiscrub.corpus import corpus_stats
from phiscrub.io import write_corpus
from phiscrub.span import Document, Span

# Note 1-01: tokens Dr . Brown saw brown stool . (7); PHI: Brown (DOCTOR).
# Note 1-02: tokens Xqzt lives in Boston 02142 . (6); PHI: Xqzt, Boston, 02142.
TEXT_A = "Dr. Brown saw brown stool."
TEXT_B = "Xqzt lives in Boston 02142."


def _corpus() -> list[Document]:
    a = Document("1-01", TEXT_A, "1", layers={"gold": [Span.of(TEXT_A, 4, 9, "DOCTOR")]})
    b_spans = [
        Span.of(TEXT_B, 0, 4, "PATIENT"),
        Span.of(TEXT_B, 14, 20, "CITY"),
        Span.of(TEXT_B, 21, 26, "ZIP"),
    ]
    b = Document("1-02", TEXT_B, "1", layers={"gold": b_spans})
    return [a, b]


def test_counts() -> None:
    stats = corpus_stats(_corpus())
    assert (stats["notes"], stats["patients"], stats["tokens"], stats["phi_tokens"]) == (
        2,
        1,
        13,
        4,
    )
    assert stats["characters"] == len(TEXT_A) + len(TEXT_B)
    assert stats["spans"] == 4 and stats["spans_per_note"] == 2.0
    assert stats["subtypes"]["DOCTOR"] == 1 and stats["subtypes"]["ZIP"] == 1
    assert stats["subtypes"]["DATE"] == 0 and stats["subtypes_present"] == 4
    assert stats["categories"]["NAME"] == 2 and stats["categories"]["LOCATION"] == 2


def test_ambiguity() -> None:
    amb = corpus_stats(_corpus())["ambiguity"]
    # PHI word tokens: brown, xqzt, boston, 02142; only "brown" also occurs as non-PHI.
    assert (amb["phi_word_tokens"], amb["ambiguous_phi_tokens"], amb["phi_share"]) == (4, 1, 0.25)
    # non-PHI word tokens: dr, saw, brown, stool, lives, in; "brown" is also PHI.
    assert (amb["non_phi_word_tokens"], amb["ambiguous_non_phi_tokens"]) == (6, 1)
    assert amb["non_phi_share"] == round(1 / 6, 4)
    assert amb["by_label"]["DOCTOR"] == {"tokens": 1, "ambiguous": 1, "share": 1.0}


def test_out_of_vocabulary() -> None:
    oov = corpus_stats(_corpus())["oov"]
    # Brown is a census surname, Xqzt is in no list; Boston is in the city list.
    assert oov["name"] == {"tokens": 2, "oov": 1, "share": 0.5}
    assert oov["location"] == {"tokens": 1, "oov": 0, "share": 0.0}
    assert oov["by_label"]["PATIENT"]["oov"] == 1


def test_cli_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_corpus(_corpus(), tmp_path / "c", format="i2b2-2014")
    assert main(["corpus", "stats", str(tmp_path / "c"), "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["notes"] == 2 and stats["patients"] == 1 and stats["spans"] == 4
    assert main(["corpus", "stats", str(tmp_path / "c")]) == 0
    assert "NAME: DOCTOR" in capsys.readouterr().out
