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


def test_the_listed_modules_are_all_of_one_kind() -> None:
    """All compiled or all pure (the build installs both or neither: the modules share one
    runtime library), and ``phiscrub.compiled()`` says which."""
    import importlib

    kinds = {}
    for name in _compiled_list():
        module = importlib.import_module("phiscrub." + name.replace("/", "."))
        kinds[name] = Path(module.__file__ or "").suffix != ".py"
    assert set(kinds.values()) == {phiscrub.compiled()}, kinds


@pytest.mark.skipif(
    os.environ.get("PHISCRUB_EXPECT_COMPILED") != "1",
    reason="only where the install is known to compile (CI sets PHISCRUB_EXPECT_COMPILED=1)",
)
def test_the_ci_install_is_compiled() -> None:
    assert phiscrub.compiled(), "setup.py fell back to pure Python: see the install's warnings"
