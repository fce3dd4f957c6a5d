"""Validating a resolved trick ruleset document: its JSON Schema, then the checks no schema
can express.

The schema (``spec/schema/trick-ruleset.schema.json``) takes the words of a rule (statement,
sources, notes), formulas and their examples from Baloot's ``ruleset.schema.json`` by
reference, and the ``play`` section from the generic engine's ``trick-play.schema.json``: the
validator's registry holds all three. Its errors are worded and placed as Baloot's are
(:mod:`baloot_conformance.rules.validation`: the bad key, a "did you mean").

The semantic checks follow:

- the orders are permutations of the deck's ranks (the trump order there exactly when a
  contract has a trump), a point table prices every rank;
- the seats: at least 2, ``min <= max``, fixed names as many as the seats, the deal fits the
  pack at the largest table, partners need an even number of seats;
- the pipeline runs its kinds in the library's order (ante, deal, draw, choose, wagers,
  tricks, layout, settle) with deal, tricks and settle; each kind present has its rules (a
  draw from the stock its five, a pass its one), and no rule is left without its kind;
- the draw's limits are within the hand, the tricks no more than the cards in a hand;
- a card dealt face up is read by some rule, and a contract whose trump is the face-up card's
  suit has one;
- a points game's declarer, contracts, layout, values and doubling agree
  (:mod:`.points_validation`);
- every formula parses, passes its own worked examples and gives a whole number of chips, 0
  or more, on every pot the engine can meet;
- every cited source is in the bibliography, every rule ID named (``silent``,
  ``unmodelled``) exists;
- every node of ``play.obligations`` names a stage rule of the section, guards with known
  conditions and contracts, and every stage rule is used;
- a ``beat`` stage binds a player over his partner's winning card (``partner_winning:
  must_beat``) only at a table with teams: without them nobody's card is a partner's, and the
  value would decide nothing.

Each problem is a :class:`~baloot_conformance.errors.BalootError` with its ``file:line:col``.
"""

from __future__ import annotations

import difflib
import json
import typing
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from typing import Any

from baloot_conformance.errors import BalootError, FormulaError, Location
from baloot_conformance.family.rules import model, play
from baloot_conformance.family.rules.points_validation import declarer_problems, wager_problems
from baloot_conformance.family.rules.problems import Problems
from baloot_conformance.resources import spec_path
from baloot_conformance.rules.model import formula_field
from baloot_conformance.rules.shared_loading import (
    Document,
    compile_formula,
    example_problem,
    explain_schema_error,
    formula_error,
    locate_schema_error,
)
from baloot_conformance.rules.strict_yaml import Path_
from baloot_conformance.rules.validation import ruleset_schema

#: The schema files of the format, by ``$id``: the trick ruleset's own, and the play section's
#: (``trick-play.schema.json``, the generic engine's stage library).
SCHEMA_FILES = ("trick-ruleset.schema.json", "trick-play.schema.json")

#: The keys of the ``play`` section that are not stage rules.
PLAY_RULES = ("obligations", "trick_winner")

#: The pots a payment formula is tried on: every pot up to this many chips.
POT_BOUND = 400


@cache
def trick_schema() -> dict[str, Any]:
    """The JSON Schema of the trick ruleset format."""
    schema: dict[str, Any] = json.loads(
        spec_path("schema", SCHEMA_FILES[0]).read_text(encoding="utf-8")
    )
    return schema


@cache
def _validator() -> Any:
    """The format's validator, its registry holding Baloot's ruleset schema (whose ``$defs``
    it reuses) and the play section's schema where it exists. The schemas themselves are
    checked against their meta-schema by the test suite, not here."""
    import jsonschema
    from referencing import Registry, Resource

    play = json.loads(spec_path("schema", SCHEMA_FILES[1]).read_text(encoding="utf-8"))
    resources = [ruleset_schema(), trick_schema(), play]
    registry: Registry[Any] = Registry().with_resources(
        (r["$id"], Resource.from_contents(r)) for r in resources
    )
    return jsonschema.Draft202012Validator(trick_schema(), registry=registry)


def schema_problems(doc: Document) -> list[BalootError]:
    """The schema's errors, most relevant first, each placed and worded (see the module)."""
    return _worded(_validator(), doc.data, doc)


