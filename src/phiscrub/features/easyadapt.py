"""EasyAdapt feature augmentation (seed 001 §3.3.3; Daumé III 2007).

Every feature gets a ``general`` copy and a copy for its domain, ``source`` or ``target``:
``EA(x_source) = (x, x, 0)``, ``EA(x_target) = (x, 0, x)``. A linear model then learns
shared weights where the domains agree and domain-specific ones where they differ. New
notes are tagged as ``target``. The augmentation works on feature dicts, so every tagger
that uses ``FeatureExtractor`` gets it by setting ``FeatureConfig(easyadapt=True)``.

The domain of a training document is its metadata entry ``domain`` (see ``with_domain``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from phiscrub.errors import UsageError
from phiscrub.span import Document

__all__ = ["DOMAINS", "DOMAIN_KEY", "augment", "domain_of", "with_domain"]

DOMAINS = ("source", "target")
DOMAIN_KEY = "domain"
_PREFIX = {"general": "g~", "source": "s~", "target": "t~"}


def augment(features: Mapping[str, str | float], domain: str) -> dict[str, str | float]:
    """The general copy (``g~KEY``) and the domain copy (``s~KEY`` or ``t~KEY``)."""
    if domain not in DOMAINS:
        raise UsageError(f"unknown domain {domain!r}", hint="use 'source' or 'target'")
    own = _PREFIX[domain]
    out: dict[str, str | float] = {}
    for key, value in features.items():
        out["g~" + key] = value
        out[own + key] = value
    return out


def with_domain(docs: Iterable[Document], domain: str) -> list[Document]:
    """Copies of ``docs`` whose metadata says which domain they come from."""
    if domain not in DOMAINS:
        raise UsageError(f"unknown domain {domain!r}", hint="use 'source' or 'target'")
    out: list[Document] = []
    for doc in docs:
        meta = dict(doc.metadata)
        meta[DOMAIN_KEY] = domain
        out.append(Document(doc.id, doc.text, doc.patient_id, meta, doc.layers))
    return out


def domain_of(doc: Document) -> str:
    """The document's domain (``target`` unless its metadata says ``source``)."""
    domain = doc.metadata.get(DOMAIN_KEY, "target")
    return domain if domain in DOMAINS else "target"
