"""The common Saudi scoring, written again from the rule statements alone, for the fixtures.

The fixture builder (``tools/build_fixtures.py``) finds hands with the kit's engine, but their
figures must come from the rules, not from the engine. This module computes them on its own,
from the statements of ``spec/rulesets/saudi.yaml`` (quoted at each function), with no import
from the engine: card points, the last trick, the projects and their comparison, Baloot, the
contract, the conversions and the score. It also writes the arithmetic out, for a fixture's
description. A hand it does not model (a raise, a Gahwa, a Kaboot it cannot place) is
refused with ``Unmodelled``; the builder then does not use that hand.

A hand that table talk ends is judged here too, from the statements of ``claims.sawa`` and
``play.fouls``: a Sawa by a search of the rest of the hand (the claimant's own cards must win
every trick, whatever the other three legally play), a foul call by the play obligations
(a card that broke none was legal, and a call on it is false); a wrong Sawa or a false call
is scored as the penalty it is, the round value for the innocent side plus its own counted
projects.
"""

from __future__ import annotations

from dataclasses import dataclass, field

PLAIN_ORDER = "AT KQJ987".replace(" ", "")
"""cards.order.plain: A > 10 > K > Q > J > 9 > 8 > 7."""
TRUMP_ORDER = "J9ATKQ87"
"""cards.order.trump: J > 9 > A > 10 > K > Q > 8 > 7."""
PLAIN_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
SEQUENCE = "AKQJT987"
"""cards.order.sequence: A K Q J 10 9 8 7."""
SEATS = "NWSE"
"""Play goes N -> W -> S -> E (deal.direction)."""


class Unmodelled(Exception):
    """A hand this oracle does not score."""


def team(seat: str) -> str:
    return "NS" if seat in "NS" else "EW"


def points(card: str, trump: str | None) -> int:
    """cards.points.plain / cards.points.trump."""
    return (TRUMP_POINTS if card[1] == trump else PLAIN_POINTS)[card[0]]


def trick_winner(cards: list[tuple[str, str]], trump: str | None) -> str:
    """play.trick_winner: the highest trump, else the highest card of the suit led."""
    led = cards[0][1][1]
    trumps = [(seat, c) for seat, c in cards if c[1] == trump]
    if trumps:
        return min(trumps, key=lambda sc: TRUMP_ORDER.index(sc[1][0]))[0]
    follows = [(seat, c) for seat, c in cards if c[1] == led]
    return min(follows, key=lambda sc: PLAIN_ORDER.index(sc[1][0]))[0]


def sun_game_points(raw: int) -> int:
    """scoring.sun.conversion: round to the nearest 10 keeping an exact 5, double, divide by
    10 (65 -> 13, 66 -> 14, 64 -> 12)."""
    ones = raw % 10
    rounded = raw if ones == 5 else (raw - ones + 10 if ones > 5 else raw - ones)
    return rounded * 2 // 10  # exact: rounded is a multiple of 5, so twice it of 10


def hokum_game_points(raw: int, other: int) -> int:
    """scoring.hokum.conversion: tens, plus one if the ones are 6 or more; when both sides
    would total 17, the side with the larger remainder (then the larger raw) gives one back."""
    value = raw // 10 + (1 if raw % 10 >= 6 else 0)
    both_up = raw % 10 >= 6 and other % 10 >= 6
    if both_up and (raw % 10, raw) > (other % 10, other):
        value -= 1
    return value


PROJECT_RAW = {"sira": 20, "fifty": 50, "hundred": 100, "four_hundred": 200}
"""projects.sira (20), .fifty (50), .hundred.* (100), .four_hundred (200 raw, Sun)."""
PROJECT_GAME = {
    "sun": {"sira": 4, "fifty": 10, "hundred": 20, "four_hundred": 40},
    "hokum": {"sira": 2, "fifty": 5, "hundred": 10},
}


