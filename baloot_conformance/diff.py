"""Rule disagreements as data: the semantic difference of two rulesets, witness hands that
tell them apart, and which ruleset an engine's transcripts fit best.

* :func:`diff_rulesets` compares two rulesets rule by rule: changed card orders as the pairs
  that swap, point tables as the ranks whose points change, formulas as the inputs whose
  results differ, and every other changed parameter; each difference is classified by what
  it can change in a transcript's verdict (legality, claims, score, game end).
* :func:`find_witness` searches for a hand that passes under one ruleset and fails under the
  other because of one difference: it builds the ruleset that differs from the first in that
  rule alone (:func:`~baloot_conformance.rules.loading.derive_ruleset`), generates seeded random
  hands under one side, replays them under the other, and keeps a hand only once replaying it
  under the two real rulesets gives the two verdicts.
* :func:`rule_variants` lists, for one ruleset, every other value each parameter can take
  (every option of every rule, and the numbers, lists and formulas the shipped profiles use):
  the universe of the live-option test and of :func:`infer`.
* :func:`infer` replays transcripts under candidate rulesets, ranks them by fit, names the
  rules the transcripts never exercised, and proposes an overlay that makes them all pass.

The engine decides every verdict; this module only builds rulesets and transcripts and
compares verdicts.
"""

from __future__ import annotations

import io
import itertools
import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from baloot_conformance import btn
from baloot_conformance.check.run import check_hands
from baloot_conformance.check.verdicts import HandVerdict
from baloot_conformance.engine.playout import Policy
from baloot_conformance.generate import generate_games
from baloot_conformance.rules.loading import isolate
from baloot_conformance.rules.model import CONVERSION_VARIABLES, SUN_DOUBLING_VARIABLES
from baloot_conformance.rules.ruleset import (
    TEXT_FIELDS,
    Ruleset,
    canonical_json,
    mechanism,
    rule_documents,
)
from baloot_conformance.rules.validation import fixed_rules, ruleset_schema

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
    "projects": ("score",),
    "projects.declaration": ("legality", "score"),
    "projects.limits": ("legality", "score"),
    "projects.baloot": ("legality", "score"),
    "scoring": ("score",),
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
    if name == "order" and all(isinstance(x, str) for x in [*a, *b]):
        return [_swaps(a, b)]
    if name == "points" and isinstance(a, dict):
        changed = [f"{r} {a.get(r)} -> {b.get(r)}" for r in a if a.get(r) != b.get(r)]
        return ["points: " + ", ".join(changed)]
    if name in ("formula", "condition"):
        shown = f"{name}: {' '.join(a.split())}  ->  {' '.join(b.split())}"
        return [shown, *_formula_inputs(rule_id, name, a, b)]
    return [f"{name}: {_words(a)} -> {_words(b)}"]


def _words(value: Any) -> str:
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
        ", ".join(f"{k}={_words(v)}" for k, v in env.items()) + f": {_words(x)} vs {_words(y)}"
        for env, x, y in differ[:4]
    )
    return [f"{len(differ)} of {len(inputs)} inputs differ, e.g. {shown}"]


# --- witness hands -------------------------------------------------------------------------


@dataclass(frozen=True)
class Witness:
    """A transcript that passes under one ruleset and fails under the other."""

    text: str
    """The transcript, BTN."""
    passes: str
    """The ruleset (``id@version``) under which every hand passes."""
    fails: str
    """The ruleset under which it fails."""
    position: str
    """The root divergence under the failing ruleset: its position ..."""
    rule_id: str | None
    """... the rule it cites ..."""
    message: str
    """... and what it says."""
    tries: int
    """How many generated transcripts were tried before this one."""


#: The search's leanings, tried in turn: plain random play, Hokum, Sun, raises, rare deals.
_POLICIES = (
    Policy(),
    Policy(contracts={"hokum": 1}, raise_chance=0.6),
    Policy(contracts={"sun": 1}, raise_chance=0.6),
    Policy(contracts={"hokum": 1}, raise_chance=0.95),
    Policy(contracts={"sun": 1}, raise_chance=0.95),
    Policy(contracts={"hokum": 1}, rich_deals=True),
    Policy(rich_deals=True),
)
#: Game totals the generated hands start from: the Sun double condition and the end of the
#: game need totals near 100 and near the target.
_STARTS = ((0, 0), (101, 40), (40, 101), (99, 100), (140, 135), (120, 150), (151, 151))


def verdicts(text: str, ruleset: Ruleset) -> list[HandVerdict]:
    """The verdict on every hand of a BTN text under ``ruleset``."""
    with btn.TranscriptReader(io.StringIO(text), "<witness>") as reader:
        return list(check_hands(reader, "<witness>", ruleset))


