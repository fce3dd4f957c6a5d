"""What a hand of a points game (Barbu, Hearts) is worth, and the game state it carries on.

A points game scores each hand per player from its contract's ``values`` (``scoring.outcome``
``points``): the tricks he took, the cards in them (the most specific pattern of the table
pricing each card), the last tricks, or his finishing place in a layout; then shooting the
moon (``scoring.moon``), the bonus for taking no trick (``scoring.no_tricks``), and the wagers
between pairs of players (``scoring.wagers``): a pair bets when one doubled the other (level
1) or both did (level 2), and the formula's amount goes from the lower score to the higher.
Points are exact integers and the wagers move them between players: they keep the hand's sum.

The game state (:class:`~.ledger.Ledger`) goes on: the hand's number, the totals, and for a
game with a declarer (``game.declarers``) the contracts he has chosen and the doubles of him
in his block, from which come the next declarer and (``table.dealer.rotation``) the next
dealer. The mechanisms, each under its rule ID:

- ``scoring.outcome`` and ``contracts.<name>`` (their ``values``): :func:`hand_points`;
- ``scoring.moon``, ``scoring.no_tricks``: adjustments in :func:`hand_points`;
- ``scoring.wagers``: :func:`settle_wagers`;
- ``game.declarers``, ``table.dealer.rotation``: :func:`declarer_of`, :func:`next_points_ledger`;
- ``game.kind``: :func:`game_over` (the schedule's last hand, the target reached).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from baloot_conformance.family.engine.deck import Pack
from baloot_conformance.family.engine.ledger import Ledger, Seat
from baloot_conformance.family.engine.tricks import memo
from baloot_conformance.family.rules.model import Contract, TrickRuleset, Values


@dataclass(frozen=True, slots=True)
class PointsSettlement:
    """How a hand of a points game ended: each player's points, then his score after the
    wagers, and the game state for the next hand."""

    points: tuple[int, ...]
    """Each seat's points from the contract's values (moon and no-trick bonus included)."""
    score: tuple[int, ...]
    """Each seat's score for the hand: its points after the wagers settled."""
    moon: Seat | None
    """The seat that took every card that scores (``scoring.moon``), if any."""
    order: tuple[Seat, ...]
    """A layout's finishing order, first out first (empty for tricks)."""
    next: Ledger = field(repr=False)


def card_values(pack: Pack, values: Values) -> tuple[int, ...]:
    """Each card's value under a contract's ``cards`` table: the most specific pattern that
    names it (a card, then a rank, then a suit), 0 when none does (made once per pack and
    table)."""
    return memo((pack, values), "card values", lambda: _card_values(pack, values))


def _card_values(pack: Pack, values: Values) -> tuple[int, ...]:
    result = []
    for code in pack.codes:
        rank, suit = code[:-1], code[-1]
        table = values.cards
        value = table.get(code, table.get(rank, table.get(suit, 0)))
        result.append(value)
    return tuple(result)


def scored_cards(pack: Pack, values: Values | None) -> int:
    """The cards that score in a contract (nonzero value): a contract that ``ends: scored``
    ends once they are all taken."""
    if values is None:
        return 0
    return memo((pack, values), "scored cards", lambda: _scored(card_values(pack, values)))


def _scored(worth: tuple[int, ...]) -> int:
    mask = 0
    for i, value in enumerate(worth):
        if value:
            mask |= 1 << i
    return mask


def hand_points(
    rules: TrickRuleset,
    contract: Contract,
    pack: Pack,
    *,
    taken: Sequence[int],
    winners: Sequence[Seat],
    order: Sequence[Seat] = (),
) -> tuple[tuple[int, ...], Seat | None]:
    """Each seat's points for the hand, and the moon shooter if any: ``taken`` the cards each
    seat took in its tricks (masks), ``winners`` the winner of each trick played, in order,
    ``order`` a layout's finishing order."""
    values = contract.values or Values()
    n = len(taken)
    points = [0] * n
    worth = card_values(pack, values) if values.cards else ()
    for seat in range(n):
        tricks = sum(1 for w in winners if w == seat)
        points[seat] += values.per_trick * tricks
        if worth:
            mask = taken[seat]
            while mask:
                low = mask & -mask
                points[seat] += worth[low.bit_length() - 1]
                mask ^= low
    for k, value in enumerate(reversed(values.last_tricks)):
        if k < len(winners):
            points[winners[len(winners) - 1 - k]] += value
    for place, seat in enumerate(order):
        points[seat] += values.places[place]
    moon = _moon(rules, worth, taken, points)
    bonus = rules.scoring.no_tricks
    if bonus is not None and moon is None and winners:
        for seat in range(n):
            if seat not in winners:
                points[seat] += bonus.points
    return tuple(points), moon


