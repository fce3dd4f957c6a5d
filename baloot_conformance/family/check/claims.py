"""Checking a BTN 2 hand's claims against what the replay computed: a legal set, a trick's
winner, the closing claims (a pot game's tricks, pot, pays and score; a points game's tricks,
points, score, totals and a layout's finishing order).

:class:`HandClaims` is a base of :class:`~.hand_check.HandReplay`, which holds the replay
(the hand, the trick winners, the divergences) and pushes the events; this module judges the
claims, each under the rule that decides it.
"""

from __future__ import annotations

from baloot_conformance.check.verdicts import DivergenceKind
from baloot_conformance.family.btn import items as b2
from baloot_conformance.family.check.points_check import CLAIM_RULES, points_truth
from baloot_conformance.family.engine.deck import Ring
from baloot_conformance.family.engine.hand import TrickHand
from baloot_conformance.family.engine.ledger import Settlement
from baloot_conformance.family.engine.pack import pack_of
from baloot_conformance.family.engine.points import PointsSettlement
from baloot_conformance.family.rules.model import TrickRuleset


class HandClaims:
    """The claims' checks (state in :class:`~.hand_check.HandReplay`)."""

    rules: TrickRuleset
    ring: Ring
    hand: TrickHand
    winners: dict[int, int]
    unchecked: list[str]
    claims: int
    stopped: bool

    def seat(self, name: str) -> int:
        raise NotImplementedError

    def diverge(
        self,
        item: b2.Item,
        rule_id: str | None,
        kind: DivergenceKind,
        message: str,
        expected: str | None = None,
        claimed: str | None = None,
    ) -> None:
        raise NotImplementedError

    def claim(self, item: b2.Claim) -> None:
        self.claims += 1
        if self.stopped:
            self.unchecked.append(item.position)
            return
        if isinstance(item, b2.LegalClaim):
            self._legal(item)
        elif isinstance(item, b2.TrickClaim):
            self._trick(item)
        elif isinstance(item, b2.SidesClaim):
            self._sides(item)
        elif isinstance(item, b2.OrderClaim):
            self._order(item)

    def _order(self, item: b2.OrderClaim) -> None:
        settlement = self.hand.settlement
        if not isinstance(settlement, PointsSettlement) or not settlement.order:
            self.diverge(
                item,
                "phases.layout",
                "wrong_claim",
                "a finishing order, but no layout has been played out in this hand",
            )
            return
        truth = tuple(self.ring.names[s] for s in settlement.order)
        if truth != item.seats:
            self.diverge(
                item,
                "phases.layout",
                "wrong_claim",
                f"the layout's finishing order is {' '.join(truth)}, not {' '.join(item.seats)}",
                expected=" ".join(truth),
                claimed=" ".join(item.seats),
            )

    def _legal(self, item: b2.LegalClaim) -> None:
        hand = self.hand
        pack = pack_of(self.rules)
        if hand.phase != "tricks" or hand.to_act() != self.seat(item.seat):
            turn = hand.seat_name(hand.to_act()) if hand.phase == "tricks" else "nobody"
            self.diverge(
                item,
                "phases.tricks",
                "wrong_claim",
                f"a legal-set claim for {item.seat}, but the card to play next is {turn}'s",
            )
            return
        legal = hand.legal_cards()
        claimed = sum(1 << pack.index[c] for c in item.cards)
        if claimed != legal:
            rule = self.rules.play.obligations.id
            self.diverge(
                item,
                rule,
                "wrong_claim",
                f"{item.seat} may play {pack.format(legal)}; the engine offered "
                f"{pack.format(claimed)}",
                expected=pack.format(legal),
                claimed=pack.format(claimed),
            )

    def _trick(self, item: b2.TrickClaim) -> None:
        winner = self.winners.get(item.trick)
        if winner is None:
            self.diverge(
                item,
                "play.trick_winner",
                "wrong_claim",
                f"trick {item.trick} is not complete; its winner cannot be claimed yet",
            )
            return
        name = self.ring.names[winner]
        if name != item.winner:
            self.diverge(
                item,
                "play.trick_winner",
                "wrong_claim",
                f"trick {item.trick} is won by {name}, not {item.winner}",
                expected=name,
                claimed=item.winner,
            )

    def _sides(self, item: b2.SidesClaim) -> None:
        hand = self.hand
        settlement = hand.settlement
        if settlement is None:
            self.diverge(
                item,
                "phases.pipeline",
                "wrong_claim",
                f"the hand is not over (expected {hand.expected()}); its {item.name} cannot "
                "be claimed yet",
            )
            return
        if isinstance(settlement, PointsSettlement):
            if item.name not in CLAIM_RULES:
                self.diverge(
                    item,
                    "scoring.outcome",
                    "wrong_claim",
                    f"a '= {item.name}' claim: {self.rules.id} is a points game (claims: "
                    + ", ".join(CLAIM_RULES)
                    + ")",
                )
                return
            truth = points_truth(settlement, item.name, hand.tricks, self.ring.size)
            rule = CLAIM_RULES[item.name]
            if item.name == "score" and not any(hand.doubles):
                rule = "scoring.outcome"
        elif item.name in ("points", "total"):
            self.diverge(
                item,
                "scoring.outcome",
                "wrong_claim",
                f"a '= {item.name}' claim: {self.rules.id} is a pot game",
            )
            return
        else:
            truth = self.truth(item.name)
            rule = {
                "tricks": "play.trick_winner",
                "pot": "scoring.outcome",
                "pays": self.pays_rule(),
                "score": "scoring.outcome",
            }[item.name]
        wrong = [(seat, n) for seat, n in item.values if truth[self.seat(seat)] != n]
        if wrong:
            expected = " ".join(f"{s} {truth[self.seat(s)]}" for s, _ in item.values)
            claimed = " ".join(f"{s} {n}" for s, n in item.values)
            said = ", ".join(f"{s} {truth[self.seat(s)]}, not {n}" for s, n in wrong)
            self.diverge(
                item,
                rule,
                "wrong_claim",
                f"{item.name}: {said}{self.why(item.name)}",
                expected=expected,
                claimed=claimed,
            )

    def truth(self, name: str) -> list[int]:
        """What the hand computed, per seat: tricks, chips from the pot, chips paid into the
        next pot, the hand's net chips."""
        hand = self.hand
        settlement = hand.pot_settlement
        n = self.ring.size
        if name == "tricks":
            return [hand.tricks.get(s, 0) for s in range(n)]
        if name == "pot":
            return [settlement.won if s == settlement.winner else 0 for s in range(n)]
        if name == "pays":
            return [settlement.bourre.get(s, 0) + settlement.reneges.get(s, 0) for s in range(n)]
        before, after = hand.ledger.chips, settlement.next.chips
        return [after[s] - before[s] for s in range(n)]

    def pays_rule(self) -> str:
        settlement = self.hand.pot_settlement
        return "scoring.pot.renege" if settlement.reneges else "scoring.pot.bourre"

    def why(self, name: str) -> str:
        settlement = self.hand.settlement
        if not isinstance(settlement, Settlement) or name != "pot":
            return ""
        if settlement.winner is None:
            tie = " ".join(self.ring.names[s] for s in settlement.tie)
            return f" (no strict winner: {tie} tie, and the pot carries)" if tie else ""
        return (
            f" ({self.ring.names[settlement.winner]} took strictly the most tricks and the"
            f" pot of {settlement.won})"
        )
