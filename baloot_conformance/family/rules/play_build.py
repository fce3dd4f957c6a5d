"""The ``play`` section of a trick ruleset, from validated plain data to its typed shape.

:func:`build_play` takes the section as the schema (``spec/schema/trick-play.schema.json``)
let it through and returns the :class:`~.play.PlaySection`: each stage rule typed by its kind
(the ``stage`` key), the obligation tree as :class:`~.play.Node` records. It also makes the
checks no schema can: every node names a stage rule of the section and a contract of the
ruleset, and every stage rule is reached by the tree (a stage nothing evaluates would be a rule
that decides nothing). Problems are reported together, each at its JSON pointer
(``/play/obligations/tree/0/then/1/rule``), for the loader to place in the file.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Collection, Iterator, Mapping
from typing import Any, get_args

from baloot_conformance.errors import BalootError, SpecError
from baloot_conformance.family.rules.play import (
    STAGE_CLASSES,
    Condition,
    Node,
    Obligations,
    PlaySection,
    StageRule,
)
from baloot_conformance.rules.model import Rule

_CONDITIONS = frozenset(get_args(Condition))
#: The keys of the section that are no stage.
_FIXED = ("obligations", "trick_winner")


def build_play(
    data: Mapping[str, Any],
    contracts: Collection[str] | None = None,
    suits: Collection[str] | None = None,
    pointer: str = "/play",
) -> PlaySection:
    """The typed ``play`` section of ``data`` (the section's plain, schema-valid mapping).

    ``contracts``: the ruleset's contract names, which a node's ``contracts`` must use;
    ``suits``: the pack's suit letters, which a lead ban must use (either not checked when
    ``None``). Raises :class:`SpecError` listing every problem, the first as its message, each
    beginning with its JSON pointer.
    """
    found = play_problems(data, contracts, suits, pointer)
    problems = [f"{where}: {what}" for where, what in found]
    if problems:
        raise SpecError(
            problems[0],
            hint="a node's rule is the key of a stage rule of the play section (hokum.ruff); "
            "every stage rule must be reached by play.obligations",
            problems=tuple(BalootError(p) for p in problems),
        )
    stages: dict[str, StageRule] = {}
    for key, value in data.items():
        if key not in _FIXED:
            cls = STAGE_CLASSES[value["stage"]]
            stages[key] = typing.cast(StageRule, _typed(cls, value, f"play.{key}"))
    raw = data["obligations"]
    obligations = Obligations(
        id="play.obligations",
        statement=raw["statement"],
        sources=tuple(raw.get("sources", ())),
        notes=raw.get("notes"),
        tree=tuple(_node(n) for n in raw["tree"]),
        after=tuple(_node(n) for n in raw.get("after", ())),
    )
    winner = _typed(Rule, data["trick_winner"], "play.trick_winner")
    return PlaySection(obligations=obligations, stages=stages, trick_winner=winner)


def play_problems(
    data: Mapping[str, Any],
    contracts: Collection[str] | None = None,
    suits: Collection[str] | None = None,
    pointer: str = "/play",
) -> Iterator[tuple[str, str]]:
    """The semantic problems of a schema-valid ``play`` section: (JSON pointer, message)."""
    for key in _FIXED:
        if key not in data:
            yield pointer, f"the play section has no {key!r} rule"
    for key, value in data.items():
        if key not in _FIXED and value.get("stage") not in STAGE_CLASSES:
            yield (
                f"{pointer}/{_escape(key)}/stage",
                f"play.{key} names no stage of the library: expected one of "
                f"{', '.join(STAGE_CLASSES)}",
            )
        if key not in _FIXED and value.get("stage") == "lead_ban" and suits is not None:
            for j, suit in enumerate(value.get("suits", ())):
                if suit != "trump" and suit not in suits:
                    yield (
                        f"{pointer}/{_escape(key)}/suits/{j}",
                        f"{suit!r} is not a suit of the pack ({' '.join(suits)}) or trump",
                    )
    raw = data.get("obligations")
    if not isinstance(raw, Mapping):
        return
    used: set[str] = set()
    for part in ("tree", "after"):
        for i, node in enumerate(raw.get(part, ())):
            yield from _node_problems(
                node, f"{pointer}/obligations/{part}/{i}", data, contracts, used
            )
    for key in data:
        if key not in _FIXED and key not in used:
            yield (
                f"{pointer}/{_escape(key)}",
                f"play.{key} is reached by no node of play.obligations: a stage the tree never "
                "evaluates decides nothing",
            )


def _node_problems(
    node: Mapping[str, Any],
    where: str,
    data: Mapping[str, Any],
    contracts: Collection[str] | None,
    used: set[str],
) -> Iterator[tuple[str, str]]:
    rule = node.get("rule")
    if not isinstance(rule, str) or rule in _FIXED or rule not in data:
        stages = ", ".join(k for k in data if k not in _FIXED)
        yield f"{where}/rule", f"{rule!r} is not a stage rule of the play section ({stages})"
    else:
        used.add(rule)
    for j, condition in enumerate(node.get("when", ())):
        if condition not in _CONDITIONS:
            yield (
                f"{where}/when/{j}",
                f"{condition!r} is no condition: expected one of {', '.join(sorted(_CONDITIONS))}",
            )
    if contracts is not None:
        for j, name in enumerate(node.get("contracts", ())):
            if name not in contracts:
                yield (
                    f"{where}/contracts/{j}",
                    f"{name!r} is not a contract of this ruleset ({', '.join(contracts)})",
                )
    for branch in ("then", "otherwise"):
        for j, child in enumerate(node.get(branch, ())):
            yield from _node_problems(child, f"{where}/{branch}/{j}", data, contracts, used)


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


def _typed(cls: type[Rule], value: Mapping[str, Any], rule_id: str) -> Rule:
    """A stage rule (or a plain rule) from its schema-valid mapping: lists become tuples; the
    other parameters (options, numbers, flags) are taken as they are."""
    hints = _hints(cls)
    kwargs: dict[str, Any] = {"id": rule_id, "notes": value.get("notes")}
    for f in dataclasses.fields(cls):
        if f.name in ("id", "notes") or f.name not in value:
            continue
        raw = value[f.name]
        kwargs[f.name] = tuple(raw) if typing.get_origin(hints[f.name]) is tuple else raw
    kwargs.setdefault("sources", ())
    return cls(**kwargs)


def _node(raw: Mapping[str, Any]) -> Node:
    return Node(
        rule=raw["rule"],
        when=tuple(raw.get("when", ())),
        contracts=tuple(raw.get("contracts", ())),
        then=tuple(_node(n) for n in raw.get("then", ())),
        otherwise=tuple(_node(n) for n in raw.get("otherwise", ())),
    )


def _escape(key: str) -> str:
    """A key as a JSON pointer token."""
    return key.replace("~", "~0").replace("/", "~1")
