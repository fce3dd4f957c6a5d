"""What a pot game carries from one hand to the next, and the settlement that carries it.

Bourré is an open session of hands around one pot: a hand is judged from its own events plus the
state the hands before it left, the :class:`Ledger` (the pot, each player's chips, who skips the
next ante, who deals). A hand takes a ledger in and gives the next one out (:func:`settle`), so a
single hand of a session is checkable from a ``start`` state, and a session is a chain of them.

Chips are exact integers and are conserved: every chip a player pays (an ante, a stay, a
bourré, a renege) goes into the pot or the next pot, and the only chips a player receives
are a pot he wins. The sum of the players' chips and the pot is the same before and after
every hand (:meth:`Ledger.total`).

The mechanisms, each under its rule ID:

- ``phases.ante``: who pays and how much (:func:`ante_due`); ``exempt`` reads the ledger;
- ``scoring.outcome`` (``most_tricks``): strictly more tricks than any other player wins;
- ``scoring.pot.tie`` (``carry``): no strict winner: the pot stays for the next hand, and the
  tied leaders skip its ante when ``phases.ante`` exempts ``tie_leaders``;
- ``scoring.pot.bourre``: an active player with no trick pays the formula into the next pot
  and, when ``phases.ante`` exempts ``bourre``, skips the next ante;
- ``scoring.pot.renege``: a reneger pays the formula into the next pot (:func:`penalty_due`);
- ``scoring.pot.limit``: no payment into the pot is more than the limit (the formulas also
  see it as ``limit``); with ``caps: payments_and_winnings`` the winner too takes at most the
  limit, the rest of the pot carrying to the next hand;
- ``table.dealer.rotation``: the next dealer (:func:`next_dealer`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from baloot_conformance.family.rules.model import Payment, TrickRuleset

Seat = int


@dataclass(frozen=True, slots=True)
class Ledger:
    """The carried state between hands: ``Ledger.start(players)`` for a new session."""

    players: int
    """Seats at the table, 0 .. players-1 in play order."""
    dealer: Seat
    """Who deals the next hand."""
    chips: tuple[int, ...]
    """Each player's chips (a balance: negative when he has paid in more than he won)."""
    pot: int = 0
    """The pot the next hand is played for, before its antes."""
    exempt: frozenset[Seat] = frozenset()
    """Who skips the next ante (``phases.ante`` ``exempt``)."""
    hand: int = 1
    """The number in the game of the hand this ledger opens (the pass cycle, the schedule)."""
    scores: tuple[int, ...] = ()
    """Each player's game total in a points game (empty: every total 0)."""
    chosen: tuple[tuple[str, ...] | None, ...] = ()
    """By declarer, the contracts he has chosen in his block so far (``None``: not known, as
    after a ``start`` line, which names only its own declarer's); empty: none chosen."""
    doubled: tuple[tuple[int, ...] | None, ...] = ()
    """By declarer, how many times each seat has doubled him in his block (``None``: not
    known); empty: nobody has."""

    def total_of(self, seat: Seat) -> int:
        """``seat``'s game total in a points game."""
        return self.scores[seat] if self.scores else 0

    def chosen_by(self, declarer: Seat) -> tuple[str, ...] | None:
        """The contracts ``declarer`` has chosen in his block; ``None``: not known."""
        return self.chosen[declarer] if self.chosen else ()

    def doubles_of(self, declarer: Seat) -> tuple[int, ...] | None:
        """How often each seat has doubled ``declarer`` in his block; ``None``: not known."""
        return self.doubled[declarer] if self.doubled else (0,) * self.players

    @classmethod
    def start(
        cls, players: int, dealer: Seat = 0, chips: Sequence[int] | None = None, pot: int = 0
    ) -> Ledger:
        """A session's first state: nobody exempt."""
        balance = tuple(chips) if chips is not None else (0,) * players
        if len(balance) != players:
            raise ValueError(f"{len(balance)} chip counts for {players} players")
        if not 0 <= dealer < players:
            raise ValueError(f"dealer {dealer} is not a seat of {players}")
        return cls(players=players, dealer=dealer, chips=balance, pot=pot)

    def total(self) -> int:
        """Every chip in the game: the players' and the pot's (constant over a session)."""
        return sum(self.chips) + self.pot

    def dealt_in(self) -> tuple[Seat, ...]:
        """The seats the next hand is dealt to, in play order from the dealer's next seat."""
        return tuple((self.dealer + k) % self.players for k in range(1, self.players + 1))


