"""Legal cards and trick resolution (baloot_conformance.engine.play).

Positions are written with N (seat 0) to play unless said otherwise; the player is
``(leader + cards played) % 4``, so N plays 2nd after E (3) leads, 3rd after the partner S (2)
leads and 4th after W (1) leads.
Rulesets are the shipped ones and variants built with ``dataclasses.replace``, one rule at a
time, so each case pins one option of one rule.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baloot_conformance.cards import CARDS, Card, Rank, Suit, parse_card
from baloot_conformance.engine.model import ALL_CARDS, CardSet, Contract, IllegalAction, card_set
from baloot_conformance.engine.play import PlayRules
from baloot_conformance.rules.loading import load_ruleset
from baloot_conformance.rules.ruleset import Ruleset

SAUDI = load_ruleset("saudi")
MAJLIS = load_ruleset("majlis")
FEDERATION = load_ruleset("saudi-federation")

SUN = Contract("sun", None, buyer=0, receiver=0)
HOKUM = Contract("hokum", Suit.SPADES, buyer=0, receiver=0)
LOCKED = Contract("hokum", Suit.SPADES, buyer=0, receiver=0, level=2, locked=True)


def play_rule(rs: Ruleset, name: str, **fields: Any) -> Ruleset:
    """``rs`` with one play rule's parameters replaced."""
    return replace(rs, play=replace(rs.play, **{name: replace(getattr(rs.play, name), **fields)}))


def cards(text: str) -> CardSet:
    return card_set(parse_card(t) for t in text.split())


def trick(text: str) -> tuple[int, ...]:
    return tuple(parse_card(t).index for t in text.split())


def legal(rs: Ruleset, contract: Contract, leader: int, played: str, hand: str) -> set[str]:
    mask = PlayRules(rs, contract).legal(cards(hand), trick(played), leader)
    return {c.code for c in CARDS if mask >> c.index & 1}


def refusal(
    rs: Ruleset, contract: Contract, leader: int, played: str, hand: str, card: str
) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        PlayRules(rs, contract).check(cards(hand), trick(played), leader, parse_card(card))
    return caught.value


PARTNER_MUST_BEAT = play_rule(SAUDI, "hokum_trump_lead", partner_winning="must_beat")
OPPONENT_ANY_TRUMP = play_rule(SAUDI, "hokum_trump_lead", opponent_winning="any_trump")
NEVER = play_rule(SAUDI, "hokum_partner_winning", option="never", certain_tops=())
NO_OVERRUFF = play_rule(SAUDI, "hokum_overruff", option="not_required")
FREE_UNDERRUFF = play_rule(SAUDI, "hokum_underruff", option="free")


# --- the probes of peer-engines.md §4 (Hokum, spades trump) ----------------------------------


