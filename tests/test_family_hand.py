"""The Bourré hand as a phase machine: each phase rule and option value, driven by hand, and
random sessions at every table size ending in a consistent ledger.

The ruleset and the obligations are this branch's stand-ins (``family_bourre_standin``): the
rules here are the phase machine's and the ledger's, which read only the numbers and options.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

import pytest
from family_bourre_standin import bourre_rules, compile_play, payment, rule

from baloot_conformance.family.engine.deck import cards_of
from baloot_conformance.family.engine.hand import (
    Ante,
    Deal,
    Declare,
    Discard,
    Draw,
    Penalty,
    Play,
    Reshuffle,
    TrickHand,
)
from baloot_conformance.family.engine.ledger import Ledger, settle
from baloot_conformance.family.engine.obligations import IllegalAction
from baloot_conformance.family.engine.pack import mask_of, pack_of, ring_of
from baloot_conformance.family.engine.playout import random_hand, random_session
from baloot_conformance.family.rules import model as m
from baloot_conformance.family.rules.loading import load_trick_ruleset, shipped_trick_rulesets

RULES = bourre_rules()
PACK = pack_of(RULES)


def c(text: str) -> tuple[int, ...]:
    return tuple(PACK.index[code] for code in text.split())


def hand_of(
    rules: m.TrickRuleset, hands: Sequence[str], *, ledger: Ledger | None = None
) -> TrickHand:
    """A recorded hand, its antes paid and these hands dealt (index = seat; '' not dealt)."""
    hand = TrickHand(rules, ledger or Ledger.start(len(hands)), compile_play)
    while hand.phase == "ante":
        hand.push(hand.legal_actions()[0])
    hand.push(Deal(tuple(c(text) for text in hands)))
    return hand


def refused(hand: TrickHand, action: object) -> IllegalAction:
    before = (hand.phase, list(hand.hands), len(hand.history))
    with pytest.raises(IllegalAction) as caught:
        hand.push(action)  # type: ignore[arg-type]
    assert (hand.phase, list(hand.hands), len(hand.history)) == before
    return caught.value


def play_out(hand: TrickHand) -> None:
    """Every remaining action the first legal one (the deal and draws given)."""
    while not hand.is_over():
        hand.push(hand.legal_actions()[0])


# Three seats, P1 dealing (index 0): P2, P3 then P1 are dealt; P1's last card, 9H, is face up:
# hearts are trump.
THREE = ("AS KS QS 2D 9H", "3S 4S 5S 2C 3C", "AH 6S 7S 4C 5C")


def test_the_table_has_two_to_eight_seats_named_in_play_order() -> None:
    with pytest.raises(IllegalAction) as caught:
        TrickHand(RULES, Ledger.start(9), compile_play)
    assert caught.value.rule_id == "table.seats" and "played by 2 to 8" in caught.value.reason
    assert ring_of(RULES, 3).names == ("P1", "P2", "P3")
    table = RULES.table
    baloot_like = bourre_rules(
        seats=replace(table.seats, names=("N", "E", "S", "W")),
        direction=replace(table.direction, option="counter_clockwise"),
    )
    assert ring_of(baloot_like, 4).names == ("N", "W", "S", "E")


def test_the_hand_follows_the_pipeline_it_is_given() -> None:
    bare = rule("phases.pipeline", m.Pipeline, kinds=("deal", "tricks", "settle"))
    hand = TrickHand(bourre_rules(pipeline=bare), Ledger.start(3, pot=4), compile_play)
    assert hand.phase == "deal" and hand.legal_actions() == []
    hand.push(Deal(tuple(c(text) for text in THREE)))
    assert hand.phase == "tricks" and hand.active == (1, 2, 0) and hand.to_act() == 1
    play_out(hand)
    assert hand.settlement is not None and hand.pot_settlement.won == 4 and hand.paid == {}
    points = rule("scoring.outcome", m.Outcome, option="card_points")
    with pytest.raises(ValueError, match=r"card_points .* has no settlement"):
        TrickHand(bourre_rules(outcome=points), Ledger.start(3), compile_play)


# --- ante -----------------------------------------------------------------------------------


def test_each_seat_antes_in_turn_from_the_dealers_next_seat() -> None:
    hand = TrickHand(RULES, Ledger.start(3), compile_play)
    assert hand.legal_actions() == [Ante(1, 1)]
    assert refused(hand, Ante(2, 1)).rule_id == "phases.ante"
    error = refused(hand, Ante(1, 2))
    assert error.rule_id == "phases.ante" and "P2 paid 2" in error.reason
    for seat in (1, 2, 0):
        hand.push(Ante(seat, 1))
    assert hand.phase == "deal" and hand.pot == 3


def test_a_seat_the_ledger_exempts_skips_the_ante() -> None:
    ledger = Ledger(4, 0, (0, 0, -6, 0), pot=6, exempt=frozenset({2}))
    hand = TrickHand(RULES, ledger, compile_play)
    assert [seat for _, seat, _ in hand.agenda] == [1, 3, 0]
    assert hand.legal_actions() == [Ante(1, 1)]
    for seat in (1, 3):
        hand.push(Ante(seat, 1))
    assert refused(hand, Ante(2, 1)).rule_id == "phases.ante"


def test_stay_is_a_second_ante_after_a_play() -> None:
    ante = rule("phases.ante", m.Ante, chips=1, exempt=(), stay=2)
    hand = hand_of(bourre_rules(ante=ante), THREE)
    hand.push(Declare(1, True, 0))
    assert hand.legal_actions() == [Ante(1, 2)]
    assert refused(hand, Ante(1, 1)).rule_id == "phases.ante"
    hand.push(Ante(1, 2))
    hand.push(Declare(2, False))
    hand.push(Declare(0, True, 0))
    hand.push(Ante(0, 2))
    assert hand.pot == 3 + 4


# --- deal -----------------------------------------------------------------------------------


def test_the_dealers_last_card_is_face_up_and_fixes_trump() -> None:
    hand = hand_of(RULES, THREE)
    assert hand.faceup == PACK.index["9H"] and hand.trump == RULES.table.deck.suits.index("H")
    assert hand.stock.bit_count() == 52 - 15 and hand.where(PACK.index["AS"]) == "in P1's hand"


def test_without_a_face_up_card_the_hand_has_no_trump() -> None:
    deal = rule("phases.deal", m.Deal, cards=5, faceup="none")
    hand = hand_of(bourre_rules(deal=deal), THREE)
    assert hand.faceup is None and hand.trump is None


@pytest.mark.parametrize(
    ("hands", "says"),
    [
        (("AS KS QS 2D 9H", "3S 4S 5S 2C 3C", "AS 6S 7S 4C 5C"), "AS is dealt twice"),
        (("AS KS QS 2D", "3S 4S 5S 2C 3C", "AH 6S 7S 4C 5C"), "P1 is dealt 4 cards, not 5"),
    ],
)
def test_a_deal_is_checked_against_the_pack(hands: tuple[str, ...], says: str) -> None:
    hand = TrickHand(RULES, Ledger.start(3), compile_play)
    for seat in (1, 2, 0):
        hand.push(Ante(seat, 1))
    error = refused(hand, Deal(tuple(c(t) for t in hands)))
    assert error.rule_id == "phases.deal" and says in error.reason
    error = refused(hand, Deal((c(THREE[0]), c(THREE[1]), (*c(THREE[2])[:4], 99))))
    assert "card 99 is not in the pack of 52 cards" in error.reason


def test_a_shuffled_deal_goes_one_at_a_time_from_the_dealers_next_seat() -> None:
    rng = random.Random(5)
    hand = TrickHand.shuffled(RULES, Ledger.start(4, dealer=2), compile_play, rng)
    while hand.phase == "ante":
        hand.push(hand.legal_actions()[0])
    order = list(hand.pack_order or [])
    (deal,) = hand.legal_actions()
    assert isinstance(deal, Deal)
    assert deal.hands[3][0] == order[0] and deal.hands[0][0] == order[1]
    assert deal.hands[2][-1] == order[19]
    hand.push(deal)
    assert hand.faceup == order[19]


# --- draw -----------------------------------------------------------------------------------


def test_in_turn_a_declaration_out_of_turn_is_refused_simultaneous_any_order() -> None:
    hand = hand_of(RULES, THREE)
    error = refused(hand, Declare(2, True, 1))
    assert error.rule_id == "phases.draw.declare" and "P3 declared before P2" in error.reason
    declare = rule("phases.draw.declare", m.Declare, option="simultaneous")
    hand = hand_of(bourre_rules(declare=declare), THREE)
    hand.push(Declare(2, True))
    hand.push(Declare(0, False))
    hand.push(Declare(1, True))
    # the second round goes in turn from the dealer's next seat, each saying its discards
    assert hand.agenda == [("discard", 1, -1), ("discard", 2, -1)]
    assert len(hand.legal_actions()) == 1 + 5 + 10 + 10 + 5 + 1
    hand.push(Discard(1, ()))
    hand.push(Discard(2, c("6S 7S")))
    assert hand.agenda == [("draw", 2, 2)]


def test_intent_then_draw_declares_in_turn_and_discards_in_a_second_round() -> None:
    declare = rule("phases.draw.declare", m.Declare, option="intent_then_draw")
    hand = hand_of(bourre_rules(declare=declare), THREE)
    assert hand.legal_actions() == [Declare(1, False), Declare(1, True)]
    assert refused(hand, Declare(2, True)).rule_id == "phases.draw.declare"
    error = refused(hand, Declare(1, True, 2))
    assert error.rule_id == "phases.draw.declare" and "second round" in error.reason
    for seat in (1, 2, 0):
        hand.push(Declare(seat, True))
    assert [seat for _, seat, _ in hand.agenda] == [1, 2, 0]
    error = refused(hand, Discard(1, c("3S 4S 5S 2C 3C AH")))
    assert "AH, which it does not hold" in error.reason
    four = bourre_rules(declare=declare, discards=rule("phases.draw.discards", m.Discards, max=4))
    hand = hand_of(four, THREE)
    for seat in (1, 2, 0):
        hand.push(Declare(seat, True))
    error = refused(hand, Discard(1, c("3S 4S 5S 2C 3C")))
    assert error.rule_id == "phases.draw.discards" and "at most 4 with 3 players" in error.reason


def test_the_discard_limit_and_its_table_sizes() -> None:
    hand = hand_of(RULES, THREE)
    hand.push(Declare(1, True, 5))
    assert hand.agenda[0] == ("discard", 1, 5)
    four = rule("phases.draw.discards", m.Discards, max=4)
    hand = hand_of(bourre_rules(discards=four), THREE)
    error = refused(hand, Declare(1, True, 5))
    assert error.rule_id == "phases.draw.discards" and "at most 4 with 3 players" in error.reason
    three_at_three = rule(
        "phases.draw.discards", m.Discards, max=5, by_players=(m.DiscardLimit(3, 3),)
    )
    hand = hand_of(bourre_rules(discards=three_at_three), THREE)
    assert max(a.discards for a in hand.legal_actions() if isinstance(a, Declare)) == 3


def test_discards_and_draws_move_cards_between_zones() -> None:
    hand = hand_of(RULES, THREE)
    hand.push(Declare(1, True, 2))
    error = refused(hand, Discard(1, c("AS 4S")))
    assert error.rule_id == "phases.draw.discards" and "AS, which it does not hold" in error.reason
    assert refused(hand, Discard(1, c("4S"))).rule_id == "phases.draw.discards"
    hand.push(Discard(1, c("2C 3C")))
    assert hand.where(PACK.index["3C"]) == "among P2's discards"
    error = refused(hand, Draw(1, c("AH")))
    assert "AH, which is not in the stock (it is in P3's hand)" in error.reason
    hand.push(Draw(1, c("JS")))
    hand.push(Draw(1, c("TS")))
    assert hand.agenda == [] and list(cards_of(hand.hands[1])) == sorted(c("3S 4S 5S JS TS"))


def _eight_players() -> tuple[str, ...]:
    """Eight hands of five: the stock keeps 12 cards (the clubs 2 to K)."""
    return (
        "AS KS QS JS TS",
        "9S 8S 7S 6S 5S",
        "4S 3S 2S AH KH",
        "QH JH TH 9H 8H",
        "7H 6H 5H 4H 3H",
        "2H AD KD QD JD",
        "TD 9D 8D 7D 6D",
        "5D 4D 3D 2D AC",
    )


def _serve_fives(hand: TrickHand, seats: Sequence[int]) -> None:
    for seat in seats:
        hand.push(Declare(seat, True, 5))
        hand.push(Discard(seat, tuple(cards_of(hand.hands[seat]))))
        while hand.agenda and hand.stock:
            take = min(hand.owed, hand.stock.bit_count())
            hand.push(Draw(seat, tuple(list(cards_of(hand.stock))[:take])))
        if hand.agenda:
            return


def test_the_stock_runs_out_and_the_discards_are_reshuffled_without_the_players_own() -> None:
    hand = hand_of(RULES, _eight_players())
    _serve_fives(hand, (1, 2, 3))
    # P2 and P3 took ten of the twelve; P4 gets two, then the stock is out
    assert hand.stock == 0 and hand.owed == 3 and hand.legal_actions() == [Reshuffle(3)]
    assert refused(hand, Draw(3, c("9H"))).rule_id == "phases.draw.refill"
    hand.push(Reshuffle(3))
    assert hand.stock.bit_count() == 10 and hand.where(PACK.index["9H"]) == "among P4's discards"
    assert refused(hand, Draw(3, c("9H"))).rule_id == "phases.draw.refill"
    hand.push(Draw(3, c("9S 8S 7S")))


def test_a_reshuffle_comes_when_the_stock_cannot_serve_and_keeps_what_is_left() -> None:
    hand = hand_of(RULES, _eight_players())
    _serve_fives(hand, (1, 2))
    hand.push(Declare(3, True, 3))
    hand.push(Discard(3, c("QH JH TH")))
    error = refused(hand, Draw(3, c("QC KC 9S")))
    assert error.rule_id == "phases.draw.discards" and "9S, which is not in the stock" in (
        error.reason
    )
    hand.push(Reshuffle(3))
    assert hand.stock.bit_count() == 2 + 10
    hand.push(Draw(3, c("QC KC 9S")))
    hand.push(Declare(4, True, 1))
    hand.push(Discard(4, c("7H")))
    error = refused(hand, Reshuffle(4))
    assert error.rule_id == "phases.draw.refill" and "still holds 9 cards" in error.reason


def test_the_folded_hands_are_gathered_first_or_not_at_all() -> None:
    """P2 to P4 pass; P5 and P6 take the stock's twelve; P7 is served from P2-P4's hands
    under folded_first, from P5 and P6's discards under reshuffle_discards."""
    folded_first = rule("phases.draw.refill", m.Refill, option="folded_first", exclude_own=True)
    for rules, gathered in ((bourre_rules(refill=folded_first), 15), (RULES, 10)):
        hand = hand_of(rules, _eight_players())
        for seat in (1, 2, 3):
            hand.push(Declare(seat, False))
        _serve_fives(hand, (4, 5))
        hand.push(Declare(6, True, 5))
        hand.push(Discard(6, tuple(cards_of(hand.hands[6]))))
        hand.push(Draw(6, tuple(cards_of(hand.stock))))
        hand.push(Reshuffle(6))
        assert hand.stock.bit_count() == gathered
        from_folded = hand.stock == mask_of(c(" ".join(_eight_players()[1:4])))
        assert from_folded == (gathered == 15)


