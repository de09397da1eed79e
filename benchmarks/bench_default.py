"""Throughput, loading time and peak memory of the default pipeline (the shipped model).

    python benchmarks/bench_default.py [--corpus corpora/dev/xml] [--repeat 3]
        [--model src/phiscrub/data/models/default.phiscrub]

Tags every note of the corpus (development-corpus notes: ~1,950 characters) in one process
on one core: CPU time (``time.process_time``), best of the repeats, after one warm-up pass
that loads the lexicons and fills the per-word caches; model loading (imports, archive,
compiled weights) and the warm-up are reported apart. ``batched`` is ``predict_many``
(notes decoded 64 at a time, reconciled per patient: what ``phiscrub tag`` does);
``per note`` calls ``predict`` once per note. After the warm-up the heap is settled as the
detector of ``phiscrub deid`` / ``tag`` settles it after its first batch
(``phiscrub.api.settle_heap``; ``--no-settle`` measures without). ``sustained`` is the CPU
time of all the repeats over all their notes: what a long run gets, with the garbage
collector's full collections that a best pass may miss (``gc_seconds_per_pass``: the time
spent in the collector, mean per pass). Peak memory is the process's maximum resident
set size (``resource.getrusage``). Writes benchmarks/results/bench_default.json and .md.
Not a test: tests never assert timings.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import resource
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def _passes(repeat: int, work: Any) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return times


class _GcClock:
    """CPU seconds spent in the garbage collector while it is installed."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._start = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._start = time.process_time()
        else:
            self.seconds += time.process_time() - self._start


def run(args: argparse.Namespace) -> dict[str, Any]:
    t0 = time.perf_counter()
    import phiscrub
    from phiscrub.api import settle_heap
    from phiscrub.io import read_corpus
    from phiscrub.model import load_model
    from phiscrub.taggers.hybrid import HybridTagger

    t1 = time.perf_counter()
    tagger = load_model(args.model)
    t2 = time.perf_counter()
    assert isinstance(tagger, HybridTagger)
    docs = read_corpus(args.corpus).documents
    t3 = time.perf_counter()
    tagger.predict_many(docs, by_patient=True)  # warm-up: lexicons, patterns, caches
    if not args.no_settle:
        settle_heap()
    t4 = time.perf_counter()
    clock = _GcClock()
    gc.callbacks.append(clock)
    passes = _passes(args.repeat, lambda: tagger.predict_many(docs, by_patient=True))
    gc.callbacks.remove(clock)
    batched, sustained = min(passes), sum(passes) / len(passes)
    single = _passes(1, lambda: [tagger.predict(d) for d in docs])[0]
    chars = sum(len(d.text) for d in docs)
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "model": os.path.relpath(args.model, ROOT),
        "model_bytes": Path(args.model).stat().st_size,
        "documents": len(docs),
        "mean_characters": round(chars / len(docs)),
        "repeat": args.repeat,
        "import_seconds": round(t1 - t0, 3),
        "model_load_seconds": round(t2 - t1, 3),
        "first_pass_seconds": round(t4 - t3, 3),
        "batched_cpu_seconds": round(batched, 3),
        "batched_notes_per_s_per_core": round(len(docs) / batched, 1),
        "sustained_notes_per_s_per_core": round(len(docs) / sustained, 1),
        "gc_seconds_per_pass": round(clock.seconds / len(passes), 3),
        "heap_settled": not args.no_settle,
        "per_note_cpu_seconds": round(single, 3),
        "per_note_notes_per_s_per_core": round(len(docs) / single, 1),
        "peak_rss_mb": round(peak_kb / 1024, 1),
        "load_average_1min": round(os.getloadavg()[0], 2),
        "compiled": phiscrub.compiled(),
        "python": platform.python_version(),
        "machine": platform.machine(),
    }


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=str(ROOT / "corpora" / "dev" / "xml"))
    ap.add_argument(
        "--model", default=str(ROOT / "src" / "phiscrub" / "data" / "models" / "default.phiscrub")
    )
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-settle", action="store_true", help="leave the garbage collector be")
    result = run(ap.parse_args())
    out = HERE / "results"
    out.mkdir(exist_ok=True)
    (out / "bench_default.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    md = ["# default pipeline: speed and memory", "", "| measure | value |", "|---|---|"]
    md += [f"| {k} | {v} |" for k, v in result.items()]
    md += [
        "",
        "CPU time of one process (one core), best of the repeats (sustained: their mean), "
        "after a warm-up pass; loading reported apart. The load average shows how busy the "
        "machine was.",
    ]
    (out / "bench_default.md").write_text("\n".join(md) + "\n", encoding="utf-8")
    print("\n".join(md))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
