"""Checking a hand of a points game (Barbu, Hearts): what its statements are on the engine, and
what its claims are checked against.

- The game state a hand starts from: its own ``start`` line's game form (the hand's number,
  the totals, the declarer's block so far), else the state the hand before it left, else a
  new game; the dealer from the ``dealer`` line (which, for a game's first hand, fixes the
  declarer: ``table.dealer.rotation``).
- ``bid SEAT CONTRACT [SUIT | RANK]``: the declarer's choice (:class:`~.actions.Choose`);
  ``raise SEAT ...``: a seat's doubles and redoubles (:class:`~.actions.Wager`); ``play SEAT
  CARD`` and ``knock SEAT``: a layout's moves; a pass's ``exchange`` lines: each seat's
  :class:`~.actions.Discard` as it comes, the cards taken up once every seat has passed.
- The closing claims: ``= points`` (the contract's values), ``= score`` (after the wagers),
  ``= total`` (the game's totals after the hand), ``= order`` (a layout's finishing order).
"""

from __future__ import annotations

from baloot_conformance.family.btn import items as b2
from baloot_conformance.family.engine.actions import Action, Choose, Wager
from baloot_conformance.family.engine.deck import Ring
from baloot_conformance.family.engine.ledger import Ledger
from baloot_conformance.family.engine.pack import pack_of
from baloot_conformance.family.engine.points import PointsSettlement, declarer_of
from baloot_conformance.family.rules.model import TrickRuleset

#: The rule each closing claim of a points game is judged under.
CLAIM_RULES = {
    "points": "scoring.outcome",
    "score": "scoring.wagers",
    "total": "game.kind",
    "tricks": "play.trick_winner",
}


def is_points_game(rules: TrickRuleset) -> bool:
    return rules.scoring.outcome.option == "points"


def points_ledger(
    rules: TrickRuleset,
    ring: Ring,
    start: b2.Start | None,
    dealer: int,
) -> Ledger:
    """The game state of a hand read from its ``start`` line (a new game without one): the
    declarer's record as the line states it, every other declarer's not known."""
    n = ring.size
    index = ring.names.index
    if start is None:
        return Ledger(players=n, dealer=dealer, chips=(0,) * n)
    scores = [0] * n
    for name, value in start.scores:
        scores[index(name)] = value
    assert start.hand is not None and start.hand >= 1  # the reader refuses any other
    ledger = Ledger(players=n, dealer=dealer, chips=(0,) * n, hand=start.hand)
    declarer = declarer_of(rules, ledger)
    if declarer is None:
        return Ledger(
            players=n, dealer=dealer, chips=(0,) * n, hand=ledger.hand, scores=tuple(scores)
        )
    chosen: list[tuple[str, ...] | None] = [None] * n
    doubled: list[tuple[int, ...] | None] = [None] * n
    counts = [0] * n
    for name, value in start.doubled:
        counts[index(name)] = value
    if start.chosen is not None or start.doubled or _opens_block(rules, ledger.hand, n):
        chosen[declarer] = start.chosen or ()
        doubled[declarer] = tuple(counts)
    return Ledger(
        players=n,
        dealer=dealer,
        chips=(0,) * n,
        hand=ledger.hand,
        scores=tuple(scores),
        chosen=tuple(chosen),
        doubled=tuple(doubled),
    )


def _opens_block(rules: TrickRuleset, hand: int, players: int) -> bool:
    """Whether hand ``hand`` of the game is the first of its declarer's block, so that his
    record is empty (``game.declarers``)."""
    rule = rules.game.declarers
    if rule is None:
        return False
    if rule.option == "rotate":
        return hand <= players
    return (hand - 1) % rule.hands == 0


def choice(rules: TrickRuleset, seat: int, item: b2.Call) -> Action | str:
    """The declarer's choice a ``bid`` line states, or why it cannot be one."""
    pack = pack_of(rules)
    contract = rules.contracts.get(item.word)
    if contract is None:
        return f"{item.word} is not a contract of {rules.id}: " + ", ".join(rules.contracts)
    if contract.play == "layout":
        rank = {"10": "T"}.get(item.args[0], item.args[0]) if len(item.args) == 1 else None
        if rank not in pack.ranks:
            return f"{item.word} is chosen with its start rank: 'bid {item.seat} {item.word} 7'"
        return Choose(seat, item.word, pack.ranks.index(rank))
    if contract.trump == "named":
        if len(item.args) != 1 or item.args[0] not in pack.suits:
            return f"{item.word} is chosen with its trump suit: 'bid {item.seat} {item.word} S'"
        return Choose(seat, item.word, pack.suits.index(item.args[0]))
    if item.args:
        return f"{item.word} names no suit and no rank: 'bid {item.seat} {item.word}'"
    return Choose(seat, item.word)


def wager(ring: Ring, item: b2.Wager) -> Wager:
    """A ``raise`` line as the engine's wager."""
    index = ring.names.index

    def mask(seats: tuple[str, ...]) -> int:
        return sum(1 << index(s) for s in seats)

    return Wager(index(item.seat), mask(item.doubles), mask(item.redoubles))


def points_truth(
    settlement: PointsSettlement, name: str, tricks: dict[int, int], n: int
) -> list[int]:
    """What the hand computed, per seat, for a closing claim."""
    if name == "points":
        return list(settlement.points)
    if name == "score":
        return list(settlement.score)
    if name == "total":
        return list(settlement.next.scores)
    return [tricks.get(s, 0) for s in range(n)]
