"""Linear-chain decoding (Viterbi, forward-backward) for a batch of notes at once, in numpy.

A step of either recursion is a small operation over all labels; done note by note, numpy's
per-call overhead dominates (a note of 500 tokens is 500 steps). Here the notes of a batch
are padded to one length and every step handles all of them with one operation, so the
overhead is paid once per batch. Padding never leaks into a note: a note's best path is
read from the scores at its own last token, and its backward pass starts there.

The chain is crfsuite's first-order CRF: state scores plus transition scores, with no
start or end weights.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy
import numpy.typing as npt

__all__ = ["forward_backward", "viterbi"]

Array = npt.NDArray[numpy.float64]


def _pad(emits: Sequence[Array]) -> tuple[Array, npt.NDArray[numpy.intp]]:
    lengths = numpy.array([len(e) for e in emits], dtype=numpy.intp)
    width = emits[0].shape[1]
    out = numpy.zeros((len(emits), int(lengths.max()), width))
    for b, e in enumerate(emits):
        out[b, : len(e)] = e
    return out, lengths


def viterbi(emits: Sequence[Array], trans: Array) -> list[list[int]]:
    """The best label sequence of each note (``emits[b]``: tokens x labels)."""
    keep = [b for b, e in enumerate(emits) if len(e)]
    paths: list[list[int]] = [[] for _ in emits]
    if not keep:
        return paths
    emit, lengths = _pad([emits[b] for b in keep])
    batch, steps, _ = emit.shape
    ends = lengths - 1
    labels = emit.shape[2]
    back = numpy.zeros((steps, batch, labels), dtype=numpy.intp)
    into = numpy.ascontiguousarray(trans.T)  # [current, previous]: argmax on the last axis
    cand = numpy.empty((batch, labels, labels))
    score = emit[:, 0].copy()
    last = numpy.where(ends == 0, score.argmax(axis=1), 0)
    for t in range(1, steps):
        numpy.add(score[:, None, :], into, out=cand)  # [b, current, previous]
        best = cand.argmax(axis=2)
        back[t] = best
        score = numpy.take_along_axis(cand, best[:, :, None], axis=2)[:, :, 0]
        score += emit[:, t]
        done = ends == t
        if done.any():
            last[done] = score[done].argmax(axis=1)
    rows = numpy.arange(batch)
    path = numpy.zeros((batch, steps), dtype=numpy.intp)
    cur = numpy.zeros(batch, dtype=numpy.intp)
    for t in range(steps - 1, -1, -1):
        start = ends == t
        cur[start] = last[start]
        path[:, t] = cur
        if t:
            cur = numpy.where(ends >= t, back[t, rows, cur], cur)
    for k, b in enumerate(keep):
        paths[b] = path[k, : lengths[k]].tolist()
    return paths


def forward_backward(emits: Sequence[Array], trans: Array) -> list[Array]:
    """P(label) at each token of each note (scaled forward-backward)."""
    keep = [b for b, e in enumerate(emits) if len(e)]
    out: list[Array] = [numpy.zeros((0, trans.shape[0])) for _ in emits]
    if not keep:
        return out
    emit, lengths = _pad([emits[b] for b in keep])
    ends = lengths - 1
    expe = numpy.exp(emit - emit.max(axis=2, keepdims=True))
    expt = numpy.exp(trans)
    alpha = numpy.empty_like(expe)
    beta = numpy.empty_like(expe)
    a = expe[:, 0]
    alpha[:, 0] = a / a.sum(axis=1, keepdims=True)
    for t in range(1, expe.shape[1]):
        a = (alpha[:, t - 1] @ expt) * expe[:, t]
        alpha[:, t] = a / a.sum(axis=1, keepdims=True)
    b = numpy.ones_like(expe[:, 0])
    for t in range(expe.shape[1] - 1, -1, -1):
        if t < expe.shape[1] - 1:
            b = (expe[:, t + 1] * beta[:, t + 1]) @ expt.T
            b = b / b.sum(axis=1, keepdims=True)
        b = numpy.where((ends <= t)[:, None], 1.0, b)
        beta[:, t] = b
    prob = alpha * beta
    prob /= prob.sum(axis=2, keepdims=True)
    for k, idx in enumerate(keep):
        out[idx] = prob[k, : lengths[k]]
    return out
