"""The note gate: which alternatives of a pattern file can match in a note (speed only, exact).

Each :class:`~phiscrub.detect.patterns.PatternDetector` tries its alternatives through many
consumers (word-lane slots, digit lanes, searchers, anchored windows, tails), and a note
matches only a few dozen of the ~390 alternatives of the rule files; most tries fail. The
gate runs ONE multi-pattern pass in C per note and file (a Hyperscan database, block mode,
one report per pattern) and returns the alternatives that may match there; the detector
skips every consumer of the others. Only the alternatives that a scan looks for are judged
(searchers of the whole note or of an anchor's windows, lanes led by another character
than a digit): those of the word lane and of the digit lanes are tried at indexed places
only, which costs less than their place in the gate (measured: docs/detectors.md, "Speed
round 9").

The gate must never drop a real match, so each alternative is *relaxed* into a regex of
the engine's syntax whose language contains every match that the Python regex (or a
consumer's search of it cut at a window's end) can find (:func:`relax`):

- zero-width items (``\\b``, ``^``, ``$``, look-arounds) match the empty string;
- possessive repeats, atomic groups and lazy repeats become plain greedy ones; a counted
  repeat above ``COUNT_MAX`` becomes ``*`` or ``+`` (smaller automata; with the exact
  counts Hyperscan refused six alternatives); a conditional is the alternation of its
  branches;
- every one-character item is the exact set of ASCII characters that Python's own engine
  matches with it (tested on the 128 of them, flags included), plus every non-ASCII
  character if it may match one (a category, a negation, a non-ASCII literal, an ASCII
  letter under ``re.I``: Python folds ``k`` with the Kelvin sign, ``i`` with a dotted I).

The note is scanned as UTF-8, one code point per character as in Python. An alternative
that cannot be relaxed is always on; a file whose database the engine refuses is not
gated; a note that UTF-8 cannot carry (a lone surrogate) or whose scan fails (another
thread's scan in the same scratch space) has every alternative on. Without the
``hyperscan`` package (or with ``PHISCRUB_GATE=0``) every alternative is always on:
today's behaviour, the same spans. Databases are compiled once per user and kept in
:func:`cache_dir` (``$PHISCRUB_CACHE``, else ``~/.cache/phiscrub/gates``), named by a hash
of the engine version, the machine and the relaxed expressions (the newest four per file),
in Hyperscan's own serialized form (data, no code): about 2.6 s to compile the rule files'
seven, 0.05 s to load them.
``tests/detect/test_gate.py`` checks the superset on every regression case and negative
text, the detectors' matches with and without it, and the fallbacks.
"""

from __future__ import annotations

import functools
import hashlib
import os
import platform
import re
import time
from collections.abc import Iterable, Sequence
from importlib import metadata
from pathlib import Path
from re import _constants as C  # type: ignore[attr-defined]
from typing import Any

from phiscrub.detect.gates import UnknownItem, item_source
from phiscrub.detect.regex_shape import parse

try:  # an optional fast path: without it every alternative is always on
    import hyperscan as hs
except ImportError:  # pragma: no cover - exercised by the tests through engine() = None
    hs = None  # type: ignore[assignment]

#: counted repeats with a larger bound (or an unbounded one with a larger minimum) are
#: relaxed to ``*`` / ``+``
COUNT_MAX = 4
#: compiled databases kept per pattern file (other versions of its patterns: other trees)
_KEEP = 4
#: CPU seconds spent building gates in this process (reported by the benchmark)
build_seconds = 0.0


def engine() -> str | None:
    """The gate's engine and its version, or None when gates are off."""
    if hs is None or os.environ.get("PHISCRUB_GATE", "1") == "0":
        return None
    try:
        return f"hyperscan {metadata.version('hyperscan')}"
    except metadata.PackageNotFoundError:  # pragma: no cover - a vendored build
        return "hyperscan"


class Unsupported(Exception):
    """The regex holds an item that the relaxation does not know."""


_ASCII = [chr(c) for c in range(128)]
_ONE_CHAR = (C.LITERAL, C.NOT_LITERAL, C.ANY, C.IN)
_REPEATS = (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT)
_ZERO_WIDTH = (C.AT, C.ASSERT, C.ASSERT_NOT)
#: counts above this are taken as unbounded (engines refuse large ones)
_COUNT_LIMIT = 1000


def _python_source(op: Any, av: Any, flags: int) -> str:
    """The Python source of one single-character item, its flags scoped to it."""
    try:
        return item_source(op, av, flags)
    except UnknownItem as exc:
        raise Unsupported(str(op)) from exc


