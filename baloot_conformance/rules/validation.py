"""Validating a resolved ruleset document: its JSON Schema, then the checks no schema can
express.

The schema (``spec/schema/ruleset.schema.json``) comes first; its errors are placed at the
value they concern, most relevant first, with a "did you mean" for a misspelt key. The
semantic checks follow: every card order is a permutation of the ranks, the point tables add
up to their declared totals, the deal uses the whole pack, a Kawesh hand leaves out some rank of
the deck, every formula parses, passes its own worked examples and cannot divide by zero on any
input the engine gives (a penalty formula gives 0 or more game points on every one), and every
cited source is in the bibliography. Each problem is a
:class:`~baloot_conformance.errors.BalootError` with its ``file:line:col``.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import typing
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

from baloot_conformance.errors import BalootError, FormulaError, Location
from baloot_conformance.resources import spec_path
from baloot_conformance.rules import model
from baloot_conformance.rules.formula import Formula
from baloot_conformance.rules.ruleset import cached_formula, type_hints
from baloot_conformance.rules.strict_yaml import Path_, _Document

if typing.TYPE_CHECKING:  # jsonschema loads when a document is validated (start-up)
    from jsonschema.exceptions import ValidationError


def fixed_rules() -> dict[str, str]:
    """The fixed rules, which no profile may restate: rule ID -> why it is fixed (every
    source agrees). Declared in the schema (``x-fixed``)."""
    schema = ruleset_schema()
    return {
        f"{section}.{key}": rule["x-fixed"]
        for section in model.SECTIONS
        for key, rule in schema["properties"][section]["properties"].items()
        if "x-fixed" in rule
    }


@cache
def ruleset_schema() -> dict[str, Any]:
    """The JSON Schema of the ruleset format (``spec/schema/ruleset.schema.json``)."""
    schema: dict[str, Any] = json.loads(
        spec_path("schema", "ruleset.schema.json").read_text(encoding="utf-8")
    )
    return schema


@cache
def _validator() -> Any:
    """The ruleset schema's validator. The schema itself is checked against its meta-schema
    by the test suite, not here: that check alone costs more than loading a ruleset."""
    import jsonschema

    return jsonschema.Draft202012Validator(ruleset_schema())


def _locate_error(error: ValidationError, doc: _Document) -> Location:
    """The most precise location of a schema error: the bad key, else the deepest value."""
    at = tuple(error.absolute_path)
    if error.validator in ("additionalProperties", "unevaluatedProperties") and isinstance(
        error.instance, dict
    ):
        for name in _unexpected_keys(error):
            child = (*at, name)
            if child in doc.keys:
                return doc.keys[child]
    if "propertyNames" in error.relative_schema_path and isinstance(error.instance, str):
        key_at = (*at, error.instance)
        if key_at in doc.keys:
            return doc.keys[key_at]
    while at not in doc.values and at:
        at = at[:-1]
    return doc.values.get(at, Location(doc.path, 1, 1))


def _unexpected_keys(error: ValidationError) -> list[str]:
    allowed = set(error.schema.get("properties", {}))
    return [name for name in error.instance if name not in allowed]


def _explain(error: ValidationError) -> tuple[str, str | None]:
    """A message in plain words and a hint for one schema error."""
    dotted = _dotted(error.absolute_path)
    where = f"{dotted}: " if dotted else ""
    description = error.schema.get("description") if isinstance(error.schema, dict) else None
    if error.validator in ("additionalProperties", "unevaluatedProperties"):
        extras = _unexpected_keys(error)
        allowed = sorted(error.schema.get("properties", {}))
        close = difflib.get_close_matches(extras[0], allowed, n=1) if extras else []
        hint = f"did you mean {close[0]!r}?" if close else None
        if hint is None and allowed:
            hint = "allowed here: " + ", ".join(allowed)
        return f"{where}unknown key {', '.join(map(repr, extras))}", hint
    if error.validator == "required":
        return f"{where}{error.message}", description
    if error.validator == "enum":
        options = ", ".join(map(str, error.validator_value))
        return f"{where}{error.instance!r} is not one of: {options}", description
    if error.validator == "const":
        return f"{where}expected {error.validator_value!r}, found {error.instance!r}", description
    if error.validator == "type":
        shown = repr(error.instance)
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        return f"{where}expected {error.validator_value}, found {_kind(error.instance)} {shown}", (
            description
        )
    if error.validator in ("maxLength", "minLength") and isinstance(error.instance, str):
        bound = "at most" if error.validator == "maxLength" else "at least"
        return (
            f"{where}{len(error.instance):,} characters long; {bound} "
            f"{error.validator_value:,} are allowed",
            description,
        )
    if error.validator in ("maxItems", "minItems") and isinstance(error.instance, list):
        bound = "at most" if error.validator == "maxItems" else "at least"
        return f"{where}{len(error.instance):,} entries; {bound} {error.validator_value:,}", (
            description
        )
    message = error.message if len(error.message) <= 300 else error.message[:297] + "..."
    return f"{where}{message}", description


def _kind(value: Any) -> str:
    return {
        bool: "a boolean",
        int: "an integer",
        str: "text",
        list: "a list",
        dict: "a mapping",
    }.get(type(value), type(value).__name__)


def _dotted(path: Any) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def _schema_problems(doc: _Document) -> list[BalootError]:
    from jsonschema.exceptions import best_match, relevance

    errors = []
    for error in _validator().iter_errors(doc.data):
        if error.context:
            error = best_match(error.context)
        errors.append(error)
    errors.sort(key=relevance, reverse=True)
    problems: list[BalootError] = []
    seen: set[tuple[Location, str]] = set()
    for error in errors:
        message, hint = _explain(error)
        location = _locate_error(error, doc)
        if (location, message) not in seen:
            seen.add((location, message))
            problems.append(BalootError(message, location=location, hint=hint))
    return problems


def _rule_entries(data: Mapping[str, Any]) -> Iterator[tuple[str, str, Mapping[str, Any]]]:
    for section in model.SECTIONS:
        for name, rule in data.get(section, {}).items():
            yield section, name, rule


def _semantic_problems(doc: _Document) -> list[BalootError]:
    data = doc.data
    problems: list[BalootError] = []

    def problem(at: Path_, message: str, hint: str | None = None) -> None:
        location = doc.values.get(at) or doc.keys.get(at) or Location(doc.path, 1, 1)
        problems.append(BalootError(f"{_dotted(at)}: {message}", location=location, hint=hint))

    cards = data["cards"]
    ranks = cards["deck"]["ranks"]
    for name in ("order.plain", "order.trump", "order.sequence"):
        order = cards[name]["order"]
        if sorted(order) != sorted(ranks) or len(set(order)) != len(order):
            problem(
                ("cards", name, "order"),
                f"must list each rank of the deck exactly once, found {order}",
                f"the deck's ranks are {ranks}",
            )
    for name in ("points.plain", "points.trump"):
        missing = [r for r in ranks if r not in cards[name]["points"]]
        if missing:
            problem(("cards", name, "points"), f"no points for {missing}")
    if not problems:
        plain = sum(cards["points.plain"]["points"][r] for r in ranks)
        trump = sum(cards["points.trump"]["points"][r] for r in ranks)
        bonus = cards["last_trick"]["points"]
        suits = len(cards["deck"]["suits"])
        for contract, total in (
            ("sun", suits * plain + bonus),
            ("hokum", (suits - 1) * plain + trump + bonus),
        ):
            declared = cards["totals"][contract]
            if total != declared:
                # Point at whichever of the involved rules the top file (re)defines.
                involved: list[Path_] = [
                    ("cards", "points.trump", "points"),
                    ("cards", "points.plain", "points"),
                    ("cards", "last_trick", "points"),
                ]
                at = next(
                    (p for p in involved if p in doc.values and doc.values[p].path == doc.path),
                    ("cards", "totals", contract),
                )
                problem(
                    at,
                    f"the point tables give {total} in {contract.capitalize()}, not {declared}",
                    "fix the point tables or the declared total",
                )

    deal = data["deal"]
    deck_size = len(cards["deck"]["suits"]) * len(ranks)
    first = sum(deal["first_round"]["packets"])
    buyer_cards = first + 1 + deal["completion"]["buyer"]
    other_cards = first + deal["completion"]["others"]
    dealt = 4 * first + 1 + deal["completion"]["buyer"] + 3 * deal["completion"]["others"]
    if dealt != deck_size or buyer_cards != other_cards:
        problem(
            ("deal", "completion"),
            f"the deal hands out {dealt} of {deck_size} cards "
            f"(buyer {buyer_cards}, others {other_cards})",
            "every player must end with the same number of cards and the pack must be used up",
        )

    kawesh = deal["kawesh"]["ranks"]
    if any(rank not in ranks for rank in kawesh) or sorted(kawesh) == sorted(ranks):
        problem(
            ("deal", "kawesh", "ranks"),
            f"must be some of the deck's ranks, not all of them, found {kawesh}",
            f"the deck's ranks are {ranks}; a Kawesh hand holds none of the others",
        )

    levels = data["doubling"]["chain"]["levels"]
    calls = [level["call"] for level in levels]
    for i, level in enumerate(levels):
        expected = (
            ("opponents", "doubler", "buyer_right") if i % 2 == 0 else ("buyer_team", "buyer")
        )
        if level["by"] not in expected:
            problem(
                ("doubling", "chain", "levels", i, "by"),
                f"raise {i + 1} ({level['call']}) must be called by {' or '.join(expected)}",
                "raises alternate, starting with the buyer's opponents",
            )
        elif level["by"] == "doubler" and i == 0:
            problem(
                ("doubling", "chain", "levels", i, "by"),
                "the first raise cannot be reserved to the doubler: nobody has doubled yet",
                "write 'opponents' for the double",
            )
    if len(set(calls)) != len(calls):
        problem(("doubling", "chain", "levels"), f"a call appears twice: {calls}")
    if data["doubling"]["sun"]["max_call"] not in (*calls, "none"):
        problem(
            ("doubling", "sun", "max_call"),
            f"{data['doubling']['sun']['max_call']!r} is not a call of doubling.chain",
            f"calls: {', '.join((*calls, 'none'))}",
        )
    eligibility = data["bidding"]["ashkal.eligibility"]
    if any(r > data["bidding"]["rounds"]["count"] for r in eligibility["rounds"]):
        problem(("bidding", "ashkal.eligibility", "rounds"), "names a round that is not played")

    ranking = [
        name
        for entry in data["projects"]["ranking"]["order"]
        for name in (entry if isinstance(entry, list) else [entry])
    ]
    expected_projects = sorted(typing.get_args(model.ProjectName))
    if sorted(ranking) != expected_projects:
        problem(
            ("projects", "ranking", "order"),
            "must list every project exactly once",
            f"projects: {', '.join(expected_projects)}",
        )
    for name in ("sira", "fifty", "hundred.sequence", "hundred.four_of_a_kind", "four_hundred"):
        project = data["projects"][name]
        contracts = (
            [c for c in ("sun", "hokum") if project["ranks"].get(c)]
            if "ranks" in project
            else ["sun", "hokum"]
        )
        for contract in contracts:
            if contract not in project["game_points"]:
                problem(
                    ("projects", name, "game_points"),
                    f"no game points for {contract.capitalize()}, where this project exists",
                )

    bibliography = data.get("sources", {})
    for section, name, rule in _rule_entries(data):
        for i, source in enumerate(rule.get("sources", [])):
            cited = source.split()[0] if source.split() else source
            if cited not in bibliography:
                close = difflib.get_close_matches(cited, list(bibliography), n=1)
                problem(
                    (section, name, "sources", i),
                    f"cites {cited!r}, which is not in the ruleset's 'sources'",
                    f"did you mean {close[0]!r}?" if close else "add it to 'sources'",
                )
    ids = [f"{section}.{name}" for section, name, _ in _rule_entries(data)]
    for rule_id in {i for i in ids if ids.count(i) > 1}:
        problems.append(BalootError(f"rule ID {rule_id!r} is defined twice"))
    named: list[tuple[Path_, str]] = [
        (("silent", i), r) for i, r in enumerate(data.get("silent", []))
    ]
    named += [
        (("unmodelled", i, "rule"), g["rule"]) for i, g in enumerate(data.get("unmodelled", []))
    ]
    defects = data.get("defects", [])
    for i, defect in enumerate(defects):
        named.append((("defects", i, "rule"), defect["rule"]))
        named += [(("defects", i, "shows", j), r) for j, r in enumerate(defect.get("shows", []))]
    defect_ids = [d["id"] for d in defects]
    for i, defect_id in enumerate(defect_ids):
        if defect_id in defect_ids[:i]:
            problem(("defects", i, "id"), f"defect {defect_id!r} is listed twice", None)
    for at, rule_id in named:
        if rule_id not in ids:
            close = difflib.get_close_matches(rule_id, ids, n=1)
            problem(
                at,
                f"{rule_id!r} is not a rule ID",
                f"did you mean {close[0]!r}?" if close else None,
            )
    problems.extend(_formula_problems(doc))
    return problems


def _formula_problems(doc: _Document) -> list[BalootError]:
    """Parse every formula of the document, check the rule's embedded examples, and try it on
    every input the engine can give (division by zero; a negative penalty)."""
    problems: list[BalootError] = []
    for section, section_cls in model.SECTIONS.items():
        hints = type_hints(section_cls)
        for sf in dataclasses.fields(section_cls):
            rule_key = sf.metadata["key"]
            rule = doc.data[section][rule_key]
            formulas = [
                ff for ff in dataclasses.fields(hints[sf.name]) if "variables" in ff.metadata
            ]
            if formulas:
                problems.extend(_examples_naming(doc, (section, rule_key), formulas))
            for ff in formulas:
                at_formula: Path_ = (section, rule_key, ff.name)
                try:
                    formula = _compile_formula(rule[ff.name], ff)
                except FormulaError as exc:
                    problems.append(_formula_error(doc, at_formula, exc))
                    continue
                wrong = _domain_problem(formula, ff.metadata["variables"], doc.data)
                if wrong:
                    message, hint = wrong
                    problems.append(
                        BalootError(
                            f"{_dotted(at_formula)}: {message}",
                            location=doc.values.get(at_formula),
                            hint=hint,
                        )
                    )
                for i, example in enumerate(rule.get("examples", [])):
                    if example.get("of", ff.name) != ff.name:
                        continue
                    at: Path_ = (section, rule_key, "examples", i)
                    failed = _example_problem(formula, example, ff.metadata["variables"])
                    if failed:
                        problems.append(
                            BalootError(
                                f"{_dotted(at)}: {failed}",
                                location=doc.values.get(at),
                                hint="fix the formula or the example",
                            )
                        )
    return problems


def _examples_naming(
    doc: _Document, at: Path_, formulas: list[dataclasses.Field[Any]]
) -> list[BalootError]:
    """An example's ``of`` names one of the rule's formulas; a rule with several formulas
    needs it on every example."""
    names = [ff.name for ff in formulas]
    problems: list[BalootError] = []
    rule = doc.data[at[0]][at[1]]
    for i, example in enumerate(rule.get("examples", [])):
        here: Path_ = (*at, "examples", i)
        of = example.get("of")
        if of is None and len(names) > 1:
            problems.append(
                BalootError(
                    f"{_dotted(here)}: this rule has {len(names)} formulas "
                    f"({', '.join(names)}): say which one the example is of",
                    location=doc.values.get(here),
                    hint=f"add e.g. 'of: {names[0]}'",
                )
            )
        elif of is not None and of not in names:
            close = difflib.get_close_matches(str(of), names, n=1)
            problems.append(
                BalootError(
                    f"{_dotted((*here, 'of'))}: {of!r} is not a formula of this rule",
                    location=doc.values.get((*here, "of")) or doc.values.get(here),
                    hint=f"did you mean {close[0]!r}?"
                    if close
                    else f"formulas: {', '.join(names)}",
                )
            )
    return problems


#: What a side's counted projects can be worth, in the contract's largest projects: more than
#: any side can hold (a side's 16 cards make at most four four-of-a-kinds, 100 game points in
#: Sun under saudi, and a run of its own in each suit besides where cards may be shared).
PROJECTS_BOUND = 4
#: The raise levels a penalty formula sees: 1 unraised, 2 Double, 3 Three, 4 Four or Gahwa.
LEVELS = (1, 2, 3, 4)


def _penalty_domain(data: Mapping[str, Any]) -> list[dict[str, list[int]]]:
    """Each contract's values of the penalty variables, from the ruleset's own numbers: its
    round value and Kaboot, 1 to 4 for the level, 0 up to :data:`PROJECTS_BOUND` times its
    largest project for either side's projects (never both: one side's count), 0 or the
    Baloot's game points (Hokum only), 0 to 8 tricks.
    """
    scoring, projects = data["scoring"], data["projects"]
    domains = []
    for contract in ("sun", "hokum"):
        largest = max(
            (
                rule["game_points"].get(contract) or 0
                for rule in projects.values()
                if isinstance(rule.get("game_points"), dict)
            ),
            default=0,
        )
        baloot = [0, projects["baloot"]["game_points"]] if contract == "hokum" else [0]
        domains.append(
            {
                "round_value": [scoring["round_value"][contract]],
                "kaboot_value": [scoring["kaboot"][contract]],
                "level": list(LEVELS),
                "projects": list(range(PROJECTS_BOUND * largest + 1)),
                "baloot": sorted(set(baloot)),
                "offender_tricks": list(range(9)),
                "offender_projects": list(range(PROJECTS_BOUND * largest + 1)),
            }
        )
    return domains


def _domain(
    formula: Formula, variables: Mapping[str, str], data: Mapping[str, Any]
) -> Iterator[dict[str, Any]]:
    """Every input the engine can give a formula of this kind, varying only the variables the
    formula reads: every card split for a conversion, game totals from 0 to 400 for a
    condition, the contract's figures for a penalty (:func:`_penalty_domain`)."""
    if variables is model.PENALTY_VARIABLES:
        for values in _penalty_domain(data):
            used = [name for name in values if name in formula.variables]
            yield from _penalty_inputs(used, values, {})
    elif variables is model.CONVERSION_VARIABLES:
        yield from (
            {"raw": raw, "other_raw": total - raw, "is_buyer": buyer, "takes_risk": risk}
            for total in (130, 162)
            for raw in range(total + 1)
            for buyer in (True, False)
            for risk in (True, False)
        )
    else:
        yield from ({"buyer_total": a, "doubler_total": b} for a in range(401) for b in range(401))


