"""Fixtures of the ``phiscrub deid`` tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .common import HEX_KEY


@pytest.fixture
def key_file(tmp_path: Path) -> Path:
    path = tmp_path / "secret.key"
    path.write_text(HEX_KEY + "\n", encoding="ascii")
    return path


@pytest.fixture(autouse=True)
def _no_env_key(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv("PHISCRUB_KEY", raising=False)
    yield