def changed_rule_problems(doc: Document, rule_ids: Iterable[str]) -> list[BalootError]:
    """The schema's errors of a document that is a valid ruleset but for ``rule_ids``, each
    replaced whole (a derived ruleset: a spec diff's or an inference's variant): only those
    rules (and the bibliography) are validated, against their own part of the schema, which
    gives the same verdict as the whole schema at a fraction of the work."""
    import jsonschema

    base = "urn:baloot-conformance:schema:"
    sections: dict[str, Any] = {}
    instance: dict[str, Any] = {"sources": doc.data.get("sources", {})}
    for rule_id in rule_ids:
        section, _, name = rule_id.partition(".")
        if section == "contracts":
            ref = f"{base}trick-ruleset:1#/properties/contracts/additionalProperties"
        elif section == "play":
            known = name in ("obligations", "trick_winner")
            ref = f"{base}trick-play:1#" + (f"/properties/{name}" if known else "/$defs/stage_rule")
        else:
            ref = f"{base}trick-ruleset:1#/properties/{section}/properties/{name}"
        sections.setdefault(section, {"type": "object", "properties": {}})
        sections[section]["properties"][name] = {"$ref": ref}
        instance.setdefault(section, {})[name] = doc.data[section][name]
    schema = {
        "type": "object",
        "properties": {
            "sources": {"$ref": f"{base}trick-ruleset:1#/properties/sources"},
            **sections,
        },
    }
    validator = jsonschema.Draft202012Validator(schema, registry=_validator()._registry)
    return _worded(validator, instance, doc)


def _worded(validator: Any, instance: Any, doc: Document) -> list[BalootError]:
    """``validator``'s errors on ``instance`` (``doc``'s data or a part of it at the same
    paths), most relevant first, each placed and worded."""
    from jsonschema.exceptions import best_match, relevance

    errors = []
    for error in validator.iter_errors(instance):
        if error.context:
            error = best_match(error.context)
        errors.append(error)
    errors.sort(key=relevance, reverse=True)
    problems: list[BalootError] = []
    seen: set[tuple[Location, str]] = set()
    for error in errors:
        message, hint = explain_schema_error(error)
        location = locate_schema_error(error, doc)
        if (location, message) not in seen:
            seen.add((location, message))
            problems.append(BalootError(message, location=location, hint=hint))
    return problems


def _rules(data: Mapping[str, Any]) -> Iterator[tuple[str, str, Mapping[str, Any]]]:
    """Every rule of the document: its section, its key, the rule."""
    for section in ("table", "contracts", "phases", "play", "scoring", "game"):
        for name, rule in data[section].items():
            yield section, name, rule


def semantic_problems(doc: Document) -> list[BalootError]:
    """Everything the schema cannot say (see the module), for a document the schema passed."""
    problems = Problems(doc)
    _table_problems(doc.data, problems)
    _phase_problems(doc.data, problems)
    _scoring_problems(doc.data, problems)
    _play_problems(doc.data, problems)
    _reference_problems(doc.data, problems)
    _formula_problems(doc, problems)
    return problems.found


def _table_problems(data: Mapping[str, Any], problems: Problems) -> None:
    table = data["table"]
    ranks = table["deck"]["ranks"]
    trumps = any(c["trump"] != "none" for c in data["contracts"].values())
    if trumps != ("order.trump" in table):
        problems.add(
            ("table",) if trumps else ("table", "order.trump"),
            "a contract has a trump, but there is no table.order.trump"
            if trumps
            else "a trump order, but no contract has a trump",
            "add table.order.trump" if trumps else "leave it out",
        )
    for name in ("order.plain", "order.trump"):
        if name not in table:
            continue
        order = table[name]["order"]
        if sorted(order) != sorted(ranks):
            problems.add(
                ("table", name, "order"),
                f"must list each rank of the deck exactly once, found {order}",
                f"the deck's ranks are {ranks}",
            )
    seats = table["seats"]
    low, high = seats["min"], seats["max"]
    if low > high:
        problems.add(("table", "seats", "min"), f"min {low} is more than max {high}")
    names = seats.get("names", [])
    if names and not low == high == len(names):
        problems.add(
            ("table", "seats", "names"),
            f"{len(names)} fixed names for {low} to {high} seats",
            f"with fixed names, min and max are both {len(names)}",
        )
    if names and "prefix" in seats:
        problems.add(
            ("table", "seats", "prefix"),
            "a prefix numbers the seats, but the seats have fixed names",
            "keep one of names and prefix",
        )
    deck_size = len(table["deck"]["suits"]) * len(ranks)
    cards = data["phases"]["deal"]["cards"]
    if high * cards > deck_size:
        problems.add(
            ("phases", "deal", "cards"),
            f"{high} players of {cards} cards need {high * cards} cards; the pack has {deck_size}",
            "deal fewer cards, or seat fewer players (table.seats.max)",
        )
    if table["teams"]["option"] == "partners" and not (low == high and low % 2 == 0):
        problems.add(
            ("table", "teams", "option"),
            f"partners sit opposite: the table needs one even number of seats, not {low} to {high}",
            "set table.seats min and max to the same even number, or teams: none",
        )


