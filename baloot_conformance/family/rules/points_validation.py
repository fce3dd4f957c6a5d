"""The semantic checks of a points game's rules (Barbu, Hearts): the declarer, his contracts,
the layout, the values, the doubling and its settlement formula agree.

- a declarer (``game.declarers``) needs a choose phase and a dealer rotation that follows him
  (``declarer_right``, ``declarer``); each contract once a block needs a block of as many hands
  as contracts; the declarer who leads first needs a declarer;
- the holder of a card who leads first names a card of the pack;
- a layout contract has the layout phase (and a layout phase a layout contract), no trump and
  one value a finishing place; places belong to layout contracts only;
- a points outcome gives every contract values, whose card patterns name cards of the pack; a
  contract that ends once its scored cards are taken scores cards;
- ``positive`` needs a wagers phase, a wagers phase ``scoring.wagers`` (and the reverse), a
  quota a declarer;
- the wager formula parses, passes its examples and moves a whole number of points, 0 or more,
  between any two scores a hand can give.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from baloot_conformance.errors import FormulaError
from baloot_conformance.family.rules import model
from baloot_conformance.family.rules.problems import Problems
from baloot_conformance.rules.model import formula_field
from baloot_conformance.rules.shared_loading import (
    Document,
    compile_formula,
    example_problem,
    formula_error,
)
from baloot_conformance.rules.strict_yaml import Path_

_WAGER = formula_field(model.WAGER_VARIABLES, "number")

#: The points a wager formula is tried on: every pair of scores in this range, levels 1 and 2.
POINTS_BOUND = 130


def declarer_problems(data: Mapping[str, Any], problems: Problems) -> None:
    """The rules of a game with a declarer (Barbu) and of its contracts agree."""
    phases = data["phases"]
    kinds = phases["pipeline"]["kinds"]
    contracts = data["contracts"]
    declarers = data["game"].get("declarers")
    rotation = data["table"]["dealer.rotation"]["option"]
    if rotation in ("declarer_right", "declarer") and declarers is None:
        problems.add(
            ("table", "dealer.rotation", "option"),
            f"the deal follows the declarer ({rotation}), but no game.declarers says who declares",
            "add game.declarers",
        )
    if declarers is not None and rotation not in ("declarer_right", "declarer"):
        problems.add(
            ("table", "dealer.rotation", "option"),
            f"a declarer every hand (game.declarers), but the deal rotates by {rotation!r}",
            "deal from the declarer's right (declarer_right) or by the declarer (declarer)",
        )
    if "choose" in kinds and declarers is None:
        problems.add(
            ("phases", "choose"),
            "a declarer chooses the contract, but no game.declarers says who declares",
            "add game.declarers",
        )
    if declarers is not None and "choose" not in kinds:
        problems.add(
            ("game", "declarers"),
            "a declarer every hand, but the pipeline has no choose phase for him",
            "add 'choose' to phases.pipeline, or remove game.declarers",
        )
    choose = phases.get("choose")
    once = choose is not None and choose["option"] == "each_once"
    if once and declarers is not None and declarers["hands"] != len(contracts):
        problems.add(
            ("game", "declarers", "hands"),
            f"each contract once a block, but {declarers['hands']} hands a declarer for "
            f"{len(contracts)} contracts",
            f"a block is {len(contracts)} hands, one a contract",
        )
    tricks = phases["tricks"]
    first = tricks.get("first_lead", "dealer_next")
    pack = _pack_codes(data)
    if first == "declarer" and declarers is None:
        problems.add(
            ("phases", "tricks", "first_lead"),
            "the declarer leads, but no game.declarers says who declares",
            "add game.declarers, or another first_lead",
        )
    if (first == "holder") != ("holder" in tricks):
        problems.add(
            ("phases", "tricks"),
            "first_lead holder names the card whose holder leads in 'holder'"
            if first == "holder"
            else "a holder card, but the first lead is not the holder's",
            "give both first_lead: holder and holder, or neither",
        )
    elif "holder" in tricks and tricks["holder"] not in pack:
        problems.add(("phases", "tricks", "holder"), f"{tricks['holder']} is not in the pack")
    layouts = [n for n, c in contracts.items() if c.get("play", "tricks") == "layout"]
    if layouts and "layout" not in kinds:
        problems.add(
            ("contracts", layouts[0], "play"),
            "a layout contract, but the pipeline has no layout phase",
            "add 'layout' to phases.pipeline",
        )
    if "layout" in kinds and not layouts:
        problems.add(
            ("phases", "pipeline", "kinds"),
            "a layout phase, but no contract is played as a layout (play: layout)",
            "remove 'layout', or add a layout contract",
        )
    outcome = data["scoring"]["outcome"]["option"]
    seats = data["table"]["seats"]
    for name, contract in contracts.items():
        at: Path_ = ("contracts", name)
        values = contract.get("values")
        if outcome == "points" and values is None:
            problems.add(at, "the hand scores its contract's values, but this one has none")
        for pattern in (values or {}).get("cards", {}):
            if not any(_matches(code, pattern) for code in pack):
                problems.add(
                    (*at, "values", "cards", pattern), f"{pattern} names no card of the pack"
                )
        places = (values or {}).get("places")
        layout = contract.get("play", "tricks") == "layout"
        if layout and contract["trump"] != "none":
            problems.add(
                (*at, "trump"),
                "a layout contract has no tricks, so no trump",
                "set trump: none",
            )
        if layout and outcome == "points" and places is None:
            problems.add(
                (*at, "values"),
                "a layout contract scores the finishing places, but its values have none",
                "give values.places, one value a place",
            )
        if places is not None and not layout:
            problems.add((*at, "values", "places"), "places are scored in a layout contract only")
        elif places is not None and len(places) != seats["max"]:
            problems.add(
                (*at, "values", "places"),
                f"{len(places)} places for up to {seats['max']} players",
                "one value a finishing place",
            )
        if contract.get("ends") == "scored" and not (values or {}).get("cards"):
            problems.add(
                (*at, "ends"),
                "the play ends once the scored cards are taken, but no card scores",
                "give values.cards, or end at the last trick",
            )
    wagers = "wagers" in kinds
    for name, contract in contracts.items():
        if contract.get("positive") and not wagers:
            problems.add(
                ("contracts", name, "positive"),
                "a positive contract decides who may be doubled, but there is no doubling "
                "(a wagers phase)",
                "leave it out",
            )
    if wagers != ("wagers" in data["scoring"]):
        problems.add(
            ("scoring",) if wagers else ("scoring", "wagers"),
            "a wagers phase, but no scoring.wagers settles the doubles"
            if wagers
            else "scoring.wagers settles doubles, but the pipeline has no wagers phase",
        )
    if "wagers.quota" in phases and declarers is None:
        problems.add(
            ("phases", "wagers.quota"),
            "a quota of doubles of the declarer, but no game.declarers says who declares",
        )


def _pack_codes(data: Mapping[str, Any]) -> list[str]:
    deck = data["table"]["deck"]
    return [r + s for s in deck["suits"] for r in deck["ranks"]]


def _matches(code: str, pattern: str) -> bool:
    """Whether a card pattern (a suit, a rank or a card) names the card ``code``."""
    return pattern in (code, code[-1], code[:-1])


def wager_problems(doc: Document, problems: Problems) -> None:
    """The wager formula parses, passes its examples, and moves a whole number of points, 0
    or more, between every two scores a hand can give (high >= low, level 1 or 2)."""
    rule = doc.data["scoring"].get("wagers")
    if rule is None:
        return
    at: Path_ = ("scoring", "wagers", "pays")
    try:
        formula = compile_formula(rule["pays"], _WAGER)
    except FormulaError as exc:
        problems.found.append(formula_error(doc, at, exc))
        return
    for i, example in enumerate(rule.get("examples", [])):
        failed = example_problem(formula, example, model.WAGER_VARIABLES)
        if failed:
            problems.add(
                ("scoring", "wagers", "examples", i), failed, "fix the formula or the example"
            )
    problem = _wager_domain(rule["pays"])
    if problem is not None:
        problems.add(at, problem)


@cache
def _wager_domain(text: str) -> str | None:
    """The first score pair on which the wager formula ``text`` moves no whole number of
    points, 0 or more (high >= low, every 5 points from -130 to 130, level 1 or 2); ``None``
    when there is none. Once per formula: a ruleset's variants share it."""
    formula = compile_formula(text, _WAGER)
    for level in (1, 2):
        for high in range(-POINTS_BOUND, POINTS_BOUND + 1, 5):
            for low in range(-POINTS_BOUND, high + 1, 5):
                try:
                    value = formula.evaluate({"high": high, "low": low, "level": level})
                except FormulaError as exc:
                    return f"high={high}, low={low}, level={level}: {exc.message}"
                if value < 0 or value.denominator != 1:
                    return (
                        f"the formula gives {value} for high={high}, low={low}, level={level}: "
                        "a wager moves a whole number of points, 0 or more"
                    )
    return None
