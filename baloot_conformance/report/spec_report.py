"""Reports of ``spec diff`` and ``infer``: text, Markdown and JSON.

These only render what :mod:`baloot_conformance.compare.diff`,
:mod:`~baloot_conformance.compare.witness` and :mod:`baloot_conformance.compare.inference`
decided.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from baloot_conformance.compare.diff import Difference
from baloot_conformance.compare.inference import Inference
from baloot_conformance.compare.witness import Witness, witness_words

DiffFormat = Literal["text", "markdown", "json"]


def witness_json(witness: Witness | None) -> dict[str, Any] | None:
    if witness is None:
        return None
    return {
        "passes": witness.passes,
        "fails": witness.fails,
        "position": witness.position,
        "rule": witness.rule_id,
        "message": witness.message,
        "tries": witness.tries,
        "btn": witness.text,
    }


def render_diff(
    a: str,
    b: str,
    differences: Sequence[Difference],
    witnesses: Mapping[str, Witness | None] | None,
    fmt: DiffFormat,
) -> str:
    """The differences between rulesets ``a`` and ``b`` (``id@version``), with the witness of
    each when ``witnesses`` is given (``None`` for a difference none was found for)."""
    if fmt == "json":
        return (
            json.dumps(
                {
                    "a": a,
                    "b": b,
                    "differences": [
                        {
                            "rule": d.rule_id,
                            "effects": list(d.effects),
                            "changes": [
                                {"parameter": name, "a": va, "b": vb} for name, va, vb in d.changes
                            ],
                            "details": list(d.details),
                            **(
                                {"witness": witness_json(witnesses.get(d.rule_id))}
                                if witnesses is not None
                                else {}
                            ),
                        }
                        for d in differences
                    ],
                },
                indent=2,
                ensure_ascii=False,
            )
            + "\n"
        )
    markdown = fmt == "markdown"
    item = "- " if markdown else "  "  # how a line under a difference starts
    lines: list[str] = []
    head = f"{a} and {b}: {len(differences)} rules differ"
    lines += [f"# {head}", ""] if markdown else [head, ""]
    for d in differences:
        effects = ", ".join(d.effects)
        lines.append(f"## `{d.rule_id}` ({effects})" if markdown else f"{d.rule_id}  [{effects}]")
        lines += [f"{item}{detail}" for detail in d.details]
        if witnesses is None:
            lines.append("")
            continue
        witness = witnesses.get(d.rule_id)
        if witness is None:
            lines.append(
                f"{item}no witness found: the generated hands never showed this difference "
                "(it may have no effect together with the other rules)"
            )
        else:
            lines.append(f"{item}witness: {witness_words(witness)}")
            text = witness.text.rstrip()
            if markdown:
                lines += ["", "```", text, "```"]
            else:
                lines += ["    " + line if line else "" for line in text.split("\n")]
        lines.append("")
    if witnesses is not None:
        missing = sum(1 for d in differences if witnesses.get(d.rule_id) is None)
        lines.append(f"{len(differences) - missing} of {len(differences)} differences witnessed")
    return "\n".join(lines).rstrip() + "\n"


def render_inference(result: Inference, overlay: str | None, fmt: Literal["text", "json"]) -> str:
    """The ranking, the unexercised rules and the overlay of an :func:`infer` run."""
    if fmt == "json":
        document = {
            "best": list(result.best),
            "ranking": [
                {
                    "ruleset": f.ruleset,
                    "hands": f.hands,
                    "failed": f.failed,
                    "divergences": f.divergences,
                }
                for f in result.ranking
            ],
            "unexercised": [
                {"rule": rule_id, "also_fit": list(values)}
                for rule_id, values in result.unexercised
            ],
            "overlay": [v.label for v in result.overlay],
            "overlay_yaml": overlay,
        }
        return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    width = max(len(f.ruleset) for f in result.ranking)
    lines = ["ruleset".ljust(width) + "  failed hands  root divergences"]
    for f in result.ranking:
        lines.append(f"{f.ruleset.ljust(width)}  {f.failed:>6} / {f.hands:<5}  {f.divergences:>6}")
    lines.append("")
    if len(result.best) == 1:
        lines.append(f"best fit: {result.best[0]}")
    else:
        lines.append(
            f"best fit: {result.best[0]}, tied with {', '.join(result.best[1:])} "
            "(these transcripts cannot tell them apart)"
        )
    if result.unexercised:
        lines += ["", "rules these transcripts never exercised (they pass under other values too):"]
        for rule_id, labels in result.unexercised:
            shown = ", ".join(_short(label[len(rule_id) + 1 :]) for label in labels[:4])
            more = f" and {len(labels) - 4} more" if len(labels) > 4 else ""
            lines.append(f"  {rule_id}: also {shown}{more}")
    if result.overlay and result.overlay_fit is not None:
        lines += [
            "",
            f"with {len(result.overlay)} change(s), {result.overlay_fit.failed} of "
            f"{result.overlay_fit.hands} hands fail; the overlay:",
            "",
            (overlay or "").rstrip(),
        ]
    elif result.ranking[0].failed:
        lines += ["", "no single option change makes more of these transcripts pass"]
    return "\n".join(lines).rstrip() + "\n"


def _short(text: str, width: int = 48) -> str:
    """A parameter=value label cut to ``width`` characters."""
    return text if len(text) <= width else text[: width - 3] + "..."