def candidates(ruleset: Ruleset, tries: int, seed: int = 0) -> Iterator[str]:
    """Small seeded random transcripts under ``ruleset``: one or two hands each, leaning in
    turn towards each contract and towards raises, starting from totals near the thresholds."""
    aliases = sorted(ruleset.bidding.call_words.aliases.items())
    for i in range(tries):
        policy = _POLICIES[i % len(_POLICIES)]
        start = _STARTS[(i // len(_POLICIES)) % len(_STARTS)]
        hands = 2 if i % 3 == 2 else 1
        text = "".join(
            generate_games(ruleset, seed * 1_000_003 + i, hands=hands, policy=policy, start=start)
        )
        if aliases:  # write one call in the engine's own word, as its engine would
            own, word = aliases[i % len(aliases)]
            text = re.sub(rf"(?m)^((?:bid|raise) [NWSE]) {word}\b", rf"\1 {own}", text, count=1)
        yield text


def find_witness(
    a: Ruleset, b: Ruleset, difference: Difference, tries: int = 3000
) -> Witness | None:
    """A transcript on which ``a`` and ``b`` give different verdicts because of
    ``difference``, or ``None`` when ``tries`` generated transcripts showed none.

    Transcripts are generated under each real ruleset, so they pass under it. One generated
    under ``a`` is a witness when it fails under ``a`` changed in that one rule, and fails
    under ``b`` at the same place; one generated under ``b`` likewise with ``b`` changed back.
    Where the one change alone makes no valid ruleset (a raise chain and the Sun's raise limit
    change together), the search falls back to the pair itself.
    """
    a_changed = isolate(a, {difference.rule_id: difference.rule_b})
    b_changed = isolate(b, {difference.rule_id: difference.rule_a})
    if a_changed is None or b_changed is None:  # the rule cannot change alone: no isolation
        return search_witness(((a, b, b, a), (b, a, a, b)), tries)
    return search_witness(((a, a_changed, b, b_changed), (b, b_changed, a, a_changed)), tries)


def witness_between(a: Ruleset, b: Ruleset, tries: int = 3000) -> Witness | None:
    """A witness that ``a`` and ``b`` differ, for rulesets that differ in one rule (or in a
    rule and what it needs changed with it, searched as a pair)."""
    differences = diff_rulesets(a, b)
    if len(differences) == 1:
        return find_witness(a, b, differences[0], tries)
    return search_witness(((a, b, b, a), (b, a, a, b)), tries)


def search_witness(
    sides: Sequence[tuple[Ruleset, Ruleset, Ruleset, Ruleset]], tries: int
) -> Witness | None:
    """The search behind :func:`find_witness`. Each side is ``(source, changed, other,
    other_changed)``: a transcript generated under ``source`` is a witness when it fails under
    ``changed`` (``source`` with the other ruleset's rule) and under ``other``, and passes
    under ``other_changed`` (``other`` with the rule of ``source``): that one rule is what
    tells the two rulesets apart on it."""
    streams = [candidates(side[0], tries, seed=n + 1) for n, side in enumerate(sides)]
    for i in range(tries):
        for stream, (source, changed, other, other_changed) in zip(streams, sides, strict=True):
            text = next(stream)
            if _root(verdicts(text, changed)) is None:
                continue
            real = _root(verdicts(text, other))
            if real is None or _root(verdicts(text, other_changed)) is not None:
                continue
            if _root(verdicts(text, source)) is not None:  # pragma: no cover - generated legal
                continue
            return Witness(
                text=text,
                passes=f"{source.id}@{source.version}",
                fails=f"{other.id}@{other.version}",
                position=real.position,
                rule_id=real.rule_id,
                message=real.message,
                tries=i + 1,
            )
    return None


@dataclass(frozen=True)
class _Root:
    position: str
    rule_id: str | None
    message: str


def _root(found: list[HandVerdict]) -> _Root | None:
    """The first hand's root divergence (or error) of a replay, ``None`` when all pass."""
    failed = next((v for v in found if v.status != "pass"), None)
    if failed is None:
        return None
    first = next((d for d in failed.divergences if d.root), None)
    if first is None:
        return _Root(failed.position, None, failed.error or "the hand could not be replayed")
    return _Root(first.position, first.rule_id, first.message)


# --- the universe of parameter values ---------------------------------------------------------


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
        return f"{self.rule_id}.{self.parameter}={_words(self.value)}"


#: A parameter that only acts when another of the same rule has a given value.
_NEEDS: dict[tuple[str, str], tuple[str, Any]] = {
    ("play.hokum.partner_winning", "certain_tops"): ("option", "fourth_or_certain_top"),
    ("doubling.gahwa", "points"): ("option", "fixed_points"),
    ("bidding.hokum_confirmation", "ace_faceup_switch"): ("option", "confirm_or_switch"),
    ("projects.limits", "per_player"): ("shared_cards", "across_kinds"),
}


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
