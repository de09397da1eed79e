"""``run_deid_spark``: Parquet in, one Parquet file out (``phiscrub deid --engine spark``).

The output file has the columns ``phiscrub.io`` writes for a table (``id, patient_id,
text, spans``): the de-identified text and, as JSON, the spans at their offsets in it.
It is written in three steps, each of which scales out except the last:

1. the UDF runs once per note, in parallel, into a staging folder of part files
   (de-identified text, spans and errors only; never the original text);
2. the summary (notes, failures, PHI per subtype) is counted from the staging folder;
3. the notes that succeeded are sorted back into input order and written by ONE task
   (``coalesce(1)``) as a single part file, which is then moved onto the output path
   (atomically with ``os.replace`` for a local path).

The staging folder, ``.<output name>.phiscrub-<random>`` beside the output, is removed
at the end, whatever happens.
"""

from __future__ import annotations

import logging
import os
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

from pyspark.errors import PySparkException
from pyspark.sql import Column, DataFrame, SparkSession
from pyspark.sql import functions as F
from pyspark.sql.types import IntegralType, StringType

from phiscrub.api import Settings
from phiscrub.errors import EmptyInput, FormatError, PhiscrubError, UsageError
from phiscrub.spark._files import Location, Store
from phiscrub.spark._partition import Job
from phiscrub.spark.frame import STRUCT, apply, col, make_job

LOG = logging.getLogger("phiscrub.spark")

#: how many ids of failed notes the summary lists
MAX_FAILED_IDS = 100
_ORDER = ("__file", "__row")
_OUTPUT = ("id", "patient_id", "text", "spans")


def run_deid_spark(
    input_path: str,
    output_path: str,
    settings: Settings,
    key: bytes | str | None,
    *,
    master: str | None = None,
    text_col: str = "text",
    id_col: str = "id",
    patient_col: str | None = "patient_id",
    app_name: str = "phiscrub",
) -> dict[str, Any]:
    """De-identify a Parquet file (or folder of Parquet files) into one Parquet file.

    The output is the file the local engine writes for the same notes: ``phiscrub.io``
    reads back the same ids, patient ids, texts and spans, in input order. Notes that
    fail are left out and counted; a repeated note id is an error before any work.
    Without ``patient_col`` in the input, each note is its own patient. Uses the running
    Spark session if there is one, else starts one on ``master`` (default: Spark's,
    ``local[*]``) and stops it at the end. Paths are local paths or Hadoop URIs.

    Returns a summary: ``notes``, ``written``, ``failures``, ``errors`` (count per error
    code), ``failed_ids`` (the first 100), ``phi`` (spans found per subtype), ``phi_total``,
    ``patients_from`` (the patient column used, or the id column), ``warnings``,
    ``seconds``, and the ``engine``, ``master``, ``pipeline``, ``mode``. Raises
    ``UsageError``, ``FormatError``, ``EmptyInput``, ``SurrogateKeyError`` (before Spark
    starts when it can) and ``SparkJobFailed`` (E710) when a Spark job fails.
    """
    started = time.perf_counter()
    job = make_job(settings, key, detect_only=False, output_spans=True)
    source, target = Location.of(input_path), Location.of(output_path)
    if source.is_local and not Path(source.raw).exists():  # before starting Spark
        raise UsageError(f"no such file or folder: {input_path}", hint="check the input path")
    with session(master, app_name) as spark:
        store = Store(spark)
        _check_paths(store, source, target)
        notes, patients_from = read_notes(spark, source, text_col, id_col, patient_col)
        with _job_errors():
            check_unique_ids(notes, input_path)
            summary = _deidentify_to_file(spark, store, notes, job, patients_from, source, target)
        summary["master"] = spark.sparkContext.master
    warnings = []
    if patient_col is not None and patients_from is None:
        warnings.append(f"no column {patient_col}: each note is its own patient")
    summary.update(
        engine="spark",
        patients_from=patients_from or id_col,
        warnings=warnings,
        pipeline=settings.detector_name,
        mode=settings.mode,
        seconds=round(time.perf_counter() - started, 3),
    )
    LOG.info("spark: %d notes, %d failures", summary["notes"], summary["failures"])
    return summary


