"""The template bank: note fragments and note recipes, read from ``data/synth/``.

Fragment files (``fragments_*.txt``): text before the first ``@@`` line is a comment
header; ``@@ KIND`` starts one fragment (every line up to the next ``@@``, trailing
blank lines dropped); ``@@@ KIND`` starts a list in which every non-blank line is one
fragment of that kind. Lines starting with ``##`` are comments anywhere. Slots are
``{ENTITY}`` or ``{ENTITY.form}`` (``phiscrub.synth.slots.SLOTS``); a brace that is
not part of a slot is an error.

``recipes.txt``: ``@@ NOTE-KIND`` and then one output line per line; a line holds
items separated by spaces, each ``KIND`` (one fragment), ``KIND?`` (one, half the
time), ``KIND*A-B`` (A to B distinct fragments joined by a space) or ``.`` (an empty
line). The items of a line are joined by a space, the lines by a newline.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import NamedTuple

from phiscrub.errors import PhiscrubError
from phiscrub.synth.slots import check_slot

_SLOT = re.compile(r"\{([A-Z][A-Z0-9]*)(?:\.([A-Za-z0-9]+))?\}")
_ITEM = re.compile(r"^(?P<kind>[a-z][a-z0-9_.]*)(?:\*(?P<lo>\d+)-(?P<hi>\d+))?(?P<opt>\?)?$")


class BankError(PhiscrubError):
    """A template or recipe of the bank that cannot be used."""

    code = "E501"
    hint = "fix the file in phiscrub/data/synth (see phiscrub/synth/bank.py for its syntax)"


class Slot(NamedTuple):
    entity: str
    form: str


Template = tuple[str | Slot, ...]


class Item(NamedTuple):
    """One item of a recipe line: fragments of ``kind``, ``low`` to ``high`` of them
    (``optional``: none half the time); ``kind`` is empty for a blank line."""

    kind: str
    low: int
    high: int
    optional: bool


@dataclass(frozen=True)
class Bank:
    fragments: dict[str, tuple[Template, ...]]
    recipes: dict[str, tuple[tuple[Item, ...], ...]]

    @property
    def size(self) -> int:
        """The number of fragments."""
        return sum(len(v) for v in self.fragments.values())


def compile_template(text: str, where: str) -> Template:
    """Split a fragment into literal strings and slots, checking every slot."""
    parts: list[str | Slot] = []
    pos = 0
    for m in _SLOT.finditer(text):
        _literal(text[pos : m.start()], parts, where)
        slot = Slot(m.group(1), m.group(2) or "")
        if not check_slot(*slot):
            raise BankError(f"{where}: unknown slot {m.group()}")
        parts.append(slot)
        pos = m.end()
    _literal(text[pos:], parts, where)
    return tuple(parts)


def _literal(text: str, parts: list[str | Slot], where: str) -> None:
    if "{" in text or "}" in text:
        raise BankError(f"{where}: a brace outside a slot")
    if text:
        parts.append(text)


def parse_fragments(text: str, name: str) -> dict[str, list[Template]]:
    """The fragments of one file, by kind."""
    out: dict[str, list[Template]] = {}
    kind, listing, lines, start = "", False, list[str](), 0

    def flush() -> None:
        if not kind:
            return
        chunks = [ln for ln in lines if ln.strip()] if listing else ["\n".join(lines).rstrip()]
        for chunk in chunks:
            if chunk.strip():
                where = f"{name}:{start} ({kind})"
                out.setdefault(kind, []).append(compile_template(chunk, where))

    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("##"):
            continue
        if line.startswith("@@"):
            flush()
            listing = line.startswith("@@@")
            kind, lines, start = line.lstrip("@").strip(), [], number
        elif kind:
            lines.append(line.rstrip())
    flush()
    return out


def parse_recipes(text: str) -> dict[str, tuple[tuple[Item, ...], ...]]:
    recipes: dict[str, list[tuple[Item, ...]]] = {}
    current: list[tuple[Item, ...]] | None = None
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("#") or not line.strip():
            continue
        if line.startswith("@@"):
            current = recipes.setdefault(line.lstrip("@").strip(), [])
            continue
        if current is None:
            raise BankError(f"recipes.txt:{number}: a line before the first @@")
        current.append(tuple(_item(tok, number) for tok in line.split()))
    return {k: tuple(v) for k, v in recipes.items()}


def _item(token: str, number: int) -> Item:
    if token == ".":
        return Item("", 1, 1, False)
    m = _ITEM.match(token)
    if not m:
        raise BankError(f"recipes.txt:{number}: cannot read the item {token!r}")
    low, high = int(m.group("lo") or 1), int(m.group("hi") or 1)
    return Item(m.group("kind"), low, high, bool(m.group("opt")))


@lru_cache(maxsize=1)
def load_bank() -> Bank:
    """The bank shipped in ``phiscrub/data/synth`` (read and checked once)."""
    folder = resources.files("phiscrub").joinpath("data", "synth")
    fragments: dict[str, list[Template]] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.startswith("fragments_") and entry.name.endswith(".txt"):
            for kind, found in parse_fragments(entry.read_text("utf-8"), entry.name).items():
                fragments.setdefault(kind, []).extend(found)
    recipes = parse_recipes(folder.joinpath("recipes.txt").read_text("utf-8"))
    for name, lines in recipes.items():
        for item in (i for line in lines for i in line):
            if item.kind and item.kind not in fragments:
                raise BankError(f"recipe {name}: no fragment of kind {item.kind!r}")
    return Bank({k: tuple(v) for k, v in fragments.items()}, recipes)
