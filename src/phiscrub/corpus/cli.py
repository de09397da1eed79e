"""``phiscrub corpus stats DIR [--json]``."""

from __future__ import annotations

import argparse
import json
import sys

from phiscrub.corpus.stats import corpus_stats, render_stats
from phiscrub.errors import UsageError
from phiscrub.io import FORMATS, read_corpus


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "corpus",
        help="statistics of an annotated corpus",
        description="`corpus stats PATH`: notes, patients, tokens, PHI per category and "
        "subtype, ambiguity and out-of-vocabulary shares.",
    )
    p.add_argument("action", choices=("stats",), help="what to do")
    p.add_argument("path", metavar="PATH", help="a corpus file or folder, any supported format")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--format", choices=FORMATS, help="format of PATH (default: detected)")
    p.add_argument("--encoding", default="utf-8", help="text encoding of the input")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    corpus = read_corpus(args.path, format=args.format, encoding=args.encoding)
    if corpus.skipped:
        bad = "; ".join(f"{p}: {e.code}" for p, e in corpus.skipped[:5])
        raise UsageError(
            f"{len(corpus.skipped)} file(s) under {args.path} could not be read ({bad})",
            hint="statistics over a partly read corpus would be wrong; fix or remove them",
        )
    stats = corpus_stats(corpus.documents)
    if args.json:
        json.dump(stats, sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(render_stats(stats) + "\n")
    return 0
