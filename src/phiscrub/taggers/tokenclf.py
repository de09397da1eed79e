"""What the token-classifier taggers (SVM, boosted trees) share.

A token classifier gives each token a vector of class scores, one class per tag. Tags are
BIO over the subtypes (``B-DOCTOR``, ``I-DOCTOR``, ``O``) or IO (``I-DOCTOR``, ``O``: one
class per subtype, half as many classes; adjacent mentions of the same subtype merge).

* ``training_tags``: the BIO view of the training notes, turned into IO when asked.
* ``as_marginals``: class probabilities as the ``{tag: p}`` dicts of ``decode.py``; for IO
  the tag of a token is named ``B-X`` when its best PHI label differs from the previous
  token's, ``I-X`` otherwise, so that threshold decoding cuts a run where the label changes.
* ``decode_probs``: argmax tags (``bio_to_spans``) or the recall-bias threshold.
* ``to_npy`` / ``from_npy``: arrays as ``.npy`` bytes, never pickled (``allow_pickle=False``).
"""

from __future__ import annotations

import io
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from phiscrub.errors import UsageError
from phiscrub.span import Span
from phiscrub.taggers.base import SCHEMES, training_tags
from phiscrub.taggers.decode import OUTSIDE, decode_threshold, score_spans
from phiscrub.text import Token, bio_to_spans

__all__ = [
    "SCHEMES",
    "FloatArray",
    "as_marginals",
    "decode_probs",
    "from_npy",
    "softmax",
    "to_npy",
    "training_tags",
]

FloatArray = npt.NDArray[np.float64]


def softmax(scores: FloatArray, scale: float = 1.0) -> FloatArray:
    """Row-wise softmax of ``scale * scores`` (numerically stable)."""
    z = scores * scale
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    out: FloatArray = e / e.sum(axis=1, keepdims=True)
    return out


def _io_names(probs: FloatArray, classes: Sequence[str]) -> list[list[str]]:
    """Per token, the tag name of each class: ``B-X``/``I-X`` from IO classes ``I-X``."""
    phi = [k for k, c in enumerate(classes) if c != OUTSIDE]
    names: list[list[str]] = []
    previous = ""
    for row in probs:
        best = classes[max(phi, key=lambda k: row[k])][2:] if phi else ""
        names.append(
            [c if c == OUTSIDE else ("I-" if c[2:] == previous else "B-") + c[2:] for c in classes]
        )
        previous = best if row[classes.index(OUTSIDE)] < 0.5 else ""
    return names


def as_marginals(probs: FloatArray, classes: Sequence[str], scheme: str) -> list[dict[str, float]]:
    """Per token ``{tag: probability}`` (see the module docstring for IO)."""
    if scheme == "io" and OUTSIDE in classes:
        names = _io_names(probs, classes)
        return [
            {n: float(p) for n, p in zip(row_names, row, strict=True)}
            for row_names, row in zip(names, probs, strict=True)
        ]
    return [{c: float(p) for c, p in zip(classes, row, strict=True)} for row in probs]


def decode_probs(
    text: str,
    tokens: Sequence[Token],
    probs: FloatArray,
    classes: Sequence[str],
    scheme: str,
    threshold: float | None,
    source: str,
) -> list[Span]:
    """Spans from class probabilities: argmax tags, or ``P(O) < threshold``."""
    if not tokens:
        return []
    if threshold is not None:
        return decode_threshold(
            text, tokens, as_marginals(probs, classes, scheme), threshold, source
        )
    tags = [classes[k] for k in probs.argmax(axis=1)]
    spans = bio_to_spans(text, tokens, tags, source)
    if OUTSIDE in classes:
        p_out = probs[:, list(classes).index(OUTSIDE)].tolist()
    else:
        p_out = [0.0] * len(tokens)
    return score_spans(spans, tokens, p_out)


def to_npy(array: npt.NDArray[np.generic]) -> bytes:
    """An array as ``.npy`` bytes (object arrays are refused: no pickle)."""
    buf = io.BytesIO()
    np.save(buf, np.ascontiguousarray(array), allow_pickle=False)
    return buf.getvalue()


def from_npy(data: bytes, what: str = "array") -> npt.NDArray[np.generic]:
    """An array from ``.npy`` bytes, never unpickling (UsageError if unreadable)."""
    try:
        out: npt.NDArray[np.generic] = np.load(io.BytesIO(data), allow_pickle=False)
    except (ValueError, OSError, EOFError):
        raise UsageError(f"the model's {what} is not a readable .npy array") from None
    return out
