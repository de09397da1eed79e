"""Throughput of the ``rules`` pipeline, per core; lexicon and pattern loading timed apart.

    python benchmarks/bench_rules.py [--repeat 7] [--corpus corpora/dev/xml]
                                     [--against OTHER/src --rounds 3]

CPU time of this process (``time.process_time``: one core), best of ``--repeat`` passes
over the corpus, after one warm-up pass (memo tables of the word dispatch are filled on
first sight of a word); loading is measured apart: the lexicons, and building the stages
(pattern compilation and the analyses of their regexes, of which the note gates of
``phiscrub.detect.prefilter``: loaded from the user's cache, or compiled and cached on
first use; ``first_pass_cpu_seconds`` is the warm-up pass). Per stage: the CPU time of each
stage summed over the notes, best of the repeats. ``--against`` measures another source
tree (a checkout's ``src``) the same way in a child process, alternating with this one,
and reports the ratio: on a shared machine only such back-to-back figures compare.

Writes benchmarks/results/bench_rules.json and bench_rules.md. Not a test: tests never
assert timings.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent / "corpora" / "dev" / "xml"


def measure(corpus: str, repeat: int) -> dict[str, Any]:
    """The figures of the tree that ``phiscrub`` is imported from."""
    t0 = time.process_time()
    from phiscrub.detect import get_pipeline, lexicon
    from phiscrub.io import read_corpus

    try:  # trees before the note gate have no prefilter module
        from phiscrub.detect import prefilter
    except ImportError:
        prefilter = None  # type: ignore[assignment]

    t1 = time.process_time()
    lex = lexicon.lexicons()
    t2 = time.process_time()
    pipe = get_pipeline("rules")  # builds every stage: compiles every pattern file
    t3 = time.process_time()
    docs = read_corpus(corpus).documents
    size = sum(len(d.text.encode("utf-8")) for d in docs)
    t4 = time.process_time()
    for d in docs:  # warm-up pass
        pipe.run(d)
    first = time.process_time() - t4
    kinds = list(zip(pipe.stages, pipe._kinds, strict=True))
    best = float("inf")
    stages: dict[str, float] = {}
    for _ in range(repeat):
        start = time.process_time()
        for d in docs:
            pipe.run(d)
        best = min(best, time.process_time() - start)
        per = dict.fromkeys((s.name for s in pipe.stages), 0.0)
        for d in docs:  # the same work, stage by stage
            spans: list[Any] = []
            for stage, is_processor in kinds:
                a = time.process_time()
                spans = (
                    stage.process(d, spans)  # type: ignore[union-attr]
                    if is_processor
                    else spans + stage.detect(d)  # type: ignore[union-attr]
                )
                per[stage.name] += time.process_time() - a
        for name, t in per.items():
            stages[name] = min(stages.get(name, float("inf")), t)
    return {
        "pipeline": "rules",
        "documents": len(docs),
        "bytes": size,
        "repeat": repeat,
        "best_cpu_seconds": round(best, 4),
        "mb_per_s_per_core": round(size / 1e6 / best, 3),
        "import_seconds": round(t1 - t0, 4),
        "lexicon_load_seconds": round(t2 - t1, 4),
        "lexicon_load_seconds_inner": round(lex.load_seconds, 4),
        "pattern_compile_seconds": round(t3 - t2, 4),
        "gate_engine": prefilter.engine() if prefilter is not None else None,
        "gate_build_seconds": round(prefilter.build_seconds, 4) if prefilter is not None else 0,
        "first_pass_cpu_seconds": round(first, 4),
        "stage_cpu_seconds": {k: round(v, 4) for k, v in stages.items()},
        "compiled": _compiled(),
        "python": platform.python_version(),
        "machine": platform.machine(),
    }


def _compiled() -> bool:
    """Are the hot modules mypyc-compiled in the tree measured (``setup.py``)? Trees from
    before the compiled build have no ``phiscrub.compiled``: they are pure Python."""
    import phiscrub

    return bool(getattr(phiscrub, "compiled", lambda: False)())


def _child(src: str, corpus: str, repeat: int) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": src}
    cmd = [sys.executable, __file__, "--corpus", corpus, "--repeat", str(repeat), "--json-only"]
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    result: dict[str, Any] = json.loads(out)
    return result


def compare(against: str, corpus: str, repeat: int, rounds: int) -> dict[str, Any]:
    """Best CPU seconds of this tree and of ``against``, measured alternately."""
    here = str(HERE.parent / "src")
    ours, theirs = float("inf"), float("inf")
    for _ in range(rounds):
        ours = min(ours, _child(here, corpus, repeat)["best_cpu_seconds"])
        theirs = min(theirs, _child(against, corpus, repeat)["best_cpu_seconds"])
    return {
        "against": against,
        "rounds": rounds,
        "best_cpu_seconds_this": ours,
        "best_cpu_seconds_against": theirs,
        "speedup": round(theirs / ours, 3),
    }


def _markdown(result: dict[str, Any]) -> str:
    stages = result.pop("stage_cpu_seconds")
    against = result.pop("back_to_back", None)
    md = [
        "# rules pipeline throughput",
        "",
        "| measure | value |",
        "|---|---|",
        *(f"| {k} | {v} |" for k, v in result.items()),
        "",
        "CPU time of one process (one core), best of the repeats, after a warm-up pass;",
        "loading (lexicons, pattern compilation) excluded and given apart.",
        "",
        "| stage | CPU seconds (best) |",
        "|---|---|",
        *(f"| {k} | {v} |" for k, v in stages.items()),
    ]
    if against:
        md += ["", "Back to back with another tree (alternating child processes):", ""]
        md += ["| measure | value |", "|---|---|", *(f"| {k} | {v} |" for k, v in against.items())]
    return "\n".join(md) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=str(CORPUS))
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--against", help="another source tree (src dir) to compare with")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    result = measure(args.corpus, args.repeat)
    if args.json_only:
        print(json.dumps(result))
        return 0
    if args.against:
        result["back_to_back"] = compare(args.against, args.corpus, args.repeat, args.rounds)
    out = HERE / "results"
    out.mkdir(exist_ok=True)
    (out / "bench_rules.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    (out / "bench_rules.md").write_text(_markdown(dict(result)), encoding="utf-8")
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