def _cased(c: int) -> bool:
    return c < 128 and chr(c).isalpha()


def _wide(op: Any, av: Any, flags: int) -> bool:
    """May the single-character item match a non-ASCII character? (True when unsure)"""
    icase = bool(flags & re.I)
    if op is C.LITERAL:
        return av >= 128 or (icase and _cased(av))
    if op is not C.IN:  # a negated literal, any character
        return True
    for o, a in av:
        if o is C.NEGATE or o is C.CATEGORY:
            return True
        if o is C.LITERAL and (a >= 128 or (icase and _cased(a))):
            return True
        if o is C.RANGE and (a[1] >= 128 or (icase and any(map(_cased, range(a[0], a[1] + 1))))):
            return True
    return False


def _literal(c: str) -> str:
    return c if c.isascii() and c.isalnum() else f"\\x{ord(c):02x}"


@functools.lru_cache(maxsize=4096)
def _char_item(op: Any, av: Any, flags: int) -> str:
    """The RE2 class of a single-character item: the ASCII characters Python's engine
    matches with it, and every non-ASCII one if it may match one."""
    items = list(av) if op is C.IN else av
    test = re.compile(_python_source(op, items, flags))
    codes = [ord(c) for c in _ASCII if test.match(c)]
    wide = _wide(op, items, flags)
    if len(codes) == 128 and wide:
        return "(?s:.)"
    if len(codes) == 1 and not wide:
        return _literal(chr(codes[0]))
    parts: list[str] = []
    i = 0
    while i < len(codes):
        j = i
        while j + 1 < len(codes) and codes[j + 1] == codes[j] + 1:
            j += 1
        parts.append(f"\\x{codes[i]:02x}" + (f"-\\x{codes[j]:02x}" if j > i else ""))
        i = j + 1
    if wide:
        parts.append("\\x{80}-\\x{10ffff}")
    return "[" + "".join(parts) + "]" if parts else "[^\\x00-\\x{10ffff}]"


def _seq(items: Sequence[tuple[Any, Any]], flags: int, counts: int) -> str:
    return "".join(_item(op, av, flags, counts) for op, av in items)


def _item(op: Any, av: Any, flags: int, counts: int) -> str:
    if op in _ONE_CHAR:
        return _char_item(op, tuple(av) if op is C.IN else av, flags & (re.I | re.S))
    if op in _ZERO_WIDTH:
        return ""
    if op is C.BRANCH:
        return "(?:" + "|".join(_seq(b.data, flags, counts) for b in av[1]) + ")"
    if op is C.SUBPATTERN:
        _, add, delete, sub = av
        return "(?:" + _seq(sub.data, (flags | add) & ~delete, counts) + ")"
    if op is C.ATOMIC_GROUP:
        return "(?:" + _seq(av.data, flags, counts) + ")"
    if op in _REPEATS:
        lo, hi, sub = av
        return _repeat("(?:" + _seq(sub.data, flags, counts) + ")", lo, hi, counts)
    if op is C.GROUPREF_EXISTS:
        _, yes, no = av
        other = _seq(no.data, flags, counts) if no is not None else ""
        return "(?:" + _seq(yes.data, flags, counts) + "|" + other + ")"
    raise Unsupported(str(op))


def _repeat(body: str, lo: int, hi: int, counts: int) -> str:
    unbounded = hi is C.MAXREPEAT or hi > _COUNT_LIMIT
    if (unbounded and lo > counts) or (not unbounded and hi > counts):
        # a larger count: at least one (or none) of the body, as often as it likes
        return body + ("*" if lo == 0 else "+")
    if unbounded:
        return body + ("*" if lo == 0 else "+" if lo == 1 else f"{{{lo},}}")
    if lo == 0 and hi == 1:
        return body + "?"
    return body + (f"{{{lo}}}" if lo == hi else f"{{{lo},{hi}}}")


def relax(regex: str, flags: int = 0, counts: int = COUNT_MAX) -> str:
    """A regex of the engine's (PCRE) syntax, for UTF-8 text, that matches somewhere in
    every text where the Python regex ``regex`` (``flags``: re.I, re.M, re.X bits) matches,
    also when a search is cut at a window's end. Raises :class:`Unsupported` for items it
    does not know."""
    try:
        tree = parse(regex, flags)
    except re.error as exc:
        raise Unsupported(str(exc)) from exc
    return _seq(tree.data, tree.state.flags | flags, counts)


