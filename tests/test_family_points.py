"""The points games of the trick family on the generic engine: Barbu (a declarer's choice of
seven contracts, pairwise doubles, Domino's layout) and Hearts (a pass, the two of clubs,
hearts broken, shooting the moon), built from the library's phase kinds and stages.

Each rule is shown deciding: a legal action passes, the wrong one is refused under its rule ID
with its sentence; the worked numbers of the sources (the doubling score of the design study,
the contracts' totals) come out; random games under every profile keep the game's invariants.
"""

from __future__ import annotations

import random

import pytest

from baloot_conformance.family.engine.hand import (
    Choose,
    Deal,
    Discard,
    Draw,
    IllegalAction,
    Knock,
    Play,
    TrickHand,
    Wager,
)
from baloot_conformance.family.engine.ledger import Ledger
from baloot_conformance.family.engine.pack import pack_of
from baloot_conformance.family.engine.playout import random_hand, random_session
from baloot_conformance.family.engine.points import PointsSettlement, hand_points, settle_wagers
from baloot_conformance.family.rules.loading import load_trick_ruleset, shipped_trick_rulesets
from baloot_conformance.family.rules.model import TrickRuleset

BARBU = load_trick_ruleset("barbu")
HEARTS = load_trick_ruleset("hearts")
PACK = pack_of(BARBU)
N, E, S, W = range(4)
BARBU_RULESETS = sorted(n for n in shipped_trick_rulesets() if n.startswith("barbu"))

#: Every contract's total, as the sources give it (the seed's 「合計スコア」).
TOTALS = {
    "no_tricks": -26,
    "no_queens": -24,
    "no_hearts": -30,
    "no_barbu": -20,
    "no_last_two": -30,
    "trumps": 65,
    "domino": 65,
}


def cards(text: str) -> tuple[int, ...]:
    return tuple(PACK.index[c] for c in text.split())


def mask(text: str) -> int:
    return PACK.mask(text.split())


#: The sorted pack dealt round: every seat holds cards of every suit.
ROUND = tuple(tuple(range(seat, 52, 4)) for seat in range(4))


def refused(hand: TrickHand, action: object) -> IllegalAction:
    before = len(hand.history)
    with pytest.raises(IllegalAction) as caught:
        hand.push(action)  # type: ignore[arg-type]
    assert len(hand.history) == before
    return caught.value


def barbu_hand(
    ledger: Ledger | None = None,
    rules: TrickRuleset = BARBU,
    deal: tuple[tuple[int, ...], ...] = ROUND,
) -> TrickHand:
    """A Barbu hand dealt ``deal``; by default N deals, so E (the dealer's left: N is on E's
    right) declares."""
    hand = TrickHand(rules, ledger or Ledger.start(4, dealer=N))
    hand.push(Deal(deal))
    return hand


def in_block(chosen: tuple[str, ...], doubled: tuple[int, ...]) -> Ledger:
    """E's block after ``chosen``, with ``doubled`` the doubles of E by each seat so far."""
    unknown = (None, None, None, None)
    return Ledger(
        players=4,
        dealer=N,
        chips=(0,) * 4,
        hand=len(chosen) + 1,
        chosen=(unknown[0], chosen, None, None),
        doubled=(None, doubled, None, None),
    )


# --- the declarer's choice ------------------------------------------------------------------


def test_the_declarer_chooses_each_contract_once_in_his_block() -> None:
    hand = barbu_hand(in_block(("no_hearts", "trumps"), (0, 0, 1, 1)))
    assert hand.declarer == E and hand.phase == "choose"
    offered = {a.contract for a in hand.legal_actions() if isinstance(a, Choose)}
    assert offered == set(BARBU.contracts) - {"no_hearts", "trumps"}
    error = refused(hand, Choose(E, "no_hearts"))
    assert error.rule_id == "phases.choose" and "already chosen no_hearts" in error.reason
    error = refused(hand, Choose(S, "no_queens"))
    assert error.rule_id == "phases.choose" and "E declares this hand" in error.reason
    assert refused(hand, Choose(E, "domino")).rule_id == "phases.choose"  # no start rank
    hand.push(Choose(E, "no_queens"))
    assert hand.phase == "wagers" and hand.contract == "no_queens"


