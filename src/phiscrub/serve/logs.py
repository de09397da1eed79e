"""Logging for the service, made so that no note text can reach a log line.

- A failed request is logged with a reference, the exception's type and code and the
  places in the code (file, line, function), never the exception's message nor its
  arguments: a third-party exception may quote its input.
- uvicorn's access log names the method, path and status; the query string is cut
  (no endpoint takes one, and a client could put anything in it).
- Request bodies are never logged.
"""

from __future__ import annotations

import copy
import logging
import traceback
import uuid
from pathlib import Path
from typing import Any

logger = logging.getLogger("phiscrub.serve")


def log_failure(where: str, exc: BaseException) -> str:
    """Log a failed request without its data; returns the reference given to the client."""
    reference = uuid.uuid4().hex[:12]
    frames = traceback.extract_tb(exc.__traceback__)[-6:]
    places = " <- ".join(f"{Path(f.filename).name}:{f.lineno} {f.name}" for f in reversed(frames))
    code = getattr(exc, "code", None)
    kind = type(exc).__name__ + (f" [{code}]" if isinstance(code, str) else "")
    logger.error("request %s failed (%s): %s at %s", reference, where, kind, places or "?")
    return reference


class DropQueryString(logging.Filter):
    """Cuts the query string from uvicorn's access log lines."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) == 5 and isinstance(args[2], str):
            record.args = (args[0], args[1], args[2].split("?", 1)[0], args[3], args[4])
        return True


def log_config() -> dict[str, Any]:
    """uvicorn's logging configuration, plus the query-string filter and our logger."""
    from uvicorn.config import LOGGING_CONFIG

    config: dict[str, Any] = copy.deepcopy(LOGGING_CONFIG)
    config["filters"] = {"drop_query": {"()": DropQueryString}}
    config["handlers"]["access"]["filters"] = ["drop_query"]
    config["loggers"]["phiscrub.serve"] = {
        "handlers": ["default"], "level": "INFO", "propagate": False,
    }  # fmt: skip
    return config
