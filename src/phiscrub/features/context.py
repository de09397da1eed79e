"""Features of a token's place in its note (computed for the target position only).

Chunk shapes (regex classes of the whitespace-delimited word holding the token, seed 001
(2)), sentence length and shape (seed 001 (6), (7)), section heading (seed 001 (8), seed 000
§6), attribute name (seed 001 (13)), line layout, and trigger phrases at offsets (seed 002).
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_right
from collections.abc import Sequence

import numpy
import numpy.typing as npt

from phiscrub.features.config import FeatureConfig
from phiscrub.features.lexicons import Trigger, load_triggers
from phiscrub.features.token import Features, short_shape
from phiscrub.text import (
    Token,
    attribute_at,
    attribute_values,
    section_headings,
    sentences,
)

__all__ = [
    "chunk_features",
    "chunk_runs",
    "context_features",
    "heading_places",
    "line_ends",
    "token_bounds",
    "trigger_matches",
]

Ints = npt.NDArray[numpy.intp]
Bools = npt.NDArray[numpy.bool_]
_BREAK = re.compile(r"[\r\n]")

_CHUNK_PATTERNS = {
    "date": re.compile(r"\d{1,4}[/.-]\d{1,2}(?:[/.-]\d{2,4})?[.,;)]?"),
    "phone": re.compile(r"\(?\d{3}\)?[-. ]?\d{3}[-.]\d{4}[.,;]?|\d{3}-\d{4}[.,;]?"),
    "time": re.compile(r"\d{1,2}:\d{2}(?::\d{2})?(?:[ap]m)?", re.IGNORECASE),
    "email": re.compile(r"[^@\s]+@[^@\s]+\.[a-z]{2,}", re.IGNORECASE),
    "url": re.compile(r"(?:https?://|www\.)\S+|\S+\.(?:com|org|net|edu|gov)\S*", re.I),
    "initials": re.compile(r"(?:[A-Z]\.){1,3}[A-Z]?\.?"),
    "idlike": re.compile(r"(?=\S*\d)(?=\S*[A-Za-z])[A-Za-z0-9-]{5,}"),
    "year": re.compile(r"'?(?:19|20|21)\d\d[.,;)]?"),
}
_ENUM = re.compile(r"\(?(?:\d{1,3}|[a-zA-Z])[.)]$")


@functools.lru_cache(maxsize=65536)
def chunk_features(chunk: str) -> tuple[tuple[str, str], ...]:
    """Regex classes and short shape of a whitespace-delimited word (cached per string)."""
    out = [("chunk_" + name, "1") for name, p in _CHUNK_PATTERNS.items() if p.fullmatch(chunk)]
    out.append(("chunk_sshape", short_shape(chunk)[:10]))
    return tuple(out)


def token_bounds(tokens: Sequence[Token]) -> tuple[Ints, Ints]:
    """The start and end offsets of the tokens, as arrays."""
    if not tokens:
        return numpy.zeros(0, numpy.intp), numpy.zeros(0, numpy.intp)
    starts, ends, _ = zip(*tokens, strict=True)
    return numpy.array(starts, dtype=numpy.intp), numpy.array(ends, dtype=numpy.intp)


def chunk_runs(text: str, starts: Ints, ends: Ints) -> tuple[list[str], Ints]:
    """The whitespace-delimited stretches of text made of touching tokens, in order, and
    how many tokens each holds (each token belongs to exactly one)."""
    if not len(starts):
        return [], numpy.zeros(0, numpy.intp)
    first = numpy.flatnonzero(starts[1:] != ends[:-1]) + 1
    heads = numpy.concatenate(([0], first))
    tails = numpy.concatenate((first, [len(starts)]))
    firsts, lasts = starts[heads].tolist(), ends[tails - 1].tolist()
    chunks = [text[a:b] for a, b in zip(firsts, lasts, strict=True)]
    return chunks, tails - heads


def _chunks(text: str, starts: Ints, ends: Ints) -> list[str]:
    """For each token, the whitespace-delimited stretch of text holding it."""
    chunks, sizes = chunk_runs(text, starts, ends)
    out: list[str] = []
    for chunk, size in zip(chunks, sizes.tolist(), strict=True):
        out += [chunk] * size
    return out


def _sentence_features(text: str, tokens: Sequence[Token]) -> list[Features]:
    bounds = sentences(text)
    starts = [s for s, _ in bounds]
    index = [max(bisect_right(starts, t.start) - 1, 0) for t in tokens]
    sizes: dict[int, int] = {}
    for k in index:
        sizes[k] = sizes.get(k, 0) + 1
    out: list[Features] = []
    for tok, k in zip(tokens, index, strict=True):
        size = sizes[k]
        feats: Features = {"sent_len": "6+" if size > 5 else str(size)}
        if bounds:
            start, end = bounds[k]
            if text[end - 1] == ":":
                feats["sent_colon"] = 1.0
            first = text[start:end].split(None, 1)[0]
            if _ENUM.match(first):
                feats["sent_enum"] = 1.0
            if tok.start == start:
                feats["sent_first"] = 1.0
        out.append(feats)
    return out


def line_ends(text: str, starts: Ints, ends: Ints) -> tuple[Bools, Bools]:
    """Whether each token is the first (a line break, or the start of the note, between it
    and the token before) and the last of its line."""
    breaks = numpy.fromiter(
        (m.start() for m in _BREAK.finditer(text)), numpy.intp
    )  # offsets of every CR and LF
    gap = numpy.searchsorted(breaks, starts[1:]) > numpy.searchsorted(breaks, ends[:-1])
    edge = numpy.ones(1, dtype=bool)
    return numpy.concatenate((edge, gap)), numpy.concatenate((gap, edge))


def _layout_features(text: str, starts: Ints, ends: Ints) -> list[Features]:
    out: list[Features] = []
    bols, eols = line_ends(text, starts, ends)
    for bol, eol in zip(bols.tolist(), eols.tolist(), strict=True):
        feats: Features = {}
        if bol:
            feats["bol"] = 1.0
        if eol:
            feats["eol"] = 1.0
        if bol and eol:
            feats["alone"] = 1.0
        out.append(feats)
    return out


@functools.cache
def _triggers_by_first() -> dict[str, tuple[Trigger, ...]]:
    by_first: dict[str, list[Trigger]] = {}
    for trig in load_triggers():
        by_first.setdefault(trig.tokens[0], []).append(trig)
    return {k: tuple(v) for k, v in by_first.items()}


def trigger_matches(lowers: Sequence[str]) -> list[tuple[int, int, str]]:
    """Every (start, end, group) where a trigger phrase matches whole tokens."""
    by_first = _triggers_by_first()
    found: list[tuple[int, int, str]] = []
    for j, low in enumerate(lowers):
        trigs = by_first.get(low)
        if trigs is None:
            continue
        for trig in trigs:
            end = j + len(trig.tokens)
            if tuple(lowers[j:end]) == trig.tokens:
                found.append((j, end, trig.group))
    return found


def _trigger_features(lowers: Sequence[str], reach: int) -> list[Features]:
    out: list[Features] = [{} for _ in lowers]
    for start, end, group in trigger_matches(lowers):
        for d in range(1, reach + 1):
            if end - 1 + d < len(out):  # the phrase ends d tokens before the target
                out[end - 1 + d][f"trig-{d}:{group}"] = 1.0
            if start - d >= 0:  # the phrase starts d tokens after the target
                out[start - d][f"trig+{d}:{group}"] = 1.0
    return out


def heading_places(text: str, starts: Ints) -> tuple[list[str], Ints, Bools]:
    """The section names of the note (``names[0]`` is ``NONE``, before any heading), the
    index in ``names`` of the section of each token, and whether the token lies in a
    heading."""
    headings = section_headings(text)
    names = ["NONE"] + [h.name or "NONE" for h in headings]
    if not headings:
        return names, numpy.zeros(len(starts), numpy.intp), numpy.zeros(len(starts), bool)
    heads = numpy.fromiter((h.start for h in headings), numpy.intp, len(headings))
    tails = numpy.fromiter((h.end for h in headings), numpy.intp, len(headings))
    section = numpy.searchsorted(heads, starts, side="right")  # last heading at or before
    nxt = numpy.searchsorted(tails, starts, side="right")  # first heading ending after
    inside = nxt < len(headings)
    inside[inside] = heads[nxt[inside]] <= starts[inside]
    return names, section, inside


def _structure_features(
    text: str, tokens: Sequence[Token], starts: Ints, config: FeatureConfig
) -> list[Features]:
    out: list[Features] = [{} for _ in tokens]
    if config.section:
        names, section, inside = heading_places(text, starts)
        for feats, k, head in zip(out, section.tolist(), inside.tolist(), strict=True):
            feats["section"] = names[k]
            if head:
                feats["in_heading"] = 1.0
    if config.attribute:
        pairs = attribute_values(text)
        for feats, tok in zip(out, tokens, strict=True):
            attr = attribute_at(pairs, tok.start)
            if attr is not None:
                feats["attr"] = attr
    return out


def context_features(
    text: str, tokens: Sequence[Token], lowers: Sequence[str], config: FeatureConfig
) -> list[Features]:
    """Position features of every token (one dict per token, keys without a prefix)."""
    out: list[Features] = [{} for _ in tokens]
    if not tokens:
        return out
    starts, ends = token_bounds(tokens)
    parts: list[list[Features]] = []
    if config.sentence:
        parts.append(_sentence_features(text, tokens))
    if config.layout:
        parts.append(_layout_features(text, starts, ends))
    if config.triggers and config.trigger_offsets:
        parts.append(_trigger_features(lowers, config.trigger_offsets))
    if config.section or config.attribute:
        parts.append(_structure_features(text, tokens, starts, config))
    if config.chunk_shapes:
        parts.append([dict(chunk_features(c)) for c in _chunks(text, starts, ends)])
    for part in parts:
        for feats, extra in zip(out, part, strict=True):
            feats.update(extra)
    return out