_last_text: list[tuple[str, bytes | None]] = []


def _utf8(text: str) -> bytes | None:
    """The note as UTF-8, shared by the gates of every file (None: a lone surrogate)."""
    if _last_text and _last_text[0][0] is text:
        return _last_text[0][1]
    try:
        data: bytes | None = text.encode("utf-8")
    except UnicodeEncodeError:
        data = None
    _last_text[:] = [(text, data)]
    return data


def cache_dir() -> Path:
    """Where compiled gates are kept: ``$PHISCRUB_CACHE``, else the user's cache folder."""
    if (env := os.environ.get("PHISCRUB_CACHE")) is not None:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "phiscrub" / "gates"


def _database(name: str, exprs: list[bytes], ids: list[int], flags: int) -> Any:
    """The compiled database of these expressions: loaded from the cache when it holds one
    made from the same expressions by the same engine, else compiled and kept there (with
    at most ``_KEEP`` others of the same ``name``, the newest)."""
    key = hashlib.sha256(f"{engine()}|{platform.machine()}|{flags}".encode())
    for slot, expr in zip(ids, exprs, strict=True):
        key.update(b"\0%d\0" % slot + expr)
    tag = re.sub(r"[^A-Za-z0-9_]", "_", name)
    path = cache_dir() / f"{tag}-{key.hexdigest()}.hsdb"
    try:
        return hs.loadb(path.read_bytes(), hs.HS_MODE_BLOCK)
    except (OSError, hs.error):
        pass
    db = hs.Database(mode=hs.HS_MODE_BLOCK)
    db.compile(expressions=exprs, ids=ids, flags=[flags] * len(exprs))
    try:  # written whole, then renamed: a concurrent reader sees the old file or the new
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(hs.dumpb(db))
        os.replace(tmp, path)
        older = sorted(path.parent.glob(f"{tag}-*.hsdb"), key=lambda p: p.stat().st_mtime)
        for stale in older[:-_KEEP]:  # the databases of earlier versions of the patterns
            stale.unlink(missing_ok=True)
    except OSError:  # a read-only home: compiled again next time
        pass
    return db


class Gate:
    """Which of a file's alternatives may match in a note: :meth:`active`."""

    __slots__ = ("always", "db", "last", "scratch")

    def __init__(
        self, alternatives: Sequence[tuple[str, int]], judged: Iterable[int], name: str = "gate"
    ) -> None:
        """``alternatives``: (regex, flag bits) in slot order; ``judged``: the slots worth a
        place in the gate (the others are always on); ``name``: of its cache files."""
        global build_seconds
        start = time.process_time()
        self.db: Any = None
        self.scratch: Any = None
        self.last: tuple[str, frozenset[int] | None] | None = None
        judged = sorted(set(judged))
        always = set(range(len(alternatives))) - set(judged)
        exprs: list[bytes] = []
        ids: list[int] = []
        if engine() is not None:
            for slot in judged:
                try:
                    exprs.append(relax(*alternatives[slot]).encode("utf-8"))
                    ids.append(slot)
                except Unsupported:
                    always.add(slot)
        if exprs:
            flags = hs.HS_FLAG_SINGLEMATCH | hs.HS_FLAG_ALLOWEMPTY | hs.HS_FLAG_UTF8
            try:
                self.db = _database(name, exprs, ids, flags)
                self.scratch = hs.Scratch(self.db)
            except hs.error:  # a pattern the engine refuses: the file is not gated
                self.db = None
        if self.db is None:  # no gate: every alternative is always on
            always = set(range(len(alternatives)))
        self.always = frozenset(always)
        build_seconds += time.process_time() - start

    def active(self, text: str) -> frozenset[int] | None:
        """The slots that may match in ``text``, or None when every one may (no engine, or
        the scan failed). A superset of the slots with a match: never one fewer."""
        last = self.last
        if last is not None and last[0] is text:
            return last[1]
        got: frozenset[int] | None = None
        if self.db is not None and (data := _utf8(text)) is not None:
            hits: list[int] = []
            try:
                self.db.scan(data, match_event_handler=_collect, context=hits, scratch=self.scratch)
                got = self.always.union(hits)
            except hs.error:  # another thread's scan holds the scratch space
                got = None
        self.last = (text, got)
        return got


def _collect(slot: int, start: int, end: int, flags: int, hits: list[int]) -> None:
    hits.append(slot)