def test_a_named_trump_and_a_start_rank_come_with_the_choice() -> None:
    hand = barbu_hand()
    hand.push(Choose(E, "trumps", PACK.suits.index("S")))
    assert hand.trump == PACK.suits.index("S")
    hand = barbu_hand()
    hand.push(Choose(E, "domino", PACK.ranks.index("7")))
    assert hand.start_rank == PACK.ranks.index("7")


# --- the doubling ---------------------------------------------------------------------------


def test_the_worked_doubling_score() -> None:
    """N -4, E -12, S -8, W -6; S doubles E and W, W doubles S back, E redoubles S."""
    doubles = [0, 1 << S, (1 << E) | (1 << W), 1 << S]
    assert settle_wagers(BARBU, (-4, -12, -8, -6), doubles) == (-4, -20, -4, -2)
    assert settle_wagers(BARBU, (-4, -12, -8, -6), [0, 0, 1 << E, 0]) == (-4, -16, -4, -6)


def test_the_doubling_goes_round_from_the_declarers_left() -> None:
    hand = barbu_hand()
    hand.push(Choose(E, "no_hearts"))
    assert hand.wager_turns == (S, W, N, E)
    hand.push(Wager(S, doubles=(1 << E) | (1 << W)))
    error = refused(hand, Wager(W, doubles=1 << S))
    assert error.rule_id == "phases.wagers.declarer" and "that is a redouble" in error.reason
    error = refused(hand, Wager(W, redoubles=1 << N))
    assert error.rule_id == "phases.wagers.declarer" and "did not double W" in error.reason
    hand.push(Wager(W, redoubles=1 << S))
    hand.push(Wager(N))
    error = refused(hand, Wager(E, doubles=1 << N))
    assert error.rule_id == "phases.wagers.declarer" and "may only redouble" in error.reason
    hand.push(Wager(E, redoubles=1 << S))
    assert hand.phase == "tricks" and hand.doubles == [0, 1 << S, (1 << E) | (1 << W), 1 << S]


def test_in_a_positive_contract_only_the_declarer_may_be_doubled() -> None:
    hand = barbu_hand()
    hand.push(Choose(E, "trumps", 0))
    error = refused(hand, Wager(S, doubles=1 << W))
    assert error.rule_id == "phases.wagers.positive"
    assert all(not a.doubles & ~(1 << E) for a in hand.legal_actions() if isinstance(a, Wager))
    hand.push(Wager(S, doubles=1 << E))


def test_a_player_who_can_no_longer_meet_the_quota_must_double_now() -> None:
    # the last hand of E's block: N has doubled E once, S and W twice
    hand = barbu_hand(in_block(("a", "b", "c", "d", "e", "f"), (1, 0, 2, 2)))
    hand.push(Choose(E, next(iter(BARBU.contracts))))
    hand.push(Wager(S))
    hand.push(Wager(W))
    error = refused(hand, Wager(N, doubles=1 << S))
    assert error.rule_id == "phases.wagers.quota"
    assert "N has doubled E once" in error.reason and "must double him now" in error.reason
    assert all(a.doubles >> E & 1 for a in hand.legal_actions() if isinstance(a, Wager))
    hand.push(Wager(N, doubles=(1 << E) | (1 << S)))


