"""The feature extractor shared by every trained tagger.

``FeatureExtractor(config, stats).sequence(text, tokens)`` returns one dict per token,
with position-prefixed keys in the python-crfsuite idiom: ``0:lower``, ``-1:shape``,
``1:dict_city``; n-grams join their positions (``-1|0:lower``); features of the target's
place in the note (section, sentence, triggers...) carry the prefix ``0:`` too.

Features of a word type are computed once and cached (per extractor, keyed by the token
string), and so are their prefixed copies for each window offset: clinical vocabulary is
Zipfian, so a note costs a few dictionary merges per token.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

from phiscrub.features.clusters import WordClusters
from phiscrub.features.config import FeatureConfig
from phiscrub.features.context import context_features
from phiscrub.features.easyadapt import augment
from phiscrub.features.lexicons import FeatureLexicons, feature_lexicons
from phiscrub.features.stats import CorpusStats
from phiscrub.features.token import (
    Features,
    dictionary_features,
    frequency_features,
    glove_features,
    lexical_features,
    orthographic_features,
    profession_features,
    regex_shape_features,
    short_shape,
)
from phiscrub.text import Token

__all__ = ["FeatureExtractor"]

#: cached word types per extractor before the caches are emptied (bounds memory)
CACHE_LIMIT = 200_000
_NGRAM_SPANS = ((-2, -1), (-1, 0), (0, 1), (1, 2), (-2, -1, 0), (-1, 0, 1), (0, 1, 2))


class FeatureExtractor:
    """Compute the windowed features of a token sequence (see the module docstring)."""

    def __init__(
        self,
        config: FeatureConfig | None = None,
        stats: CorpusStats | None = None,
        clusters: WordClusters | None = None,
    ) -> None:
        self.config = config or FeatureConfig()
        self.stats = stats
        self.clusters = clusters
        self._lex: FeatureLexicons | None = None
        self._types: dict[str, Features] = {}
        self._windowed: dict[tuple[int, str], Features] = {}
        if self.config.syntax:
            from phiscrub.features.syntax import require_parser

            require_parser()

    @property
    def lexicons(self) -> FeatureLexicons:
        if self._lex is None:
            self._lex = feature_lexicons()
        return self._lex

    def word_features(self, word: str) -> Mapping[str, str | float]:
        """The features of a word type, without prefix (cached; do not modify)."""
        feats = self._types.get(word)
        if feats is None:
            if len(self._types) >= CACHE_LIMIT:
                self._types.clear()
                self._windowed.clear()
            feats = self._compute(word)
            self._types[word] = feats
        return feats

    def _compute(self, word: str) -> Features:
        cfg = self.config
        lower = word.lower()
        feats: Features = {"bias": 1.0}
        if cfg.lexical:
            feats.update(lexical_features(word, cfg.affix_max))
        if cfg.orthographic:
            feats.update(orthographic_features(word))
        if cfg.regex_shapes:
            feats.update(regex_shape_features(word))
        if cfg.dictionaries or cfg.medical:
            feats.update(self._dictionaries(lower))
        if cfg.profession:
            feats.update(profession_features(lower))
        if cfg.glove:
            feats.update(glove_features(lower))
        if cfg.frequency and self.stats is not None:
            feats.update(frequency_features(word, self.stats))
        if cfg.clusters and self.clusters is not None:
            feats.update(self.clusters.features(lower))
        return feats

    def _dictionaries(self, lower: str) -> Features:
        feats = dictionary_features(lower, self.lexicons, self.config.medical)
        if not self.config.dictionaries:
            feats = {k: v for k, v in feats.items() if not k.startswith("dict_")}
        return feats

    def _at(self, offset: int, word: str) -> Features:
        """The word's features prefixed with ``offset`` (cached per offset and type)."""
        key = (offset, word)
        feats = self._windowed.get(key)
        if feats is None:
            base = self.word_features(word)
            prefix = f"{offset}:"
            # the bias feature is kept at the target only
            feats = {prefix + k: v for k, v in base.items() if offset == 0 or k != "bias"}
            self._windowed[key] = feats
        return feats

    def sequence(
        self, text: str, tokens: Sequence[Token], domain: str | None = None
    ) -> list[Features]:
        """One feature dict per token of ``text`` (tokens as ``phiscrub.text.tokenize`` or
        ``spans_to_bio`` give them). ``domain`` (``source`` or ``target``) adds EasyAdapt
        copies when the configuration asks for them (None means ``target``)."""
        words = [t.text for t in tokens]
        lowers = [w.lower() for w in words]
        n = len(words)
        w = self.config.window
        out: list[Features] = []
        context = context_features(text, tokens, lowers, self.config)
        syntax = self._syntax(text, tokens)
        ngrams = self._ngrams(words, lowers) if self.config.ngrams else None
        for i in range(n):
            feats: Features = dict(self._at(0, words[i]))
            for d in range(1, w + 1):
                feats.update(self._at(-d, words[i - d]) if i >= d else {f"-{d}:BOS": 1.0})
                feats.update(self._at(d, words[i + d]) if i + d < n else {f"{d}:EOS": 1.0})
            for k, v in context[i].items():
                feats["0:" + k] = v
            if syntax is not None:
                feats.update(syntax[i])
            if ngrams is not None:
                feats.update(ngrams[i])
            out.append(feats)
        if self.config.easyadapt:
            out = [augment(f, domain or "target") for f in out]
        return out

    def _ngrams(self, words: Sequence[str], lowers: Sequence[str]) -> list[Features]:
        """Token and shape bigrams and trigrams inside the window (seed 001 (4), (12));
        the bigrams ending or starting at the target are seed 000's lexical bigrams."""
        n = len(words)
        shapes = [_sshape(w) for w in words]
        grams: dict[int, tuple[list[str], list[str]]] = {}
        for size in (2, 3):
            grams[size] = (
                ["|".join(lowers[j : j + size]) for j in range(n - size + 1)],
                ["|".join(shapes[j : j + size]) for j in range(n - size + 1)],
            )
        spans = [
            (span[0], len(span), "|".join(map(str, span)))
            for span in _NGRAM_SPANS
            if max(abs(o) for o in span) <= self.config.window
        ]
        out: list[Features] = []
        for i in range(n):
            feats: Features = {}
            for first, size, name in spans:
                j = i + first
                if 0 <= j <= n - size:
                    low, shp = grams[size]
                    feats[name + ":lower"] = low[j]
                    feats[name + ":sshape"] = shp[j]
            out.append(feats)
        return out

    def _syntax(self, text: str, tokens: Sequence[Token]) -> list[Features] | None:
        if not self.config.syntax:
            return None
        from phiscrub.features.syntax import syntactic_bigrams

        return syntactic_bigrams(text, tokens)


@functools.lru_cache(maxsize=65536)
def _sshape(word: str) -> str:
    """Short shape of a word, cached (shape n-grams: ``Aa|Aa``, ``0|/|0``)."""
    return short_shape(word)
