"""Format detection by extension and by content, for files and folders."""

from __future__ import annotations

from pathlib import Path

import pytest
from io_cases import TARGETS, tricky_docs, write_xml_2014

from phiscrub.errors import FormatError
from phiscrub.io import FORMATS, detect_format, read_corpus, write_corpus

RECORDS = '<ROOT>\n<RECORD ID="1"><TEXT>Seen <PHI TYPE="DATE">5/3</PHI>.</TEXT></RECORD>\n</ROOT>\n'


@pytest.mark.parametrize("fmt", FORMATS)
def test_written_corpus_is_detected(tmp_path: Path, fmt: str) -> None:
    target = tmp_path / TARGETS[fmt]
    write_corpus(tricky_docs(labels_2006=True), target, format=fmt)
    assert detect_format(target) == fmt


def test_single_files_by_extension(tmp_path: Path) -> None:
    write_corpus(tricky_docs(), tmp_path / "b", format="brat")
    write_corpus(tricky_docs(), tmp_path / "t", format="text")
    assert detect_format(tmp_path / "b" / "110-01.txt") == "brat"
    assert detect_format(tmp_path / "b" / "110-01.ann") == "brat"
    assert detect_format(tmp_path / "t" / "110-01.txt") == "text"
    (tmp_path / "x.json").write_text('{"id": "1", "text": "a"}\n', encoding="utf-8")
    assert detect_format(tmp_path / "x.json") == "jsonl"


def test_xml_by_root(tmp_path: Path) -> None:
    assert detect_format(write_xml_2014(tmp_path / "a.xml", "note", "")) == "i2b2-2014"
    (tmp_path / "b.xml").write_text(RECORDS, encoding="utf-8")
    assert detect_format(tmp_path / "b.xml") == "i2b2-2006"
    other_root = "<note><TEXT><![CDATA[x]]></TEXT><TAGS/></note>"
    (tmp_path / "c.xml").write_text(other_root, encoding="utf-8")
    assert detect_format(tmp_path / "c.xml") == "i2b2-2014"


def test_xml_of_another_kind_is_undecidable(tmp_path: Path) -> None:
    (tmp_path / "a.xml").write_text("<html><body/></html>", encoding="utf-8")
    with pytest.raises(FormatError, match="neither i2b2 2014"):
        detect_format(tmp_path / "a.xml")


def test_files_without_a_known_extension_by_content(tmp_path: Path) -> None:
    write_xml_2014(tmp_path / "a.dat", "note", "")
    (tmp_path / "b.dat").write_text(RECORDS, encoding="utf-8")
    (tmp_path / "c.dat").write_text('{"id": "1", "text": "a"}\n', encoding="utf-8")
    write_corpus(tricky_docs(), tmp_path / "d.parquet", format="parquet")
    (tmp_path / "d.parquet").rename(tmp_path / "d.dat")
    kinds = [detect_format(tmp_path / f"{n}.dat") for n in "abcd"]
    assert kinds == ["i2b2-2014", "i2b2-2006", "jsonl", "parquet"]
    assert read_corpus(tmp_path / "b.dat").documents[0].gold[0].label == "DATE"


def test_undecidable_file(tmp_path: Path) -> None:
    (tmp_path / "a.dat").write_text("just words", encoding="utf-8")
    with pytest.raises(FormatError, match="cannot tell the format"):
        detect_format(tmp_path / "a.dat")


def test_folders_by_the_files_they_hold(tmp_path: Path) -> None:
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "b.xml").write_text(RECORDS, encoding="utf-8")
    (tmp_path / "x" / "README.md").write_text("ignored", encoding="utf-8")
    assert detect_format(tmp_path / "x") == "i2b2-2006"
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "a.csv").write_text("id,text\n1,a\n", encoding="utf-8")
    (tmp_path / "m" / "b.jsonl").write_text('{"id": "2", "text": "b"}\n', encoding="utf-8")
    with pytest.raises(FormatError, match="mixes csv, jsonl"):
        detect_format(tmp_path / "m")
    (tmp_path / "e").mkdir()
    with pytest.raises(FormatError, match="no corpus file"):
        detect_format(tmp_path / "e")


def test_missing_path(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="no such file"):
        detect_format(tmp_path / "nothing")
