"""No note text in the logs, whatever happens to a request; the last-resort guard."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("fastapi")

from phiscrub.serve.guard import BodyLimit, ErrorGuard
from phiscrub.serve.logs import DropQueryString, log_config, log_failure

from .phi import NOTE, PHI


def assert_no_phi(text: str) -> None:
    leaked = [p for p in PHI if p in text]
    assert not leaked, f"{len(leaked)} PHI strings in the logs"  # never print them


def test_requests_with_phi_log_no_phi(
    make_client: Callable[..., Any],
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    caplog.set_level(logging.DEBUG)  # everything, from every logger that propagates
    client = make_client(max_request_bytes=2000, max_notes=2)
    note = {"text": NOTE, "patient_id": "Quartermaine"}
    assert client.post("/v1/detect", json={"notes": [note], "include_text": True}).is_success
    assert client.post("/v1/deidentify", json={"notes": [note]}).is_success
    assert client.post("/v1/deidentify", json={"notes": [note], "mode": "tag"}).is_success
    for bad in (
        {"notes": [{"txt": NOTE}]},
        {"notes": [{"text": [NOTE]}]},
        {"notes": [note], "keep": [NOTE]},
        {"notes": [note] * 3},
        {"notes": [{"text": NOTE * 30}]},
    ):
        assert client.post("/v1/deidentify", json=bad).status_code in (413, 422)
    assert client.post("/v1/detect", content=NOTE[:50]).status_code in (400, 415)

    from phiscrub.serve.service import Service

    def broken(self: Service, docs: Any) -> Any:
        raise RuntimeError(f"model failed on {docs[0].text!r} of {docs[0].patient_id}")

    monkeypatch.setattr(Service, "detect", broken)
    failed = client.post("/v1/deidentify", json={"notes": [note]})
    assert failed.status_code == 500
    assert_no_phi(failed.text)
    reference = failed.json()["detail"].split("reference ")[1].split(")")[0]
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and reference in errors[0].getMessage()
    assert "RuntimeError" in errors[0].getMessage() and "broken" in errors[0].getMessage()
    assert errors[0].exc_info is None  # no traceback with the exception's message
    assert_no_phi(caplog.text)
    assert_no_phi("\n".join(str(r.args) for r in caplog.records))


def test_log_failure_keeps_type_code_and_places_only(caplog: pytest.LogCaptureFixture) -> None:
    from phiscrub.errors import UsageError

    try:
        raise UsageError(f"bad {NOTE}", hint=PHI[0])
    except UsageError as exc:
        with caplog.at_level(logging.ERROR):
            reference = log_failure("POST /v1/detect", exc)
    message = caplog.records[0].getMessage()
    assert reference in message and "UsageError [E301]" in message
    assert "test_logs.py" in message and "POST /v1/detect" in message
    assert_no_phi(caplog.text)


def test_access_log_drops_the_query_string() -> None:
    record = logging.LogRecord(
        "uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5000", "GET", "/health?name=Zebulon%20Quartermaine", "1.1", 200), None,
    )  # fmt: skip
    assert DropQueryString().filter(record)
    assert record.getMessage() == '127.0.0.1:5000 - "GET /health HTTP/1.1" 200'
    config = log_config()
    assert config["handlers"]["access"]["filters"] == ["drop_query"]
    assert "phiscrub.serve" in config["loggers"]


# -- the ASGI wrappers, on their own -------------------------------------------------
def call(app: Any, body_chunks: list[bytes], headers: list[tuple[bytes, bytes]]) -> list[Any]:
    """Run one HTTP request through an ASGI app; returns the messages it sent."""
    sent: list[Any] = []
    incoming = [
        {"type": "http.request", "body": c, "more_body": i < len(body_chunks) - 1}
        for i, c in enumerate(body_chunks)
    ]

    async def receive() -> Any:
        return incoming.pop(0) if incoming else {"type": "http.disconnect"}

    async def send(message: Any) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/v1/detect", "headers": headers}
    asyncio.run(app(scope, receive, send))
    return sent


async def echo(scope: Any, receive: Any, send: Any) -> None:
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": body})


def test_body_limit_counts_the_bytes_read_not_the_header() -> None:
    app = BodyLimit(echo, max_bytes=10)
    lying = call(app, [b"12345", b"67890", b"x"], [(b"content-length", b"5")])
    assert lying[0]["status"] == 413
    ok = call(app, [b"12345", b"67890"], [])
    assert ok[0]["status"] == 200 and ok[1]["body"] == b"1234567890"
    assert call(app, [b"{}"], [(b"content-length", b"11")])[0]["status"] == 413
    assert call(app, [b"{}"], [(b"content-length", b"-1")])[0]["status"] == 400


def test_error_guard_answers_500_and_logs_no_message(caplog: pytest.LogCaptureFixture) -> None:
    async def failing(scope: Any, receive: Any, send: Any) -> None:
        raise KeyError(PHI[0])

    with caplog.at_level(logging.ERROR):
        sent = call(ErrorGuard(failing), [b""], [])
    assert sent[0]["status"] == 500 and b"reference" in sent[1]["body"]
    assert "KeyError" in caplog.text
    assert_no_phi(caplog.text)
    assert_no_phi(sent[1]["body"].decode())
