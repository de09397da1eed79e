"""Our own measures: error taxonomy, token confusion, 8/9-way F, leak rate, per label."""

from __future__ import annotations

import pytest

from phiscrub.evaluate import measures
from phiscrub.evaluate.measures import Pair
from phiscrub.evaluate.report import build_report
from phiscrub.span import Span

TEXT = "Seen 5 August 2060 by Ann Lee at Mercy Hospital in Boston."
#       0    5         15   20 22  26 29 33              48 51


def sp(start: int, end: int, label: str) -> Span:
    return Span.of(TEXT, start, end, label)


DATE = sp(5, 18, "DATE")  # "5 August 2060"
DOC = sp(22, 29, "DOCTOR")  # "Ann Lee"
HOSP = sp(33, 47, "HOSPITAL")  # "Mercy Hospital"
CITY = sp(51, 57, "CITY")  # "Boston"


def test_spans_cover_the_expected_words() -> None:
    assert [DATE.text, DOC.text, HOSP.text, CITY.text] == [
        "5 August 2060",
        "Ann Lee",
        "Mercy Hospital",
        "Boston",
    ]


def test_error_taxonomy() -> None:
    pred = (
        sp(7, 18, "DATE"),  # "August 2060": short
        sp(22, 29, "PATIENT"),  # same offsets, other type: type error
        sp(30, 47, "HOSPITAL"),  # "at Mercy Hospital": long
        sp(0, 4, "DATE"),  # "Seen": spurious
    )  # CITY: missing
    errors = measures.errors([Pair("d", TEXT, (DATE, DOC, HOSP, CITY), pred)])
    assert errors["type"] == {"DOCTOR": {"PATIENT": 1}}
    assert errors["extent"] == {"DATE": {"short": 1}, "HOSPITAL": {"long": 1}}
    assert errors["missing"] == {"CITY": 1}
    assert errors["spurious"] == {"DATE": 1}
    assert errors["totals"] == {"type": 1, "extent": 2, "missing": 1, "spurious": 1}


def test_short_and_long_extent() -> None:
    pred = (sp(3, 12, "DATE"),)  # "en 5 Augu": starts before, ends inside
    errors = measures.errors([Pair("d", TEXT, (DATE,), pred)])
    assert errors["extent"] == {"DATE": {"short_and_long": 1}}


def test_token_confusion_and_nway() -> None:
    # tokens: Seen 5 August 2060 by Ann Lee at Mercy Hospital in Boston = 12 tokens
    pred = (sp(22, 29, "PATIENT"), sp(5, 18, "DATE"))
    matrix = measures.confusion([Pair("d", TEXT, (DATE, DOC, HOSP, CITY), pred)])
    assert matrix["DATE"] == {"DATE": 3}
    assert matrix["DOCTOR"] == {"PATIENT": 2}
    assert matrix["HOSPITAL"] == {"O": 2}
    assert matrix["CITY"] == {"O": 1}
    assert matrix["O"] == {"O": 4}
    nway = measures.n_way(matrix)
    # 8-way (2006 classes; CITY -> LOCATION): tp 3 (dates), pred PHI 5, gold PHI 8
    assert nway["8way"]["precision"] == pytest.approx(3 / 5)
    assert nway["8way"]["recall"] == pytest.approx(3 / 8)
    # 9-way: accuracy = (3 + 4) / 12
    assert nway["9way"]["f1"] == pytest.approx(7 / 12)


def test_tokens_split_at_span_boundaries_inside_a_word() -> None:
    text = "CABG6/95"
    gold = (Span.of(text, 4, 8, "DATE"),)
    pair = Pair("d", text, gold, ())
    assert measures.labelled_tokens(pair) == [("O", "O"), ("DATE", "O"), ("DATE", "O")]


def test_leak_rate_counts_uncovered_letters_and_digits() -> None:
    # gold PHI alnum chars: "5August2060" 11 + "AnnLee" 6 = 17; prediction covers "Ann" only
    pred = (sp(22, 25, "PATIENT"),)
    leak = measures.leak([Pair("d", TEXT, (DATE, DOC), pred)])
    assert leak == {"rate": pytest.approx(14 / 17), "leaked_chars": 14, "phi_chars": 17}


def test_leak_counts_overlapping_gold_characters_once() -> None:
    leak = measures.leak([Pair("d", TEXT, (DOC, sp(22, 25, "DOCTOR")), ())])
    assert leak["phi_chars"] == 6


def test_per_label_table() -> None:
    pred = (sp(5, 18, "DATE"), sp(22, 29, "PATIENT"))
    table = build_report([Pair("d", TEXT, (DATE, DOC), pred)])["per_label"]
    assert table["DATE"]["f1"] == 1.0
    assert table["DOCTOR"]["recall"] == 0.0
    assert table["DOCTOR"]["token_recall_any_label"] == 1.0  # covered, under another label
    assert table["PATIENT"]["precision"] == 0.0
