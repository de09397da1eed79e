"""Every format gives back exactly what it was given: ids, patients, text, spans."""

from __future__ import annotations

from pathlib import Path

import pytest
from io_cases import TARGETS, TRICKY, span, summary, tricky_docs, write_xml_2014

from phiscrub.io import FORMATS, detect_format, iter_documents, read_corpus, write_corpus
from phiscrub.span import Document


@pytest.mark.parametrize("fmt", FORMATS)
def test_round_trip_is_exact(tmp_path: Path, fmt: str) -> None:
    docs = tricky_docs(labels_2006=fmt == "i2b2-2006")
    if fmt == "text":  # plain text holds no spans
        docs = [Document(d.id, d.text, d.patient_id) for d in docs]
    target = tmp_path / TARGETS[fmt]
    write_corpus(docs, target, format=fmt)
    corpus = read_corpus(target, format=fmt)
    assert corpus.skipped == []
    got = sorted(summary(d) for d in corpus.documents)
    assert got == sorted(summary(d) for d in docs)
    assert detect_format(target) == fmt


@pytest.mark.parametrize("fmt", FORMATS)
def test_writers_write_the_named_layer(tmp_path: Path, fmt: str) -> None:
    date = span(TRICKY, "2067-05-03", "DATE")
    doc = Document("200-01", TRICKY, "200", layers={"gold": [], "final": [date]})
    target = tmp_path / TARGETS[fmt]
    write_corpus([doc], target, format=fmt, layer="final")
    (back,) = read_corpus(target, format=fmt).documents
    expected = [] if fmt == "text" else [date.to_dict()]
    assert [s.to_dict() for s in back.gold] == expected


def test_i2b2_2014_writes_cdata_around_cr_and_the_cdata_end(tmp_path: Path) -> None:
    write_corpus(tricky_docs()[:1], tmp_path, format="i2b2-2014")
    raw = (tmp_path / "110-01.xml").read_text(encoding="utf-8")
    assert "\r" not in raw
    assert "]]]]><![CDATA[>" in raw
    assert "]]>&#13;<![CDATA[" in raw
    assert '<NAME id="P0"' in raw and 'TYPE="PATIENT"' in raw


def test_i2b2_2014_file_name_gives_the_patient(tmp_path: Path) -> None:
    write_corpus(tricky_docs()[:1], tmp_path, format="i2b2-2014")
    (doc,) = read_corpus(tmp_path / "110-01.xml").documents
    assert (doc.id, doc.patient_id) == ("110-01", "110")


def test_jsonl_streams_one_document_per_line(tmp_path: Path) -> None:
    target = tmp_path / "c.jsonl"
    write_corpus(tricky_docs(), target, format="jsonl")
    lines = target.read_text(encoding="utf-8").split("\n")
    assert len(lines) == 3 and lines[-1] == ""
    assert "中文" in lines[0]  # ensure_ascii=False
    stream = iter_documents(target)
    assert next(stream).id == "110-01"


def test_csv_quoted_newlines_and_crlf_survive(tmp_path: Path) -> None:
    target = tmp_path / "c.csv"
    text = 'a "quoted" cell,\r\nwith\nnewlines\rand\r\n\r\nblank lines\r\n'
    write_corpus([Document("1", text)], target, format="csv")
    assert read_corpus(target).documents[0].text == text


def test_csv_with_configured_columns(tmp_path: Path) -> None:
    target = tmp_path / "c.csv"
    target.write_text('note_id,mrn,body\n007,P1,"two\r\nlines"\n', encoding="utf-8", newline="")
    corpus = read_corpus(target, id_column="note_id", text_column="body", patient_column="mrn")
    (doc,) = corpus.documents
    assert (doc.id, doc.patient_id, doc.text) == ("007", "P1", "two\r\nlines")


def test_folder_of_text_files(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_bytes(b"one\r\n")
    (tmp_path / "b.txt").write_bytes("deux é\r".encode())
    corpus = read_corpus(tmp_path)
    assert [(d.id, d.text) for d in corpus.documents] == [("a", "one\r\n"), ("b", "deux é\r")]


def test_cp1252_encoding_round_trips(tmp_path: Path) -> None:
    doc = Document(
        "9", "Café\r\nMüller", layers={"gold": [span("Café\r\nMüller", "Müller", "PATIENT")]}
    )
    for fmt in ("jsonl", "brat", "i2b2-2014", "csv"):
        target = tmp_path / TARGETS[fmt]
        write_corpus([doc], target, format=fmt, encoding="cp1252")
        (back,) = read_corpus(target, format=fmt, encoding="cp1252").documents
        assert summary(back) == summary(doc), fmt


def test_labels_scheme_maps_and_drops(tmp_path: Path) -> None:
    target = tmp_path / "p.jsonl"
    target.write_text(
        '{"id": "1", "text": "Ann Lee is Dutch", "spans": ['
        '{"start": 0, "end": 7, "label": "PERSON"}, {"start": 11, "end": 16, "label": "NRP"}]}\n',
        encoding="utf-8",
    )
    (doc,) = read_corpus(target, labels="presidio").documents
    assert [(s.label, s.text) for s in doc.gold] == [("PATIENT", "Ann Lee")]


def test_i2b2_2006_reads_inline_phi(tmp_path: Path) -> None:
    target = tmp_path / "r.xml"
    target.write_text(
        '<ROOT><RECORD ID="12"><TEXT>\nSeen by <PHI TYPE="DOCTOR">Dr. Oak</PHI> at '
        '<PHI TYPE="LOCATION">Elm Town</PHI> &amp; home.\n</TEXT></RECORD></ROOT>',
        encoding="utf-8",
    )
    (doc,) = read_corpus(target).documents
    assert doc.text == "\nSeen by Dr. Oak at Elm Town & home.\n"
    assert [(s.label, s.text, s.start) for s in doc.gold] == [
        ("DOCTOR", "Dr. Oak", 9),
        ("LOCATION-OTHER", "Elm Town", 20),
    ]


def test_i2b2_2014_literal_line_break_in_a_text_attribute(tmp_path: Path) -> None:
    """A parser turns a literal newline in an attribute into a space; that is still a match."""
    note = "Lives at 12 Elm St\nSpringfield."
    tag = '<LOCATION id="P0" start="9" end="30" text="12 Elm St\nSpringfield" TYPE="STREET" />\n'
    path = write_xml_2014(tmp_path / "7-1.xml", note, tag)
    (doc,) = read_corpus(path).documents
    assert doc.gold[0].text == "12 Elm St\nSpringfield"
    assert doc.patient_id == "7"


def test_i2b2_2014_without_tags_has_no_spans(tmp_path: Path) -> None:
    path = tmp_path / "a.xml"
    path.write_text("<deIdi2b2><TEXT><![CDATA[note]]></TEXT></deIdi2b2>", encoding="utf-8")
    (doc,) = read_corpus(path).documents
    assert (doc.id, doc.text, doc.gold) == ("a", "note", ())
