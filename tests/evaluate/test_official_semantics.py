"""Each semantic of the official i2b2 2014 scorer, pinned with hand-computed values.

The expected numbers below were worked out on paper from the scorer's rules (see the
docstring of phiscrub.evaluate.scoring), not produced by running our code.
"""

from __future__ import annotations

import pytest

from phiscrub.evaluate import measures
from phiscrub.evaluate.measures import Pair
from phiscrub.evaluate.report import align, build_report
from phiscrub.evaluate.scoring import Counts, relaxed_counts, strict_counts
from phiscrub.span import Document, Span

TEXT = "Jose Smith saw Dr. Ann Lee on 2069-04-05 at Mercy Hospital, MRN 1234567, age 91."


def sp(start: int, end: int, label: str, text: str = TEXT) -> Span:
    return Span.of(text, start, end, label)


def keys(*ends: int, start: int = 0) -> list[tuple[object, ...]]:
    return [("NAME", start, e, "PATIENT") for e in ends]


def test_strict_requires_same_offsets_and_type() -> None:
    gold = [("NAME", 0, 10, "PATIENT")]
    assert strict_counts(gold, [("NAME", 0, 10, "PATIENT")]) == Counts(1, 0, 0)
    assert strict_counts(gold, [("NAME", 0, 10, "DOCTOR")]) == Counts(0, 1, 1)
    assert strict_counts(gold, [("NAME", 0, 9, "PATIENT")]) == Counts(0, 1, 1)


def test_duplicate_tags_count_once() -> None:
    # the scorer puts tags in a set: a tag written twice is one tag, on either side
    assert strict_counts(keys(10, 10), keys(10)) == Counts(1, 0, 0)
    assert strict_counts(keys(10), keys(10, 10, 10)) == Counts(1, 0, 0)


def test_relaxed_allows_end_within_two_but_not_start() -> None:
    assert relaxed_counts(keys(10), keys(12)) == Counts(1, 0, 0)
    assert relaxed_counts(keys(10), keys(8)) == Counts(1, 0, 0)
    assert relaxed_counts(keys(10), keys(13)) == Counts(0, 1, 1)
    assert relaxed_counts(keys(10), keys(10, start=1)) == Counts(0, 1, 1)
    assert relaxed_counts([("NAME", 0, 10, "PATIENT")], [("NAME", 0, 10, "DOCTOR")]) == Counts(
        0, 1, 1
    )


def test_relaxed_set_keeps_first_of_near_duplicates() -> None:
    # gold ends 10, 12, 14: 12 is within 2 of 10 and is dropped, 14 is not within 2 of 10
    # and is kept -> gold set {10, 14}. pred {12} is the smaller set; 12 matches 10 -> tp 1.
    # fp: 12 matches something in gold -> 0. fn: 10 matches 12, 14 matches 12 -> 0.
    assert relaxed_counts(keys(10, 12, 14), keys(12)) == Counts(1, 0, 0)


def test_relaxed_intersection_iterates_the_smaller_set() -> None:
    # pred {8, 12} (4 apart: both kept) is larger than gold {10}; the intersection iterates
    # gold: 10 matches -> tp 1. Both predictions are within 2 of 10 -> fp 0. fn 0.
    assert relaxed_counts(keys(10), keys(8, 12)) == Counts(1, 0, 0)
    # sizes tie (1 and 1): the system set is iterated -> same count here
    assert relaxed_counts(keys(10), keys(11)) == Counts(1, 0, 0)
    # gold {8, 12} larger than pred {10}: iterate pred -> tp 1; fn: both gold match 10 -> 0
    assert relaxed_counts(keys(8, 12), keys(10)) == Counts(1, 0, 0)


def test_token_measure_uses_ascii_alphanumeric_runs() -> None:
    text = "Pt José Li went home."
    gold = (Span.of(text, 3, 10, "PATIENT"),)  # "José Li" -> tokens "Jos", "Li"
    pred = (Span.of(text, 3, 7, "PATIENT"),)  # "José" -> token "Jos"
    pair = Pair("d", text, gold, pred)
    assert measures.per_doc_counts([pair], "token") == [Counts(1, 0, 1)]
    # "é" is not a token at all: the official tokenizer is [a-zA-Z0-9]+
    pred2 = (Span.of(text, 6, 7, "PATIENT"),)
    assert measures.per_doc_counts([Pair("d", text, gold, pred2)], "token") == [Counts(0, 0, 2)]


def test_hipaa_leaves_out_idnum_and_non_hipaa_types() -> None:
    text = "Ann Lee 12345 Boston MA 55 Mercy"
    gold = (
        Span.of(text, 0, 7, "DOCTOR"),  # not HIPAA
        Span.of(text, 8, 13, "IDNUM"),  # not HIPAA in the scorer's source (README says it is)
        Span.of(text, 14, 20, "CITY"),  # HIPAA
        Span.of(text, 21, 23, "STATE"),  # not HIPAA
        Span.of(text, 24, 26, "AGE"),  # HIPAA
        Span.of(text, 27, 32, "HOSPITAL"),  # not HIPAA
    )
    report = build_report([Pair("d", text, gold, ())])
    assert report["strict"]["micro"]["fn"] == 6
    assert report["hipaa_strict"]["micro"]["fn"] == 2


