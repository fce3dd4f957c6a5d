"""Perft: the counts agree with a plain recursive enumeration written here, on 200 positions.

The enumeration below uses none of perft's shortcuts: at every node it asks the hand for
its legal actions, keeps the plies (calls, raises, lock choices, cards), copies the hand and
pushes each one. The positions are real ones: generated games under five shipped rulesets,
read back from their BTN text and replayed to a position (in the auction, before the first
card, in the middle of a trick, late in the hand, past its end), and hands dealt from a pack
whose auction is still running, where the count goes on through the completion of the deal
into the raises and the play. Then the command's output, its errors, and the rules of the
tree: what is a ply and what is a leaf.
"""

from __future__ import annotations

import functools
import io
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baloot_conformance import btn
from baloot_conformance.cards import CARDS
from baloot_conformance.check.perft import MAX_DEPTH, PerftError, hand_at, perft_at
from baloot_conformance.cli import main
from baloot_conformance.corpus.generate import generate_games
from baloot_conformance.engine.actions import Announce, Bid, Declare, Lock, Play, Raise
from baloot_conformance.engine.hand import Hand
from baloot_conformance.engine.perft import divide, perft, plies, ply_words
from baloot_conformance.engine.playout import DEFAULT_POLICY, choose
from baloot_conformance.rules.loading import load_ruleset as _load
from baloot_conformance.rules.ruleset import Ruleset

ROOT = Path(__file__).resolve().parent.parent
GAME = str(ROOT / "examples/conforming-game.btn")
WRONG = str(ROOT / "examples/nonconforming-game.btn")
RULESETS = ("saudi", "majlis", "bloot7", "bloot352", "saudi-federation")


@functools.cache
def load_ruleset(name: str) -> Ruleset:
    return _load(name)


def enumerate_plies(hand: Hand, depth: int) -> int:
    """The plain count: every legal ply, pushed on a copy, to ``depth``."""
    if depth == 0:
        return 1
    total = 0
    for action in hand.legal_actions():
        if isinstance(action, (Bid, Raise, Lock, Play)):
            child = hand.copy()
            child.push(action)
            total += enumerate_plies(child, depth - 1)
    return total


def transcript_positions() -> list[tuple[str, Hand, int]]:
    """Positions of generated games, replayed from their text, each with a depth that keeps
    the plain enumeration to a few hundred nodes (deep ones late in the hand)."""
    found: list[tuple[str, Hand, int]] = []
    for name in RULESETS:
        rules = load_ruleset(name)
        for seed in range(2):
            text = "".join(generate_games(rules, seed, hands=3))
            with btn.TranscriptReader.from_text(text, "<generated>") as reader:
                hands = list(reader)
            for hand in hands:
                positions = [f"{hand.position}.bid1", f"{hand.position}.bid2"]
                positions += [f"{hand.position}.t{t}.p{p}" for t, p in _SPOTS]
                present = {i.position for i in hand.items if isinstance(i, btn.Event)}
                for position in positions:
                    if position in present:
                        depth = _depth(position)
                        found.append(
                            (f"{name}.{seed}.{position}", hand_at(hands, rules, position), depth)
                        )
    return found


#: (trick, card) of the play positions taken, with the depth counted from each.
_SPOTS = ((1, 1), (3, 2), (6, 1), (7, 3), (8, 1), (8, 4))


def _depth(position: str) -> int:
    if ".bid" in position:
        return 3
    trick, card = (int(part[1:]) for part in position.split(".")[1:])
    left = 33 - (4 * (trick - 1) + card)
    return {1: 3, 3: 3, 6: 6, 7: left}.get(trick, left + (card == 1))  # past the end in trick 8


def dealt_positions(count: int) -> list[tuple[str, Hand, int]]:
    """Hands dealt from a pack, stopped after a few random calls of the auction: their count
    goes through the completion into the raises."""
    found: list[tuple[str, Hand, int]] = []
    for n in range(count):
        rules = load_ruleset(RULESETS[n % len(RULESETS)])
        rng = random.Random(n)
        pack = list(CARDS)
        rng.shuffle(pack)
        hand = Hand.shuffled(rules, n % 4, pack)
        for _ in range(rng.randrange(6)):
            if hand.phase != "auction":
                break
            hand.push(choose(hand, rng, DEFAULT_POLICY, None))
        found.append((f"dealt.{rules.id}.{n}", hand, 4))
    return found


POSITIONS = transcript_positions()
DEALT = dealt_positions(40)


def test_two_hundred_positions() -> None:
    assert len(POSITIONS) + len(DEALT) >= 200
    phases = {hand.phase for _, hand, _ in POSITIONS + DEALT}
    assert {"auction", "raises", "play"} <= phases


@pytest.mark.parametrize(
    ("name", "hand", "depth"), POSITIONS + DEALT, ids=[p[0] for p in POSITIONS + DEALT]
)
def test_perft_agrees_with_enumeration(name: str, hand: Hand, depth: int) -> None:
    expected = enumerate_plies(hand, depth)
    assert perft(hand, depth) == expected
    if depth:
        shares = divide(hand, depth)
        assert sum(n for _, n in shares) == expected
        assert [p for p, _ in shares] == plies(hand)


