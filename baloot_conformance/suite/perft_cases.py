"""Perft asked of the engine: the ``perft`` request, and the cases that send it.

A fixture may record perft counts (``perft: [{position: h1.t5.p1, depth: 8, nodes: 96}]``,
checked by ``fixtures lint``): each is a case of its own (:func:`perft_cases`), id
``<fixture id>.<position>.perft``. The engine is shown the hand cut just before that
position, as for ``legal``, and asked how many sequences of that many plies may follow
(:mod:`~baloot_conformance.engine.perft` says what a ply is); its count is compared with the
kit's, and so is its ``divide`` (the count of each first ply) when it gives one.

Where they differ and the engine divides, the kit walks down the tree as one debugs a move
generator with perft: it follows the first ply the two count differently and asks again
one ply deeper, until the ply that one side allows and the other does not. The failure
(observable ``perft``, at the case's position) names that line of play, the ply, and the
rule that forbids it or lets it come. Only an engine that declares the ``perft`` capability
is asked; for any other, these cases are ``unsupported``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from baloot_conformance import btn
from baloot_conformance.btn import json_form
from baloot_conformance.check import perft as kit
from baloot_conformance.corpus.fixtures import Fixture, PerftRecord, load_fixture
from baloot_conformance.engine.hand import Hand
from baloot_conformance.errors import BalootError, Location
from baloot_conformance.rules.ruleset import Ruleset
from baloot_conformance.suite.cases import Case, Failure, index_of, start_events
from baloot_conformance.suite.judging import KitDefect

PERFT = "perft"
"""The capability, and the request, by which an engine counts perft."""


def perft_cases(case: Case, fixture: Fixture) -> list[Case]:
    """A case for each perft count ``fixture`` records (``case`` is its own case)."""
    return [
        dataclasses.replace(case, id=f"{case.id}.{record.position}.perft", perft=record.position)
        for record in fixture.perft
    ]


def _record(case: Case) -> PerftRecord:
    try:
        records = load_fixture(Path(case.path)).perft
    except BalootError as exc:
        raise KitDefect(f"the fixture cannot be read: {exc}") from None
    found = next((r for r in records if r.position == case.perft), None)
    if found is None:
        raise KitDefect(f"the fixture records no perft count at {case.perft}")
    return found


def judge_perft(
    case: Case,
    hands: Sequence[btn.Hand],
    totals: Sequence[tuple[int, int]],
    rules: Ruleset,
    ask: Callable[..., dict[str, Any]],
    document: Callable[[list[dict[str, Any]]], dict[str, Any]],
    where: Mapping[str, Location],
) -> Failure | None:
    """Ask the engine for the perft count the case's fixture records (``hands`` as the
    engine is shown them, ``totals`` before each), and compare it with the kit's.

    Raises:
        KitDefect: the fixture's count is not the kit's, or its position cannot be counted.
    """
    record = _record(case)
    position = record.position
    h_index = next((i for i, h in enumerate(hands) if h.position == position.split(".")[0]), -1)
    if h_index < 0 or index_of(hands[h_index], position) == len(hands[h_index].items):
        raise KitDefect(f"the case has no event at {position}")
    hand = hands[h_index]
    try:
        node = kit.hand_at(hands[: h_index + 1], rules, position)
    except kit.PerftError as exc:
        raise KitDefect(f"the kit cannot count from {position}: {exc.message}") from None
    counted = kit.count(node, record.depth, divide=True, position=position)
    if counted.nodes != record.nodes:
        raise KitDefect(
            f"the fixture records {record.nodes} sequences at {position} to depth "
            f"{record.depth}, the kit counts {counted.nodes}: a defect of the corpus"
        )
    items = [
        *start_events(hand, totals[h_index]),
        *(json_form.item_json(i) for i in hand.items[: index_of(hand, position)]),
    ]

    def request(extra: list[dict[str, object]], depth: int) -> dict[str, Any]:
        return ask(
            PERFT,
            transcript=document([{"hand": hand.number, "items": [*items, *extra]}]),
            depth=depth,
        )

    answer = request([], record.depth)
    theirs = answer.get("divide")
    if answer["nodes"] == counted.nodes and (
        theirs is None or kit.first_difference(counted.divide or (), theirs) is None
    ):
        return None
    found = f"the engine counts {answer['nodes']} sequences, the ruleset {counted.nodes}"
    rule, line = _walk(node, record.depth, counted, theirs, request)
    return Failure(
        "perft",
        position,
        rule,
        f"perft from {position} to depth {record.depth}: {found}; {line}",
        expected=str(counted.nodes),
        actual=str(answer["nodes"]),
        location=where.get(position),
    )


def _walk(
    node: Hand,
    depth: int,
    counted: kit.PerftCount,
    theirs: Mapping[str, int] | None,
    request: Callable[[list[dict[str, object]], int], dict[str, Any]],
) -> tuple[str | None, str]:
    """Follow the first ply the engine and the kit count differently, one ply deeper at a
    time, to the ply one of them allows and the other does not: its rule, and the sentence
    that names the line of play and the ply."""
    line: list[str] = []
    events: list[dict[str, object]] = []
    mine: Sequence[tuple[str, int]] = counted.divide or ()
    while True:
        if theirs is None:
            return None, "the engine gives no divide, which would name the first ply they part on"
        difference = kit.first_difference(mine, theirs)
        if difference is None:
            return None, (
                f"{_after(line)}the engine's divide agrees with the ruleset's but not with its "
                "own total"
            )
        words, kit_count, engine_count = difference
        ply = kit.ply_named(node, words)
        if ply is None:
            rule, reason = kit.ply_rule(node, words)
            return (
                rule,
                f"{_after(line)}the engine allows {words}, which the ruleset forbids: {reason}",
            )
        if not engine_count:
            rule, _ = kit.ply_rule(node, words) if depth == 1 else (None, "")
            what = "allow" if depth == 1 else "count any sequence after"
            return rule, (
                f"{_after(line)}the engine does not {what} {words}, which the ruleset allows "
                f"({kit_count} sequences)"
            )
        if depth == 1:
            return None, (
                f"{_after(line)}the engine counts {engine_count} sequences for {words} at depth "
                "1, where a ply is one"
            )
        line.append(words)
        events.append(kit.ply_event(ply))
        node, depth = kit.after(node, ply), depth - 1
        if node.phase == "completion":
            return None, (
                f"{_after(line)}the auction is over, a leaf: the completion of the deal is no "
                f"ply, but the engine counts {engine_count} sequences after {words}"
            )
        mine = kit.count(node, depth, divide=True).divide or ()
        theirs = request(events, depth).get("divide")


def _after(line: Sequence[str]) -> str:
    return f"after {', '.join(line)}: " if line else ""