def test_without_a_refill_no_player_discards_more_than_the_stock_holds() -> None:
    refill = rule("phases.draw.refill", m.Refill, option="none")
    hand = hand_of(bourre_rules(refill=refill), _eight_players())
    _serve_fives(hand, (1, 2))
    assert max(a.discards for a in hand.legal_actions() if isinstance(a, Declare)) == 2
    error = refused(hand, Declare(3, True, 3))
    assert error.rule_id == "phases.draw.refill" and "can serve 2" in error.reason
    assert "the stock holds 2, and no reshuffle" in error.reason


def test_the_dealer_may_not_pass_on_a_faceup_ace() -> None:
    ace_up = ("KS QS JS 2D AH", "3S 4S 5S 2C 3C", "2S 6S 7S 4C 5C")
    hand = hand_of(RULES, ace_up)
    hand.push(Declare(1, False))
    hand.push(Declare(2, False))
    assert Declare(0, False) not in hand.legal_actions()
    error = refused(hand, Declare(0, False))
    assert error.rule_id == "phases.draw.faceup_ace" and "face-up AH" in error.reason
    no_effect = rule("phases.draw.faceup_ace", m.FaceupAce, option="no_effect")
    hand = hand_of(bourre_rules(faceup_ace=no_effect), ace_up)
    for seat in (1, 2, 0):
        hand.push(Declare(seat, False))
    assert hand.is_over() and hand.settlement is not None
    assert hand.pot_settlement.winner is None and hand.pot_settlement.next.pot == 3


