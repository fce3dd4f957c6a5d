"""The tricks phase of a trick-family hand [phases.tricks, play.*].

``count`` tricks among the seats still in. The first lead is the first seat after the dealer
still in (Bourré), the declarer (Barbu) or the holder of a card (Hearts' two of clubs)
(``first_lead``); the winner of each trick leads the next. Which card is legal and who wins a
trick is the obligation engine's (a :class:`~.actions.PlayRules`, compiled per contract and
trump when the play starts). A contract that ``ends: scored`` ends with the trick that takes
the last card its values score.

:class:`TrickPhase` is a base of :class:`~.hand.TrickHand`: the state is
:class:`~.state.HandState`'s, this module holds the rules.
"""

from __future__ import annotations

from baloot_conformance.family.engine.actions import Play
from baloot_conformance.family.engine.ledger import Seat
from baloot_conformance.family.engine.obligations import Context as TrickContext
from baloot_conformance.family.engine.obligations import IllegalAction
from baloot_conformance.family.engine.pack import mask_of
from baloot_conformance.family.engine.points import scored_cards
from baloot_conformance.family.engine.state import HandState


class TrickPhase(HandState):
    """The rules of the tricks (state in :class:`~.state.HandState`)."""

    __slots__ = ()

    def context(self) -> TrickContext:
        """The obligation engine's view of the card to be played now (the other hands and
        the tricks won only where a stage reads them)."""
        turns = self.turns[: len(self.trick) + 1]
        if not self.needs_hands:
            return TrickContext(turns, self.ring, self.active_mask, None, self.gone)
        return TrickContext(
            seats=turns,
            ring=self.ring,
            active=self.active_mask,
            hands=tuple(self.hands),
            gone=self.gone,
            won=self.tricks[turns[-1]],
        )

    def legal_cards(self) -> int:
        """The cards the seat to play may play (a mask); 0 outside the tricks."""
        if self.phase != "tricks":
            return 0
        if self._legal < 0:
            held = self.hands[self._next_in_trick()]
            if held & (held - 1) == 0:  # one card left (the last trick): no stage has a say
                self._legal = held
            else:
                assert self.play_rules is not None
                self._legal = self.play_rules.legal(held, self.trick, self.context())
        return self._legal

    def _start_tricks(self) -> bool:
        """Set up the play; ``False`` when nobody plays (every player passed)."""
        if not self.active:
            return False
        tricks = self.rules.phases.tricks
        if tricks.first_lead == "declarer" and self.declarer is not None:
            self.leader = self.declarer
        elif tricks.first_lead == "holder" and tricks.holder is not None:
            card = self.pack.index[tricks.holder]
            self.leader = next(s for s in self.active if self.hands[s] >> card & 1)
        else:  # phases.tricks: the first seat after the dealer still in the hand leads.
            after = (self.ledger.dealer + 1) % self.ledger.players
            self.leader = next(
                (after + k) % self.ledger.players
                for k in range(self.ledger.players)
                if (after + k) % self.ledger.players in self.active
            )
        self.tricks = {s: 0 for s in self.active}
        self.active_mask = mask_of(self.active)
        self._rotate()
        self.play_rules = self.compile(self.rules, self.contract, self.trump)
        self.needs_hands = getattr(self.play_rules, "needs_hands", True)
        contract = self.rules.contracts[self.contract]
        self.scored = scored_cards(self.pack, contract.values) if contract.ends == "scored" else 0
        self.phase = "tricks"
        return True

    def _rotate(self) -> None:
        """The trick's turns: the active seats from the leader on."""
        start = self.active.index(self.leader)
        self.turns = self.active[start:] + self.active[:start]

    def _next_in_trick(self) -> Seat:
        """The seat to play the trick's next card."""
        return self.turns[len(self.trick)]

    def _check_turn_and_hold(self, action: Play) -> None:
        seat = self._next_in_trick()
        if action.seat != seat:
            raise IllegalAction(
                "phases.tricks",
                f"{self.seat_name(action.seat)} played {self._code(action.card)}, but "
                f"{self.names[seat]} is to play",
            )
        if not 0 <= action.card < self.pack.size or not self.hands[seat] >> action.card & 1:
            raise IllegalAction(
                "phases.tricks",
                f"{self.names[seat]} played {self._code(action.card)}, which it does not hold "
                f"(holds {self.pack.format(self.hands[seat])})",
            )

    def _check_play(self, action: Play) -> None:
        if not self.legal_cards() >> action.card & 1:
            assert self.play_rules is not None
            seat = action.seat
            self.play_rules.check(self.hands[seat], self.trick, self.context(), action.card)
            raise AssertionError("the obligations' check accepted a card their legal set refuses")

    def _apply_play(self, action: Play) -> None:
        self.hands[action.seat] &= ~(1 << action.card)
        self.trick += (action.card,)
        self._legal = -1
        if len(self.trick) < len(self.active):
            return
        assert self.play_rules is not None
        winner = self.turns[self.play_rules.winner(self.trick)]
        self.tricks[winner] += 1
        self.leader = winner
        self._rotate()
        cards = mask_of(self.trick)
        self.gone |= cards
        self.taken[winner] |= cards
        self.winners.append(winner)
        self.trick = ()
        self.trick_number += 1
        scored = self.scored  # ends: scored: every card the contract scores is taken
        if self.trick_number == self.rules.phases.tricks.count or (
            scored and self.gone & scored == scored
        ):
            self.next_phase()

    def _code(self, card: int) -> str:
        return self.pack.codes[card] if 0 <= card < self.pack.size else f"card {card}"