@pytest.mark.parametrize(
    ("probe", "rs", "contract", "leader", "played", "hand", "expected"),
    [
        # A: partner leads KH, opponent 7H, N is 3rd and void in hearts.
        ("A", SAUDI, HOKUM, 2, "KH 7H", "7S KC", {"7S", "KC"}),
        ("A", MAJLIS, HOKUM, 2, "KH 7H", "7S KC", {"7S"}),
        ("A", FEDERATION, HOKUM, 2, "KH 7H", "7S KC", {"7S"}),
        ("A", NEVER, HOKUM, 2, "KH 7H", "7S KC", {"7S"}),
        # B: opponent 7H, partner AH, opponent 8H, N is 4th and void.
        ("B", SAUDI, HOKUM, 1, "7H AH 8H", "7S KC", {"7S", "KC"}),
        ("B", MAJLIS, HOKUM, 1, "7H AH 8H", "7S KC", {"7S", "KC"}),
        ("B", FEDERATION, HOKUM, 1, "7H AH 8H", "7S KC", {"7S", "KC"}),
        ("B", NEVER, HOKUM, 1, "7H AH 8H", "7S KC", {"7S"}),
        # C: opponent 7H, partner AH, opponent ruffs 9S; N cannot over-ruff.
        ("C", SAUDI, HOKUM, 1, "7H AH 9S", "7S KC", {"7S"}),
        ("C", FEDERATION, HOKUM, 1, "7H AH 9S", "7S KC", {"7S"}),
        ("C", MAJLIS, HOKUM, 1, "7H AH 9S", "7S KC", {"7S", "KC"}),
        # D: partner leads 7S, opponent TS: N must beat it.
        ("D", SAUDI, HOKUM, 2, "7S TS", "JS 8S", {"JS"}),
        ("D", MAJLIS, HOKUM, 2, "7S TS", "JS 8S", {"JS"}),
        ("D", OPPONENT_ANY_TRUMP, HOKUM, 2, "7S TS", "JS 8S", {"JS", "8S"}),
        # F: partner leads 9S and is winning, opponent 7S.
        ("F", SAUDI, HOKUM, 2, "9S 7S", "JS 8S", {"JS", "8S"}),
        ("F", MAJLIS, HOKUM, 2, "9S 7S", "JS 8S", {"JS", "8S"}),
        ("F", PARTNER_MUST_BEAT, HOKUM, 2, "9S 7S", "JS 8S", {"JS"}),
        # closed: a locked Hokum, N leads holding JS 8C.
        ("closed", SAUDI, LOCKED, 0, "", "JS 8C", {"8C"}),
        ("closed", MAJLIS, LOCKED, 0, "", "JS 8C", {"8C"}),
        ("open", SAUDI, HOKUM, 0, "", "JS 8C", {"JS", "8C"}),
    ],
)
def test_peer_probes(
    probe: str,
    rs: Ruleset,
    contract: Contract,
    leader: int,
    played: str,
    hand: str,
    expected: set[str],
) -> None:
    assert legal(rs, contract, leader, played, hand) == expected, probe


# --- play.follow_suit and play.sun.void ------------------------------------------------------


def test_follow_suit_in_sun() -> None:
    assert legal(SAUDI, SUN, 3, "KH", "7H AH KC") == {"7H", "AH"}
    error = refusal(SAUDI, SUN, 3, "KH", "7H AH KC", "KC")
    assert error.rule_id == "play.follow_suit"
    assert error.reason == "N played KC but must follow E's KH with AH or 7H (holds AH 7H KC)"


def test_follow_suit_in_hokum_comes_before_ruffing() -> None:
    # Holding a heart, N follows even though a trump would win.
    assert legal(SAUDI, HOKUM, 3, "KH", "7H JS") == {"7H"}
    assert refusal(SAUDI, HOKUM, 3, "KH", "7H JS", "JS").rule_id == "play.follow_suit"


def test_sun_void_any_card() -> None:
    assert legal(SAUDI, SUN, 3, "KH", "7S AD KC") == {"7S", "AD", "KC"}
    assert legal(MAJLIS, SUN, 1, "7H AH 9S", "7S KC") == {"7S", "KC"}


def test_leader_plays_any_card_when_not_locked() -> None:
    assert legal(SAUDI, SUN, 0, "", "JS 8C 7H") == {"JS", "8C", "7H"}
    assert legal(SAUDI, HOKUM, 0, "", "JS 8C 7H") == {"JS", "8C", "7H"}


# --- play.hokum.locked_lead --------------------------------------------------------------------


def test_locked_lead() -> None:
    assert legal(SAUDI, LOCKED, 0, "", "JS 9S 8C 9D") == {"8C", "9D"}
    error = refusal(SAUDI, LOCKED, 0, "", "JS 9S 8C 9D", "JS")
    assert error.rule_id == "play.hokum.locked_lead"
    assert "JS" in error.reason and "locked" in error.reason and "lead 9D or 8C" in error.reason


def test_locked_lead_with_only_trumps() -> None:
    assert legal(SAUDI, LOCKED, 0, "", "JS 9S") == {"JS", "9S"}