def test_counts_reach_the_deep_paths() -> None:
    """The positions exercise what perft does apart: counts past the end of the hand (0),
    deep counts through the transposition table, and counts through the completion."""
    late = [n for n, hand, depth in POSITIONS if hand.phase == "play" and depth > 4]
    assert late and any(perft(hand, depth) == 0 for _, hand, depth in POSITIONS)
    assert any(enumerate_plies(h, 4) != 0 and h.stock is not None for _, h, _ in DEALT)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), calls=st.integers(0, 8), depth=st.integers(1, 3))
def test_divide_sums_to_the_next_depth(seed: int, calls: int, depth: int) -> None:
    """perft(d + 1) is the sum, over the plies, of the child's perft(d)."""
    rng = random.Random(seed)
    pack = list(CARDS)
    rng.shuffle(pack)
    hand = Hand.shuffled(load_ruleset(RULESETS[seed % len(RULESETS)]), seed % 4, pack)
    for _ in range(calls):
        if hand.is_over():
            break
        hand.push(choose(hand, rng, DEFAULT_POLICY, None))
    children = []
    for ply in plies(hand):
        child = hand.copy()
        child.push(ply)
        children.append(perft(child, depth))
    assert perft(hand, depth + 1) == sum(children)
    assert perft(hand, 1) == len(plies(hand))


# --- what is a ply, what is a leaf ------------------------------------------------------------


def test_declarations_and_announcements_are_no_plies() -> None:
    """Where the seat to play may declare a project, or the last card's player may announce
    Baloot, the count at depth 1 leaves them out."""
    rules = load_ruleset("saudi")
    seen: set[type] = set()
    for seed in range(40):
        text = "".join(generate_games(rules, seed, hands=2))
        with btn.TranscriptReader.from_text(text, "<generated>") as reader:
            hands = list(reader)
        spots = [
            item
            for hand in hands
            for item in hand.items
            if isinstance(item, btn.Baloot)
            or (isinstance(item, btn.Play) and item.position.startswith(f"{hand.position}.t1."))
        ]
        for item in spots:
            hand = hand_at(hands, rules, item.position)
            actions = hand.legal_actions()
            said = [a for a in actions if isinstance(a, (Declare, Announce))]
            if said:
                assert perft(hand, 1) == len(actions) - len(said)
                seen |= {type(a) for a in said}
        if seen == {Declare, Announce}:
            return
    pytest.fail(f"no position with both a declaration and an announcement to make: {seen}")


def _has(hands: list[btn.Hand], position: str) -> bool:
    return any(i.position == position for h in hands for i in h.items if isinstance(i, btn.Item))


def test_the_auction_ends_in_a_leaf_without_the_pack() -> None:
    """A transcript's hand counts its calls up to the auction's end and no further; the
    same deal dealt from its pack goes on into the play."""
    rules = load_ruleset("saudi")
    with btn.TranscriptReader(Path(GAME), GAME) as reader:
        hands = list(reader)
    hand = hand_at(hands, rules, "h1.bid1")
    assert hand.phase == "auction" and hand.stock is None
    ends = [p for p in plies(hand) if _ends_auction(hand, p)]
    assert ends  # a Sun in first seat ends the auction at once
    for ply in ends:
        child = hand.copy()
        child.push(ply)
        assert child.phase == "completion"
        assert perft(child, 0) == 1 and perft(child, 1) == 0


def _ends_auction(hand: Hand, ply: Bid | Raise | Lock | Play) -> bool:
    child = hand.copy()
    child.push(ply)
    return child.phase != "auction"


def test_a_hand_over_is_a_leaf() -> None:
    rules = load_ruleset("saudi")
    with btn.TranscriptReader(Path(GAME), GAME) as reader:
        hands = list(reader)
    hand = hand_at(hands, rules, "h1.t8.p4")
    assert perft(hand, 1) == 1 and perft(hand, 2) == 0
    child = hand.copy()
    (last,) = plies(child)
    child.push(last)
    assert child.is_over() and perft(child, 0) == 1 and perft(child, 1) == 0


def test_raises_and_locks_are_plies() -> None:
    """Before a raise: the doubles and passes of the seats entitled, and the first cards
    (which close the window); after a double, the doubler's lock choice too."""
    path = ROOT / "fixtures/doubling/doubling.lock.pass-1.btn"
    with btn.TranscriptReader(path, str(path)) as reader:
        hands = list(reader)
    hand = hand_at(hands, load_ruleset("saudi"), "h1.bid7")  # S has passed, N has not
    words = [ply_words(p) for p in plies(hand)]
    cards = ["E 7S", "E KS", "E 8H", "E QH", "E QD", "E AD", "E JC", "E QC"]
    assert words == ["N double", "N pass", "S double", *cards]
    doubled = hand.copy()
    doubled.push(Raise(0, "double"))
    after = [ply_words(p) for p in plies(doubled)]
    assert after == ["W triple", "W pass", "E triple", "E pass", "N closed", "N open", *cards]
    assert dict((ply_words(p), n) for p, n in divide(hand, 2))["N double"] == len(after)


