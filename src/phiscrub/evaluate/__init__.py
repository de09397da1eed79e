"""Evaluation: the official i2b2 2014 figures and every other measure of DESIGN.md."""

from phiscrub.evaluate.measures import Pair
from phiscrub.evaluate.report import align, build_report
from phiscrub.evaluate.scoring import Counts

__all__ = ["Counts", "Pair", "align", "build_report"]
