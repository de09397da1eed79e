"""USERNAME from the note's own names: a span processor after the name detectors.

Signature and audit lines often end with the writer's login and no label in front of it
(``Megan O'Driscoll, MD   modriscoll``, ``-Priscilla Duong, PharmD  pduong``,
``Y. Lefebvre ylefebvr``, ``| vbalasu |``). Such a login is built from a name that the same
note holds: the first initial and the surname (truncated to 6-8 letters by some systems),
the first, middle and last initials' letters, the first name and the last initial, the
surname and the first initial, or both names run together; 1-4 digits may follow
(``oadeyemi2``). This stage builds those forms from the DOCTOR and PATIENT spans found so
far and tags the lower-case words of the note that equal one of them, whole (not inside an
e-mail address, a path or a longer word). Forms that are English words or generic logins
are never used. The forms are intersected with the words of the note's shared index
(:func:`phiscrub.detect.lanes.note_index`): nothing is scanned.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from phiscrub.detect.handles import fold_name, generic_login
from phiscrub.detect.lanes import note_index
from phiscrub.detect.lexicon import Lexicons
from phiscrub.span import Document, Span

#: the labels whose spans give the names
_NAME_LABELS = frozenset({"DOCTOR", "PATIENT"})
#: a word of a name (letters, with ' or - inside)
_WORD = re.compile(r"[^\W\d_]+(?:['\u2019\-][^\W\d_]+)*")
#: shortest login built from a name, and the truncated lengths some systems use
MIN_LOGIN = 5
TRUNCATED = (6, 7, 8)
#: at most this many digits after the letters of a login
MAX_DIGITS = 4
#: characters that may not touch a login (it would be part of an address, a path, a code)
_GLUED_BEFORE = frozenset("@._-/\\'\u2019")
_GLUED_AFTER = frozenset("@_-/\\'\u2019")


def login_forms(names: Iterable[str]) -> set[str]:
    """The lower-case logins that the names could give (letters only, no digits)."""
    forms: set[str] = set()
    for name in names:
        forms |= _forms_of(name)
    return forms


@functools.lru_cache(maxsize=8192)
def _forms_of(name: str) -> frozenset[str]:
    forms: set[str] = set()
    words = [w for w in (fold_name(w) for w in _WORD.findall(name)) if w]
    if 2 <= len(words) <= 4:
        for i, first in enumerate(words):
            for j, last in enumerate(words):
                if i == j or len(last) < 3:
                    continue
                whole = first[0] + last
                forms.add(whole)
                forms.update(whole[:n] for n in TRUNCATED if n < len(whole))
                forms.add(last + first[0])
                if len(first) >= 3:
                    forms.add(first + last[0])
                    forms.add(first + last)
                if j == i + 2:  # first, middle, last
                    forms.add(first[0] + words[i + 1][0] + last)
    return frozenset(f for f in forms if len(f) >= MIN_LOGIN)


@dataclass
class Logins:
    """Tag the lower-case logins built from a name found in the same note."""

    lex: Lexicons
    name: str = "logins"

    def process(self, doc: Document, spans: list[Span]) -> list[Span]:
        names = {s.text for s in spans if s.label in _NAME_LABELS}
        if not names:
            return list(spans)
        text = doc.text
        size = len(text)
        out = list(spans)
        taken = sorted((s.start, s.end) for s in spans)
        words = note_index(text).words
        for form in sorted(login_forms(names) & words.keys()):
            if generic_login(form) or self.lex.is_allowed(form):
                continue
            for p in words[form]:
                end = p + len(form)
                digits = end
                while digits < size and digits - end < MAX_DIGITS and text[digits].isdigit():
                    digits += 1
                if p > 0 and (text[p - 1].isalnum() or text[p - 1] in _GLUED_BEFORE):
                    continue
                if digits < size and (
                    text[digits].isalnum()
                    or text[digits] in _GLUED_AFTER
                    or (text[digits] == "." and digits + 1 < size and text[digits + 1].isalnum())
                ):
                    continue
                if any(a < digits and p < b for a, b in taken):
                    continue
                out.append(Span.of(text, p, digits, "USERNAME", "rules.logins:name_login"))
        return out