@dataclass(frozen=True, slots=True)
class Settlement:
    """How a hand ended for the pot: who won it, who paid into the next one, the next ledger."""

    winner: Seat | None
    """The seat that took the pot; ``None``: a tie or nobody played."""
    won: int
    """The chips the winner took (the hand's pot)."""
    tie: tuple[Seat, ...]
    """The tied leaders when there is no strict winner."""
    bourre: Mapping[Seat, int]
    """``scoring.pot.bourre``: what each player with no trick pays into the next pot."""
    reneges: Mapping[Seat, int]
    """``scoring.pot.renege``: what each reneger paid into the next pot."""
    next: Ledger = field(repr=False)

    @property
    def taken(self) -> dict[Seat, int]:
        """What each seat took from the pot (a transcript's ``= pot`` claim)."""
        return {} if self.winner is None else {self.winner: self.won}

    @property
    def pays(self) -> dict[Seat, int]:
        """What each seat paid into the next pot, bourré and renege together (``= pays``)."""
        paid = dict(self.bourre)
        for seat, chips in self.reneges.items():
            paid[seat] = paid.get(seat, 0) + chips
        return paid


def ante_due(ruleset: TrickRuleset, ledger: Ledger) -> tuple[tuple[Seat, int], ...]:
    """``phases.ante``: each seat dealt in and not exempt, with the chips it pays, in order."""
    ante = ruleset.phases.ante
    if ante is None or "ante" not in ruleset.phases.pipeline.kinds:
        return ()
    return tuple((s, ante.chips) for s in ledger.dealt_in() if s not in ledger.exempt)


def payment(rule: Payment, pot: int, limit: int) -> int:
    """A payment's formula at this pot, never more than ``limit`` (``scoring.pot.limit``)."""
    chips = rule.pays.evaluate_int({"pot": pot, "limit": limit})
    return min(chips, limit) if limit > 0 else chips


def pot_limit(ruleset: TrickRuleset) -> int:
    rule = ruleset.scoring.limit
    return 0 if rule is None else rule.chips


def penalty_due(ruleset: TrickRuleset, pot: int) -> int | None:
    """``scoring.pot.renege``: what a reneger pays when the hand was played for ``pot``;
    ``None``: the ruleset sets no penalty."""
    rule = ruleset.scoring.renege
    return None if rule is None else payment(rule, pot, pot_limit(ruleset))


def next_dealer(ruleset: TrickRuleset, ledger: Ledger) -> Seat:
    """``table.dealer.rotation``: the next dealer: ``stay`` keeps him, ``next`` passes the deal
    to the next seat."""
    if ruleset.table.dealer_rotation.option == "stay":
        return ledger.dealer
    return (ledger.dealer + 1) % ledger.players


def settle(
    ruleset: TrickRuleset,
    ledger: Ledger,
    *,
    paid: Mapping[Seat, int],
    tricks: Mapping[Seat, int],
    reneges: Mapping[Seat, int] | None = None,
) -> Settlement:
    """The hand's settlement and the next ledger.

    ``paid``: what each seat put into this hand's pot (antes and stays); ``tricks``: the
    tricks of each active seat (a seat that folded is not in it); ``reneges``: what each
    reneger paid (checked against :func:`penalty_due` by the hand).
    """
    scoring = ruleset.scoring
    limit = pot_limit(ruleset)
    exempt_kinds = () if ruleset.phases.ante is None else ruleset.phases.ante.exempt
    hand_pot = ledger.pot + sum(paid.values())
    chips = list(ledger.chips)
    for seat, amount in paid.items():
        chips[seat] -= amount
    winner: Seat | None = None
    tie: tuple[Seat, ...] = ()
    exempt: set[Seat] = set()
    next_pot = hand_pot
    won = 0
    order = ledger.dealt_in()
    if tricks:
        most = max(tricks.values())
        leaders = tuple(s for s in order if tricks.get(s, -1) == most)
        if len(leaders) == 1:
            winner = leaders[0]
            won = hand_pot
            if (
                limit
                and scoring.limit is not None
                and scoring.limit.caps == "payments_and_winnings"
            ):
                won = min(hand_pot, limit)
            chips[winner] += won
            next_pot = hand_pot - won
        else:
            tie = leaders
            if "tie_leaders" in exempt_kinds:
                exempt.update(leaders)
    bourre: dict[Seat, int] = {}
    if scoring.bourre is not None and 0 in tricks.values():
        due = payment(scoring.bourre, hand_pot, limit)
        for seat in order:
            if tricks.get(seat) == 0:
                bourre[seat] = due
                if "bourre" in exempt_kinds:
                    exempt.add(seat)
    renege = dict(reneges or {})
    for seat, amount in (*bourre.items(), *renege.items()):
        chips[seat] -= amount
        next_pot += amount
    following = Ledger(
        players=ledger.players,
        dealer=next_dealer(ruleset, ledger),
        chips=tuple(chips),
        pot=next_pot,
        exempt=frozenset(exempt),
    )
    return Settlement(
        winner=winner,
        won=won,
        tie=tie,
        bourre=bourre,
        reneges=renege,
        next=following,
    )
