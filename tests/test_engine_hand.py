"""A whole hand (baloot_conformance.engine.hand) and game (engine.game), and random hands.

The properties run over a few thousand seeded random hands under every shipped ruleset.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from baloot_conformance.cards import CARDS, Suit, parse_card
from baloot_conformance.compare.witness import verdicts
from baloot_conformance.engine import projects as projects_
from baloot_conformance.engine.actions import (
    Action,
    Announce,
    Bid,
    Complete,
    Declare,
    KaweshCall,
    Lock,
    Play,
    Raise,
)
from baloot_conformance.engine.deal import first_seat
from baloot_conformance.engine.game import Game
from baloot_conformance.engine.hand import Hand
from baloot_conformance.engine.model import IllegalAction, card_set
from baloot_conformance.engine.playout import choose, random_game, random_hand
from baloot_conformance.engine.scoring import HandResult
from baloot_conformance.rules.loading import derive_ruleset, load_ruleset, shipped_rulesets
from baloot_conformance.rules.ruleset import Ruleset

ROOT = Path(__file__).resolve().parent.parent
SAUDI = load_ruleset("saudi")
N, W, S, E = 0, 1, 2, 3


def cards(text: str) -> int:
    return card_set(parse_card(token) for token in text.split())


# --- the worked hand of design/btn.md --------------------------------------------------------

WORKED_DEAL = (cards("8S TS 8H 9H 7C"), cards("KS JH QH 7D QD"), cards("7S 9S AS 7H 8C"),
               cards("JS TH AH 8D 9D"))  # fmt: skip
WORKED_REST = (cards("KH JC QS"), cards("KD AD TC"), cards("9C QC KC"), cards("TD JD AC"))
WORKED_TRICKS = [
    "N TS, W KS, S AS, E JS",
    "E 8D, N 8S, W KD, S 8C",
    "N 7C, W TC, S KC, E AC",
    "E TD, N QS, W 7D, S 7H",
    "N 8H, W JH, S 7S, E AH",
    "S 9S, E 9D, N JC, W QD",
    "S QC, E JD, N KH, W AD",
    "S 9C, E TH, N 9H, W QH",
]


def plays(trick: str) -> list[Action]:
    return [Play("NWSE".index(s), parse_card(c)) for s, c in (p.split() for p in trick.split(", "))]


def worked_hand(rules: Ruleset = SAUDI) -> Hand:
    hand = Hand(rules, E, WORKED_DEAL, parse_card("QS"))
    for bid in [Bid(N, "hokum"), Bid(W, "pass"), Bid(S, "pass"), Bid(E, "pass")]:
        hand.push(bid)
    hand.push(Complete(WORKED_REST))  # N's confirmation is implied
    hand.push(Declare(W, "sira", cards("AD KD QD")))
    hand.push(Declare(E, "fifty", cards("JD TD 9D 8D")))
    for trick in WORKED_TRICKS:
        for action in plays(trick):
            hand.push(action)
    return hand


def test_the_worked_hand_of_the_notation_draft() -> None:
    hand = worked_hand()
    assert hand.is_over()
    result = hand.result()
    assert result.contract is not None
    assert (result.contract.kind, result.contract.trump, result.contract.buyer) == (
        "hokum",
        Suit.SPADES,
        N,
    )
    assert result.score is not None
    assert result.score.abnat == (92, 70)
    assert result.score.projects == (0, 70)
    assert result.score.outcome == "failed"
    assert result.game_points == (0, 23)
    assert result.next_dealer == N


def test_trick_winners_of_the_worked_hand() -> None:
    hand = Hand(SAUDI, E, WORKED_DEAL, parse_card("QS"))
    for bid in [
        Bid(N, "hokum"),
        Bid(W, "pass"),
        Bid(S, "pass"),
        Bid(E, "pass"),
        Bid(N, "hokum"),
    ]:
        hand.push(bid)
    hand.push(Complete(WORKED_REST))
    leaders = []
    for trick in WORKED_TRICKS:
        for action in plays(trick):
            hand.push(action)
        leaders.append(hand.leader)
    assert leaders == [E, N, E, N, S, S, S, S]
    assert hand.tricks == [6, 2]


def test_a_play_that_breaks_a_rule_names_it() -> None:
    hand = Hand(SAUDI, E, WORKED_DEAL, parse_card("QS"))
    for bid in [Bid(N, "hokum"), Bid(W, "pass"), Bid(S, "pass"), Bid(E, "pass")]:
        hand.push(bid)
    hand.push(Complete(WORKED_REST))
    for action in plays(WORKED_TRICKS[0]):
        hand.push(action)
    hand.push(Play(E, parse_card("8D")))
    before = hand.copy()
    with pytest.raises(IllegalAction) as caught:
        hand.push(Play(N, parse_card("7C")))  # void in diamonds, holds trumps: must ruff
    assert caught.value.rule_id == "play.hokum.ruff"
    assert hand.hands == before.hands and hand.trick == before.trick  # nothing changed
    with pytest.raises(IllegalAction) as caught:
        hand.push(Play(W, parse_card("KD")))
    assert caught.value.rule_id == "play.first_lead" and "out of turn" in caught.value.reason


def test_completion_is_checked() -> None:
    hand = Hand(SAUDI, E, WORKED_DEAL, parse_card("QS"))
    for bid in [Bid(N, "hokum"), Bid(W, "pass"), Bid(S, "pass"), Bid(E, "pass")]:
        hand.push(bid)
    wrong = (cards("KH JC 9C"), WORKED_REST[1], cards("QS QC KC"), WORKED_REST[3])
    with pytest.raises(IllegalAction, match="must receive the face-up card QS"):
        hand.push(Complete(wrong))
    short = (WORKED_REST[0], cards("KD AD"), WORKED_REST[2], WORKED_REST[3])
    with pytest.raises(IllegalAction, match="W received 2 cards, not 3"):
        hand.push(Complete(short))


def test_the_first_deal_is_checked() -> None:
    twice = (WORKED_DEAL[0], WORKED_DEAL[0], WORKED_DEAL[2], WORKED_DEAL[3])
    with pytest.raises(IllegalAction, match="dealt to two seats"):
        Hand(SAUDI, E, twice, parse_card("QS"))
    with pytest.raises(IllegalAction, match="was also dealt"):
        Hand(SAUDI, E, WORKED_DEAL, parse_card("8S"))
    with pytest.raises(IllegalAction, match="W was dealt 4 cards, not 5"):
        Hand(SAUDI, E, (WORKED_DEAL[0], cards("KS JH QH 7D"), *WORKED_DEAL[2:]), CARDS[0])


# --- declarations ----------------------------------------------------------------------------


def completed(rules: Ruleset = SAUDI) -> Hand:
    hand = Hand(rules, E, WORKED_DEAL, parse_card("QS"))
    for bid in [Bid(N, "hokum"), Bid(W, "pass"), Bid(S, "pass"), Bid(E, "pass")]:
        hand.push(bid)
    hand.push(Complete(WORKED_REST))
    return hand


def test_declarations_after_ones_first_card_are_late() -> None:
    hand = completed()
    hand.push(Play(N, parse_card("TS")))
    hand.push(Play(W, parse_card("KS")))
    with pytest.raises(IllegalAction) as caught:
        hand.push(Declare(W, "sira", cards("AD KD QD")))
    assert caught.value.rule_id == "projects.declaration"
    hand.push(Declare(E, "fifty", cards("JD TD 9D 8D")))  # E has not played yet


def test_declaring_cards_not_held() -> None:
    with pytest.raises(IllegalAction):
        completed().push(Declare(N, "sira", cards("AD KD QD")))


def test_automatic_declarations_need_no_declare() -> None:
    majlis = load_ruleset("majlis")
    hand = completed(majlis)
    assert {(p.seat, p.name) for p in hand.declared()} == {(W, "sira"), (E, "fifty")}
    with pytest.raises(IllegalAction) as caught:
        hand.push(Declare(W, "sira", cards("AD KD QD")))
    assert caught.value.rule_id == "projects.declaration"


# --- raises and the lock ---------------------------------------------------------------------


def test_raise_chain_alternates_sides() -> None:
    hand = completed()
    with pytest.raises(IllegalAction, match="called by the buyer's opponents"):
        hand.push(Raise(S, "double"))
    with pytest.raises(IllegalAction, match="the next raise is 'double'"):
        hand.push(Raise(W, "triple"))
    hand.push(Raise(W, "double"))
    hand.push(Lock(W, True))
    assert hand.contract is not None and (hand.contract.level, hand.contract.locked) == (2, True)
    hand.push(Raise(S, "triple"))
    hand.push(Raise(E, "four"))
    hand.push(Raise(N, "gahwa"))
    assert hand.contract.gahwa and not hand.contract.locked  # Gahwa is always open
    assert hand.contract.raisers == (W, S, E, N)
    with pytest.raises(IllegalAction) as caught:
        hand.push(Raise(W, "double"))
    assert caught.value.rule_id == "doubling.chain"


def test_the_lock_belongs_to_the_doubler() -> None:
    hand = completed()
    hand.push(Raise(E, "double"))
    with pytest.raises(IllegalAction) as caught:
        hand.push(Lock(N, True))
    assert caught.value.rule_id == "doubling.lock"
    hand.push(Lock(E, True))
    assert hand.contract is not None and hand.contract.locked
    with pytest.raises(IllegalAction) as caught:
        hand.push(Play(N, parse_card("TS")))
    assert caught.value.rule_id == "play.hokum.locked_lead"
    hand.push(Play(N, parse_card("7C")))


def test_buyer_chooses_the_lock_after_the_raises_under_tazjel() -> None:
    hand = completed(load_ruleset("tazjel"))
    hand.push(Raise(E, "double"))
    with pytest.raises(IllegalAction):
        hand.push(Lock(E, True))
    hand.push(Raise(N, "pass"))  # under tazjel the first pass ends the raises
    hand.push(Lock(N, True))
    assert hand.contract is not None and hand.contract.locked


def test_no_raise_after_the_first_card() -> None:
    hand = completed()
    hand.push(Play(N, parse_card("TS")))
    with pytest.raises(IllegalAction) as caught:
        hand.push(Raise(W, "double"))
    assert caught.value.rule_id == "doubling.window"


def sun_hand(totals: tuple[int, int], rules: Ruleset = SAUDI) -> Hand:
    hand = Hand(rules, E, WORKED_DEAL, parse_card("QS"), totals=totals)
    hand.push(Bid(N, "sun"))
    hand.push(Complete(WORKED_REST))
    return hand


@pytest.mark.parametrize(
    ("totals", "saudi_ok", "federation_ok"),
    [((100, 99), True, False), ((101, 100), False, True), ((120, 50), True, True),
     ((90, 50), False, False)],
)  # fmt: skip
def test_sun_double_condition(totals: tuple[int, int], saudi_ok: bool, federation_ok: bool) -> None:
    for rules, ok in ((SAUDI, saudi_ok), (load_ruleset("saudi-federation"), federation_ok)):
        hand = sun_hand(totals, rules)
        if ok:
            hand.push(Raise(W, "double"))
            with pytest.raises(IllegalAction, match="at most to 'double'") as caught:
                hand.push(Raise(N, "triple"))  # the buyer, whom every chain allows
            assert caught.value.rule_id == "doubling.sun"
        else:
            with pytest.raises(IllegalAction) as caught:
                hand.push(Raise(W, "double"))
            assert caught.value.rule_id == "doubling.sun"


# --- Baloot announcements --------------------------------------------------------------------


BALOOT_DEAL = (cards("KH QH 7S 8S 9S"), cards("TS JS QS KS AS"), cards("7C 8C 9C TC JC"),
               cards("7D 8D 9D TD JD"))  # fmt: skip
BALOOT_REST = (cards("9H AH TH"), cards("QC KC AC"), cards("QD KD AD"), cards("7H 8H JH"))


def baloot_hand(rules: Ruleset) -> Hand:
    """N buys Hokum in hearts holding KH and QH, and leads KH."""
    hand = Hand(rules, E, BALOOT_DEAL, parse_card("9H"))
    for action in [
        Bid(N, "hokum"),
        Bid(W, "pass"),
        Bid(S, "pass"),
        Bid(E, "pass"),
        Bid(N, "hokum"),
    ]:
        hand.push(action)
    hand.push(Complete(BALOOT_REST))
    hand.push(Play(N, parse_card("KH")))
    return hand


def test_baloot_is_announced_with_the_second_card() -> None:
    hand = baloot_hand(SAUDI)
    assert hand.announcement() is None
    with pytest.raises(IllegalAction, match="with the second of KH and QH"):
        hand.push(Announce(N))
    for token in ("AS", "7C", "JH", "7D"):
        hand.push(Play(hand.to_play(), parse_card(token)))
    hand.push(Play(N, parse_card("QH")))  # N must ruff E's 7D
    assert hand.announcement() == Announce(N)
    hand.push(Announce(N))
    with pytest.raises(IllegalAction, match="right after playing"):
        hand.push(Announce(N))


def test_baloot_is_announced_with_the_first_card_under_vip() -> None:
    hand = baloot_hand(load_ruleset("vip-baloot"))
    assert hand.announcement() == Announce(N)
    with pytest.raises(IllegalAction, match="right after playing"):
        hand.copy().push(Announce(W))


def test_replaying_a_hand_reproduces_it() -> None:
    rng = random.Random(7)
    for _ in range(50):
        original = random_hand(SAUDI, rng)
        again = Hand(SAUDI, original.dealer, original.first_five, original.faceup, original.stock)
        for action in original.history:
            again.push(action)
        assert again.result() == original.result()


# --- properties over random hands ----------------------------------------------------------


def trick_winner_by_orders(rules: Ruleset, trump: Suit | None, trick: list[Play]) -> int:
    """The winner of a trick, computed from the ruleset's orders (independently of play.py)."""
    led = trick[0].card.suit

    def strength(play: Play) -> int:
        order = (
            rules.cards.order_trump.order
            if play.card.suit is trump
            else rules.cards.order_plain.order
        )
        rank = 8 - order.index(play.card.rank)
        if play.card.suit is trump:
            return 100 + rank
        return rank if play.card.suit is led else -1

    return max(trick, key=strength).seat


