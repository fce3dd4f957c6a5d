"""Checking Barbu and Hearts transcripts: generated games pass under the ruleset that played
them, and single mutations are caught at their position under the rule they break.

The games are the engine's seeded playouts written by ``generate`` (every claim the engine's);
each mutation changes one statement of a real generated hand, found by what the engine knew
when it played it (who held what, who owed the declarer a double), never a hard-coded line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest

from baloot_conformance.family.check.run import check_btn2
from baloot_conformance.family.corpus.generate import generate_games, sessions_text
from baloot_conformance.family.engine.actions import Choose, Play, Wager
from baloot_conformance.family.engine.hand import TrickHand
from baloot_conformance.family.engine.pack import pack_of
from baloot_conformance.family.engine.playout import random_session
from baloot_conformance.family.engine.points import hands_left
from baloot_conformance.family.rules.loading import load_trick_ruleset, shipped_trick_rulesets
from baloot_conformance.family.rules.model import TrickRuleset

BARBU_RULESETS = sorted(n for n in shipped_trick_rulesets() if n.startswith("barbu"))
BARBU = load_trick_ruleset("barbu")
HEARTS = load_trick_ruleset("hearts")
PACK = pack_of(BARBU)


def verdicts(text: str) -> list[tuple[str, str, str | None]]:
    """Each hand's status and root divergence (position, rule)."""
    out: list[tuple[str, str, str | None]] = []
    for verdict in check_btn2(text, "g.btn"):
        roots = [d for d in verdict.divergences if d.root]
        out.append(
            (
                verdict.status,
                roots[0].position if roots else "",
                roots[0].rule_id if roots else None,
            )
        )
    return out


@pytest.mark.parametrize("name", BARBU_RULESETS)
def test_20_generated_barbu_games_of_28_hands_pass_under_their_profile(name: str) -> None:
    rules = load_trick_ruleset(name)
    text = "".join(generate_games(rules, 4, 28, seed=11, games=20))
    results = verdicts(text)
    assert len(results) == 20 * 28
    assert all(status == "pass" for status, _, _ in results), [
        r for r in results if r[0] != "pass"
    ][:3]


def test_200_generated_hearts_games_pass() -> None:
    text = "".join(generate_games(HEARTS, 4, 60, seed=5, games=200))
    results = verdicts(text)
    assert len(results) > 200 * 5
    assert all(status == "pass" for status, _, _ in results)


def test_a_generated_game_with_legal_claims_passes() -> None:
    for rules in (BARBU, HEARTS):
        text = "".join(generate_games(rules, 4, 8, seed=3, games=1, legal=True))
        assert "= legal" in text
        assert all(status == "pass" for status, _, _ in verdicts(text))


# --- mutations ------------------------------------------------------------------------------


def hands_where(
    rules: TrickRuleset, test: Callable[[TrickHand, int], bool], seeds: range = range(40)
) -> Iterator[tuple[TrickHand, int]]:
    """Played hands (with an index into their history) where ``test`` holds."""
    for seed in seeds:
        for hand in random_session(rules, 4, 28, None, seed=seed):
            for k in range(len(hand.history)):
                if test(hand, k):
                    yield hand, k


def replayed(hand: TrickHand, k: int) -> TrickHand:
    """``hand`` replayed up to (not including) its ``k``-th action."""
    twin = TrickHand(hand.rules, hand.ledger, hand.compile, names=hand.names)
    for action in hand.history[:k]:
        twin.push(action)
    return twin


def one_hand(hand: TrickHand) -> str:
    """The hand alone, with its ``start`` line (its place in the game)."""
    return "".join(sessions_text(hand.rules, [[hand]]))


def mutate(text: str, pattern: str, replace: Callable[[re.Match[str]], str], cut: bool) -> str:
    """``text`` with the first line matching ``pattern`` replaced; with ``cut``, the hand
    ends there (the lines after it would no longer be the same game)."""
    lines = text.split("\n")
    i = next(i for i, line in enumerate(lines) if re.fullmatch(pattern, line))
    m = re.fullmatch(pattern, lines[i])
    assert m is not None
    lines[i] = replace(m)
    if cut:
        lines = lines[: i + 1]
    return "\n".join(lines) + "\n"


def test_a_heart_led_while_holding_other_suits_is_caught() -> None:
    hearts = PACK.matching("H")

    def leads_other(hand: TrickHand, k: int) -> bool:
        action = hand.history[k]
        if hand.contract != "no_hearts" or not isinstance(action, Play):
            return False
        before = replayed(hand, k)
        held = before.hands[action.seat]
        return (
            before.phase == "tricks"
            and not before.trick
            and bool(held & hearts)
            and bool(held & ~hearts)
        )

    hand, k = next(hands_where(BARBU, leads_other))
    before = replayed(hand, k)
    action = hand.history[k]
    assert isinstance(action, Play)
    heart = PACK.codes[(before.hands[action.seat] & hearts).bit_length() - 1]
    trick = before.trick_number + 1
    name = hand.names[action.seat]
    text = mutate(
        one_hand(hand),
        rf"trick {trick}: {name} (\w\w)(.*)",
        lambda m: f"trick {trick}: {name} {heart}",
        cut=True,
    )
    [(status, position, rule)] = verdicts(text)
    assert (status, position, rule) == ("fail", f"h1.t{trick}.p1", "play.hearts_lead")


