"""phiscrub: find protected health information in clinical notes and replace it."""

from __future__ import annotations

import logging

from phiscrub.errors import PhiscrubError
from phiscrub.span import Document, Span

__all__ = [
    "Deidentifier",
    "Document",
    "PhiscrubError",
    "Result",
    "Span",
    "__version__",
    "compiled",
]
__version__ = "0.1.0"


def compiled() -> bool:
    """Were the hot modules compiled with mypyc at install (``setup.py``)? The results are
    the same either way; the compiled ones are faster."""
    from importlib.machinery import EXTENSION_SUFFIXES

    from phiscrub.detect import patterns

    return (patterns.__file__ or "").endswith(tuple(EXTENSION_SUFFIXES))


def __getattr__(name: str) -> object:
    # The API pulls in the detectors and surrogate engine: import it on first use only,
    # so that `import phiscrub` (and the CLI's start-up) stays light.
    if name in ("Deidentifier", "Result"):
        from phiscrub import api

        return getattr(api, name)
    raise AttributeError(f"module 'phiscrub' has no attribute {name!r}")

# A library never configures logging; applications do.
logging.getLogger(__name__).addHandler(logging.NullHandler())
