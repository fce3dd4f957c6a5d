"""The semantic difference of two trick rulesets, rule by rule.

The family's counterpart of :mod:`baloot_conformance.compare.diff`: every rule whose
parameters (its mechanism: the rule without its statement, sources, notes and examples)
differ between two rulesets, each changed parameter in words, and what a difference in that
rule can change in a transcript's verdict. A rule one ruleset has and the other lacks (an
optional rule such as ``scoring.pot.renege``) is a difference too. Witness hands are
:mod:`.witness`'s.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from baloot_conformance.family.rules.loading import RULE_SECTIONS
from baloot_conformance.family.rules.model import TrickRuleset
from baloot_conformance.rules.ruleset import mechanism

Effect = Literal["legality", "claims", "score", "game_end"]

#: What a rule's difference can change, by rule ID (the longest matching prefix decides): the
#: table, the phases and the play decide which events are legal; the scoring decides the
#: hand's claims (the pot, the payments) and the session's balance.
_EFFECTS: dict[str, tuple[Effect, ...]] = {
    "table": ("legality",),
    "table.dealer": ("legality", "claims"),
    "contracts": ("legality",),
    "phases": ("legality",),
    "phases.ante": ("legality", "claims"),
    "phases.draw.lone_player": ("legality", "claims"),
    "phases.tricks": ("legality", "claims"),
    "play": ("legality", "claims"),
    "scoring": ("claims", "score"),
    "game": ("game_end",),
}


def effects_of(rule_id: str) -> tuple[Effect, ...]:
    """What a difference in ``rule_id`` can change in a verdict."""
    parts = rule_id.split(".")
    for n in range(len(parts), 0, -1):
        found = _EFFECTS.get(".".join(parts[:n]))
        if found:
            return found
    return ("legality",)


@dataclass(frozen=True)
class Difference:
    """One rule on which two trick rulesets disagree."""

    rule_id: str
    changes: tuple[tuple[str, Any, Any], ...]
    """Each changed parameter: its name, the first ruleset's value, the second's."""
    details: tuple[str, ...]
    """What changes, in words."""
    effects: tuple[Effect, ...]
    rule_a: Mapping[str, Any] | None = field(repr=False)
    rule_b: Mapping[str, Any] | None = field(repr=False)
    """The two rules whole, as plain data; ``None`` where the ruleset lacks the rule."""


def trick_rule_documents(ruleset: TrickRuleset) -> dict[str, Mapping[str, Any]]:
    """Every rule of a trick ruleset as plain data, by rule ID, in document order."""
    return {
        f"{section}.{name}": rule
        for section in RULE_SECTIONS
        for name, rule in ruleset.document.get(section, {}).items()
        if isinstance(rule, Mapping)
    }


def diff_trick_rulesets(a: TrickRuleset, b: TrickRuleset) -> list[Difference]:
    """The rules whose parameters differ between ``a`` and ``b``: ``a``'s in document order,
    then those only ``b`` has."""
    rules_a, rules_b = trick_rule_documents(a), trick_rule_documents(b)
    found: list[Difference] = []
    for rule_id in dict.fromkeys([*rules_a, *rules_b]):
        rule_a, rule_b = rules_a.get(rule_id), rules_b.get(rule_id)
        old = mechanism(rule_a) if rule_a is not None else {}
        new = mechanism(rule_b) if rule_b is not None else {}
        if rule_a is not None and rule_b is not None and old == new:
            continue
        changes = tuple(
            (name, old.get(name), new.get(name))
            for name in dict.fromkeys([*old, *new])
            if old.get(name) != new.get(name)
        )
        details: tuple[str, ...]
        if rule_a is None or rule_b is None:
            missing = "first" if rule_a is None else "second"
            details = (f"the rule is absent from the {missing} ruleset",)
        else:
            details = tuple(f"{name}: {words(va)} -> {words(vb)}" for name, va, vb in changes)
        found.append(Difference(rule_id, changes, details, effects_of(rule_id), rule_a, rule_b))
    return found


def words(value: Any) -> str:
    """A parameter's value in a line of text."""
    if value is None:
        return "(absent)"
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    return str(value).lower() if isinstance(value, bool) else str(value)
