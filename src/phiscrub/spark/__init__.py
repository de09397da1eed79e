"""Apache Spark: de-identify notes that live in a data lake (``pip install 'phiscrub[spark]'``).

``deidentify(df)`` adds de-identified text, spans and error columns to a DataFrame;
``run_deid_spark(input, output, settings, key)`` is ``phiscrub deid --engine spark``:
Parquet in, Parquet out, the same file the local engine writes. See ``docs/spark.md``.
"""

from __future__ import annotations

try:
    import pyspark  # noqa: F401
except ImportError as _err:  # pragma: no cover - the spark extra is not installed
    from phiscrub.errors import UsageError

    raise UsageError("phiscrub.spark needs pyspark", hint="pip install 'phiscrub[spark]'") from _err

from phiscrub.spark.frame import deidentify
from phiscrub.spark.job import SparkJobFailed, run_deid_spark

__all__ = ["SparkJobFailed", "deidentify", "run_deid_spark"]