def test_lock_does_not_change_following() -> None:
    assert legal(SAUDI, LOCKED, 3, "7S", "JS 8C") == {"JS"}
    assert legal(SAUDI, LOCKED, 3, "KH", "JS 8C") == {"JS"}


def test_lock_means_nothing_in_sun() -> None:
    locked_sun = Contract("sun", None, buyer=0, receiver=0, locked=True)
    assert legal(SAUDI, locked_sun, 0, "", "JS 8C") == {"JS", "8C"}


# --- play.hokum.trump_lead ---------------------------------------------------------------------


def test_trump_lead_opponent_winning_must_beat() -> None:
    assert legal(SAUDI, HOKUM, 3, "9S", "JS 8S 7H") == {"JS"}
    error = refusal(SAUDI, HOKUM, 3, "9S", "JS 8S 7H", "8S")
    assert error.rule_id == "play.hokum.trump_lead"
    assert error.reason.startswith("N played 8S but must beat E's 9S with JS")


def test_trump_lead_opponent_winning_any_trump() -> None:
    assert legal(OPPONENT_ANY_TRUMP, HOKUM, 3, "9S", "JS 8S 7H") == {"JS", "8S"}


def test_trump_lead_cannot_beat_any_trump() -> None:
    assert legal(SAUDI, HOKUM, 3, "JS", "9S 8S 7H") == {"9S", "8S"}
    # A discard while holding trumps is a revoke.
    assert refusal(SAUDI, HOKUM, 3, "JS", "9S 8S 7H", "7H").rule_id == "play.follow_suit"


def test_trump_lead_no_trump_any_card() -> None:
    assert legal(SAUDI, HOKUM, 3, "9S", "7H KC") == {"7H", "KC"}


def test_trump_lead_beats_by_trump_order_not_plain_order() -> None:
    # AS is below 9S in trump order: only JS beats the 9.
    assert legal(SAUDI, HOKUM, 3, "9S", "AS TS JS") == {"JS"}
    assert legal(SAUDI, HOKUM, 3, "AS", "KS TS 9S") == {"9S"}


def test_trump_lead_partner_winning() -> None:
    assert legal(SAUDI, HOKUM, 2, "JS 7S", "9S 8S") == {"9S", "8S"}
    # must_beat over the partner, but nothing beats the Jack: any trump.
    assert legal(PARTNER_MUST_BEAT, HOKUM, 2, "JS 7S", "9S 8S") == {"9S", "8S"}
    error = refusal(PARTNER_MUST_BEAT, HOKUM, 2, "9S 7S", "JS 8S", "8S")
    assert error.rule_id == "play.hokum.trump_lead" and "partner" in error.reason


def test_trump_lead_options_are_independent() -> None:
    both = play_rule(PARTNER_MUST_BEAT, "hokum_trump_lead", opponent_winning="any_trump")
    assert legal(both, HOKUM, 2, "9S 7S", "JS 8S") == {"JS"}  # partner winning
    assert legal(both, HOKUM, 2, "7S 9S", "JS 8S") == {"JS", "8S"}  # opponent winning


# --- play.hokum.partner_winning and play.hokum.ruff -------------------------------------------


def test_ruff_when_void() -> None:
    assert legal(SAUDI, HOKUM, 3, "KH", "7S KC") == {"7S"}
    error = refusal(SAUDI, HOKUM, 3, "KH", "7S KC", "KC")
    assert error.rule_id == "play.hokum.ruff"
    assert error.reason == "N played KC but, void in hearts, must ruff with 7S (holds 7S KC)"


def test_ruff_any_trump_when_no_trump_played() -> None:
    assert legal(SAUDI, HOKUM, 3, "KH", "JS 7S KC") == {"JS", "7S"}


def test_no_trump_held_any_card() -> None:
    assert legal(SAUDI, HOKUM, 3, "KH", "KC 7D") == {"KC", "7D"}
    assert legal(MAJLIS, HOKUM, 1, "7H AH 9S", "KC 7D") == {"KC", "7D"}


