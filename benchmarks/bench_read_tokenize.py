"""Reading and tokenizing throughput, in MB of note text per second on one core.

Generates a corpus of clinical-looking notes (default 24 MB of text, fixed seed), writes it
as JSONL and as a folder of i2b2 2014 XML files in a temporary directory, then times, in
this one process: reading each format (``phiscrub.io.read_corpus``), tokenizing every note
(``phiscrub.text.tokenize``), sentence splitting, and streaming JSONL
(``iter_documents``) while tokenizing each note, as a pipeline does.
Results go to ``benchmarks/results/read_tokenize.json`` and ``.md``.

    python benchmarks/bench_read_tokenize.py [--mb 24] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from phiscrub.io import iter_documents, read_corpus, write_corpus
from phiscrub.span import Document, Span
from phiscrub.text import sentences, tokenize

RESULTS = Path(__file__).resolve().parent / "results"

FIRST = ["John", "Maria", "Wei", "Aisha", "Dmitri", "Siobhan", "José", "Kwame", "Ngoc", "Ruth"]
LAST = ["Smith", "Okafor", "Nguyen", "Kowalski", "O'Brien", "García", "Haddad", "Lindqvist"]
CITY = ["Boston", "Lowell", "Worcester", "Providence", "Hartford", "Albany"]
LINES = [
    "HISTORY OF PRESENT ILLNESS:\n",
    "Pt is a {age} yo M with CAD s/p CABG6/95, DM2 (A1c 7.9), HTN, who presents with SOB.\n",
    "Seen by Dr. {last} on {date}; BP 142/88, HR 92, T 98.6F, SpO2 95% RA.\n",
    "Meds: metoprolol 25 mg PO bid, ASA 81 mg daily, atorvastatin 40-80 mg qhs.\r\n",
    "SOCIAL HISTORY:\nLives in {city} with wife {first}. Tob: 1 ppd x 30 yrs. EtOH: denies.\n",
    "Labs: Na 138 K 4.1 Cl 101 HCO3 24 BUN 22 Cr 1.3 Glu 188 WBC 11.2 Hgb 12.9 Plt 240\n",
    "Assessment and Plan:\t1. CHF exacerbation 2/2 dietary indiscretion. Diurese.\n",
    "Call {first} {last} at (617) 555-{four} with results. F/u PEND{date}.\n",
    "Gleason 3+4=7; GCS 15; L4-L5 disc bulge; Murphy's sign negative.\n",
]


def make_note(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randint(10, 40)):
        line = rng.choice(LINES)
        parts.append(
            line.format(
                age=rng.randint(18, 95),
                last=rng.choice(LAST),
                first=rng.choice(FIRST),
                city=rng.choice(CITY),
                date=f"{rng.randint(1, 12):02d}/{rng.randint(1, 28):02d}/{rng.randint(2050, 2099)}",
                four=f"{rng.randint(0, 9999):04d}",
            )
        )
    return "".join(parts)


def make_corpus(mb: float, seed: int = 7) -> list[Document]:
    rng = random.Random(seed)
    docs: list[Document] = []
    size = 0
    while size < mb * 1_000_000:
        text = make_note(rng)
        i = len(docs)
        first = text.find("Dr. ") + 4
        span = None
        if "Dr. " in text:
            span = Span.of(text, first, text.index(" on ", first), "DOCTOR")
        patient = str(i // 3 + 100)
        gold = {"gold": [span] if span else []}
        docs.append(Document(f"{patient}-{i % 3 + 1:02d}", text, patient, layers=gold))
        size += len(text.encode("utf-8"))
    return docs


def best_of(repeat: int, fn: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--mb", type=float, default=24.0, help="MB of note text to generate")
    ap.add_argument("--repeat", type=int, default=3, help="runs per measure (best is kept)")
    args = ap.parse_args()
    docs = make_corpus(args.mb)
    mb = sum(len(d.text.encode("utf-8")) for d in docs) / 1_000_000
    texts = [d.text for d in docs]
    results: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        jsonl = Path(tmp) / "corpus.jsonl"
        xml = Path(tmp) / "xml"
        write_corpus(docs, jsonl, format="jsonl")
        write_corpus(docs, xml, format="i2b2-2014")
        results["read_jsonl"] = best_of(args.repeat, lambda: read_corpus(jsonl))
        results["read_i2b2_2014"] = best_of(args.repeat, lambda: read_corpus(xml))
        # A pipeline tokenizes a note, uses its tokens and drops them: so do we. (Keeping
        # millions of tokens alive at once makes the cyclic GC dominate the timing.)
        results["tokenize"] = best_of(args.repeat, lambda: sum(len(tokenize(t)) for t in texts))
        results["sentences"] = best_of(args.repeat, lambda: sum(len(sentences(t)) for t in texts))
        results["stream_jsonl_and_tokenize"] = best_of(
            args.repeat, lambda: sum(len(tokenize(d.text)) for d in iter_documents(jsonl))
        )
    out = {
        "benchmark": "read_tokenize",
        "notes": len(docs),
        "megabytes": round(mb, 2),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cores_used": 1,
        "seconds": {k: round(v, 3) for k, v in results.items()},
        "mb_per_second_per_core": {k: round(mb / v, 2) for k, v in results.items()},
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "read_tokenize.json").write_text(json.dumps(out, indent=1) + "\n")
    rows = "\n".join(
        f"| {k} | {out['seconds'][k]} | {out['mb_per_second_per_core'][k]} |" for k in results
    )
    md = (
        f"# Reading and tokenizing throughput\n\n{len(docs)} generated notes, {mb:.1f} MB of "
        f"text, one core, Python {out['python']}, best of {args.repeat}.\n\n"
        f"| step | seconds | MB/s per core |\n|---|---|---|\n{rows}\n"
    )
    (RESULTS / "read_tokenize.md").write_text(md)
    print(md)


if __name__ == "__main__":
    main()
