"""The auction (baloot_conformance.engine.auction), rule by rule and option by option."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from baloot_conformance.cards import Suit, parse_card
from baloot_conformance.engine.actions import Bid
from baloot_conformance.engine.auction import Auction
from baloot_conformance.engine.model import IllegalAction
from baloot_conformance.rules.loading import load_ruleset
from baloot_conformance.rules.ruleset import Ruleset

SAUDI = load_ruleset("saudi")
DEALER = 3  # E deals: N (0) calls first, then W (1), S (2), E (3)
N, W, S, E = 0, 1, 2, 3


def auction(rules: Ruleset = SAUDI, faceup: str = "9H") -> Auction:
    return Auction(rules, DEALER, parse_card(faceup))


def calls(a: Auction, *script: str) -> Auction:
    """Push calls written as 'N hokum', 'W pass', 'S hokum D'."""
    for line in script:
        seat, call, *suit = line.split()
        a.push(Bid("NWSE".index(seat), call, Suit(suit[0]) if suit else None))
    return a


def illegal(a: Auction, line: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        calls(a, line)
    return caught.value


def with_bidding(rules: Ruleset, **rules_by_field: Any) -> Ruleset:
    return replace(rules, bidding=replace(rules.bidding, **rules_by_field))


# --- bidding.order, bidding.rounds, bidding.all_pass ---------------------------------------


def test_calls_start_at_the_dealers_right() -> None:
    a = auction()
    assert a.to_call() == N
    error = illegal(a, "W pass")
    assert error.rule_id == "bidding.order"
    assert "it is N's call" in error.reason


def test_all_pass_twice_voids_the_hand() -> None:
    a = calls(auction(), *["N pass", "W pass", "S pass", "E pass"] * 2)
    assert a.result is not None
    assert (a.result.kind, a.result.void_reason) == (None, "all_pass")


def test_a_single_round_ruleset_voids_after_one_round() -> None:
    one_round = with_bidding(SAUDI, rounds=replace(SAUDI.bidding.rounds, count=1))
    a = calls(auction(one_round), "N pass", "W pass", "S pass", "E pass")
    assert a.result is not None and a.result.void_reason == "all_pass"


# --- round 1 and round 2 calls ---------------------------------------------------------------


def test_round1_hokum_is_in_the_faceup_suit() -> None:
    a = calls(auction(), "N pass", "W hokum", "S pass", "E pass", "W hokum")
    assert a.result is not None
    assert (a.result.kind, a.result.trump, a.result.buyer) == ("hokum", Suit.HEARTS, W)


def test_round1_hokum_in_another_suit_is_illegal() -> None:
    error = illegal(auction(), "N hokum S")
    assert error.rule_id == "bidding.round1.calls"


def test_unknown_call_word() -> None:
    error = illegal(auction(), "N double")
    assert error.rule_id == "bidding.round1.calls"
    assert "'double' is not a call of round 1" in error.reason


def test_round2_hokum_names_another_suit() -> None:
    a = calls(auction(), "N pass", "W pass", "S pass", "E pass")
    assert a.round == 2
    assert illegal(a.copy(), "N hokum H").rule_id == "bidding.round2.hokum_suit"
    assert illegal(a.copy(), "N hokum").rule_id == "bidding.round2.hokum_suit"
    calls(a, "N hokum D", "W pass", "S pass", "E pass", "N hokum")
    assert a.result is not None and (a.result.kind, a.result.trump) == ("hokum", Suit.DIAMONDS)


def test_round2_hokum_in_any_suit_option() -> None:
    any_suit = with_bidding(
        SAUDI, round2_hokum_suit=replace(SAUDI.bidding.round2_hokum_suit, option="any")
    )
    a = calls(auction(any_suit), "N pass", "W pass", "S pass", "E pass", "N hokum H")
    assert a.pending == (N, Suit.HEARTS)


# --- Sun over Hokum, Hokum over Hokum ------------------------------------------------------


def test_sun_over_a_pending_hokum() -> None:
    a = calls(auction(), "N pass", "W hokum", "S sun")
    # live_only: W bid Hokum before S and has not passed, so W may claim the Sun first.
    assert a.window == "claim" and a.to_call() == W
    calls(a, "W pass")
    assert a.result is not None and (a.result.kind, a.result.buyer) == ("sun", S)


def test_hokum_over_hokum_is_forbidden() -> None:
    error = illegal(calls(auction(), "N hokum"), "W hokum")
    assert error.rule_id == "bidding.hokum_over_hokum"


def test_priority_hijack_lets_an_earlier_seat_take_the_hokum() -> None:
    hijack = with_bidding(
        SAUDI,
        hokum_over_hokum=replace(SAUDI.bidding.hokum_over_hokum, option="priority_hijack"),
    )
    a = calls(auction(hijack), "N pass", "W hokum", "S pass", "E pass")
    assert a.window == "hijack" and a.to_call() == N
    calls(a, "N hokum")
    assert str(a.window) == "confirm" and a.to_call() == N
    calls(a, "N hokum")
    assert a.result is not None and (a.result.kind, a.result.buyer) == ("hokum", N)
    # Under saudi the same calls go straight to W's confirmation.
    b = calls(auction(), "N pass", "W hokum", "S pass", "E pass")
    assert b.window == "confirm" and b.to_call() == W


# --- Sun priority (قبلك) --------------------------------------------------------------------


def priority(option: Any) -> Ruleset:
    return with_bidding(SAUDI, sun_priority=replace(SAUDI.bidding.sun_priority, option=option))


def test_sun_priority_live_only_lets_the_hokum_bidder_claim() -> None:
    a = calls(auction(), "N hokum", "W pass", "S sun", "N sun")
    assert a.result is not None and (a.result.kind, a.result.buyer) == ("sun", N)


def test_sun_priority_live_only_ignores_seats_that_passed() -> None:
    a = calls(auction(), "N pass", "W pass", "S sun")
    assert a.result is not None and a.result.buyer == S


def test_sun_priority_passed_may_claim_asks_passed_opponents() -> None:
    a = calls(auction(priority("passed_may_claim")), "N pass", "W pass", "S sun")
    assert a.window == "claim" and a.to_call() == W  # N is S's partner
    calls(a, "W sun")
    assert a.result is not None and a.result.buyer == W


def test_sun_priority_all_earlier_asks_in_priority_order() -> None:
    a = calls(auction(priority("all_earlier")), "N pass", "W pass", "S sun")
    assert a.to_call() == N
    error = illegal(a.copy(), "W sun")
    assert error.rule_id == "bidding.sun_priority"
    calls(a, "N pass", "W pass")
    assert a.result is not None and a.result.buyer == S


def test_sun_priority_all_earlier_if_live_opens_only_over_a_live_seat() -> None:
    # tazjel's Gablak window: it opens only when an earlier seat has not passed (here N's
    # Hokum), and then every earlier seat may claim, W too though it passed.
    a = calls(auction(priority("all_earlier_if_live")), "N hokum", "W pass", "S sun")
    assert a.window == "claim" and a.to_call() == N
    b = calls(auction(priority("all_earlier_if_live")), "N pass", "W pass", "S sun")
    assert b.result is not None and b.result.buyer == S  # nobody live: the Sun stands
    c = calls(auction(priority("live_only")), "N hokum", "W pass", "S sun", "N pass")
    assert c.result is not None  # live_only never asks W, which passed


def test_a_lapsing_claim_window_closes_by_itself() -> None:
    tazjel = load_ruleset("tazjel")
    assert tazjel.bidding.sun_priority.claims == "lapse"
    a = calls(auction(tazjel), "N hokum", "W pass", "S sun")
    assert a.window == "claim" and a.result is None
    assert a.lapse_claims()
    assert a.result is not None and (a.result.kind, a.result.buyer) == ("sun", S)
    # A window that must be answered does not lapse.
    b = calls(auction(), "N hokum", "W pass", "S sun")
    assert not b.lapse_claims() and b.window == "claim"


def test_tazjel_opens_no_window_in_round_two() -> None:
    tazjel = load_ruleset("tazjel")
    round1 = ["N pass", "W pass", "S pass", "E pass"]
    a = calls(auction(tazjel), *round1, "N hokum S", "W sun")
    assert a.result is not None and a.result.buyer == W


def test_sun_priority_none_ends_the_auction_at_the_first_sun() -> None:
    a = calls(auction(load_ruleset("majlis")), "N hokum", "W sun")
    assert a.result is not None and a.result.buyer == W


def test_only_sun_or_pass_in_the_claim_window() -> None:
    a = calls(auction(), "N hokum", "W sun")
    assert illegal(a, "N hokum").rule_id == "bidding.sun_priority"


# --- the Hokum bidder's confirmation -------------------------------------------------------


def test_the_hokum_bidder_may_switch_to_sun() -> None:
    a = calls(auction(), "N pass", "W hokum", "S pass", "E pass", "W sun")
    assert a.result is not None and (a.result.kind, a.result.buyer) == ("sun", W)


def test_confirmation_must_be_hokum_or_sun() -> None:
    a = calls(auction(), "N pass", "W hokum", "S pass", "E pass")
    assert illegal(a, "W pass").rule_id == "bidding.hokum_confirmation"


def test_ace_faceup_switch_first_seat_only() -> None:
    a = calls(auction(faceup="AH"), "N pass", "W hokum", "S pass", "E pass")
    error = illegal(a, "W sun")
    assert error.rule_id == "bidding.hokum_confirmation" and "AH" in error.reason
    b = calls(auction(faceup="AH"), "N hokum", "W pass", "S pass", "E pass", "N sun")
    assert b.result is not None and b.result.kind == "sun"


def test_ace_faceup_switch_forbidden_under_jawaker() -> None:
    a = calls(auction(load_ruleset("jawaker"), "AH"), "N hokum", "W pass", "S pass", "E pass")
    assert illegal(a, "N sun").rule_id == "bidding.hokum_confirmation"


def test_confirm_only_needs_no_confirmation() -> None:
    rule = replace(SAUDI.bidding.hokum_confirmation, option="confirm_only")
    a = calls(auction(with_bidding(SAUDI, hokum_confirmation=rule)), "N hokum", "W pass")
    calls(a, "S pass", "E pass")
    assert a.result is not None and (a.result.kind, a.result.buyer) == ("hokum", N)


# --- Ashkal -------------------------------------------------------------------------------------


def test_ashkal_gives_the_card_to_the_partner_and_the_caller_buys() -> None:
    a = calls(auction(), "N pass", "W pass", "S ashkal")
    assert a.result is not None
    assert (a.result.kind, a.result.buyer, a.result.receiver, a.result.ashkal) == (
        "sun",
        S,
        N,
        True,
    )


def test_ashkal_partner_buys_under_tazjel() -> None:
    a = calls(auction(load_ruleset("tazjel")), "N pass", "W pass", "S ashkal")
    assert a.result is not None and (a.result.buyer, a.result.receiver) == (N, N)


@pytest.mark.parametrize(
    ("script", "faceup", "words"),
    [
        (["N ashkal"], "9H", "only bidding positions 3 and 4"),
        (["N pass", "W ashkal"], "9H", "only bidding positions 3 and 4"),
        (["N pass", "W pass", "S ashkal"], "AH", "Ace face-up card"),
    ],
)
def test_ashkal_eligibility(script: list[str], faceup: str, words: str) -> None:
    a = calls(auction(faceup=faceup), *script[:-1])
    error = illegal(a, script[-1])
    assert error.rule_id == "bidding.ashkal.eligibility" and words in error.reason


def test_ashkal_in_round_two() -> None:
    a = calls(auction(), "N pass", "W pass", "S pass", "E pass", "N pass", "W pass")
    calls(a.copy(), "S ashkal")  # allowed under saudi
    round1_only = replace(SAUDI.bidding.ashkal_eligibility, rounds=(1,))
    b = calls(auction(with_bidding(SAUDI, ashkal_eligibility=round1_only)), "N pass", "W pass")
    calls(b, "S pass", "E pass", "N pass", "W pass")
    assert "round 2" in illegal(b, "S ashkal").reason


def test_ashkal_only_against_an_opposing_hokum_under_majlis() -> None:
    majlis = load_ruleset("majlis")
    assert (
        "opponent's pending Hokum"
        in illegal(calls(auction(majlis), "N pass", "W pass"), "S ashkal").reason
    )
    assert (
        "opponent's pending Hokum"
        in illegal(calls(auction(majlis), "N hokum", "W pass"), "S ashkal").reason
    )  # N is S's partner
    a = calls(auction(majlis), "N pass", "W hokum", "S ashkal")
    assert a.result is not None and a.result.ashkal


def test_a_round_2_pass_bars_ashkal_later_in_the_round_under_majlis() -> None:
    """majlis-baloot (rules.ts canAshkal, passedSecond): S, the dealer's left, passes in round 2
    and may not answer E's Hokum with Ashkal; a pass in round 1 bars nothing."""
    majlis = load_ruleset("majlis")
    bars_nothing = with_bidding(
        majlis, ashkal_eligibility=replace(majlis.bidding.ashkal_eligibility, after_pass=())
    )
    round_2 = ["N pass", "W pass", "S pass", "E pass", "N pass", "W pass", "S pass", "E hokum D"]
    for rules, barred in ((majlis, True), (bars_nothing, False)):
        a = calls(auction(rules), *round_2, "N pass", "W pass")
        assert (Bid(S, "ashkal") not in a.legal_calls()) is barred
    error = illegal(calls(auction(majlis), *round_2, "N pass", "W pass"), "S ashkal")
    assert error.rule_id == "bidding.ashkal.eligibility"
    assert error.reason == "S passed in round 2 and may not say Ashkal after"
    a = calls(auction(majlis), "N pass", "W pass", "S pass", "E hokum", "N pass", "W pass")
    assert Bid(S, "ashkal") in a.legal_calls()
    calls(a, "S ashkal")
    assert a.result is not None and a.result.ashkal


