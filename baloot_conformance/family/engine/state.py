"""The state of a trick-family hand, declared once for the modules that hold its phases' rules.

:class:`~.hand.TrickHand` runs a ruleset's pipeline; the rules of each phase kind live in a
module of their own (:mod:`.draw`, :mod:`.passing`, :mod:`.declarer`, :mod:`.trick_phase`,
:mod:`.layout`, :mod:`.settle`), each a base of the hand. :class:`HandState` is their common
base: it declares (and slots) every attribute the phases read and write, and the hooks a phase
calls to hand over to the hand's sequencing, which :class:`~.hand.TrickHand` implements.
"""

from __future__ import annotations

import random

from baloot_conformance.family.engine.actions import (
    Action,
    Declare,
    Penalty,
    PlayCompiler,
    PlayRules,
)
from baloot_conformance.family.engine.deck import Pack, Ring
from baloot_conformance.family.engine.ledger import Ledger, Seat, Settlement
from baloot_conformance.family.engine.points import PointsSettlement
from baloot_conformance.family.rules.model import TrickRuleset


class HandState:
    """Every attribute of a hand in progress (see each phase's module for what it means)."""

    __slots__ = (
        "_legal",
        "active",
        "active_mask",
        "agenda",
        "closing",
        "compile",
        "contract",
        "dealt_in",
        "declared",
        "declarer",
        "discards",
        "doubles",
        "faceup",
        "finish",
        "folded",
        "gone",
        "hands",
        "history",
        "layout_turn",
        "leader",
        "ledger",
        "moves",
        "names",
        "needs_hands",
        "owed",
        "pack",
        "pack_order",
        "paid",
        "pass_step",
        "passed",
        "penalties",
        "phase",
        "play_rules",
        "reneges",
        "ring",
        "rng",
        "rows",
        "rules",
        "scored",
        "settlement",
        "start_rank",
        "stock",
        "taken",
        "taken_up",
        "trick",
        "trick_number",
        "tricks",
        "trump",
        "turns",
        "wager_turns",
        "wagered",
        "winners",
    )

    rules: TrickRuleset
    ledger: Ledger
    compile: PlayCompiler
    pack: Pack
    ring: Ring
    names: tuple[str, ...]
    phase: str
    contract: str
    trump: int | None
    dealt_in: tuple[Seat, ...]
    hands: list[int]
    # the draw (phases.draw.*)
    discards: list[int]
    folded: list[int]
    stock: int
    faceup: int | None
    declared: dict[Seat, Declare]
    active: tuple[Seat, ...]
    agenda: list[tuple[str, Seat, int]]
    """Steps due in turn: ``("stay", seat, chips)``, ``("discard", seat, n)`` (``n`` cards, or
    any number up to the limit when ``n`` is -1), ``("draw", seat, n)``, the antes and the
    penalties."""
    owed: int
    closing: bool
    pack_order: list[int] | None
    rng: random.Random | None
    paid: dict[Seat, int]
    # the pass (phases.draw.pass)
    passed: list[tuple[int, ...] | None]
    pass_step: int
    taken_up: int
    # the declarer's phases (phases.choose, phases.wagers.*)
    declarer: Seat | None
    start_rank: int | None
    doubles: list[int]
    """The seats each seat doubled or redoubled (masks)."""
    wager_turns: tuple[Seat, ...]
    wagered: int
    # the tricks (phases.tricks, play.*)
    leader: Seat
    trick: tuple[int, ...]
    gone: int
    active_mask: int
    turns: tuple[Seat, ...]
    trick_number: int
    tricks: dict[Seat, int]
    taken: list[int]
    winners: list[Seat]
    play_rules: PlayRules | None
    needs_hands: bool
    """Whether the obligations read the other hands (the cinch): else a lighter context."""
    scored: int
    """The cards whose taking ends the hand (``ends: scored``), 0 when it runs to the end."""
    _legal: int
    reneges: list[tuple[Seat, str]]
    # the layout (phases.layout)
    rows: list[tuple[int, int] | None]
    layout_turn: Seat
    finish: list[Seat]
    moves: int
    # the settlement (scoring.*)
    penalties: list[Penalty]
    settlement: Settlement | PointsSettlement | None
    history: list[Action]

    def to_act(self) -> Seat | None:
        raise NotImplementedError

    def where(self, card: int) -> str:
        raise NotImplementedError

    def describe(self, action: Action) -> str:
        raise NotImplementedError

    def seat_name(self, seat: Seat | None) -> str:
        raise NotImplementedError

    def expected(self) -> str:
        raise NotImplementedError

    def done_step(self) -> None:
        raise NotImplementedError

    def next_phase(self) -> None:
        raise NotImplementedError

    def start_settle(self) -> None:
        raise NotImplementedError

    @property
    def pot(self) -> int:
        raise NotImplementedError