#: Each kind's rules (under ``phases``) that must be present when the kind is in the
#: pipeline, and that may not be present when it is not.
_KIND_RULES: dict[str, tuple[str, ...]] = {
    "ante": ("ante",),
    "draw": ("draw.declare", "draw.discards", "draw.refill", "draw.lone_player"),
    "choose": ("choose",),
    "wagers": ("wagers.declarer", "wagers.positive"),
    "layout": ("layout",),
}

#: The rules of a draw that is a pass (``draw.pass``), in place of the stock draw's.
_PASS_RULES = ("draw.pass",)


def _phase_problems(data: Mapping[str, Any], problems: Problems) -> None:
    phases = data["phases"]
    kinds = phases["pipeline"]["kinds"]
    library = list(typing.get_args(model.PhaseKind))
    at_kinds: Path_ = ("phases", "pipeline", "kinds")
    if kinds != sorted(kinds, key=library.index):
        problems.add(
            at_kinds,
            f"the phases run {', '.join(kinds)}",
            f"a pipeline keeps the library's order: {', '.join(library)}",
        )
    for needed in ("deal", "tricks", "settle"):
        if needed not in kinds:
            problems.add(at_kinds, f"a hand needs a {needed} phase", f"add {needed!r}")
    kind_rules = dict(_KIND_RULES)
    if "draw.pass" in phases:  # the draw is a pass (Hearts): its one rule, none of the stock's
        kind_rules["draw"] = _PASS_RULES
        for rule in _KIND_RULES["draw"] + ("draw.faceup_ace",):
            if rule in phases:
                problems.add(
                    ("phases", rule),
                    f"phases.{rule} is a rule of a draw from the stock, but phases.draw.pass "
                    "makes the draw a pass",
                    f"remove phases.{rule}, or phases.draw.pass",
                )
    elif "draw" not in kinds and "draw.pass" in phases:
        kind_rules["draw"] = _PASS_RULES
    for kind, rules in kind_rules.items():
        for rule in rules:
            if kind in kinds and rule not in phases:
                problems.add(
                    ("phases",),
                    f"the pipeline has a {kind} phase, but no phases.{rule} rule",
                    f"add phases.{rule}, or take {kind!r} out of phases.pipeline",
                )
            elif kind not in kinds and rule in phases:
                problems.add(
                    ("phases", rule),
                    f"phases.{rule} is a rule of the {kind} phase, which the pipeline lacks",
                    f"add {kind!r} to phases.pipeline, or remove phases.{rule}",
                )
    faceup = phases["deal"]["faceup"]
    if "draw.faceup_ace" in phases and faceup == "none":
        problems.add(
            ("phases", "draw.faceup_ace"),
            "a rule for a face-up Ace, but phases.deal deals no card face up",
            "remove it, or deal the dealer's last card face up (faceup: dealer_last)",
        )
    elif "draw" in kinds and faceup != "none" and "draw.faceup_ace" not in phases:
        problems.add(
            ("phases",),
            "the draw follows a face-up card, but no phases.draw.faceup_ace says what an Ace does",
            "add phases.draw.faceup_ace (option dealer_plays or no_effect)",
        )
    cards = phases["deal"]["cards"]
    if phases["tricks"]["count"] > cards:
        problems.add(
            ("phases", "tricks", "count"),
            f"{phases['tricks']['count']} tricks of one card from each player, but a hand "
            f"holds {cards} cards",
            "play no more tricks than the cards dealt (phases.deal.cards)",
        )
    discards = phases.get("draw.discards")
    if discards is not None:
        if discards["max"] > cards:
            problems.add(
                ("phases", "draw.discards", "max"),
                f"up to {discards['max']} discards from a hand of {cards} cards",
                f"at most {cards}",
            )
        seats = data["table"]["seats"]
        seen: set[int] = set()
        for i, limit in enumerate(discards.get("by_players", [])):
            at: Path_ = ("phases", "draw.discards", "by_players", i)
            if not seats["min"] <= limit["players"] <= seats["max"]:
                problems.add(
                    (*at, "players"),
                    f"a limit for {limit['players']} players, at a table of "
                    f"{seats['min']} to {seats['max']}",
                )
            if limit["players"] in seen:
                problems.add((*at, "players"), f"a second limit for {limit['players']} players")
            seen.add(limit["players"])
            if limit["max"] > discards["max"]:
                problems.add(
                    (*at, "max"),
                    f"{limit['max']} discards, above the general limit {discards['max']}",
                    "a limit by table size is lower than phases.draw.discards.max",
                )
    uses_faceup = "draw.faceup_ace" in phases or any(
        c["trump"] == "faceup_suit" for c in data["contracts"].values()
    )
    if faceup != "none" and not uses_faceup:
        problems.add(
            ("phases", "deal", "faceup"),
            "a card dealt face up, but no contract takes its suit for trump and no draw reads it",
            "deal no card face up (faceup: none)",
        )
    for name, contract in data["contracts"].items():
        if contract["trump"] == "faceup_suit" and faceup == "none":
            problems.add(
                ("contracts", name, "trump"),
                "trump is the face-up card's suit, but phases.deal deals no card face up",
                "set phases.deal.faceup to dealer_last, or choose another trump",
            )
    declarer_problems(data, problems)


