"""Benchmark: synthetic notes generated per second on one core (``phiscrub synth``).

Generates N notes (default 10,000) in each mode with a fresh process state apart from
the data files, timing generation alone (documents built with their gold spans, the
bank and the census lists loaded inside the timing), then writing the random corpus
as i2b2 2014 XML into a temporary folder, timed apart. Target: 10,000 notes in under
60 seconds. Writes benchmarks/results/synth.json and .md.

    python benchmarks/bench_synth.py [--notes 10000] [--seed 7]
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import tempfile
import time
from pathlib import Path

from phiscrub.io import write_corpus
from phiscrub.synth import SynthOptions, documents

TARGET_SECONDS = 60.0


def _time_generation(n: int, mode: str, seed: str) -> dict[str, float | int]:
    start = time.perf_counter()
    notes = spans = chars = 0
    for doc in documents(SynthOptions(n=n, mode=mode, seed=seed)):
        notes += 1
        spans += len(doc.gold)
        chars += len(doc.text)
    seconds = time.perf_counter() - start
    return {
        "notes": notes,
        "spans": spans,
        "characters": chars,
        "seconds": round(seconds, 2),
        "notes_per_second": round(notes / seconds),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--notes", type=int, default=10_000)
    parser.add_argument("--seed", default="7")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results")
    args = parser.parse_args(argv)
    modes = {mode: _time_generation(args.notes, mode, args.seed) for mode in
             ("random", "ambiguous", "oov")}  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        docs = documents(SynthOptions(n=args.notes, seed=args.seed))
        write_corpus(docs, Path(tmp) / "out", format="i2b2-2014")
        write_seconds = time.perf_counter() - start
    worst = max(float(m["seconds"]) for m in modes.values())
    result = {
        "benchmark": "synthetic notes generated on one core (generation only; writing apart)",
        "notes": args.notes,
        "modes": modes,
        "generate_and_write_i2b2_2014_seconds_random": round(write_seconds, 2),
        "target_seconds": TARGET_SECONDS,
        "meets_target": worst < TARGET_SECONDS,
        "python": sys.version.split()[0],
        "machine": platform.machine(),
        "command": "python benchmarks/bench_synth.py " + " ".join(argv or sys.argv[1:]),
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "synth.json").write_text(json.dumps(result, indent=2) + "\n")
    rows = [
        f"| {mode} | {m['notes']} | {m['spans']} | {m['seconds']} | {m['notes_per_second']} |"
        for mode, m in modes.items()
    ]
    md = (
        "# Synthetic corpus benchmark\n\n"
        "| mode | notes | spans | seconds | notes/s |\n|---|---|---|---|---|\n"
        + "\n".join(rows)
        + f"\n\nGenerating and writing {args.notes} random notes as i2b2 2014 XML: "
        f"{write_seconds:.1f} s. Target: {args.notes} notes in under {TARGET_SECONDS:.0f} s "
        f"(met: {result['meets_target']}). Python {result['python']}, {result['machine']}.\n"
    )
    (args.out / "synth.md").write_text(md)
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
