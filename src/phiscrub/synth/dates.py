"""Dates written the many ways notes write them, every one a format the surrogate
engine parses (``phiscrub.surrogate.dates``; the tests check each rendering)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from phiscrub.surrogate.dates import MONTHS, WEEKDAYS
from phiscrub.surrogate.shape import ordinal_suffix
from phiscrub.synth.rng import Rng

Render = Callable[[dt.date], str]


def _md(d: dt.date) -> str:
    return f"{d.month}/{d.day}"


FULL: dict[str, Render] = {
    "mm/dd/yyyy": lambda d: f"{d.month:02d}/{d.day:02d}/{d.year}",
    "m/d/yyyy": lambda d: f"{d.month}/{d.day}/{d.year}",
    "mm/dd/yy": lambda d: f"{d.month:02d}/{d.day:02d}/{d.year % 100:02d}",
    "m/d/yy": lambda d: f"{d.month}/{d.day}/{d.year % 100:02d}",
    "mm-dd-yyyy": lambda d: f"{d.month:02d}-{d.day:02d}-{d.year}",
    "m-d-yy": lambda d: f"{d.month}-{d.day}-{d.year % 100:02d}",
    "mm.dd.yyyy": lambda d: f"{d.month:02d}.{d.day:02d}.{d.year}",
    "iso": lambda d: d.isoformat(),
    "yyyy/mm/dd": lambda d: f"{d.year}/{d.month:02d}/{d.day:02d}",
    "Month d, yyyy": lambda d: f"{MONTHS[d.month - 1]} {d.day}, {d.year}",
    "Mon d, yyyy": lambda d: f"{MONTHS[d.month - 1][:3]} {d.day}, {d.year}",
    "d Month yyyy": lambda d: f"{d.day} {MONTHS[d.month - 1]} {d.year}",
    "dd-Mon-yyyy": lambda d: f"{d.day:02d}-{MONTHS[d.month - 1][:3]}-{d.year}",
    "dd-MON-yyyy": lambda d: f"{d.day:02d}-{MONTHS[d.month - 1][:3].upper()}-{d.year}",
    "ddMONyyyy": lambda d: f"{d.day:02d}{MONTHS[d.month - 1][:3].upper()}{d.year}",
    "Month dth, yyyy": lambda d: f"{MONTHS[d.month - 1]} {d.day}{ordinal_suffix(d.day)}, {d.year}",
    "dth of Month yyyy": lambda d: (
        f"{d.day}{ordinal_suffix(d.day)} of {MONTHS[d.month - 1]} {d.year}"
    ),
    "Weekday, Month d, yyyy": lambda d: (
        f"{WEEKDAYS[d.weekday()]}, {MONTHS[d.month - 1]} {d.day}, {d.year}"
    ),
    "MONTH d, yyyy": lambda d: f"{MONTHS[d.month - 1].upper()} {d.day}, {d.year}",
    "yyyymmdd": lambda d: f"{d.year}{d.month:02d}{d.day:02d}",
}

#: partial dates: the form name of a slot -> renderings of a date
PARTIAL: dict[str, tuple[Render, ...]] = {
    "md": (
        _md,
        lambda d: f"{d.month:02d}/{d.day:02d}",
        lambda d: f"{MONTHS[d.month - 1]} {d.day}",
        lambda d: f"{MONTHS[d.month - 1][:3]} {d.day}",
        lambda d: f"{MONTHS[d.month - 1]} {d.day}{ordinal_suffix(d.day)}",
        lambda d: f"{d.day}{ordinal_suffix(d.day)} of {MONTHS[d.month - 1]}",
        lambda d: f"{d.day} {MONTHS[d.month - 1][:3]}",
    ),
    "monthyear": (
        lambda d: f"{MONTHS[d.month - 1]} {d.year}",
        lambda d: f"{MONTHS[d.month - 1][:3]}-{d.year % 100:02d}",
        lambda d: f"{d.month:02d}/{d.year}",
        lambda d: f"{MONTHS[d.month - 1][:3]} {d.year}",
        lambda d: f"{MONTHS[d.month - 1]} of {d.year}",
    ),
    "year": (lambda d: str(d.year), lambda d: str(d.year), lambda d: f"'{d.year % 100:02d}"),
    "month": (lambda d: MONTHS[d.month - 1], lambda d: MONTHS[d.month - 1][:3]),
    "weekday": (lambda d: WEEKDAYS[d.weekday()], lambda d: WEEKDAYS[d.weekday()][:3]),
    "season": (
        lambda d: _season(d),
        lambda d: f"{_season(d)} {d.year}",
        lambda d: f"{_season(d)} of {d.year}",
        lambda d: f"{_season(d).capitalize()} '{d.year % 100:02d}",
    ),
    "holiday": (
        lambda d: "Christmas",
        lambda d: f"Thanksgiving {d.year}",
        lambda d: "Easter",
        lambda d: f"Christmas {d.year}",
        lambda d: "Halloween",
    ),
    "decade": (lambda d: f"{d.year - d.year % 10}s", lambda d: f"'{d.year % 100 // 10}0s"),
}

FULL_FORMATS = tuple(FULL)


def _season(d: dt.date) -> str:
    return ("winter", "spring", "summer", "fall")[(d.month % 12) // 3]


def render_full(d: dt.date, fmt: str) -> str:
    return FULL[fmt](d)


def render_partial(d: dt.date, form: str, rng: Rng) -> str:
    return rng.choice(PARTIAL[form])(d)