def test_a_missing_double_of_the_declarer_in_the_last_hand_of_a_block_is_caught() -> None:
    def forced(hand: TrickHand, k: int) -> bool:
        action = hand.history[k]
        if not isinstance(action, Wager) or action.seat == hand.declarer:
            return False
        declarer = hand.declarer
        assert declarer is not None
        counts = hand.ledger.doubles_of(declarer)
        left = hands_left(hand.rules, hand.ledger, declarer)
        return counts is not None and left == 0 and counts[action.seat] < 2

    hand, k = next(hands_where(BARBU, forced))
    action = hand.history[k]
    assert isinstance(action, Wager) and hand.declarer is not None
    name, declarer = hand.names[action.seat], hand.names[hand.declarer]
    text = mutate(one_hand(hand), rf"raise {name} .*", lambda m: f"raise {name} pass", cut=False)
    [(status, position, rule)] = verdicts(text)
    assert (status, position, rule) == ("fail", f"h1.raise.{name}", "phases.wagers.quota")
    assert f"start hand {hand.ledger.hand}," in text and declarer in text


def test_a_wrong_pairwise_settlement_is_caught() -> None:
    def doubled(hand: TrickHand, k: int) -> bool:
        return (
            k == len(hand.history) - 1
            and any(hand.doubles)
            and hand.points_settlement.points != hand.points_settlement.score
        )

    hand, _ = next(hands_where(BARBU, doubled))
    settlement = hand.points_settlement
    seat = next(s for s in range(4) if settlement.points[s] != settlement.score[s])
    name = hand.names[seat]
    text = mutate(
        one_hand(hand),
        r"= score (.*)",
        lambda m: (
            "= score "
            + re.sub(rf"\b{name} (-?\d+)", f"{name} {settlement.points[seat]}", m.group(1))
        ),
        cut=False,
    )
    [(status, position, rule)] = verdicts(text)
    assert (status, position, rule) == ("fail", "h1.score", "scoring.wagers")


def test_a_domino_card_that_does_not_fit_the_layout_is_caught() -> None:
    def misfit(hand: TrickHand, k: int) -> bool:
        action = hand.history[k]
        if not isinstance(action, Play) or hand.contract != "domino":
            return False
        before = replayed(hand, k)
        return bool(before.hands[action.seat] & ~before.fitting(action.seat))

    hand, k = next(hands_where(BARBU, misfit))
    before = replayed(hand, k)
    action = hand.history[k]
    assert isinstance(action, Play)
    wrong = before.hands[action.seat] & ~before.fitting(action.seat)
    card = PACK.codes[(wrong & -wrong).bit_length() - 1]
    name = hand.names[action.seat]
    move = before.moves + 1
    lines = one_hand(hand).split("\n")
    plays = [i for i, line in enumerate(lines) if re.fullmatch(r"(play|knock) .*", line)]
    i = plays[move - 1]
    assert lines[i] == f"play {name} {PACK.codes[action.card]}"
    lines[i] = f"play {name} {card}"
    [(status, position, rule)] = verdicts("\n".join(lines[: i + 1]) + "\n")
    assert (status, position, rule) == ("fail", f"h1.m{move}", "phases.layout")


def test_a_contract_chosen_twice_in_a_block_is_caught() -> None:
    def later_in_block(hand: TrickHand, k: int) -> bool:
        declarer = hand.declarer
        return (
            isinstance(hand.history[k], Choose)
            and declarer is not None
            and bool(hand.ledger.chosen_by(declarer))
        )

    hand, _ = next(hands_where(BARBU, later_in_block))
    declarer = hand.declarer
    assert declarer is not None
    earlier = (hand.ledger.chosen_by(declarer) or ())[0]
    arg = {"trumps": " S", "domino": " 7"}.get(earlier, "")
    name = hand.names[declarer]
    text = mutate(
        one_hand(hand), rf"bid {name} .*", lambda m: f"bid {name} {earlier}{arg}", cut=True
    )
    [(status, position, rule)] = verdicts(text)
    assert (status, position, rule) == ("fail", "h1.bid1", "phases.choose")


@pytest.mark.parametrize(
    ("ruleset", "bid"), [("barbu@1", "bid N nothing"), ("hearts@1", "bid N play 2")]
)
def test_a_bid_out_of_place_is_the_pipelines_not_bourres(ruleset: str, bid: str) -> None:
    # Before the deal (or in a game without bids), a 'bid' line is out of order: the hand
    # says what it waits for, and never judges the words as a Bourré declaration.
    text = f'%btn 2\n[Ruleset "{ruleset}"]\n\nhand 1\nstart hand 1\ndealer N\n{bid}\n'
    (verdict,) = check_btn2(text, "t.btn")
    (root,) = [d for d in verdict.divergences if d.root]
    assert (root.position, root.rule_id) == ("h1.bid1", "phases.pipeline")
    assert root.message == f"the deal is next, not N's bid '{bid.split(' ', 2)[2]}'"
    assert "Bourré" not in root.message