def _scoring_problems(data: Mapping[str, Any], problems: Problems) -> None:
    scoring = data["scoring"]
    kinds = data["phases"]["pipeline"]["kinds"]
    ranks = data["table"]["deck"]["ranks"]
    pot_rules = [name for name in scoring if name.startswith("pot.")]
    if pot_rules and not ("ante" in kinds and "settle" in kinds):
        problems.add(
            ("scoring", pot_rules[0]),
            "a rule of the pot, but the pipeline has no pot (its ante and settle phases)",
            "add 'ante' and 'settle' to phases.pipeline, or remove the scoring.pot rules",
        )
    outcome = scoring["outcome"]["option"]
    if outcome == "points" and pot_rules:
        problems.add(("scoring", "outcome"), "a points game has no pot", "remove the pot rules")
    if outcome != "points":
        for name in ("moon", "no_tricks", "wagers"):
            if name in scoring:
                problems.add(
                    ("scoring", name),
                    f"scoring.{name} adjusts each player's points; the outcome is {outcome}",
                    "use scoring.outcome points, or remove it",
                )
    if outcome == "most_tricks" and "settle" in kinds and "pot.tie" not in scoring:
        problems.add(
            ("scoring",),
            "the most tricks win, but no scoring.pot.tie says what a tie does",
            "add scoring.pot.tie (option carry or replay)",
        )
    for name in ("points.plain", "points.trump"):
        if outcome == "card_points" and name not in scoring:
            problems.add(("scoring",), f"card points decide, but there is no scoring.{name}")
        elif name in scoring:
            missing = [r for r in ranks if r not in scoring[name]["points"]]
            extra = [r for r in scoring[name]["points"] if r not in ranks]
            if missing or extra:
                problems.add(
                    ("scoring", name, "points"),
                    f"no points for {missing}"
                    if missing
                    else f"points for {extra}, not in the deck",
                    f"the deck's ranks are {ranks}",
                )
    kind = data["game"]["kind"]
    needs = {"session": None, "target": "target", "schedule": "hands"}[kind["option"]]
    for parameter in ("target", "hands"):
        if parameter == needs and parameter not in kind:
            problems.add(
                ("game", "kind"),
                f"a {kind['option']} game needs its {parameter}",
                f"add {parameter}",
            )
        elif parameter != needs and parameter in kind:
            problems.add(
                ("game", "kind", parameter),
                f"{parameter} is not a parameter of a {kind['option']} game",
                f"remove {parameter}",
            )


def _nodes(tree: list[Any], at: Path_) -> Iterator[tuple[Path_, Mapping[str, Any]]]:
    for i, node in enumerate(tree):
        here: Path_ = (*at, i)
        yield here, node
        for branch in ("then", "otherwise"):
            yield from _nodes(node.get(branch, []), (*here, branch))


