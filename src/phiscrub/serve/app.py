"""The FastAPI application: ``/v1/detect``, ``/v1/deidentify`` and ``/health``.

The endpoints that run the model are plain ``def`` functions: FastAPI runs them in its
thread pool, so the event loop keeps answering (``/health`` included) while notes are
processed. Errors never quote the request: validation errors keep their location and
message and drop the offending input, and a failure inside the pipeline answers 500
for the whole request (fail closed: no note is returned un-de-identified).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TypeVar

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp

from phiscrub import __version__
from phiscrub.api import Result
from phiscrub.errors import PhiscrubError
from phiscrub.serve import models as m
from phiscrub.serve.guard import BodyLimit, ErrorGuard
from phiscrub.serve.logs import log_failure
from phiscrub.serve.service import NoteInput, Service, documents, kept_labels
from phiscrub.span import Span
from phiscrub.surrogate.keys import SurrogateKeyError

T = TypeVar("T")

DESCRIPTION = """Finds protected health information (PHI) in clinical notes and replaces it.

Offsets are half-open and count Unicode code points of the text (not bytes, not UTF-16
units). Errors never quote note text. See docs/serve.md."""

NO_KEY = (
    "[E401] this server has no surrogate key, so it cannot use mode surrogate: ask for mode "
    "tag, redact or placeholder, or restart the server with --key-file or PHISCRUB_KEY"
)

_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": m.ErrorMessage, "description": "malformed JSON, or an option not served"},
    413: {"model": m.ErrorMessage, "description": "body or note count over the server's limit"},
    415: {"model": m.ErrorMessage, "description": "a body not sent as application/json"},
    422: {"model": m.ValidationErrorMessage, "description": "a request unlike the schema"},
    500: {"model": m.ErrorMessage, "description": "internal error: no note is returned"},
}


class _GuardedApp(FastAPI):
    """FastAPI with the body limit and the error guard outside its whole middleware stack."""

    max_request_bytes: int = 0

    def build_middleware_stack(self) -> ASGIApp:
        return ErrorGuard(BodyLimit(super().build_middleware_stack(), self.max_request_bytes))


def _where(loc: Sequence[Any]) -> str:
    parts = [str(p) for p in loc if p != "body"]
    return ".".join(parts) or "body"


async def _invalid(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = exc.errors()
    if any(e.get("type") == "json_invalid" for e in errors):
        position = next((p for e in errors for p in e.get("loc", ()) if isinstance(p, int)), None)
        at = f" (at character {position})" if position is not None else ""
        detail = f"the request body is not valid JSON{at}: send a JSON object such as " + (
            '{"notes": [{"text": "..."}]} with Content-Type: application/json'
        )
        return JSONResponse({"detail": detail}, status_code=400)
    content_type = request.headers.get("content-type", "")
    if "json" not in content_type.split(";", 1)[0]:
        detail = (
            f"the body must be JSON sent with Content-Type: application/json, not {content_type!r}"
        )
        return JSONResponse({"detail": detail[:200]}, status_code=415)
    items = []
    for error in errors:  # location, message and type only: "input" and "ctx" may hold PHI
        loc = [p if isinstance(p, int) else str(p) for p in error.get("loc", ())]
        msg = str(error.get("msg", "invalid"))
        if loc == ["body"]:
            msg += ': send a JSON object such as {"notes": [{"text": "..."}]}'
        items.append({"loc": loc, "msg": msg, "type": str(error.get("type", ""))})
    message = "; ".join(f"{_where(i['loc'])}: {i['msg']}" for i in items)
    return JSONResponse({"detail": items, "message": message}, status_code=422)


def _failed(where: str, exc: Exception) -> NoReturn:
    reference = log_failure(where, exc)
    detail = f"internal error (reference {reference}); no note was returned"
    raise HTTPException(500, detail) from None


def _guarded(where: str, work: Callable[[], T]) -> T:
    try:
        return work()
    except Exception as exc:
        _failed(where, exc)


def _inputs(service: Service, notes: Sequence[m.NoteIn]) -> list[NoteInput]:
    limit = service.limits.max_notes
    if len(notes) > limit:
        raise HTTPException(
            413,
            f"too many notes in one request: {len(notes)}, and this server's limit is "
            f"{limit} (phiscrub serve --max-notes): split the batch",
        )
    return [NoteInput(n.id, n.text, n.patient_id) for n in notes]


def create_app(service: Service) -> FastAPI:
    """The application over a started ``Service`` (the detector already loaded)."""
    app = _GuardedApp(title="phiscrub", version=__version__, description=DESCRIPTION)
    app.max_request_bytes = service.limits.max_request_bytes
    app.add_exception_handler(RequestValidationError, _invalid)

    @app.get("/health", response_model=m.Health)
    async def health() -> m.Health:
        """Liveness and configuration (never any secret)."""
        return m.Health(
            status="ok", version=__version__, pipeline=service.pipeline,
            default_mode=service.default_mode, key_loaded=service.key_loaded,
            max_request_bytes=service.limits.max_request_bytes,
            max_notes=service.limits.max_notes,
        )  # fmt: skip

    @app.post("/v1/detect", response_model=m.DetectResponse, response_model_exclude_none=True,
              responses=_ERRORS)  # fmt: skip
    def detect(body: m.DetectRequest) -> m.DetectResponse:
        """The PHI spans of each note (offsets into its text), in text order."""
        inputs = _inputs(service, body.notes)
        docs = documents(inputs)
        found = _guarded("detect", lambda: service.detect(docs))
        return _guarded("detect", lambda: _detect_response(service, inputs, found, body))

    @app.post("/v1/deidentify", response_model=m.DeidentifyResponse,
              response_model_exclude_none=True, responses=_ERRORS)  # fmt: skip
    def deidentify(body: m.DeidentifyRequest) -> m.DeidentifyResponse:
        """Each note with its PHI replaced; the mapping only with include_replacements."""
        inputs = _inputs(service, body.notes)
        try:
            deid = service.variant(body.mode, body.keep)
        except SurrogateKeyError:
            raise HTTPException(400, NO_KEY) from None
        except PhiscrubError as exc:  # an option the server cannot apply; never note text
            raise HTTPException(400, str(exc)) from None
        docs = documents(inputs)
        results = _guarded("deidentify", lambda: service.deidentify(deid, docs))
        keep = kept_labels(deid.settings.keep)
        notes = _guarded(
            "deidentify",
            lambda: [_deidentified(n, r, keep, body.include_replacements)
                     for n, r in zip(inputs, results, strict=True)],
        )  # fmt: skip
        return m.DeidentifyResponse(pipeline=service.pipeline, mode=deid.settings.mode, notes=notes)

    return app


def _detect_response(
    service: Service, inputs: Sequence[NoteInput], found: Sequence[Sequence[Span]],
    body: m.DetectRequest,
) -> m.DetectResponse:  # fmt: skip
    notes = [
        m.DetectedNote(
            id=note.id or str(i),
            patient_id=note.patient_id,
            spans=[
                m.DetectedSpan(
                    start=s.start,
                    end=s.end,
                    label=s.label,
                    source=s.source,
                    score=s.score,
                    text=s.text if body.include_text else None,
                )
                for s in spans
            ],
        )
        for i, (note, spans) in enumerate(zip(inputs, found, strict=True))
    ]
    return m.DetectResponse(pipeline=service.pipeline, notes=notes)


def _deidentified(
    note: NoteInput, result: Result, keep: frozenset[str], with_replacements: bool
) -> m.DeidentifiedNote:
    replacements = None
    if with_replacements:
        replacements = [
            m.ReplacementOut(
                label=r.label,
                original=r.original,
                replacement=r.surrogate,
                start=r.start,
                end=r.end,
                new_start=r.new_start,
                new_end=r.new_end,
            )
            for r in result.replacements
        ]
    return m.DeidentifiedNote(
        id=result.id,
        patient_id=note.patient_id,
        text=result.text,
        spans=[
            m.OutputSpan(start=s.start, end=s.end, label=s.label, kept=s.label in keep)
            for s in result.output_spans
        ],
        counts=dict(sorted(Counter(s.label for s in result.output_spans).items())),
        replacements=replacements,
    )
