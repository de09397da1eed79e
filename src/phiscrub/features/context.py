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

from phiscrub.features.config import FeatureConfig
from phiscrub.features.lexicons import Trigger, load_triggers
from phiscrub.features.token import Features, short_shape
from phiscrub.text import (
    Token,
    attribute_at,
    attribute_values,
    section_at,
    section_headings,
    sentences,
)

__all__ = ["chunk_features", "context_features"]

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


def _chunks(tokens: Sequence[Token], text: str) -> list[str]:
    """For each token, the whitespace-delimited stretch of text holding it."""
    out: list[str] = [""] * len(tokens)
    i = 0
    while i < len(tokens):
        j = i
        while j + 1 < len(tokens) and tokens[j + 1].start == tokens[j].end:
            j += 1
        chunk = text[tokens[i].start : tokens[j].end]
        for k in range(i, j + 1):
            out[k] = chunk
        i = j + 1
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


def _layout_features(text: str, tokens: Sequence[Token]) -> list[Features]:
    out: list[Features] = []
    for i, tok in enumerate(tokens):
        feats: Features = {}
        before = text[tokens[i - 1].end : tok.start] if i else "\n"
        after = text[tok.end : tokens[i + 1].start] if i + 1 < len(tokens) else "\n"
        bol = "\n" in before or "\r" in before
        eol = "\n" in after or "\r" in after
        if bol:
            feats["bol"] = 1.0
        if eol:
            feats["eol"] = 1.0
        if bol and eol:
            feats["alone"] = 1.0
        out.append(feats)
    return out


def _trigger_matches(lowers: Sequence[str]) -> list[tuple[int, int, str]]:
    """Every (start, end, group) where a trigger phrase matches whole tokens."""
    by_first: dict[str, list[Trigger]] = {}
    for trig in load_triggers():
        by_first.setdefault(trig.tokens[0], []).append(trig)
    found: list[tuple[int, int, str]] = []
    for j, low in enumerate(lowers):
        for trig in by_first.get(low, ()):
            end = j + len(trig.tokens)
            if tuple(lowers[j:end]) == trig.tokens:
                found.append((j, end, trig.group))
    return found


def _trigger_features(lowers: Sequence[str], reach: int) -> list[Features]:
    out: list[Features] = [{} for _ in lowers]
    for start, end, group in _trigger_matches(lowers):
        for d in range(1, reach + 1):
            if end - 1 + d < len(out):  # the phrase ends d tokens before the target
                out[end - 1 + d][f"trig-{d}:{group}"] = 1.0
            if start - d >= 0:  # the phrase starts d tokens after the target
                out[start - d][f"trig+{d}:{group}"] = 1.0
    return out


def _structure_features(
    text: str, tokens: Sequence[Token], config: FeatureConfig
) -> list[Features]:
    headings = section_headings(text) if config.section else []
    pairs = attribute_values(text) if config.attribute else []
    out: list[Features] = []
    h = 0
    for tok in tokens:
        feats: Features = {}
        if config.section:
            feats["section"] = section_at(headings, tok.start) or "NONE"
            while h < len(headings) and headings[h].end <= tok.start:
                h += 1
            if h < len(headings) and headings[h].start <= tok.start:
                feats["in_heading"] = 1.0
        if config.attribute:
            attr = attribute_at(pairs, tok.start)
            if attr is not None:
                feats["attr"] = attr
        out.append(feats)
    return out


def context_features(
    text: str, tokens: Sequence[Token], lowers: Sequence[str], config: FeatureConfig
) -> list[Features]:
    """Position features of every token (one dict per token, keys without a prefix)."""
    out: list[Features] = [{} for _ in tokens]
    if not tokens:
        return out
    parts: list[list[Features]] = []
    if config.sentence:
        parts.append(_sentence_features(text, tokens))
    if config.layout:
        parts.append(_layout_features(text, tokens))
    if config.triggers and config.trigger_offsets:
        parts.append(_trigger_features(lowers, config.trigger_offsets))
    if config.section or config.attribute:
        parts.append(_structure_features(text, tokens, config))
    if config.chunk_shapes:
        parts.append([dict(chunk_features(c)) for c in _chunks(tokens, text)])
    for part in parts:
        for feats, extra in zip(out, part, strict=True):
            feats.update(extra)
    return out