def legal_cards(
    seat: str, held: frozenset[str], trick: list[tuple[str, str]], trump: str | None
) -> frozenset[str]:
    """The cards ``seat`` may play from ``held`` on ``trick`` (the cards down so far) in an
    unraised hand (nothing is locked), by the play rules' statements:

    - play.follow_suit: follow the suit led if able;
    - play.sun.void: in Sun, a player who cannot follow may play any card;
    - play.hokum.trump_lead: when trump is led, follow with a trump and, if an opponent is
      winning, beat it if able; with the partner winning any trump will do;
    - play.hokum.partner_winning: a player whose partner is winning need not trump;
    - play.hokum.ruff: otherwise a player who cannot follow must trump if able;
    - play.hokum.overruff / underruff: over an opponent's winning trump, a higher trump if
      able, else still a (lower) trump.
    """
    if not trick:
        return held
    led = trick[0][1][1]
    follow = frozenset(c for c in held if c[1] == led)
    winner, card = _winning(trick, trump)
    partner_winning = team(winner) == team(seat)
    if trump is None:
        return follow or held
    higher = frozenset(
        c
        for c in held
        if c[1] == trump
        and (card[1] != trump or TRUMP_ORDER.index(c[0]) < TRUMP_ORDER.index(card[0]))
    )
    if led == trump:
        if not follow:
            return held
        return follow if partner_winning else (higher or follow)
    if follow:
        return follow
    trumps = frozenset(c for c in held if c[1] == trump)
    if partner_winning or not trumps:
        return held
    return higher or trumps


def _winning(trick: list[tuple[str, str]], trump: str | None) -> tuple[str, str]:
    """The seat winning the trick so far, and its card."""
    seat = trick_winner(trick, trump)
    return seat, next(c for s, c in trick if s == seat)


def sawa_right(
    claimant: str, hands: dict[str, frozenset[str]], trump: str | None, budget: int = 500_000
) -> bool:
    """claims.sawa (forced: own_cards): the claimant, about to lead, wins every remaining trick
    with his own cards, played in some order, whatever the other three legally play. An
    AND-OR search: some lead of the claimant's such that every legal reply leaves his card
    winning, and so on to the last trick. ``Unmodelled`` past ``budget`` nodes."""
    others = [SEATS[(SEATS.index(claimant) + k) % 4] for k in (1, 2, 3)]
    memo: dict[tuple[frozenset[str], ...], bool] = {}
    nodes = [0]

    def rest(cards: dict[str, frozenset[str]]) -> bool:
        if not cards[claimant]:
            return True
        key = tuple(cards[s] for s in SEATS)
        if key not in memo:
            memo[key] = any(replies(cards, [(claimant, c)], 0) for c in sorted(cards[claimant]))
        return memo[key]

    def replies(cards: dict[str, frozenset[str]], trick: list[tuple[str, str]], k: int) -> bool:
        nodes[0] += 1
        if nodes[0] > budget:
            raise Unmodelled("a Sawa whose search is too large")
        if trick_winner(trick, trump) != claimant:
            return False  # another card is winning: the claimant's own card did not hold
        if k == 3:
            return rest({s: cards[s] - {c for _, c in trick} for s in SEATS})
        seat = others[k]
        return all(
            replies(cards, [*trick, (seat, c)], k + 1)
            for c in sorted(legal_cards(seat, cards[seat], trick, trump))
        )

    return rest(hands)


@dataclass
class Declared:
    seat: str
    name: str
    cards: list[str]

    def rank(self) -> tuple[int, int]:
        """projects.ranking: 400 > sequence 100 > four of a kind 100 > 50 > sira; within a
        type the higher top card (by the sequence order)."""
        same_rank = len({c[0] for c in self.cards}) == 1
        kind = {"four_hundred": 5, "fifty": 2, "sira": 1}.get(self.name)
        if kind is None:  # a hundred
            kind = 3 if same_rank else 4
        top = min(SEQUENCE.index(c[0]) for c in self.cards)
        return kind, -top


@dataclass
class HandRecord:
    """What a transcript hand says happened (events only, never its claims)."""

    dealer: str
    kind: str
    trump: str | None
    buyer: str
    tricks: list[list[tuple[str, str]]]
    declared: list[Declared] = field(default_factory=list)
    eight: dict[str, set[str]] = field(default_factory=dict)
    level: int = 1
    held: dict[str, set[str]] = field(default_factory=dict)
    """Each seat's eight cards as dealt (the deal and the rest)."""
    sawa: str | None = None
    """The seat that claimed Sawa, after the tricks played (the hand ends there)."""
    foul: tuple[str, int] | None = None
    """A foul call that ended the hand: the caller and which card it names (0: the first)."""


@dataclass
class Worked:
    """The oracle's figures and the sentences that work them out."""

    abnat: dict[str, int]
    score: dict[str, int]
    outcome: str
    steps: list[str]

    def text(self) -> str:
        return " ".join(self.steps)


