"""Rule and dictionary detectors for every PHI type (DESIGN.md stage 3), with provenance.

``get_pipeline("rules").run(doc)`` returns spans whose ``source`` names the detector and
pattern (``rules.date:numeric_mdy``); ``phiscrub detect --explain`` prints why each fired.
See docs/detectors.md.
"""

from __future__ import annotations

from phiscrub.detect.pipeline import Detector, Pipeline, Processor
from phiscrub.detect.registry import PIPELINES, STAGES, get_pipeline

__all__ = ["PIPELINES", "STAGES", "Detector", "Pipeline", "Processor", "get_pipeline"]
