"""Build the eighth training corpus (i2b2 2014 XML) from its annotated sources.

The notes live in ``corpora/train8/src/<patient>-<doc>.txt`` (patients 1601-1699) with the
inline markup of the other corpora (``{{LABEL|surface text}}``). Everything else (parser,
file-name and overlap checks, XML writing, round-trip check) is ``corpora/tune/build.py``,
imported here with this folder and patient range, not copied.

    python corpora/train8/build.py [--check]

Used whole by the default training recipe (see README.md).
"""

import runpy
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: never collides with dev (101-175), tune (901-940), holdout (951-980), train2 (1001-1099),
#: train3 (1101-1199), train4 (1201-1299), train5 (1301-1399), train6 (1401-1499) or
#: train7 (1501-1599)
PATIENTS = range(1601, 1700)

sys.dont_write_bytecode = True  # leave no __pycache__ in corpora/

if __name__ == "__main__":
    build = runpy.run_path(str(HERE.parent / "tune" / "build.py"), run_name="tune_build")
    sys.exit(build["main"](root=HERE, patients=PATIENTS))
