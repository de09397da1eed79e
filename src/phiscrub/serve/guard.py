"""Two ASGI wrappers around the application: a body size limit and a last-resort guard.

``BodyLimit`` refuses a request whose declared ``Content-Length`` is over the limit, and
one whose body turns out larger while it is read (chunked, or a lying header), with 413,
before the application sees any of it. ``ErrorGuard`` catches whatever escapes the
application, logs it without its message (see ``logs.log_failure``) and answers 500; so
no traceback with a note in its message reaches uvicorn's error log.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from phiscrub.serve.logs import log_failure


async def send_json(send: Send, status: int, body: dict[str, Any]) -> None:
    payload = json.dumps(body).encode("utf-8")
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(payload))]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})


def _too_large(limit: int) -> dict[str, Any]:
    return {
        "detail": f"the request body is larger than this server's limit of {limit} bytes: "
        "send fewer or shorter notes per request (the limit is phiscrub serve "
        "--max-request-bytes)"
    }


class BodyLimit:
    """Reads the whole body (at most ``max_bytes``) and hands it on, or answers 413."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None:
            if not declared.isdigit():
                await send_json(send, 400, {"detail": "the Content-Length header is not a number"})
                return
            if int(declared) > self.max_bytes:
                await send_json(send, 413, _too_large(self.max_bytes))
                return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # the client left: nobody to answer
            chunk: bytes = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                chunks.clear()
                await send_json(send, 413, _too_large(self.max_bytes))
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


class ErrorGuard:
    """The outermost layer: nothing escapes to the server's error log with its message."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except Exception as exc:
            if scope["type"] != "http":
                raise
            where = f"{scope.get('method', '?')} {scope.get('path', '?')}"
            reference = log_failure(where, exc)
            if not started:
                detail = f"internal error (reference {reference}); no note was returned"
                await send_json(send, 500, {"detail": detail})
