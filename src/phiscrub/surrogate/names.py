"""Name surrogates: a per-patient letter mapping and gender-kept census names (seed 004 §5.2).

Each name PART is replaced on its own, as a keyed function of (scope, part): ``Smith``
always becomes the same surname and ``John`` the same first name for one patient, in
whatever mention they appear (``John Smith``, ``SMITH, JOHN``, ``Mr. Smith``, ``John``).
A part's surrogate is drawn from the census names that start with the patient's mapped
letter of its own initial, so an initial (``J.``) maps through the letter mapping alone
and agrees with the full name's surrogate without any shared state.

Whether a part is a first name (and of which gender) or a surname is decided by the
part itself, not by its position: the census list where it is most frequent wins.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from phiscrub.surrogate.keys import Chooser, digest, normalize
from phiscrub.surrogate.shape import mimic_case, shape_surrogate, title

LETTERS = string.ascii_uppercase
#: titles, honorifics and suffixes kept as written inside a name span
KEPT = frozenset(
    [
        "mr",
        "mrs",
        "ms",
        "miss",
        "mx",
        "dr",
        "prof",
        "sir",
        "dame",
        "rev",
        "fr",
        "sr",
        "jr",
        "ii",
        "iii",
        "iv",
        "md",
        "phd",
        "rn",
        "np",
        "dds",
    ]
)
_APOSTROPHES = "'\u2019"
_PART = re.compile(rf"[^\W\d_]+(?:[{_APOSTROPHES}][^\W\d_]+)*|[\W\d_]+")
_LISTS = {"male": "dist.male.first", "female": "dist.female.first", "last": "dist.all.last"}


@dataclass(frozen=True, slots=True)
class Pool:
    """Names starting with one letter, with running totals of their integer weights."""

    names: tuple[str, ...]
    cumulative: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Census:
    """The census lists: pools per kind (male, female, last) and letter; frequencies."""

    pools: dict[str, dict[str, Pool]]
    freq: dict[str, dict[str, float]]


def _read_list(filename: str) -> list[tuple[str, float]]:
    text = resources.files("names").joinpath(filename).read_text(encoding="ascii")
    rows = []
    for line in text.splitlines():
        fields = line.split()
        if len(fields) >= 2:
            rows.append((fields[0], float(fields[1])))
    return rows


@lru_cache(maxsize=1)
def census() -> Census:
    """The US census name lists shipped by the ``names`` package (read once)."""
    pools: dict[str, dict[str, Pool]] = {}
    freq: dict[str, dict[str, float]] = {}
    for kind, filename in _LISTS.items():
        rows = _read_list(filename)
        freq[kind] = dict(rows)
        by_letter: dict[str, tuple[list[str], list[int]]] = {c: ([], []) for c in LETTERS}
        for name, pct in rows:
            if name[0] in by_letter:
                names, totals = by_letter[name[0]]
                names.append(name)
                totals.append((totals[-1] if totals else 0) + int(pct * 1000) + 1)
        pools[kind] = {c: Pool(tuple(n), tuple(t)) for c, (n, t) in by_letter.items() if n}
    return Census(pools, freq)


@lru_cache(maxsize=65536)
def name_kind(part: str) -> str:
    """``male``, ``female`` or ``last``: the census list where ``part`` is most frequent
    (a name found in no list is treated as a surname)."""
    upper = part.upper()
    freq = census().freq
    scores = {k: freq[k][upper] + 1e-4 for k in ("male", "female", "last") if upper in freq[k]}
    if not scores:
        return "last"
    return max(("last", "female", "male"), key=lambda k: scores.get(k, -1.0))


@lru_cache(maxsize=4096)
def letter_map(key: bytes, scope: str) -> dict[str, str]:
    """The scope's keyed permutation of A-Z."""
    perm = Chooser(digest(key, scope, "NAME", "\x00letters")).shuffled(LETTERS)
    return dict(zip(LETTERS, perm, strict=True))


def _mapped_letter(key: bytes, scope: str, ch: str) -> str | None:
    base = ch.upper()
    return letter_map(key, scope).get(base) if base in LETTERS else None


@lru_cache(maxsize=65536)
def part_surrogate(key: bytes, scope: str, part: str) -> str:
    """The surrogate of one name part (title case), the same wherever the part appears."""
    chooser = Chooser(digest(key, scope, "NAME", normalize(part)))
    letter = _mapped_letter(key, scope, part[0])
    pools = census().pools[name_kind(part)]
    if letter is None or letter not in pools:
        return title(shape_surrogate(part.lower(), chooser))
    pool = pools[letter]
    pick = chooser.weighted(pool.names, pool.cumulative)
    for _ in range(4):
        if pick != part.upper() or len(pool.names) == 1:
            break
        pick = chooser.weighted(pool.names, pool.cumulative)
    return title(pick)


def initial_surrogate(key: bytes, scope: str, letter: str) -> str:
    """An initial through the letter mapping (case kept)."""
    mapped = _mapped_letter(key, scope, letter)
    if mapped is None:
        return shape_surrogate(letter, Chooser(digest(key, scope, "NAME", normalize(letter))))
    return mapped if letter.isupper() else mapped.lower()


def name_surrogate(key: bytes, scope: str, text: str) -> str:
    """A person's name in the same surface form: case, initials, order, punctuation,
    titles (``Mr.``), hyphenated parts and a possessive ``'s`` are kept."""
    if _is_initials(text):
        return "".join(initial_surrogate(key, scope, c) for c in text)
    out: list[str] = []
    for m in _PART.finditer(text):
        tok = m.group()
        if not tok[0].isalpha():
            out.append(tok)
            continue
        stem, tail = tok, ""
        if len(tok) > 2 and tok[-2] in _APOSTROPHES and tok[-1] in "sS":
            stem, tail = tok[:-2], tok[-2:]
        out.append(_word_surrogate(key, scope, stem) + tail)
    return "".join(out)


def _is_initials(text: str) -> bool:
    """A mention that is a group of initials (``JKS``, ``lk`` in a ``JKS/lk`` signature):
    two or three letters, not title case, and no census name (``LEE`` and ``Ng`` are)."""
    if not (2 <= len(text) <= 3 and text.isascii() and text.isalpha()):
        return False
    if not (text.isupper() or text.islower()):
        return False
    freq = census().freq
    return not any(text.upper() in freq[kind] for kind in ("male", "female", "last"))


def _word_surrogate(key: bytes, scope: str, word: str) -> str:
    if word.lower() in KEPT and len(word) > 1:
        return word
    if len(word) == 1:
        return initial_surrogate(key, scope, word)
    letters = "".join(c for c in word if c.isalpha())
    return mimic_case(word, part_surrogate(key, scope, letters))


def username_surrogate(key: bytes, scope: str, text: str) -> str:
    """A user name of the same shape: short letter runs (initials, as in ``KI30``) go
    through the letter mapping, longer ones and digits become keyed random characters."""
    chooser = Chooser(digest(key, scope, "USERNAME", normalize(text)))
    out: list[str] = []
    for m in re.finditer(r"[A-Za-z]+|[^A-Za-z]+", text):
        run = m.group()
        if run[0].isalpha() and len(run) <= 3:
            out.append("".join(initial_surrogate(key, scope, c) for c in run))
        else:
            out.append(shape_surrogate(run, chooser) if any(c.isalnum() for c in run) else run)
    result = "".join(out)
    return result if result != text else shape_surrogate(text, chooser)