def test_partner_winning_any_seat() -> None:
    assert legal(SAUDI, HOKUM, 2, "KH 7H", "7S KC") == {"7S", "KC"}  # 3rd hand
    assert legal(SAUDI, HOKUM, 1, "7H KH 8H", "7S KC") == {"7S", "KC"}  # 4th hand


def test_exemption_needs_the_partner_winning() -> None:
    # The opponent's AH beats the partner's lead: N must ruff in any seat.
    assert legal(SAUDI, HOKUM, 2, "7H AH", "7S KC") == {"7S"}
    assert legal(SAUDI, HOKUM, 1, "AH 7H 8H", "7S KC") == {"7S"}


def test_fourth_or_certain_top() -> None:
    assert legal(MAJLIS, HOKUM, 2, "AH 7H", "7S KC") == {"7S", "KC"}  # 3rd after a plain Ace
    assert legal(MAJLIS, HOKUM, 2, "KH 7H", "7S KC") == {"7S"}  # 3rd after a King
    assert legal(MAJLIS, HOKUM, 1, "7H KH 8H", "7S KC") == {"7S", "KC"}  # 4th hand
    error = refusal(MAJLIS, HOKUM, 2, "KH 7H", "7S KC", "KC")
    assert error.rule_id == "play.hokum.ruff"
    assert "partner S is winning with KH" in error.reason
    assert "hand 3" in error.reason and "KH is not a certain top" in error.reason


def test_certain_tops_list_is_read() -> None:
    no_tops = play_rule(MAJLIS, "hokum_partner_winning", certain_tops=())
    jack_only = play_rule(MAJLIS, "hokum_partner_winning", certain_tops=("trump_jack",))
    ace_only = play_rule(MAJLIS, "hokum_partner_winning", certain_tops=("plain_ace",))
    assert legal(no_tops, HOKUM, 2, "AH 7H", "7S KC") == {"7S"}
    assert legal(jack_only, HOKUM, 2, "AH 7H", "7S KC") == {"7S"}
    assert legal(ace_only, HOKUM, 2, "AH 7H", "7S KC") == {"7S", "KC"}
    # The fourth hand stays free whatever the list.
    assert legal(no_tops, HOKUM, 1, "7H KH 8H", "7S KC") == {"7S", "KC"}


def test_partner_led_trump_jack_is_followed_with_trump() -> None:
    # A led trump Jack is a trump lead: the exemption never frees a trump holder from it.
    assert legal(MAJLIS, HOKUM, 2, "JS 7S", "8S KC") == {"8S"}
    assert legal(MAJLIS, HOKUM, 2, "JS 7S", "KC 7D") == {"KC", "7D"}


def test_never_exempt() -> None:
    error = refusal(NEVER, HOKUM, 1, "7H AH 8H", "7S KC", "KC")
    assert error.rule_id == "play.hokum.ruff"
    assert "no partner-winning exemption" in error.reason


def test_partner_winning_with_trump_without_exemption_any_trump() -> None:
    # W 7H, partner S ruffs 9S, E 8H: under never, N must trump but need not beat the partner.
    assert legal(NEVER, HOKUM, 1, "7H 9S 8H", "7S JS KC") == {"7S", "JS"}
    assert legal(SAUDI, HOKUM, 1, "7H 9S 8H", "7S JS KC") == {"7S", "JS", "KC"}