def test_the_quota_binds_only_when_the_hands_left_are_too_few() -> None:
    # hand 5 of the block: two hands left after it, N has not doubled E yet: he may wait
    hand = barbu_hand(in_block(("a", "b", "c", "d"), (0, 0, 0, 0)))
    hand.push(Choose(E, next(iter(BARBU.contracts))))
    for seat in (S, W, N):
        hand.push(Wager(seat))
    # hand 6: one hand left: S (once) may still wait, N (not yet) must double now
    hand = barbu_hand(in_block(("a", "b", "c", "d", "e"), (0, 0, 1, 2)))
    hand.push(Choose(E, next(iter(BARBU.contracts))))
    hand.push(Wager(S))
    hand.push(Wager(W))  # W has doubled E twice already
    assert refused(hand, Wager(N)).rule_id == "phases.wagers.quota"
    hand.push(Wager(N, doubles=1 << E))


# --- the tricks -----------------------------------------------------------------------------


def play_to_tricks(hand: TrickHand, contract: str, arg: int | None = None) -> None:
    hand.push(Choose(hand.declarer or 0, contract, arg))
    while hand.phase == "wagers":
        hand.push(Wager(hand.wager_seat()))


def test_in_no_hearts_a_heart_may_not_be_led_by_a_player_holding_another_suit() -> None:
    hand = barbu_hand()
    play_to_tricks(hand, "no_hearts")
    assert hand.to_act() == E  # the declarer leads
    heart = next(c for c in ROUND[E] if PACK.codes[c].endswith("H"))
    error = refused(hand, Play(E, heart))
    assert error.rule_id == "play.hearts_lead"
    assert f"E led {PACK.codes[heart]} but may not lead hearts" in error.reason
    club = next(c for c in ROUND[E] if PACK.codes[c].endswith("C"))
    hand.push(Play(E, club))


def test_the_seed_bans_only_the_king_in_no_king_of_hearts() -> None:
    for name, banned in (("barbu", ("5H", "KH")), ("barbu-seed", ("KH",))):
        hand = barbu_hand(rules=load_trick_ruleset(name))
        play_to_tricks(hand, "no_barbu")
        held = mask("KH 5H 4C")
        hand.hands[E] = held  # the position: E to lead, holding KH 5H 4C
        legal = hand.legal_cards()
        assert {PACK.codes[c] for c in range(52) if held >> c & 1 and not legal >> c & 1} == set(
            banned
        ), name
        rule = "play.barbu_lead" if name == "barbu-seed" else "play.hearts_lead"
        assert refused(hand, Play(E, PACK.index["KH"])).rule_id == rule


def test_a_negative_contract_ends_with_the_trick_that_takes_the_last_scored_card() -> None:
    queens = mask("QS QH QD QC")
    ended_early = 0
    for seed in range(30):
        rng = random.Random(seed)
        hand = TrickHand.shuffled(BARBU, Ledger.start(4, dealer=N), None, rng)
        hand.push(hand.legal_actions()[0])  # the deal
        play_to_tricks(hand, "no_queens")
        while not hand.is_over():
            before = hand.gone & queens == queens
            assert not before  # play stopped as soon as the fourth queen was taken
            hand.push(rng.choice(hand.legal_actions()))
        assert hand.gone & queens == queens
        ended_early += hand.trick_number < 13
        assert hand.settlement is not None and sum(hand.points_settlement.points) == -24
    assert ended_early > 20


def test_in_trumps_a_trump_lead_must_be_beaten_and_a_void_player_must_trump() -> None:
    hand = barbu_hand()
    play_to_tricks(hand, "trumps", PACK.suits.index("S"))
    hand.hands[:] = [mask("2S 3S 9H"), mask("5S 6S 7D"), mask("AS 4S 2H"), mask("KS 8C 9C")]
    hand.push(Play(E, PACK.index["5S"]))
    error = refused(hand, Play(S, PACK.index["4S"]))
    assert error.rule_id == "play.trump_head"
    hand.push(Play(S, PACK.index["AS"]))
    hand.push(Play(W, PACK.index["KS"]))
    hand.push(Play(N, PACK.index["3S"]))
    hand.push(Play(S, PACK.index["2H"]))  # S's ace won: S leads
    hand.push(Play(W, PACK.index["8C"]))
    hand.push(Play(N, PACK.index["9H"]))
    error = refused(hand, Play(E, PACK.index["7D"]))
    assert error.rule_id == "play.ruff" and "must ruff" in error.reason