def test_a_lone_player_takes_the_pot_or_plays_it_out() -> None:
    hand = hand_of(RULES, THREE)
    hand.push(Declare(1, False))
    hand.push(Declare(2, True, 1))
    hand.push(Discard(2, c("6S")))
    hand.push(Draw(2, c("2H")))
    hand.push(Declare(0, False))
    assert hand.is_over() and hand.tricks == {2: 5}
    assert hand.settlement is not None and hand.pot_settlement.winner == 2
    plays_out = rule("phases.draw.lone_player", m.LonePlayer, option="plays_out")
    hand = hand_of(bourre_rules(lone_player=plays_out), THREE)
    for seat in (1, 2, 0):
        hand.push(Declare(seat, seat == 2, 0))
    assert hand.phase == "tricks" and hand.legal_actions()[0] == Play(2, PACK.index["6S"])
    play_out(hand)
    assert hand.tricks == {2: 5} and len(hand.history) == 3 + 1 + 3 + 5


# --- tricks ---------------------------------------------------------------------------------


def _all_play(rules: m.TrickRuleset = RULES, hands: Sequence[str] = THREE) -> TrickHand:
    hand = hand_of(rules, hands)
    for seat in hand.dealt_in:
        hand.push(Declare(seat, True, 0))
    return hand


