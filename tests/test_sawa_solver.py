"""The Sawa solver (baloot_conformance.engine.sawa) against an independent brute force.

Positions come from real random play: eight random cards a seat under a Sun, an open Hokum or
a locked Hokum (``Hand.from_contract``), played with random legal cards up to a random point
of tricks 4-8 (at a trick's start or in its middle), under rulesets whose play obligations
differ. The brute force here knows nothing of the solver: it asks ``PlayRules`` for the legal
cards and the winner and tries every card.

Full minimax (the most tricks the claimant's side can force, no pruning, no table) costs, on
this machine, about 1.5 ms a position with 3 tricks left, 50 ms with 4 left and one card on
the table, 145 ms at the start of a trick with 4 left and over 6 s with 5 left; so positions
with 5 tricks left, and those at the start of a trick with 4 left, are judged by the plain
boolean AND-OR recursion instead (every legal card tried in turn until one decides, still no
table, no move order, no cut-off): see ``brute_right``.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from baloot_conformance.cards import Suit, parse_card
from baloot_conformance.engine.actions import PLAYS
from baloot_conformance.engine.hand import Hand
from baloot_conformance.engine.model import CardSet, Contract, Seat
from baloot_conformance.engine.play import PlayRules
from baloot_conformance.engine.playout import random_card
from baloot_conformance.engine.sawa import SawaJudgement, judge_sawa, line_words
from baloot_conformance.rules.loading import load_ruleset

#: Rulesets whose play obligations differ: the partner exemption (any seat, fourth hand or a
#: certain top, never), optional ruffing, beating the partner's trump, free under-ruffs.
RULESETS = ("saudi", "majlis", "saudi-federation", "gamerules", "qusaigazz-balote", "baloothub")
KINDS = ("sun", "hokum", "locked")
POSITIONS = 2_100


def bits(mask: CardSet) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def counts(seat: Seat, claimant: Seat, own_cards: bool) -> bool:
    """Whether a trick won by ``seat`` keeps the claim."""
    return seat == claimant if own_cards else seat % 2 == claimant % 2


def most_tricks(
    rules: PlayRules,
    hands: list[CardSet],
    trick: tuple[int, ...],
    leader: Seat,
    claimant: Seat,
    own_cards: bool,
) -> int:
    """Full minimax: the most remaining tricks the claimant's side (or, with ``own_cards``,
    the claimant's own card) can force; the side maximises, the defence minimises."""
    seat = (leader + len(trick)) % 4
    if not trick and not hands[leader]:
        return 0
    side = counts(seat, claimant, own_cards)  # the claim's players choose; the rest defend
    values = []
    for card in bits(rules.legal(hands[seat], trick, leader)):
        hands[seat] ^= 1 << card
        played = (*trick, card)
        if len(played) == 4:
            winner = (leader + rules.winner(played)) % 4
            won = int(counts(winner, claimant, own_cards))
            values.append(won + most_tricks(rules, hands, (), winner, claimant, own_cards))
        else:
            values.append(most_tricks(rules, hands, played, leader, claimant, own_cards))
        hands[seat] ^= 1 << card
    return max(values) if side else min(values)


def holds(
    rules: PlayRules,
    hands: list[CardSet],
    trick: tuple[int, ...],
    leader: Seat,
    claimant: Seat,
    own_cards: bool,
) -> bool:
    """The boolean AND-OR recursion: whether the side wins every remaining trick. Every legal
    card in turn, until one decides; no table, no order, no cut-off."""
    seat = (leader + len(trick)) % 4
    if not trick and not hands[leader]:
        return True
    side = counts(seat, claimant, own_cards)  # the claim's players choose; the rest defend
    for card in bits(rules.legal(hands[seat], trick, leader)):
        hands[seat] ^= 1 << card
        played = (*trick, card)
        if len(played) == 4:
            winner = (leader + rules.winner(played)) % 4
            value = counts(winner, claimant, own_cards) and holds(
                rules, hands, (), winner, claimant, own_cards
            )
        else:
            value = holds(rules, hands, played, leader, claimant, own_cards)
        hands[seat] ^= 1 << card
        if value == side:
            return side
    return not side


def brute_right(position: Position) -> bool:
    """The brute force's verdict: full minimax where affordable, else AND-OR (module doc)."""
    hand = position.hand
    rules = hand.play_rules
    assert rules is not None
    left = 8 - hand.tricks_done
    args = (list(hand.hands), hand.trick, hand.leader, position.claimant, position.own_cards)
    if left <= 3 or (left == 4 and hand.trick):
        return most_tricks(rules, *args) == left
    return holds(rules, *args)


