"""What the Spark tests share besides fixtures: the key, the reference, comparisons."""

from __future__ import annotations

from functools import cache
from typing import Any

from phiscrub.api import Deidentifier, Settings
from phiscrub.span import Document
from phiscrub.synth import SynthOptions, documents

#: the surrogate key of every Spark test (fixed, so that runs are comparable)
KEY = b"phiscrub spark tests: a fixed key"


def corpus() -> list[Document]:
    """21 notes of 7 patients: 20 synthetic ones, and one with CRLF, a tab and an emoji."""
    docs = list(documents(SynthOptions(n=20, seed="spark", patients=6)))
    odd = "Mr. John Smith\r\nseen 03/04/2021 \U0001f600\tcall 617-555-0199 (MRN 4452817)\r\n"
    return [*docs, Document("odd-1", odd, "p-odd")]


@cache
def local_deidentifier(settings: Settings) -> Deidentifier:
    """The in-process reference, built once per settings."""
    return Deidentifier(settings, key=KEY)


def differing(expected: dict[str, Any], found: dict[str, Any]) -> list[str]:
    """The ids whose values differ (assertions name ids, never note text)."""
    return sorted(k for k in expected.keys() | found.keys() if expected.get(k) != found.get(k))


def found_spans(spans: Any) -> list[dict[str, Any]]:
    """Spans as ``deid_spans`` holds them."""
    return [
        {"start": s.start, "end": s.end, "label": s.label, "source": s.source, "score": s.score}
        for s in sorted(spans)
    ]


def same_spans(expected: list[dict[str, Any]], found: list[dict[str, Any]]) -> bool:
    """Equal offsets, labels and sources; scores equal to 1e-12.

    The default model decodes notes in padded batches, and its marginals (the scores)
    differ in the last bits with the batch a note is decoded in: Spark's batches are
    not the local API's.
    """

    def exact(spans: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
        return [(s["start"], s["end"], s["label"], s["source"]) for s in spans]

    return exact(expected) == exact(found) and all(
        abs(a["score"] - b["score"]) <= 1e-12 for a, b in zip(expected, found, strict=True)
    )
