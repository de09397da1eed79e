"""BIO view of spans: hand cases, errors, and the span -> BIO -> span identity."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from phiscrub.errors import LabelError, SpanError, UsageError
from phiscrub.span import Span
from phiscrub.text import Token, bio_to_spans, spans_to_bio, tokenize

# (text, spans as (start, end, label), expected (token, tag) pairs)
BIO_CASES: list[tuple[str, list[tuple[int, int, str]], list[tuple[str, str]]]] = [
    (
        "Mr. Smith was seen",
        [(4, 9, "PATIENT")],
        [("Mr", "O"), (".", "O"), ("Smith", "B-PATIENT"), ("was", "O"), ("seen", "O")],
    ),
    (
        "Smith's wife",
        [(0, 5, "PATIENT")],
        [("Smith", "B-PATIENT"), ("'", "O"), ("s", "O"), ("wife", "O")],
    ),
    (
        "CABG6/95",
        [(4, 8, "DATE")],
        [("CABG", "O"), ("6", "B-DATE"), ("/", "I-DATE"), ("95", "I-DATE")],
    ),
    (
        "Since6/03/04",
        [(5, 12, "DATE")],
        [
            ("Since", "O"),
            ("6", "B-DATE"),
            ("/", "I-DATE"),
            ("03", "I-DATE"),
            ("/", "I-DATE"),
            ("04", "I-DATE"),
        ],
    ),
    # a boundary inside a token that the tokenizer keeps whole
    ("Johnson", [(0, 4, "PATIENT")], [("John", "B-PATIENT"), ("son", "O")]),
    (
        "Newton Hospital",
        [(0, 15, "HOSPITAL")],
        [("Newton", "B-HOSPITAL"), ("Hospital", "I-HOSPITAL")],
    ),
    # adjacent spans, same label: B then B
    (
        "JohnSmith",
        [(0, 4, "PATIENT"), (4, 9, "PATIENT")],
        [("John", "B-PATIENT"), ("Smith", "B-PATIENT")],
    ),
    (
        "Ann Lee",
        [(0, 3, "PATIENT"), (4, 7, "PATIENT")],
        [("Ann", "B-PATIENT"), ("Lee", "B-PATIENT")],
    ),
    (
        "Boston, MA 02114",
        [(0, 6, "CITY"), (8, 10, "STATE"), (11, 16, "ZIP")],
        [("Boston", "B-CITY"), (",", "O"), ("MA", "B-STATE"), ("02114", "B-ZIP")],
    ),
    (
        "seen\r\nby Dr.\tLOCATION-OTHER",
        [(13, 27, "LOCATION-OTHER")],
        [
            ("seen", "O"),
            ("by", "O"),
            ("Dr", "O"),
            (".", "O"),
            ("LOCATION", "B-LOCATION-OTHER"),
            ("-", "I-LOCATION-OTHER"),
            ("OTHER", "I-LOCATION-OTHER"),
        ],
    ),
    ("", [], []),
    ("  \n ", [], []),
]


def _spans(text: str, triples: list[tuple[int, int, str]]) -> list[Span]:
    return [Span.of(text, s, e, label) for s, e, label in triples]


@pytest.mark.parametrize(("text", "triples", "expected"), BIO_CASES)
def test_spans_to_bio(
    text: str, triples: list[tuple[int, int, str]], expected: list[tuple[str, str]]
) -> None:
    tokens, tags = spans_to_bio(text, _spans(text, triples))
    assert list(zip([t.text for t in tokens], tags, strict=True)) == expected


@pytest.mark.parametrize(("text", "triples", "expected"), BIO_CASES)
def test_round_trip_cases(
    text: str, triples: list[tuple[int, int, str]], expected: list[tuple[str, str]]
) -> None:
    spans = bio_to_spans(text, *spans_to_bio(text, _spans(text, triples)))
    assert [(s.start, s.end, s.label) for s in spans] == sorted(triples)
    assert all(s.source == "bio" and s.text == text[s.start : s.end] for s in spans)


def _decode(text: str, tags: list[str]) -> list[tuple[int, int, str]]:
    spans = bio_to_spans(text, tokenize(text), tags, source="crf")
    assert all(s.source == "crf" for s in spans)
    return [(s.start, s.end, s.label) for s in spans]


DECODE_CASES: list[tuple[str, list[str], list[tuple[int, int, str]]]] = [
    ("a b c", ["B-DATE", "I-DATE", "I-DATE"], [(0, 5, "DATE")]),
    ("a b c", ["I-DATE", "I-DATE", "O"], [(0, 3, "DATE")]),  # stray I is a B
    ("a b c", ["O", "I-DATE", "I-AGE"], [(2, 3, "DATE"), (4, 5, "AGE")]),  # label change
    ("a b c", ["B-DATE", "B-DATE", "I-DATE"], [(0, 1, "DATE"), (2, 5, "DATE")]),
    ("a b c", ["B-DATE", "O", "I-DATE"], [(0, 1, "DATE"), (4, 5, "DATE")]),
    ("a\r\n\tb", ["B-CITY", "I-CITY"], [(0, 5, "CITY")]),  # whitespace inside is kept
    ("a b", ["O", "O"], []),
    ("", [], []),
]


@pytest.mark.parametrize(("text", "tags", "expected"), DECODE_CASES)
def test_bio_to_spans(text: str, tags: list[str], expected: list[tuple[int, int, str]]) -> None:
    assert _decode(text, tags) == expected


def test_overlapping_spans_raise_with_offsets() -> None:
    text = "John Smith Jones"
    spans = [Span.of(text, 0, 10, "PATIENT"), Span.of(text, 5, 16, "DOCTOR")]
    with pytest.raises(SpanError, match=r"0-10.*5-16.*overlap"):
        spans_to_bio(text, spans)


def test_whitespace_only_span_raises() -> None:
    text = "a   b"
    with pytest.raises(SpanError, match=r"1-4.*no token"):
        spans_to_bio(text, [Span.of(text, 1, 4, "DATE")])


def test_span_not_matching_text_raises_without_text() -> None:
    span = Span(0, 5, "PATIENT", "Smith")
    with pytest.raises(SpanError) as info:
        spans_to_bio("Jones was seen", [span])
    assert "Smith" not in str(info.value) and "Jones" not in str(info.value)


@pytest.mark.parametrize("bad", ["X-DATE", "B-", "B", "DATE", "o", "BDATE"])
def test_malformed_tags_raise(bad: str) -> None:
    with pytest.raises(UsageError):
        bio_to_spans("a", tokenize("a"), [bad])


def test_unknown_label_raises() -> None:
    with pytest.raises(LabelError):
        bio_to_spans("a", tokenize("a"), ["B-NOTALABEL"])


def test_length_mismatch_raises() -> None:
    with pytest.raises(UsageError):
        bio_to_spans("a b", tokenize("a b"), ["O"])


def test_given_tokens_are_reused_and_split() -> None:
    text = "JohnSmith"
    tokens = [Token(0, 9, "JohnSmith")]
    out, tags = spans_to_bio(text, [Span.of(text, 0, 4, "PATIENT")], tokens)
    assert out == [Token(0, 4, "John"), Token(4, 9, "Smith")]
    assert tags == ["B-PATIENT", "O"]


LABELS = ["PATIENT", "DATE", "LOCATION-OTHER", "AGE"]
ALPHABET = "aAzZéÉ09 .,:/-'\n\r\t\u00a0Дд"


@st.composite
def text_and_spans(draw: st.DrawFn) -> tuple[str, list[tuple[int, int, str]]]:
    """A text and non-overlapping spans whose text neither starts nor ends with whitespace."""
    text = draw(st.text(alphabet=st.sampled_from(ALPHABET), max_size=50))
    cuts = sorted(set(draw(st.lists(st.integers(0, len(text)), max_size=12))))
    triples: list[tuple[int, int, str]] = []
    for start, end in pairwise(cuts):
        if draw(st.booleans()):
            continue
        piece = text[start:end]
        if not piece.strip() or piece != piece.strip():
            continue  # the stated precondition of the identity
        triples.append((start, end, draw(st.sampled_from(LABELS))))
    return text, triples


@given(text_and_spans())
def test_round_trip_identity(case: tuple[str, list[tuple[int, int, str]]]) -> None:
    text, triples = case
    tokens, tags = spans_to_bio(text, _spans(text, triples))
    assert len(tokens) == len(tags)
    spans = bio_to_spans(text, tokens, tags)
    assert [(s.start, s.end, s.label) for s in spans] == triples
