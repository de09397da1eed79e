"""The heuristic+dictionary baseline of seed 000 §7.1.

"identifies PHI by checking to see if the target words occur in hospital, location, and
name dictionaries, but not in a list of common words. Simple contextual clues, such as
titles, e.g. *Mr.*, and manually determined bigrams, e.g. *lives in*, are also used."

Here: every capitalised word found in the census name lists, the gazetteer or the state
and country lists and NOT among the common English words (SCOWL levels 10-35, about
39,000 words) is tagged; a word after a title or a place bigram is tagged whatever the
dictionaries say. The numbers
(dates, phones, ids, ages) come from the small ``data/patterns/baseline.toml``. No
allow-list, no invalidation, no reconciliation: it is the comparison point.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from phiscrub.detect.lexicon import Lexicons
from phiscrub.span import Document, Span

_WORD = re.compile(r"(?<![\w'])[A-Z][A-Za-z'\-]+")
_TITLE = re.compile(r"\b(?:(Dr)|Mr|Mrs|Ms|Miss)\.?\s+([A-Z][A-Za-z'\-]+)")
_BIGRAM = re.compile(
    r"\b(?:lives in|living in|moved to|born in|resident of|from|transferred from|"
    r"admitted to|seen at)\s+([A-Z][A-Za-z'\-]+)"
)


@dataclass
class HeuristicDictionaryDetector:
    """Dictionary look-up of capitalised words minus common words, plus titles and bigrams."""

    lex: Lexicons
    name: str = "hd_dictionary"
    _common: frozenset[str] = field(init=False, repr=False)
    _states: frozenset[str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._common = frozenset(self.lex.common_words)
        self._states = frozenset(self.lex.states)

    def _label(self, word: str) -> str | None:
        low = word.lower()
        if low in self._common:
            return None
        if low in self.lex.first_names or low in self.lex.last_names:
            return "PATIENT"
        if word in self.lex.cities:
            return "CITY"
        if word in self._states:
            return "STATE"
        if word in self.lex.countries:
            return "COUNTRY"
        return None

    def detect(self, doc: Document) -> list[Span]:
        text = doc.text
        out: dict[tuple[int, int], Span] = {}
        for m in _WORD.finditer(text):
            label = self._label(m.group(0))
            if label:
                out[m.span()] = Span.of(text, *m.span(), label, f"hd.dictionary:{label.lower()}")
        for m in _TITLE.finditer(text):
            label = "DOCTOR" if m.group(1) else "PATIENT"
            out[m.span(2)] = Span.of(text, *m.span(2), label, "hd.context:title")
        for m in _BIGRAM.finditer(text):
            out[m.span(1)] = Span.of(text, *m.span(1), "CITY", "hd.context:bigram")
        return list(out.values())