def test_the_first_active_seat_after_the_dealer_leads_and_the_winner_leads_next() -> None:
    hand = hand_of(RULES, THREE)
    hand.push(Declare(1, False))
    hand.push(Declare(2, True, 0))
    hand.push(Declare(0, True, 0))
    assert hand.to_act() == 2 and hand.active == (2, 0)
    hand.push(Play(2, PACK.index["6S"]))
    hand.push(Play(0, PACK.index["AS"]))
    assert hand.to_act() == 0 and hand.tricks == {2: 0, 0: 1}


def test_a_card_out_of_turn_or_not_held_is_refused() -> None:
    hand = _all_play()
    error = refused(hand, Play(2, PACK.index["AH"]))
    assert error.rule_id == "phases.tricks" and "P2 is to play" in error.reason
    error = refused(hand, Play(1, PACK.index["AH"]))
    assert "AH, which it does not hold (holds 5S 4S 3S 3C 2C)" in error.reason


def test_the_obligations_decide_and_their_rule_is_cited() -> None:
    hand = _all_play()
    hand.push(Play(1, PACK.index["5S"]))
    assert [PACK.codes[a.card] for a in hand.legal_actions() if isinstance(a, Play)] == [
        "6S",
        "7S",
    ]
    error = refused(hand, Play(2, PACK.index["4C"]))
    assert error.rule_id == "play.head" and "P3 played 4C but must head" in error.reason