def test_ashkal_never_over_the_partners_hokum_under_not_vs_partner_hokum() -> None:
    # 7oossam/bloot (bidding.ts legalCalls): on one's own turn, or over the other side's Hokum.
    rule = replace(SAUDI.bidding.ashkal_eligibility, when="not_vs_partner_hokum")
    rules = with_bidding(SAUDI, ashkal_eligibility=rule)
    reason = illegal(calls(auction(rules), "N hokum", "W pass"), "S ashkal").reason
    assert "partner's pending Hokum" in reason  # N is S's partner
    calls(auction(SAUDI), "N hokum", "W pass", "S ashkal")  # any_time: allowed
    calls(auction(rules), "N pass", "W hokum", "S ashkal")  # over an opponent's Hokum
    b = calls(auction(rules), "N pass", "W pass", "S ashkal")  # on its own turn
    assert b.result is not None and b.result.ashkal


# --- Kawesh ---------------------------------------------------------------------------------


def test_kawesh_is_no_call_of_the_auction() -> None:
    """A Kawesh is its own event (engine.table_talk judges it), never a bid word."""
    error = illegal(auction(), "N kawesh")
    assert error.rule_id == "bidding.call_words" and "'kawesh N'" in error.reason


# --- legal_calls agrees with push ------------------------------------------------------------


