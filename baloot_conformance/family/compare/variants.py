"""Every other value each parameter of a trick ruleset can take: the universe of the family's
live-option test (every option value changes a verdict somewhere) and of its inference.

The family's counterpart of :mod:`baloot_conformance.compare.variants`. The values come from
the schemas (``trick-ruleset.schema.json``, and ``trick-play.schema.json`` for a play stage by
its ``stage``): every other member of an ``enum``, a list of enum members with each member
added or taken away, ``true``/``false`` flipped; and, for numbers, lists and mappings, the
values the shipped trick rulesets use for the same rule. A variant that makes no valid
ruleset alone (:func:`~baloot_conformance.family.rules.loading.isolate_trick`) is left out, and
so is a parameter that acts nowhere at the ruleset's table (a partner's winning card where
nobody has a partner).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from baloot_conformance.family.compare.diff import trick_rule_documents, words
from baloot_conformance.family.rules.loading import isolate_trick
from baloot_conformance.family.rules.model import TrickRuleset
from baloot_conformance.resources import spec_path
from baloot_conformance.rules.ruleset import TEXT_FIELDS, canonical_json, mechanism

#: Parameters that act only where another parameter of their rule is not at a value: the
#: comparison sets that one to a value the shipped rulesets use on both sides.
_ACTS_UNDER = {("scoring.pot.limit", "caps"): ("chips", 0)}

#: Parameters of a play stage (by its ``stage``) that act only where the seats play in teams:
#: at a table without teams they decide nothing, so no variant sets them (validation refuses
#: their binding value there, :mod:`baloot_conformance.family.rules.validation`).
_TEAMS_ONLY = frozenset({("beat", "partner_winning")})

#: Parameters that name or place a rule rather than choose what it does.
_NOT_OPTIONS = frozenset({"stage", "rule", "tree", "after", "when", "then", "otherwise"})


#: The option values no random legal session tells from their rule's other values, and why:
#: the findings of the live-option test (``tests/test_family_compare.py``), by ruleset id (``*``
#: for every ruleset) and variant label (:func:`unwitnessed`). A value marked a decoration
#: changes no verdict anywhere.
UNWITNESSED: dict[str, str] = {
    'bourre-cajun play.cinch.effects=["lead_top_trump", "win_if_last"]': (
        "not witnessed in 5,000 sessions, though it is beside play_top_trump (bourre): "
        "without play_top_trump the last player's duty to win is, it seems, play.head's and "
        "play.overruff's already"
    ),
    'bourre-eighty play.cinch.effects=["lead_top_trump", "win_if_last"]': (
        "as for bourre-cajun: win_if_last acts beside play_top_trump only"
    ),
    "bourre-hoyle play.underruff.option=free": (
        "not witnessed in 5,000 sessions: underruff is the otherwise branch of overruff in "
        "the obligation tree, and where play.overruff is not_required (bourre-hoyle) any "
        "trump already meets it, so the branch is not reached"
    ),
    "* contracts.no_hearts.ends=scored": (
        "not witnessed in 3,000 sessions: in no hearts a heart is led only by a player who "
        "holds nothing else, so random play keeps a heart for the last trick and the hand "
        "never ends sooner; a hand that throws every heart by the twelfth trick would tell "
        "it: an open finding, not a decoration"
    ),
    "* play.trump_head.target=highest_led": (
        "a decoration where the node's guard is trump_led: on a trump lead the card winning "
        "the trick is the highest trump, which is the highest card of the suit led"
    ),
    "barbu phases.tricks.first_lead=dealer_next": (
        "a decoration under table.dealer.rotation declarer_right: the seat after the dealer "
        "is the declarer, who leads under first_lead declarer too"
    ),
    "barbu-seed phases.tricks.first_lead=dealer_next": "as for barbu (declarer_right)",
    "barbu-trictrac phases.tricks.first_lead=dealer_next": "as for barbu (declarer_right)",
    "barbu-seed play.underruff.option=forced": (
        "as for bourre-hoyle: underruff is the otherwise branch of overruff, which the seed "
        "does not require (not_required), so the branch is not reached"
    ),
    "barbu-seed table.teams.option=partners": (
        "a decoration in barbu-seed: its one stage that could read a partner, play.trump_head, "
        "binds nobody (opponent_winning any), and every player scores for himself"
    ),
    "hearts table.teams.option=partners": (
        "a decoration in Hearts: no stage of its tree reads who is a partner (no beat or "
        "exemption), and every player scores for himself"
    ),
    "bourre-wikipedia phases.draw.refill.option=reshuffle_discards": (
        "from folded_first (bourre-wikipedia): not witnessed in 5,000 sessions (a fifth of them "
        "leaning to discard all), though bourre's reshuffle_discards -> folded_first is: an "
        "open finding, not known to be a decoration"
    ),
}


def unwitnessed(ruleset_id: str, label: str) -> str | None:
    """Why ``label`` of ``ruleset_id`` has no witness (:data:`UNWITNESSED`), or ``None``."""
    return UNWITNESSED.get(f"{ruleset_id} {label}") or UNWITNESSED.get(f"* {label}")


@dataclass(frozen=True)
class Variant:
    """A trick ruleset's rule with one parameter set to another value."""

    rule_id: str
    parameter: str
    value: Any
    rule: Mapping[str, Any]
    """The varied rule whole, as plain data."""
    reference: Mapping[str, Any] | None = None
    """The rule the ruleset to compare with needs first, for a parameter that acts only under
    another's value (a cap of the pot limit, under a limit of 0, caps nothing): that value is
    then set on both sides."""

    @property
    def label(self) -> str:
        return f"{self.rule_id}.{self.parameter}={words(self.value)}"


