"""Linear-chain decoding (Viterbi, forward-backward) for a batch of notes at once, in numpy.

A step of either recursion is a small operation over all labels; done note by note, numpy's
per-call overhead dominates (a note of 500 tokens is 500 steps). Here the notes of a batch
are padded to one length and every step handles all of them with one operation, so the
overhead is paid once per batch. Padding never leaks into a note: a note's best path is
read from the scores at its own last token, and its backward pass starts there (the
forward-backward pass goes further and computes, at each step, only the notes that reach
it).

The chain is crfsuite's first-order CRF: state scores plus transition scores, with no
start or end weights.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

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


class _Workspace:
    """The forward-backward pass's step-major arrays, kept from batch to batch. Fresh
    arrays of this size (tens of MB) are new pages that the kernel faults in, each time
    (about 11,000 page faults per pass over the development corpus); reused, they are
    faulted in once. One set for the process, as large as the largest batch needs
    (``hybrid.BATCH_CHARS`` bounds it): a thread that finds it in use by another takes
    fresh arrays rather than waiting, so that threads never wait and never hold a set
    each (a server's thread pool has dozens)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.flat: dict[str, Array] = {}

    def array(self, name: str, shape: tuple[int, ...]) -> Array:
        size = int(numpy.prod(shape))
        flat = self.flat.get(name)
        if flat is None or len(flat) < size:
            flat = self.flat[name] = numpy.empty(size)
        return flat[:size].reshape(shape)


_WORKSPACE = _Workspace()


def _fresh(name: str, shape: tuple[int, ...]) -> Array:
    return numpy.empty(shape)


def forward_backward(emits: Sequence[Array], trans: Array) -> list[Array]:
    """P(label) at each token of each note (scaled forward-backward).

    The notes are taken longest first, so that the notes holding token ``t`` are the first
    ``active[t]`` of the batch: each step computes those rows only (padding is never
    touched, nor read, so the arrays are not zeroed), on arrays laid out step-major so that
    a step's rows are contiguous. The backward pass multiplies its scaled beta into alpha as
    it goes (one step of beta is kept, not all of them). The results are copies: nothing
    returned points into the workspace."""
    if not _WORKSPACE.lock.acquire(blocking=False):
        return _forward_backward(emits, trans, _fresh)
    try:
        return _forward_backward(emits, trans, _WORKSPACE.array)
    finally:
        _WORKSPACE.lock.release()


def _forward_backward(
    emits: Sequence[Array], trans: Array, array: Callable[[str, tuple[int, ...]], Array]
) -> list[Array]:
    keep = [b for b, e in enumerate(emits) if len(e)]
    labels = trans.shape[0]
    out: list[Array] = [numpy.zeros((0, labels)) for _ in emits]
    if not keep:
        return out
    keep.sort(key=lambda b: -len(emits[b]))
    lengths = [len(emits[b]) for b in keep]
    steps, batch = lengths[0], len(keep)
    expe = array("expe", (steps, batch, labels))
    alpha = array("alpha", (steps, batch, labels))
    for k, b in enumerate(keep):
        e = emits[b]
        numpy.exp(e - e.max(axis=1, keepdims=True), out=expe[: len(e), k])
    counts = numpy.searchsorted(-numpy.asarray(lengths), -numpy.arange(steps + 1), side="left")
    active: list[int] = counts.tolist()
    expt = numpy.exp(trans)
    expt_t = numpy.ascontiguousarray(expt.T)
    total = numpy.empty((batch, 1))
    alpha[0] = expe[0] / expe[0].sum(axis=1, keepdims=True)
    # numpy.add.reduce, not numpy.sum: the same sums to the bit, without numpy.sum's Python
    # wrapper, which cost about as much as the step's arithmetic on a note tagged alone
    for t in range(1, steps):
        k = active[t]
        cur = alpha[t, :k]
        numpy.matmul(alpha[t - 1, :k], expt, out=cur)
        cur *= expe[t, :k]
        numpy.add.reduce(cur, axis=1, keepdims=True, out=total[:k])
        cur /= total[:k]
    step = numpy.empty((batch, labels))
    beta = numpy.ones((batch, labels))  # beta at step t + 1 (1 at each note's last token)
    for t in range(steps - 2, -1, -1):
        k = active[t + 1]  # the notes with a token t + 1 (those ending at t: beta 1)
        if k:
            numpy.multiply(expe[t + 1, :k], beta[:k], out=step[:k])
            cur = beta[:k]
            numpy.matmul(step[:k], expt_t, out=cur)
            numpy.add.reduce(cur, axis=1, keepdims=True, out=total[:k])
            cur /= total[:k]
            alpha[t, :k] *= cur
        # rows k.. of beta were never updated: 1, as the notes ending at t need
    for k, b in enumerate(keep):
        n = lengths[k]
        prob = alpha[:n, k].copy()  # the workspace is the next batch's
        prob /= prob.sum(axis=1, keepdims=True)
        out[b] = prob
    return out
