"""The data model: one frozen ``Span`` type shared by every stage, and ``Document``.

Offsets are half-open and count Python code points (``str`` indices) into the
ORIGINAL text, exactly as read: a CRLF is two code points, a tab one, an emoji one.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from phiscrub.errors import SpanError
from phiscrub.taxonomy import CATEGORY_OF, category_of


@dataclass(frozen=True, slots=True, order=True)
class Span:
    """A labelled stretch ``[start, end)`` of a document's original text.

    ``text`` must equal ``doc.text[start:end]`` (``Document.set_layer`` checks it);
    ``source`` names the detector and pattern or model that produced the span;
    ``score`` is a confidence in [0, 1] (1.0 for gold and rules).
    """

    start: int
    end: int
    label: str
    text: str
    source: str = ""
    score: float = 1.0

    def __post_init__(self) -> None:
        if not isinstance(self.start, int) or not isinstance(self.end, int):
            raise SpanError("span offsets must be integers")
        if self.start < 0 or self.end <= self.start:
            raise SpanError(f"span offsets {self.start}-{self.end} are not a non-empty range")
        if len(self.text) != self.end - self.start:
            raise SpanError(
                f"span {self.start}-{self.end} has a text of {len(self.text)} characters"
            )
        if self.label not in CATEGORY_OF:
            category_of(self.label)  # raises LabelError with the label name
        if not 0.0 <= self.score <= 1.0:
            raise SpanError(f"span score {self.score} is outside [0, 1]")

    @property
    def category(self) -> str:
        return CATEGORY_OF[self.label]

    @classmethod
    def of(
        cls, text: str, start: int, end: int, label: str, source: str = "", score: float = 1.0
    ) -> Span:
        """Build a span over ``text[start:end]``, checking that the offsets fit the text."""
        if not 0 <= start < end <= len(text):
            raise SpanError(f"span offsets {start}-{end} fall outside a text of {len(text)}")
        return cls(start, end, label, text[start:end], source, score)

    def overlaps(self, other: Span) -> bool:
        return self.start < other.end and other.start < self.end

    def to_dict(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "label": self.label, "text": self.text}


class WriteOnceDict(Mapping[str, Any]):
    """Document metadata: a key may be set once and never changed or removed."""

    __slots__ = ("_data",)

    def __init__(self, initial: Mapping[str, Any] | None = None) -> None:
        self._data: dict[str, Any] = dict(initial or {})

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __setitem__(self, key: str, value: Any) -> None:
        if key in self._data:
            raise KeyError(f"metadata key {key!r} is already set; metadata is write-once")
        self._data[key] = value

    def __repr__(self) -> str:
        return f"WriteOnceDict({sorted(self._data)})"


class Document:
    """A note: its id, its patient, its original text (never modified), metadata and span layers.

    Layers are named tuples of spans sorted by (start, end, label): ``gold`` for the
    reference annotation and one per stage (``rules``, ``crf``, ``final``...).
    """

    __slots__ = ("_id", "_layers", "_patient_id", "_text", "metadata")

    def __init__(
        self,
        id: str,
        text: str,
        patient_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        layers: Mapping[str, Iterable[Span]] | None = None,
    ) -> None:
        if not isinstance(text, str):
            raise TypeError("Document text must be str")
        if not id:
            raise SpanError("a document needs a non-empty id")
        self._id = str(id)
        self._text = text
        # Without a patient id, a note is its own patient: surrogates stay consistent within it.
        self._patient_id = str(patient_id) if patient_id not in (None, "") else self._id
        self.metadata = WriteOnceDict(metadata)
        self._layers: dict[str, tuple[Span, ...]] = {}
        for name, spans in (layers or {}).items():
            self.set_layer(name, spans)

    @property
    def id(self) -> str:
        return self._id

    @property
    def text(self) -> str:
        return self._text

    @property
    def patient_id(self) -> str:
        return self._patient_id

    @property
    def layers(self) -> Mapping[str, tuple[Span, ...]]:
        return dict(self._layers)

    def layer(self, name: str) -> tuple[Span, ...]:
        """The spans of a layer (empty if the layer is absent)."""
        return self._layers.get(name, ())

    @property
    def gold(self) -> tuple[Span, ...]:
        return self.layer("gold")

    def set_layer(self, name: str, spans: Iterable[Span]) -> None:
        """Store a layer, checking every span against the text."""
        checked = tuple(sorted(spans))
        for span in checked:
            if span.end > len(self._text):
                raise SpanError(
                    f"document {self._id}: span {span.start}-{span.end} ends after the text "
                    f"({len(self._text)} characters)"
                )
            if self._text[span.start : span.end] != span.text:
                raise SpanError(
                    f"document {self._id}: span {span.start}-{span.end} ({span.label}) "
                    "does not match the text at its offsets"
                )
        self._layers[name] = checked

    def with_layer(self, name: str, spans: Iterable[Span]) -> Document:
        """A copy of this document with one more (or one replaced) layer."""
        layers: dict[str, Iterable[Span]] = dict(self._layers)
        layers[name] = spans
        return Document(self._id, self._text, self._patient_id, dict(self.metadata), layers)

    def __repr__(self) -> str:
        counts = ", ".join(f"{k}={len(v)}" for k, v in self._layers.items())
        return (
            f"Document(id={self._id!r}, patient={self._patient_id!r}, "
            f"chars={len(self._text)}, {counts})"
        )