RULESETS = sorted(shipped_rulesets())


@pytest.mark.parametrize("name", RULESETS)
def test_random_hands_keep_the_invariants(name: str) -> None:
    rules = load_ruleset(name)
    rng = random.Random(name)
    played_hands = 0
    for _ in range(250):
        hand = Hand.shuffled(rules, rng.randrange(4), rng.sample(CARDS, 32))
        while not hand.is_over():
            actions = hand.legal_actions()
            assert actions or hand.phase == "completion", hand.phase
            hand.push(choose(hand, rng))
        result = hand.result()
        if result.contract is None:
            continue
        played_hands += 1
        contract = result.contract
        score = result.score
        assert score is not None
        total = rules.cards.totals.sun if contract.kind == "sun" else rules.cards.totals.hokum
        assert sum(score.abnat) == total
        played = [a for a in hand.history if isinstance(a, Play)]
        assert sorted(p.card.index for p in played) == list(range(32))
        for i in range(8):
            trick = played[4 * i : 4 * i + 4]
            winner = trick_winner_by_orders(rules, contract.trump, trick)
            if i < 7:
                assert played[4 * i + 4].seat == winner
        unraised = contract.level == 1 and not contract.gahwa
        if unraised and score.outcome in ("made", "split"):
            first = first_seat(rules, hand.dealer)
            _, counted = projects_.counted_projects(rules, contract, hand.declared(), first)
            holder = projects_.baloot_holder(
                rules, contract, hand.initial, hand.declared(), [p.card for p in played]
            )
            value = rules.scoring.round_value
            expected = (value.sun if contract.kind == "sun" else value.hokum) + sum(
                p.game_points for p in counted
            )
            if holder is not None:
                expected += rules.projects.baloot.game_points
            assert sum(score.game_points) == expected
    assert played_hands > 100