def test_unraised_only_binds_the_partner_as_an_opponent_once_raised() -> None:
    # W 7H, partner S ruffs 9S, E 8H: unraised, N is free; raised, N must over-ruff his
    # partner's 9S with JS, and unable to (holding 7S alone) plays any card under free
    # under-ruffing (mohamed352/bloot's legalMoves in a doubled hand; seed 9, hand 3).
    rules = play_rule(SAUDI, "hokum_partner_winning", option="unraised_only")
    rules = play_rule(rules, "hokum_underruff", option="free")
    doubled = Contract("hokum", Suit.SPADES, buyer=0, receiver=0, level=2)
    assert legal(rules, HOKUM, 1, "7H 9S 8H", "7S JS KC") == {"7S", "JS", "KC"}
    assert legal(rules, doubled, 1, "7H 9S 8H", "7S JS KC") == {"JS"}
    assert legal(rules, doubled, 1, "7H 9S 8H", "7S KC") == {"7S", "KC"}
    assert legal(rules, doubled, 1, "7H 9H 8H", "7S KC") == {"7S"}  # the partner's plain card
    plain = refusal(rules, doubled, 1, "7H 9H 8H", "7S KC", "KC")
    assert (plain.rule_id, plain.reason) == (
        "play.hokum.ruff",
        "N played KC but, void in hearts, must ruff with 7S; partner S is winning with 9H, but "
        "the exemption (play.hokum.partner_winning) holds only in an unraised Hokum "
        "(holds 7S KC)",
    )
    error = refusal(rules, doubled, 1, "7H 9S 8H", "7S JS KC", "7S")
    assert (error.rule_id, error.reason) == (
        "play.hokum.overruff",
        "N played 7S but must over-ruff S's 9S with JS (holds JS 7S KC)",
    )


# --- play.hokum.overruff and play.hokum.underruff --------------------------------------------


def test_overruff_required() -> None:
    assert legal(SAUDI, HOKUM, 1, "7D 8D 9S", "JS 7S KC") == {"JS"}
    for bad in ("7S", "KC"):
        assert refusal(SAUDI, HOKUM, 1, "7D 8D 9S", "JS 7S KC", bad).rule_id == (
            "play.hokum.overruff"
        )


def test_overruff_message() -> None:
    # W leads 7D, S 8D, E ruffs 9S; N holds JS 8S 7H.
    error = refusal(SAUDI, HOKUM, 1, "7D 8D 9S", "JS 8S 7H", "8S")
    assert error.rule_id == "play.hokum.overruff"
    assert error.reason == "N played 8S but must over-ruff E's 9S with JS (holds JS 8S 7H)"


def test_no_overruff_of_the_partner() -> None:
    # S leads 7D, E ruffs 9S, N 8D: E is W's partner, so W (4th hand) is free.
    assert legal(SAUDI, HOKUM, 2, "7D 9S 8D", "JS 8S 7H") == {"JS", "8S", "7H"}


def test_overruff_not_required() -> None:
    assert legal(NO_OVERRUFF, HOKUM, 1, "7D 8D 9S", "JS 7S KC") == {"JS", "7S"}
    assert refusal(NO_OVERRUFF, HOKUM, 1, "7D 8D 9S", "JS 7S KC", "KC").rule_id == (
        "play.hokum.ruff"
    )


def test_overruff_compares_trump_order() -> None:
    # E ruffs with AS; 9S and JS beat it, TS does not.
    assert legal(SAUDI, HOKUM, 1, "7D 8D AS", "TS 9S JS") == {"9S", "JS"}


def test_underruff_forced() -> None:
    error = refusal(SAUDI, HOKUM, 1, "7H AH 9S", "7S KC", "KC")
    assert error.rule_id == "play.hokum.underruff"
    assert "9S" in error.reason and "7S" in error.reason


def test_underruff_free() -> None:
    assert legal(FREE_UNDERRUFF, HOKUM, 1, "7H AH 9S", "7S KC") == {"7S", "KC"}
    # Free only when the player cannot over-ruff.
    assert legal(FREE_UNDERRUFF, HOKUM, 1, "7H AH 9S", "JS 7S KC") == {"JS"}


def test_underruff_applies_only_to_a_required_overruff() -> None:
    # With over-ruffing not required, the ruff rule alone applies: any trump, no discard.
    both = play_rule(NO_OVERRUFF, "hokum_underruff", option="free")
    assert legal(both, HOKUM, 1, "7H AH 9S", "7S KC") == {"7S"}


# --- check() -----------------------------------------------------------------------------------