@dataclass(frozen=True)
class Position:
    kind: str
    ruleset: str
    hand: Hand
    claimant: Seat
    own_cards: bool

    def judge(self) -> SawaJudgement:
        hand = self.hand
        assert hand.play_rules is not None
        return judge_sawa(
            hand.play_rules, hand.hands, hand.trick, hand.leader, hand.tricks_done,
            self.claimant, self.own_cards,
        )  # fmt: skip


load = functools.cache(load_ruleset)


def dealt(rng: random.Random, ruleset: str, kind: str) -> Hand:
    """A hand ready for its first card: eight random cards a seat, the contract ``kind``."""
    deck = list(range(32))
    rng.shuffle(deck)
    hands = tuple(sum(1 << c for c in deck[8 * s : 8 * s + 8]) for s in range(4))
    buyer = rng.randrange(4)
    if kind == "sun":
        contract = Contract("sun", None, buyer, buyer)
    elif kind == "hokum":
        contract = Contract("hokum", rng.choice(list(Suit)), buyer, buyer)
    else:  # locked by a double: the doubler is the buyer's next opponent
        doubler = (buyer + 1) % 4
        contract = Contract(
            "hokum", rng.choice(list(Suit)), buyer, buyer, level=2, locked=True, raisers=(doubler,)
        )
    four = (hands[0], hands[1], hands[2], hands[3])
    return Hand.from_contract(load(ruleset), (buyer - 1) % 4, four, contract)


@functools.cache
def sample() -> tuple[Position, ...]:
    """The positions of the agreement test, from a fixed seed."""
    rng = random.Random(2025)
    positions = []
    for _ in range(POSITIONS):
        kind, ruleset = rng.choice(KINDS), rng.choice(RULESETS)
        hand = dealt(rng, ruleset, kind)
        left, on_table = rng.randint(1, 5), rng.randrange(4)
        for _ in range(4 * (8 - left) + on_table):
            hand.push_play(random_card(hand, rng))
        positions.append(Position(kind, ruleset, hand, rng.randrange(4), rng.random() < 0.5))
    return tuple(positions)


def test_the_solver_agrees_with_the_brute_force() -> None:
    seen: Counter[tuple[str, object]] = Counter()
    for number, position in enumerate(sample()):
        hand = position.hand
        judgement = position.judge()
        expected = brute_right(position)
        assert judgement.right == expected, (number, position, judgement)
        left = 8 - hand.tricks_done
        seen.update(
            [
                ("kind", position.kind),
                ("ruleset", position.ruleset),
                ("left", left),
                ("right", (left, judgement.right)),
                ("own", position.own_cards),
                ("on table", len(hand.trick)),
                ("claimant plays", position.claimant == hand.to_play()),
            ]
        )
    assert len(sample()) >= 2_000
    for kind in KINDS:
        assert seen["kind", kind] > 300, kind
    for ruleset in RULESETS:
        assert seen["ruleset", ruleset] > 100, ruleset
    for left in range(1, 6):
        assert seen["left", left] > 200, left
        # Right and wrong claims at every length (few are right with five tricks left).
        assert seen["right", (left, True)] >= 10, left
        assert seen["right", (left, False)] >= 10, left
    for key in ("own", "claimant plays"):
        assert seen[key, True] > 300 and seen[key, False] > 300, key
    for on_table in range(4):
        assert seen["on table", on_table] > 300, on_table


def replay(hand: Hand, line: tuple[tuple[Seat, int], ...]) -> tuple[Hand, list[tuple[int, Seat]]]:
    """The line played on a copy of ``hand`` (IllegalAction if a card is not legal), and the
    number and the winner of each trick completed along it."""
    played = hand.copy()
    winners = []
    for seat, card in line:
        done = played.tricks_done
        played.push_play(PLAYS[seat][card])
        if played.tricks_done > done:
            winners.append((played.tricks_done, played.leader))
    return played, winners


def test_the_line_is_real_play_that_shows_the_verdict() -> None:
    for number, position in enumerate(sample()):
        judgement = position.judge()
        played, winners = replay(position.hand, judgement.line)
        claimant, own_cards = position.claimant, position.own_cards
        assert not played.trick, number  # the line ends with a trick
        if judgement.right:
            assert played.is_over(), number
            assert judgement.lost_trick is None and judgement.lost_to is None
            assert [t for t, _ in winners] == list(range(position.hand.tricks_done + 1, 9))
            assert all(counts(w, claimant, own_cards) for _, w in winners), number
        else:
            assert winners[-1] == (judgement.lost_trick, judgement.lost_to), number
            assert judgement.lost_to is not None
            assert not counts(judgement.lost_to, claimant, own_cards), number
            assert all(counts(w, claimant, own_cards) for _, w in winners[:-1]), number
        words = line_words(judgement, position.hand.tricks_done, position.hand.trick,
                           position.hand.leader)  # fmt: skip
        assert "\n" not in words
        if judgement.right:
            assert words.startswith(f"the forcing order: t{position.hand.tricks_done + 1} ")
        else:
            assert f"trick {judgement.lost_trick}" in words