def test_random_games_end_at_the_target() -> None:
    rng = random.Random(3)
    for name in ("saudi", "kammelna", "kuwait"):
        rules = load_ruleset(name)
        game = random_game(rules, rng)
        assert game.is_over()
        winner = game.winner
        assert winner is not None
        last = game.results[-1]
        decided_by_gahwa = last.score is not None and last.score.match_winner is not None
        if not decided_by_gahwa:
            assert game.totals[winner] >= rules.game.target.points
            assert game.totals[winner] > game.totals[1 - winner]


def void_hand(points: tuple[int, int]) -> HandResult:
    """A stand-in result carrying only game points (the game needs nothing else)."""
    return HandResult(None, "", None, points, next_dealer=N)


def test_game_ends_at_the_target_and_plays_on_after_an_exact_tie() -> None:
    game = Game(SAUDI, dealer=E, totals=(140, 140))
    game.record(void_hand((12, 12)))
    assert game.totals == (152, 152) and not game.is_over()  # game.both_over_target
    game.record(void_hand((10, 16)))
    assert game.winner == 1
    with pytest.raises(ValueError, match="over"):
        game.record(void_hand((0, 0)))


def test_the_target_is_a_parameter() -> None:
    for name, winner in (("saudi", None), ("kuwait", 0)):
        game = Game(load_ruleset(name), dealer=E, totals=(140, 100))
        game.record(void_hand((11, 15)))
        assert game.winner == winner


