"""Pipelines: ordered lists of named stages, switchable per call.

A stage is a detector (``detect(doc) -> list[Span]``: its spans are added) or a span
processor (``process(doc, spans) -> list[Span]``: it replaces the current spans). Stages
never mutate their inputs. Pipelines and stages are registered by name in
``phiscrub.detect.registry``::

    from phiscrub.detect import get_pipeline
    pipe = get_pipeline("rules")
    spans = pipe.run(doc)                           # every stage
    spans = pipe.run(doc, disable={"names_dict"})   # one stage switched off
    doc2 = pipe.annotate(doc, layer="rules")        # a copy with the spans as a layer
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from phiscrub.errors import UsageError
from phiscrub.span import Document, Span


@runtime_checkable
class Detector(Protocol):
    @property
    def name(self) -> str: ...

    def detect(self, doc: Document) -> list[Span]: ...


@runtime_checkable
class Processor(Protocol):
    @property
    def name(self) -> str: ...

    def process(self, doc: Document, spans: list[Span]) -> list[Span]: ...


Stage = Detector | Processor


@dataclass(frozen=True)
class Pipeline:
    """A named, ordered tuple of stages."""

    name: str
    stages: tuple[Stage, ...]

    @property
    def stage_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.stages)

    def _check(self, names: Iterable[str]) -> None:
        unknown = set(names) - set(self.stage_names)
        if unknown:
            raise UsageError(
                f"pipeline {self.name!r} has no stage {', '.join(sorted(unknown))}",
                hint=f"its stages are: {', '.join(self.stage_names)}",
            )

    def run(self, doc: Document, *, disable: Collection[str] = ()) -> list[Span]:
        """Run every stage not in ``disable`` in order; return the final spans."""
        if disable:
            self._check(disable)
        spans: list[Span] = []
        for stage, is_processor in zip(self.stages, self._kinds, strict=True):
            if disable and stage.name in disable:
                continue
            if is_processor:
                spans = stage.process(doc, spans)  # type: ignore[union-attr]
                continue
            spans = spans + stage.detect(doc)  # type: ignore[union-attr]
        return spans

    @functools.cached_property
    def _kinds(self) -> tuple[bool, ...]:
        """Is each stage a processor? (a runtime Protocol check is slow: once per pipeline)"""
        return tuple(isinstance(s, Processor) for s in self.stages)

    def annotate(
        self, doc: Document, *, layer: str = "rules", disable: Collection[str] = ()
    ) -> Document:
        """A copy of ``doc`` with the pipeline's spans as ``layer``."""
        return doc.with_layer(layer, self.run(doc, disable=disable))

    def stage(self, name: str) -> Stage:
        self._check([name])
        return next(s for s in self.stages if s.name == name)