def work(hand: HandRecord) -> Worked:
    """Score an unraised hand by the rule statements, with the arithmetic in words."""
    if hand.level != 1:
        raise Unmodelled("a raised hand")
    trump = hand.trump if hand.kind == "hokum" else None
    card_points = {"NS": 0, "EW": 0}
    tricks = {"NS": 0, "EW": 0}
    last = ""
    played = [cards for cards in hand.tricks if len(cards) == 4]
    for cards in played:
        winner = team(trick_winner(cards, trump))
        card_points[winner] += sum(points(c, trump) for _, c in cards)
        tricks[winner] += 1
        last = winner
    steps: list[str] = []
    penalty: str | None = None  # the side a penalty (a wrong Sawa, a false call) scores for
    if hand.foul is not None:
        penalty = _foul_call(hand, trump, steps)
    elif hand.sawa is not None:
        if _sawa(hand, trump, played, steps):
            side = team(hand.sawa)
            rest = [c for s in SEATS for c in hand.held[s] - hand.eight[s]]
            card_points[side] += sum(points(c, trump) for c in rest)
            tricks[side] += 8 - len(played)
            last = side
        else:
            penalty = "EW" if team(hand.sawa) == "NS" else "NS"
    elif len(played) != 8:
        raise Unmodelled("a hand that stops before its last trick")
    abnat = dict(card_points)
    buyer = team(hand.buyer)
    other = "EW" if buyer == "NS" else "NS"
    if penalty is None:
        abnat[last] += 10  # cards.last_trick
        steps.append(
            f"Card points NS {card_points['NS']}, EW {card_points['EW']}; the last trick's 10 "
            f"go to {last}: abnat NS {abnat['NS']}, EW {abnat['EW']}."
        )
    else:
        steps.append(
            f"Card points of the tricks played NS {card_points['NS']}, EW {card_points['EW']}; "
            "no last trick is played: abnat the same."
        )
    # projects.comparison and projects.tie: only the best project's team scores, all its
    # projects; equal best projects go to the holder nearer the dealer's right.
    counted_team = None
    if hand.declared:
        first = SEATS.index(hand.dealer) + 1
        best = max(
            hand.declared,
            key=lambda d: (d.rank(), -((SEATS.index(d.seat) - first) % 4)),
        )
        counted_team = team(best.seat)
    project_raw = {"NS": 0, "EW": 0}
    project_game = {"NS": 0, "EW": 0}
    for d in hand.declared:
        if team(d.seat) == counted_team:
            name = "hundred" if d.name == "four_hundred" and hand.kind == "hokum" else d.name
            project_raw[counted_team] += PROJECT_RAW[name]
            project_game[counted_team] += PROJECT_GAME[hand.kind][name]
    if counted_team is not None:
        names = ", ".join(f"{d.seat} {d.name}" for d in hand.declared)
        steps.append(
            f"Projects declared: {names}; {counted_team} holds the best, so its projects count: "
            f"{project_raw[counted_team]} raw, {project_game[counted_team]} game points."
        )
    value = 26 if hand.kind == "sun" else 16  # scoring.round_value
    if penalty is not None:
        # claims.sawa.wrong and play.fouls.wrong_call: round_value * level + projects, the
        # innocent side's own counted projects; Baloot is not in the formula, the other side
        # scores nothing.
        score = {"NS": 0, "EW": 0}
        own = project_game[penalty] if counted_team == penalty else 0
        score[penalty] = value * hand.level + own
        steps.append(
            f"The hand ends there: {penalty} scores the round value {value} times the level "
            f"{hand.level} plus its own counted projects {own}: {score[penalty]}; the other "
            "side nothing."
        )
        return Worked(abnat, score, "penalty", steps)
    # projects.baloot: the King and Queen of trump in one hand: 2 game points (20 raw toward
    # the contract), unless inside a declared hundred.
    baloot_team = None
    if trump is not None:
        for seat, held in (hand.held or hand.eight).items():
            if {"K" + trump, "Q" + trump} <= held:
                blocked = any(
                    d.seat == seat
                    and d.name == "hundred"
                    and {"K" + trump, "Q" + trump} <= set(d.cards)
                    for d in hand.declared
                )
                if not blocked:
                    baloot_team = team(seat)
                    steps.append(f"{seat} holds K{trump} Q{trump}: Baloot, 2 game points.")
    for side in ("NS", "EW"):
        if tricks[side] == 8:  # scoring.kaboot: 44 (Sun) or 25 (Hokum), its projects, Baloot
            if (
                hand.kind == "sun"
                and side != buyer
                and hand.buyer == SEATS[(SEATS.index(hand.dealer) + 1) % 4]
            ):
                raise Unmodelled("a possible reverse Kaboot")
            sweep = 44 if hand.kind == "sun" else 25
            score = {"NS": 0, "EW": 0}
            score[side] = sweep + project_game[side]
            score[side] += 2 if baloot_team == side else 0
            if baloot_team is not None and baloot_team != side:
                score[baloot_team] += 2  # the swept side keeps its own Baloot
            steps.append(
                f"{side} takes all eight tricks: Kaboot, {sweep}; with its projects and "
                f"Baloot {score[side]}."
            )
            return Worked(abnat, score, "kaboot", steps)
    baloot_raw = {t: (20 if baloot_team == t else 0) for t in ("NS", "EW")}
    ours = abnat[buyer] + project_raw[buyer] + baloot_raw[buyer]
    theirs = abnat[other] + project_raw[other] + baloot_raw[other]
    steps.append(f"The buyer {buyer} has {ours} against {other}'s {theirs}")
    score = {"NS": 0, "EW": 0}
    if ours >= theirs:  # scoring.contract; scoring.contract.tie: a tie is not a failure
        outcome = "made" if ours > theirs else "tie"
        steps[-1] += ": made." if ours > theirs else ": an exact tie, each side scores its own."
        for side in ("NS", "EW"):
            opponent = "EW" if side == "NS" else "NS"
            if hand.kind == "sun":
                converted = sun_game_points(abnat[side])
                how = f"{abnat[side]} -> {converted}"
            else:
                converted = hokum_game_points(abnat[side], abnat[opponent])
                how = f"{abnat[side]} -> {converted}"
            score[side] = converted + project_game[side] + (2 if baloot_team == side else 0)
            steps.append(f"{side}: {how}, with projects and Baloot {score[side]}.")
    else:  # scoring.failure: the opponents take the round value and all counted projects
        outcome = "failed"
        score[other] = value + project_game["NS"] + project_game["EW"]
        if baloot_team == other:
            score[other] += 2
        if baloot_team == buyer:
            score[buyer] += 2  # scoring.failure.baloot: the owner keeps it
        steps[-1] += f": failed; {other} scores {value} and the projects, {score[other]}."
    return Worked(abnat, score, outcome, steps)


