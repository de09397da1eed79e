"""A fast decoder for trained CRFs: their weights in numpy, features summed per word type.

python-crfsuite spends most of its tagging time turning ~80-200 feature strings per token
into attributes. A linear-chain CRF's emission score is a sum of weights, so the weights
of every window feature of a word type at each offset are summed once and cached
(clinical vocabulary is Zipfian): a token then costs ``2 * window + 1`` cached rows plus
the weights of its few position features (context, n-grams, BOS/EOS). The cached rows sit
in one matrix, so a note's are a gather by word id; so do the summed rows of the position
families that give a token one combination (its line position, section, whitespace chunk),
computed for the whole note at once from the same definitions as ``context_features``
(a test checks that the scores are the summed weights of the extractor's attributes,
whatever the families). Viterbi and the
marginals run over the same weights for a batch of notes at once (``chain.py``); the
weights are read from the crfsuite model dump, so the tags equal python-crfsuite's up to
the dump's six decimals (a test checks it).

Several CRFs over the same features (the hybrid's quantitative and name CRFs) share one
feature pass: their weight matrices sit side by side and each decodes its own columns.
Supported: every FeatureConfig family except ``syntax`` (``CompiledCRF.supports``);
EasyAdapt models are folded (a new note is a target note: general + target weights).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from itertools import repeat
from typing import Any

import numpy
import numpy.typing as npt

from phiscrub.features import FeatureConfig, FeatureExtractor
from phiscrub.features.context import (
    chunk_features,
    chunk_runs,
    context_features,
    heading_places,
    line_ends,
    token_bounds,
    trigger_matches,
)
from phiscrub.features.token import short_shape
from phiscrub.taggers.chain import forward_backward, viterbi
from phiscrub.text import Token

__all__ = ["Chain", "CompiledCRF", "ModelWeights", "attribute_strings"]

Array = npt.NDArray[numpy.float64]
Ints = npt.NDArray[numpy.intp]
_NGRAM_SPANS = ((-2, -1), (-1, 0), (0, 1), (1, 2), (-2, -1, 0), (-1, 0, 1), (0, 1, 2))
#: word types cached before the cache is emptied (bounds memory)
CACHE_LIMIT = 100_000


@dataclass(frozen=True)
class ModelWeights:
    """A CRF's labels, state weights ``{(attribute, label): w}`` and transition weights."""

    labels: Sequence[str]
    state: dict[tuple[str, str], float]
    transitions: dict[tuple[str, str], float]


@dataclass(frozen=True)
class Chain:
    """One CRF's labels, transition matrix and emission columns."""

    labels: tuple[str, ...]
    trans: Array
    columns: slice


def _chain(labels: Sequence[str], transitions: dict[tuple[str, str], float], first: int) -> Chain:
    index = {lab: k for k, lab in enumerate(labels)}
    trans = numpy.zeros((len(labels), len(labels)))
    for (a, b), w in transitions.items():
        trans[index[a], index[b]] = w
    cols = slice(first, first + len(labels))
    return Chain(tuple(labels), trans, cols)


def _fold_domains(model: ModelWeights) -> ModelWeights:
    """EasyAdapt: a target note has the general (``g~``) and target (``t~``) copy of every
    feature, so each attribute weighs the sum of both copies; source copies never fire."""
    state: dict[tuple[str, str], float] = {}
    for (attr, label), w in model.state.items():
        if attr.startswith(("g~", "t~")):
            key = (attr[2:], label)
            state[key] = state.get(key, 0.0) + w
    return ModelWeights(model.labels, state, model.transitions)


def _attr(key: str, value: Any) -> tuple[str, float]:
    """python-crfsuite's reading of one dict item: ``key:value`` (weight 1) or ``key``."""
    if isinstance(value, str):
        return f"{key}:{value}", 1.0
    return key, float(value)