def test_macro_scores_a_document_without_phi_as_zero() -> None:
    # doc a: perfect (P = R = 1); doc b: no gold, no prediction (P = R = 0 by the scorer's
    # zero-division rule). Macro P = R = 0.5, SD = 0.5 (population); macro F1 = 0.5.
    a = Pair("a", TEXT, (sp(0, 10, "PATIENT"),), (sp(0, 10, "PATIENT"),))
    b = Pair("b", "no phi here", (), ())
    strict = build_report([a, b])["strict"]
    assert strict["macro"] == pytest.approx(
        {"precision": 0.5, "recall": 0.5, "f1": 0.5, "precision_sd": 0.5, "recall_sd": 0.5}
    )
    assert strict["micro"]["f1"] == 1.0


def test_macro_hand_computed() -> None:
    # doc a: gold 2, pred 1 correct -> P 1, R .5; doc b: gold 1, pred 2 (1 correct) -> P .5, R 1
    # macro P = .75 (SD .25), macro R = .75 (SD .25), macro F1 = .75
    # micro: tp 2, fp 1, fn 1 -> P = R = F = 2/3
    a = Pair("a", TEXT, (sp(0, 10, "PATIENT"), sp(19, 26, "DOCTOR")), (sp(0, 10, "PATIENT"),))
    b = Pair("b", TEXT, (sp(30, 40, "DATE"),), (sp(30, 40, "DATE"), sp(78, 80, "AGE")))
    strict = build_report([a, b])["strict"]
    assert strict["macro"]["precision"] == pytest.approx(0.75)
    assert strict["macro"]["precision_sd"] == pytest.approx(0.25)
    assert strict["macro"]["recall"] == pytest.approx(0.75)
    assert strict["macro"]["f1"] == pytest.approx(0.75)
    assert strict["micro"]["f1"] == pytest.approx(2 / 3)


def test_document_missing_from_system_is_skipped_like_the_scorer() -> None:
    g1 = Document("1-01", TEXT, layers={"gold": [sp(0, 10, "PATIENT")]})
    g2 = Document("1-02", TEXT, layers={"gold": [sp(30, 40, "DATE")]})
    p1 = Document("1-01", TEXT, layers={"gold": [sp(0, 10, "PATIENT")]})
    pairs, info = align([g1, g2], [p1])
    assert info["scored"] == 1 and info["gold_only"] == ["1-02"]
    assert build_report(pairs, info)["strict"]["micro"]["recall"] == 1.0
    pairs, info = align([g1, g2], [p1], missing="empty")
    assert build_report(pairs, info)["strict"]["micro"]["recall"] == 0.5


def test_official_layout_prints_four_significant_digits() -> None:
    from phiscrub.evaluate.render import render_official

    a = Pair("a", TEXT, (sp(0, 10, "PATIENT"), sp(19, 26, "DOCTOR")), (sp(0, 10, "PATIENT"),))
    out = render_official(build_report([a], {"scored": 1}))
    lines = out.splitlines()
    assert lines[0].split() == ["Token", "(1)", "Measure", "Macro", "(SD)", "Micro", "(Primary)"]
    strict_at = next(i for i, line in enumerate(lines) if line.startswith("Strict (1)"))
    # precision 1.0, recall 0.5, F1 2 * (0.5 / 1.5) = 0.6667
    assert lines[strict_at + 2].split() == ["Total", "Precision", "1.0", "(0.0)", "1.0"]
    assert lines[strict_at + 3].split() == ["Recall", "0.5", "(0.0)", "0.5"]
    assert lines[strict_at + 4].split() == ["F1", "0.6667", "0.6667"]


def test_token_measure_adds_an_empty_token_for_a_tag_at_offset_zero() -> None:
    # the official tokenizer, asked to start at offset 0, prepends an empty (0, 0) token:
    # a spurious tag "Seen" at offset 0 costs two false positives (the empty token, "Seen")
    text = "Seen by Ann Lee."
    pred = (Span.of(text, 0, 4, "DOCTOR"),)
    gold = (Span.of(text, 8, 15, "DOCTOR"),)
    assert measures.per_doc_counts([Pair("d", text, gold, pred)], "token") == [Counts(0, 2, 2)]
    # and a correct tag at offset 0 earns two true positives
    gold0 = (Span.of(text, 0, 4, "DOCTOR"),)
    assert measures.per_doc_counts([Pair("d", text, gold0, pred)], "token") == [Counts(2, 0, 0)]