def test_a_renege_is_played_reported_and_penalised() -> None:
    hand = _all_play()
    hand.push(Play(1, PACK.index["5S"]))
    error = hand.force_play(Play(2, PACK.index["4C"]))
    assert error is not None and error.rule_id == "play.head"
    assert hand.reneges == [(2, "play.head")] and hand.trick == c("5S 4C")
    assert hand.force_play(Play(0, PACK.index["AS"])) is None
    while hand.phase == "tricks":
        hand.push(hand.legal_actions()[0])
    assert hand.phase == "settle" and hand.legal_actions() == [Penalty(2, 3)]
    error = refused(hand, Penalty(2, 1))
    assert error.rule_id == "scoring.pot.renege" and "pays 3 into the next pot" in error.reason
    hand.push(Penalty(2, 3))
    assert hand.settlement is not None and hand.pot_settlement.reneges == {2: 3}
    assert hand.tricks == {1: 0, 2: 2, 0: 3} and hand.pot_settlement.bourre == {1: 3}
    assert hand.pot_settlement.pays == {1: 3, 2: 3} and hand.pot_settlement.taken == {0: 3}
    assert hand.pot_settlement.next.total() == 0


def test_a_renege_under_a_ruleset_without_a_penalty_only_is_reported() -> None:
    scoring = bourre_rules(renege=None)
    hand = _all_play(scoring)
    hand.push(Play(1, PACK.index["5S"]))
    assert hand.force_play(Play(2, PACK.index["4C"])) is not None
    play_out(hand)
    assert hand.is_over() and hand.settlement is not None and hand.pot_settlement.reneges == {}


# --- settle and the ledger ------------------------------------------------------------------


