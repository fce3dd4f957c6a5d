"""The semantic difference of two rulesets, rule by rule.

:func:`diff_rulesets` compares two rulesets: changed card orders as the pairs that swap, point
tables as the ranks whose points change, formulas as the inputs whose results differ, and every
other changed parameter; each :class:`Difference` is classified by what it can change in a
transcript's verdict (legality, claims, score, game end). Witness hands that tell two rulesets
apart are :mod:`~baloot_conformance.compare.witness`'s; every value a parameter can take,
:mod:`~baloot_conformance.compare.variants`'; which ruleset an engine plays,
:mod:`~baloot_conformance.compare.inference`'s. The engine decides every verdict: this package
only builds rulesets and transcripts, and compares verdicts.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from baloot_conformance.rules.model import CONVERSION_VARIABLES, SUN_DOUBLING_VARIABLES
from baloot_conformance.rules.ruleset import Ruleset, mechanism, rule_documents

Effect = Literal["legality", "claims", "score", "game_end"]
#: What a rule's difference can change, by rule ID (the longest matching prefix decides).
_EFFECTS: dict[str, tuple[Effect, ...]] = {
    "cards.deck": ("legality",),
    "cards.order": ("legality", "claims"),
    "cards.points": ("claims", "score"),
    "cards.last_trick": ("claims", "score"),
    "cards.totals": ("score",),
    "deal": ("legality",),
    "bidding": ("legality", "claims"),
    "doubling": ("legality", "claims"),
    "doubling.gahwa": ("score", "game_end"),
    "doubling.tie": ("score",),
    "play": ("legality",),
    "play.first_lead": ("legality", "claims"),
    "play.fouls": ("legality", "claims", "score"),
    "projects": ("score",),
    "projects.declaration": ("legality", "score"),
    "projects.limits": ("legality", "score"),
    "projects.baloot": ("legality", "score"),
    "scoring": ("score",),
    "claims": ("legality", "claims", "score"),
    "game": ("game_end",),
}


def effects_of(rule_id: str) -> tuple[Effect, ...]:
    """What a difference in ``rule_id`` can change in a verdict."""
    parts = rule_id.split(".")
    for n in range(len(parts), 0, -1):
        found = _EFFECTS.get(".".join(parts[:n]))
        if found:
            return found
    return ("score",)  # pragma: no cover - every section is in the table


# --- the semantic difference -----------------------------------------------------------------


@dataclass(frozen=True)
class Difference:
    """One rule on which two rulesets disagree."""

    rule_id: str
    changes: tuple[tuple[str, Any, Any], ...]
    """Each changed parameter: its name, the first ruleset's value, the second's."""
    details: tuple[str, ...]
    """What changes, in words: swapped pairs, changed points, inputs whose results differ."""
    effects: tuple[Effect, ...]
    rule_a: Mapping[str, Any] = field(repr=False)
    rule_b: Mapping[str, Any] = field(repr=False)
    """The two rules whole, as plain data."""


def diff_rulesets(a: Ruleset, b: Ruleset) -> list[Difference]:
    """The rules whose parameters differ between ``a`` and ``b``, in document order."""
    rules_b = rule_documents(b)
    found: list[Difference] = []
    for rule_id, rule_a in rule_documents(a).items():
        rule_b = rules_b[rule_id]
        old, new = mechanism(rule_a), mechanism(rule_b)
        if old == new:
            continue
        changes = tuple(
            (name, old.get(name), new.get(name))
            for name in dict.fromkeys([*old, *new])
            if old.get(name) != new.get(name)
        )
        details = tuple(
            line
            for name, value_a, value_b in changes
            for line in _describe(rule_id, name, value_a, value_b)
        )
        found.append(Difference(rule_id, changes, details, effects_of(rule_id), rule_a, rule_b))
    return found


def _describe(rule_id: str, name: str, a: Any, b: Any) -> list[str]:
    """One changed parameter in words: what :func:`change_notes` says of it, or else its two
    values (a formula's two texts come before what its inputs show)."""
    notes = change_notes(rule_id, name, a, b)
    if name in ("formula", "condition"):
        return [f"{name}: {' '.join(a.split())}  ->  {' '.join(b.split())}", *notes]
    return notes or [f"{name}: {value_words(a)} -> {value_words(b)}"]


def change_notes(rule_id: str, name: str, a: Any, b: Any) -> list[str]:
    """What a changed parameter's two values do not say at a glance: the pairs of an order
    that swap, the ranks whose points change, the inputs on which two formulas differ; none
    for a plain value. A page that shows the two values shows these beside them, so that
    each change is told once."""
    if name == "order" and all(isinstance(x, str) for x in [*a, *b]):
        return [_swaps(a, b)]
    if name == "points" and isinstance(a, dict) and isinstance(b, dict):
        changed = [f"{r} {a.get(r)} -> {b.get(r)}" for r in a if a.get(r) != b.get(r)]
        return ["points: " + ", ".join(changed)]
    if name in ("formula", "condition") and isinstance(a, str) and isinstance(b, str):
        return _formula_inputs(rule_id, name, a, b)
    return []


def value_words(value: Any) -> str:
    if value is None:
        return "(absent)"
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    return str(value).lower() if isinstance(value, bool) else str(value)


def _swaps(a: Sequence[str], b: Sequence[str]) -> str:
    """The pairs of ranks whose order differs: ``order: A/T, 9/A`` (first above in ``a``)."""
    pairs = [
        f"{x}/{y}"
        for x, y in itertools.combinations(a, 2)
        if x in b and y in b and b.index(x) > b.index(y)
    ]
    return "order: " + ", ".join(pairs) + " swap"


def _formula_inputs(rule_id: str, name: str, a: str, b: str) -> list[str]:
    """The inputs on which two formulas give different results (a few, and how many)."""
    from baloot_conformance.rules.formula import parse_formula

    if name == "condition":
        variables = SUN_DOUBLING_VARIABLES
        grid = [0, 50, 98, 99, 100, 101, 102, 120, 151]
        inputs = [{"buyer_total": x, "doubler_total": y} for x in grid for y in grid]
    else:
        variables = CONVERSION_VARIABLES
        total = 130 if "sun" in rule_id else 162
        inputs = [
            {"raw": raw, "other_raw": total - raw, "is_buyer": buyer, "takes_risk": risk}
            for raw in range(total + 1)
            for buyer in (True, False)
            for risk in (True, False)
        ]
    fa, fb = parse_formula(a, variables), parse_formula(b, variables)
    used = fa.variables | fb.variables  # vary only what either formula reads
    reduced = ({k: v for k, v in env.items() if k in used} for env in inputs)
    inputs = list({tuple(env.items()): env for env in reduced}.values())
    differ = [(env, fa.evaluate(env), fb.evaluate(env)) for env in inputs]
    differ = [d for d in differ if d[1] != d[2]]
    if not differ:
        return ["the formulas agree on every input tried"]
    shown = "; ".join(
        ", ".join(f"{k}={value_words(v)}" for k, v in env.items())
        + f": {value_words(x)} vs {value_words(y)}"
        for env, x, y in differ[:4]
    )
    return [f"{len(differ)} of {len(inputs)} inputs differ, e.g. {shown}"]
