"""Statistics of an annotated corpus: size, PHI per category and subtype (the shape of
seed 004 Table 3), ambiguity and out-of-vocabulary shares (seed 000 §5, Tables 1-3).

Definitions (``docs/synth.md``):

- tokens: ``phiscrub.text.tokenize``, split at gold span edges; a token is PHI when it
  lies inside a gold span, and takes that span's label.
- word tokens: tokens whose first character is a letter or a digit (punctuation is
  left out of the ambiguity and OOV figures).
- ambiguous PHI token: a PHI word token whose lowercase form also occurs as a non-PHI
  word token somewhere in the corpus; the share is over PHI word tokens. The reverse
  share (non-PHI word tokens whose lowercase form occurs as PHI) is reported too.
- out-of-vocabulary: among the letter tokens of two or more letters of name spans
  (PATIENT, DOCTOR) and location spans (HOSPITAL, ORGANIZATION, STREET, CITY, STATE,
  COUNTRY, LOCATION-OTHER, DEPARTMENT), those in no dictionary: name tokens are looked
  up in the census name lists, location tokens in the surrogate engine's place lists
  and the census surnames (places are often named after people).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from phiscrub.span import Document
from phiscrub.surrogate.lexicon import lexicon, pairs
from phiscrub.surrogate.names import census
from phiscrub.taxonomy import CATEGORIES, CATEGORY_OF
from phiscrub.text import split_at, tokenize

NAME_LABELS = frozenset({"PATIENT", "DOCTOR"})
LOCATION_LABELS = frozenset(
    {
        "HOSPITAL",
        "ORGANIZATION",
        "STREET",
        "CITY",
        "STATE",
        "COUNTRY",
        "LOCATION-OTHER",
        "DEPARTMENT",
    }
)
_PLACE_LISTS = (
    "cities.txt",
    "countries.txt",
    "street_names.txt",
    "hospital_types.txt",
    "hospital_words.txt",
    "organizations.txt",
    "location_other.txt",
)
_PAIR_LISTS = ("states.txt", "street_suffixes.txt", "departments.txt")


@lru_cache(maxsize=1)
def name_dictionary() -> frozenset[str]:
    """Every census first name and surname, lowercase."""
    return frozenset(n.lower() for table in census().freq.values() for n in table)


@lru_cache(maxsize=1)
def place_dictionary() -> frozenset[str]:
    """The words of the surrogate engine's place lists and the census surnames, lowercase."""
    lines = [line for f in _PLACE_LISTS for line in lexicon(f)]
    lines += [part for f in _PAIR_LISTS for pair in pairs(f) for part in pair]
    words = {t.text.lower() for line in lines for t in tokenize(line) if t.text.isalpha()}
    return frozenset(words | {n.lower() for n in census().freq["last"]})


def labelled_tokens(doc: Document) -> list[tuple[str, str | None]]:
    """(token text, gold label or None) for every token of a document."""
    spans = doc.gold
    tokens = split_at(tokenize(doc.text), [o for s in spans for o in (s.start, s.end)])
    out: list[tuple[str, str | None]] = []
    i = 0
    for tok in tokens:
        while i < len(spans) and spans[i].end <= tok.start:
            i += 1
        j, label = i, None
        while j < len(spans) and spans[j].start < tok.end:
            if spans[j].start <= tok.start and tok.end <= spans[j].end:
                label = spans[j].label
                break
            j += 1
        out.append((tok.text, label))
    return out


