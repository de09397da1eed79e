"""The trie regex of a digit lane: follow the run of digits, try only what its end admits.

Built from the run tests of :func:`phiscrub.detect.gates.run_tests` (speed only, exact).
Tried at an ASCII digit, the regex walks the run digit by digit (``[0-9](?:[0-9](?:...)|
BUCKETS)``: a branch whose first item is a character class costs almost nothing in the
engine when it fails); where the run ends it branches on the character after it, on
disjoint classes, so that one bucket at most is tried; a bucket jumps back to the run's
first digit (a fixed-width look-behind) and tries its alternatives in file order. An
alternative is in every bucket its tests admit, so the first of the bucket's alternatives
that matches is the first of all that match there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from phiscrub.detect.gates import KMAX, Test

_MANY = KMAX + 1
_DIGITS = frozenset("0123456789")
_WIDE = "\\U00000080-\\U0010ffff"


def _class(chars: Iterable[str], wide: bool = False) -> str:
    body = "".join(f"\\U{ord(c):08x}" for c in sorted(chars))
    return "[" + body + (_WIDE if wide else "") + "]"


@dataclass
class _Trie:
    alts: Sequence[tuple[int, str, tuple[Test, ...]]]
    groups: int = 0

    def group(self, ks: Iterable[int], width: int) -> str:
        """Back ``width`` characters to the run's first digit, then the alternatives ``ks``
        in file order, each in a group ``_L<k>_<n>``."""
        keep = set(ks)
        parts = []
        for k, src, _ in self.alts:
            if k in keep:
                self.groups += 1
                parts.append(f"(?P<_L{k}_{self.groups}>{src})")
        return f"(?<=(?={'|'.join(parts)})[\\s\\S]{{{width}}})"

    def level(self, n: int) -> str:
        out = self.buckets(n)
        if n < _MANY and (deeper := self.level(n + 1)):
            out.insert(0, "[0-9]" + deeper)  # the run goes on: first, so one bucket is tried
        if len(out) > 1:
            return f"(?:{'|'.join(out)})"
        return out[0] if out else ""

    def buckets(self, n: int) -> list[str]:
        """Where the run is ``n`` digits long: one bucket per class of the character after
        it, the classes disjoint. (The run tests also say what may come after that
        character: the digit index uses it, :func:`phiscrub.detect.digits.admits`; a second
        level of buckets here cost more to compile than it saved.)"""
        tests = [(k, t[n - 1]) for k, _, t in self.alts if t[n - 1] is not None]
        if n == _MANY:  # a run of KMAX + 1 digits or more: no split
            return [self.group([k for k, _ in tests], n)] if tests else []
        anyk = {k for k, t in tests if t == ""}
        per: dict[str, set[int]] = {}  # ASCII non-digit after the run -> alternatives
        wide = set(anyk)
        for k, t in tests:
            if isinstance(t, tuple):
                for (chars, is_wide), _ in t:
                    for ch in chars:
                        per.setdefault(ch, set()).add(k)
                    if is_wide:
                        wide.add(k)
        by: dict[frozenset[int], set[str]] = {}
        for ch, ks in per.items():
            by.setdefault(frozenset(ks | anyk), set()).add(ch)
        out = [_class(chars) + self.group(ks, n + 1) for ks, chars in by.items()]
        if wide != anyk:
            out.append(_class((), True) + self.group(wide, n + 1))
        if anyk:  # any other character, or the end of the text
            used = _DIGITS.union(*by.values())
            out.append(f"(?!{_class(used, wide != anyk)})" + self.group(anyk, n))
        return out


def trie(alts: Sequence[tuple[int, str, tuple[Test, ...]]]) -> str:
    """One regex, tried at an ASCII digit, for alternatives ``(k, regex, run_tests)`` given
    in file order: the group ``_L<k>_<n>`` that matches names the first of them (file
    order) that matches there. Regexes must have no capturing groups."""
    body = _Trie(alts).level(1)
    return "[0-9]" + body if body else ""
