"""Throughput and scaling of ``phiscrub deid`` end to end, with 1 and 2 worker processes.

    python benchmarks/bench_deid.py [--notes 10000] [--jobs 1 2] [--mode surrogate]
        [--chunk-notes 1000] [--out benchmarks/results]

Generates ``--notes`` synthetic notes (``phiscrub.synth``, seed ``bench-deid``), writes
them as one JSONL file, and runs the real command on them once per ``--jobs`` value::

    python -m phiscrub deid notes.jsonl -o out.jsonl --jobs N --key-file K --quiet

(the default model, a fixed key, surrogate mode unless ``--mode``). Reported per run:
wall-clock seconds and notes/s of the whole command (start-up and model loading
included), the notes/s of the run's own summary, and the peak resident memory (VmHWM,
sampled from /proc every 0.2 s) of the main process and of each worker process. The
scaling factor is the 2-job rate over the 1-job rate; the outputs of all runs must be
byte-identical (their SHA-256 is compared). Model loading (imports, then the archive) is
timed apart in a fresh process. Writes ``bench_deid.json`` and ``bench_deid.md`` into
``--out``. Not a test: timings depend on the machine and on what else runs on it (the
1-minute load average is recorded).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
KEY = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
LOAD = """
import json, time
t0 = time.perf_counter()
from phiscrub.api import Deidentifier
t1 = time.perf_counter()
Deidentifier.default(mode="tag")
t2 = time.perf_counter()
print(json.dumps({"import_seconds": t1 - t0, "model_load_seconds": t2 - t1}))
"""


def _children() -> dict[int, list[int]]:
    """Parent pid -> child pids, from /proc."""
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        tree.setdefault(ppid, []).append(int(entry))
    return tree


def _hwm_kb(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def _descendants(pid: int) -> tuple[list[int], set[int]]:
    """The descendants of ``pid``, and those of them that have children."""
    tree, out, todo, parents = _children(), [], [pid], set()
    while todo:
        parent = todo.pop()
        for child in tree.get(parent, []):
            out.append(child)
            todo.append(child)
            if parent != pid:
                parents.add(parent)
    return out, parents


def _is_helper(pid: int) -> bool:
    """multiprocessing's resource tracker (not a worker)."""
    try:
        return b"resource_tracker" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def _run(cmd: list[str]) -> tuple[float, list[int], int]:
    """Run ``cmd``: its wall time, the peak RSS (kB) of each worker process (the leaves
    of its process tree: with forkserver they are the server's children), its own peak."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    peaks: dict[int, int] = {}
    not_workers: set[int] = set()
    main_peak = 0
    while proc.poll() is None:
        main_peak = max(main_peak, _hwm_kb(proc.pid) or 0)
        pids, parents = _descendants(proc.pid)
        not_workers |= parents | {p for p in pids if p not in peaks and _is_helper(p)}
        for pid in pids:
            peaks[pid] = max(peaks.get(pid, 0), _hwm_kb(pid) or 0)
        time.sleep(0.2)
    wall = time.perf_counter() - start
    _, err = proc.communicate()
    if proc.returncode != 0:
        raise SystemExit(f"the run failed ({proc.returncode}):\n{err}")
    workers = sorted((kb for pid, kb in peaks.items() if pid not in not_workers), reverse=True)
    return wall, workers, main_peak


def _one(notes: Path, tmp: Path, jobs: int, args: argparse.Namespace) -> dict[str, Any]:
    out, summary = tmp / f"out-{jobs}.jsonl", tmp / f"summary-{jobs}.json"
    cmd = [
        sys.executable, "-m", "phiscrub", "deid", str(notes), "-o", str(out),
        "--jobs", str(jobs), "--mode", args.mode, "--key-file", str(tmp / "key"),
        "--chunk-notes", str(args.chunk_notes), "--quiet", "--summary-json", str(summary),
    ]  # fmt: skip
    wall, workers, main_peak = _run(cmd)
    report = json.loads(summary.read_text())
    return {
        "jobs": jobs,
        "wall_seconds": round(wall, 2),
        "notes_per_s_wall": round(args.notes / wall, 1),
        "notes_per_s_run": report["notes_per_second"],
        "notes_written": report["notes_written"],
        "failures": sum(report["failures_by_code"].values()),
        "phi_found": sum(report["phi_found"].values()),
        "peak_rss_main_mb": round(main_peak / 1024, 1),
        "peak_rss_per_worker_mb": [round(kb / 1024, 1) for kb in workers]
        if jobs > 1
        else [round(main_peak / 1024, 1)],
        "output_sha256": hashlib.sha256(out.read_bytes()).hexdigest(),
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    from phiscrub.io import write_corpus
    from phiscrub.synth import SynthOptions, documents

    with tempfile.TemporaryDirectory(prefix="bench-deid-") as name:
        tmp = Path(name)
        (tmp / "key").write_text(KEY)
        notes = tmp / "notes.jsonl"
        write_corpus(
            documents(SynthOptions(n=args.notes, seed="bench-deid")), notes, format="jsonl"
        )
        chars = sum(len(json.loads(line)["text"]) for line in notes.open(encoding="utf-8"))
        load = json.loads(
            subprocess.run(
                [sys.executable, "-c", LOAD], capture_output=True, text=True, check=True
            ).stdout
        )
        runs = [_one(notes, tmp, jobs, args) for jobs in args.jobs]
    rates = {r["jobs"]: r["notes_per_s_wall"] for r in runs}
    scaling = round(rates[2] / rates[1], 2) if 1 in rates and 2 in rates else None
    return {
        "notes": args.notes,
        "mean_characters": round(chars / args.notes),
        "mode": args.mode,
        "detector": "default",
        "chunk_notes": args.chunk_notes,
        "import_seconds": round(load["import_seconds"], 2),
        "model_load_seconds": round(load["model_load_seconds"], 2),
        "runs": runs,
        "scaling_2_over_1": scaling,
        "outputs_identical": len({r["output_sha256"] for r in runs}) == 1,
        "cpu_count": os.cpu_count(),
        "load_average_1min": round(os.getloadavg()[0], 2),
        "python": platform.python_version(),
        "machine": platform.machine(),
    }


def _markdown(result: dict[str, Any]) -> list[str]:
    md = [
        "# phiscrub deid: throughput and scaling",
        "",
        f"{result['notes']} synthetic notes (mean {result['mean_characters']} characters), "
        f"JSONL in and out, default model, {result['mode']} mode with a fixed key, chunks of "
        f"{result['chunk_notes']} notes. Model loading in a fresh process: imports "
        f"{result['import_seconds']} s, model {result['model_load_seconds']} s.",
        "",
        "| jobs | wall s | notes/s (wall) | notes/s (run) | peak RSS main MB | "
        "peak RSS per worker MB | failures |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in result["runs"]:
        md.append(
            f"| {r['jobs']} | {r['wall_seconds']} | {r['notes_per_s_wall']} | "
            f"{r['notes_per_s_run']} | {r['peak_rss_main_mb']} | "
            f"{', '.join(map(str, r['peak_rss_per_worker_mb']))} | {r['failures']} |"
        )
    md += [
        "",
        f"Scaling (2 jobs over 1, wall): {result['scaling_2_over_1']}. Outputs identical: "
        f"{result['outputs_identical']}. {result['cpu_count']} CPUs, load average "
        f"{result['load_average_1min']} at the end, Python {result['python']}.",
        "",
        "Wall time includes start-up and model loading (once per worker). With 1 job the "
        "main process does the work, so its peak RSS is the worker's.",
    ]
    return md


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--notes", type=int, default=10_000)
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--mode", choices=("surrogate", "tag"), default="surrogate")
    ap.add_argument("--chunk-notes", type=int, default=1000)
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    result = run(args)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "bench_deid.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    md = _markdown(result)
    (args.out / "bench_deid.md").write_text("\n".join(md) + "\n", encoding="utf-8")
    print("\n".join(md))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
