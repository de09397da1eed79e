"""Check that ``phiscrub eval --official`` prints what the official i2b2 2014 scorer prints.

The official scorer (kotfic/i2b2_evaluation_scripts, Python 2) is not part of phiscrub: set
it up outside the project tree and pass the command that runs it as
``SCORER SYSTEM_DIR GOLD_DIR``. This script makes noisy predictions from a gold folder of
i2b2 2014 XML files (ends moved by 1 to 3 characters, starts moved, types swapped,
near-duplicate and duplicate tags, dropped tags, spurious tags, documents left out), runs
both scorers on them, and compares their outputs byte for byte.

    python benchmarks/check_official_agreement.py GOLD_DIR --scorer "/tmp/scorer/run.sh" \
        [--rounds 20] [--seed 0]

It writes ``benchmarks/results/official_agreement.json`` and ``.md``.
"""

from __future__ import annotations

import argparse
import json
import random
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

from phiscrub.io import read_corpus, write_corpus
from phiscrub.span import Document, Span
from phiscrub.taxonomy import SUBTYPES

RESULTS = Path(__file__).resolve().parent / "results"


def noisy(doc: Document, rng: random.Random) -> Document:
    """A prediction that exercises every corner of the scorer's matching rules."""
    out: list[Span] = []
    n = len(doc.text)
    for s in doc.gold:
        roll = rng.random()
        start, end, label = s.start, s.end, s.label
        if roll < 0.15:
            continue  # missed
        if roll < 0.30:
            end = min(n, max(start + 1, end + rng.choice([-3, -2, -1, 1, 2, 3])))
        elif roll < 0.38:
            start = max(0, min(end - 1, start + rng.choice([-1, 1])))
        elif roll < 0.46:
            label = rng.choice(SUBTYPES)
        out.append(Span.of(doc.text, start, end, label))
        if rng.random() < 0.08:  # a near-duplicate and a duplicate
            near = min(n, s.end + rng.choice([1, 2, 3]))
            out.append(Span.of(doc.text, s.start, near, s.label))
            out.append(Span.of(doc.text, start, end, label))
    for _ in range(rng.randint(0, 3)):  # spurious
        a = rng.randrange(0, max(1, n - 5))
        out.append(Span.of(doc.text, a, min(n, a + rng.randint(1, 8)), rng.choice(SUBTYPES)))
    return Document(doc.id, doc.text, doc.patient_id, layers={"gold": out})


def run_round(gold_dir: Path, docs: list[Document], scorer: list[str], seed: int) -> bool:
    rng = random.Random(seed)
    kept = [d for d in docs if rng.random() > 0.05] or docs[:1]  # some documents left out
    with tempfile.TemporaryDirectory() as tmp:
        pred_dir = Path(tmp) / "pred"
        write_corpus([noisy(d, rng) for d in kept], pred_dir, format="i2b2-2014")
        official = subprocess.run(
            [*scorer, str(pred_dir), str(gold_dir)], capture_output=True, text=True, check=True
        ).stdout
        ours = subprocess.run(
            [sys.executable, "-m", "phiscrub", "eval", str(gold_dir), str(pred_dir), "--official"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    if ours != official:
        print(f"round {seed}: outputs differ", file=sys.stderr)
        print(official, ours, sep="\n----- ours -----\n", file=sys.stderr)
    return ours == official


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("gold", type=Path, help="a folder of i2b2 2014 XML gold files")
    ap.add_argument("--scorer", required=True, help="command running the official scorer")
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    docs = read_corpus(args.gold, format="i2b2-2014").documents
    scorer = shlex.split(args.scorer)
    same = [run_round(args.gold, docs, scorer, args.seed + r) for r in range(args.rounds)]
    result = {
        "gold_documents": len(docs),
        "gold_tags": sum(len(d.gold) for d in docs),
        "rounds": args.rounds,
        "identical_outputs": sum(same),
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "official_agreement.json").write_text(json.dumps(result, indent=1) + "\n")
    md = (
        "# Agreement with the official i2b2 2014 scorer\n\n"
        f"{args.rounds} rounds of noisy predictions over {len(docs)} gold documents "
        f"({result['gold_tags']} tags): the outputs were byte-identical in "
        f"{sum(same)} of {args.rounds} rounds.\n"
    )
    (RESULTS / "official_agreement.md").write_text(md)
    print(md)
    sys.exit(0 if all(same) else 1)


if __name__ == "__main__":
    main()
