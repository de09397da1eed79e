from __future__ import annotations

import math

import pytest

from phiscrub.evaluate.scoring import Counts
from phiscrub.evaluate.significance import approximate_randomization, compare, z_test


def test_identical_systems_are_not_different() -> None:
    a = [Counts(5, 1, 2), Counts(3, 0, 1), Counts(7, 2, 0)]
    r = approximate_randomization(a, a, "f1", n=999)
    assert r["difference"] == 0.0 and r["p_value"] == 1.0


def test_a_much_better_system_is_significant() -> None:
    a = [Counts(10, 0, 0)] * 30
    b = [Counts(2, 8, 8)] * 30
    r = approximate_randomization(a, b, "f1", n=999, seed=1)
    assert r["difference"] == pytest.approx(1.0 - 0.2)
    assert r["p_value"] == pytest.approx(1 / 1000)  # no shuffle reaches the observed gap


def test_randomization_is_reproducible_with_a_seed() -> None:
    a = [Counts(5, 1, 2), Counts(3, 0, 1), Counts(7, 2, 0), Counts(1, 1, 1)]
    b = [Counts(4, 2, 3), Counts(3, 1, 1), Counts(6, 2, 1), Counts(1, 0, 1)]
    assert approximate_randomization(a, b, n=500, seed=3) == approximate_randomization(
        a, b, n=500, seed=3
    )


def test_z_test_by_hand() -> None:
    # p1 = .9 (n 100), p2 = .8 (n 100): pooled .85, var .85*.15*(2/100) = .00255
    r = z_test(0.9, 100, 0.8, 100)
    assert r["z"] == pytest.approx(0.1 / math.sqrt(0.00255))
    assert r["p_value"] == pytest.approx(math.erfc(r["z"] / math.sqrt(2)))
    assert z_test(0.5, 0, 0.5, 10) == {"z": 0.0, "p_value": 1.0}


def test_compare_reports_every_metric() -> None:
    out = compare([Counts(5, 1, 2)] * 4, [Counts(4, 2, 3)] * 4, n=99)
    assert set(out) == {"precision", "recall", "f1"}
    assert out["recall"]["a"] == pytest.approx(5 / 7)