@cache
def _schemas() -> tuple[dict[str, Any], dict[str, Any]]:
    def read(name: str) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(spec_path("schema", name).read_text("utf-8"))
        return data

    return read("trick-ruleset.schema.json"), read("trick-play.schema.json")


def _rule_schema(rule_id: str, rule: Mapping[str, Any]) -> Mapping[str, Any]:
    """The schema of one rule's parameters (a play stage's by its ``stage``)."""
    ruleset, play = _schemas()
    section, _, name = rule_id.partition(".")
    if section == "play":
        stage = rule.get("stage")
        found = play.get("$defs", {}).get(stage) if isinstance(stage, str) else None
        return found if isinstance(found, Mapping) else {}
    node = ruleset["properties"].get(section, {})
    node = node.get("properties", {}).get(name) or node.get("additionalProperties") or {}
    if "$ref" in node and node["$ref"].startswith("#/$defs/"):
        node = ruleset["$defs"].get(node["$ref"].removeprefix("#/$defs/"), {})
    return node if isinstance(node, Mapping) else {}


def _default(node: Mapping[str, Any]) -> Any:
    """What an absent parameter means: the schema's default, false for a flag."""
    if "default" in node:
        return node["default"]
    return False if node.get("type") == "boolean" else None


def _enum_values(node: Mapping[str, Any], current: Any) -> list[Any]:
    """The other values a parameter's schema allows, where it lists them."""
    if "enum" in node:
        return [v for v in node["enum"] if v != current]
    if node.get("type") == "boolean" or isinstance(current, bool):
        # an absent flag is the model's default, false: only true changes it
        return [not current] if isinstance(current, bool) else [True]
    items = node.get("items")
    if node.get("type") == "array" and isinstance(items, Mapping) and "enum" in items:
        have = list(current) if isinstance(current, list) else []
        toggled = []
        for member in items["enum"]:
            value = [m for m in have if m != member] if member in have else [*have, member]
            toggled.append(sorted(value, key=items["enum"].index))
        return [v for v in toggled if v != have]
    return []