def test_the_trumps_contract_scores_five_a_trick() -> None:
    for seed in range(5):
        hand = random_hand(BARBU, Ledger.start(4, dealer=N), None, random.Random(seed))
        assert hand.settlement is not None
        assert sum(hand.points_settlement.points) == TOTALS[hand.contract]


# --- Domino ---------------------------------------------------------------------------------


def test_a_domino_card_must_fit_the_layout_and_a_knock_is_a_last_resort() -> None:
    hand = barbu_hand()
    play_to_tricks(hand, "domino", PACK.ranks.index("7"))
    assert hand.phase == "layout" and hand.to_act() == E
    held = hand.hands[E]
    sevens = [c for c in range(52) if held >> c & 1 and PACK.codes[c][0] == "7"]
    other = next(c for c in range(52) if held >> c & 1 and PACK.codes[c][0] != "7")
    error = refused(hand, Play(E, other))
    assert error.rule_id == "phases.layout" and "does not fit the layout" in error.reason
    if sevens:
        assert refused(hand, Knock(E)).rule_id == "phases.layout"
    rng = random.Random(1)
    while not hand.is_over():
        hand.push(rng.choice(hand.legal_actions()))
    assert hand.settlement is not None and sorted(hand.points_settlement.order) == [N, E, S, W]
    places = dict(zip(hand.points_settlement.order, (45, 20, 5, -5), strict=True))
    assert hand.points_settlement.points == tuple(places[s] for s in range(4))


def test_a_profile_scores_domino_its_own_way() -> None:
    contract = load_trick_ruleset("barbu-trictrac").contracts["domino"]
    points, _ = hand_points(
        load_trick_ruleset("barbu-trictrac"),
        contract,
        PACK,
        taken=[0] * 4,
        winners=[],
        order=(S, N, W, E),
    )
    assert points == (20, -10, 45, 10)


# --- whole games ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", BARBU_RULESETS)
def test_random_barbu_games_keep_the_games_invariants(name: str) -> None:
    rules = load_trick_ruleset(name)
    quota = rules.phases.wager_quota
    for seed in range(6):
        game = random_session(rules, 4, 28, None, seed=seed)
        assert len(game) == 28
        for hand in game:
            done = hand.settlement
            assert isinstance(done, PointsSettlement) and hand.declarer is not None
            assert sum(done.points) == TOTALS[hand.contract] == sum(done.score)
            if rules.table.dealer_rotation.option == "declarer":
                assert hand.ledger.dealer == hand.declarer
            else:
                assert (hand.ledger.dealer + 1) % 4 == hand.declarer
        declarers = [h.declarer for h in game]
        if rules.game.declarers is not None and rules.game.declarers.option == "rotate":
            first = declarers[0]
            assert first is not None
            assert declarers[:4] == [(first + k) % 4 for k in range(4)]
        else:
            first = declarers[0]
            assert first is not None
            assert [declarers[k * 7] for k in range(4)] == [(first + k) % 4 for k in range(4)]
            assert all(declarers[k] == declarers[k - k % 7] for k in range(28))
        final = game[-1].settlement
        assert final is not None and sum(final.next.scores) == 0
        for d in range(4):
            assert sorted(final.next.chosen[d] or ()) == sorted(rules.contracts)
            counts = final.next.doubled[d]
            assert counts is not None and quota is not None
            assert all(counts[s] >= quota.doubles for s in range(4) if s != d)


def test_a_game_is_over_after_its_28th_hand() -> None:
    game = random_session(BARBU, 4, 40, None, seed=2)
    assert len(game) == 28
    last = game[-1].settlement
    assert last is not None
    with pytest.raises(IllegalAction, match="the game is over"):
        TrickHand(BARBU, last.next)


# --- Hearts ---------------------------------------------------------------------------------


