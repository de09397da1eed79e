"""Throughput of the ``rules`` pipeline, per core; lexicon and pattern loading timed apart.

    python benchmarks/bench_rules.py [--repeat 5] [--corpus corpora/dev/xml]

Writes benchmarks/results/rules.json and rules.md. Not a test: tests never assert timings.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

from phiscrub.detect import get_pipeline, lexicon
from phiscrub.io import read_corpus

HERE = Path(__file__).resolve().parent


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=str(HERE.parent / "corpora" / "dev" / "xml"))
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    docs = read_corpus(args.corpus).documents
    t0 = time.perf_counter()
    lex = lexicon.lexicons()
    t1 = time.perf_counter()
    pipe = get_pipeline("rules")  # compiles every pattern file
    t2 = time.perf_counter()
    pipe.run(docs[0])  # warm caches
    size = sum(len(d.text.encode("utf-8")) for d in docs)
    best = float("inf")
    for _ in range(args.repeat):
        start = time.process_time()
        for d in docs:
            pipe.run(d)
        best = min(best, time.process_time() - start)
    result = {
        "pipeline": "rules",
        "documents": len(docs),
        "bytes": size,
        "repeat": args.repeat,
        "best_cpu_seconds": round(best, 4),
        "mb_per_s_per_core": round(size / 1e6 / best, 3),
        "lexicon_load_seconds": round(t1 - t0, 4),
        "lexicon_load_seconds_inner": round(lex.load_seconds, 4),
        "pattern_compile_seconds": round(t2 - t1, 4),
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    out = HERE / "results"
    out.mkdir(exist_ok=True)
    (out / "rules.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    md = [
        "# rules pipeline throughput",
        "",
        "| measure | value |",
        "|---|---|",
        *(f"| {k} | {v} |" for k, v in result.items()),
        "",
        "CPU time of one process (one core), best of the repeats; loading excluded.",
    ]
    (out / "rules.md").write_text("\n".join(md) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