@pytest.mark.parametrize("name", ["saudi", "majlis", "tazjel", "jawaker", "kammelna"])
def test_legal_calls_are_exactly_the_calls_push_accepts(name: str) -> None:
    import random

    from baloot_conformance.cards import CARDS

    rules = load_ruleset(name)
    rng = random.Random(name)
    words = ["pass", "sun", "ashkal", "kawesh", "hokum", "double"]
    for _ in range(60):
        a = Auction(rules, rng.randrange(4), rng.choice(CARDS))
        while not a.is_over:
            legal = a.legal_calls()
            accepted = []
            for seat in range(4):
                for word in words:
                    for suit in (None, *Suit):
                        bid = Bid(seat, word, suit)
                        try:
                            a.copy().push(bid)
                        except IllegalAction:
                            continue
                        accepted.append(bid)
            # A Hokum without a suit means the implied one: the face-up card's in round 1,
            # the pending Hokum's when confirming.
            implied = a.pending[1] if a.window == "confirm" and a.pending else a.faceup.suit

            def norm(bid: Bid, implied: Suit | None = implied) -> Bid:
                return replace(bid, suit=implied) if bid.call == "hokum" and not bid.suit else bid

            assert set(legal) <= set(accepted)
            assert {norm(b) for b in accepted} == {norm(b) for b in legal}
            assert len(legal) == len({norm(b) for b in legal})
            a.push(rng.choice(legal))


def test_all_others_answer_a_hokum_under_majlis() -> None:
    majlis = load_ruleset("majlis")
    a = calls(auction(majlis), "N pass", "W hokum", "S pass", "E pass")
    assert a.window == "respond" and a.to_call() == N  # N passed before, yet answers
    error = illegal(a.copy(), "N hokum")
    assert error.rule_id == "bidding.hokum_over_hokum"
    calls(a, "N pass")
    assert str(a.window) == "confirm" and a.to_call() == W
    # Under saudi only the later seats answer: N is not asked again.
    b = calls(auction(), "N pass", "W hokum", "S pass", "E pass")
    assert b.window == "confirm"
