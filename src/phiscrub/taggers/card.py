"""The model card (Markdown) written into every model archive, from its metadata."""

from __future__ import annotations

from typing import Any

__all__ = ["render_card"]

POS_NOTE = (
    "Part-of-speech features (seeds 000, 001, 003) are not implemented: no permissively "
    "licensed English POS tagger with a bundled model installs from PyPI or Debian here "
    "(NLTK's models and spaCy's pipelines are downloaded separately at run time; Debian "
    "packages no NLTK data)."
)
SYNTAX_ON = (
    "Syntactic bigrams (seed 000 §6.4.2) come from the Link Grammar parser (Debian "
    "`python3-link-grammar`, LGPL-2.1); tagging with this model needs that parser."
)
SYNTAX_OFF = (
    "Syntactic bigrams (seed 000 §6.4.2) are off in this model. They are available with "
    "the Link Grammar parser (Debian `python3-link-grammar`) and "
    "`FeatureConfig(syntax=True)`, at a large cost in tagging speed."
)
PRIVACY = (
    "A CRF model stores feature strings of its training notes (words, prefixes, "
    "n-grams), so words of those notes, including PHI, can be read back from it. Share a "
    "model only where its training notes could be shared. The frequency statistics leave "
    "out every token inside a gold PHI span and every type seen fewer than twice."
)


def _figures(evaluation: dict[str, Any]) -> list[str]:
    if not evaluation:
        return ["No evaluation figures were recorded with this model."]
    lines = ["| split | measure | precision | recall | F1 |", "|---|---|---|---|---|"]
    for split, measures in sorted(evaluation.items()):
        if not isinstance(measures, dict):
            continue
        for name, prf in measures.items():
            if isinstance(prf, float):  # the leak rate
                lines.append(f"| {split} | {name} | | {prf:.4f} | |")
            elif isinstance(prf, dict) and {"precision", "recall", "f1"} <= set(prf):
                lines.append(
                    f"| {split} | {name} | {prf['precision']:.4f} | {prf['recall']:.4f} | "
                    f"{prf['f1']:.4f} |"
                )
    return lines


def render_card(meta: dict[str, Any]) -> str:
    """Markdown for the archive's MODEL_CARD.md."""
    features = meta.get("features", {})
    on = sorted(k for k, v in features.items() if v is True)
    off = sorted(k for k, v in features.items() if v is False)
    training = meta.get("training", {})
    corpora = training.get("corpora", [])
    labels = sorted({t[2:] for t in meta.get("labels", []) if t != "O"})
    out = [
        f"# phiscrub model: {meta.get('tagger', '?')}",
        "",
        f"- phiscrub {meta.get('phiscrub_version')}, archive format "
        f"{meta.get('format_version')}, created {meta.get('created')}",
        "- Intended use: finding PHI in English clinical notes, as one stage of a "
        "de-identification pipeline; check recall on your own notes before relying on it.",
        "",
        "## Training data",
        "",
    ]
    out += [
        f"- {c.get('name')}: {c.get('documents')} notes, {c.get('patients')} patients"
        f"{' (' + c['role'] + ')' if c.get('role') else ''}"
        for c in corpora
    ] or ["- unknown"]
    if training.get("seconds") is not None:
        out.append(f"- training time: {training['seconds']:.0f} s")
    out += ["", "## Settings", ""]
    out += [f"- {k}: {v}" for k, v in sorted(meta.get("settings", {}).items())]
    out += [
        "",
        "## Features",
        "",
        f"- on: {', '.join(on)}",
        f"- off: {', '.join(off)}",
        f"- window: ±{features.get('window')}",
        "",
        f"- {POS_NOTE}",
        f"- {SYNTAX_ON if features.get('syntax') else SYNTAX_OFF}",
        "",
        f"## Labels ({len(labels)})",
        "",
        ", ".join(labels),
        "",
        "## Evaluation",
        "",
    ]
    out += _figures(meta.get("evaluation", {}))
    out += ["", "## Privacy", "", PRIVACY]
    for note in meta.get("notes", []):
        out += ["", f"- {note}"]
    return "\n".join(out) + "\n"