class SparkJobFailed(PhiscrubError, RuntimeError):
    """A Spark job that failed: an executor without phiscrub, a lost executor, a model
    that did not load, unreadable input files..."""

    code = "E710"
    hint = (
        "see the Spark driver and executor logs; every executor needs phiscrub[spark] "
        "(the same version as the driver)"
    )


@contextmanager
def _job_errors() -> Iterator[None]:
    """Spark's errors as ``SparkJobFailed`` (named by Spark's condition; the details,
    which may quote values, stay in the chained exception and the Spark logs)."""
    try:
        yield
    except PySparkException as err:
        raise SparkJobFailed(f"the Spark job failed ({_condition(err)})") from err


def _check_paths(store: Store, source: Location, target: Location) -> None:
    if not store.exists(source):
        raise UsageError(f"no such file or folder: {source.raw}", hint="check the input path")
    if store.is_dir(target):
        raise UsageError(
            f"the output {target.raw} is a folder", hint="give a file name such as out.parquet"
        )


def _deidentify_to_file(
    spark: SparkSession,
    store: Store,
    notes: DataFrame,
    job: Job,
    patients_from: str | None,
    source: Location,
    target: Location,
) -> dict[str, Any]:
    """Stage, count, write the single file; the staging folder goes in every case."""
    tmp = target.sibling(f".{target.name}.phiscrub-{uuid.uuid4().hex}")
    try:
        stage(notes, job, patients_from is not None).write.parquet(tmp.child("stage").uri)
        staged = spark.read.parquet(tmp.child("stage").uri)
        summary = summarize(staged)
        if not summary["notes"]:
            raise EmptyInput("no document found", path=source.raw)
        write_single(staged, tmp.child("final"), target, store)
        return summary
    finally:
        store.delete(tmp)


# -- reading ---------------------------------------------------------------------------


def read_notes(
    spark: SparkSession, source: Location, text_col: str, id_col: str, patient_col: str | None
) -> tuple[DataFrame, str | None]:
    """The notes as columns ``id, text, patient_id`` (strings) and their position in the
    input (``__file``, ``__row``); and the patient column used (None: each note its own)."""
    try:
        df = spark.read.parquet(source.uri)
        types = {f.name: f.dataType for f in df.schema.fields}
    except PySparkException as err:
        raise FormatError(
            f"cannot read the input as Parquet ({_condition(err)})", path=source.raw
        ) from None
    missing = [c for c in (id_col, text_col) if c not in types]
    if missing:
        raise FormatError(
            f"missing column(s) {', '.join(missing)}; the columns are {', '.join(types) or 'none'}",
            path=source.raw,
            hint="name the id and text columns with --id-column / --text-column",
        )
    if patient_col is not None and patient_col not in types:
        LOG.warning("no column %s: each note is its own patient", patient_col)
        patient_col = None
    columns = {
        "id": id_col,
        "text": text_col,
        **({"patient_id": patient_col} if patient_col else {}),
    }
    for name in columns.values():
        kind = types[name]
        if not (
            isinstance(kind, StringType) or (name != text_col and isinstance(kind, IntegralType))
        ):
            raise FormatError(
                f"column {name} holds {kind.simpleString()}, not text", path=source.raw
            )
    picked = [col(c).cast(StringType()).alias(alias) for alias, c in columns.items()]
    position = [
        F.col("_metadata.file_path").alias("__file"),
        F.col("_metadata.row_index").alias("__row"),
    ]
    return df.select(*picked, *position), patient_col


def check_unique_ids(notes: DataFrame, path: str) -> None:
    """A repeated note id is an error, as for the local reader (ids key the output)."""
    ids = notes.select("id").where(F.col("id").isNotNull() & (F.col("id") != ""))
    twice = ids.groupBy("id").count().where(F.col("count") > 1).limit(1).collect()
    if twice:
        raise FormatError(
            f"document id {twice[0]['id']!r} occurs twice",
            path=path,
            hint="document ids must be unique within a corpus",
        )


