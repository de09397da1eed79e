"""One local[2] Spark session and one small synthetic corpus, shared by the Spark tests.

The session fixture skips (rather than fails) when pyspark or Java is missing.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from phiscrub.span import Document

from .common import corpus


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    pytest.importorskip("pyspark")
    pytest.importorskip("pandas")
    if shutil.which("java") is None:
        pytest.skip("Spark needs Java on PATH")
    from pyspark.sql import SparkSession

    saved = {name: os.environ.get(name) for name in ("PYSPARK_PYTHON", "SPARK_LOCAL_IP")}
    os.environ["PYSPARK_PYTHON"] = sys.executable  # the workers must import this phiscrub
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    session = (
        SparkSession.builder.master("local[2]")
        .appName("phiscrub-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.default.parallelism", "2")
        .config("spark.driver.memory", "1g")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.fixture(scope="session")
def notes() -> list[Document]:
    return corpus()
