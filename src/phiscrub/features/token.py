"""Features of a word type: pure functions of the token string (and fixed word lists).

Each returns a small dict; string values are categorical (python-crfsuite turns
``{"shape": "Aaaa"}`` into the feature ``shape=Aaaa``), ``1.0`` marks a binary flag that
holds (flags that do not hold are left out: the dicts stay sparse). Nothing here looks at
a token's neighbours, so the result can be cached per type (see ``extract.py``).
"""

from __future__ import annotations

import re
import unicodedata

from phiscrub.features.lexicons import FeatureLexicons, glove_clusters
from phiscrub.features.stats import CorpusStats

__all__ = [
    "FeatureValue",
    "Features",
    "dictionary_features",
    "frequency_features",
    "glove_features",
    "lexical_features",
    "orthographic_features",
    "profession_features",
    "regex_shape_features",
    "shape",
    "short_shape",
]

FeatureValue = str | float
Features = dict[str, FeatureValue]

_ROMAN = re.compile(r"(?=[ivxlcdm]+$)m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")
#: seed 001, name CRF feature (1): suffixes common to PROFESSION mentions
PROFESSION_SUFFIXES = ("ist", "ian", "man", "er", "or", "ant", "ent")


def _char_class(ch: str) -> str:
    if ch.isdigit():
        return "0"
    if ch.isalpha():
        return "A" if ch.isupper() else "a"
    return ch if ch.isascii() else "x"


def shape(word: str) -> str:
    """Seed 003's shape: uppercase -> ``A``, lowercase -> ``a``, digit -> ``0``, other
    ASCII characters kept, other characters ``x``; capped at 12 characters."""
    return "".join(_char_class(ch) for ch in word[:12]) + ("+" if len(word) > 12 else "")


def short_shape(word: str) -> str:
    """The shape with runs of one class collapsed (``Aa``, ``0/0/0``)."""
    out: list[str] = []
    for ch in word:
        c = _char_class(ch)
        if not out or out[-1] != c:
            out.append(c)
    return "".join(out)


def lexical_features(word: str, affix_max: int) -> Features:
    """Lower case, prefixes and suffixes of 1..affix_max characters (seed 003, seed 001)."""
    lower = word.lower()
    feats: Features = {"lower": lower}
    for n in range(1, min(affix_max, len(lower)) + 1):
        feats[f"p{n}"] = lower[:n]
        feats[f"s{n}"] = lower[-n:]
    return feats


def orthographic_features(word: str) -> Features:
    """Shape, short shape, length and seed 003 Table 2's flags."""
    alpha = sum(ch.isalpha() for ch in word)
    digit = sum(ch.isdigit() for ch in word)
    punct = sum(unicodedata.category(ch)[0] in "PS" for ch in word)
    feats: Features = {
        "shape": shape(word),
        "sshape": short_shape(word),
        "len": str(min(len(word), 10)),
    }
    flags = {
        "hasalpha": alpha > 0,
        "hascap": any(ch.isupper() for ch in word),
        "initcap": word[:1].isupper(),
        "allcap": alpha > 0 and word.isupper(),
        "hasdigit": digit > 0,
        "alldigit": digit == len(word),
        "haspunct": punct > 0,
        "alnum": alpha > 0 and digit > 0 and alpha + digit == len(word),
        "digpunct": digit > 0 and punct > 0 and digit + punct == len(word),
    }
    feats.update({name: 1.0 for name, on in flags.items() if on})
    return feats


def regex_shape_features(word: str) -> Features:
    """Seed 001's regex token shapes, for the tokens our tokenizer makes (digit runs and
    letter runs are separate tokens): year-like, month or day numbers, initials, roman."""
    feats: Features = {}
    if word.isdigit() and word.isascii():
        value = int(word)
        if len(word) == 4 and 1900 <= value <= 2199:
            feats["year"] = 1.0
        if len(word) <= 2 and 1 <= value <= 12:
            feats["month_num"] = 1.0
        if len(word) <= 2 and 1 <= value <= 31:
            feats["day_num"] = 1.0
        if len(word) <= 3 and value <= 120:
            feats["age_num"] = 1.0
        if len(word) >= 5:
            feats["long_num"] = 1.0
    elif len(word) == 1 and word.isupper():
        feats["initial"] = 1.0
    elif len(word) > 1 and word.isupper() and _ROMAN.match(word.lower()):
        feats["roman"] = 1.0
    return feats


def dictionary_features(lower: str, lex: FeatureLexicons, medical: bool) -> Features:
    """Membership of the lower-case token in the name, place, hospital, street and date
    dictionaries (seed 000 §6, seed 003 Table 2); ``medical``: the clinical vocabulary."""
    feats: Features = {f"dict_{name}": 1.0 for name in lex.memberships(lower)}
    if medical and lower in lex.medical:
        feats["medical"] = 1.0
    return feats


def glove_features(lower: str) -> Features:
    """The word's GloVe clusters (coarse ``gc``, mid ``gm``, fine ``gf``); ``gc:none`` for
    a word of letters outside the clustered vocabulary (a rare or invented word)."""
    entry = glove_clusters().get(lower)
    if entry is None and lower.endswith("'s"):
        entry = glove_clusters().get(lower[:-2])
    if entry is None:
        return {"gc": "none"} if any(ch.isalpha() for ch in lower) else {}
    return {"gc": entry[0], "gm": entry[1], "gf": entry[2]}


def profession_features(lower: str) -> Features:
    """Seed 001: the token ends with a suffix common to professions (-ist, -ian, -man)."""
    for suffix in PROFESSION_SUFFIXES:
        if len(lower) > len(suffix) + 2 and lower.endswith(suffix):
            return {"prof_suffix": suffix}
    return {}


def frequency_features(word: str, stats: CorpusStats) -> Features:
    """Seed 002: frequency class and capitalization ratio class of the type."""
    if not any(ch.isalpha() for ch in word):
        return {}
    return {"freq": stats.frequency_class(word), "capr": stats.capitalization_class(word)}
