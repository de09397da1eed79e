"""Build an annotated corpus other than the development one (i2b2 2014 XML) from its sources.

Each corpus of ``PATIENTS`` keeps its notes in ``corpora/<name>/src/<patient>-<doc>.txt``
with the inline markup of the development corpus (``{{LABEL|surface text}}``); this script
reuses the markup parser of ``corpora/build_dev.py`` (imported, not copied, so every corpus
is read by the same code), checks file names against the corpus's patient range and
overlapping spans, and writes ``corpora/<name>/xml/``.

    python corpora/build_corpus.py NAME [--check]

``--check`` validates the sources only. After writing, the XML is read back and every
span is compared with the source markup, so a build that would shift an offset fails.
"""

from __future__ import annotations

import argparse
import re
import sys
from itertools import pairwise
from pathlib import Path

HERE = Path(__file__).resolve().parent  # corpora/
sys.path.insert(0, str(HERE))  # for build_dev
if __name__ == "__main__":
    sys.dont_write_bytecode = True  # run as a script: leave no __pycache__ in corpora/

from build_dev import load  # noqa: E402  (parse_markup + span checks of the dev corpus)

from phiscrub.span import Document  # noqa: E402

NAME = re.compile(r"^(\d{3,4})-(\d\d)$")  # the patient range is checked below
#: each corpus's patients: the ranges never collide with one another nor with the
#: development corpus's patients (101-175)
PATIENTS: dict[str, range] = {
    "tune": range(901, 941),
    "holdout": range(951, 981),  # measurement only: never train or tune on it
    "train2": range(1001, 1100),
    "train3": range(1101, 1200),
    "train4": range(1201, 1300),
    "train5": range(1301, 1400),
    "train6": range(1401, 1500),
    "train7": range(1501, 1600),
    "train8": range(1601, 1700),
    "train9": range(1701, 1800),
    "train10": range(1801, 1900),
}


def check(doc: Document, patients: range) -> list[str]:
    """Problems of one parsed note beyond what build_dev.load already checks."""
    problems = []
    m = NAME.match(doc.id)
    if not m or int(m.group(1)) not in patients:
        span = f"{patients.start}-{patients.stop - 1}"
        problems.append(f"file name must be <{span}>-<NN>.txt, got {doc.id}")
    spans = sorted(doc.layer("gold"), key=lambda s: (s.start, s.end))
    for a, b in pairwise(spans):
        if a.overlaps(b):
            problems.append(f"overlapping spans {a.start}-{a.end} and {b.start}-{b.end}")
    return problems


def main(argv: list[str] | None = None) -> int:
    """Build ``corpora/NAME/xml`` from ``corpora/NAME/src``."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("name", choices=sorted(PATIENTS), help="the corpus (a folder of corpora/)")
    ap.add_argument("--check", action="store_true", help="validate the sources only")
    args = ap.parse_args(argv)
    root, patients = HERE / args.name, PATIENTS[args.name]
    docs, bad = [], 0
    for path in sorted((root / "src").glob("*.txt")):
        try:
            doc = load(path)
        except Exception as exc:  # report every bad source, then fail
            print(f"{path.name}: {exc}", file=sys.stderr)
            bad += 1
            continue
        for problem in check(doc, patients):
            print(f"{path.name}: {problem}", file=sys.stderr)
            bad += 1
        docs.append(doc)
    n_spans = sum(len(d.layer("gold")) for d in docs)
    print(f"{len(docs)} notes, {len({d.patient_id for d in docs})} patients, {n_spans} spans")
    if bad or args.check:
        return 1 if bad else 0

    from phiscrub.io import read_corpus, write_corpus

    out = root / "xml"
    out.mkdir(parents=True, exist_ok=True)
    for stale in out.glob("*.xml"):  # a renamed or deleted source must not leave its XML
        if not (root / "src" / f"{stale.stem}.txt").exists():
            stale.unlink()
    write_corpus(docs, out, format="i2b2-2014")

    # round trip: the XML must give back exactly the texts and spans of the sources
    back = {d.id: d for d in read_corpus(out).documents}
    for doc in docs:
        got = back.get(doc.id)
        want = [(s.start, s.end, s.label, s.text) for s in doc.layer("gold")]
        if got is None or got.text != doc.text or sorted(
            (s.start, s.end, s.label, s.text) for s in got.layer("gold")
        ) != sorted(want):
            print(f"{doc.id}: XML does not reproduce the source markup", file=sys.stderr)
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
