"""``spec list|show|diff`` and ``infer`` for trick rulesets (Bourré): imported only when a
command meets a trick ruleset or a BTN 2 file, so that a Baloot run never loads the family.

The differences and witnesses come from :mod:`baloot_conformance.family.compare`; they are
printed by Baloot's own report (:func:`baloot_conformance.report.spec_report.render_diff`),
so that both families' diffs read alike in every format.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO

from baloot_conformance.compare.diff import Difference as BalootDifference
from baloot_conformance.compare.witness import Witness as BalootWitness
from baloot_conformance.errors import UnreadableInputError
from baloot_conformance.family.btn.reader import ruleset_reference
from baloot_conformance.family.compare.diff import Difference, diff_trick_rulesets
from baloot_conformance.family.compare.inference import TrickInference, infer_trick
from baloot_conformance.family.compare.witness import Witness, find_witness
from baloot_conformance.family.rules.loading import (
    load_trick_ruleset,
    resolved_trick_yaml,
    shipped_trick_rulesets,
)
from baloot_conformance.family.rules.model import FORMAT, TrickRuleset


def load(reference: str) -> TrickRuleset:
    """A trick ruleset by id or path (a usage error names what is shipped)."""
    return load_trick_ruleset(reference)


def list_rows() -> list[dict[str, str | None]]:
    """The shipped trick rulesets, one row each (``spec list``), with their format."""
    rows: list[dict[str, str | None]] = []
    for name in shipped_trick_rulesets():
        ruleset = load_trick_ruleset(name)
        rows.append(
            {
                "id": ruleset.id,
                "version": ruleset.version,
                "extends": ruleset.lineage[1] if len(ruleset.lineage) > 1 else None,
                "title": ruleset.title,
                "format": FORMAT,
            }
        )
    return rows


def list_text(rows: list[dict[str, str | None]]) -> str:
    """The trick rulesets' block of ``spec list``, after Baloot's."""
    width = max(len(str(row["id"])) for row in rows)
    lines = ["", f"trick rulesets ({FORMAT}):"]
    for row in rows:
        base = f"  (extends {row['extends']})" if row["extends"] else ""
        lines.append(f"{row['id']!s:<{width}}  {row['version']!s:<7}  {row['title']}{base}")
    return "\n".join(lines) + "\n"


def show(reference: str, fmt: str, out: TextIO) -> None:
    """``spec show`` of a trick ruleset: resolved, as YAML or JSON."""
    ruleset = load_trick_ruleset(reference)
    if fmt == "json":
        json.dump(ruleset.document, out, indent=2, ensure_ascii=False)
        out.write("\n")
    else:
        out.write(resolved_trick_yaml(ruleset))


def diff(
    a_ref: str, b_ref: str, witness: bool, tries: int, fmt: str, out: TextIO, err: TextIO
) -> bool:
    """``spec diff`` of two trick rulesets; whether every difference was witnessed (always
    ``True`` without ``witness``)."""
    from baloot_conformance.report.spec_report import render_diff

    a, b = load_trick_ruleset(a_ref), load_trick_ruleset(b_ref)
    differences = diff_trick_rulesets(a, b)
    witnesses: dict[str, BalootWitness | None] | None = None
    if witness:
        witnesses = {}
        for difference in differences:
            print(f"searching a witness for {difference.rule_id} ...", file=err)
            found = find_witness(a, b, difference, tries)
            witnesses[difference.rule_id] = None if found is None else _baloot_witness(found)
    name_a, name_b = f"{a.id}@{a.version}", f"{b.id}@{b.version}"
    shown = [_baloot_difference(d) for d in differences]
    out.write(render_diff(name_a, name_b, shown, witnesses, fmt))  # type: ignore[arg-type]
    return witnesses is None or all(w is not None for w in witnesses.values())


def _baloot_difference(d: Difference) -> BalootDifference:
    return BalootDifference(
        d.rule_id, d.changes, d.details, d.effects, d.rule_a or {}, d.rule_b or {}
    )


def _baloot_witness(w: Witness) -> BalootWitness:
    return BalootWitness(
        text=w.text,
        passes=w.passes,
        fails=w.fails,
        position=w.position,
        rule_id=w.rule_id,
        message=w.message,
        tries=w.tries,
    )


def infer(
    files: list[str], rulesets: str | None, fmt: str, quiet: bool, out: TextIO, err: TextIO
) -> bool:
    """``infer`` on BTN 2 files; whether the best ruleset passes every hand."""
    transcripts = []
    for name in files:
        try:
            transcripts.append((name, Path(name).read_text("utf-8")))
        except (OSError, UnicodeDecodeError) as exc:
            raise UnreadableInputError(f"cannot read {name}: {exc}") from None
    names = rulesets.split(",") if rulesets else _family_of(transcripts)
    candidates: list[TrickRuleset] = [load_trick_ruleset(n.strip()) for n in names if n.strip()]
    if not candidates:
        raise UnreadableInputError("--rulesets names no ruleset")
    say = None if quiet else (lambda line: print(line, file=err))
    result = infer_trick(transcripts, candidates, progress=say)
    out.write(inference_json(result) if fmt == "json" else inference_text(result))
    return result.ranking[0].failed == 0


def _family_of(transcripts: list[tuple[str, str]]) -> list[str]:
    """The default candidates of ``infer``: the shipped trick rulesets of the games the files
    name in their ``[Ruleset]`` tags (a game's common rules and its profiles), or every
    shipped one when a file names none the kit ships."""
    shipped = list(shipped_trick_rulesets())
    games: set[str] = set()
    for path, text in transcripts:
        reference = ruleset_reference(text, path)
        name = None if reference is None else reference.split("@")[0]
        if name is None or name not in shipped:
            return shipped
        games.add(load_trick_ruleset(name).lineage[-1])
    return [n for n in shipped if load_trick_ruleset(n).lineage[-1] in games]


def inference_text(result: TrickInference) -> str:
    """The ranking, best first; tied candidates share a rank and say so."""
    width = max(len(c.ruleset) for c in result.ranking)
    lines = [
        f"{result.hands} hands in {result.files} files; rulesets ranked by failed hands, "
        "then root divergences",
        "",
    ]
    for c in result.ranking:
        tied = f"  (tied with {', '.join(c.tied)})" if c.tied else ""
        lines.append(
            f"{c.rank:>3}  {c.ruleset:<{width}}  {c.failed:>5} failed  "
            f"{c.divergences:>5} divergences{tied}"
        )
        if c.first is not None:
            lines.append(f"     first: {c.first}")
    best = result.best
    lines.append("")
    if len(best) == 1:
        lines.append(f"best: {best[0]}")
    else:
        lines.append(
            f"best: a tie between {', '.join(best)}: these games cannot tell them apart "
            "(no hand reaches the rules on which they differ)"
        )
    return "\n".join(lines) + "\n"


def inference_json(result: TrickInference) -> str:
    data: dict[str, Any] = {
        "files": result.files,
        "hands": result.hands,
        "best": list(result.best),
        "ranking": [
            {
                "ruleset": c.ruleset,
                "rank": c.rank,
                "failed": c.failed,
                "divergences": c.divergences,
                "first": c.first,
                "tied": list(c.tied),
            }
            for c in result.ranking
        ],
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