# -- processing and counting -----------------------------------------------------------


def stage(notes: DataFrame, job: Job, has_patient: bool) -> DataFrame:
    """The processed notes, as staged: position, id, patient, new text, output spans,
    error, and the spans found (``found``, for the counts)."""
    done = apply(notes, job, "text", "id", "patient_id" if has_patient else None)
    field = {name: F.col(f"{STRUCT}.{name}") for name in job.fields}
    return done.select(
        *_ORDER,
        "id",
        _patient(has_patient).alias("patient_id"),
        field["text"].alias("text"),
        field["output_spans"].alias("spans"),
        field["error"].alias("error"),
        field["spans"].alias("found"),
    )


def _patient(has_patient: bool) -> Column:
    """The patient id as ``Document`` sets it: the note's own id when null or empty."""
    if not has_patient:
        return F.col("id")
    given = F.col("patient_id")
    return F.when(given.isNull() | (given == ""), F.col("id")).otherwise(given)


def summarize(staged: DataFrame) -> dict[str, Any]:
    """Notes, failures by code, the first failed ids, PHI found per subtype."""
    counts = staged.agg(F.count(F.lit(1)).alias("notes"), F.count("error").alias("failures"))
    totals = counts.collect()[0]
    failed = staged.where(F.col("error").isNotNull())
    code = F.regexp_extract("error", r"^\[(E\d+)\]", 1).alias("code")
    errors = {r["code"]: r["count"] for r in failed.groupBy(code).count().collect()}
    failed_ids = [
        r["id"] for r in failed.orderBy(*_ORDER).select("id").limit(MAX_FAILED_IDS).collect()
    ]
    spans = F.explode(F.from_json("found", "array<struct<label:string>>")).alias("span")
    labels = staged.where(F.col("found").isNotNull()).select(spans).groupBy("span.label").count()
    phi = {r["label"]: r["count"] for r in sorted(labels.collect(), key=lambda r: str(r["label"]))}
    return {
        "notes": totals["notes"],
        "written": totals["notes"] - totals["failures"],
        "failures": totals["failures"],
        "errors": dict(sorted(errors.items())),
        "failed_ids": failed_ids,
        "phi": phi,
        "phi_total": sum(phi.values()),
    }


# -- writing one file ------------------------------------------------------------------


def write_single(staged: DataFrame, folder: Location, target: Location, store: Store) -> None:
    """The notes that succeeded, in input order, as the single Parquet file ``target``."""
    done = staged.where(F.col("error").isNull()).orderBy(*_ORDER).select(*_OUTPUT)
    done.coalesce(1).write.parquet(folder.uri)
    parts = [n for n in store.names(folder) if n.startswith("part-") and n.endswith(".parquet")]
    if len(parts) != 1:
        raise UsageError(
            f"Spark wrote {len(parts)} part files where one was expected",
            hint="report this; the staging folder is removed",
        )
    store.move(folder.child(parts[0]), target)


# -- the session -----------------------------------------------------------------------


@contextmanager
def session(master: str | None, app_name: str) -> Iterator[SparkSession]:
    """The running Spark session, or a new one on ``master`` that is stopped at the end."""
    active = SparkSession.getActiveSession()
    if active is not None:
        if master is not None and master != active.sparkContext.master:
            LOG.warning("a Spark session is running on %s: using it", active.sparkContext.master)
        yield active
        return
    if master is None or master.startswith("local"):
        # local workers must run this Python (with phiscrub), not whatever python3 is first
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = cast(Any, SparkSession.builder).appName(app_name)
    if master is not None:
        builder = builder.master(master)
    try:
        spark: SparkSession = builder.getOrCreate()
    except Exception as err:
        raise UsageError(
            f"cannot start Spark ({type(err).__name__})",
            hint="Spark needs Java 17 or later (JAVA_HOME); check --spark-master",
        ) from err
    try:
        yield spark
    finally:
        spark.stop()


def _condition(err: PySparkException) -> str:
    """Spark's error condition name (its message may quote paths and values)."""
    return str(err.getCondition() or type(err).__name__)
