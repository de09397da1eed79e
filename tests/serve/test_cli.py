"""``phiscrub serve``: start-up checks (uvicorn.run stubbed), and one real server."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from phiscrub.cli import main

from .phi import KEY, NOTE, PHI


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """What ``uvicorn.run`` was called with (nothing listens)."""
    import uvicorn

    calls: dict[str, Any] = {}

    def fake_run(app: Any, **kwargs: Any) -> None:
        calls.update(kwargs, app=app)

    monkeypatch.setattr(uvicorn, "run", fake_run)
    return calls


def health(app: Any) -> dict[str, Any]:
    from fastapi.testclient import TestClient

    with TestClient(app) as client:
        body: dict[str, Any] = client.get("/health").json()
    return body


def test_refuses_to_start_in_surrogate_mode_without_key(
    started: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--pipeline", "rules"]) == 2
    err = capsys.readouterr().err
    assert "E401" in err and "refuses to start" in err
    assert "--key-file" in err and "PHISCRUB_KEY" in err and "--random-key" in err
    assert not started


def test_a_bad_key_file_is_refused(
    started: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    short = tmp_path / "key"
    short.write_bytes(b"short")
    assert main(["serve", "--pipeline", "rules", "--key-file", str(short)]) == 2
    assert "shorter than 16 bytes" in capsys.readouterr().err and not started
    assert main(["serve", "--pipeline", "rules", "--key-file", str(tmp_path / "none")]) == 2
    assert "cannot read the key file" in capsys.readouterr().err


def test_starts_with_key_from_file_or_environment(
    started: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    key_file = tmp_path / "key"
    key_file.write_bytes(KEY)
    assert main(["serve", "--pipeline", "rules", "--key-file", str(key_file)]) == 0
    assert started["host"] == "127.0.0.1" and started["port"] == 8080
    assert started["server_header"] is False and started["access_log"] is True
    assert "drop_query" in started["log_config"]["filters"]
    assert health(started["app"])["key_loaded"] is True
    monkeypatch.setenv("PHISCRUB_KEY", KEY.decode())
    argv = ["serve", "--pipeline", "rules", "--port", "9999", "--max-notes", "5"]
    assert main(argv) == 0
    assert health(started["app"])["max_notes"] == 5 and started["port"] == 9999


def test_other_modes_start_without_key(
    started: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--pipeline", "rules", "--mode", "tag", "--keep", "state,Age"]) == 0
    status = health(started["app"])
    assert status["key_loaded"] is False and status["default_mode"] == "tag"
    assert "requests asking for surrogate mode will get 400" in capsys.readouterr().err


def test_random_key_is_explicit_and_warned(
    started: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--pipeline", "rules", "--random-key"]) == 0
    assert "warning: --random-key" in capsys.readouterr().err
    assert health(started["app"])["key_loaded"] is True


def test_binding_beyond_loopback_warns(
    started: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--pipeline", "rules", "--mode", "tag", "--host", "0.0.0.0"]) == 0
    assert "no TLS and no authentication" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--max-request-bytes", "0"], "--max-request-bytes and --max-notes must be at least 1"),
        (["--port", "70000"], "is not a port number"),
        (["--keep", "NOPE"], "unknown labels or categories to keep: NOPE"),
        (["--recall-bias", "0.9"], "--recall-bias applies to a trained model"),
    ],
)
def test_bad_options_are_usage_errors(
    started: dict[str, Any], capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(["serve", "--pipeline", "rules", "--mode", "tag", *argv]) == 2
    assert message in capsys.readouterr().err and not started


# -- one real server -----------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def request(url: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data, {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as response:
        answer: dict[str, Any] = json.loads(response.read())
    return answer


def test_phiscrub_serve_answers_real_http(tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "server.log"
    env = {k: v for k, v in os.environ.items() if k != "PHISCRUB_KEY"}
    argv = [sys.executable, "-m", "phiscrub", "serve", "--pipeline", "rules", "--mode", "tag",
            "--port", str(port)]  # fmt: skip
    with log.open("wb") as out:
        server = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=env)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    status = request(f"{base}/health?caller=Zebulon")
                    break
                except (urllib.error.URLError, ConnectionError):
                    assert server.poll() is None, "the server exited at start-up"
                    assert time.monotonic() < deadline, "the server did not start in 60 s"
                    time.sleep(0.2)
            assert status["status"] == "ok" and status["key_loaded"] is False
            body = {"notes": [{"id": "n1", "text": NOTE, "patient_id": "p1"}]}
            answer = request(f"{base}/v1/deidentify", body)
            text = answer["notes"][0]["text"]
            assert text.startswith("Patient [**PATIENT**] was seen on [**DATE**]")
            try:
                request(f"{base}/v1/deidentify", {"notes": [{"text": NOTE}], "mode": "surrogate"})
            except urllib.error.HTTPError as exc:
                assert exc.code == 400
            else:
                raise AssertionError("surrogate mode without a key was served")
        finally:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(timeout=15)
    output = log.read_text(errors="replace")
    assert "POST /v1/deidentify HTTP/1.1" in output and "GET /health HTTP/1.1" in output
    assert "Zebulon" not in output  # the query string is cut from the access log
    assert not any(p in output for p in PHI)
