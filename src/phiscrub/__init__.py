"""phiscrub: find protected health information in clinical notes and replace it."""

from __future__ import annotations

import logging

from phiscrub.errors import PhiscrubError
from phiscrub.span import Document, Span

__all__ = ["Document", "PhiscrubError", "Span", "__version__"]
__version__ = "0.1.0"

# A library never configures logging; applications do.
logging.getLogger(__name__).addHandler(logging.NullHandler())