def attribute_strings(feats: dict[str, Any]) -> dict[str, float]:
    """The crfsuite attributes of one token's feature dict (for tests and tools)."""
    return dict(_attr(k, v) for k, v in feats.items())


def ngram_items(words: Sequence[str], window: int) -> list[list[str]]:
    """The n-gram attributes of each token, spelled as ``FeatureExtractor`` spells them."""
    lowers = [w.lower() for w in words]
    shapes = [short_shape(w) for w in words]
    n = len(words)
    out: list[list[str]] = [[] for _ in range(n)]
    for span in _NGRAM_SPANS:
        if max(abs(o) for o in span) > window:
            continue
        first, size, name = span[0], len(span), "|".join(map(str, span))
        for i in range(max(0, -first), min(n, n - size - first + 1)):
            j = i + first
            out[i].append(f"{name}:lower:{'|'.join(lowers[j : j + size])}")
            out[i].append(f"{name}:sshape:{'|'.join(shapes[j : j + size])}")
    return out


class _Table:
    """Summed weight rows (``shape``) of keys (word types, chunks, sections), stacked in
    one growing matrix so that a note's rows are one gather. Emptied between notes once it
    holds ``CACHE_LIMIT`` keys (bounds memory; ids stay valid within a note)."""

    def __init__(self, shape: tuple[int, ...], make: Callable[[Any], Array]) -> None:
        self.make = make
        self.index: dict[Hashable, int] = {}
        self.matrix = numpy.zeros((64, *shape))

    def trim(self) -> None:
        if len(self.index) >= CACHE_LIMIT:
            self.index.clear()

    def ids(self, keys: Sequence[Hashable]) -> Ints:
        out = list(map(self.index.get, keys, repeat(-1)))  # map: the lookups run in C
        if -1 in out:
            out = [k if k >= 0 else self._add(key) for k, key in zip(out, keys, strict=True)]
        return numpy.array(out, dtype=numpy.intp)

    def _add(self, key: Hashable) -> int:
        k = self.index.get(key)
        if k is not None:
            return k
        k = len(self.index)
        if k == len(self.matrix):
            size = max(min(2 * k, CACHE_LIMIT), k + 1024)
            grown = numpy.zeros((size, *self.matrix.shape[1:]))
            grown[:k] = self.matrix[:k]
            self.matrix = grown
        self.matrix[k] = self.make(key)
        self.index[key] = k
        return k


