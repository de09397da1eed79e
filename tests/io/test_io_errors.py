"""Bad input gives a clear error naming the file and the problem, never note text."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from io_cases import TARGETS, write_xml_2014

from phiscrub.errors import (
    EmptyInput,
    EncodingProblem,
    FormatError,
    LabelError,
    SpanError,
    UsageError,
)
from phiscrub.io import read_corpus, write_corpus
from phiscrub.span import Document, Span

NOTE = "Seen by Dr. Quill on 2067-05-03."
DATE_TAG = '<DATE id="P0" start="21" end="31" text="2067-05-03" TYPE="DATE" comment="" />\n'


def test_invalid_xml_names_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "100-01.xml"
    bad.write_text("<deIdi2b2>\n<TEXT>Seen</TEXT>\n<TAGS>\n</deIdi2b2>\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"invalid XML at line 4") as info:
        read_corpus(bad)
    assert info.value.path == str(bad)


def test_offsets_outside_the_text(tmp_path: Path) -> None:
    tag = '<DATE id="P7" start="21" end="99" text="2067-05-03" TYPE="DATE" comment="" />\n'
    bad = write_xml_2014(tmp_path / "100-01.xml", NOTE, tag)
    with pytest.raises(SpanError, match=r"tag P7 \(offsets 21-99\).*outside the text"):
        read_corpus(bad)


def test_tag_text_that_does_not_match_the_offsets(tmp_path: Path) -> None:
    tag = '<NAME id="P3" start="8" end="16" text="Dr. Oak" TYPE="DOCTOR" comment="" />\n'
    bad = write_xml_2014(tmp_path / "100-01.xml", NOTE, tag)
    with pytest.raises(SpanError, match=r"tag P3 \(offsets 8-16\).*does not match") as info:
        read_corpus(bad)
    assert "Quill" not in str(info.value) and "Oak" not in str(info.value)


def test_unknown_label(tmp_path: Path) -> None:
    tag = '<DATE id="P0" start="21" end="31" text="2067-05-03" TYPE="BIRTHDAY" comment="" />\n'
    bad = write_xml_2014(tmp_path / "100-01.xml", NOTE, tag)
    with pytest.raises(LabelError, match=r"tag P0 \(offsets 21-31\).*'BIRTHDAY'"):
        read_corpus(bad)


def test_type_of_another_category(tmp_path: Path) -> None:
    tag = '<NAME id="P0" start="21" end="31" text="2067-05-03" TYPE="DATE" comment="" />\n'
    bad = write_xml_2014(tmp_path / "100-01.xml", NOTE, tag)
    with pytest.raises(LabelError, match=r"TYPE DATE belongs to DATE, not to the element <NAME>"):
        read_corpus(bad)


def test_undecodable_bytes_name_the_offset(tmp_path: Path) -> None:
    bad = tmp_path / "legacy.txt"
    bad.write_bytes(b"Caf\xe9 au lait\n")
    with pytest.raises(EncodingProblem, match=r"offset 3 .*utf-8") as info:
        read_corpus(bad)
    assert "--encoding" in str(info.value) and info.value.code == "E202"


def test_undecodable_jsonl_line_names_the_file_offset(tmp_path: Path) -> None:
    bad = tmp_path / "c.jsonl"
    bad.write_bytes(b'{"id": "1", "text": "ok"}\n{"id": "2", "text": "caf\xe9"}\n')
    with pytest.raises(EncodingProblem, match=r"offset 50 "):
        read_corpus(bad)


def test_cp1252_reads_a_legacy_file(tmp_path: Path) -> None:
    legacy = tmp_path / "100-02.xml"
    text = "Seen by Dr. Müller, café\r\n"
    body = (
        '<?xml version="1.0" encoding="UTF-8" ?>\n<deIdi2b2><TEXT><![CDATA['
        + text.replace("\r", "]]>&#13;<![CDATA[")
        + ']]></TEXT><TAGS><NAME id="P0" start="12" end="18" text="Müller" TYPE="DOCTOR" />'
        "</TAGS></deIdi2b2>"
    )
    legacy.write_bytes(body.encode("cp1252"))
    (doc,) = read_corpus(legacy, encoding="cp1252").documents
    assert doc.text == text and doc.gold[0].text == "Müller"


@pytest.mark.parametrize("name", ["empty.xml", "empty.txt", "empty.jsonl", "empty.csv"])
def test_empty_file(tmp_path: Path, name: str) -> None:
    bad = tmp_path / name
    bad.write_bytes(b"")
    fmt = {"xml": "i2b2-2014", "txt": "text", "jsonl": "jsonl", "csv": "csv"}[name.split(".")[1]]
    with pytest.raises(EmptyInput):
        read_corpus(bad, format=fmt)


def test_blank_jsonl_is_empty(tmp_path: Path) -> None:
    bad = tmp_path / "c.jsonl"
    bad.write_text("\n\n", encoding="utf-8")
    with pytest.raises(EmptyInput, match="no document"):
        read_corpus(bad)


def test_discontinuous_brat_span(tmp_path: Path) -> None:
    (tmp_path / "n.txt").write_text(NOTE, encoding="utf-8")
    (tmp_path / "n.ann").write_text("T1\tDOCTOR 8 11;12 17\tDr. Quill\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"n\.ann: line 1: discontinuous spans .* not supported"):
        read_corpus(tmp_path / "n.txt")


def test_brat_ignores_other_annotation_kinds(tmp_path: Path) -> None:
    (tmp_path / "n.txt").write_text(NOTE, encoding="utf-8")
    (tmp_path / "n.ann").write_text(
        "T1\tDOCTOR 12 17\tQuill\r\n#1\tAnnotatorNotes T1\tfictional\r\nR1\tRel Arg1:T1 Arg2:T1\r\n"
        "A1\tNegated T1\r\n\r\n",
        encoding="utf-8",
    )
    (doc,) = read_corpus(tmp_path).documents
    assert [(s.label, s.text) for s in doc.gold] == [("DOCTOR", "Quill")]


def test_brat_text_mismatch(tmp_path: Path) -> None:
    (tmp_path / "n.txt").write_text(NOTE, encoding="utf-8")
    (tmp_path / "n.ann").write_text("T1\tDOCTOR 12 17\tQuilt\n", encoding="utf-8")
    with pytest.raises(SpanError, match=r"line 1 \(T1\) \(offsets 12-17\)"):
        read_corpus(tmp_path / "n.ann")


def test_jsonl_span_text_mismatch_names_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "c.jsonl"
    bad.write_text(
        '{"id": "1", "text": "ok"}\n\n'
        '{"id": "2", "text": "Dr. Quill", "spans": [{"start": 4, "end": 9, "label": "DOCTOR", '
        '"text": "Quilt"}]}\n',
        encoding="utf-8",
    )
    with pytest.raises(SpanError, match=r"c\.jsonl:3, span 1 \(offsets 4-9\): the annotated text"):
        read_corpus(bad)


def test_bad_json_names_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "c.jsonl"
    bad.write_text('{"id": "1", "text": "ok"}\n{"id": "2", "text": \n', encoding="utf-8")
    with pytest.raises(FormatError, match=r"line 2: invalid JSON"):
        read_corpus(bad)


def test_missing_csv_column_names_the_columns_found(tmp_path: Path) -> None:
    bad = tmp_path / "c.csv"
    bad.write_text("note_id,body\n1,hello\n", encoding="utf-8")
    with pytest.raises(
        FormatError, match=r"missing column\(s\) id, text; the columns are note_id, body"
    ):
        read_corpus(bad)


def test_missing_parquet_column(tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    bad = tmp_path / "c.parquet"
    pq.write_table(pa.table({"id": ["1"], "body": ["x"]}), bad)
    with pytest.raises(FormatError, match=r"missing column\(s\) text"):
        read_corpus(bad)


def test_duplicate_id_in_a_file(tmp_path: Path) -> None:
    bad = tmp_path / "c.jsonl"
    bad.write_text('{"id": "1", "text": "a"}\n{"id": "1", "text": "b"}\n', encoding="utf-8")
    with pytest.raises(FormatError, match=r"document id '1' occurs twice"):
        read_corpus(bad)


def test_duplicate_id_across_a_folder(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_text('{"id": "1", "text": "a"}\n', encoding="utf-8")
    (tmp_path / "b.jsonl").write_text('{"id": "1", "text": "b"}\n', encoding="utf-8")
    with pytest.raises(FormatError, match="occurs twice"):
        read_corpus(tmp_path)


def test_duplicate_id_on_writing(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="occurs twice"):
        write_corpus([Document("1", "a"), Document("1", "b")], tmp_path / "o.jsonl", format="jsonl")


def test_folder_with_one_bad_file(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    write_xml_2014(tmp_path / "100-01.xml", NOTE, DATE_TAG)
    write_xml_2014(tmp_path / "100-02.xml", NOTE, "")
    bad = write_xml_2014(tmp_path / "100-03.xml", NOTE, DATE_TAG.replace('end="31"', 'end="30"'))
    with caplog.at_level(logging.WARNING, logger="phiscrub.io"):
        corpus = read_corpus(tmp_path)
    assert [d.id for d in corpus.documents] == ["100-01", "100-02"]
    assert [(where, err.code) for where, err in corpus.skipped] == [(str(bad), "E101")]
    assert str(bad) in caplog.text and "E101" in caplog.text
    assert "2067" not in caplog.text and "Quill" not in caplog.text


def test_folder_without_a_readable_document(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_bytes(b"")
    with pytest.raises(EmptyInput):
        read_corpus(tmp_path, format="text")


def test_xml_cannot_carry_a_form_feed(tmp_path: Path) -> None:
    doc = Document("300-01", "page one\x0cpage two", "300")
    with pytest.raises(FormatError, match=r"document 300-01: character U\+000C at offset 8"):
        write_corpus([doc], tmp_path, format="i2b2-2014")
    with pytest.raises(FormatError, match=r"U\+000C at offset 8"):
        write_corpus([doc], tmp_path / "o.xml", format="i2b2-2006")
    assert not (tmp_path / "o.xml").exists()


def test_i2b2_2006_refuses_labels_without_a_2006_type(tmp_path: Path) -> None:
    text = "Works as a welder. OTHER"
    spans = [Span.of(text, 10, 16, "PROFESSION"), Span.of(text, 19, 24, "OTHER")]
    doc = Document("1", text, layers={"gold": spans})
    with pytest.raises(FormatError, match=r"labels without an i2b2 2006 type: OTHER, PROFESSION"):
        write_corpus([doc], tmp_path / "o.xml", format="i2b2-2006")


@pytest.mark.parametrize("fmt", ["i2b2-2014", "brat", "text", "i2b2-2006"])
def test_patient_that_the_file_name_cannot_hold(tmp_path: Path, fmt: str) -> None:
    with pytest.raises(FormatError, match="does not name patient 'P9'"):
        write_corpus([Document("note", "x", "P9")], tmp_path / TARGETS[fmt], format=fmt)


def test_unknown_format_and_encoding(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("x", encoding="utf-8")
    with pytest.raises(UsageError, match="unknown format"):
        read_corpus(tmp_path, format="docx")
    with pytest.raises(UsageError, match="unknown encoding"):
        read_corpus(tmp_path, encoding="no-such-codec")


def test_xml_with_a_doctype_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "a.xml"
    bad.write_text(
        '<!DOCTYPE deIdi2b2 [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        "<deIdi2b2><TEXT>&x;</TEXT><TAGS/></deIdi2b2>",
        encoding="utf-8",
    )
    with pytest.raises(FormatError, match="DOCTYPE"):
        read_corpus(bad, format="i2b2-2014")


def test_xml_error_does_not_quote_the_note(tmp_path: Path) -> None:
    bad = tmp_path / "r.xml"
    bad.write_text(
        "<ROOT><RECORD ID='1'><TEXT>x <Quill> y</TEXT></RECORD></ROOT>", encoding="utf-8"
    )
    with pytest.raises(FormatError, match="invalid XML at line 1") as info:
        read_corpus(bad, format="i2b2-2006")
    assert "Quill" not in str(info.value)
