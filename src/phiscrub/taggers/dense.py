"""A compact numeric feature set for the boosted trees (seed 002's surface features).

Trees cannot use the ~10^6 sparse string features of the CRF and SVM, so the shared
extractor's word-type features are turned into a few dozen numbers per token, then
windowed over ``±window`` tokens (seed 002: a moving window):

* per word type (at every window offset): seed 003 Table 2's orthographic flags, seed 001's
  regex shapes (year, month/day number, age-like, long number, initial, roman), length,
  dictionary memberships (first / last name, city, state, country, hospital, street, date
  word), medical vocabulary, profession suffix, frequency class (log2 count in the training
  notes, -1 unseen) and capitalization ratio class (seed 002), and a one-hot of the short
  shape (the ``shape_vocab`` most frequent shapes in training; ``Aa``, ``0/0/0``...); a
  column ``absent`` marks offsets before the first or after the last token;
* at the target only: sentence length, sentence and line layout flags, inside a heading,
  chunk shapes (the whitespace word is date-, phone-, time-, e-mail-, URL-, ID-like), and
  one-hots of the section heading and of the attribute name (the ``context_vocab`` most
  frequent in training, each seen at least ``min_count`` times).

The trigger columns (three variants, ``triggers.py``) and the trusted-phrase columns of
iterative learning (``iterative.py``) are appended by the tagger.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from phiscrub.features import FeatureExtractor
from phiscrub.features.context import context_features
from phiscrub.features.token import FeatureValue
from phiscrub.text import Token

__all__ = ["CONTEXT_FLAGS", "WORD_FLAGS", "DenseEncoder", "Matrix"]

Matrix = npt.NDArray[np.float32]

WORD_FLAGS = (
    "hasalpha", "hascap", "initcap", "allcap", "hasdigit", "alldigit", "haspunct", "alnum",
    "digpunct", "year", "month_num", "day_num", "age_num", "long_num", "initial", "roman",
    "dict_first", "dict_last", "dict_city", "dict_state", "dict_country", "dict_hospital",
    "dict_street", "dict_date", "medical",
)  # fmt: skip
CONTEXT_FLAGS = (
    "sent_colon", "sent_enum", "sent_first", "bol", "eol", "alone", "in_heading",
    "chunk_date", "chunk_phone", "chunk_time", "chunk_email", "chunk_url", "chunk_initials",
    "chunk_idlike", "chunk_year",
)  # fmt: skip
_CAPR = {"unseen": -1.0, "never": 0.0, "rare": 1.0, "half": 2.0, "mostly": 3.0, "always": 4.0}


def _freq(value: FeatureValue | None) -> float:
    if isinstance(value, str) and value.startswith("f"):
        return float(value[1:])
    return -1.0


def _sent_len(value: FeatureValue | None) -> float:
    if value == "6+":
        return 6.0
    return float(value) if isinstance(value, str) and value.isdigit() else 0.0


def _top(counts: Counter[str], k: int, min_count: int) -> list[str]:
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return [v for v, c in ranked[:k] if c >= min_count]


@dataclass(slots=True)
class DenseEncoder:
    """Word-type and context features as a dense float32 matrix (see the module docstring)."""

    extractor: FeatureExtractor
    shapes: list[str] = field(default_factory=list)
    sections: list[str] = field(default_factory=list)
    attributes: list[str] = field(default_factory=list)
    _cache: dict[str, Matrix] = field(default_factory=dict)

    @property
    def window(self) -> int:
        return self.extractor.config.window

    # -- vocabularies ---------------------------------------------------------------
    def learn(
        self,
        texts_tokens: Iterable[tuple[str, Sequence[Token]]],
        shape_vocab: int = 15,
        context_vocab: int = 40,
        min_count: int = 5,
    ) -> None:
        """The most frequent short shapes, section headings and attribute names."""
        shapes: Counter[str] = Counter()
        sections: Counter[str] = Counter()
        attrs: Counter[str] = Counter()
        for text, tokens in texts_tokens:
            for tok in tokens:
                shapes[str(self.extractor.word_features(tok.text).get("sshape", ""))] += 1
            for feats in self._context(text, tokens):
                sections[str(feats.get("section", ""))] += 1
                attrs[str(feats.get("attr", ""))] += 1
        for c in (shapes, sections, attrs):
            c.pop("", None)
        self.shapes = _top(shapes, shape_vocab, min_count)
        self.sections = _top(sections, context_vocab, min_count)
        self.attributes = _top(attrs, context_vocab, min_count)
        self._cache.clear()

    def to_dict(self) -> dict[str, Any]:
        return {"shapes": self.shapes, "sections": self.sections, "attributes": self.attributes}

    @classmethod
    def from_dict(cls, extractor: FeatureExtractor, data: Mapping[str, Any]) -> DenseEncoder:
        return cls(
            extractor,
            [str(v) for v in data["shapes"]],
            [str(v) for v in data["sections"]],
            [str(v) for v in data["attributes"]],
        )

    # -- columns ----------------------------------------------------------------------
    def word_columns(self) -> list[str]:
        return [*WORD_FLAGS, "absent", "len", "freq", "capr", "prof"] + [
            "shape=" + s for s in self.shapes
        ]

    def columns(self) -> list[str]:
        w = self.window
        out = [f"{d}:{c}" for d in range(-w, w + 1) for c in self.word_columns()]
        out += ["0:sent_len", *("0:" + f for f in CONTEXT_FLAGS)]
        out += ["0:section=" + s for s in self.sections]
        return out + ["0:attr=" + a for a in self.attributes]

    # -- encoding -----------------------------------------------------------------------
    def _word(self, word: str) -> Matrix:
        vec = self._cache.get(word)
        if vec is None:
            f = self.extractor.word_features(word)
            values = [1.0 if k in f else 0.0 for k in WORD_FLAGS]
            values += [0.0, float(len(word)), _freq(f.get("freq"))]
            values += [_CAPR.get(str(f.get("capr", "unseen")), -1.0), float("prof_suffix" in f)]
            values += [1.0 if f.get("sshape") == s else 0.0 for s in self.shapes]
            vec = np.asarray(values, dtype=np.float32)
            if len(self._cache) > 200_000:
                self._cache.clear()
            self._cache[word] = vec
        return vec

    def _context(self, text: str, tokens: Sequence[Token]) -> list[dict[str, FeatureValue]]:
        lowers = [t.text.lower() for t in tokens]
        return context_features(text, tokens, lowers, self.extractor.config)

    def _context_row(self, f: Mapping[str, FeatureValue]) -> list[float]:
        row = [_sent_len(f.get("sent_len"))] + [1.0 if k in f else 0.0 for k in CONTEXT_FLAGS]
        section, attr = f.get("section"), f.get("attr")
        row += [1.0 if section == s else 0.0 for s in self.sections]
        return row + [1.0 if attr == a else 0.0 for a in self.attributes]

    def encode(self, text: str, tokens: Sequence[Token]) -> Matrix:
        """One row per token: the windowed word columns, then the context columns."""
        n, w = len(tokens), self.window
        width = len(self.word_columns())
        pad = np.zeros(width, dtype=np.float32)
        pad[len(WORD_FLAGS)] = 1.0  # absent
        words = [self._word(t.text) for t in tokens]
        padded = np.vstack([pad] * w + words + [pad] * w) if n else np.zeros((0, width))
        blocks = [padded[w + d : w + d + n] for d in range(-w, w + 1)]
        context = np.asarray(
            [self._context_row(f) for f in self._context(text, tokens)], dtype=np.float32
        ).reshape(n, -1)
        return np.hstack([*blocks, context]).astype(np.float32, copy=False)
