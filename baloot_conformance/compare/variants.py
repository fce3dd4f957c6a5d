"""Every other value each parameter of a ruleset can take: the universe of the
live-option test (every option changes a verdict somewhere) and of inference.

:func:`rule_variants` lists, for one ruleset, each rule's other options and the numbers,
lists and formulas the shipped profiles use for it, as :class:`Variant` objects;
:func:`variant_ruleset` builds the ruleset with one variant applied (or ``None`` when that is
no valid ruleset alone).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from baloot_conformance.compare.diff import value_words
from baloot_conformance.rules.loading import isolate
from baloot_conformance.rules.ruleset import (
    TEXT_FIELDS,
    Ruleset,
    canonical_json,
    mechanism,
    rule_documents,
)
from baloot_conformance.rules.validation import fixed_rules, ruleset_schema


@dataclass(frozen=True)
class Variant:
    """A ruleset's rule with one parameter set to another value."""

    rule_id: str
    parameter: str
    value: Any
    changes: Mapping[str, Mapping[str, Any]]
    """The rules to replace (the varied one, and any rule it needs changed with it)."""
    reference: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """What the ruleset to compare with needs changed first: a parameter that acts only
    under another's value is compared with that value set on both sides."""

    @property
    def label(self) -> str:
        return f"{self.rule_id}.{self.parameter}={value_words(self.value)}"


def rule_variants(
    base: Ruleset, pool: Iterable[Ruleset] = (), include_fixed: bool = False
) -> list[Variant]:
    """Every other value each parameter of ``base`` can take: the schema's options (and
    ``true``/``false``), and for numbers, lists and formulas the values the rulesets of
    ``pool`` use. Fixed rules have none unless ``include_fixed``."""
    schema = ruleset_schema()
    fixed = set() if include_fixed else set(fixed_rules())
    seen_values: dict[tuple[str, str], list[Any]] = {}
    for other in pool:
        for rule_id, rule in rule_documents(other).items():
            for name, value in mechanism(rule).items():
                seen_values.setdefault((rule_id, name), []).append(value)
    found: list[Variant] = []
    for rule_id, rule in rule_documents(base).items():
        if rule_id in fixed:
            continue
        section, _, key = rule_id.partition(".")
        fields = schema["properties"][section]["properties"][key]["properties"]
        for name, spec in fields.items():
            if name in TEXT_FIELDS:
                continue
            current = rule.get(name)
            if name == "round2":  # absent means the same as round 1: compare what applies
                current = current or rule.get("option")
            values: list[Any] = list(spec.get("enum", []))
            if spec.get("type") == "boolean":
                values = [True, False]
            if name == "round2":  # optional: absent means the same as round 1
                values = [None, *values]
            values += seen_values.get((rule_id, name), [])
            for value in _unique(values):
                if value == current or (
                    name == "round2" and (value or rule.get("option")) == current
                ):
                    continue
                found.extend(_variant(base, rule_id, dict(rule), name, value))
    return found


def _unique(values: Iterable[Any]) -> list[Any]:
    out: list[Any] = []
    keys: set[str] = set()
    for value in values:
        k = canonical_json(value)
        if k not in keys:
            keys.add(k)
            out.append(value)
    return out


def _variant(
    base: Ruleset, rule_id: str, rule: dict[str, Any], name: str, value: Any
) -> list[Variant]:
    changed = dict(rule)
    if value is None:
        changed.pop(name, None)
    else:
        changed[name] = value
    need = _NEEDS.get((rule_id, name))
    reference: dict[str, Mapping[str, Any]] = {}
    if need is not None and rule.get(need[0]) != need[1]:
        changed[need[0]] = need[1]
        reference[rule_id] = {**rule, need[0]: need[1]}
    changes: dict[str, Mapping[str, Any]] = {rule_id: changed}
    other = _NEEDS_OTHER.get((rule_id, name))
    if other is not None:
        other_id, other_name, other_value = other
        section, _, key = other_id.partition(".")
        needed = {**base.document[section][key], other_name: other_value}
        if needed != base.document[section][key]:
            changes[other_id] = needed
            reference = {**reference, other_id: needed}
    if rule_id == "doubling.chain" and not value:  # no raises: a Sun cannot be raised either
        sun = dict(base.document["doubling"]["sun"])
        changes["doubling.sun"] = {**sun, "max_call": "none"}
    if isolate(base, changes) is None or (reference and isolate(base, reference) is None):
        return []
    return [Variant(rule_id, name, value, changes, reference)]


def variant_ruleset(base: Ruleset, variant: Variant) -> Ruleset:
    """``base`` with the variant applied (the variant's rule needs, too)."""
    derived = isolate(base, variant.changes)
    assert derived is not None  # rule_variants keeps valid variants only
    return derived


#: A parameter that only acts when another of the same rule has a given value.
_NEEDS: dict[tuple[str, str], tuple[str, Any]] = {
    ("play.hokum.partner_winning", "certain_tops"): ("option", "fourth_or_certain_top"),
    ("doubling.gahwa", "points"): ("option", "fixed_points"),
    ("bidding.hokum_confirmation", "ace_faceup_switch"): ("option", "confirm_or_switch"),
    ("projects.limits", "per_player"): ("shared_cards", "across_kinds"),
    ("deal.kawesh", "hand"): ("option", "same_dealer"),
    ("deal.kawesh", "ranks"): ("option", "same_dealer"),
    ("deal.kawesh", "window"): ("option", "same_dealer"),
    ("deal.kawesh", "turn"): ("option", "same_dealer"),
    # A passing hand calls a foul right only where the card stood (a wrong call is judged
    # under either option).
    ("play.fouls", "right_call"): ("option", "stand_until_called"),
}

#: A parameter that only acts when another rule has a given value: (rule, parameter, value).
_NEEDS_OTHER: dict[tuple[str, str], tuple[str, str, Any]] = {
    # A seat that passed is asked again in its round only when every other player answers
    # a Hokum (majlis-baloot's round 2).
    ("bidding.ashkal.eligibility", "after_pass"): (
        "bidding.hokum_responses",
        "option",
        "all_others",
    ),
}
