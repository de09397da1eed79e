"""The request and response bodies of the HTTP service (pydantic; they make the OpenAPI schema).

Requests are strict: unknown fields are refused (a typo such as ``"txt"`` or
``"include_replacement"`` must not be ignored silently), texts must be JSON strings,
and the flags JSON booleans.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr, field_validator

from phiscrub.taxonomy import CATEGORIES, SUBTYPES

Mode = Literal["surrogate", "tag", "redact", "placeholder"]

#: ids and patient ids longer than this are refused (they are names, not data)
MAX_ID_CHARS = 256

Identifier = Annotated[StrictStr, Field(min_length=1, max_length=MAX_ID_CHARS)]


def _checked_text(text: str) -> str:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(
            "the text holds an unpaired UTF-16 surrogate escape (\\ud800-\\udfff): "
            "send valid Unicode"
        ) from None
    return text


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NoteIn(_Strict):
    """One note. Without ``patient_id`` the note is its own patient."""

    id: Identifier | None = Field(
        None, description="your id for the note; default: its index in the request ('0', '1'...)"
    )
    text: StrictStr = Field(description="the note text, as it is (offsets count code points)")
    patient_id: Identifier | None = Field(
        None,
        description="notes of one patient get the same surrogates (keyed), across requests",
    )

    _text_ok = field_validator("text")(_checked_text)


class DetectRequest(_Strict):
    notes: list[NoteIn] = Field(description="the notes to search, in order")
    include_text: StrictBool = Field(
        False, description="also return each span's text (default: offsets and labels only)"
    )


class DeidentifyRequest(_Strict):
    notes: list[NoteIn] = Field(description="the notes to de-identify, in order")
    mode: Mode | None = Field(None, description="replacement mode; default: the server's --mode")
    keep: list[StrictStr] | None = Field(
        None,
        description="labels (PATIENT, DATE...) or categories (NAME, LOCATION...) left in "
        "clear; default: the server's --keep",
    )
    include_replacements: StrictBool = Field(
        False,
        description="also return the original -> replacement mapping of each note (it "
        "contains PHI: keep it as secret as the notes)",
    )

    @field_validator("keep")
    @classmethod
    def _known_labels(cls, keep: list[str] | None) -> list[str] | None:
        if keep is None:
            return None
        names = [name.strip().upper() for name in keep]
        unknown = sorted({n for n in names if n not in CATEGORIES and n not in SUBTYPES})
        if unknown:
            raise ValueError(
                f"unknown labels or categories: {', '.join(unknown)}; use i2b2 2014 "
                f"subtypes ({', '.join(SUBTYPES[:3])}...) or categories ({', '.join(CATEGORIES)})"
            )
        return names


class DetectedSpan(BaseModel):
    start: int = Field(description="offset of the first character (code points)")
    end: int = Field(description="offset after the last character (half-open)")
    label: str
    source: str = Field(description="the detector and pattern or model that found it")
    score: float
    text: str | None = Field(None, description="only with include_text")


class DetectedNote(BaseModel):
    id: str
    patient_id: str | None = None
    spans: list[DetectedSpan]


class DetectResponse(BaseModel):
    pipeline: str
    notes: list[DetectedNote]


class OutputSpan(BaseModel):
    start: int = Field(description="offset into the NEW text")
    end: int
    label: str
    kept: bool = Field(description="left in clear because of keep")


class ReplacementOut(BaseModel):
    label: str
    original: str
    replacement: str
    start: int = Field(description="offset into the original text")
    end: int
    new_start: int = Field(description="offset into the new text")
    new_end: int


class DeidentifiedNote(BaseModel):
    id: str
    patient_id: str | None = None
    text: str = Field(description="the de-identified text")
    spans: list[OutputSpan]
    counts: dict[str, int] = Field(description="PHI spans found, per label (kept ones too)")
    replacements: list[ReplacementOut] | None = Field(
        None, description="only with include_replacements"
    )


class DeidentifyResponse(BaseModel):
    pipeline: str
    mode: Mode
    notes: list[DeidentifiedNote]


class Health(BaseModel):
    status: Literal["ok"]
    version: str
    pipeline: str
    default_mode: Mode
    key_loaded: bool = Field(description="whether surrogate mode can be used")
    max_request_bytes: int
    max_notes: int


class ErrorItem(BaseModel):
    loc: list[str | int] = Field(description="where in the request: ['body', 'notes', 0, 'text']")
    msg: str
    type: str


class ErrorMessage(BaseModel):
    detail: str


class ValidationErrorMessage(BaseModel):
    detail: list[ErrorItem]
    message: str = Field(description="the same, as one line")
