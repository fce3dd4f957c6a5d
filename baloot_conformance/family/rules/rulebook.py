"""The generated rulebooks of the trick family's games: ``docs/<game>-rulebook.md`` (Bourré,
Barbu, Hearts), one page a game: its common rules and its profiles.

The family's counterpart of :mod:`baloot_conformance.rules.rulebook` (whose Baloot pages it leaves
as they are): every rule of the common rules (``bourre``) by its ID, with its statement, its
parameters and the sources it cites, and under it each profile that reads the rule otherwise, with
that profile's statement, parameters and sources; then each profile's differences, what each ruleset
(the common rules too) leaves unmodelled, and the bibliography with the rules citing each key. Its
witness hands are printed by ``spec diff bourre PROFILE --witness``. A test keeps the page in step:
``python -m baloot_conformance.family.rules.rulebook --write`` rewrites it.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from baloot_conformance.family.rules.loading import (
    RULE_SECTIONS,
    load_trick_ruleset,
    shipped_trick_rulesets,
)
from baloot_conformance.family.rules.model import TrickRuleset
from baloot_conformance.rules.ruleset import mechanism

#: Each game's page, relative to the repository.
PAGE = Path("docs") / "bourre-rulebook.md"


def page_of(game: str) -> Path:
    """The page of ``game`` (a common rules' id), relative to the repository."""
    return Path("docs") / f"{game}-rulebook.md"


def games() -> dict[str, list[TrickRuleset]]:
    """The shipped trick rulesets by game: each game's common rules first, then its profiles."""
    shipped = [load_trick_ruleset(n) for n in shipped_trick_rulesets()]
    by_game: dict[str, list[TrickRuleset]] = {}
    for ruleset in sorted(shipped, key=lambda r: len(r.lineage)):
        by_game.setdefault(ruleset.lineage[-1], []).append(ruleset)
    return by_game


def _rules(ruleset: TrickRuleset) -> dict[str, Mapping[str, Any]]:
    return {
        f"{section}.{name}": rule
        for section in RULE_SECTIONS
        for name, rule in ruleset.document.get(section, {}).items()
        if isinstance(rule, Mapping)
    }


def _parameters(rule: Mapping[str, Any]) -> str:
    shown = []
    for name, value in mechanism(rule).items():
        if name == "examples":
            continue
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        shown.append(f"`{name}: {' '.join(str(text).split())}`")
    return ", ".join(shown) or "(no parameters: the rule's words only)"


def _sources(rule: Mapping[str, Any]) -> str:
    return "; ".join(str(s) for s in rule.get("sources", ())) or "—"


def _one_line(text: Any) -> str:
    return " ".join(str(text).split())


def rulebook_markdown(rulesets: Sequence[TrickRuleset] | None = None) -> str:
    """A game's page, from its rulesets (the first is the common rules; Bourré's by
    default)."""
    shipped = list(rulesets or games()["bourre"])
    base, profiles = shipped[0], shipped[1:]
    base_rules = _rules(base)
    readings: dict[str, list[tuple[TrickRuleset, Mapping[str, Any]]]] = {}
    for profile in profiles:
        for rule_id, rule in _rules(profile).items():
            if mechanism(rule) != mechanism(base_rules.get(rule_id, {})):
                readings.setdefault(rule_id, []).append((profile, rule))
    lines = [
        f"# The rulebook of {base.title}",
        "",
        f"Generated from `spec/rulesets/{base.id}.yaml` and its profiles in `spec/profiles/`",
        "(`python -m baloot_conformance.family.rules.rulebook --write`); the YAML is normative.",
        f"Every rule of `{base.id}` (format `trick-ruleset/1`, see `docs/trick-ruleset.md`) by",
        "its ID, with the profiles that read it otherwise. A witness hand for each difference,",
        "a BTN 2 hand that passes under one reading and fails under the other, is printed by",
        f"`baloot-conformance spec diff {base.id} PROFILE --witness`.",
        "",
        "| ruleset | title | differs in |",
        "|---|---|---|",
    ]
    for ruleset in shipped:
        differs = [rule_id for rule_id, found in readings.items() for p, _ in found if p is ruleset]
        shown = ", ".join(f"`{r}`" for r in differs) or "— (the common rules)"
        lines.append(f"| `{ruleset.id}` {ruleset.version} | {ruleset.title} | {shown} |")
    for section in RULE_SECTIONS:
        lines += ["", f"## `{section}`"]
        for rule_id, rule in base_rules.items():
            if rule_id.split(".", 1)[0] != section:
                continue
            lines += ["", f"### `{rule_id}`", "", _one_line(rule.get("statement", ""))]
            lines += ["", f"- parameters: {_parameters(rule)}", f"- sources: {_sources(rule)}"]
            for profile, other in readings.get(rule_id, ()):
                lines += [
                    "",
                    f"**`{profile.id}` reads it otherwise:** {_one_line(other.get('statement'))}",
                    "",
                    f"- parameters: {_parameters(other)}",
                    f"- sources: {_sources(other)}",
                ]
    lines += ["", "## What the rulesets leave unmodelled"]
    for profile in shipped:
        unmodelled = profile.document.get("unmodelled") or ()
        if not unmodelled:
            continue
        lines += ["", f"### `{profile.id}`", ""]
        for entry in unmodelled:
            lines.append(
                f"- `{entry.get('rule')}`: {_one_line(entry.get('says'))} "
                f"*Why not modelled:* {_one_line(entry.get('why'))}"
            )
    lines += ["", "## Sources", "", "| key | source | cited by |", "|---|---|---|"]
    bibliography: dict[str, str] = {}
    for ruleset in shipped:
        bibliography.update({k: v for k, v in ruleset.sources.items() if k not in bibliography})
    for key, text in bibliography.items():
        users = [
            rule_id + ("" if ruleset is base else f" ({ruleset.id})")
            for ruleset in shipped
            for rule_id, rule in _rules(ruleset).items()
            if (ruleset is base or mechanism(rule) != mechanism(base_rules.get(rule_id, {})))
            and any(str(s).split()[0].rstrip(",:") == key for s in rule.get("sources", ()))
        ]
        shown = ", ".join(f"`{u}`" for u in users[:8]) + (
            f" and {len(users) - 8} more" if len(users) > 8 else ""
        )
        lines.append(f"| `{key}` | {_one_line(text)} | {shown or '—'} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":  # pragma: no cover - a maintenance command
    root = Path(__file__).resolve().parents[3]
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m baloot_conformance.family.rules.rulebook --write")
    for game, rulesets in games().items():
        (root / page_of(game)).write_text(rulebook_markdown(rulesets), encoding="utf-8")
        print(f"wrote {root / page_of(game)}")
