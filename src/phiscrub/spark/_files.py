"""The few file operations ``run_deid_spark`` needs, on local paths or through Hadoop.

A path without a scheme, or a ``file:`` URI, is local: handled with ``os`` (the final
move is an atomic ``os.replace``). Any other URI (``hdfs://``, ``s3a://``, ``abfss://``...)
goes through Hadoop's ``FileSystem`` of the Spark session (py4j, so a classic session,
not Spark Connect); there the final move is a delete then a rename, which object stores
carry out as a copy.
"""

from __future__ import annotations

import os
import shutil
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlparse
from urllib.request import url2pathname

from pyspark.sql import SparkSession

from phiscrub.errors import UsageError


@dataclass(frozen=True)
class Location:
    """A local path or a Hadoop URI; build it with ``Location.of``."""

    raw: str

    @classmethod
    def of(cls, given: str) -> Location:
        """``given``, with a ``file:`` URI turned into its local path."""
        if given.startswith("file:"):
            return cls(url2pathname(urlparse(given).path))
        return cls(given)

    @property
    def is_local(self) -> bool:
        return "://" not in self.raw

    @property
    def uri(self) -> str:
        """The path as Spark should see it (a local path as an absolute file URI, so that
        a cluster's default file system does not claim it)."""
        return Path(self.raw).resolve().as_uri() if self.is_local else self.raw

    @property
    def name(self) -> str:
        return Path(self.raw).name if self.is_local else self.raw.rstrip("/").rsplit("/", 1)[-1]

    def child(self, name: str) -> Location:
        if self.is_local:
            return Location(str(Path(self.raw) / name))
        return Location(f"{self.raw.rstrip('/')}/{name}")

    def sibling(self, name: str) -> Location:
        if self.is_local:
            return Location(str(Path(self.raw).resolve().parent / name))
        return Location(f"{self.raw.rstrip('/').rsplit('/', 1)[0]}/{name}")


class Store:
    """Local operations for local paths, Hadoop's for the others."""

    def __init__(self, spark: SparkSession) -> None:
        self.hadoop = HadoopFs(spark)

    def exists(self, where: Location) -> bool:
        return Path(where.raw).exists() if where.is_local else self.hadoop.exists(where.raw)

    def is_dir(self, where: Location) -> bool:
        return Path(where.raw).is_dir() if where.is_local else self.hadoop.is_dir(where.raw)

    def names(self, folder: Location) -> list[str]:
        if folder.is_local:
            return sorted(p.name for p in Path(folder.raw).iterdir())
        return self.hadoop.names(folder.raw)

    def move(self, source: Location, target: Location) -> None:
        """Put the file ``source`` in place of ``target`` (same file system)."""
        if source.is_local and target.is_local:
            os.chmod(source.raw, 0o600)  # owner only, as phiscrub.io's writers leave a file
            os.replace(source.raw, target.raw)
        else:
            self.hadoop.move(source.uri, target.uri)

    def delete(self, where: Location) -> None:
        """Remove a folder and what it holds; never raises (it runs on the way out)."""
        if where.is_local:
            shutil.rmtree(where.raw, ignore_errors=True)
        else:
            with suppress(Exception):
                self.hadoop.delete(where.raw)


class HadoopFs:
    """Hadoop ``FileSystem`` calls through the session's JVM (py4j objects are untyped)."""

    def __init__(self, spark: SparkSession) -> None:
        self._context = cast(Any, spark.sparkContext)

    def _fs(self, uri: str) -> tuple[Any, Any]:
        path = self._context._jvm.org.apache.hadoop.fs.Path(uri)
        return path.getFileSystem(self._context._jsc.hadoopConfiguration()), path

    def exists(self, uri: str) -> bool:
        fs, path = self._fs(uri)
        return bool(fs.exists(path))

    def is_dir(self, uri: str) -> bool:
        fs, path = self._fs(uri)
        return bool(fs.exists(path) and fs.getFileStatus(path).isDirectory())

    def names(self, uri: str) -> list[str]:
        fs, path = self._fs(uri)
        return sorted(str(status.getPath().getName()) for status in fs.listStatus(path))

    def move(self, source: str, target: str) -> None:
        fs, src = self._fs(source)
        _, dst = self._fs(target)
        if fs.exists(dst):
            fs.delete(dst, False)
        if not fs.rename(src, dst):
            raise UsageError(f"cannot move the output into place at {target}")

    def delete(self, uri: str) -> None:
        fs, path = self._fs(uri)
        fs.delete(path, True)
