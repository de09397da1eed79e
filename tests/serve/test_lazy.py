"""``phiscrub --help`` and ``phiscrub serve --help`` work without FastAPI or uvicorn; the
command then says what to install. Runs whether or not the serve extra is installed."""

from __future__ import annotations

import subprocess
import sys

BLOCKED = (
    "import sys\n"
    "for name in ('fastapi', 'uvicorn', 'starlette', 'pydantic'):\n"
    "    sys.modules[name] = None  # importing it now raises ImportError\n"
    "from phiscrub.cli import main\n"
    "code = main(sys.argv[1:])\n"
    "assert not any(sys.modules.get(n) for n in ('fastapi', 'uvicorn'))\n"
    "sys.exit(code)\n"
)


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", BLOCKED, *argv], capture_output=True, text=True, timeout=120
    )


def test_help_needs_no_fastapi() -> None:
    top = run("--help")
    assert top.returncode == 0 and "serve" in top.stdout
    serve = run("serve", "--help")
    assert serve.returncode == 0 and "--max-request-bytes" in serve.stdout


def test_serve_without_fastapi_says_what_to_install() -> None:
    result = run("serve", "--pipeline", "rules", "--mode", "tag")
    assert result.returncode == 2
    assert "pip install 'phiscrub[serve]'" in result.stderr
