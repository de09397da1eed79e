"""Syntactic bigrams from a Link Grammar parse (seed 000 §6.4.2; optional).

For each token: the links leaving it to the right and the words they reach (R1), the
links leaving those words to the right and the words they reach (R2), and the same to the
left (L1, L2). Feature keys: ``0:synR1=MVp|in``, ``0:synL2=Js|in``. Each sentence (as
``phiscrub.text.sentences`` finds it) is parsed with our tokens joined by spaces; a sentence
longer than ``MAX_TOKENS`` tokens, or without a parse within ``PARSE_SECONDS``, adds no
syntactic feature (Link Grammar's panic mode: partial parses with null links are kept).

The parser is Debian's ``python3-link-grammar`` (LGPL-2.1; English dictionary
``link-grammar-dictionaries-en``). It is not a dependency: without it, asking for these
features raises a coded error. A virtual environment sees Debian's module when
``/usr/lib/python3/dist-packages`` is on PYTHONPATH.
"""

from __future__ import annotations

import functools
import importlib
import re
from bisect import bisect_right
from collections.abc import Sequence
from typing import Any

from phiscrub.errors import UsageError
from phiscrub.text import Token, sentences

__all__ = ["MAX_TOKENS", "available", "require_parser", "syntactic_bigrams"]

MAX_TOKENS = 60
PARSE_SECONDS = 1
_SUBSCRIPT = re.compile(r"\[.*$|\.[a-z][a-z0-9-]*$")


def available() -> bool:
    """Whether the Link Grammar parser can be imported."""
    try:
        _parser()
    except UsageError:
        return False
    return True


def require_parser() -> None:
    _parser()


@functools.cache
def _parser() -> tuple[Any, Any, Any]:
    """(module, dictionary, parse options), loaded once."""
    try:
        lg: Any = importlib.import_module("linkgrammar")
        dictionary = lg.Dictionary("en")
    except (ImportError, OSError, RuntimeError) as exc:
        raise UsageError(
            f"syntactic features need the Link Grammar parser ({type(exc).__name__})",
            hint="apt-get install python3-link-grammar link-grammar-dictionaries-en, and put "
            "/usr/lib/python3/dist-packages on PYTHONPATH; or turn the syntax family off",
        ) from None
    options = lg.ParseOptions(verbosity=0, min_null_count=0, max_null_count=MAX_TOKENS)
    options.max_parse_time = PARSE_SECONDS
    options.linkage_limit = 1
    return lg, dictionary, options


def _norm(word: str) -> str:
    return _SUBSCRIPT.sub("", word).lower() or word.lower()


def _parse(words: Sequence[str]) -> list[tuple[int, str, int]] | None:
    """Links (left word index, label, right word index) over ``words``; None if no parse.
    Indices count our words (walls and words the parser split or merged are dropped)."""
    lg, dictionary, options = _parser()
    sentence_text = " ".join(words)
    starts = [0]
    for w in words[:-1]:
        starts.append(starts[-1] + len(w) + 1)
    sentence = lg.Sentence(sentence_text, dictionary, options)
    try:
        linkage = next(iter(sentence.parse()), None)
    except lg.LG_Error:  # the parser's own failures, e.g. its timer ran out: no features
        return None
    if not linkage:
        return None
    clg = lg.Clinkgrammar
    mine: dict[int, int] = {}
    for index in range(linkage.num_of_words()):
        at = int(linkage.word_char_start(index))
        k = bisect_right(starts, at) - 1
        if 0 <= k < len(words) and starts[k] == at and k not in mine.values():
            mine[index] = k
    links: list[tuple[int, str, int]] = []
    for i in range(linkage.num_of_links()):
        left = mine.get(clg.linkage_get_link_lword(linkage._obj, i))
        right = mine.get(clg.linkage_get_link_rword(linkage._obj, i))
        if left is not None and right is not None:
            links.append((left, clg.linkage_get_link_label(linkage._obj, i), right))
    return links


def _sentence_features(words: Sequence[str]) -> list[dict[str, str | float]]:
    out: list[dict[str, str | float]] = [{} for _ in words]
    links = _parse(words) if len(words) <= MAX_TOKENS else None
    if not links:
        return out
    right: dict[int, list[tuple[str, int]]] = {}
    left: dict[int, list[tuple[str, int]]] = {}
    for a, label, b in links:
        right.setdefault(a, []).append((label, b))
        left.setdefault(b, []).append((label, a))
    for i in range(len(words)):
        for side, graph in (("R", right), ("L", left)):
            for label, j in graph.get(i, ()):
                out[i][f"0:syn{side}1={label}|{_norm(words[j])}"] = 1.0
                for label2, k in graph.get(j, ()):
                    out[i][f"0:syn{side}2={label2}|{_norm(words[k])}"] = 1.0
    return out


def syntactic_bigrams(text: str, tokens: Sequence[Token]) -> list[dict[str, str | float]]:
    """Syntactic bigram features of every token, sentence by sentence."""
    out: list[dict[str, str | float]] = [{} for _ in tokens]
    starts = [t.start for t in tokens]
    for start, end in sentences(text):
        lo, hi = bisect_right(starts, start - 1), bisect_right(starts, end - 1)
        if hi > lo:
            out[lo:hi] = _sentence_features([t.text for t in tokens[lo:hi]])
    return out