_ONE_SIDE = {"projects": "offender_projects", "offender_projects": "projects"}
"""Only one side's projects count: an input never gives both a value above 0."""


def _penalty_inputs(
    used: list[str], values: Mapping[str, list[int]], env: dict[str, Any]
) -> Iterator[dict[str, Any]]:
    """Every combination of the ``used`` variables' values, in the order of
    :func:`itertools.product`, but those where both sides' projects count, which are never
    made (not made and skipped: they are most of the product)."""
    if len(env) == len(used):
        yield dict(env)
        return
    name = used[len(env)]
    choices = values[name]
    if env.get(_ONE_SIDE.get(name, "")):  # the other side's projects count already
        choices = [value for value in choices if not value]
    for value in choices:
        env[name] = value
        yield from _penalty_inputs(used, values, env)
    env.pop(name, None)


def _domain_problem(
    formula: Formula, variables: Mapping[str, str], data: Mapping[str, Any]
) -> tuple[str, str] | None:
    """What goes wrong first on the inputs of :func:`_domain`: a division by zero, or a
    penalty below 0 (a message and a hint); ``None`` when nothing does. Conversions and
    conditions are tried only when a divisor depends on the variables."""
    penalty = variables is model.PENALTY_VARIABLES
    if not penalty and not formula.variable_divisor:
        return None
    # The answer depends on the formula and on the numbers its domain is made of only: a
    # variant of a ruleset (inference, witness search) makes the same check again.
    key = (formula.source, repr(_penalty_domain(data)) if penalty else id(variables))
    if key not in _DOMAIN_PROBLEMS:
        if len(_DOMAIN_PROBLEMS) >= 4096:
            _DOMAIN_PROBLEMS.clear()
        _DOMAIN_PROBLEMS[key] = _first_domain_problem(formula, variables, data, penalty)
    return _DOMAIN_PROBLEMS[key]


