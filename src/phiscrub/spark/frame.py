"""``deidentify(df)``: de-identify the notes of a Spark DataFrame with a pandas UDF."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

import pandas as pd  # type: ignore[import-untyped]  # no pandas-stubs among the dev tools
from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F
from pyspark.sql.pandas.functions import pandas_udf
from pyspark.sql.types import StringType, StructField, StructType

from phiscrub.api import Settings
from phiscrub.errors import UsageError
from phiscrub.spark._partition import Job, process
from phiscrub.surrogate.keys import _decode_key, load_key

#: the temporary struct column the UDF fills (dropped before returning)
STRUCT = "__phiscrub_deid"


def deidentify(
    df: DataFrame,
    text_col: str = "text",
    id_col: str = "id",
    patient_col: str | None = None,
    *,
    settings: Settings | None = None,
    key: bytes | str | None = None,
    detect_only: bool = False,
    prefix: str = "deid_",
) -> DataFrame:
    """``df`` with the columns ``{prefix}text`` (the de-identified note), ``{prefix}spans``
    (the PHI found, as a JSON list of ``{start, end, label, source, score}`` with offsets
    into the ORIGINAL text and no text) and ``{prefix}error`` (null, or ``[code] message
    (hint)`` for a note that failed; its ``{prefix}text`` is then null).

    ``settings`` defaults to ``Settings()`` (the shipped model, surrogate mode); in
    surrogate mode the key is ``key``, else ``$PHISCRUB_KEY`` on the driver; it travels to
    the executors with the UDF. Without ``patient_col`` each note is its own patient.
    ``detect_only`` adds only ``{prefix}spans`` and ``{prefix}error`` (no key needed).
    The result is lazy, like any DataFrame; its rows keep their order, except with
    ``reconcile="patient"`` and a ``patient_col``, where the rows are grouped by patient
    so that each patient's notes are reconciled together.
    """
    job = make_job(settings or Settings(), key, detect_only=detect_only)
    check_columns(df, (text_col, id_col, *((patient_col,) if patient_col else ())))
    outputs = {f"{prefix}{name}": name for name in job.fields}
    clash = sorted(set(outputs) & set(df.columns))
    if not prefix or clash:
        raise UsageError(
            f"the output column(s) {', '.join(clash) or 'text, spans, error'} would replace "
            "input columns",
            hint="pass another prefix=",
        )
    done = apply(df, job, text_col, id_col, patient_col)
    extra = [F.col(f"{STRUCT}.{field}").alias(name) for name, field in outputs.items()]
    return done.select(*[col(c) for c in df.columns], *extra)


def make_job(
    settings: Settings, key: bytes | str | None, *, detect_only: bool, output_spans: bool = False
) -> Job:
    """The job for the executors; the surrogate key is resolved (and checked) here, on
    the driver, so that a missing key fails at once rather than on every row."""
    if not isinstance(settings, Settings):
        raise UsageError("settings must be a phiscrub.api.Settings", hint="use Settings(...)")
    resolved: bytes | None = None
    if settings.mode == "surrogate" and not detect_only:
        resolved = load_key(None) if key is None else _decode_key(key, "the key argument")
    return Job(settings, resolved, detect_only=detect_only, output_spans=output_spans)


def check_columns(df: DataFrame, names: tuple[str, ...]) -> None:
    """Each column exists and holds strings, or a UsageError says what to do."""
    if not isinstance(df, DataFrame):
        raise UsageError("deidentify takes a pyspark.sql.DataFrame", hint="spark.read...")
    types = {f.name: f.dataType for f in df.schema.fields}
    missing = [n for n in names if n not in types]
    if missing:
        raise UsageError(
            f"no column {', '.join(missing)}; the columns are {', '.join(types) or 'none'}",
            hint="name the columns with text_col=, id_col=, patient_col=",
        )
    for name in names:
        if not isinstance(types[name], StringType):
            raise UsageError(
                f"column {name} holds {types[name].simpleString()}, not strings",
                hint=f"cast it first: df.withColumn({name!r}, F.col({name!r}).cast('string'))",
            )


def apply(
    df: DataFrame, job: Job, text_col: str, id_col: str, patient_col: str | None
) -> DataFrame:
    """``df`` plus the struct column ``__phiscrub_deid`` with the fields ``job.fields``."""
    schema = StructType([StructField(name, StringType(), True) for name in job.fields])

    # pyspark reads the UDF's kind from these hints: batches in, frames out, one call per
    # partition. `process` is pickled by reference, so its model cache is per worker.
    def body(batches: Iterator[tuple[pd.Series, pd.Series, pd.Series]]) -> Iterator[pd.DataFrame]:
        return process(job, batches)

    udf = cast(Any, pandas_udf)(body, schema)
    patient = col(patient_col) if patient_col else F.lit(None).cast(StringType())
    if job.by_patient and patient_col:  # a patient's notes must come together, in id order
        df = df.repartition(col(patient_col)).sortWithinPartitions(col(patient_col), col(id_col))
    result: DataFrame = df.withColumn(STRUCT, udf(col(text_col), col(id_col), patient))
    return result


def col(name: str) -> Column:
    """A column by its exact name (dots and spaces are not interpreted)."""
    return F.col("`" + name.replace("`", "``") + "`")