def family_of(base: TrickRuleset, pool: Iterable[TrickRuleset]) -> list[TrickRuleset]:
    """The rulesets of ``pool`` that are ``base``'s game: its common rules and their profiles
    (one lineage root), whose values are ``base``'s alternatives."""
    game = base.lineage[-1]
    return [r for r in pool if r.lineage[-1] == game]


def rule_variants(base: TrickRuleset, pool: Iterable[TrickRuleset] = ()) -> list[Variant]:
    """Every other value each parameter of ``base`` can take (see the module's docstring),
    each as the rule it makes; those that make no valid ruleset are left out."""
    seen: dict[tuple[str, str], list[Any]] = {}
    for other in pool:
        for rule_id, rule in trick_rule_documents(other).items():
            for name, value in mechanism(rule).items():
                seen.setdefault((rule_id, name), []).append(value)
    found: list[Variant] = []
    for rule_id, rule in trick_rule_documents(base).items():
        params = _rule_schema(rule_id, rule).get("properties", {})
        names = dict.fromkeys([*mechanism(rule), *(n for n in params if n not in TEXT_FIELDS)])
        for name in names:
            if name in _NOT_OPTIONS or _idle(base, rule, name):
                continue
            current = rule.get(name)
            schema = params.get(name, {})
            meant = current if current is not None else _default(schema)
            values = _enum_values(schema, meant)
            values += [v for v in seen.get((rule_id, name), []) if v != meant]
            unique = {canonical_json(v): v for v in values}
            for value in unique.values():
                changed = {k: v for k, v in rule.items() if k != name}
                if value is not None:
                    changed[name] = value
                reference = _reference(rule_id, name, rule, seen)
                if reference is not None:
                    changed = {
                        **changed,
                        **{k: reference[k] for k in mechanism(reference) if k != name},
                    }
                if _isolated(base, rule_id, changed) is not None:
                    found.append(Variant(rule_id, name, value, changed, reference))
    return found


def _idle(base: TrickRuleset, rule: Mapping[str, Any], name: str) -> bool:
    """Whether ``name`` of ``rule`` acts nowhere at ``base``'s table (see :data:`_TEAMS_ONLY`)."""
    teamless = base.table.teams.option == "none"
    return teamless and (rule.get("stage"), name) in _TEAMS_ONLY


_DERIVED: dict[tuple[str, str, str], TrickRuleset | None] = {}


def _isolated(base: TrickRuleset, rule_id: str, rule: Mapping[str, Any]) -> TrickRuleset | None:
    """``isolate_trick(base, {rule_id: rule})``, derived and validated once per process (the
    live-option test and inference derive each variant more than once)."""
    key = (base.digest, rule_id, canonical_json(rule))
    if key not in _DERIVED:
        _DERIVED[key] = isolate_trick(base, {rule_id: rule})
    return _DERIVED[key]


def _reference(
    rule_id: str, name: str, rule: Mapping[str, Any], seen: Mapping[tuple[str, str], list[Any]]
) -> dict[str, Any] | None:
    """The rule with the parameter ``name`` acts under set to a value it acts at, when it is
    not (see :data:`_ACTS_UNDER`); ``None`` when ``name`` acts as the rule stands."""
    under = _ACTS_UNDER.get((rule_id, name))
    if under is None or rule.get(under[0]) != under[1]:
        return None
    values = [v for v in seen.get((rule_id, under[0]), []) if v != under[1]]
    return {**rule, under[0]: values[0]} if values else None


def reference_ruleset(base: TrickRuleset, variant: Variant) -> TrickRuleset | None:
    """The ruleset to compare ``variant``'s with: ``base``, or ``base`` with the variant's
    reference rule."""
    if variant.reference is None:
        return base
    return _isolated(base, variant.rule_id, variant.reference)


def variant_ruleset(base: TrickRuleset, variant: Variant) -> TrickRuleset | None:
    """``base`` with ``variant`` applied, or ``None`` when that is no valid ruleset."""
    return _isolated(base, variant.rule_id, variant.rule)
