"""The Python API: find PHI in notes and replace it, in a few lines.

>>> from phiscrub import Deidentifier
>>> deid = Deidentifier.default(key=b"an example key, keep yours secret")
>>> note = "Seen by Dr. Alice Moreno on 03/14/2021. Call 617-555-0199 with results."
>>> [(s.label, s.text) for s in deid.detect(note)]
[('DOCTOR', 'Alice Moreno'), ('DATE', '03/14/2021'), ('PHONE', '617-555-0199')]
>>> result = deid.deidentify(note, patient_id="p1")
>>> "Moreno" in result.text or "617-555-0199" in result.text
False
>>> result.text == deid.deidentify(note, patient_id="p1").text  # keyed: reproducible
True
>>> tagged = Deidentifier.default(mode="tag").deidentify(note)
>>> tagged.text
'Seen by Dr. [**DOCTOR**] on [**DATE**]. Call [**PHONE**] with results.'

Several notes at once, in order, with ``jobs`` worker processes (each loads the model
once; see ``phiscrub.deid.batch``):

>>> [r.text for r in Deidentifier.default(mode="redact").pipe(["Mr. Jones", "BP 120/80"])]
['Mr. *****', 'BP 120/80']

``detect`` returns ``Span``s (offsets into the given text); ``deidentify`` returns a
``Result``: the new text, the spans found, and one ``Replacement`` per replaced span.
Reading and writing corpora: ``phiscrub.io.read_corpus`` / ``write_corpus``.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from phiscrub.errors import UsageError
from phiscrub.span import Document, Span
from phiscrub.surrogate.generator import SurrogateOptions
from phiscrub.surrogate.keys import load_key
from phiscrub.surrogate.replace import MODES, AuditRow, Mode, Replacer

if TYPE_CHECKING:
    from phiscrub.detect import Pipeline
    from phiscrub.taggers.base import PersistentTagger

__all__ = ["DETECTORS", "Deidentifier", "Replacement", "Result", "Settings"]

#: the detectors ``--pipeline`` names: the shipped model, and the two rule pipelines
DETECTORS = ("default", "rules", "hd-baseline")

#: one replaced span: label, original text, new text, offsets in the original and new text
Replacement = AuditRow


@dataclass(frozen=True, slots=True)
class Result:
    """One de-identified note.

    ``text`` is the de-identified text; ``spans`` the PHI found (offsets into the
    ORIGINAL text); ``output_spans`` the same spans at their offsets in ``text``;
    ``replacements`` one row per replaced span (original and new text: keep it as
    secret as the notes); ``unparsed_dates`` dates that got a shape-keeping surrogate.
    """

    id: str
    patient_id: str
    text: str
    spans: tuple[Span, ...]
    output_spans: tuple[Span, ...]
    replacements: tuple[Replacement, ...]
    unparsed_dates: int = 0

    def __repr__(self) -> str:  # never show note text by accident (logs, tracebacks)
        return f"Result(id={self.id!r}, spans={len(self.spans)}, chars={len(self.text)})"


@dataclass(frozen=True)
class Settings:
    """Everything a ``Deidentifier`` needs besides its key; picklable, so that worker
    processes can rebuild the same de-identifier (``phiscrub.deid.batch``).

    ``pipeline``: ``default`` (the shipped model), ``rules`` or ``hd-baseline``;
    ``model``: a model archive (overrides ``pipeline``); ``recall_bias``: the
    recall-bias threshold of a trained model (a token is PHI when P(O) < t; higher
    finds more); ``keep``: labels or categories left in clear; ``mode``: surrogate,
    tag, redact or placeholder; ``reconcile``: ``note`` (a trained model propagates
    names and IDs found confidently to their other mentions within each note) or
    ``patient`` (across the notes of each patient given in one call). ``note`` makes
    each note's output depend only on the note, its patient id and the key, so a batch
    run gives the same bytes whatever its batching, worker count, engine or restarts.
    """

    pipeline: str = "default"
    model: str | None = None
    mode: Mode = "surrogate"
    keep: tuple[str, ...] = ()
    recall_bias: float | None = None
    options: SurrogateOptions = field(default_factory=SurrogateOptions)
    reconcile: Literal["note", "patient"] = "note"

    def __post_init__(self) -> None:
        if self.model is None and self.pipeline not in DETECTORS:
            raise UsageError(
                f"unknown pipeline {self.pipeline!r}",
                hint=f"use one of {', '.join(DETECTORS)}, or give a model archive with --model",
            )
        if self.mode not in MODES:
            raise UsageError(f"unknown mode {self.mode!r}", hint=f"use one of {', '.join(MODES)}")
        if self.recall_bias is not None and not 0.0 < self.recall_bias <= 1.0:
            raise UsageError(
                f"recall bias {self.recall_bias} is outside (0, 1]",
                hint="a token is PHI when P(O) < t; 0.5 is neutral, 0.9 finds more",
            )
        if self.reconcile not in ("note", "patient"):
            raise UsageError(f"unknown reconcile {self.reconcile!r}", hint="use note or patient")
        if self.recall_bias is not None and self.model is None and self.pipeline != "default":
            raise UsageError(
                "--recall-bias applies to a trained model, not to the rule pipelines",
                hint="drop --recall-bias, or use --pipeline default or --model PATH",
            )

    @property
    def detector_name(self) -> str:
        return f"model:{Path(self.model).name}" if self.model else self.pipeline


_SETTLED = False


def settle_heap() -> None:
    """Once per process: collect, then move every object alive (the model, lexicons,
    patterns and per-word caches, which live as long as the process) to the garbage
    collector's permanent generation, so that its full collections stop walking them.

    Each full collection walked the loaded detector: about 0.2 s per 200 notes of the
    default pipeline, a tenth of its time (docs/models.md, "Twelfth round"). The cost is
    that cyclic garbage among the objects alive now is never freed: after loading there is
    none. ``PHISCRUB_GC_FREEZE=0`` turns this off (for a process that holds other
    long-lived data). The detector calls it after its first batch, when everything it
    loads lazily is loaded.
    """
    global _SETTLED
    if _SETTLED or os.environ.get("PHISCRUB_GC_FREEZE", "1") == "0":
        return
    _SETTLED = True
    gc.collect()
    gc.freeze()


class _Detector:
    """Runs the configured detector over a batch of documents."""

    def __init__(self, settings: Settings) -> None:
        self.by_patient = settings.reconcile == "patient"
        self.tagger: PersistentTagger | None = None
        self.pipeline: Pipeline | None = None
        if settings.model is not None or settings.pipeline == "default":
            from phiscrub.model import load_model
            from phiscrub.taggers.default import load_default

            tagger = load_model(settings.model) if settings.model else load_default()
            if settings.recall_bias is not None:
                with_threshold = getattr(tagger, "with_threshold", None)
                if with_threshold is None:
                    raise UsageError(f"the model {settings.detector_name} has no recall bias")
                tagger = with_threshold(settings.recall_bias)
            self.tagger = tagger
        else:
            from phiscrub.detect import get_pipeline

            self.pipeline = get_pipeline(settings.pipeline)

    def __call__(self, docs: Sequence[Document]) -> list[list[Span]]:
        found = self._run(docs)
        settle_heap()
        return found

    def _run(self, docs: Sequence[Document]) -> list[list[Span]]:
        if self.pipeline is not None:
            return [self.pipeline.run(d) for d in docs]
        assert self.tagger is not None
        many = getattr(self.tagger, "predict_many", None)
        if many is not None:  # batched decoding
            found: list[list[Span]] = many(docs, by_patient=self.by_patient)
            return found
        return [self.tagger.predict(d) for d in docs]


class Deidentifier:
    """Finds PHI and replaces it; see the module docstring for examples.

    Build one with ``Deidentifier.default()`` (the shipped model, surrogate mode) or
    ``Deidentifier(Settings(...), key=...)``. In surrogate mode the key comes from
    ``key``, else from the ``PHISCRUB_KEY`` environment variable; without either it
    raises ``SurrogateKeyError`` (E401).
    """

    def __init__(self, settings: Settings | None = None, *, key: bytes | str | None = None):
        self.settings = settings or Settings()
        self._key: bytes | None = None
        if self.settings.mode == "surrogate":
            self._key = key.encode("utf-8") if isinstance(key, str) else key
            if self._key is None:
                self._key = load_key(None)
            else:  # same checks as a key file
                from phiscrub.surrogate.keys import _decode_key

                self._key = _decode_key(self._key, "the key argument")
        self.replacer = Replacer(
            self.settings.mode, key=self._key, keep=self.settings.keep,
            options=self.settings.options, audit=True,
        )  # fmt: skip
        self._detect = _Detector(self.settings)

    @classmethod
    def default(cls, *, key: bytes | str | None = None, **settings: Any) -> Deidentifier:
        """The default model in surrogate mode; keyword ``settings`` as in ``Settings``."""
        return cls(Settings(**settings), key=key)

    def with_settings(self, **changes: Any) -> Deidentifier:
        """A de-identifier with some settings changed and the same key."""
        return Deidentifier(replace(self.settings, **changes), key=self._key)

    def with_replacement(
        self, *, mode: Mode | None = None, keep: Iterable[str] | None = None
    ) -> Deidentifier:
        """A de-identifier with another mode or kept labels that shares this one's loaded
        detector and key (cheap: nothing is loaded again). Surrogate mode needs this one
        to hold a key (built in surrogate mode); else ``SurrogateKeyError`` (E401)."""
        settings = replace(
            self.settings,
            mode=self.settings.mode if mode is None else mode,
            keep=self.settings.keep if keep is None else tuple(keep),
        )
        clone = object.__new__(Deidentifier)
        clone.settings = settings
        clone._key = self._key if settings.mode == "surrogate" else None
        clone.replacer = Replacer(
            settings.mode, key=clone._key, keep=settings.keep, options=settings.options, audit=True
        )
        clone._detect = self._detect
        return clone

    @property
    def key(self) -> bytes | None:
        return self._key

    # -- one note -------------------------------------------------------------------
    def detect(self, text: str, patient_id: str | None = None, *, id: str = "note") -> list[Span]:
        """The PHI spans of ``text`` (offsets into it), in text order."""
        return self.detect_documents([Document(id, text, patient_id)])[0]

    def deidentify(self, text: str, patient_id: str | None = None, *, id: str = "note") -> Result:
        """``text`` with its PHI replaced. Notes of one ``patient_id`` share surrogates."""
        return self.deidentify_documents([Document(id, text, patient_id)])[0]

    # -- batches --------------------------------------------------------------------
    def detect_documents(self, docs: Sequence[Document]) -> list[list[Span]]:
        """The spans of each document (with ``reconcile="patient"``, a trained model
        reconciles names and IDs across the notes of each patient in ``docs``)."""
        return [sorted(spans) for spans in self._detect(docs)]

    def replace(self, doc: Document, spans: Sequence[Span]) -> Result:
        """Replace given spans of ``doc`` (no detection)."""
        out = self.replacer.replace(doc, spans)
        found = tuple(sorted({(a.start, a.end, a.label): a for a in spans}.values()))
        return Result(
            doc.id, doc.patient_id, out.text, found, out.spans, out.audit, out.unparsed_dates
        )

    def deidentify_documents(self, docs: Sequence[Document]) -> list[Result]:
        """Detect and replace, one ``Result`` per document, in order."""
        return [
            self.replace(d, s) for d, s in zip(docs, self.detect_documents(docs), strict=True)
        ]

    def pipe(
        self, notes: Iterable[str | Document], *, jobs: int = 1, batch_size: int = 32
    ) -> Iterator[Result]:
        """De-identify a stream of notes (texts or ``Document``s), yielding results in
        input order. A text is its own patient; give ``Document``s to set patients.
        ``jobs > 1`` runs worker processes, each loading the model once."""
        if jobs < 1 or batch_size < 1:
            raise UsageError("jobs and batch_size must be at least 1")
        docs = (
            n if isinstance(n, Document) else Document(f"note-{i}", n)
            for i, n in enumerate(notes, 1)
        )
        if jobs == 1:
            yield from _batched_results(self, docs, batch_size)
            return
        from phiscrub.deid.batch import parallel_results

        yield from parallel_results(self.settings, self._key, docs, jobs, batch_size)


def _batched_results(
    deid: Deidentifier, docs: Iterable[Document], batch_size: int
) -> Iterator[Result]:
    batch: list[Document] = []
    for doc in docs:
        batch.append(doc)
        if len(batch) >= batch_size:
            yield from deid.deidentify_documents(batch)
            batch = []
    if batch:
        yield from deid.deidentify_documents(batch)