class CompiledCRF:
    """One or more CRFs over one feature extractor (see the module docstring)."""

    def __init__(self, extractor: FeatureExtractor, models: Sequence[ModelWeights]) -> None:
        self.extractor = extractor
        self.config: FeatureConfig = extractor.config
        if self.config.easyadapt:
            models = [_fold_domains(m) for m in models]
        attrs = sorted({a for m in models for a, _ in m.state})
        self._row = {a: k for k, a in enumerate(attrs)}
        self.chains: list[Chain] = []
        width = 0
        for m in models:
            self.chains.append(_chain(m.labels, m.transitions, width))
            width += len(m.labels)
        self.weights = numpy.zeros((len(attrs) + 1, width))  # the last row stays zero
        for chain, m in zip(self.chains, models, strict=True):
            col = {lab: chain.columns.start + k for k, lab in enumerate(chain.labels)}
            for (attr, lab), w in m.state.items():
                self.weights[self._row[attr], col[lab]] = w
        w, width = self.config.window, self.weights.shape[1]
        self._types = _Table((2 * w + 1, width), self._type_rows)
        self._chunks = _Table((width,), self._chunk_row)
        self._sections = _Table((width,), lambda name: self._sum([f"0:section:{name}"]))
        self._layout = numpy.stack(
            [self._sum(a) for a in ([], ["0:bol"], ["0:eol"], ["0:bol", "0:eol", "0:alone"])]
        )  # by line position: 1 first of its line, 2 last, 3 alone
        self._in_heading = self._sum(["0:in_heading"])
        self._edges = [
            (d, self._sum([f"-{d}:BOS"]), self._sum([f"{d}:EOS"])) for d in range(1, w + 1)
        ]
        # families computed token by token (their rows are summed with ``reduceat``)
        self._rest = replace(
            self.config, layout=False, triggers=False, section=False, chunk_shapes=False
        )
        self._contexts: dict[tuple[tuple[str, Any], ...], list[int]] = {}
        # the tables grow and are emptied in place: one note at a time per compiled model
        self._lock = threading.Lock()

    @staticmethod
    def supports(config: FeatureConfig) -> bool:
        return not config.syntax

    @classmethod
    def from_taggers(cls, taggers: Sequence[Any], extractor: FeatureExtractor) -> CompiledCRF:
        """From open ``pycrfsuite.Tagger`` objects (weights read from their model dumps)."""
        models = []
        for tagger in taggers:
            info = tagger.info()
            models.append(ModelWeights(tagger.labels(), info.state_features, info.transitions))
        return cls(extractor, models)

    # -- emissions ------------------------------------------------------------------
    def _sum(self, attrs: Sequence[str]) -> Array:
        """The summed weights of attributes (those the model never saw weigh nothing)."""
        rows = [r for a in attrs if (r := self._row.get(a)) is not None]
        total: Array = self.weights[rows].sum(axis=0)
        return total

    def _type_rows(self, word: str) -> Array:
        """Summed weights of the word's features at every window offset (-w..w)."""
        w = self.config.window
        items = [_attr(k, v) for k, v in self.extractor.word_features(word).items()]
        rows = numpy.zeros((2 * w + 1, self.weights.shape[1]))
        for d in range(-w, w + 1):
            found = [
                (r, value)
                for name, value in items
                if (d == 0 or name != "bias") and (r := self._row.get(f"{d}:{name}")) is not None
            ]
            if found:
                index, values = zip(*found, strict=True)
                rows[d + w] = numpy.asarray(values) @ self.weights[list(index)]
        return rows

    def _chunk_row(self, chunk: str) -> Array:
        return self._sum([f"0:{k}:{v}" for k, v in chunk_features(chunk)])

    def position_items(self, text: str, tokens: Sequence[Token]) -> list[list[str]]:
        """The attributes of each token that depend on its place, not its word type."""
        words = [t.text for t in tokens]
        lowers = [x.lower() for x in words]
        w, n = self.config.window, len(tokens)
        out = [
            [f"0:{k}:{v}" if isinstance(v, str) else "0:" + k for k, v in feats.items()]
            for feats in context_features(text, tokens, lowers, self.config)
        ]
        for d in range(1, w + 1):
            for i in range(min(d, n)):
                out[i].append(f"-{d}:BOS")
            for i in range(max(n - d, 0), n):
                out[i].append(f"{d}:EOS")
        if self.config.ngrams:
            for i, grams in enumerate(ngram_items(words, w)):
                out[i] += grams
        return out

    def emissions(self, text: str, tokens: Sequence[Token]) -> Array:
        """The state score of every label of every chain at every token (n x labels)."""
        n, w = len(tokens), self.config.window
        emit = numpy.zeros((n, self.weights.shape[1]))
        if not n:
            return emit
        with self._lock:
            for table in (self._types, self._chunks, self._sections):
                table.trim()
            words = [t.text for t in tokens]
            ids, types = self._types.ids(words), self._types.matrix
            for d in range(-w, w + 1):  # token i sees word i + d at offset d
                lo, hi = max(0, -d), min(n, n - d)
                if lo < hi:
                    emit[lo:hi] += types[ids[lo + d : hi + d], d + w]
            self._add_position_scores(emit, text, tokens, words)
        return emit

    def _add_position_scores(
        self, emit: Array, text: str, tokens: Sequence[Token], words: list[str]
    ) -> None:
        """Add the summed weights of the features of each token's place
        (``context_features``, BOS/EOS and n-grams), family by family: most are one row
        per token, gathered from per-note or cached tables."""
        cfg, n = self.config, len(tokens)
        starts, ends = token_bounds(tokens)
        if cfg.layout:
            bol, eol = line_ends(text, starts, ends)
            emit += self._layout[bol + 2 * eol]
        if cfg.section:
            names, section, inside = heading_places(text, starts)
            ids = self._sections.ids(names)  # first: it may grow the matrix
            emit += self._sections.matrix[ids[section]]
            emit[inside] += self._in_heading
        if cfg.chunk_shapes:
            chunks, sizes = chunk_runs(text, starts, ends)
            ids = self._chunks.ids(chunks)
            emit += self._chunks.matrix[numpy.repeat(ids, sizes)]
        if cfg.triggers and cfg.trigger_offsets:
            for i, attr in self._trigger_attrs(list(map(str.lower, words))):
                if (r := self._row.get(attr)) is not None:
                    emit[i] += self.weights[r]
        for d, bos, eos in self._edges:
            emit[: min(d, n)] += bos
            emit[max(n - d, 0) :] += eos
        if cfg.sentence or cfg.attribute or cfg.ngrams:
            rows, firsts = self._rest_rows(text, tokens, words)
            emit += numpy.add.reduceat(self.weights[rows], firsts, axis=0)

    def _trigger_attrs(self, lowers: list[str]) -> list[tuple[int, str]]:
        """(token, attribute) of the trigger features, each once, in a fixed order."""
        reach, n = self.config.trigger_offsets, len(lowers)
        found: dict[tuple[int, str], None] = {}
        for start, end, group in trigger_matches(lowers):
            for d in range(1, reach + 1):
                if end - 1 + d < n:
                    found[(end - 1 + d, f"0:trig-{d}:{group}")] = None
                if start - d >= 0:
                    found[(start - d, f"0:trig+{d}:{group}")] = None
        return list(found)

    def _context_rows(self, feats: dict[str, Any]) -> list[int]:
        """Weight rows of one token's context features (cached: few distinct dicts)."""
        key = tuple(feats.items())
        rows = self._contexts.get(key)
        if rows is None:
            if len(self._contexts) >= CACHE_LIMIT:
                self._contexts.clear()
            names = [f"0:{k}:{v}" if isinstance(v, str) else "0:" + k for k, v in key]
            rows = [r for a in names if (r := self._row.get(a)) is not None]
            self._contexts[key] = rows
        return rows

    def _rest_rows(
        self, text: str, tokens: Sequence[Token], words: list[str]
    ) -> tuple[list[int], list[int]]:
        """Weight rows of the sentence, attribute and n-gram features of every token, and
        where each token's rows start (every token gets the zero row first, so that none
        is empty)."""
        zero, w = len(self.weights) - 1, self.config.window
        lowers = [x.lower() for x in words]
        grams = ngram_items(words, w) if self.config.ngrams else None
        rows: list[int] = []
        starts: list[int] = []
        for i, feats in enumerate(context_features(text, tokens, lowers, self._rest)):
            starts.append(len(rows))
            rows.append(zero)
            rows += self._context_rows(feats)
            if grams is not None:
                rows += [r for a in grams[i] if (r := self._row.get(a)) is not None]
        return rows, starts

    # -- decoding (a batch of notes at once: see chain.py) ---------------------------
    def decode(self, emits: Sequence[Array], k: int = 0) -> list[list[str]]:
        """Chain ``k``'s best tag sequence of each note."""
        chain = self.chains[k]
        paths = viterbi([e[:, chain.columns] for e in emits], chain.trans)
        return [[chain.labels[i] for i in path] for path in paths]

    def marginals(self, emits: Sequence[Array], k: int = 0) -> list[Array]:
        """Chain ``k``'s P(tag) at each token of each note (columns: ``chains[k].labels``)."""
        chain = self.chains[k]
        return forward_backward([e[:, chain.columns] for e in emits], chain.trans)