def _settle(rules: m.TrickRuleset, tricks: dict[int, int], pot: int = 0) -> object:
    ledger = Ledger.start(3, pot=pot)
    return settle(rules, ledger, paid={1: 1, 2: 1, 0: 1}, tricks=tricks)


def test_strictly_most_tricks_takes_the_pot_and_a_bourre_pays_it_into_the_next() -> None:
    done = settle(RULES, Ledger.start(3), paid={1: 1, 2: 1, 0: 1}, tricks={1: 3, 2: 2, 0: 0})
    assert done.winner == 1 and done.won == 3 and done.bourre == {0: 3}
    assert done.next.chips == (-4, 2, -1) and done.next.pot == 3 and done.next.total() == 0
    assert done.next.exempt == {0} and done.next.dealer == 1


def test_a_tie_carries_the_pot_and_the_leaders_skip_the_next_ante() -> None:
    done = settle(RULES, Ledger.start(3), paid={1: 1, 2: 1, 0: 1}, tricks={1: 2, 2: 2, 0: 1})
    assert done.winner is None and done.tie == (1, 2) and done.next.pot == 3
    assert done.next.exempt == {1, 2}
    ante = rule("phases.ante", m.Ante, chips=1, exempt=("bourre",))
    done = settle(bourre_rules(ante=ante), Ledger.start(3), paid={}, tricks={1: 2, 2: 2, 0: 1})
    assert done.next.exempt == frozenset()


def test_the_pot_limit_caps_a_bourre_whatever_its_formula() -> None:
    limit = rule("scoring.pot.limit", m.PotLimit, chips=4)
    pays_pot = payment("pot")
    for rules, due in (
        (RULES, 10),
        (bourre_rules(limit=limit), 4),
        (bourre_rules(limit=limit, bourre=pays_pot), 4),
        (bourre_rules(bourre=payment("pot // 2")), 5),
    ):
        done = settle(rules, Ledger.start(3, pot=7), paid={1: 1, 2: 1, 0: 1}, tricks={1: 5, 2: 0})
        assert done.bourre == {2: due} and done.next.pot == due and done.won == 10


def test_a_limit_on_the_winnings_carries_the_rest_of_the_pot() -> None:
    paid = {1: 1, 2: 1, 0: 1}
    tricks = {1: 5, 2: 0}
    for caps, won in (("payments", 10), ("payments_and_winnings", 4)):
        limit = rule("scoring.pot.limit", m.PotLimit, chips=4, caps=caps)
        done = settle(bourre_rules(limit=limit), Ledger.start(3, pot=7), paid=paid, tricks=tricks)
        assert done.won == won and done.bourre == {2: 4}
        assert done.next.pot == 10 - won + 4 and done.next.total() == 7


def test_the_deal_passes_on_or_stays() -> None:
    paid = {1: 1, 2: 1, 0: 1}
    tricks = {1: 3, 2: 2, 0: 0}
    assert settle(RULES, Ledger.start(3, dealer=2), paid=paid, tricks=tricks).next.dealer == 0
    stay = rule("table.dealer.rotation", m.DealerRotation, option="stay")
    assert (
        settle(
            bourre_rules(dealer_rotation=stay), Ledger.start(3), paid=paid, tricks=tricks
        ).next.dealer
        == 0
    )


def test_a_bourre_skips_the_next_ante_only_where_the_rule_exempts_him() -> None:
    paid = {1: 1, 2: 1, 0: 1}
    tricks = {1: 5, 2: 0, 0: 0}
    assert settle(RULES, Ledger.start(3), paid=paid, tricks=tricks).next.exempt == {0, 2}
    ties_only = bourre_rules(ante=rule("phases.ante", m.Ante, chips=1, exempt=("tie_leaders",)))
    done = settle(ties_only, Ledger.start(3), paid=paid, tricks=tricks)
    assert done.next.exempt == frozenset() and done.bourre == {2: 3, 0: 3}
    assert TrickHand(ties_only, done.next, compile_play).agenda == [
        ("ante", 2, 1),
        ("ante", 0, 1),
        ("ante", 1, 1),
    ]


