"""The layout phase of a compendium game (Barbu's Domino, Fan-tan) [phases.layout].

The declarer has named a start rank. From ``first`` on, in the direction of play, each player
still holding cards adds one card to the layout if he can, and knocks (:class:`Knock`) only
when he cannot: a card of the start rank opens its suit's row; a card one rank above the top
of a row, or one below its bottom, extends it (the ranks in the pack's natural order, 2 at
the bottom and the Ace at the top). A player who plays his last card is out, and takes the
next finishing place; play goes on until one player is left, who takes the last place. The
places are scored by the contract's ``values.places`` (:mod:`.points`).

:class:`LayoutPhase` is a base of :class:`~.hand.TrickHand`: the hand holds the state, this
module the rules.
"""

from __future__ import annotations

from baloot_conformance.family.engine.actions import Action, Knock, Play
from baloot_conformance.family.engine.deck import cards_of
from baloot_conformance.family.engine.ledger import Seat
from baloot_conformance.family.engine.obligations import IllegalAction
from baloot_conformance.family.engine.state import HandState

RULE = "phases.layout"


class LayoutPhase(HandState):
    """The layout's rules (state in :class:`~.hand.TrickHand`)."""

    __slots__ = ()

    def _start_layout(self) -> None:
        rule = self.rules.phases.layout
        declarer = self.declarer
        assert rule is not None and declarer is not None
        n = self.ledger.players
        self.rows = [None] * len(self.pack.suits)
        self.finish = []
        self.moves = 0
        self.layout_turn = declarer if rule.first == "declarer" else (declarer + 1) % n

    def fitting(self, seat: Seat) -> int:
        """The cards of ``seat`` that fit the layout now (a mask)."""
        pack = self.pack
        start = self.start_rank
        assert start is not None
        ranks = len(pack.ranks)
        fits = 0
        for suit, row in enumerate(self.rows):
            base = pack.suit_masks[suit]
            first = (base & -base).bit_length() - 1
            if row is None:
                fits |= 1 << (first + start)
                continue
            low, high = row
            if low > 0:
                fits |= 1 << (first + low - 1)
            if high < ranks - 1:
                fits |= 1 << (first + high + 1)
        return fits & self.hands[seat]

    def layout_actions(self) -> list[Action]:
        seat = self.layout_turn
        fits = self.fitting(seat)
        if not fits:
            return [Knock(seat)]
        return [Play(seat, card) for card in cards_of(fits)]

    def _push_layout(self, action: Action) -> None:
        seat = self.layout_turn
        name = self.names[seat]
        if not isinstance(action, (Play, Knock)) or action.seat != seat:
            raise IllegalAction(
                RULE, f"{name} is to add a card to the layout or knock, not {self.describe(action)}"
            )
        fits = self.fitting(seat)
        if isinstance(action, Knock):
            if fits:
                raise IllegalAction(
                    RULE,
                    f"{name} knocked, but {self.pack.format(fits)} fits the layout "
                    f"({self.describe_layout()}): a player knocks only when he cannot play",
                )
        else:
            card = action.card
            if not (0 <= card < self.pack.size and self.hands[seat] >> card & 1):
                held = self.pack.format(self.hands[seat])
                code = self.pack.codes[card] if 0 <= card < self.pack.size else f"card {card}"
                raise IllegalAction(RULE, f"{name} played {code}, which it does not hold ({held})")
            if not fits >> card & 1:
                fitting = self.pack.format(fits) if fits else "nothing (a knock)"
                raise IllegalAction(
                    RULE,
                    f"{name} played {self.pack.codes[card]}, which does not fit the layout "
                    f"({self.describe_layout()}): {name} may play {fitting}",
                )
            self._lay(seat, card)
        self.moves += 1
        self._next_turn()

    def _lay(self, seat: Seat, card: int) -> None:
        pack = self.pack
        suit = pack.suit_of[card]
        base = pack.suit_masks[suit]
        rank = card - ((base & -base).bit_length() - 1)
        row = self.rows[suit]
        self.rows[suit] = (rank, rank) if row is None else (min(row[0], rank), max(row[1], rank))
        self.hands[seat] &= ~(1 << card)
        if not self.hands[seat]:
            self.finish.append(seat)

    def _next_turn(self) -> None:
        n = self.ledger.players
        left = [s for s in range(n) if self.hands[s]]
        if len(left) <= 1:
            self.finish.extend(left)
            for seat in left:
                self.hands[seat] = 0
            self.start_settle()
            return
        seat = self.layout_turn
        for _ in range(n):
            seat = (seat + 1) % n
            if self.hands[seat]:
                break
        self.layout_turn = seat

    def describe_layout(self) -> str:
        """The layout in words: ``hearts 5H-8H, spades not opened``."""
        pack = self.pack
        parts = []
        for suit, row in enumerate(self.rows):
            letter = pack.suits[suit]
            if row is None:
                parts.append(f"{letter} not opened")
            else:
                low, high = pack.ranks[row[0]], pack.ranks[row[1]]
                parts.append(f"{low}{letter}" if low == high else f"{low}{letter}-{high}{letter}")
        return ", ".join(parts)
