"""Build: the modules on the hot path of the rules and of the default pipeline are compiled
with mypyc (the compiler that ships with mypy) when the machine can, pure Python otherwise.

Why mypyc: these modules already pass ``mypy --strict`` (CI), so mypyc turns them into C
extensions with the same semantics and no change to the source; measured on the
development corpus (the two builds side by side, one per core), the spans are
byte-identical and the default pipeline runs about 1.15x as fast per core, the rules about
1.2x (docs/detectors.md, "Speed round 17"). Cython would
need a second, annotated copy of each module; a hand-written extension, a second
implementation to keep in step.

Pure Python is used instead, with the same results, when:

- ``PHISCRUB_PURE_PYTHON=1`` is set;
- the install is editable (``pip install -e .``): compiled modules would be found before the
  ``.py`` files next to them, so edits would silently have no effect;
- mypyc or the C compiler fails (a warning says so; nothing half-built is installed).

``python -c "import phiscrub; print(phiscrub.compiled())"`` tells which one is installed.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import warnings
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

#: the compiled modules (src/phiscrub/<name>.py): the rules' matching engine and
#: validators, the hybrid's span steps, the decoder, the tokenizer and context features;
#: modules with run-time protocols or numpy-heavy code gain nothing and stay Python
COMPILED = [
    "detect/anchors",
    "detect/context_checks",
    "detect/dictionary",
    "detect/digits",
    "detect/gates",
    "detect/handles",
    "detect/lanes",
    "detect/logins",
    "detect/patterns",
    "detect/prefilter",
    "detect/regex_shape",
    "detect/resolve",
    "detect/roles",
    "detect/scan",
    "detect/tails",
    "detect/tries",
    "detect/validators",
    "features/context",
    "taggers/decode",
    "taggers/hybrid_joins",
    "taggers/hybrid_places",
    "taggers/hybrid_professions",
    "taggers/hybrid_roles",
    "taggers/hybrid_steps",
    "taggers/hybrid_tidy",
    "taggers/hybrid_units",
    "taggers/hybrid_words",
    "text/tokenize",
]


#: the setup.py commands that build code (pip also runs it for metadata: no compiling then)
_BUILDS = frozenset(["bdist_wheel", "build", "build_ext", "install", "bdist"])


def _skip() -> str | None:
    if os.environ.get("PHISCRUB_PURE_PYTHON", "") not in ("", "0"):
        return "PHISCRUB_PURE_PYTHON is set"
    if any(a in ("editable_wheel", "develop") for a in sys.argv[1:]):
        return "editable install"
    return None


def _extensions() -> list:  # type: ignore[type-arg]
    if not _BUILDS.intersection(sys.argv[1:]):
        return []  # metadata only
    reason = _skip()
    if reason is not None:
        print(f"phiscrub: pure Python build ({reason})", file=sys.stderr)
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        warnings.warn("phiscrub: mypyc is not installed; building pure Python", stacklevel=1)
        return []
    paths = [str(Path("src", "phiscrub", f"{m}.py")) for m in COMPILED]
    # the other modules are read for their types, their third-party imports as they are:
    # mypy sees the packages of the environment being installed into, which on a first
    # install has none of them, so the checks that depend on what is installed (an ignore
    # comment for a missing optional module is then "unused") are off; CI's own mypy run
    # keeps them
    options = ["--follow-imports=silent", "--ignore-missing-imports", "--no-warn-unused-ignores"]
    report = io.StringIO()
    try:
        with contextlib.redirect_stdout(report):  # mypy prints its errors there
            return mypycify(  # type: ignore[no-any-return]
                [*options, *paths], opt_level="3", group_name="phiscrub_native"
            )
    except (Exception, SystemExit) as exc:  # mypyc reports type errors by SystemExit
        errors = " | ".join(report.getvalue().splitlines()[:5])
        warnings.warn(
            f"phiscrub: mypyc failed ({exc}: {errors}); building pure Python", stacklevel=1
        )
        return []


class OptionalBuildExt(build_ext):
    """Build the compiled modules, or none of them: the modules share one runtime library,
    so a partial set could not be imported."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # the compiler's or the linker's error
            for ext in self.extensions:
                target = Path(self.get_ext_fullpath(ext.name))
                target.unlink(missing_ok=True)
            self.extensions = []
            warnings.warn(
                f"phiscrub: compiling failed ({exc}); installing pure Python", stacklevel=1
            )


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