_DOMAIN_PROBLEMS: dict[tuple[str, object], tuple[str, str] | None] = {}


def _first_domain_problem(
    formula: Formula, variables: Mapping[str, str], data: Mapping[str, Any], penalty: bool
) -> tuple[str, str] | None:
    for env in _domain(formula, variables, data):
        try:
            value = formula.evaluate(env)
        except FormulaError as exc:
            shown = ", ".join(f"{k}={v}" for k, v in env.items() if k in formula.variables)
            return (
                f"the formula can divide by zero: {shown}: {exc.message}",
                "guard the division, e.g. if d == 0 then 0 else x // d",
            )
        if penalty and (value < 0 or value.denominator != 1):
            shown = ", ".join(f"{k}={v}" for k, v in env.items()) or "any input"
            return (
                f"the formula gives {value} for {shown}: a penalty is a whole number of game "
                "points, 0 or more",
                "keep it at 0 or more, e.g. max(0, ...)",
            )
    return None


def _example_problem(
    formula: Formula, example: Mapping[str, Any], variables: Mapping[str, str]
) -> str | None:
    """Why a worked example does not hold, or ``None`` when it does."""
    env = {k: v for k, v in example.items() if k not in ("expect", "of")}
    unknown = sorted(set(env) - set(variables))
    if unknown:
        return f"unknown variable(s) {', '.join(unknown)}; variables: {', '.join(variables)}"
    try:
        got: Any = formula.evaluate(env)
    except FormulaError as exc:
        return exc.message
    expect = example["expect"]
    if got != expect or isinstance(got, bool) != isinstance(expect, bool):
        inputs = ", ".join(f"{k}={v}" for k, v in env.items())
        return f"the formula gives {got} for {inputs}, the example expects {expect}"
    return None


def _compile_formula(text: str, spec_field: dataclasses.Field[Any]) -> Formula:
    formula = cached_formula(text, tuple(spec_field.metadata["variables"].items()))
    expected = spec_field.metadata["result"]
    if formula.result_type != expected:
        raise FormulaError(
            f"the formula gives a {formula.result_type}, but this rule needs a {expected}",
            column=1,
        )
    return formula


def _formula_error(doc: _Document, at: Path_, exc: FormulaError) -> BalootError:
    """Place a formula error in the YAML file (exactly, for a formula written on one line)."""
    location = doc.values.get(at)
    suffix = ""
    if location is not None and exc.column is not None:
        if at in doc.inline:
            column = location.column + doc.inline[at] + exc.column - 1
            location = Location(location.path, location.line, column)
        else:
            suffix = f" (column {exc.column} of the formula)"
    return BalootError(f"{_dotted(at)}: {exc.message}{suffix}", location=location, hint=exc.hint)
