"""Date surrogates: a table of formats (input -> output at a fixed offset), then checks."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from phiscrub.surrogate.dates import (
    DateShift,
    date_surrogate,
    parse_date,
    patient_offset,
    render,
    shift_date,
    shift_parsed,
)
from phiscrub.surrogate.numeric_dates import shift_numeric

KEY = b"k" * 32

# (input, shifted by +100 days, shifted by -200 days). Read the policy in docs/surrogates.md.
TABLE = [
    ("04/05/69", "07/14/69", "09/17/68"),
    ("4/5/69", "7/14/69", "9/17/68"),
    ("04/05/2069", "07/14/2069", "09/17/2068"),
    ("4/5/2069", "7/14/2069", "9/17/2068"),
    ("2069-04-05", "2069-07-14", "2068-09-17"),
    ("2069/04/05", "2069/07/14", "2068/09/17"),
    ("04-05-2069", "07-14-2069", "09-17-2068"),
    ("04.05.2069", "07.14.2069", "09.17.2068"),
    ("20690405", "20690714", "20680917"),
    ("12/25/2019", "04/03/2020", "06/08/2019"),
    ("Apr-69", "Jul-69", "Sep-68"),
    ("APR-69", "JUL-69", "SEP-68"),
    ("Apr 2069", "Jul 2069", "Sep 2068"),
    ("April 2069", "July 2069", "September 2068"),
    ("04/2069", "07/2069", "09/2068"),
    ("2069-04", "2069-07", "2068-09"),
    ("4/69", "7/69", "9/68"),
    ("April 5", "July 14", "September 18"),
    ("Apr 5", "Jul 14", "Sep 18"),
    ("April 5th", "July 14th", "September 18th"),
    ("5th of April", "14th of July", "18th of September"),
    ("the 5th of April", "the 14th of July", "the 18th of September"),
    ("April 5, 2069", "July 14, 2069", "September 17, 2068"),
    ("April 5th, 2069", "July 14th, 2069", "September 17th, 2068"),
    ("Apr. 5, 2069", "Jul. 14, 2069", "Sep. 17, 2068"),
    ("5 April 2069", "14 July 2069", "17 September 2068"),
    ("05-Apr-2069", "14-Jul-2069", "17-Sep-2068"),
    ("5-APR-69", "14-JUL-69", "17-SEP-68"),
    ("april 5th", "july 14th", "september 18th"),
    ("APRIL 5TH, 2069", "JULY 14TH, 2069", "SEPTEMBER 17TH, 2068"),
    ("Monday", "Wednesday", "Thursday"),
    ("MON", "WED", "THU"),
    ("Friday, April 5, 2069", "Sunday, July 14, 2069", "Monday, September 17, 2068"),
    ("Mon 4/5/69", "Mon 7/14/69", "Tue 9/17/68"),
    ("Tues 3/4/2014", "Thu 6/12/2014", "Fri 8/16/2013"),
    ("Fall '02", "Fall '02", "Fall '01"),
    ("Fall 2002", "Fall 2002", "Fall 2001"),
    ("Christmas", "Christmas", "Christmas"),
    ("Christmas 2019", "Christmas 2019", "Christmas 2018"),
    ("2069", "2069", "2068"),
    ("'92", "'92", "'91"),
    ("'90s", "'90s", "'90s"),
    ("1990s", "1990s", "1990s"),
    ("2/3", "5/13", "7/18"),
    ("13/2", "23/5", "28/7"),
    ("May 30th, 2022", "September 7th, 2022", "November 11th, 2021"),
    ("Sept. 3, 2019", "Dec. 12, 2019", "Feb. 15, 2019"),
    ("10/12/2019 10:30", "01/20/2020 10:30", "03/26/2019 10:30"),
    ("the 1st", "the 10th", "the 15th"),
    ("Dec 1st", "Mar 11th", "May 15th"),
    ("Dec 22nd", "Apr 1st", "Jun 5th"),
    ("early 2019", "early 2019", "early 2018"),
    ("mid-April", "mid-July", "mid-September"),
    ("Feb 29, 2020", "Jun 8, 2020", "Aug 13, 2019"),
    ("01-May-1999", "09-Aug-1999", "13-Oct-1998"),
    ("May-69", "Aug-69", "Oct-68"),
    ("May 5", "August 13", "October 18"),
]


@pytest.mark.parametrize(("original", "plus", "minus"), TABLE, ids=[r[0] for r in TABLE])
def test_format_table(original: str, plus: str, minus: str) -> None:
    assert shift_date(original, 100) == plus
    assert shift_date(original, -200) == minus


def test_table_is_large_enough() -> None:
    assert len(TABLE) >= 40


def _shape(text: str) -> str:
    """Separators, letter case classes and digit counts: what a format looks like."""
    return re.sub(r"[a-z]+", "a", re.sub(r"[A-Z]+", "A", re.sub(r"\d", "9", text)))


@pytest.mark.parametrize(
    "original",
    ["04/05/2069", "2069-04-05", "05-Apr-2069", "20690405", "04.05.2069", "2069/04/05", "04/2069"],
)
def test_padded_numeric_formats_keep_their_shape(original: str) -> None:
    for offset in (30, 77, 200, -31, -365):
        out = shift_date(original, offset)
        assert out is not None and _shape(out) == _shape(original)


def test_weekday_is_recomputed_for_full_dates() -> None:
    for offset in range(-365, 366, 37):
        out = shift_date("Monday, April 5, 2069", offset)
        assert out is not None
        weekday, rest = out.split(", ", 1)
        day = dt.datetime.strptime(rest, "%B %d, %Y").date()
        assert weekday == day.strftime("%A")
        assert day == dt.date(2069, 4, 5) + dt.timedelta(days=offset)


def test_lone_weekday_moves_by_offset_mod_7() -> None:
    names = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    for offset in (1, 7, 30, -45, 365):
        assert shift_date("Monday", offset) == names[offset % 7]


def test_ordinal_suffixes_are_correct() -> None:
    for day in range(1, 32):
        out = shift_date(f"January {day}th", 0)
        expected = {1: "st", 2: "nd", 3: "rd", 21: "st", 22: "nd", 23: "rd", 31: "st"}
        assert out == f"January {day}{expected.get(day, 'th')}"


def test_ambiguous_dates_keep_the_month_first_order() -> None:
    parsed = parse_date("2/3")
    assert parsed is not None and (parsed.month, parsed.day) == (2, 3)
    parsed = parse_date("2/3", order="dmy")
    assert parsed is not None and (parsed.month, parsed.day) == (3, 2)
    assert shift_date("2/3", 1) == "2/4"
    assert shift_date("2/3", 1, order="dmy") == "3/3"


def test_unparsed_date_gets_a_shape_surrogate_and_a_flag() -> None:
    for original in ("sometime 12", "Q3-2019x", "the day after"):
        out, unparsed = date_surrogate(original, 100, KEY, "p1")
        assert unparsed
        assert out != original and len(out) == len(original) and _shape(out) == _shape(original)
    out, unparsed = date_surrogate("04/05/2069", 100, KEY, "p1")
    assert not unparsed and out == "07/14/2069"


def test_patient_offset_is_keyed_never_zero_and_in_range() -> None:
    shift = DateShift(30, 365)
    offsets = [patient_offset(KEY, f"p{i}", shift) for i in range(500)]
    assert all(30 <= abs(o) <= 365 for o in offsets)
    assert any(o < 0 for o in offsets) and any(o > 0 for o in offsets)
    assert offsets == [patient_offset(KEY, f"p{i}", shift) for i in range(500)]
    assert offsets != [patient_offset(b"j" * 32, f"p{i}", shift) for i in range(500)]
    future = [patient_offset(KEY, f"p{i}", DateShift(1, 2, past=False)) for i in range(50)]
    assert set(future) <= {1, 2}


@given(
    st.integers(1, 31),
    st.integers(1, 31),
    st.integers(0, 2200),
    st.sampled_from(["/", "-", "."]),
    st.booleans(),
    st.booleans(),
    st.sampled_from(["mdy", "dmy"]),
    st.integers(-365, 365),
)
def test_fast_numeric_path_agrees_with_the_parser(
    a: int, b: int, year: int, sep: str, pad: bool, iso: bool, order: str, offset: int
) -> None:
    fa, fb = (f"{a:02d}", f"{b:02d}") if pad else (str(a), str(b))
    y = f"{year % 100:02d}" if year < 100 else f"{year:04d}"
    text = f"{y:0>4}{sep}{fa}{sep}{fb}" if iso else f"{fa}{sep}{fb}{sep}{y}"
    parsed = parse_date(text, order)  # type: ignore[arg-type]
    try:
        slow = None if parsed is None else render(shift_parsed(parsed, offset))
    except (ValueError, OverflowError):
        slow = None
    assert shift_numeric(text, offset, order) == slow
