"""phiscrub against the tools people use today (Philter, Presidio, scrubadub), one table.

The peers run in their own environment, outside the project tree (``../shared/peers``:
``run_peers.py --in NOTES.jsonl --name TAG`` writes ``out/<tool>.<TAG>.jsonl`` with
character-offset spans and ``out/summary.<TAG>.json`` with timings). This script scores
their spans and any phiscrub prediction folders against the same gold notes with
``phiscrub.evaluate`` and writes ``benchmarks/results/compare_peers.json`` and ``.md``.

Peers name their labels their own way, so the table compares what matters first:
binary (label-free) token precision and recall, and the leak rate. Presidio's labels are
mapped with ``taxonomy.FROM_PRESIDIO`` for its typed figures; the others are scored binary.

    python benchmarks/compare_peers.py GOLD --peers-out /tmp/peers/out --tag devtest \
        [--ours NAME=PRED_DIR:NOTES_PER_S ...] [--out compare_peers_holdout]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from phiscrub.evaluate import align, build_report
from phiscrub.io import read_corpus
from phiscrub.span import Document, Span
from phiscrub.taxonomy import FROM_PRESIDIO

RESULTS = Path(__file__).resolve().parent / "results"


def peer_documents(path: Path, tool: str, gold: dict[str, Document]) -> list[Document]:
    """A peer's spans as documents over the gold texts (labels mapped or made generic)."""
    docs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        text = gold[record["id"]].text
        spans = []
        for s in record["spans"]:
            label = FROM_PRESIDIO.get(s["label"], "OTHER") if tool == "presidio" else "OTHER"
            if label is not None:
                spans.append(Span.of(text, s["start"], s["end"], label, source=tool))
        docs.append(Document(record["id"], text, layers={"gold": spans}))
    return docs


def row(
    name: str, gold: list[Document], pred: list[Document], speed: float | None
) -> dict[str, Any]:
    pairs, info = align(gold, pred, missing="empty")
    report = build_report(pairs, info)
    bt = report["binary_token"]["micro"]
    return {
        "system": name,
        "binary_token_precision": bt["precision"],
        "binary_token_recall": bt["recall"],
        "binary_token_f1": bt["f1"],
        "leak_rate": report["leak_rate"],
        "strict_f1": report["strict"]["micro"]["f1"],
        "notes_per_second": speed,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("gold", type=Path)
    ap.add_argument("--peers-out", type=Path, required=True)
    ap.add_argument("--tag", required=True)
    ap.add_argument("--ours", nargs="*", default=[], help="NAME=PRED_DIR[:NOTES_PER_SECOND]")
    ap.add_argument(
        "--out", default="compare_peers", help="results file stem (default compare_peers)"
    )
    args = ap.parse_args()
    gold_docs = read_corpus(args.gold).documents
    by_id = {d.id: d for d in gold_docs}
    summary = json.loads((args.peers_out / f"summary.{args.tag}.json").read_text())
    rows = []
    for spec in args.ours:
        name, _, rest = spec.partition("=")
        folder, _, speed = rest.partition(":")
        pred = read_corpus(folder).documents
        rows.append(row(name, gold_docs, pred, float(speed) if speed else None))
    for tool, info in summary["tools"].items():
        pred = peer_documents(args.peers_out / f"{tool}.{args.tag}.jsonl", tool, by_id)
        rows.append(row(tool, gold_docs, pred, info.get("notes_per_second")))
    RESULTS.mkdir(exist_ok=True)
    out = {"gold": str(args.gold), "notes": len(gold_docs), "rows": rows}
    (RESULTS / f"{args.out}.json").write_text(json.dumps(out, indent=1) + "\n")
    lines = [
        "# phiscrub and peer tools on the same gold notes\n",
        f"{len(gold_docs)} notes of {args.gold}. Strict F1 is 0 for tools whose labels are "
        "not i2b2 subtypes (scored label-free).\n",
        "| system | binary token P | binary token R | binary token F1 | leak rate | strict F1 "
        "| notes/s per core |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        speed = f"{r['notes_per_second']:.1f}" if r["notes_per_second"] else "n/a"
        lines.append(
            f"| {r['system']} | {r['binary_token_precision']:.3f} | {r['binary_token_recall']:.3f} "
            f"| {r['binary_token_f1']:.3f} | {r['leak_rate']:.1%} | {r['strict_f1']:.3f} "
            f"| {speed} |"
        )
    (RESULTS / f"{args.out}.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