def test_check_accepts_legal_cards() -> None:
    rules = PlayRules(SAUDI, HOKUM)
    rules.check(cards("JS 8S 7H"), trick("7D 8D 9S"), 1, parse_card("JS"))  # no IllegalAction
    for code in ("JS", "8C"):  # an open Hokum: any lead
        rules.check(cards("JS 8C"), (), 0, parse_card(code))


def test_check_refuses_a_card_not_held() -> None:
    error = refusal(SAUDI, SUN, 0, "", "7H AH", "KC")
    assert "does not hold" in error.reason and "KC" in error.reason


# --- play.trick_winner and card points ----------------------------------------------------------


@pytest.mark.parametrize(
    ("contract", "played", "place"),
    [
        (SUN, "7H AH KH TS", 1),  # a higher-ranked card of another suit never wins
        (SUN, "KH AS TD QH", 0),
        (SUN, "TH AH", 1),
        (SUN, "AS 9S", 0),  # plain order: the Ace beats the 9
        (HOKUM, "AS 9S", 1),  # trump order: the 9 beats the Ace
        (HOKUM, "AH 7S KH TH", 1),  # the lowest trump beats a higher plain card
        (HOKUM, "AH 7S 9S JS", 3),
        (HOKUM, "AH KH TH 7D", 0),
        (HOKUM, "7D AH KD 8D", 2),
        (HOKUM, "KH", 0),
        (Contract("hokum", Suit.DIAMONDS, 0, 0), "AH 7S KH 7D", 3),
    ],
)
def test_trick_winner(contract: Contract, played: str, place: int) -> None:
    assert PlayRules(SAUDI, contract).winner(trick(played)) == place


def test_points_per_card() -> None:
    sun = PlayRules(SAUDI, SUN)
    hokum = PlayRules(SAUDI, HOKUM)
    expected = {"AH": (11, 11), "TH": (10, 10), "JH": (2, 2), "9H": (0, 0), "JS": (2, 20)}
    expected |= {"9S": (0, 14), "KS": (4, 4), "QD": (3, 3), "7C": (0, 0)}
    for code, (in_sun, in_hokum) in expected.items():
        index = parse_card(code).index
        assert (sun.points(index), hokum.points(index)) == (in_sun, in_hokum), code


def test_points_total_a_deck() -> None:
    last = SAUDI.cards.last_trick.points
    assert sum(PlayRules(SAUDI, SUN).points(i) for i in range(32)) + last == 130
    for suit in Suit:
        hokum = PlayRules(SAUDI, Contract("hokum", suit, 0, 0))
        assert sum(hokum.points(i) for i in range(32)) + last == 162


def test_hokum_needs_a_trump() -> None:
    with pytest.raises(ValueError, match="trump"):
        PlayRules(SAUDI, Contract("hokum", None, 0, 0))


# --- properties over random positions -----------------------------------------------------------

# Every combination of the play options (partner_winning with and without certain tops).
VARIANTS: list[Ruleset] = []
for exemption, tops, over, under, opponent, partner in itertools.product(
    ("any_seat", "fourth_or_certain_top", "never", "unraised_only"),
    ((), ("plain_ace", "trump_jack")),
    ("required", "not_required"),
    ("forced", "free"),
    ("must_beat", "any_trump"),
    ("any_trump", "must_beat"),
):
    rs = play_rule(SAUDI, "hokum_partner_winning", option=exemption, certain_tops=tops)
    rs = play_rule(rs, "hokum_overruff", option=over)
    rs = play_rule(rs, "hokum_underruff", option=under)
    VARIANTS.append(
        play_rule(rs, "hokum_trump_lead", opponent_winning=opponent, partner_winning=partner)
    )
CONTRACTS = [SUN, HOKUM, LOCKED, Contract("hokum", Suit.CLUBS, 1, 1)]
_TABLES: dict[tuple[int, int], PlayRules] = {}