# --- positions with known answers ------------------------------------------------------------

SAUDI = load_ruleset("saudi")
MAJLIS = load_ruleset("majlis")
SUN = PlayRules(SAUDI, Contract("sun", None, 0, 0))
HOKUM = PlayRules(SAUDI, Contract("hokum", Suit.SPADES, 0, 0))
LOCKED = PlayRules(SAUDI, Contract("hokum", Suit.SPADES, 0, 0, level=2, locked=True))


def cards(text: str) -> CardSet:
    return sum(1 << parse_card(token).index for token in text.split())


def deal(n: str, w: str, s: str, e: str) -> tuple[CardSet, ...]:
    return (cards(n), cards(w), cards(s), cards(e))


def table(text: str) -> tuple[int, ...]:
    return tuple(parse_card(token).index for token in text.split())


def test_the_last_master_trumps_win_every_trick() -> None:
    hands = deal("JS 9S", "AS 7H", "8H 9H", "TS KH")
    for own_cards in (False, True):
        judgement = judge_sawa(HOKUM, hands, (), 0, 6, 0, own_cards)
        assert judgement.right
        assert len(judgement.line) == 8
        assert line_words(judgement, 6, (), 0).startswith("the forcing order: t7 N JS, W AS")
    # The opponents' claim, the other way round, fails at once.
    wrong = judge_sawa(HOKUM, hands, (), 0, 6, 1, False)
    assert (wrong.right, wrong.lost_trick, wrong.lost_to) == (False, 7, 0)


def test_an_opponents_master_in_the_suit_the_claimant_must_lead() -> None:
    hands = deal("KH QH", "AH 7S", "7D 8D", "8S 9S")
    judgement = judge_sawa(SUN, hands, (), 0, 6, 0, False)
    assert (judgement.right, judgement.lost_trick, judgement.lost_to) == (False, 7, 1)
    assert judgement.line[:2] == ((0, parse_card("KH").index), (1, parse_card("AH").index))
    assert line_words(judgement, 6, (), 0).startswith("W answers AH in trick 7 and wins it: line")
    # The winning card may be on the table already.
    led = judge_sawa(SUN, deal("7H", "", "8H", "9H"), table("AH"), 1, 7, 0, False)
    assert (led.right, led.lost_trick, led.lost_to) == (False, 8, 1)
    assert line_words(led, 7, table("AH"), 1) == (
        "W's AH on the table wins trick 8: line t8 (W AH) S 8H, E 9H, N 7H"
    )


def test_the_side_may_take_the_tricks_that_the_claimants_own_cards_cannot() -> None:
    # N cashes AH, then leads 7D, which S must win with a diamond.
    hands = deal("AH 7D", "7H 9C", "AD 8D", "8H TC")
    assert judge_sawa(SUN, hands, (), 0, 6, 0, False).right
    own = judge_sawa(SUN, hands, (), 0, 6, 0, True)
    assert (own.right, own.lost_trick, own.lost_to) == (False, 8, 2)
    assert judge_sawa(SUN, hands, (), 0, 6, 2, False).right  # S's side is N's side


def test_under_own_cards_the_partner_defends_too() -> None:
    """``own_cards``: the claimant's cards must win whatever the other three play, his
    partner included: S may overtake N's TS with AS, so N's own-cards claim is wrong, while
    the side's claim (S keeps 7S back) is right."""
    hands = deal("TS KH", "7D 8D", "AS 7S", "9D TD")
    assert judge_sawa(SUN, hands, (), 0, 6, 0, False).right
    own = judge_sawa(SUN, hands, (), 0, 6, 0, True)
    assert (own.right, own.lost_trick, own.lost_to) == (False, 7, 2)


def test_a_master_is_ruffed_in_hokum_but_not_in_sun() -> None:
    # N led AH; W, void in hearts, holds a trump.
    hands = deal("", "7S", "8H", "9H")
    assert judge_sawa(SUN, hands, table("AH"), 0, 7, 2, False).right
    ruffed = judge_sawa(HOKUM, hands, table("AH"), 0, 7, 2, False)
    assert (ruffed.right, ruffed.lost_trick, ruffed.lost_to) == (False, 8, 1)
    assert line_words(ruffed, 7, table("AH"), 0) == (
        "W answers 7S in trick 8 and wins it: line t8 (N AH) W 7S, S 8H, E 9H"
    )