def test_all_pass_passes_the_deal_on() -> None:
    for name, expected in (("saudi", N), ("tazjel", E)):
        hand = Hand(load_ruleset(name), E, WORKED_DEAL, parse_card("QS"))
        for _ in range(2):
            for seat in (N, W, S, E):
                hand.push(Bid(seat, "pass"))
        assert hand.is_over()
        assert hand.result().void_reason == "all_pass"
        assert hand.result().next_dealer == expected


def test_copy_is_independent() -> None:
    hand = completed()
    other = hand.copy()
    other.push(Play(N, parse_card("TS")))
    assert hand.trick == () and other.trick == (parse_card("TS").index,)
    assert hand.hands[N] != other.hands[N]


# --- more rules of the deal, the lock and the first lead -----------------------------------


def test_an_exposed_ace_is_played_under_saudi_and_redealt_when_the_option_says() -> None:
    ace_up = parse_card("AC")
    assert not Hand(SAUDI, E, WORKED_DEAL, ace_up).is_over()
    redeal = replace(SAUDI.deal.exposed_ace, option="redeal")
    rules = replace(SAUDI, deal=replace(SAUDI.deal, exposed_ace=redeal))
    hand = Hand(rules, E, WORKED_DEAL, ace_up)
    assert hand.is_over()
    assert hand.result().void_reason == "exposed_ace"
    assert hand.result().next_dealer == E  # the same dealer deals again


