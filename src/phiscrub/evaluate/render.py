"""Text renderings of an evaluation report: ours, and the official scorer's layout."""

from __future__ import annotations

from typing import Any

from phiscrub.evaluate.scoring import f1

ROWS = (
    ("binary_token", "Binary token"),
    ("binary_strict", "Binary strict"),
    ("strict", "Entity strict"),
    ("relaxed", "Entity relaxed"),
    ("token", "Token"),
    ("hipaa_binary_token", "HIPAA binary token"),
    ("hipaa_strict", "HIPAA strict"),
    ("hipaa_relaxed", "HIPAA relaxed"),
    ("hipaa_token", "HIPAA token"),
)

# (report key, label) in the order and with the names the official scorer prints
OFFICIAL = (
    ("token", "Token"),
    ("strict", "Strict"),
    ("relaxed", "Relaxed"),
    ("hipaa_token", "HIPPA Token"),  # sic: the official scorer's spelling
    ("hipaa_strict", "HIPAA Strict"),
    ("hipaa_relaxed", "HIPAA Relaxed"),
)


def render_text(report: dict[str, Any], agreement: bool = False) -> str:
    """Our report: binary recall and the leak rate first, because recall protects patients."""
    docs = report["documents"]
    bt = report["binary_token"]["micro"]
    lines = [
        f"documents scored: {docs.get('scored', '?')}"
        + (
            f"   gold without prediction: {len(docs['gold_only'])}" if docs.get("gold_only") else ""
        ),
        f"BINARY TOKEN RECALL {bt['recall']:.4f}   LEAK RATE {report['leak_rate']:.4%} "
        f"({report['leak']['leaked_chars']} of {report['leak']['phi_chars']} PHI letters/digits "
        "left uncovered)",
        "",
        f"{'measure':<22}{'micro P':>9}{'micro R':>9}{'micro F1':>9}"
        f"{'macro P':>9}{'macro R':>9}{'macro F1':>9}{'tp':>7}{'fp':>7}{'fn':>7}",
    ]
    for key, name in ROWS:
        mi, ma = report[key]["micro"], report[key]["macro"]
        lines.append(
            f"{name:<22}{mi['precision']:>9.4f}{mi['recall']:>9.4f}{mi['f1']:>9.4f}"
            f"{ma['precision']:>9.4f}{ma['recall']:>9.4f}{ma['f1']:>9.4f}"
            f"{mi['tp']:>7}{mi['fp']:>7}{mi['fn']:>7}"
        )
    if agreement:
        lines.append("(agreement: F1 is symmetric; precision and recall swap with the annotators)")
    nway = report["nway"]
    lines += [
        "",
        f"token 8-way F {nway['8way']['f1']:.4f}   9-way F {nway['9way']['f1']:.4f}",
        "",
        _per_label(report["per_label"]),
        "",
        _errors(report["errors"]),
    ]
    return "\n".join(lines)


def _per_label(table: dict[str, dict[str, Any]]) -> str:
    head = (
        f"{'label':<16}{'gold':>6}{'pred':>6}{'P':>8}{'R':>8}{'F1':>8}{'relaxR':>8}{'anyTokR':>9}"
    )
    rows = [head]
    for label, r in table.items():
        rows.append(
            f"{label:<16}{r['gold']:>6}{r['pred']:>6}{r['precision']:>8.3f}{r['recall']:>8.3f}"
            f"{r['f1']:>8.3f}{r['relaxed_recall']:>8.3f}{r['token_recall_any_label']:>9.3f}"
        )
    return "\n".join(rows)


def _errors(errors: dict[str, Any]) -> str:
    t = errors["totals"]
    lines = [
        f"errors: missing {t['missing']}  spurious {t['spurious']}  "
        f"type {t['type']}  extent {t['extent']}"
    ]
    for gold, row in errors["type"].items():
        pairs = ", ".join(f"{p} {n}" for p, n in sorted(row.items(), key=lambda x: -x[1]))
        lines.append(f"  type  {gold:<16} -> {pairs}")
    for gold, row in errors["extent"].items():
        lines.append(f"  extent {gold:<15} " + ", ".join(f"{k} {n}" for k, n in row.items()))
    return "\n".join(lines)


def render_official(report: dict[str, Any]) -> str:
    """The summary exactly as ``evaluate.py phi SYSTEM GOLD`` lays it out."""
    fmt = "{:<25}{:<15}{:<15}{:<20}"
    rule = "{:-<25}{:-<15}{:-<15}{:-<20}".format("", "", "", "")
    n = report["documents"].get("scored", 0)
    out: list[str] = []
    for key, label in OFFICIAL:
        mi, ma = report[key]["micro"], report[key]["macro"]
        out.append(fmt.format(f"{label} ({n})", "Measure", "Macro (SD)", "Micro (Primary)"))
        out.append(rule)
        for first, name, key in (("Total", "Precision", "precision"), ("", "Recall", "recall")):
            macro_cell = "{:.4} ({:.2})".format(ma[key], ma[f"{key}_sd"])
            out.append(fmt.format(first, name, macro_cell, f"{mi[key]:.4}"))
        macro_f1 = "{:.4}".format(f1(ma["precision"], ma["recall"]))
        out.append(
            fmt.format("", "F1", macro_f1, "{:.4}".format(f1(mi["recall"], mi["precision"])))
        )
        out.append("\n")
    return "\n".join(out) + "\n"