def tables(variant: int, contract: int) -> PlayRules:
    key = (variant, contract)
    if key not in _TABLES:
        _TABLES[key] = PlayRules(VARIANTS[variant], CONTRACTS[contract])
    return _TABLES[key]


def naive_legal(rs: Ruleset, contract: Contract, hand: list[Card], played: list[Card]) -> set[Card]:
    """The rules as the brief states them, on card lists: an independent oracle."""
    trump = contract.trump if contract.kind == "hokum" else None
    if not played:
        if trump is not None and contract.locked and any(c.suit != trump for c in hand):
            return {c for c in hand if c.suit != trump}
        return set(hand)
    led = played[0].suit

    def power(c: Card) -> int:
        if c.suit == trump:
            return 100 - rs.cards.order_trump.order.index(c.rank)
        if c.suit == led:
            return 50 - rs.cards.order_plain.order.index(c.rank)
        return 0

    best = max(played, key=power)
    partner_winning = played.index(best) == len(played) - 2
    same = {c for c in hand if c.suit == led}
    trumps = {c for c in hand if c.suit == trump}
    higher = {c for c in trumps if power(c) > power(best)}
    if trump is None:
        return same or set(hand)
    if led == trump:
        if not same:
            return set(hand)
        lead_rule = rs.play.hokum_trump_lead
        must = lead_rule.partner_winning if partner_winning else lead_rule.opponent_winning
        return higher if must == "must_beat" and higher else same
    if same:
        return same
    if not trumps:
        return set(hand)
    rule = rs.play.hokum_partner_winning
    if partner_winning and not (rule.option == "unraised_only" and contract.level > 1):
        top = played[0]
        certain = ("plain_ace" in rule.certain_tops and top.rank is Rank.ACE) or (
            "trump_jack" in rule.certain_tops and top.rank is Rank.JACK and top.suit == trump
        )
        fourth = len(played) == 3 or (len(played) == 2 and certain)
        if rule.option in ("any_seat", "unraised_only") or (
            rule.option == "fourth_or_certain_top" and fourth
        ):
            return set(hand)
        return trumps
    if best.suit == trump and rs.play.hokum_overruff.option == "required":
        if higher:
            return higher
        return trumps if rs.play.hokum_underruff.option == "forced" else set(hand)
    return trumps


@st.composite
def positions(draw: st.DrawFn) -> tuple[int, int, list[Card], list[Card], int]:
    """(variant, contract, hand, trick, leader): a hand of 1-8 cards and 0-3 cards played."""
    deck = draw(st.permutations(CARDS))
    variant = draw(st.integers(0, len(VARIANTS) - 1))
    contract = draw(st.integers(0, len(CONTRACTS) - 1))
    n = draw(st.integers(0, 3))
    size = draw(st.integers(1, 8))
    return variant, contract, list(deck[:size]), list(deck[8 : 8 + n]), draw(st.integers(0, 3))


@settings(max_examples=400, deadline=None)
@given(positions())
def test_legal_matches_check_and_the_oracle(
    position: tuple[int, int, list[Card], list[Card], int],
) -> None:
    variant, contract_no, hand_cards, played_cards, leader = position
    rules = tables(variant, contract_no)
    contract = CONTRACTS[contract_no]
    hand = card_set(hand_cards)
    played = tuple(c.index for c in played_cards)
    mask = rules.legal(hand, played, leader)
    assert mask and mask & ~hand == 0
    expected = naive_legal(VARIANTS[variant], contract, hand_cards, played_cards)
    assert mask == card_set(expected)
    for c in CARDS:
        if mask >> c.index & 1:
            rules.check(hand, played, leader, c)
        else:
            with pytest.raises(IllegalAction) as caught:
                rules.check(hand, played, leader, c)
            assert caught.value.rule_id.startswith("play.")
            assert c.code in caught.value.reason
    if contract.kind == "sun" and (
        not played or not hand & card_set(c for c in CARDS if c.suit == played_cards[0].suit)
    ):
        assert mask == hand  # no obligation: the whole hand
    assert mask & ~ALL_CARDS == 0
