"""Hybrid correction of an identifier's type by what stands before it (seed 001 §3.3.5).

``id_by_context`` on the merged spans:

- an id the rules typed by its shape alone (``rules.ids:record_shape``: ``NDB-44-03718``,
  ``RPH4471093``) is a medical record number where it follows a person's name on its line
  (``Pt: Hal Whitcombe (GMH-00784312)``, ``VOLKOV, DMITRI  MVU 22-918-404``); after any
  other word (``log WMC-52-10-1177``, ``batch BSAV-1129-04``, ``Dictation VR-49-331870``)
  it is some other number, an IDNUM. Over the non-test notes of the development corpus
  and corpora/tune, train2-4 the shape rule was right 24 times and wrong 45 (29 of them IDNUMs).

Device ids (``pump ID``, ``stent ... lot``) are typed DEVICE by the rules themselves
(``ids.toml``, rules round 6), where every pipeline gets them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from phiscrub.span import Span

__all__ = ["id_by_context"]

#: what may stand between a name and its record number: separators, a sex/age, a DOB
_NAME_TO_ID = re.compile(
    r"[ \t]*(?:[,|/(:\-][ \t]*)*(?:(?:DOB|dob|MRN|ID)?[ :]*[\d/.\-]{6,10}[ \t]*[,;|][ \t]*"
    r"|\d{1,3}[ ]?[MF][ \t]+|[ \t])*$"
)
def _after_name(text: str, span: Span, names: Sequence[Span]) -> bool:
    line_start = text.rfind("\n", 0, span.start) + 1
    return any(
        line_start <= n.end <= span.start
        and span.start - n.end <= 30
        and _NAME_TO_ID.fullmatch(text, n.end, span.start)
        for n in names
    )


def id_by_context(text: str, spans: Sequence[Span]) -> list[Span]:
    """Record-shaped ids after a name are MEDICALRECORDs, after other words IDNUMs."""
    names = [s for s in spans if s.category == "NAME"]
    out: list[Span] = []
    for s in spans:
        if (
            s.source.startswith("rules.ids:record_shape")
            and s.label == "MEDICALRECORD"
            and not _after_name(text, s, names)
        ):
            s = Span(s.start, s.end, "IDNUM", s.text, "hybrid.correct:record_shape", s.score)
        out.append(s)
    return out
