"""Location, organization and profession surrogates from the lists in
``phiscrub/data/surrogate/`` (one item per line, ``#`` comment header), keyed per scope.

Departments are not drawn at random: they become a generic department name (seed 004
§5.2 and Appendix A), "Internal medicine" when no keyword matches.
"""

from __future__ import annotations

import re

from phiscrub.surrogate.keys import Chooser, digest, normalize
from phiscrub.surrogate.lexicon import lexicon, pairs
from phiscrub.surrogate.names import LETTERS, census
from phiscrub.surrogate.shape import mimic_case, shape_surrogate, title

_UNIT = re.compile(
    r"(?P<unit>,?\s*(?:apt|apartment|unit|suite|ste|room|rm|floor|fl|#)\.?\s*#?\s*[\w-]+)$", re.I
)
_NUMBER = re.compile(r"^(?P<num>\d+[A-Za-z]?(?:-\d+)?)(?P<sp>\s+)")
_DIRECTION = re.compile(
    r"^(?P<dir>(?:[NSEW]|NE|NW|SE|SW|North|South|East|West)\.?)(?P<sp>\s+)", re.I
)
_ACRONYM = re.compile(r"[A-Z]{2,5}")

#: labels whose surrogate is a plain keyed pick from a list file
LIST_FILES = {
    "CITY": "cities.txt",
    "COUNTRY": "countries.txt",
    "ORGANIZATION": "organizations.txt",
    "PROFESSION": "professions.txt",
    "LOCATION-OTHER": "location_other.txt",
}


def _pick(chooser: Chooser, items: tuple[str, ...], original: str) -> str:
    pick = chooser.choice(items)
    for _ in range(4):
        if pick.casefold() != original.casefold():
            break
        pick = chooser.choice(items)
    return pick


def list_surrogate(key: bytes, scope: str, label: str, text: str) -> str:
    """A city, country, organization, profession or other place from its list."""
    chooser = Chooser(digest(key, scope, label, normalize(text)))
    return _mimic(text, _pick(chooser, lexicon(LIST_FILES[label]), text))


def _mimic(template: str, value: str) -> str:
    """Upper or lower case as the original; otherwise the list's own case."""
    letters = [c for c in template if c.isalpha()]
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return value.upper()
    if letters and all(c.islower() for c in letters):
        return value.lower()
    return value


def state_surrogate(key: bytes, scope: str, text: str) -> str:
    """A US state; a two-letter abbreviation becomes an abbreviation."""
    chooser = Chooser(digest(key, scope, "STATE", normalize(text)))
    table = pairs("states.txt")
    core = text.strip().rstrip(".")
    if len(core) == 2 and core.isalpha():
        abbr = _pick(chooser, tuple(a for _, a in table), core)
        return text.replace(core, mimic_case(core, abbr) if core.islower() else abbr)
    return _mimic(text, _pick(chooser, tuple(n for n, _ in table), text))


def department_surrogate(text: str) -> str:
    """The generic department a department name falls under (no key needed): the
    keyword found first in the name wins (file order breaks ties)."""
    low = text.lower()
    best: tuple[int, int, str] | None = None
    for rank, (keyword, generic) in enumerate(pairs("departments.txt")):
        pattern = rf"\b{re.escape(keyword)}\b" if len(keyword) <= 3 else rf"\b{re.escape(keyword)}"
        m = re.search(pattern, low)
        if m and (best is None or (m.start(), rank) < best[:2]):
            best = (m.start(), rank, generic)
    return best[2] if best else "Internal medicine"


def street_surrogate(key: bytes, scope: str, text: str) -> str:
    """A street address: number, a street name, the suffix in the original's style
    (``St``/``St.``/``Street``), a unit if the original has one; a direction is kept."""
    chooser = Chooser(digest(key, scope, "STREET", normalize(text)))
    rest, unit = text, ""
    if (m := _UNIT.search(rest)) and m.start() > 0:
        rest, unit = rest[: m.start()], _unit_like(m.group("unit"), chooser)
    head = ""
    if m := _NUMBER.match(rest):
        head, rest = shape_surrogate(m.group("num"), chooser) + m.group("sp"), rest[m.end() :]
    if m := _DIRECTION.match(rest):
        head, rest = head + m.group(), rest[m.end() :]
    name, suffix = _split_suffix(rest)
    new_name = _pick(chooser, lexicon("street_names.txt"), name)
    out = head + (mimic_case(name, new_name) if name else new_name)
    if suffix:
        out += " " + _suffix_like(suffix, chooser)
    return out + unit if out != text else shape_surrogate(text, chooser)


def _unit_like(unit: str, chooser: Chooser) -> str:
    """``, Apt 4B`` -> ``, Apt 7K``: the unit word kept, its number reshaped."""
    m = re.match(r"(,?\s*(?:[A-Za-z]+\.?\s*)?#?\s*)(.*)", unit)
    assert m is not None
    return m.group(1) + shape_surrogate(m.group(2), chooser)


def _split_suffix(rest: str) -> tuple[str, str]:
    words = rest.rsplit(None, 1)
    if len(words) == 2:
        last = words[1].rstrip(".").lower()
        if any(last in (full.lower(), abbr.lower()) for full, abbr in pairs("street_suffixes.txt")):
            return words[0], words[1]
    return rest, ""


def _suffix_like(suffix: str, chooser: Chooser) -> str:
    full, abbr = chooser.choice(pairs("street_suffixes.txt"))
    core = suffix.rstrip(".")
    is_full = any(core.lower() == f.lower() for f, _ in pairs("street_suffixes.txt"))
    word = full if is_full else abbr
    return mimic_case(core, word) + ("." if suffix.endswith(".") and word != "Way" else "")


def hospital_surrogate(key: bytes, scope: str, text: str) -> str:
    """``<surname or city> [Memorial|General|...] <kind>``, keeping the original's kind
    (Hospital, Medical Center, Clinic...) as written; an acronym (``MGH``) becomes
    random capitals of the same length."""
    chooser = Chooser(digest(key, scope, "HOSPITAL", normalize(text)))
    core = text.strip()
    if _ACRONYM.fullmatch(core):
        return shape_surrogate(text, chooser)
    kind = _hospital_kind(core)
    stem = _hospital_stem(chooser)
    word = chooser.choice(lexicon("hospital_words.txt"))
    parts = [stem]
    if word != "none" and len(kind.split()) < 2:
        parts.append(word)
    out = " ".join(parts)
    if kind:
        out = _mimic(core[: -len(kind)] or core, out) + " " + core[-len(kind) :]
    else:
        out = _mimic(core, out)
    return out if out.casefold() != core.casefold() else shape_surrogate(text, chooser)


def _hospital_kind(core: str) -> str:
    low = core.lower()
    for kind in lexicon("hospital_types.txt"):
        if low.endswith(" " + kind.lower()):
            return kind
    return ""


def _hospital_stem(chooser: Chooser) -> str:
    if chooser.below(2):
        return chooser.choice(lexicon("cities.txt"))
    pool = census().pools["last"][chooser.choice(LETTERS)]
    return title(chooser.weighted(pool.names, pool.cumulative))
