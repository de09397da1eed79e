"""Build the second independent training corpus (i2b2 2014 XML) from its annotated sources.

The notes live in ``corpora/train2/src/<patient>-<doc>.txt`` (patients 1001-1099) with the
inline markup of the other corpora (``{{LABEL|surface text}}``). Everything else (parser,
file-name and overlap checks, XML writing, round-trip check) is ``corpora/tune/build.py``,
imported here with this folder and patient range, not copied.

    python corpora/train2/build.py [--check]

Used whole by the default training recipe (see README.md).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: never collides with dev (101-175), tune (901-940) or holdout (951-980)
PATIENTS = range(1001, 1100)

sys.dont_write_bytecode = True  # leave no __pycache__ in corpora/


def _tune_main() -> object:
    """``main`` of corpora/tune/build.py, loaded under its own module name."""
    spec = importlib.util.spec_from_file_location("tune_build", HERE.parent / "tune" / "build.py")
    if spec is None or spec.loader is None:
        raise ImportError("cannot load corpora/tune/build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.main


def main(argv: list[str] | None = None) -> int:
    tune_main = _tune_main()
    assert callable(tune_main)
    result = tune_main(argv, root=HERE, patients=PATIENTS)
    assert isinstance(result, int)
    return result


if __name__ == "__main__":
    sys.exit(main())
