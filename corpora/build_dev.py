"""Build the development corpus (i2b2 2014 XML) from its annotated sources.

The notes are written by hand in ``corpora/dev/src/<patient>-<doc>.txt`` with inline
annotations ``{{LABEL|surface text}}``; this script strips the markup, computes the
offsets and writes ``corpora/dev/xml/<patient>-<doc>.xml``. Editing a note means
editing its source and running the script again (``--check`` only validates).

    python corpora/build_dev.py [--check]
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from phiscrub.span import Document, Span

MARK = re.compile(r"\{\{([A-Z][A-Z-]*)\|([^{}\n]+?)\}\}")
HERE = Path(__file__).resolve().parent


def parse_markup(marked: str) -> tuple[str, list[tuple[int, int, str]]]:
    """Plain text and (start, end, label) triples from a marked-up note."""
    out: list[str] = []
    spans: list[tuple[int, int, str]] = []
    pos = 0
    length = 0
    for m in MARK.finditer(marked):
        out.append(marked[pos : m.start()])
        length += m.start() - pos
        label, surface = m.group(1), m.group(2)
        spans.append((length, length + len(surface), label))
        out.append(surface)
        length += len(surface)
        pos = m.end()
    out.append(marked[pos:])
    text = "".join(out)
    if "{{" in text or "}}" in text:
        raise ValueError("unbalanced or malformed {{LABEL|text}} markup")
    return text, spans


def load(path: Path) -> Document:
    marked = path.read_text(encoding="utf-8")
    text, triples = parse_markup(marked)
    doc_id = path.stem
    patient = doc_id.split("-", 1)[0]
    spans = []
    for start, end, label in triples:
        span = Span.of(text, start, end, label, source="gold")
        if span.text != span.text.strip():
            raise ValueError(f"span {start}-{end} starts or ends with whitespace")
        spans.append(span)
    return Document(doc_id, text, patient, layers={"gold": spans})


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--check", action="store_true", help="validate the sources only")
    args = ap.parse_args(argv)
    docs, bad = [], 0
    for path in sorted((HERE / "dev" / "src").glob("*.txt")):
        try:
            docs.append(load(path))
        except Exception as exc:  # report every bad source, then fail
            print(f"{path.name}: {exc}", file=sys.stderr)
            bad += 1
    n_spans = sum(len(d.gold) for d in docs)
    print(f"{len(docs)} notes, {len({d.patient_id for d in docs})} patients, {n_spans} spans")
    if bad or args.check:
        return 1 if bad else 0
    from phiscrub.io import write_corpus

    out = HERE / "dev" / "xml"
    out.mkdir(parents=True, exist_ok=True)
    write_corpus(docs, out, format="i2b2-2014")
    return 0


if __name__ == "__main__":
    sys.exit(main())
