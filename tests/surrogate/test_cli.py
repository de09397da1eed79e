"""``phiscrub surrogate`` end to end on a small annotated corpus written in tmp_path."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from phiscrub.cli import main
from phiscrub.evaluate import align, build_report
from phiscrub.io import read_corpus, write_corpus
from phiscrub.span import Document, Span
from phiscrub.surrogate import Replacer, SurrogateOptions

NAME = "Harlan Winterbourne"
HEX_KEY = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"

NOTES: list[tuple[str, str, list[tuple[str, str]]]] = [
    (
        "300-01",
        "Record date: 2069-04-07\nPatient: Harlan Winterbourne, DOB: 03/02/1975. Age 94.\n"
        "Lives in Springfield, MA 01105.\nSeen by Dr. Zorba Quill. Call 617-555-1234.\n",
        [("2069-04-07", "DATE"), ("Harlan Winterbourne", "PATIENT"), ("03/02/1975", "DATE"),
         ("94", "AGE"), ("Springfield", "CITY"), ("MA", "STATE"), ("01105", "ZIP"),
         ("Zorba Quill", "DOCTOR"), ("617-555-1234", "PHONE")],
    ),
    (
        "300-02",
        "Record date: 2069-05-01\r\nMr. Winterbourne returns. MRN 4402-118-7.\r\n"
        "From Springfield, MA; seen by Dr. Quill on May 1st.\r\n",
        [("2069-05-01", "DATE"), ("Winterbourne", "PATIENT"), ("4402-118-7", "MEDICALRECORD"),
         ("Springfield", "CITY"), ("MA", "STATE"), ("Quill", "DOCTOR"), ("May 1st", "DATE")],
    ),
    (
        "301-01",
        "Record date: 11/03/2070\nMary Oconnor, 45 yo, from Salem, NH. D.O.B. 1/12/2025\n",
        [("11/03/2070", "DATE"), ("Mary Oconnor", "PATIENT"), ("45", "AGE"),
         ("Salem", "CITY"), ("NH", "STATE"), ("1/12/2025", "DATE")],
    ),
]  # fmt: skip


def documents() -> list[Document]:
    docs = []
    for doc_id, text, marks in NOTES:
        spans, cursor = [], 0
        for value, label in marks:
            start = text.index(value, cursor)
            spans.append(Span.of(text, start, start + len(value), label))
            cursor = start + len(value)
        docs.append(Document(doc_id, text, doc_id.split("-")[0], layers={"gold": spans}))
    return docs


@pytest.fixture(params=["i2b2-2014", "jsonl"])
def corpus(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, str]:
    fmt: str = request.param
    path = tmp_path / ("in" if fmt == "i2b2-2014" else "in.jsonl")
    write_corpus(documents(), path, format=fmt)
    return path, fmt


@pytest.fixture
def key_file(tmp_path: Path) -> Path:
    path = tmp_path / "secret.key"
    path.write_text(HEX_KEY + "\n")
    return path


@pytest.fixture(autouse=True)
def no_env_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PHISCRUB_KEY", raising=False)


def out_path(tmp_path: Path, fmt: str, name: str = "out") -> Path:
    return tmp_path / (name if fmt == "i2b2-2014" else f"{name}.jsonl")


def test_surrogate_corpus_end_to_end(
    corpus: tuple[Path, str], key_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, fmt = corpus
    out = out_path(tmp_path, fmt)
    assert main(["surrogate", str(path), "-o", str(out), "--key-file", str(key_file)]) == 0
    result = read_corpus(out)  # the output validates: every span matches its text
    assert not result.skipped
    originals = {d.id: d for d in documents()}
    by_id = {d.id: d for d in result.documents}
    assert sorted(by_id) == sorted(originals)
    for doc_id, new in by_id.items():
        old = originals[doc_id]
        assert new.patient_id == old.patient_id
        assert [s.label for s in new.gold] == [s.label for s in old.gold]
        # the text between the spans is unchanged; the PHI itself is gone
        assert _gaps(new) == _gaps(old)
        for span in old.gold:
            if len(span.text) > 2:
                assert span.text not in new.text, (doc_id, span.label)
    # the carried spans are exactly where the library puts them: strict F1 = 1.0
    replacer = Replacer(key=bytes.fromhex(HEX_KEY))
    expected = [
        Document(d.id, r.text, d.patient_id, layers={"gold": r.spans})
        for d in documents()
        for r in [replacer.replace(d, d.gold)]
    ]
    pairs, info = align(expected, result.documents)
    assert build_report(pairs, info)["strict"]["micro"]["f1"] == 1.0
    err = capsys.readouterr().err
    assert "3 notes in" in err and "spans replaced" in err
    assert "dates of birth capped to age 90: 1" in err


def _gaps(doc: Document) -> list[str]:
    cuts = [0, *(x for s in doc.gold for x in (s.start, s.end)), len(doc.text)]
    return [doc.text[a:b] for a, b in zip(cuts[::2], cuts[1::2], strict=True)]


def test_birth_dates_and_ages_over_89_are_capped(key_file: Path, tmp_path: Path) -> None:
    src = tmp_path / "in.jsonl"
    write_corpus(documents(), src, format="jsonl")
    out = tmp_path / "out.jsonl"
    main(["surrogate", str(src), "-o", str(out), "--key-file", str(key_file), "--age-cap", "90+"])
    first = read_corpus(out).documents[0]
    assert "Age 90+." in first.text
    record, dob = (s.text for s in first.gold if s.label == "DATE")
    assert int(record[:4]) - int(dob[-4:]) in (89, 90)  # shifted together: age 90 at most


def test_key_file_and_environment_give_identical_output(
    corpus: tuple[Path, str],
    key_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path, fmt = corpus
    a, b = out_path(tmp_path, fmt, "a"), out_path(tmp_path, fmt, "b")
    assert main(["surrogate", str(path), "-o", str(a), "--key-file", str(key_file)]) == 0
    monkeypatch.setenv("PHISCRUB_KEY", HEX_KEY)
    assert main(["surrogate", str(path), "-o", str(b)]) == 0
    assert _contents(a) == _contents(b)
    monkeypatch.setenv("PHISCRUB_KEY", "another secret key, also long enough")
    c = out_path(tmp_path, fmt, "c")
    assert main(["surrogate", str(path), "-o", str(c)]) == 0
    assert _contents(c) != _contents(a)


def _contents(path: Path) -> dict[str, bytes]:
    if path.is_dir():
        return {f.name: f.read_bytes() for f in sorted(path.iterdir())}
    return {"": path.read_bytes()}


def test_no_key_is_refused_with_the_three_ways(
    corpus: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, fmt = corpus
    out = out_path(tmp_path, fmt)
    assert main(["surrogate", str(path), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "[E401]" in err
    assert "--key-file" in err and "PHISCRUB_KEY" in err and "--random-key" in err
    assert not out.exists()


def test_random_key_is_explicit_and_warned(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "in.jsonl"
    write_corpus(documents(), src, format="jsonl")
    assert main(["surrogate", str(src), "-o", str(tmp_path / "o.jsonl"), "--random-key"]) == 0
    assert "can never be reproduced" in capsys.readouterr().err


def test_short_key_and_missing_key_file_are_coded_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "in.jsonl"
    write_corpus(documents(), src, format="jsonl")
    short = tmp_path / "short.key"
    short.write_text("tiny")
    for key in (short, tmp_path / "absent.key"):
        assert main(["surrogate", str(src), "-o", str(tmp_path / "o"), "--key-file", str(key)]) == 2
        err = capsys.readouterr().err
        assert "[E401]" in err and "tiny" not in err


def test_keep_state_leaves_states(
    corpus: tuple[Path, str], key_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, fmt = corpus
    out = out_path(tmp_path, fmt)
    args = ["surrogate", str(path), "-o", str(out), "--key-file", str(key_file), "--keep", "STATE"]
    assert main(args) == 0
    states = [s.text for d in read_corpus(out).documents for s in d.gold if s.label == "STATE"]
    assert sorted(states) == ["MA", "MA", "NH"]
    assert "kept: LOCATION 3" in capsys.readouterr().err


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_audit_is_written_on_request_with_a_warning(
    suffix: str, key_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "in.jsonl"
    write_corpus(documents(), src, format="jsonl")
    audit = tmp_path / f"audit{suffix}"
    out = tmp_path / "out.jsonl"
    args = ["surrogate", str(src), "-o", str(out), "--key-file", str(key_file)]
    assert main([*args, "--audit", str(audit)]) == 0
    assert "contains PHI" in capsys.readouterr().err
    if suffix == ".csv":
        with audit.open(newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
    else:
        rows = [json.loads(line) for line in audit.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == sum(len(marks) for _, _, marks in NOTES)
    row = rows[1]
    assert [row["doc_id"], row["label"], row["original"]] == ["300-01", "PATIENT", NAME]
    new = {d.id: d for d in read_corpus(out).documents}["300-01"]
    assert new.text[int(row["new_start"]) : int(row["new_end"])] == row["surrogate"]
    # no audit unless asked
    audit.unlink()
    assert main([*args]) == 0
    assert not audit.exists() and "contains PHI" not in capsys.readouterr().err


def test_tag_modes_and_formats(key_file: Path, tmp_path: Path) -> None:
    src = tmp_path / "in"
    write_corpus(documents(), src, format="i2b2-2014")
    out = tmp_path / "tags.jsonl"
    cmd = ["surrogate", str(src), "--mode", "tag"]
    assert main([*cmd, "-o", str(out), "--out-format", "jsonl"]) == 0
    first = read_corpus(out).documents[0]
    assert first.text.startswith("Record date: [**DATE**]\nPatient: [**PATIENT**], DOB: [**DATE**]")
    assert all(s.text == f"[**{s.label}**]" for s in first.gold)
    xml = tmp_path / "tags.xml"
    assert main([*cmd, "--tag-style", "i2b2-2006", "-o", str(xml)]) == 0
    raw = xml.read_text(encoding="utf-8")
    assert '<PHI TYPE="PATIENT">[**PATIENT**]</PHI>' in raw and "Winterbourne" not in raw
    again = read_corpus(xml).documents[0]
    assert again.text == first.text and len(again.gold) == len(first.gold)


@pytest.mark.parametrize(
    "extra",
    [
        ["--mode", "surrogate", "--tag-style", "brackets"],
        ["--mode", "tag", "--tag-style", "i2b2-2006", "--out-format", "jsonl"],
        ["--mode", "tag", "--keep", "NOPE"],
    ],
)
def test_bad_option_combinations_are_usage_errors(
    extra: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "in.jsonl"
    write_corpus(documents(), src, format="jsonl")
    assert main(["surrogate", str(src), "-o", str(tmp_path / "o.jsonl"), *extra]) == 2
    assert "[E301]" in capsys.readouterr().err


def test_output_may_not_overwrite_the_corpus(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "in.jsonl"
    write_corpus(documents(), src, format="jsonl")
    assert main(["surrogate", str(src), "-o", str(src), "--mode", "redact"]) == 2
    assert "[E301]" in capsys.readouterr().err
    assert read_corpus(src).documents[0].text == NOTES[0][1]


def test_progress_and_skipped_files(
    key_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "in"
    write_corpus(documents(), src, format="i2b2-2014")
    (src / "999-01.xml").write_text("<deIdi2b2><TEXT>broken", encoding="utf-8")
    out = tmp_path / "out"
    args = ["surrogate", str(src), "-o", str(out), "--key-file", str(key_file)]
    assert main([*args, "--format", "i2b2-2014", "--progress", "1"]) == 1
    err = capsys.readouterr().err
    assert "3 notes..." in err and "skipped" in err and "999-01.xml (E201)" in err
    assert len(read_corpus(out).documents) == 3


def test_options_reach_the_replacer(key_file: Path, tmp_path: Path) -> None:
    src = tmp_path / "in.jsonl"
    write_corpus(documents(), src, format="jsonl")
    out = tmp_path / "o.jsonl"
    args = ["--clinicians", "corpus", "--shift-days", "1", "2", "--reference-year", "2100"]
    assert main(["surrogate", str(src), "-o", str(out), "--key-file", str(key_file), *args]) == 0
    options = SurrogateOptions(clinician_scope="corpus", reference_year=2100)
    replacer = Replacer(key=bytes.fromhex(HEX_KEY), options=options)
    doctors = {s.text for d in read_corpus(out).documents for s in d.gold if s.label == "DOCTOR"}
    assert replacer.replace(documents()[0], documents()[0].gold).spans[7].text in doctors
    record = read_corpus(out).documents[0].gold[0].text
    assert record in ("2069-04-05", "2069-04-06", "2069-04-08", "2069-04-09")
