"""The command line: the README's first command, help, and the Spark engine's wiring."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from phiscrub.cli import main
from phiscrub.io import read_corpus

from .common import PHI, deid, write_input

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "notes"
#: PHI of the bundled example notes that the default model finds
EXAMPLE_PHI = ["Delphine Harrowgate", "4471-902-3", "Osric Penhallow", "(330) 555-0148",
               "d.harrowgate@maplewire.net", "Tobias Quennell", "Corwin Ashdale"]  # fmt: skip


def test_readme_first_command_on_the_bundled_notes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "deid-output"
    code, err = deid(capsys, EXAMPLES, "-o", out, "--random-key")
    assert code == 0, err
    assert f"wrote 5 notes to {out} (text)" in err
    assert "patient ids: from the file name (<patient>-<n>): 5 notes" in err
    assert "--random-key: a one-off random key" in err
    texts = "\n".join(p.read_text(encoding="utf-8") for p in out.iterdir())
    assert not any(value in texts for value in EXAMPLE_PHI)
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in EXAMPLES.iterdir())


def test_help_lists_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["deid", "-h"])
    text = capsys.readouterr().out
    for option in ("--jobs", "--key-file", "--random-key", "--patient-from", "--engine",
                   "--max-note-chars", "--fresh", "--overwrite", "--summary-json"):  # fmt: skip
        assert option in text


def test_spark_engine_refuses_other_formats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write_input(tmp_path, "jsonl")
    code, err = deid(capsys, source, "-o", tmp_path / "o.parquet", "--engine", "spark",
                     "--mode", "tag")  # fmt: skip
    assert code == 2 and "--engine spark reads and writes Parquet only" in err


def _find_spec(pyspark: bool) -> Any:
    real = importlib.util.find_spec

    def find_spec(name: str, *args: Any) -> Any:
        if name == "pyspark":
            return object() if pyspark else None
        return real(name, *args)

    return find_spec


def test_spark_engine_without_pyspark(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    source = write_input(tmp_path, "parquet")
    monkeypatch.setattr(importlib.util, "find_spec", _find_spec(False))
    code, err = deid(capsys, source, "-o", tmp_path / "o.parquet", "--engine", "spark",
                     "--mode", "tag")  # fmt: skip
    assert code == 2 and 'pip install "phiscrub[spark]"' in err


def test_spark_engine_calls_run_deid_spark(
    tmp_path: Path,
    key_file: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[tuple[Any, ...]] = []

    def run_deid_spark(*args: Any, **kwargs: Any) -> dict[str, Any]:
        calls.append((args, kwargs))
        return {"notes": 3, "written": 2, "failures": 1}

    fake = types.ModuleType("phiscrub.spark")
    fake.run_deid_spark = run_deid_spark  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "phiscrub.spark", fake)
    monkeypatch.setattr(importlib.util, "find_spec", _find_spec(True))
    source = write_input(tmp_path, "parquet")
    out, summary = tmp_path / "o.parquet", tmp_path / "s.json"
    code, err = deid(capsys, source, "-o", out, "--engine", "spark", "--key-file", key_file,
                     "--spark-master", "local[2]", "--patient-column", "pid",
                     "--pipeline", "rules", "--summary-json", summary)  # fmt: skip
    assert code == 3, err
    ((args, kwargs),) = calls
    assert args[:2] == (str(source), str(out)) and args[2].pipeline == "rules"
    assert isinstance(args[3], bytes) and len(args[3]) == 32
    assert kwargs == {"master": "local[2]", "text_col": "text", "id_col": "id",
                      "patient_col": "pid"}  # fmt: skip
    assert json.loads(summary.read_text())["failures"] == 1


@pytest.mark.skipif(
    importlib.util.find_spec("pyspark") is None or shutil.which("java") is None,
    reason="needs pyspark and Java",
)
def test_spark_engine_writes_what_the_local_engine_writes(
    tmp_path: Path, key_file: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.setenv("PYSPARK_PYTHON", sys.executable)
    monkeypatch.setenv("SPARK_LOCAL_IP", os.environ.get("SPARK_LOCAL_IP", "127.0.0.1"))
    source = write_input(tmp_path, "parquet")
    args = ("--key-file", key_file, "--pipeline", "rules")
    code, err = deid(capsys, source, "-o", tmp_path / "local.parquet", *args)
    assert code == 0, err
    code, err = deid(capsys, source, "-o", tmp_path / "spark.parquet", *args,
                     "--engine", "spark", "--spark-master", "local[2]")  # fmt: skip
    assert code == 0, err
    local = read_corpus(tmp_path / "local.parquet").documents
    spark = read_corpus(tmp_path / "spark.parquet").documents
    assert [(d.id, d.patient_id, d.text, d.gold) for d in spark] == [
        (d.id, d.patient_id, d.text, d.gold) for d in local
    ]
    assert not any(value in d.text for d in spark for value in PHI)
