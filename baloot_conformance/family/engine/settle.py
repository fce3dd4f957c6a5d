"""The settle phase of a trick-family hand [scoring.*].

A pot game (``scoring.outcome`` ``most_tricks``, Bourré) first takes each reneger's penalty
[scoring.pot.renege], then settles the pot (:func:`~.ledger.settle`); a points game
(``points``: Barbu, Hearts) scores the contract's values and settles the wagers
(:mod:`.points`).

:class:`SettlePhase` is a base of :class:`~.hand.TrickHand`: the state is
:class:`~.state.HandState`'s, this module holds the rules.
"""

from __future__ import annotations

from baloot_conformance.family.engine.actions import Action, Penalty
from baloot_conformance.family.engine.ledger import Seat, Settlement, penalty_due, settle
from baloot_conformance.family.engine.obligations import IllegalAction
from baloot_conformance.family.engine.points import (
    PointsSettlement,
    hand_points,
    next_points_ledger,
    settle_wagers,
)
from baloot_conformance.family.engine.state import HandState


class SettlePhase(HandState):
    """The rules of the settlement (state in :class:`~.state.HandState`)."""

    __slots__ = ()

    @property
    def pot_settlement(self) -> Settlement:
        """The settlement of a pot game's hand (Bourré); ValueError before the hand is over
        or in a points game."""
        if not isinstance(self.settlement, Settlement):
            raise ValueError(f"no pot settlement: the hand is {self.phase}, {self.rules.id}")
        return self.settlement

    @property
    def points_settlement(self) -> PointsSettlement:
        """The settlement of a points game's hand (Barbu, Hearts); ValueError before the hand
        is over or in a pot game."""
        if not isinstance(self.settlement, PointsSettlement):
            raise ValueError(f"no points settlement: the hand is {self.phase}, {self.rules.id}")
        return self.settlement

    def start_settle(self) -> None:
        self.phase = "settle"
        due = penalty_due(self.rules, self.pot) if self.reneges else None
        self.agenda = [] if due is None else [("penalty", s, due) for s, _ in self.reneges]
        if not self.agenda:
            self._finish()

    def _push_penalty(self, action: Action, seat: Seat, chips: int) -> None:
        name = self.names[seat]
        rule = "scoring.pot.renege"
        if not isinstance(action, Penalty) or action.seat != seat:
            raise IllegalAction(
                rule, f"{name} reneged and owes a penalty of {chips}; got {self.describe(action)}"
            )
        if action.chips != chips:
            raise IllegalAction(
                rule,
                f"{name} reneged and pays {chips} into the next pot (the pot is {self.pot}), "
                f"not {action.chips}",
            )
        self.penalties.append(action)

    def _finish(self) -> None:
        if self.rules.scoring.outcome.option == "points":
            self._finish_points()
            return
        reneges: dict[Seat, int] = {}
        for penalty in self.penalties:
            reneges[penalty.seat] = reneges.get(penalty.seat, 0) + penalty.chips
        self.settlement = settle(
            self.rules,
            self.ledger,
            paid=self.paid,
            tricks=self.tricks,
            reneges=reneges,
        )
        self.phase = "over"

    def _finish_points(self) -> None:
        """``scoring.outcome`` ``points``: the values of the contract, then the wagers."""
        rules = self.rules
        points, moon = hand_points(
            rules,
            rules.contracts[self.contract],
            self.pack,
            taken=self.taken,
            winners=self.winners,
            order=self.finish,
        )
        score = settle_wagers(rules, points, self.doubles)
        following = next_points_ledger(
            rules,
            self.ledger,
            score,
            contract=self.contract if self.declarer is not None else None,
            doubles=self.doubles,
        )
        self.settlement = PointsSettlement(points, score, moon, tuple(self.finish), following)
        self.phase = "over"