@pytest.mark.parametrize(("option", "next_dealer"), [("next_dealer", N), ("same_dealer", E)])
def test_kawesh_redeal_and_the_next_dealer(option: Any, next_dealer: int) -> None:
    kawesh = replace(SAUDI.deal.kawesh, option=option)
    rules = replace(SAUDI, deal=replace(SAUDI.deal, kawesh=kawesh))
    low = (cards("7S 8S 9S 7H 8H"), cards("TS JS QS KS AS"), cards("9H TH JH QH KH"),
           cards("AH 7D 8D 9D TD"))  # fmt: skip
    hand = Hand(rules, E, low, parse_card("JD"))
    hand.push(KaweshCall(N))
    assert hand.result().void_reason == "kawesh"
    assert hand.result().next_dealer == next_dealer


def lock_rules(option: Any) -> Ruleset:
    lock = replace(SAUDI.doubling.lock, option=option)
    return replace(SAUDI, doubling=replace(SAUDI.doubling, lock=lock))


def test_lock_only_at_four() -> None:
    hand = completed(lock_rules("four_only"))
    hand.push(Raise(W, "double"))
    with pytest.raises(IllegalAction):
        hand.push(Lock(W, True))
    hand.push(Raise(N, "triple"))
    hand.push(Raise(E, "four"))
    hand.push(Lock(E, True))
    assert hand.contract is not None and hand.contract.locked


def test_lock_by_each_raiser() -> None:
    hand = completed(lock_rules("each_raiser"))
    hand.push(Raise(W, "double"))
    hand.push(Lock(W, True))
    hand.push(Raise(S, "triple"))
    hand.push(Lock(S, False))  # the buyer's side opens it again
    assert hand.contract is not None and not hand.contract.locked


def test_the_first_lead_is_the_dealers_right_whoever_bought() -> None:
    hand = Hand(SAUDI, E, WORKED_DEAL, parse_card("QS"))
    for seat in (N, W):
        hand.push(Bid(seat, "pass"))
    hand.push(Bid(S, "sun"))
    hand.push(Complete((cards("KH JC 9C"), WORKED_REST[1], cards("QS QC KC"), WORKED_REST[3])))
    assert hand.to_play() == N
    with pytest.raises(IllegalAction) as caught:
        hand.push(Play(S, parse_card("AS")))
    assert caught.value.rule_id == "play.first_lead"


