"""Notes, keys and helpers shared by the ``phiscrub deid`` tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from phiscrub.cli import main
from phiscrub.io import write_corpus
from phiscrub.span import Document

HEX_KEY = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"

#: (id, patient, text): fictional notes whose PHI the rule pipeline finds
NOTES: list[tuple[str, str, str]] = [
    (
        "300-01",
        "300",
        "Record date: 2069-04-07\nPatient: Harlan Winterbourne, MRN 4402-118-7.\n"
        "Seen by Dr. Zorba Quill on 03/14/2069. Call 617-555-0199.\n",
    ),
    (
        "300-02",
        "300",
        "Record date: 2069-05-01\r\nPatient: Harlan Winterbourne returns. MRN 4402-118-7.\r\n"
        "E-mail: harlan.w@example.org. Seen by Dr. Zorba Quill.\r\n",
    ),
    (
        "301-01",
        "301",
        "Record date: 11/03/2070\nPatient: Mary Oconnor, 45 yo. Phone (603) 555-0142.\n"
        "Seen by Dr. Ysolde Marchetti. Café au lait spots noted.\n",
    ),
]
#: original PHI strings that must not survive in any output
PHI = [
    "Winterbourne", "Harlan", "4402-118-7", "Zorba", "Quill", "03/14/2069",
    "617-555-0199", "harlan.w@example.org", "Oconnor", "(603) 555-0142",
    "Marchetti", "2069-04-07", "2069-05-01", "11/03/2070",
]  # fmt: skip
#: where write_corpus puts each format (a folder for the per-note formats)
TARGET = {
    "i2b2-2014": "in",
    "i2b2-2006": "in.xml",
    "brat": "in",
    "jsonl": "in.jsonl",
    "text": "in",
    "csv": "in.csv",
    "parquet": "in.parquet",
}
OUT_TARGET = {fmt: name.replace("in", "out", 1) for fmt, name in TARGET.items()}


def documents() -> list[Document]:
    return [Document(doc_id, text, patient) for doc_id, patient, text in NOTES]


def write_input(tmp_path: Path, fmt: str, docs: list[Document] | None = None) -> Path:
    path = tmp_path / TARGET[fmt]
    write_corpus(docs if docs is not None else documents(), path, format=fmt)
    return path


def deid(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str]:
    """Run ``phiscrub deid`` in this process: (exit code, standard error)."""
    code = main(["deid", *map(str, args), "--quiet"])
    err = capsys.readouterr().err
    return code, err


def all_text(path: Path) -> str:
    """Every byte of a file or folder, decoded leniently (to look for PHI in it)."""
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    return "\n".join(p.read_bytes().decode("utf-8", "replace") for p in files)
