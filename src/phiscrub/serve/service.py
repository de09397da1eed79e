"""The work behind the endpoints, free of HTTP: one loaded detector, per-request variants.

The detector (the model, or a rule pipeline) is loaded once, at start-up. A request that
asks for another mode or other kept labels gets a ``Deidentifier`` variant that shares
it (``Deidentifier.with_replacement``); variants are cached. Detection runs under a lock
(a trained tagger keeps decoding state and is not promised to be thread-safe), the
replacement step does not.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from phiscrub.api import Deidentifier, Result, Settings
from phiscrub.errors import UsageError
from phiscrub.span import Document, Span
from phiscrub.surrogate.replace import Mode
from phiscrub.taxonomy import CATEGORY_OF, SUBTYPES

#: 10 MiB: about 2,000 long notes of 5,000 characters
DEFAULT_MAX_REQUEST_BYTES = 10 * 1024 * 1024
DEFAULT_MAX_NOTES = 1000


@dataclass(frozen=True)
class Limits:
    """What one request may hold: its body size in bytes and its number of notes."""

    max_request_bytes: int = DEFAULT_MAX_REQUEST_BYTES
    max_notes: int = DEFAULT_MAX_NOTES

    def __post_init__(self) -> None:
        if self.max_request_bytes < 1 or self.max_notes < 1:
            raise UsageError(
                "--max-request-bytes and --max-notes must be at least 1",
                hint="the defaults are 10485760 bytes and 1000 notes",
            )


@dataclass(frozen=True)
class NoteInput:
    """One note of a request, as sent (``id`` and ``patient_id`` may be absent)."""

    id: str | None
    text: str
    patient_id: str | None


def kept_labels(keep: Iterable[str]) -> frozenset[str]:
    """The subtypes that ``keep`` (labels or categories) leaves in clear."""
    names = set(keep)
    return frozenset(label for label in SUBTYPES if label in names or CATEGORY_OF[label] in names)


def documents(notes: Sequence[NoteInput]) -> list[Document]:
    """Documents for the notes of a request. A note without ``id`` is named by its index.

    A note without ``patient_id`` is its own patient: its surrogate scope is derived from
    its text, so it is reproducible for the same text and never linked to another note
    (not even to one sent later under the same id or index).
    """
    out = []
    for index, note in enumerate(notes):
        patient = note.patient_id
        if patient is None:
            digest = hashlib.sha256(note.text.encode("utf-8", "surrogatepass")).hexdigest()
            patient = f"note:{digest[:32]}"
        out.append(Document(note.id or str(index), note.text, patient))
    return out


class Service:
    """A loaded de-identifier and the server's defaults; thread-safe."""

    def __init__(
        self,
        deid: Deidentifier,
        *,
        default_mode: Mode | None = None,
        default_keep: Sequence[str] | None = None,
        limits: Limits | None = None,
    ) -> None:
        self.deid = deid
        self.default_mode: Mode = default_mode or deid.settings.mode
        self.default_keep: tuple[str, ...] = tuple(
            deid.settings.keep if default_keep is None else default_keep
        )
        self.limits = limits or Limits()
        self._lock = threading.Lock()
        self._variant = lru_cache(maxsize=32)(self._make_variant)

    @classmethod
    def start(cls, settings: Settings, key: bytes | None, limits: Limits | None = None) -> Service:
        """Load the detector once. With a key, surrogate mode is available to every request
        whatever ``settings.mode`` (the default mode) is; without one, a surrogate default
        raises ``SurrogateKeyError`` (E401) here, at start-up."""
        base = replace(settings, mode="surrogate") if key is not None else settings
        deid = Deidentifier(base, key=key)
        return cls(deid, default_mode=settings.mode, default_keep=settings.keep, limits=limits)

    @property
    def pipeline(self) -> str:
        return self.deid.settings.detector_name

    @property
    def key_loaded(self) -> bool:
        return self.deid.key is not None

    def variant(self, mode: Mode | None = None, keep: Sequence[str] | None = None) -> Deidentifier:
        """The de-identifier for one request's options, sharing the loaded detector.
        Raises ``SurrogateKeyError`` (E401) for surrogate mode on a server without a key,
        ``UsageError`` for an unknown mode or label."""
        names = self.default_keep if keep is None else tuple(keep)
        return self._variant(mode or self.default_mode, tuple(sorted(set(names))))

    def _make_variant(self, mode: Mode, keep: tuple[str, ...]) -> Deidentifier:
        return self.deid.with_replacement(mode=mode, keep=keep)

    def detect(self, docs: Sequence[Document]) -> list[list[Span]]:
        with self._lock:
            found = self.deid.detect_documents(docs)
        if len(found) != len(docs):  # fail closed: never pair a note with another's spans
            raise RuntimeError("the detector returned a result count unlike the note count")
        return found

    def deidentify(self, deid: Deidentifier, docs: Sequence[Document]) -> list[Result]:
        """Detect with the shared detector, then replace with ``deid`` (a ``variant``)."""
        found = self.detect(docs)
        results = [deid.replace(doc, spans) for doc, spans in zip(docs, found, strict=True)]
        for doc, result in zip(docs, results, strict=True):
            if result.id != doc.id:
                raise RuntimeError("a result does not belong to its note")
        return results