def test_a_gahwa_decides_the_game() -> None:
    rng = random.Random(11)
    for _ in range(200):
        hand = Hand.shuffled(SAUDI, E, rng.sample(CARDS, 32))
        hand.push(Bid(N, "hokum"))
        for seat in (W, S, E):
            hand.push(Bid(seat, "pass"))
        hand.push(Bid(N, "hokum"))
        for seat, call in ((W, "double"), (N, "triple"), (E, "four"), (S, "gahwa")):
            hand.push(Raise(seat, call))
        while not hand.is_over():
            hand.push(choose(hand, rng))
        game = Game(SAUDI, dealer=E)
        game.record(hand.result())
        score = hand.result().score
        assert score is not None and score.match_winner is not None
        assert game.winner == score.match_winner


@pytest.mark.parametrize("name", ["saudi", "tazjel", "majlis", "saudi-federation", "bloot7"])
def test_legal_actions_are_exactly_what_push_accepts(name: str) -> None:
    """Brute force over every raise, lock, announcement and card, at every step of random hands."""
    rules = load_ruleset(name)
    rng = random.Random(name)
    raise_words = [level.call for level in rules.doubling.chain.levels] + ["pass"]
    for _ in range(12):
        hand = Hand.shuffled(rules, rng.randrange(4), rng.sample(CARDS, 32), (120, 40))
        while hand.phase == "auction":
            hand.push(choose(hand, rng))
        while not hand.is_over():
            legal = set(hand.legal_actions())
            candidates: list[Action] = [Play(hand.to_play(), card) for card in CARDS]
            for seat in range(4):
                candidates += [Raise(seat, word) for word in raise_words]
                candidates += [Lock(seat, True), Lock(seat, False), Announce(seat)]
            for action in candidates:
                try:
                    hand.copy().push(action)
                except IllegalAction:
                    assert action not in legal, action
                else:
                    assert action in legal, action
            hand.push(choose(hand, rng))


def any_order(rules: Ruleset) -> Ruleset:
    """``rules`` with the raises called in any order before the first lead [doubling.window],
    as the default reads it (majlis 2.x)."""
    window = {
        "statement": "Raises are called after the contract is final and before the first card.",
        "sources": ["SAKKAH"],
        "option": "before_first_lead",
    }
    return derive_ruleset(rules, {"doubling.window": window}, f"{rules.id}-any-order")


def test_raises_asked_in_turn_from_the_dealers_right() -> None:
    hand = completed(load_ruleset("majlis"))  # E deals, N buys: W is asked first
    assert {str(a) for a in hand.legal_actions() if isinstance(a, Raise)} == {
        "raise W double",
        "raise W pass",
    }
    with pytest.raises(IllegalAction) as caught:
        hand.push(Raise(E, "double"))
    assert caught.value.rule_id == "doubling.window"
    assert "W is asked first" in caught.value.reason
    hand.push(Raise(W, "pass"))
    with pytest.raises(IllegalAction):
        hand.push(Raise(W, "double"))  # his pass handed the question to E
    hand.push(Raise(E, "double"))
    hand.push(Lock(E, True))  # the lock goes with the Double, before N speaks
    hand.push(Raise(N, "pass"))  # the buyer's pass ends the raises for everyone
    assert hand.contract is not None and (hand.contract.level, hand.contract.locked) == (2, True)
    assert not [a for a in hand.legal_actions() if isinstance(a, (Raise, Lock))]


def test_bloot7_asks_the_raises_from_the_buyers_right_and_no_sun_it_may_not_double() -> None:
    """doubling.window in_turn_from_buyer: dealer S, buyer N (the dealer's partner), so W,
    the buyer's right-hand opponent, is asked first where in_turn asks E, the dealer's right;
    a Sun that the limit of 100 keeps from being doubled opens no window at all."""
    bloot7 = load_ruleset("bloot7")
    asked = {}
    for option in ("in_turn", "in_turn_from_buyer"):
        window = {"statement": "Raises.", "sources": ["BLOOT7"], "option": option}
        rules = derive_ruleset(bloot7, {"doubling.window": window}, f"bloot7-{option}")
        hand = Hand(rules, S, WORKED_DEAL, parse_card("QS"))
        for bid in [Bid(E, "pass"), Bid(N, "hokum"), Bid(W, "pass"), Bid(S, "pass")]:
            hand.push(bid)
        hand.push(Bid(E, "pass"))
        hand.push(Complete(WORKED_REST))
        asked[option] = {str(a) for a in hand.legal_actions() if isinstance(a, Raise)}
    assert asked == {
        "in_turn": {"raise E double", "raise E pass"},
        "in_turn_from_buyer": {"raise W double", "raise W pass"},
    }
    for totals, opens in (((101, 100), True), ((100, 50), False)):
        hand = Hand(bloot7, S, WORKED_DEAL, parse_card("QS"), totals=totals)
        hand.push(Bid(E, "pass"))
        hand.push(Bid(N, "sun"))
        hand.push(Complete(WORKED_REST))
        raises = {str(a) for a in hand.legal_actions() if isinstance(a, Raise)}
        assert raises == ({"raise W double", "raise W pass"} if opens else set())
        if not opens:
            with pytest.raises(IllegalAction) as caught:
                hand.push(Raise(W, "pass"))
            assert caught.value.rule_id == "doubling.window"
            assert "opens no raise window" in caught.value.reason


