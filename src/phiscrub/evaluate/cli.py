"""``phiscrub eval GOLD PRED`` and ``phiscrub eval compare GOLD A B``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from phiscrub.errors import UsageError
from phiscrub.evaluate import measures, render, significance
from phiscrub.evaluate.report import BASE_MEASURES, MISSING_POLICIES, align, build_report
from phiscrub.io import FORMATS, Corpus, read_corpus
from phiscrub.span import Document
from phiscrub.taxonomy import SCHEMES

USAGE = """phiscrub eval GOLD PRED [options]
       phiscrub eval compare GOLD A B [options]"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "eval",
        usage=USAGE,
        help="score predictions against gold annotations (or two annotators)",
        description="Score PRED against GOLD (files or folders in any supported format, "
        "matched by document id). `eval compare GOLD A B` tests whether two systems differ.",
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="GOLD PRED, or compare GOLD A B")
    p.add_argument("--json", action="store_true", help="print one JSON object (stable schema)")
    p.add_argument(
        "--official",
        action="store_true",
        help="print the summary in the official i2b2 2014 scorer's layout",
    )
    p.add_argument(
        "--agreement",
        action="store_true",
        help="the two inputs are two annotators: report inter-annotator agreement",
    )
    p.add_argument("--gold-format", choices=FORMATS, help="format of GOLD (default: detected)")
    p.add_argument("--pred-format", choices=FORMATS, help="format of PRED (default: detected)")
    p.add_argument(
        "--gold-labels",
        choices=sorted(SCHEMES),
        default=None,
        help="label scheme of GOLD (default: the format's own)",
    )
    p.add_argument(
        "--pred-labels",
        choices=sorted(SCHEMES),
        default=None,
        help="label scheme of PRED, e.g. presidio for Presidio's entity names",
    )
    p.add_argument("--encoding", default="utf-8", help="text encoding of the inputs")
    p.add_argument(
        "--missing",
        choices=MISSING_POLICIES,
        default="skip",
        help="gold notes without a prediction: skip them as the official scorer "
        "does (default), or score them as empty predictions",
    )
    p.add_argument(
        "--measure",
        choices=BASE_MEASURES,
        default="strict",
        help="compare: the measure to test (default strict)",
    )
    p.add_argument("--rounds", type=int, default=9999, help="compare: randomization rounds")
    p.add_argument("--seed", type=int, default=0, help="compare: random seed")
    p.set_defaults(func=run)


def _read(path: str, fmt: str | None, labels: str | None, encoding: str) -> list[Document]:
    kwargs: dict[str, Any] = {"format": fmt, "encoding": encoding}
    if labels:
        kwargs["labels"] = labels
    corpus: Corpus = read_corpus(path, **kwargs)
    if corpus.skipped:
        bad = "; ".join(f"{p}: {e.code}" for p, e in corpus.skipped[:5])
        raise UsageError(
            f"{len(corpus.skipped)} file(s) under {path} could not be read ({bad})",
            hint="scores over a partly read corpus would be wrong; fix or remove those files",
        )
    return corpus.documents


def run(args: argparse.Namespace) -> int:
    paths: list[str] = args.paths
    if paths[0] == "compare":
        if len(paths) != 4:
            raise UsageError("usage: phiscrub eval compare GOLD A B")
        return _compare(args, paths[1], paths[2], paths[3])
    if len(paths) != 2:
        raise UsageError("usage: phiscrub eval GOLD PRED")
    gold = _read(paths[0], args.gold_format, args.gold_labels, args.encoding)
    pred = _read(paths[1], args.pred_format, args.pred_labels, args.encoding)
    pairs, info = align(gold, pred, missing=args.missing)
    report = build_report(pairs, info)
    if args.json:
        json.dump(report, sys.stdout, indent=1, sort_keys=False)
        sys.stdout.write("\n")
    elif args.official:
        sys.stdout.write(render.render_official(report))
    else:
        sys.stdout.write(render.render_text(report, agreement=args.agreement) + "\n")
    return 0


def _compare(args: argparse.Namespace, gold_path: str, a_path: str, b_path: str) -> int:
    gold = _read(gold_path, args.gold_format, args.gold_labels, args.encoding)
    sys_a = _read(a_path, args.pred_format, args.pred_labels, args.encoding)
    sys_b = _read(b_path, args.pred_format, args.pred_labels, args.encoding)
    pairs_a, _ = align(gold, sys_a, missing="empty")
    pairs_b, _ = align(gold, sys_b, missing="empty")
    counts_a = measures.per_doc_counts(pairs_a, args.measure)
    counts_b = measures.per_doc_counts(pairs_b, args.measure)
    result = significance.compare(counts_a, counts_b, n=args.rounds, seed=args.seed)
    result = {"measure": args.measure, "documents": len(pairs_a), **result}
    if args.json:
        json.dump(result, sys.stdout, indent=1)
        sys.stdout.write("\n")
        return 0
    print(f"{args.measure} over {len(pairs_a)} documents: A = {a_path}, B = {b_path}")
    for metric in ("precision", "recall", "f1"):
        r = result[metric]
        print(
            f"  {metric:<10} A {r['a']:.4f}  B {r['b']:.4f}  diff {r['difference']:+.4f}  "
            f"approx. randomization p = {r['p_value']:.4f} (N={r['rounds']})  "
            f"z = {r['z_test']['z']:+.2f}, p = {r['z_test']['p_value']:.4f}"
        )
    return 0