def _share(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def corpus_stats(docs: Iterable[Document]) -> dict[str, Any]:
    """The statistics of a corpus as one JSON-ready dictionary."""
    notes, characters = 0, 0
    patients: set[str] = set()
    subtypes: Counter[str] = Counter()
    tokens: list[tuple[str, str | None]] = []
    for doc in docs:
        notes += 1
        characters += len(doc.text)
        patients.add(doc.patient_id)
        subtypes.update(s.label for s in doc.gold)
        tokens.extend(labelled_tokens(doc))
    spans = sum(subtypes.values())
    categories = Counter({cat: sum(subtypes[s] for s in subs) for cat, subs in CATEGORIES.items()})
    return {
        "notes": notes,
        "patients": len(patients),
        "characters": characters,
        "tokens": len(tokens),
        "phi_tokens": sum(1 for _, label in tokens if label),
        "spans": spans,
        "spans_per_note": round(spans / notes, 2) if notes else 0.0,
        "subtypes_present": sum(1 for v in subtypes.values() if v),
        "categories": {c: categories[c] for c in CATEGORIES},
        "subtypes": {s: subtypes[s] for s in CATEGORY_OF},
        "ambiguity": ambiguity(tokens),
        "oov": out_of_vocabulary(tokens),
    }


def ambiguity(tokens: list[tuple[str, str | None]]) -> dict[str, Any]:
    """How many PHI word tokens also occur as non-PHI (and the reverse), per label."""
    words = [(t.lower(), label) for t, label in tokens if t[:1].isalnum()]
    phi_forms = {t for t, label in words if label}
    plain_forms = {t for t, label in words if not label}
    per_label: dict[str, list[int]] = {}
    for t, label in words:
        if label:
            row = per_label.setdefault(label, [0, 0])
            row[0] += 1
            row[1] += t in plain_forms
    phi = sum(r[0] for r in per_label.values())
    phi_amb = sum(r[1] for r in per_label.values())
    plain = sum(1 for _, label in words if not label)
    plain_amb = sum(1 for t, label in words if not label and t in phi_forms)
    return {
        "phi_word_tokens": phi,
        "ambiguous_phi_tokens": phi_amb,
        "phi_share": _share(phi_amb, phi),
        "non_phi_word_tokens": plain,
        "ambiguous_non_phi_tokens": plain_amb,
        "non_phi_share": _share(plain_amb, plain),
        "by_label": {
            k: {"tokens": v[0], "ambiguous": v[1], "share": _share(v[1], v[0])}
            for k, v in sorted(per_label.items())
        },
    }


def out_of_vocabulary(tokens: list[tuple[str, str | None]]) -> dict[str, Any]:
    """How many name and location letter tokens are in no dictionary, per label."""
    names, places = name_dictionary(), place_dictionary()
    per_label: dict[str, list[int]] = {}
    for text, label in tokens:
        if label is None or len(text) < 2 or not text.isalpha():
            continue
        if label in NAME_LABELS:
            known = text.lower() in names
        elif label in LOCATION_LABELS:
            known = text.lower() in places
        else:
            continue
        row = per_label.setdefault(label, [0, 0])
        row[0] += 1
        row[1] += not known
    out: dict[str, Any] = {}
    for group, labels in (("name", NAME_LABELS), ("location", LOCATION_LABELS)):
        total = sum(v[0] for k, v in per_label.items() if k in labels)
        oov = sum(v[1] for k, v in per_label.items() if k in labels)
        out[group] = {"tokens": total, "oov": oov, "share": _share(oov, total)}
    out["by_label"] = {
        k: {"tokens": v[0], "oov": v[1], "share": _share(v[1], v[0])}
        for k, v in sorted(per_label.items())
    }
    return out


def render_stats(stats: dict[str, Any]) -> str:
    """A plain-text report: totals, then the PHI table in the shape of seed 004 Table 3."""
    lines = [
        f"notes {stats['notes']}   patients {stats['patients']}   tokens {stats['tokens']}   "
        f"PHI tokens {stats['phi_tokens']}   characters {stats['characters']}",
        "",
        f"{'PHI category':<28}{'count':>8}",
    ]
    for sub, count in stats["subtypes"].items():
        cat = CATEGORY_OF[sub]
        name = sub if cat == sub else f"{cat}: {sub}"
        lines.append(f"{name:<28}{count:>8}")
    lines.append(f"{'Total # of tags':<28}{stats['spans']:>8}")
    lines.append(f"{'Average PHI per file':<28}{stats['spans_per_note']:>8}")
    lines.append(f"subtypes present: {stats['subtypes_present']}")
    amb, oov = stats["ambiguity"], stats["oov"]
    lines += [
        "",
        f"ambiguous PHI word tokens: {amb['ambiguous_phi_tokens']}/{amb['phi_word_tokens']} "
        f"({amb['phi_share']:.2%}); non-PHI word tokens also PHI: "
        f"{amb['ambiguous_non_phi_tokens']}/{amb['non_phi_word_tokens']} "
        f"({amb['non_phi_share']:.2%})",
        f"out-of-vocabulary name tokens: {oov['name']['oov']}/{oov['name']['tokens']} "
        f"({oov['name']['share']:.2%}); location tokens: {oov['location']['oov']}/"
        f"{oov['location']['tokens']} ({oov['location']['share']:.2%})",
    ]
    return "\n".join(lines)