def _foul_call(hand: HandRecord, trump: str | None, steps: list[str]) -> str:
    """play.fouls: a call is right when the card it names broke a play rule. The default
    refuses an illegal card at once, so a card that stood must be legal: checked here by the
    play rules (``legal_cards``), the call is false and the accused side is the one in the
    right. Returns that side."""
    assert hand.foul is not None
    caller, index = hand.foul
    plays = [play for cards in hand.tricks for play in cards]
    if not 0 <= index < len(plays):
        raise Unmodelled("a foul call on no card played")
    seat, card = plays[index]
    if team(seat) == team(caller):
        raise Unmodelled("a foul call on the caller's own side")
    number, k = divmod(index, 4)
    before = frozenset(c for s, c in plays[:index] if s == seat)
    if card not in legal_cards(
        seat, frozenset(hand.held[seat]) - before, hand.tricks[number][:k], trump
    ):
        raise Unmodelled("an illegal card that stood")  # play.fouls: refused at once
    steps.append(
        f"{caller} calls a foul on {seat}'s {card} (trick {number + 1}, card {k + 1}), but that "
        f"card broke no play rule: the call is false, and {team(seat)} is the side in the right."
    )
    return team(seat)


def _sawa(
    hand: HandRecord, trump: str | None, played: list[list[tuple[str, str]]], steps: list[str]
) -> bool:
    """claims.sawa: whether the claimant, about to lead, wins every remaining trick with his
    own cards (``sawa_right``); a wrong claim is a foul of his side."""
    claimant = hand.sawa
    assert claimant is not None
    if len(played) != len(hand.tricks):
        raise Unmodelled("a Sawa in the middle of a trick")
    # play.first_lead: the dealer's right leads the first trick, then each trick's winner.
    leader = (
        trick_winner(played[-1], trump) if played else SEATS[(SEATS.index(hand.dealer) + 1) % 4]
    )
    if claimant != leader:
        raise Unmodelled("a Sawa by a player not about to lead")
    left = {s: frozenset(hand.held[s] - hand.eight[s]) for s in SEATS}
    right = sawa_right(claimant, left, trump)
    cards = " ".join(sorted(left[claimant], key=lambda c: (c[1], SEQUENCE.index(c[0]))))
    if right:
        steps.append(
            f"{claimant} claims Sawa with {len(played)} tricks played, holding {cards}: his own "
            "cards win every trick left whatever the others play, so the claim is right and "
            f"{team(claimant)} takes "
            + (
                f"the {8 - len(played)} tricks left, their"
                if len(played) < 7
                else "the last trick, its"
            )
            + " cards and the last trick's 10."
        )
    else:
        steps.append(
            f"{claimant} claims Sawa with {len(played)} tricks played, holding {cards}: the "
            "others can play so that a trick is not won by his own card, so the claim is wrong."
        )
    return right