def test_a_locked_hokum_cannot_draw_trumps_first() -> None:
    # Open: N draws E's KS with the master 9S, then TC is master. Locked: N must lead TC,
    # which E, void in clubs, ruffs.
    hands = deal("9S TC", "9C JC", "JD KD", "KS 8H")
    opened = judge_sawa(HOKUM, hands, (), 0, 6, 0, False)
    assert opened.right and opened.line[0] == (0, parse_card("9S").index)
    locked = judge_sawa(LOCKED, hands, (), 0, 6, 0, False)
    assert (locked.right, locked.lost_trick, locked.lost_to) == (False, 7, 3)
    assert line_words(locked, 6, (), 0).startswith("E answers KS in trick 7 and wins it")


def test_only_a_certain_top_frees_the_partner_from_trumping() -> None:
    # Majlis: S, void in hearts, need not trump N's AH (a certain top) but must trump KH, and
    # then has to lead into the defence. Under saudi the partner is always free.
    hands = deal("JH KH AH", "7S 8H AC", "QS TD 9C", "8D JD KD")
    majlis = PlayRules(MAJLIS, Contract("hokum", Suit.SPADES, 0, 0))
    judgement = judge_sawa(majlis, hands, (), 0, 5, 0, False)
    assert judgement.right and judgement.line[0] == (0, parse_card("AH").index)
    for led in ("KH", "JH"):
        rest = (hands[0] & ~cards(led), *hands[1:])
        assert not judge_sawa(majlis, rest, table(led), 0, 5, 0, False).right, led
        assert judge_sawa(HOKUM, rest, table(led), 0, 5, 0, False).right, led


def test_an_impossible_position_is_refused() -> None:
    with pytest.raises(ValueError, match="wrong number"):
        judge_sawa(SUN, deal("AH", "7H", "8H", "9H TH"), (), 0, 7, 0, False)
    with pytest.raises(ValueError, match="twice"):
        judge_sawa(SUN, deal("AH", "AH", "8H", "9H"), (), 0, 7, 0, False)


def holds_with_partner(
    rules: PlayRules, hands: list[CardSet], trick: tuple[int, ...], leader: Seat, claimant: Seat
) -> bool:
    """The AND-OR recursion of ``own_cards_partner_helps``: the claimant's side chooses its
    cards, and only a trick the claimant himself wins keeps the claim."""
    seat = (leader + len(trick)) % 4
    if not trick and not hands[leader]:
        return True
    side = seat % 2 == claimant % 2
    for card in bits(rules.legal(hands[seat], trick, leader)):
        hands[seat] ^= 1 << card
        played = (*trick, card)
        if len(played) == 4:
            winner = (leader + rules.winner(played)) % 4
            value = winner == claimant and holds_with_partner(rules, hands, (), winner, claimant)
        else:
            value = holds_with_partner(rules, hands, played, leader, claimant)
        hands[seat] ^= 1 << card
        if value == side:
            return side
    return not side


def test_with_the_partner_playing_along_the_solver_agrees_with_the_brute_force() -> None:
    """``own_cards_partner_helps`` lies between the other two readings: right whenever
    ``own_cards`` is, never when ``side`` is not, and exactly as the brute force says."""
    differs = Counter[str]()
    for number, position in enumerate(sample()):
        hand = position.hand
        assert hand.play_rules is not None
        args = (hand.play_rules, hand.hands, hand.trick, hand.leader, hand.tricks_done)
        helped = judge_sawa(*args, position.claimant, True, True)
        expected = holds_with_partner(
            hand.play_rules, list(hand.hands), hand.trick, hand.leader, position.claimant
        )
        assert helped.right == expected, (number, position, helped)
        own = judge_sawa(*args, position.claimant, True).right
        side = judge_sawa(*args, position.claimant, False).right
        assert own <= helped.right <= side, (number, position)
        differs.update(["own" * (own != helped.right) or "side" * (side != helped.right)])
    assert differs["own"] >= 10 and differs["side"] >= 10, differs


def test_a_partner_playing_along_keeps_out_of_the_claimants_way() -> None:
    # N leads KH then AS; S holds AH and 7H: defending, S takes KH with AH; along, S plays 7H
    # (so under BLOOT7's reading; its match log of seed 12, hand 5 has the like at trick 8).
    hands = deal("KH AS", "8H 8S", "AH 7H", "9H 9S")
    assert not judge_sawa(SUN, hands, (), 0, 6, 0, True).right
    assert judge_sawa(SUN, hands, (), 0, 6, 0, True, True).right
    assert judge_sawa(SUN, hands, (), 0, 6, 0, False).right
