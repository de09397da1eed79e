"""Fixtures of the HTTP service tests: a fictional note full of PHI, and clients.

The conftest imports no FastAPI at module level: the test modules that need it skip
themselves when it is missing (``pytest.importorskip``).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from .phi import KEY


@pytest.fixture(autouse=True)
def _no_key_in_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PHISCRUB_KEY", raising=False)


@pytest.fixture
def make_client() -> Iterator[Callable[..., Any]]:
    """``make_client(mode=..., key=..., max_request_bytes=..., ...)``: a TestClient over
    the rules pipeline (fast), with a key unless ``key=None``."""
    with warnings.catch_warnings():  # starlette's notice about httpx versions: not ours
        warnings.filterwarnings("ignore", message="Using `httpx` with")
        from fastapi.testclient import TestClient

    from phiscrub.api import Settings
    from phiscrub.serve.app import create_app
    from phiscrub.serve.service import Limits, Service

    clients: list[Any] = []

    def make(
        *, key: bytes | None = KEY, pipeline: str = "rules", mode: str = "surrogate",
        keep: tuple[str, ...] = (), **limits: int,
    ) -> Any:  # fmt: skip
        service = Service.start(
            Settings(pipeline=pipeline, mode=mode, keep=keep),  # type: ignore[arg-type]
            key,
            Limits(**limits),
        )
        client = TestClient(create_app(service))
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.close()


@pytest.fixture
def client(make_client: Callable[..., Any]) -> Any:
    return make_client()