def _play_problems(data: Mapping[str, Any], problems: Problems) -> None:
    section = data["play"]
    stages = [name for name in section if name not in PLAY_RULES]
    conditions = typing.get_args(play.Condition)
    used: set[str] = set()
    obligations = section["obligations"]
    trees = [
        _nodes(obligations.get(part, []), ("play", "obligations", part))
        for part in ("tree", "after")
    ]
    for at, node in (entry for tree in trees for entry in tree):
        rule = node["rule"]
        used.add(rule)
        if rule not in stages:
            close = difflib.get_close_matches(rule, stages, n=1)
            problems.add(
                (*at, "rule"),
                f"{rule!r} is not a stage rule of the play section",
                f"did you mean {close[0]!r}?" if close else f"stage rules: {', '.join(stages)}",
            )
        for i, condition in enumerate(node.get("when", [])):
            if condition not in conditions:
                close = difflib.get_close_matches(condition, conditions, n=1)
                problems.add(
                    (*at, "when", i),
                    f"{condition!r} is not a condition a node may test",
                    f"did you mean {close[0]!r}?"
                    if close
                    else f"conditions: {', '.join(conditions)}",
                )
        for i, contract in enumerate(node.get("contracts", [])):
            if contract not in data["contracts"]:
                problems.add(
                    (*at, "contracts", i),
                    f"{contract!r} is not a contract of this ruleset",
                    f"contracts: {', '.join(data['contracts'])}",
                )
    teamless = data["table"]["teams"]["option"] == "none"
    for name in stages:
        rule = section[name]
        if teamless and rule.get("stage") == "beat" and rule.get("partner_winning") == "must_beat":
            problems.add(
                ("play", name, "partner_winning"),
                "acts only where seats play in teams; this table has no teams",
                "leave it out",
            )
        if name not in used:
            problems.add(
                ("play", name),
                "a stage rule that no node of play.obligations uses",
                "place it in the tree, or remove it: a rule the engine never reaches "
                "decides nothing",
            )


def _reference_problems(data: Mapping[str, Any], problems: Problems) -> None:
    bibliography = data.get("sources", {})
    ids = []
    for section, name, rule in _rules(data):
        ids.append(f"{section}.{name}")
        for i, source in enumerate(rule.get("sources", [])):
            cited = source.split()[0] if source.split() else source
            if cited not in bibliography:
                close = difflib.get_close_matches(cited, list(bibliography), n=1)
                problems.add(
                    (section, name, "sources", i),
                    f"cites {cited!r}, which is not in the ruleset's 'sources'",
                    f"did you mean {close[0]!r}?" if close else "add it to 'sources'",
                )
    named: list[tuple[Path_, str]] = [
        (("silent", i), r) for i, r in enumerate(data.get("silent", []))
    ]
    named += [
        (("unmodelled", i, "rule"), g["rule"]) for i, g in enumerate(data.get("unmodelled", []))
    ]
    for at, rule_id in named:
        if rule_id not in ids:
            close = difflib.get_close_matches(rule_id, ids, n=1)
            problems.add(
                at,
                f"{rule_id!r} is not a rule ID of this ruleset",
                f"did you mean {close[0]!r}?" if close else None,
            )


#: The formula of a payment rule, as :func:`baloot_conformance.rules.validation` reads its
#: metadata (variables, result type).
_PAYS = formula_field(model.POT_VARIABLES, "number")


def _formula_problems(doc: Document, problems: Problems) -> None:
    """Parse each payment formula, check its worked examples, and try it on every pot up to
    :data:`POT_BOUND` under the ruleset's limit: a whole number of chips, 0 or more."""
    scoring = doc.data["scoring"]
    limit = scoring.get("pot.limit", {}).get("chips", 0)
    for name in ("pot.bourre", "pot.renege"):
        rule = scoring.get(name)
        if rule is None:
            continue
        at: Path_ = ("scoring", name, "pays")
        try:
            formula = compile_formula(rule["pays"], _PAYS)
        except FormulaError as exc:
            problems.found.append(formula_error(doc, at, exc))
            continue
        for i, example in enumerate(rule.get("examples", [])):
            failed = example_problem(formula, example, model.POT_VARIABLES)
            if failed:
                problems.add(
                    ("scoring", name, "examples", i), failed, "fix the formula or the example"
                )
        _try_pots(formula, at, limit, problems)
    wager_problems(doc, problems)


def _try_pots(formula: Any, at: Path_, limit: int, problems: Problems) -> None:
    problem = _pot_domain(formula.source, limit)
    if problem is not None:
        message, hint = problem
        problems.add(at, message, hint)


@cache
def _pot_domain(text: str, limit: int) -> tuple[str, str | None] | None:
    """The first pot up to :data:`POT_BOUND` on which the payment formula ``text`` is no whole
    number of chips, 0 or more, under ``limit``; ``None`` when there is none. Once per formula
    and limit: a ruleset's variants share them."""
    formula = compile_formula(text, _PAYS)
    for pot in range(POT_BOUND + 1):
        try:
            value = formula.evaluate({"pot": pot, "limit": limit})
        except FormulaError as exc:
            return f"pot={pot}, limit={limit}: {exc.message}", None
        if value < 0 or value.denominator != 1:
            return (
                f"the formula gives {value} for pot={pot}, limit={limit}: a payment is a "
                "whole number of chips, 0 or more",
                "keep it at 0 or more, e.g. max(0, ...)",
            )
    return None
