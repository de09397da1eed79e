from __future__ import annotations

import dataclasses

import pytest

from phiscrub.errors import LabelError, SpanError
from phiscrub.span import Document, Span

TEXT = "Pt John Smith seen 2/3/2069.\r\n\tJosé 🙂 Li"


def test_span_is_frozen_and_checks_itself() -> None:
    s = Span.of(TEXT, 3, 13, "PATIENT", source="rules:title")
    assert s.text == "John Smith" and s.category == "NAME"
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.start = 4  # type: ignore[misc]
    with pytest.raises(SpanError):
        Span(5, 5, "PATIENT", "")
    with pytest.raises(SpanError):
        Span(-1, 2, "PATIENT", "abc")
    with pytest.raises(SpanError):
        Span(0, 3, "PATIENT", "ab")  # text length must equal end - start
    with pytest.raises(LabelError):
        Span(0, 2, "NAME", "Pt")  # a category is not a label
    with pytest.raises(SpanError):
        Span(0, 2, "PATIENT", "Pt", score=1.5)
    with pytest.raises(SpanError):
        Span.of(TEXT, 30, 99, "PATIENT")


def test_offsets_count_code_points() -> None:
    # CRLF is two code points, the emoji one
    start = TEXT.index("José")
    s = Span.of(TEXT, start, start + 4, "PATIENT")
    assert s.text == "José"
    emoji = TEXT.index("🙂")
    assert Span.of(TEXT, emoji + 2, emoji + 4, "PATIENT").text == "Li"


def test_document_checks_layers_against_its_text() -> None:
    doc = Document("10-01", TEXT, "10")
    doc.set_layer("gold", [Span.of(TEXT, 3, 13, "PATIENT")])
    with pytest.raises(SpanError):
        doc.set_layer("bad", [Span(3, 13, "PATIENT", "Jane Smyth")])
    with pytest.raises(SpanError):
        doc.set_layer("bad", [Span(len(TEXT), len(TEXT) + 2, "PATIENT", "xx")])
    assert "bad" not in doc.layers
    assert doc.layer("missing") == ()


def test_document_text_and_ids_are_read_only() -> None:
    doc = Document("10-01", TEXT)
    assert doc.patient_id == "10-01"  # no patient: the note is its own patient
    with pytest.raises(AttributeError):
        doc.text = "changed"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        doc.id = "x"  # type: ignore[misc]


def test_metadata_is_write_once() -> None:
    doc = Document("10-01", TEXT, metadata={"source": "ehr"})
    doc.metadata["note_type"] = "discharge"
    with pytest.raises(KeyError):
        doc.metadata["source"] = "other"
    assert dict(doc.metadata) == {"source": "ehr", "note_type": "discharge"}


def test_with_layer_returns_a_copy() -> None:
    doc = Document("10-01", TEXT, "10")
    other = doc.with_layer("rules", [Span.of(TEXT, 3, 7, "PATIENT")])
    assert doc.layer("rules") == () and len(other.layer("rules")) == 1
    assert other.text is doc.text and other.patient_id == "10"


def test_layers_are_sorted() -> None:
    doc = Document("d", TEXT)
    a, b = Span.of(TEXT, 8, 13, "PATIENT"), Span.of(TEXT, 3, 7, "PATIENT")
    doc.set_layer("x", [a, b])
    assert doc.layer("x") == (b, a)


def test_errors_survive_pickling_with_their_hint_and_path() -> None:
    import pickle

    from phiscrub.errors import EncodingProblem, UsageError

    for error in (
        UsageError("bad flag", hint="use --x"),
        EncodingProblem("bad bytes", path="a.txt"),
    ):
        back = pickle.loads(pickle.dumps(error))
        assert type(back) is type(error)
        assert str(back) == str(error)
        assert (back.hint, back.path, back.code) == (error.hint, error.path, error.code)