def hearts_hand(number: int = 4) -> TrickHand:
    """Hand ``number`` of a game (the fourth passes nothing), N dealing the round deal."""
    hand = TrickHand(HEARTS, Ledger(players=4, dealer=N, chips=(0,) * 4, hand=number))
    hand.push(Deal(ROUND))
    return hand


def test_the_two_of_clubs_leads_and_no_points_fall_on_the_first_trick() -> None:
    hand = hearts_hand()
    holder = next(s for s in range(4) if ROUND[s].count(PACK.index["2C"]))
    assert hand.phase == "tricks" and hand.to_act() == holder
    club = next(c for c in ROUND[holder] if PACK.codes[c] in ("3C", "4C", "5C", "6C", "7C", "8C"))
    error = refused(hand, Play(holder, club))
    assert error.rule_id == "play.first_lead" and "must be 2C" in error.reason
    hand.push(Play(holder, PACK.index["2C"]))
    # the next seat, made void in clubs, may not throw a heart on the first trick
    nxt = hand.to_act()
    assert nxt is not None
    hand.hands[nxt] = mask("5H QS 9D")
    hand._legal = -1
    assert refused(hand, Play(nxt, PACK.index["5H"])).rule_id == "play.first_trick"
    assert refused(hand, Play(nxt, PACK.index["QS"])).rule_id == "play.first_trick"
    hand.push(Play(nxt, PACK.index["9D"]))


def test_hearts_are_led_only_once_broken() -> None:
    hand = hearts_hand()
    rng = random.Random(3)
    while hand.trick_number == 0:
        hand.push(rng.choice(hand.legal_actions()))
    leader = hand.to_act()
    assert leader is not None
    hand.hands[leader] = mask("5H 9D")
    hand.gone &= ~PACK.matching_any(("H", "QS"))  # nothing broken yet
    hand._legal = -1
    assert refused(hand, Play(leader, PACK.index["5H"])).rule_id == "play.hearts_lead"
    hand.gone |= mask("QS")  # the Queen of spades has fallen: hearts are broken
    hand._legal = -1
    assert hand.legal_cards() == mask("5H 9D")


def test_the_pass_goes_left_right_across_then_none() -> None:
    assert [hearts_hand(n).pass_entry() for n in (1, 2, 3, 4, 5)] == [
        "left",
        "right",
        "across",
        "none",
        "left",
    ]
    hand = hearts_hand(1)
    assert hand.phase == "draw"
    passed = {}
    for seat in (E, S, W, N):  # from the dealer's next seat
        three = ROUND[seat][:3]
        passed[seat] = three
        hand.push(Discard(seat, three))
    error = refused(hand, Draw(E, passed[S]))
    assert error.rule_id == "phases.draw.pass" and "N passed it" in error.reason
    for seat in (E, S, W, N):
        hand.push(Draw(seat, passed[(seat - 1) % 4]))
    assert hand.phase == "tricks"
    assert all(
        hand.hands[s] & PACK.mask(PACK.codes[c] for c in passed[(s - 1) % 4]) for s in range(4)
    )


def test_shooting_the_moon() -> None:
    contract = HEARTS.contracts["hearts"]
    everything = PACK.matching_any(("H", "QS"))
    points, moon = hand_points(
        HEARTS, contract, PACK, taken=[0, everything, 0, 0], winners=[E] * 13
    )
    assert moon == E and points == (26, 0, 26, 26)


def test_random_hearts_games_end_at_the_target() -> None:
    moons = 0
    for seed in range(40):
        game = random_session(HEARTS, 4, 60, None, seed=seed)
        for hand in game:
            done = hand.settlement
            assert isinstance(done, PointsSettlement)
            assert sum(done.points) == (78 if done.moon is not None else 26)
            moons += done.moon is not None
        final = game[-1].settlement
        assert final is not None and max(final.next.scores) >= 100
        assert all(max(h.ledger.scores or (0,)) < 100 for h in game)
    assert moons >= 1
