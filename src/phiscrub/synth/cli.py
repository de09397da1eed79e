"""``phiscrub synth -n N -o DIR [--mode random|ambiguous|oov] [--seed S] [--format F]``."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from phiscrub.io import FORMATS, write_corpus
from phiscrub.synth.generate import SynthOptions, documents
from phiscrub.synth.vocab import MODES

#: formats written as one file inside DIR (the others write one file per note into DIR)
SINGLE_FILE = {
    "jsonl": "synth.jsonl",
    "csv": "synth.csv",
    "parquet": "synth.parquet",
    "i2b2-2006": "synth.xml",
}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "synth",
        help="generate an annotated synthetic corpus",
        description="Generate N annotated notes from the template bank, with random, "
        "ambiguous or out-of-vocabulary names and places (seed 000 §5). The same seed "
        "gives byte-identical output.",
    )
    p.add_argument("-n", type=int, required=True, metavar="N", help="number of notes")
    p.add_argument("-o", "--out", required=True, metavar="DIR", help="output folder")
    p.add_argument("--mode", choices=MODES, default="random", help="surrogate mode")
    p.add_argument("--seed", default="0", help="seed (any text; default 0)")
    p.add_argument(
        "--format",
        choices=FORMATS,
        default="i2b2-2014",
        help="output format (default i2b2-2014: DIR/<patient>-<nn>.xml; single-file "
        "formats write DIR/synth.<ext>)",
    )
    p.add_argument(
        "--patients",
        type=int,
        default=None,
        metavar="P",
        help="number of patients (default: 1 to 5 notes per patient)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    options = SynthOptions(n=args.n, mode=args.mode, seed=args.seed, patients=args.patients)
    out = Path(args.out)
    target = out / SINGLE_FILE[args.format] if args.format in SINGLE_FILE else out
    out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    write_corpus(documents(options), target, format=args.format)
    seconds = time.perf_counter() - start
    print(f"wrote {args.n} {args.mode} notes to {target} in {seconds:.1f} s", file=sys.stderr)
    return 0