def _moon(
    rules: TrickRuleset, worth: tuple[int, ...], taken: Sequence[int], points: list[int]
) -> Seat | None:
    """``scoring.moon``: the seat that took every card of positive value, and the points it
    moves (``others_score``: the shooter loses their total, every other player gains it;
    ``shooter_subtracts``: the shooter loses it twice over, ending at minus the total)."""
    rule = rules.scoring.moon
    if rule is None or rule.option == "none" or not worth:
        return None
    positive = 0
    total = 0
    for card, value in enumerate(worth):
        if value > 0:
            positive |= 1 << card
            total += value
    shooter = next((s for s, mask in enumerate(taken) if mask & positive == positive), None)
    if shooter is None or not positive:
        return None
    if rule.option == "others_score":
        for seat in range(len(points)):
            points[seat] += -total if seat == shooter else total
    else:
        points[shooter] -= 2 * total
    return shooter


def settle_wagers(
    rules: TrickRuleset, points: Sequence[int], doubles: Sequence[int]
) -> tuple[int, ...]:
    """``scoring.wagers``: each seat's score after the bets between pairs; ``doubles[s]`` is
    the mask of the seats ``s`` doubled or redoubled."""
    score = list(points)
    rule = rules.scoring.wagers
    if rule is None:
        return tuple(score)
    n = len(points)
    for a in range(n):
        for b in range(a + 1, n):
            level = (doubles[a] >> b & 1) + (doubles[b] >> a & 1)
            if not level or points[a] == points[b]:
                continue
            high, low = (a, b) if points[a] > points[b] else (b, a)
            amount = rule.pays.evaluate_int(
                {"high": points[high], "low": points[low], "level": level}
            )
            score[high] += amount
            score[low] -= amount
    return tuple(score)


def declarer_of(rules: TrickRuleset, ledger: Ledger) -> Seat | None:
    """The hand's declarer, from its dealer (``table.dealer.rotation``: the declarer's right
    deals, or the declarer); ``None`` in a game without one."""
    option = rules.table.dealer_rotation.option
    if option == "declarer":
        return ledger.dealer
    if option == "declarer_right":
        return (ledger.dealer + 1) % ledger.players
    return None


def dealer_for(rules: TrickRuleset, declarer: Seat, players: int) -> Seat:
    """The dealer of a hand ``declarer`` declares (``table.dealer.rotation``)."""
    if rules.table.dealer_rotation.option == "declarer":
        return declarer
    return (declarer - 1) % players


def next_points_ledger(
    rules: TrickRuleset,
    ledger: Ledger,
    score: Sequence[int],
    *,
    contract: str | None,
    doubles: Sequence[int],
) -> Ledger:
    """The game state after a hand: the totals, and with a declarer his block's record, the
    next declarer and dealer (``game.declarers``, ``table.dealer.rotation``)."""
    n = ledger.players
    totals = tuple(ledger.total_of(s) + score[s] for s in range(n))
    declarer = declarer_of(rules, ledger)
    rule = rules.game.declarers
    if declarer is None or rule is None:
        stay = rules.table.dealer_rotation.option == "stay"
        dealer = ledger.dealer if stay else (ledger.dealer + 1) % n
        return Ledger(
            players=n, dealer=dealer, chips=ledger.chips, hand=ledger.hand + 1, scores=totals
        )
    chosen = list(ledger.chosen or ((),) * n)
    doubled = list(ledger.doubled or ((0,) * n,) * n)
    mine = chosen[declarer]
    chosen[declarer] = None if mine is None or contract is None else (*mine, contract)
    counts = doubled[declarer]
    if counts is not None:
        doubled[declarer] = tuple(c + (doubles[s] >> declarer & 1) for s, c in enumerate(counts))
    if rule.option == "rotate" or _block_done(rule.hands, ledger, chosen[declarer]):
        following = (declarer + 1) % n
    else:
        following = declarer
    return Ledger(
        players=n,
        dealer=dealer_for(rules, following, n),
        chips=ledger.chips,
        hand=ledger.hand + 1,
        scores=totals,
        chosen=tuple(chosen),
        doubled=tuple(doubled),
    )


def _block_done(hands: int, ledger: Ledger, chosen: tuple[str, ...] | None) -> bool:
    """Whether the declarer's block ends with this hand: he has declared ``hands`` hands (by
    his record, or, when it is not known, by the hand's place in the game)."""
    if chosen is not None:
        return len(chosen) >= hands
    return ledger.hand % hands == 0


def hands_left(rules: TrickRuleset, ledger: Ledger, declarer: Seat) -> int | None:
    """How many hands the declarer still declares in his block after this one; ``None`` when
    his record is not known."""
    rule = rules.game.declarers
    chosen = ledger.chosen_by(declarer)
    if rule is None or chosen is None:
        return None
    return rule.hands - len(chosen) - 1


def game_over(rules: TrickRuleset, ledger: Ledger) -> str | None:
    """Why no hand may follow: the schedule is played out, or a total reached the target;
    ``None`` while the game goes on (``game.kind``)."""
    kind = rules.game.kind
    if kind.option == "schedule" and kind.hands is not None and ledger.hand > kind.hands:
        return f"the game is over: it is {kind.hands} hands, and this would be hand {ledger.hand}"
    reached = kind.target is not None and ledger.scores and max(ledger.scores) >= kind.target
    if kind.option == "target" and reached:
        return f"the game is over: a total reached {kind.target} in the hand before"
    return None
