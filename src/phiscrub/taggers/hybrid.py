"""The hybrid tagger of seed 001 (Lee et al. 2017): rules + CRFs, merged and reconciled.

``HybridTagger(HybridSettings(...))`` runs, per note::

    rules     the ``rules`` pipeline of phiscrub.detect (regular PHI, dictionaries)
    crf       a quantitative CRF (DATE, AGE, CONTACT, ID) and a name CRF (NAME, LOCATION,
              PROFESSION) over one shared feature pass (``crfs="two"``), or one CRF over
              every category (``crfs="one"``)
    bare_numbers  the CRF's lone AGE/DATE numbers without an age word or a year's digits
              are dropped (``hybrid_numbers``)
    merge     rule priority (well-formed categories, and names and places, whose rule
              spans grow over the CRF's) (``hybrid_steps.merge``), then ``trim_names``
    professions  PROFESSION spans whose head cannot name a job or that are a clinician's
              role are dropped, the others grow over a job's modifiers
              (``hybrid_professions``)
    fax_or_phone, drop_credentials, drop_unknown_states, id_by_context, place_or_organization,
    hospital_or_organization, generic_places, hospital_units, name_roles            error correction
    doctor_after_title, type_counting, propagate                     reconciliation

Every step after ``crf`` is a pure function on spans (``hybrid_steps``) and can be switched
off per call (``predict(doc, disable={"propagate"})``) or in the settings.
``predict_patient(docs)`` reconciles over all the notes of one patient (type counting and
propagation across notes). The CRFs decode with ``CompiledCRF`` (numpy weights, features
summed per word type), Viterbi by default, or the recall-bias threshold of ``decode.py``.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Collection, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any, ClassVar

import pycrfsuite  # type: ignore[import-untyped]

from phiscrub.errors import UsageError
from phiscrub.features import CorpusStats, FeatureConfig, FeatureExtractor
from phiscrub.span import Document, Span
from phiscrub.taggers import hybrid_steps as steps
from phiscrub.taggers import truecase
from phiscrub.taggers.base import Marginals, TaggerState
from phiscrub.taggers.compiled import CompiledCRF
from phiscrub.taggers.crf import CRFSettings
from phiscrub.taggers.decode import OUTSIDE, ArrayDecoder, score_spans
from phiscrub.taggers.hybrid_ids import id_by_context
from phiscrub.taggers.hybrid_joins import name_joins
from phiscrub.taggers.hybrid_numbers import bare_numbers
from phiscrub.taggers.hybrid_places import generic_places
from phiscrub.taggers.hybrid_professions import professions
from phiscrub.taggers.hybrid_tidy import clinical_filter, tidy, trim_names
from phiscrub.taggers.hybrid_train import CRF_GROUPS, train_groups
from phiscrub.taggers.hybrid_units import hospital_units, institution_edges
from phiscrub.text import Token, bio_to_spans, tokenize

__all__ = ["STEPS", "HybridSettings", "HybridTagger"]

#: the switchable steps, in order
STEPS = (
    "tidy",
    "clinical_filter",
    "rules",
    "bare_numbers",
    "merge",
    "trim_names",
    "professions",
    "fax_or_phone",
    "drop_credentials",
    "drop_unknown_states",
    "id_by_context",
    "place_or_organization",
    "hospital_or_organization",
    "generic_places",
    "hospital_units",
    "institution_edges",
    "name_roles",
    "doctor_after_title",
    "type_counting",
    "propagate",
    "name_joins",
)
STATS_FILE = "stats.json"
#: notes decoded together (see chain.py), at most, and their characters, at most, counting
#: each note as long as the longest (the batch is padded to it): bounds the decoder's
#: arrays (about 30 MB each at the limit), which it keeps for the next batch
BATCH = 64
BATCH_CHARS = 64 * 4096


def batches(lengths: Sequence[int]) -> list[list[int]]:
    """Indices of notes of these lengths in decoding batches of similar length."""
    out: list[list[int]] = []
    for i in sorted(range(len(lengths)), key=lengths.__getitem__):
        last = out[-1] if out else None
        if last is None or len(last) >= BATCH or (len(last) + 1) * lengths[i] > BATCH_CHARS:
            out.append([i])
        else:
            last.append(i)
    return out


@dataclass(frozen=True, slots=True)
class HybridSettings:
    """How the hybrid is built and run (stored in the model archive).

    ``crfs``: ``two`` (seed 001) or ``one``; ``fill``: rule spans of the categories
    without rule priority (PROFESSION) fill places no CRF span covers; ``disabled``:
    steps switched off;
    ``min_score``: the confidence a NAME or ID span needs to be propagated;
    ``scores``: compute span scores from the CRF marginals (else Viterbi spans score 1).
    """

    crfs: str = "two"
    fill: bool = True
    disabled: tuple[str, ...] = ()
    min_score: float = 0.9
    scores: bool = True
    crf: CRFSettings = field(default_factory=CRFSettings)

    def __post_init__(self) -> None:
        if self.crfs not in CRF_GROUPS:
            raise UsageError(f"crfs must be one of {', '.join(CRF_GROUPS)}")
        unknown = set(self.disabled) - set(STEPS)
        if unknown:
            raise UsageError(f"unknown hybrid step(s): {', '.join(sorted(unknown))}")

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["disabled"] = list(self.disabled)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HybridSettings:
        data = dict(data)
        try:
            crf = CRFSettings(**data.pop("crf", {}))
            return cls(crf=crf, disabled=tuple(data.pop("disabled", ())), **data)
        except TypeError:
            raise UsageError("the hybrid settings of the model are not recognised") from None


class HybridTagger:
    """Rules + CRFs + merge + correction + reconciliation (see the module docstring)."""

    kind: ClassVar[str] = "hybrid"

    def __init__(
        self, features: FeatureConfig | None = None, settings: HybridSettings | None = None
    ) -> None:
        self.features = features or FeatureConfig()
        if not CompiledCRF.supports(self.features):
            raise UsageError("the hybrid tagger does not support syntactic-bigram features")
        self.settings = settings or HybridSettings()
        self.stats: CorpusStats | None = None
        self.models: dict[str, bytes] = {}
        self._compiled: CompiledCRF | None = None
        self._groups = list(CRF_GROUPS[self.settings.crfs])

    # -- training -----------------------------------------------------------------
    def fit(self, docs: Sequence[Document], layer: str = "gold", workers: int = 1) -> None:
        if not docs:
            raise UsageError("no training documents", hint="pass at least one annotated note")
        groups = CRF_GROUPS[self.settings.crfs]
        self.stats, models = train_groups(
            docs, groups, self.features, self.settings.crf, layer, workers
        )
        self._load(models)

    def _load(self, models: dict[str, bytes]) -> None:
        taggers = []
        for name in self._groups:
            tagger = pycrfsuite.Tagger()
            tagger.open_inmemory(models[name])
            taggers.append(tagger)
        extractor = FeatureExtractor(self.features, self.stats)
        self._compiled = CompiledCRF.from_taggers(taggers, extractor)
        self.models = dict(models)

    def _require(self) -> CompiledCRF:
        if self._compiled is None:
            raise UsageError("the hybrid tagger is not trained", hint="call fit() or load a model")
        return self._compiled

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(sorted({lab for c in self._require().chains for lab in c.labels}))

    def with_settings(self, **changes: Any) -> HybridTagger:
        """The same models with other run-time settings (``threshold`` goes to the CRFs)."""
        threshold = changes.pop("threshold", self.settings.crf.threshold)
        crf = replace(self.settings.crf, threshold=threshold)
        other = HybridTagger(self.features, replace(self.settings, crf=crf, **changes))
        other.stats, other.models, other._compiled = self.stats, self.models, self._compiled
        return other

    def with_threshold(self, threshold: float | None) -> HybridTagger:
        return self.with_settings(threshold=threshold)

    # -- the CRFs -----------------------------------------------------------------
    def crf_spans(self, docs: Sequence[Document]) -> list[list[Span]]:
        """The spans of every CRF of the hybrid for each note (they may overlap across
        CRFs). Notes are decoded in batches of similar length (``chain.py``)."""
        compiled = self._require()
        out: list[list[Span]] = [[] for _ in docs]
        for batch in batches([len(d.text) for d in docs]):
            tokens = [tokenize(docs[i].text) for i in batch]
            emits = [
                compiled.emissions(docs[i].text, t) for i, t in zip(batch, tokens, strict=True)
            ]
            for k, name in enumerate(self._groups):
                found = self._chain_spans([docs[i].text for i in batch], tokens, emits, k, name)
                for i, spans in zip(batch, found, strict=True):
                    out[i] += spans
        return out

    def _chain_spans(
        self, texts: list[str], tokens: list[list[Token]], emits: list[Any], k: int, name: str
    ) -> list[list[Span]]:
        compiled, source = self._require(), "crf." + name
        labels = compiled.chains[k].labels
        threshold = self.settings.crf.threshold
        if threshold is not None:
            probs = compiled.marginals(emits, k)
            decoder = ArrayDecoder(labels)
            return [
                decoder(text, toks, p, threshold, source)
                for text, toks, p in zip(texts, tokens, probs, strict=True)
            ]
        tags = compiled.decode(emits, k)
        spans = [bio_to_spans(x, t, g, source) for x, t, g in zip(texts, tokens, tags, strict=True)]
        if not self.settings.scores or OUTSIDE not in labels:
            return spans
        outside = labels.index(OUTSIDE)
        probs = compiled.marginals(emits, k)
        return [
            score_spans(sp, toks, p[:, outside].tolist()) if sp else sp
            for sp, toks, p in zip(spans, tokens, probs, strict=True)
        ]

    # -- the pipeline -------------------------------------------------------------
    def _off(self, disable: Collection[str]) -> frozenset[str]:
        unknown = set(disable) - set(STEPS)
        if unknown:
            raise UsageError(
                f"unknown hybrid step(s): {', '.join(sorted(unknown))}",
                hint=f"the steps are: {', '.join(STEPS)}",
            )
        return frozenset(disable) | frozenset(self.settings.disabled)

    def _note_steps(self, doc: Document, crf: list[Span], off: frozenset[str]) -> list[Span]:
        """Rules, merge, error correction and the per-note title rule."""
        if "tidy" not in off:
            crf = tidy(doc.text, crf)
        if "clinical_filter" not in off:
            crf = clinical_filter(doc.text, crf)
        rules = _rules().run(doc) if "rules" not in off else []
        if "bare_numbers" not in off:
            names = [s for s in (*crf, *rules) if s.category == "NAME"]
            crf = bare_numbers(doc.text, crf, names)
        if "merge" in off:
            spans = steps.merge([], crf + rules, priority=(), fill=False)
        else:
            spans = steps.merge(rules, crf, fill=self.settings.fill, text=doc.text)
        if "trim_names" not in off:
            spans = trim_names(doc.text, spans)
        if "professions" not in off:
            spans = professions(doc.text, spans)
        if "fax_or_phone" not in off:
            spans = steps.fax_or_phone(doc.text, spans)
        if "drop_credentials" not in off:
            spans = steps.drop_credentials(doc.text, spans)
        if "drop_unknown_states" not in off:
            spans = steps.drop_unknown_states(doc.text, spans)
        if "id_by_context" not in off:
            spans = id_by_context(doc.text, spans)
        if "place_or_organization" not in off:
            spans = steps.place_or_organization(doc.text, spans)
        if "hospital_or_organization" not in off:
            spans = steps.hospital_or_organization(doc.text, spans)
        if "generic_places" not in off:
            spans = generic_places(doc.text, spans)
        if "hospital_units" not in off:
            spans = hospital_units(doc.text, spans)
        if "institution_edges" not in off:
            spans = institution_edges(doc.text, spans)
        if "name_roles" not in off:
            spans = steps.name_roles(doc.text, spans)
        if "doctor_after_title" not in off:
            spans = steps.doctor_after_title(doc.text, spans)
        return spans

    def _reconcile(
        self, texts: list[str], groups: list[list[Span]], off: frozenset[str]
    ) -> list[list[Span]]:
        if "type_counting" not in off:
            groups = steps.type_counting(groups)
        if "propagate" not in off:
            groups = steps.propagate(texts, groups, self.settings.min_score)
        if "name_joins" not in off:
            groups = [name_joins(t, g) for t, g in zip(texts, groups, strict=True)]
        return groups

    def predict_many(
        self, docs: Sequence[Document], disable: Collection[str] = (), by_patient: bool = False
    ) -> list[list[Span]]:
        """The spans of each note; reconciled within each note, or across the notes of each
        patient with ``by_patient``. Faster per note than ``predict`` (batched decoding).
        A note written all in lower case is tagged on a copy with its capitals restored
        (``truecase.py``)."""
        off = self._off(disable)
        originals, docs = docs, [truecase.proxy(d) for d in docs]
        notes = [
            self._note_steps(d, c, off) for d, c in zip(docs, self.crf_spans(docs), strict=True)
        ]
        if not by_patient:
            done = [
                self._reconcile([d.text], [n], off)[0] for d, n in zip(docs, notes, strict=True)
            ]
            return [truecase.restore(d, n) for d, n in zip(originals, done, strict=True)]
        out: list[list[Span]] = [[] for _ in docs]
        patients: dict[str, list[int]] = {}
        for i, d in enumerate(docs):
            patients.setdefault(d.patient_id, []).append(i)
        for members in patients.values():
            texts = [docs[i].text for i in members]
            done = self._reconcile(texts, [notes[i] for i in members], off)
            for i, spans in zip(members, done, strict=True):
                out[i] = truecase.restore(originals[i], spans)
        return out

    def predict(self, doc: Document, disable: Collection[str] = ()) -> list[Span]:
        """The spans of one note, reconciled within the note."""
        return self.predict_many([doc], disable)[0]

    def predict_patient(
        self, docs: Sequence[Document], disable: Collection[str] = ()
    ) -> list[list[Span]]:
        """The spans of each of one patient's notes, reconciled across the notes."""
        off = self._off(disable)
        originals, docs = docs, [truecase.proxy(d) for d in docs]
        notes = [
            self._note_steps(d, c, off) for d, c in zip(docs, self.crf_spans(docs), strict=True)
        ]
        done = self._reconcile([d.text for d in docs], notes, off)
        return [truecase.restore(d, n) for d, n in zip(originals, done, strict=True)]

    def predict_marginals(self, doc: Document) -> Marginals:
        """Token marginals of the CRFs, combined: P(O) is the product of the CRFs' P(O);
        a PHI tag of one CRF weighs its probability times the other CRFs' P(O)."""
        compiled = self._require()
        tokens = tokenize(doc.text)
        emits = [compiled.emissions(doc.text, tokens)]
        per_chain = [
            [
                dict(zip(c.labels, row, strict=True))
                for row in compiled.marginals(emits, k)[0].tolist()
            ]
            for k, c in enumerate(compiled.chains)
        ]
        out: Marginals = []
        for i, tok in enumerate(tokens):
            outs = [m[i].get(OUTSIDE, 0.0) for m in per_chain]
            probs: dict[str, float] = {OUTSIDE: functools.reduce(lambda a, b: a * b, outs)}
            for k, m in enumerate(per_chain):
                rest = probs[OUTSIDE] / outs[k] if outs[k] > 0 else 0.0
                for tag, p in m[i].items():
                    if tag != OUTSIDE:
                        probs[tag] = probs.get(tag, 0.0) + p * rest
            z = sum(probs.values()) or 1.0
            out.append((tok, {t: p / z for t, p in probs.items()}))
        return out

    # -- persistence --------------------------------------------------------------
    def export(self) -> TaggerState:
        self._require()
        files = {f"{name}.crf.model": self.models[name] for name in self._groups}
        if self.stats is not None:
            files[STATS_FILE] = json.dumps(self.stats.to_dict()).encode()
        return TaggerState(self.kind, self.features, self.labels, self.settings.to_dict(), files)

    @classmethod
    def restore(cls, state: TaggerState) -> HybridTagger:
        tagger = cls(state.features, HybridSettings.from_dict(state.settings))
        if STATS_FILE in state.files:
            tagger.stats = CorpusStats.from_dict(json.loads(state.files[STATS_FILE]))
        try:
            tagger._load({n: state.files[f"{n}.crf.model"] for n in tagger._groups})
        except (KeyError, ValueError, OSError):
            raise UsageError("a CRF model file of the hybrid is missing or unreadable") from None
        return tagger


@functools.cache
def _rules() -> Any:
    from phiscrub.detect import get_pipeline

    return get_pipeline("rules")
