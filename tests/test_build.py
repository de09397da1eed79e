"""The mypyc build of setup.py: its module list and what is installed."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

import phiscrub

ROOT = Path(__file__).resolve().parents[1]


def _compiled_list() -> list[str]:
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "COMPILED":
            return list(ast.literal_eval(node.value))
    raise AssertionError("setup.py has no COMPILED list")


def test_every_compiled_module_exists_once() -> None:
    names = _compiled_list()
    assert names and len(names) == len(set(names))
    for name in names:
        assert (ROOT / "src" / "phiscrub" / f"{name}.py").is_file(), name


def test_compiled_modules_import_no_protocols() -> None:
    """mypyc rejects ``@runtime_checkable`` protocols: a module that defines one must not be
    on the list (the build would fall back to pure Python everywhere)."""
    for name in _compiled_list():
        source = (ROOT / "src" / "phiscrub" / f"{name}.py").read_text(encoding="utf-8")
        assert "runtime_checkable" not in source, name


def test_compiled_reports_the_installed_kind() -> None:
    from phiscrub.detect import patterns

    suffix = Path(patterns.__file__ or "").suffix
    assert phiscrub.compiled() is (suffix != ".py")


@pytest.mark.skipif(
    os.environ.get("PHISCRUB_EXPECT_COMPILED") != "1",
    reason="only where the install is known to compile (CI sets PHISCRUB_EXPECT_COMPILED=1)",
)
def test_the_ci_install_is_compiled() -> None:
    assert phiscrub.compiled(), "setup.py fell back to pure Python: see the install's warnings"