def test_an_action_out_of_its_phase_is_refused_in_words() -> None:
    hand = TrickHand(RULES, Ledger.start(3), compile_play)
    error = refused(hand, Play(1, PACK.index["AS"]))
    assert error.rule_id == "phases.ante" and "P2 is to pay the ante, 1; got P2 plays AS" in (
        error.reason
    )
    hand = hand_of(RULES, THREE)
    error = refused(hand, Play(1, PACK.index["3S"]))
    assert error.rule_id == "phases.pipeline"
    assert error.reason == "a declaration (pass or play) is next, not P2 plays 3S"
    hand = _all_play()
    play_out(hand)
    error = refused(hand, Declare(1, False))
    assert error.reason == "the hand is over; P2 passes comes after it"


# --- sessions -------------------------------------------------------------------------------

VARIANTS = {
    "seed": RULES,
    "folded_first": bourre_rules(
        refill=rule("phases.draw.refill", m.Refill, option="folded_first", exclude_own=True),
        declare=rule("phases.draw.declare", m.Declare, option="intent_then_draw"),
    ),
    "limit": bourre_rules(limit=rule("scoring.pot.limit", m.PotLimit, chips=5)),
    "simultaneous": bourre_rules(
        declare=rule("phases.draw.declare", m.Declare, option="simultaneous"),
        refill=rule("phases.draw.refill", m.Refill, option="none"),
    ),
    "stay": bourre_rules(
        ante=rule("phases.ante", m.Ante, chips=1, stay=1),
        lone_player=rule("phases.draw.lone_player", m.LonePlayer, option="plays_out"),
        discards=rule(
            "phases.draw.discards", m.Discards, max=4, by_players=(m.DiscardLimit(7, 3),)
        ),
    ),
}


@pytest.mark.parametrize("players", range(2, 9))
def test_random_sessions_keep_a_consistent_ledger(players: int) -> None:
    """200 hands in all: chips are conserved, and each hand's antes, payments and pot add up."""
    for index, (name, rules) in enumerate(VARIANTS.items()):
        hands = random_session(rules, players, 6, compile_play, seed=players * 10 + index)
        for hand in hands:
            done = hand.pot_settlement
            before, after = hand.ledger, done.next
            assert after.total() == before.total() == 0, name
            paid_in = (
                sum(hand.paid.values()) + sum(done.bourre.values()) + sum(done.reneges.values())
            )
            assert before.pot + paid_in == done.won + after.pot
            counted = sum(hand.tricks.values())
            assert counted in (0, rules.phases.tricks.count)
            played = sum(isinstance(a, Play) for a in hand.history)
            assert played == len(hand.active) * rules.phases.tricks.count or len(hand.active) <= 1
            zones = [hand.stock, *hand.hands, *hand.discards, *hand.folded]
            assert sum(z.bit_count() for z in zones) + played == 52
            assert not any(a & b for i, a in enumerate(zones) for b in zones[i + 1 :])


#: The shipped pot games (Bourré and its profiles); the points games have their own tests
#: (tests/test_family_points.py).
POT_GAMES = sorted(
    n
    for n in shipped_trick_rulesets()
    if load_trick_ruleset(n).scoring.outcome.option == "most_tricks"
)


@pytest.mark.parametrize("name", POT_GAMES)
def test_random_sessions_under_every_profile_keep_a_consistent_ledger(name: str) -> None:
    rules = load_trick_ruleset(name)
    for players in range(rules.table.seats.min, rules.table.seats.max + 1):
        for hand in random_session(rules, players, 3, None, seed=players):
            done = hand.pot_settlement
            assert done.next.total() == hand.ledger.total() == 0
            paid = sum(hand.paid.values()) + sum(done.bourre.values())
            assert hand.ledger.pot + paid + sum(done.reneges.values()) == done.won + done.next.pot


def test_a_session_is_the_same_for_the_same_seed() -> None:
    one = random_session(RULES, 5, 5, compile_play, seed=3)
    two = random_session(RULES, 5, 5, compile_play, seed=3)
    assert [h.history for h in one] == [h.history for h in two]
    assert [h.history for h in random_session(RULES, 5, 5, compile_play, seed=4)] != [
        h.history for h in one
    ]


def test_a_copy_goes_its_own_way() -> None:
    hand = TrickHand.shuffled(RULES, Ledger.start(4), compile_play, random.Random(1))
    while hand.phase != "tricks":
        hand.push(hand.legal_actions()[-1])
    twin = hand.copy()
    twin.push(twin.legal_actions()[0])
    assert len(twin.history) == len(hand.history) + 1 and twin.hands != hand.hands
    done = random_hand(RULES, Ledger.start(4), compile_play, random.Random(1))
    assert done.is_over()