# --- the command ----------------------------------------------------------------------------


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["perft", *argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_command_counts_and_divides() -> None:
    code, out, err = run(GAME, "--hand", "1", "--trick", "6", "--depth", "4")
    assert (code, out, err) == (0, "Nodes searched: 27\n", "")
    code, out, _ = run(GAME, "--hand", "1", "--trick", "1", "--depth", "3", "--divide")
    lines = out.splitlines()
    assert code == 0 and lines[-1] == "Nodes searched: 69" and lines[-2] == ""
    shares = dict(line.split(": ") for line in lines[:-2])
    assert shares["N pass"] == "22" and sum(int(n) for n in shares.values()) == 69
    assert list(shares)[:2] == ["N pass", "S pass"]  # calls first, then cards by index
    code, out, _ = run(GAME, "h1.t1.p1", "--depth", "3", "--divide", "--format", "json")
    data = json.loads(out)
    assert (
        data["nodes"] == 69
        and data["position"] == "h1.t1.p1"
        and data["divide"] == {k: int(v) for k, v in shares.items()}
    )


def test_command_in_the_auction() -> None:
    code, out, _ = run(GAME, "--hand", "2", "--auction", "--depth", "3", "--divide")
    assert code == 0 and out.splitlines()[-1] == "Nodes searched: 12"
    assert out.splitlines()[0] == "W pass: 7"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            (GAME, "--hand", "12", "--trick", "6", "--depth", "3"),
            "there is no hand 12 (the hands are 1,",
        ),
        (
            (GAME, "--hand", "1", "--trick", "9", "--depth", "3"),
            "--trick is a trick of the hand, 1 to 8",
        ),
        ((GAME, "h1.t9.p1", "--depth", "3"), "a hand has 8 tricks, not 9"),
        ((GAME, "h1.bid9", "--depth", "3"), "hand 1 has 5 calls, not 9"),
        ((GAME, "h1.t6.winner", "--depth", "3"), "h1.t6.winner is a claim, not an event"),
        ((GAME, "--trick", "2", "--depth", "-1"), "the depth must be at least 0, not -1"),
        ((GAME, "--trick", "2", "--depth", "0", "--divide"), "the depth must be at least 1, not 0"),
        ((GAME, "--trick", "2", "--depth", str(MAX_DEPTH + 1)), "more plies than a hand has"),
        ((GAME, "--depth", "2"), "no position: give --trick T or --auction"),
        ((GAME, "h1.t2.p1", "--trick", "2", "--depth", "2"), "a POSITION is given without"),
        (
            (WRONG, "--hand", "3", "--trick", "6", "--depth", "3"),
            "h3.t6.p1 comes after the transcript's first illegal event, h3.t4.p3 "
            "(play.hokum.overruff): E played 9C",
        ),
    ],
)
def test_command_errors(argv: tuple[str, ...], message: str) -> None:
    code, out, err = run(*argv)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err
    assert len(err.splitlines()) == 2 and err.splitlines()[1].startswith("hint: ")


def test_a_position_before_the_illegal_event_counts() -> None:
    rules = load_ruleset("saudi")
    with btn.TranscriptReader(Path(WRONG), WRONG) as reader:
        hands = list(reader)
    counted = perft_at(hands, rules, "h3.t4.p1", 3, divide=True)
    assert counted.nodes == sum(n for _, n in counted.divide or ())
    with pytest.raises(PerftError, match=r"first illegal event, h3\.t4\.p3"):
        perft_at(hands, rules, "h3.t5.p1", 1)


def test_command_under_another_ruleset() -> None:
    """The over-ruff fixture's recorded count, and under the deviant ruleset (no over-ruff
    obligation) more sequences: N may under-ruff with 8H in trick 6."""
    path = str(ROOT / "fixtures/play/play.hokum.overruff.pass-2.btn")
    deviant = str(ROOT / "examples/adapters/deviant.yaml")
    assert run(path, "h1.t5.p1", "--depth", "8")[1] == "Nodes searched: 96\n"
    assert run(path, "h1.t5.p1", "--depth", "8", "--ruleset", deviant)[1] == (
        "Nodes searched: 144\n"
    )
    code, out, _ = run(path, "h1.t6.p4", "--depth", "1", "--divide", "--ruleset", deviant)
    assert (code, out.splitlines()) == (0, ["N 8H: 1", "N TH: 1", "", "Nodes searched: 2"])
    code, out, _ = run(path, "h1.t6.p4", "--depth", "1", "--divide")
    assert (code, out.splitlines()) == (0, ["N TH: 1", "", "Nodes searched: 1"])
