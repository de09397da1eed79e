"""Build the held-out evaluation corpus (i2b2 2014 XML) from its annotated sources.

The notes live in ``corpora/holdout/src/<patient>-<doc>.txt`` (patients 951-980) with the
inline markup of the other corpora (``{{LABEL|surface text}}``). Everything else (parser,
file-name and overlap checks, XML writing, round-trip check) is ``corpora/tune/build.py``,
imported here with this folder and patient range, not copied.

    python corpora/holdout/build.py [--check]

This corpus is for measurement only: never train or tune on it (see README.md).
"""

import runpy
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PATIENTS = range(951, 981)  # never collides with dev (101-175) or tune (901-940)

sys.dont_write_bytecode = True  # leave no __pycache__ in corpora/

if __name__ == "__main__":
    build = runpy.run_path(str(HERE.parent / "tune" / "build.py"), run_name="tune_build")
    sys.exit(build["main"](root=HERE, patients=PATIENTS))
