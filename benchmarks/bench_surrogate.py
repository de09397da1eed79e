"""Benchmark: surrogate replacements per second on one core.

Generates notes with >= 100,000 PHI spans of every kind (random names, dates in several
formats, ids, phones, places...), 3 notes per patient so that the per-value caches
do not make the work trivial, then times ``Replacer.replace`` over all of them with a
fresh replacer and emptied value caches (cold), ``--repeat`` times; the best run is
the figure (the machine is often shared), the median is reported beside it. Reading
the census name lists (once per process) is timed apart as start-up. Writes
benchmarks/results/surrogate.json and .md.

    python benchmarks/bench_surrogate.py [--spans 100000] [--seed 7] [--repeat 5]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import platform
import random
import statistics
import string
import sys
import time
from collections.abc import Callable
from pathlib import Path

from phiscrub.span import Document, Span
from phiscrub.surrogate import Replacer, keys, names
from phiscrub.surrogate.names import census

FIRST = ("John", "Mary", "Angie", "Dennis", "Kathleen", "Robert", "Linda", "Xavier", "Zoe")
LAST = ("Smith", "Ferrerro", "Holcomb", "Ireland", "Petty", "Nguyen", "Garcia", "Quinn")
DATE_FORMATS = ("%m/%d/%Y", "%Y-%m-%d", "%d-%b-%Y", "%B %d, %Y", "%m/%d/%y", "%b %Y")
TARGET = 50_000


def _digits(rnd: random.Random, n: int) -> str:
    return "".join(rnd.choice(string.digits) for _ in range(n))


def _value(rnd: random.Random, label: str) -> str:
    if label == "PATIENT":
        first = rnd.choice(FIRST) + rnd.choice(("", "a", "ie"))
        return rnd.choice((f"{first} {rnd.choice(LAST)}", f"{rnd.choice(LAST).upper()},{first}"))
    if label == "DOCTOR":
        return f"Dr. {rnd.choice(LAST)}{rnd.choice(('', 's', 'son'))}"
    if label == "DATE":
        day = dt.date(1950, 1, 1) + dt.timedelta(days=rnd.randrange(45_000))
        return day.strftime(rnd.choice(DATE_FORMATS))
    simple: dict[str, Callable[[], str]] = {
        "MEDICALRECORD": lambda: f"{_digits(rnd, 3)}-{_digits(rnd, 2)}-{_digits(rnd, 2)}",
        "PHONE": lambda: f"({_digits(rnd, 3)}) {_digits(rnd, 3)}-{_digits(rnd, 4)}",
        "AGE": lambda: str(rnd.randrange(1, 105)),
        "HOSPITAL": lambda: f"{rnd.choice(LAST)} {rnd.choice(('Hospital', 'Medical Center'))}",
        "CITY": lambda: rnd.choice(("Boston", "Springfield", "Quincy", "Lowell", "Salem")),
        "STREET": lambda: f"{rnd.randrange(1, 999)} {rnd.choice(LAST)} St",
        "IDNUM": lambda: f"{rnd.choice(string.ascii_uppercase)}{_digits(rnd, 6)}",
        "ZIP": lambda: _digits(rnd, 5),
    }
    return simple[label]()


LABELS = ("PATIENT", "DOCTOR", "DATE", "DATE", "DATE", "MEDICALRECORD", "PHONE", "AGE",
          "HOSPITAL", "CITY", "STREET", "IDNUM", "ZIP")  # fmt: skip


def make_notes(n_spans: int, seed: int) -> list[tuple[Document, list[Span]]]:
    """Notes of 20 spans each, 3 notes per patient."""
    rnd = random.Random(seed)
    notes: list[tuple[Document, list[Span]]] = []
    total = 0
    while total < n_spans:
        text, spans = "", []
        for _ in range(20):
            label = rnd.choice(LABELS)
            value = _value(rnd, label)
            text += "Some clinical words here: "
            spans.append(Span(len(text), len(text) + len(value), label, value))
            text += value + ".\n"
        pid = f"patient{len(notes) // 3}"
        notes.append((Document(f"note{len(notes)}", text, pid), spans))
        total += len(spans)
    return notes


def _clear_caches() -> None:
    """Empty the per-process value caches, so that every repeat starts cold."""
    for cached in (keys.digest, names.part_surrogate, names.letter_map, names.name_kind):
        cached.cache_clear()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spans", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=5, help="runs; the best is reported")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results")
    args = parser.parse_args(argv)
    notes = make_notes(args.spans, args.seed)
    n_spans = sum(len(s) for _, s in notes)
    load_start = time.perf_counter()
    census()  # the census lists are read once per process: timed apart, as start-up
    load_seconds = time.perf_counter() - load_start
    times = []
    unparsed = 0
    for _ in range(args.repeat):
        _clear_caches()
        replacer = Replacer(key=b"benchmark-key-not-secret-000000")
        start = time.perf_counter()
        unparsed = sum(replacer.replace(doc, spans).unparsed_dates for doc, spans in notes)
        times.append(time.perf_counter() - start)
    seconds = min(times)
    rate = n_spans / seconds
    result = {
        "benchmark": "surrogate replacements per second, one core, cold value caches",
        "spans": n_spans,
        "notes": len(notes),
        "repeats": args.repeat,
        "seconds": round(seconds, 3),
        "seconds_median": round(statistics.median(times), 3),
        "replacements_per_second_median": round(n_spans / statistics.median(times)),
        "startup_seconds_census_lists": round(load_seconds, 3),
        "replacements_per_second_with_startup": round(n_spans / (seconds + load_seconds)),
        "replacements_per_second": round(rate),
        "target": TARGET,
        "meets_target": rate >= TARGET,
        "unparsed_dates": unparsed,
        "python": sys.version.split()[0],
        "machine": platform.machine(),
        "command": "python benchmarks/bench_surrogate.py " + " ".join(argv or sys.argv[1:]),
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "surrogate.json").write_text(json.dumps(result, indent=2) + "\n")
    rows = "\n".join(f"| {k} | {v} |" for k, v in result.items())
    (args.out / "surrogate.md").write_text(
        f"# Surrogate benchmark\n\n| what | value |\n|---|---|\n{rows}\n"
    )
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
