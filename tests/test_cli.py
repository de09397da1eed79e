"""The command line, end to end on the bundled example."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from phiscrub.cli import main
from phiscrub.io import read_corpus, write_corpus

ROOT = Path(__file__).resolve().parents[1]
GOLD, PRED = str(ROOT / "examples" / "gold"), str(ROOT / "examples" / "pred")


def test_eval_text_report_leads_with_binary_recall(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", GOLD, PRED]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1].startswith("BINARY TOKEN RECALL")
    assert "LEAK RATE" in out and "Entity strict" in out


def test_eval_json_has_the_documented_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", GOLD, PRED, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    for key in ("strict", "relaxed", "hipaa_strict", "hipaa_relaxed", "token", "binary_token",
                "binary_strict"):  # fmt: skip
        assert set(report[key]["micro"]) >= {"precision", "recall", "f1"}
        assert set(report[key]["macro"]) >= {"precision", "recall", "f1"}
    assert {"per_label", "errors", "leak_rate", "confusion", "nway"} <= set(report)
    assert report["documents"]["scored"] == 3
    assert 0 < report["strict"]["micro"]["f1"] < 1


def test_gold_against_itself_is_perfect(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", GOLD, GOLD, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["strict"]["micro"]["f1"] == 1.0 and report["leak_rate"] == 0.0


def test_formats_can_be_mixed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the same predictions as JSONL score the same as the XML folder
    jsonl = tmp_path / "pred.jsonl"
    write_corpus(read_corpus(PRED).documents, jsonl, format="jsonl")
    main(["eval", GOLD, PRED, "--json"])
    from_xml = json.loads(capsys.readouterr().out)
    main(["eval", GOLD, str(jsonl), "--json"])
    from_jsonl = json.loads(capsys.readouterr().out)
    assert from_xml["strict"] == from_jsonl["strict"]


def test_missing_documents_are_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    docs = read_corpus(PRED).documents[:2]
    write_corpus(docs, tmp_path / "p", format="i2b2-2014")
    main(["eval", GOLD, str(tmp_path / "p"), "--json"])
    skip = json.loads(capsys.readouterr().out)
    main(["eval", GOLD, str(tmp_path / "p"), "--json", "--missing", "empty"])
    empty = json.loads(capsys.readouterr().out)
    assert skip["documents"]["gold_only"] == ["201-01"] and skip["documents"]["scored"] == 2
    assert empty["documents"]["scored"] == 3
    assert empty["strict"]["micro"]["recall"] < skip["strict"]["micro"]["recall"]


def test_official_layout(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", GOLD, PRED, "--official"]) == 0
    out = capsys.readouterr().out
    assert [line.split(" (")[0] for line in out.splitlines() if "(3)" in line] == [
        "Token", "Strict", "Relaxed", "HIPPA Token", "HIPAA Strict", "HIPAA Relaxed",
    ]  # fmt: skip


def test_compare(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "compare", GOLD, GOLD, PRED, "--rounds", "199", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["f1"]["a"] == 1.0 and out["f1"]["difference"] > 0
    assert 0 < out["f1"]["p_value"] <= 1


def test_bad_input_is_a_coded_error_without_note_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "9-01.xml"
    bad.write_text("<deIdi2b2><TEXT><![CDATA[Secret Name]]></TEXT><TAGS>", encoding="utf-8")
    assert main(["eval", str(bad), PRED]) == 2
    err = capsys.readouterr().err
    assert "[E" in err and "9-01.xml" in err and "Secret Name" not in err


def test_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", GOLD]) == 2
    assert main(["eval", "compare", GOLD, PRED]) == 2
    assert "usage" in capsys.readouterr().err