def test_a_lock_not_chosen_with_its_raise_lapses_when_raises_are_asked_in_turn() -> None:
    majlis = load_ruleset("majlis")
    for rules, lapses in ((any_order(majlis), False), (majlis, True)):
        hand = completed(rules)
        hand.push(Raise(W, "double"))
        hand.push(Raise(N, "pass"))
        assert hand.can_lock(W) is not lapses


def mohamed352_raises() -> Ruleset:
    """saudi with mohamed352/bloot's raises: the buyer's right-hand opponent doubles, the
    buyer triples, the doubler says Four, each asked alone; no lock."""
    bloot = load_ruleset("bloot352").document["doubling"]
    changes = {
        f"doubling.{key}": {**bloot[key], "sources": SAUDI.document["doubling"][key]["sources"]}
        for key in ("chain", "window", "lock")
    }
    return derive_ruleset(SAUDI, changes, "saudi-bloot352-raises")


def test_one_seat_is_asked_each_raise_and_its_pass_closes_the_window() -> None:
    rules = mohamed352_raises()
    hand = completed(rules)  # E deals, N buys: W, at N's right, alone may double
    assert {str(a) for a in hand.legal_actions() if isinstance(a, Raise)} == {
        "raise W double",
        "raise W pass",
    }
    with pytest.raises(IllegalAction) as caught:
        hand.copy().push(Raise(E, "double"))
    assert (
        caught.value.reason
        == "'double' is called by the buyer's right-hand opponent (W) alone, not E"
    )
    passed = hand.copy()
    passed.push(Raise(W, "pass"))
    assert not [a for a in passed.legal_actions() if isinstance(a, (Raise, Lock))]
    hand.push(Raise(W, "double"))
    with pytest.raises(IllegalAction) as no_lock:
        hand.copy().push(Lock(W, True))
    assert no_lock.value.rule_id == "doubling.lock"
    hand.push(Raise(N, "triple"))
    assert {str(a) for a in hand.legal_actions() if isinstance(a, Raise)} == {
        "raise W four",
        "raise W pass",
    }
    hand.push(Raise(W, "four"))
    assert hand.contract is not None and (hand.contract.level, hand.contract.locked) == (4, False)
    assert not [a for a in hand.legal_actions() if isinstance(a, (Raise, Lock))]


def test_majlis_3_asks_the_raises_in_turn_where_majlis_2_took_any_order() -> None:
    """majlis.doubling.window-1 is the first hand of majlis.scoring.failure-1, retired with
    majlis 2: E doubles before W, whom majlis-baloot asks first (dealer E, buyer N). It fails
    at that Double under majlis 3 and passes with the raises in any order;
    majlis.scoring.failure-2, the same hand with W's pass first, passes under majlis 3."""
    majlis = load_ruleset("majlis")
    folder = ROOT / "fixtures" / "majlis"
    text = (folder / "majlis.doubling.window-1.btn").read_text(encoding="utf-8")
    assert [v.status for v in verdicts(text, any_order(majlis))] == ["pass"]
    verdict = verdicts(text, majlis)[0]
    root = next(d for d in verdict.divergences if d.root)
    assert (verdict.status, root.rule_id, root.position) == ("fail", "doubling.window", "h1.bid6")
    renewed = (folder / "majlis.scoring.failure-2.btn").read_text(encoding="utf-8")
    assert [v.status for v in verdicts(renewed, majlis)] == ["pass", "pass"]
