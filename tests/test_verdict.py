"""Verdicts (baloot_conformance.check.run): replaying transcripts, and mutation testing.

The mutation test takes generated games, changes exactly one thing in one hand (a card, a
trick winner, a score, a total, a call, a declaration...) and asserts that the check fails at
exactly that position with the right rule ID.
"""

from __future__ import annotations

import atexit
import functools
import linecache
import random
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from baloot_conformance import btn
from baloot_conformance.btn.reader import read_transcript
from baloot_conformance.cards import Suit, parse_card
from baloot_conformance.check.run import NoSuchMoment, check_transcript, replay_to
from baloot_conformance.check.verdicts import HandVerdict
from baloot_conformance.corpus.generate import generate_games
from baloot_conformance.engine.model import (
    Contract,
    ContractKind,
    IllegalAction,
    card_set,
    cards_of,
    seat_from_name,
)
from baloot_conformance.engine.play import PlayRules
from baloot_conformance.rules.loading import load_ruleset, shipped_rulesets
from baloot_conformance.rules.ruleset import Ruleset

ROOT = Path(__file__).resolve().parent.parent
WORKED = (ROOT / "fixtures" / "scoring" / "worked-hand.btn").read_text(encoding="utf-8")


SCRATCH = Path(tempfile.mkdtemp(prefix="baloot-verdict-")) / "hand.btn"
atexit.register(shutil.rmtree, SCRATCH.parent, ignore_errors=True)  # each worker's own folder


@functools.cache
def _ruleset(name: str) -> Ruleset:
    return load_ruleset(name)


def check_text(
    text: str, ruleset: str | None = None, required: frozenset[str] = frozenset()
) -> list[HandVerdict]:
    """Check a transcript written to a scratch file (verdicts quote its lines)."""
    SCRATCH.write_text(text, encoding="utf-8")
    linecache.checkcache(str(SCRATCH))
    if ruleset is None:
        tag = re.search(r'^\[Ruleset "([^"@]+)', text, re.M)
        assert tag is not None
        ruleset = tag[1]
    return list(check_transcript(str(SCRATCH), str(SCRATCH), _ruleset(ruleset), required))


def replaced(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


# --- the worked hand -------------------------------------------------------------------------


def test_the_worked_hand_conforms() -> None:
    [verdict] = check_text(WORKED)
    assert verdict.status == "pass" and verdict.divergences == ()
    assert (verdict.position, verdict.ruleset) == ("h1", "saudi@1.2.0")
    assert verdict.events == 48 and verdict.claims == 14


def test_a_wrong_trick_winner() -> None:
    [verdict] = check_text(
        replaced(WORKED, "E 8D, N 8S, W KD, S 8C = N", "E 8D, N 8S, W KD, S 8C = W")
    )
    [divergence] = verdict.divergences
    assert divergence.position == "h1.t2.winner"
    assert divergence.rule_id == "play.trick_winner"
    assert (divergence.kind, divergence.expected, divergence.claimed) == ("wrong_claim", "N", "W")
    assert divergence.location is not None and divergence.location.line == 39
    assert divergence.root and divergence.source == "trick 2: E 8D, N 8S, W KD, S 8C = W"


def test_an_illegal_card_is_the_root_and_replay_goes_on() -> None:
    # N is void in diamonds and holds trumps: discarding 7C breaks play.hokum.ruff.
    text = replaced(
        WORKED, "trick 2: E 8D, N 8S, W KD, S 8C = N", "trick 2: E 8D, N 7C, W KD, S 8C = W"
    )
    text = replaced(
        text, "trick 3: N 7C, W TC, S KC, E AC = E", "trick 3: W TC, S KC, E AC, N 8S = N"
    )
    [verdict] = check_text(text)
    root = verdict.divergences[0]
    assert (root.position, root.rule_id, root.kind, root.root) == (
        "h1.t2.p2",
        "play.hokum.ruff",
        "illegal_event",
        True,
    )
    assert "N played 7C" in root.message and "8S" in root.message
    later = verdict.divergences[1:]
    assert later and not any(d.root for d in later)  # replay went on along the transcript
    # S, no longer covered by N's trump, had to ruff W's KD: an independent problem found.
    assert later[0].position == "h1.t2.p4" and later[0].rule_id == "play.hokum.ruff"


@pytest.mark.parametrize(
    ("old", "new", "position", "rule"),
    [
        ("= abnat NS 92 EW 70", "= abnat NS 90 EW 72", "h1.abnat", "cards.last_trick"),
        ("= projects EW 70", "= projects EW 20", "h1.projects", "projects.comparison"),
        ("= result failed", "= result made", "h1.result", "scoring.contract"),
        ("= score NS 0 EW 23", "= score NS 0 EW 21", "h1.score", None),
        ("= total NS 0 EW 23", "= total NS 0 EW 25", "h1.total", "game.target"),
        ("= contract N hokum S", "= contract N sun", "h1.contract", "bidding.sun_over_hokum"),
        ("bid W pass", "bid W ashkal", "h1.bid2", "bidding.ashkal.eligibility"),
        ("declare W sira AD KD QD", "declare W fifty AD KD QD", "h1.decl1", "projects.fifty"),
        ("declare W sira AD KD QD", "declare W sira AD KD JD", "h1.decl1", "projects.declaration"),
    ],
)
def test_one_wrong_thing(old: str, new: str, position: str, rule: str | None) -> None:
    [verdict] = check_text(replaced(WORKED, old, new))
    assert verdict.status == "fail"
    root = verdict.divergences[0]
    assert root.position == position
    if rule is not None:
        assert root.rule_id == rule
    assert root.rule_id is not None


def test_a_hand_that_cannot_be_replayed_is_an_error() -> None:
    [verdict] = check_text(replaced(WORKED, "dealer E\n", ""))
    assert verdict.status == "error" and not verdict.divergences
    assert verdict.error is not None and "'dealer'" in verdict.error


def test_required_claims() -> None:
    text = "\n".join(line for line in WORKED.splitlines() if not line.startswith("= abnat"))
    [verdict] = check_text(text + "\n", required=frozenset({"abnat", "score", "trick"}))
    [missing] = verdict.divergences
    assert (missing.position, missing.kind) == ("h1.abnat", "missing_claim")


def test_a_profile_changes_the_verdict() -> None:
    # Kammelna does not count Baloot toward the contract, splits and fails differently...
    # Here: the worked hand has no Baloot and no tie, so it conforms under kammelna too,
    # but not under majlis, whose failed buyer's projects are forfeited (EW keeps its own).
    [verdict] = check_text(WORKED, "kammelna")
    assert verdict.status == "pass"


# --- generated games conform under every ruleset ---------------------------------------


@pytest.mark.parametrize("name", sorted(shipped_rulesets()))
def test_generated_games_conform(name: str) -> None:
    rules = load_ruleset(name)
    text = "".join(generate_games(rules, seed=len(name), games=2, legal_claims=True))
    verdicts = check_text(text)
    assert verdicts and all(v.status == "pass" for v in verdicts), [
        (v.position, v.divergences[:1], v.error) for v in verdicts if v.status != "pass"
    ]


def test_generate_is_deterministic() -> None:
    rules = load_ruleset("saudi")
    assert "".join(generate_games(rules, 3, 2)) == "".join(generate_games(rules, 3, 2))
    assert "".join(generate_games(rules, 3, 2)) != "".join(generate_games(rules, 4, 2))


# --- mutation testing -----------------------------------------------------------------------


TEAM_WORDS = "abnat|aklat|projects|cardscore|projectscore|score|total"


@dataclass(frozen=True)
class Mutation:
    text: str
    position: str
    rules: frozenset[str]
    """The acceptable rule IDs of the root divergence (empty: any)."""


def standalone_hands(text: str) -> list[str]:
    """Each hand of a generated file as its own transcript, with its totals as a start line."""
    head, *hands = text.split("\nhand ")
    out = []
    totals = "start NS 0 EW 0"
    for body in hands:
        lines = ("hand 1" + body[body.index("\n") :]).rstrip("\n").split("\n")
        if not any(line.startswith("start ") for line in lines):
            lines.insert(1, totals)
        out.append(head + "\n" + "\n".join(lines) + "\n")
        total = [line for line in lines if line.startswith("= total ")]
        if total:
            totals = "start " + total[0][len("= total ") :]
    return out


def mutations(hand_text: str, rng: random.Random) -> list[Mutation]:
    """Single-point mutations of one standalone hand, with where and why each must fail."""
    lines = hand_text.split("\n")
    found: list[Mutation] = []

    def change(index: int, new: str, position: str, *rules: str) -> None:
        mutated = [*lines[:index], new, *lines[index + 1 :]]
        found.append(Mutation("\n".join(mutated), position, frozenset(rules)))

    bids = declarations = 0
    for i, line in enumerate(lines):
        if m := re.fullmatch(r"= trick (\d) ([NWSE]) (\d+)", line):
            other = rng.choice([s for s in "NWSE" if s != m[2]])
            position = f"h1.t{m[1]}.winner"
            change(i, f"= trick {m[1]} {other} {m[3]}", position, "play.trick_winner")
            points = f"= trick {m[1]} {m[2]} {int(m[3]) + 1}"
            change(i, points, position, "cards.points.plain", "cards.points.trump")
        elif m := re.fullmatch(
            r"= (abnat|aklat|projects|cardscore|projectscore|score|total) NS (\d+) EW (\d+)", line
        ):
            change(i, f"= {m[1]} NS {int(m[2]) + 2} EW {m[3]}", f"h1.{m[1]}")
        elif m := re.fullmatch(r"= result (\w+)", line):
            other = {"made": "failed", "failed": "made", "tie": "made"}[m[1]]
            change(i, f"= result {other}", "h1.result")
        elif m := re.fullmatch(r"bid ([NWSE]) (.*)", line):
            bids += 1
            if bids == 1:  # the first call by the wrong seat
                other = rng.choice([s for s in "NWSE" if s != m[1]])
                change(i, f"bid {other} {m[2]}", "h1.bid1", "bidding.order")
        elif m := re.fullmatch(r"declare ([NWSE]) (\w+) (.*)", line):
            declarations += 1
            seat = "NWSE".index(m[1])
            held = hand_cards(hand_text)[seat]
            foreign = list(cards_of(~held & 0xFFFFFFFF))
            cards = m[3].split()
            cards[-1] = rng.choice(foreign).code
            new = f"declare {m[1]} {m[2]} {' '.join(cards)}"
            change(i, new, f"h1.decl{declarations}", "projects.declaration")
    found += card_mutations(hand_text, lines, rng)
    return found


def hand_cards(hand_text: str) -> list[int]:
    """Each seat's eight cards, from its deal and rest lines (the face-up card to its buyer)."""
    cards = [0, 0, 0, 0]
    for line in hand_text.split("\n"):
        if m := re.fullmatch(r"(deal|rest) ([NWSE]) (.*)", line):
            cards["NWSE".index(m[2])] |= card_set(parse_card(c) for c in m[3].split())
    faceup = re.search(r"^faceup (\S+)$", hand_text, re.M)
    assert faceup is not None
    short = [s for s in range(4) if cards[s].bit_count() == 7]
    if short:
        cards[short[0]] |= 1 << parse_card(faceup[1]).index
    return cards


def card_mutations(hand_text: str, lines: list[str], rng: random.Random) -> list[Mutation]:
    """Play, in place of a card, a later card of the same player that the ``= legal`` claim
    before it excludes (the two cards change places): the check must fail right there, with
    the rule the reference play rules give for that card."""
    rules = _ruleset(re.search(r'^\[Ruleset "([^"@]+)', hand_text, re.M)[1])  # type: ignore[index]
    hands = hand_cards(hand_text)
    plays = [(i, line.split()) for i, line in enumerate(lines) if line.startswith("play ")]
    contract_line = next((line for line in lines if line.startswith("= contract ")), "")
    words = contract_line.split()[2:]
    if len(words) < 2 or words[1] not in ("sun", "hokum"):
        return []
    kind: ContractKind = "hokum" if words[1] == "hokum" else "sun"
    trump = Suit(words[2]) if kind == "hokum" else None
    buyer = seat_from_name(words[0])
    contract = Contract(kind, trump, buyer, buyer, locked="closed" in words)
    play_rules = PlayRules(rules, contract)
    out: list[Mutation] = []
    trick: tuple[int, ...] = ()
    leader = 0
    for n, (i, (_, seat_name, card_code)) in enumerate(plays):
        seat, card = seat_from_name(seat_name), parse_card(card_code)
        if not trick:
            leader = seat
        legal_line = lines[i - 1]
        legal = card_set(parse_card(c) for c in legal_line.split()[3:])
        later = [(k, c) for k, (_, (_, s2, c)) in enumerate(plays) if s2 == seat_name and k > n]
        illegal = [(k, c) for k, c in later if not legal >> parse_card(c).index & 1]
        if illegal and rng.random() < 0.25:
            k, other = rng.choice(illegal)
            try:
                play_rules.check(hands[seat], trick, leader, parse_card(other))
                rule = "none"
            except IllegalAction as exc:
                rule = exc.rule_id
            mutated = list(lines)
            mutated[i] = f"play {seat_name} {other}"
            mutated[plays[k][0]] = f"play {seat_name} {card_code}"
            position = f"h1.t{n // 4 + 1}.p{n % 4 + 1}"
            out.append(Mutation("\n".join(mutated), position, frozenset({rule})))
        hands[seat] &= ~(1 << card.index)
        trick = (*trick, card.index)
        if len(trick) == 4:
            leader = (leader + play_rules.winner(trick)) % 4
            trick = ()
    return out


def test_mutations_are_detected_at_their_position() -> None:
    rng = random.Random(2026)
    count = 0
    missed = []
    for name, seed in (("saudi", 1), ("kammelna", 2), ("majlis", 3), ("tazjel", 4)):
        text = "".join(generate_games(load_ruleset(name), seed, games=2, legal_claims=True))
        for hand_text in standalone_hands(text):
            for mutation in mutations(hand_text, rng):
                count += 1
                verdicts = check_text(mutation.text)
                root = verdicts[0].divergences[0] if verdicts[0].divergences else None
                ok = (
                    root is not None
                    and root.position == mutation.position
                    and (not mutation.rules or root.rule_id in mutation.rules)
                )
                if not ok:
                    got = (root.position, root.rule_id, root.message) if root else None
                    missed.append((mutation.position, sorted(mutation.rules), got))
    assert count >= 1000
    assert not missed, missed[:5]


def test_a_real_engine_log_conforms_to_its_own_profile() -> None:
    """majlis-baloot's logged game (shared peer-games) under the majlis profile: every event
    legal, every claim right; under saudi its known differences show up, rule by rule."""
    text = (ROOT / "fixtures" / "majlis" / "majlis-game-1.btn").read_text(encoding="utf-8")
    assert all(v.status == "pass" for v in check_text(text, "majlis"))
    roots = {
        v.position: v.divergences[0].rule_id for v in check_text(text, "saudi") if v.divergences
    }
    assert roots["h6"] == "bidding.hokum_confirmation"  # all players answer a Hokum
    assert roots["h8"] == "bidding.ashkal.eligibility"  # Ashkal on an Ace face-up card
    assert roots["h1"] == "projects.comparison"  # majlis declares projects automatically


def test_a_kawesh_void_hand_claims_no_contract() -> None:
    """'= contract none' is right after a Kawesh as after four passes (it was refused)."""
    import io

    from baloot_conformance.btn import TranscriptReader
    from baloot_conformance.check.run import check_hands
    from baloot_conformance.corpus.generate import generate_games
    from baloot_conformance.engine.playout import Policy

    ja = load_ruleset("wikipedia-ja")
    texts = (
        "".join(generate_games(ja, seed, hands=1, policy=Policy(rich_deals=True, kawesh=0.5)))
        for seed in range(400)
    )
    text = next(t for t in texts if "\nkawesh " in t)
    assert "= contract none" in text
    with TranscriptReader(io.StringIO(text), "k.btn") as reader:
        (verdict,) = check_hands(reader, "k.btn", ja)
    assert verdict.status == "pass", verdict.divergences


def test_verdicts_travel_between_processes_unchanged() -> None:
    import pickle

    path = ROOT / "examples" / "nonconforming-game.btn"
    verdicts = list(check_transcript(path, str(path), pictures=True))
    assert any(v.divergences and v.divergences[0].table is not None for v in verdicts)
    assert pickle.loads(pickle.dumps(verdicts)) == verdicts  # field for field, tables too


# --- replay_to: the interpreter's hand at a position ----------------------------------------


def _nonconforming() -> tuple[list[btn.Hand], Ruleset]:
    game = read_transcript(ROOT / "examples" / "nonconforming-game.btn")
    return list(game.hands), load_ruleset("saudi")


def test_replay_to_gives_the_hand_before_the_position() -> None:
    hands, rules = _nonconforming()
    before_the_wrong_card = replay_to(hands, rules, "h3.t4.p3")
    assert [str(a) for a in before_the_wrong_card.legal_actions()] == ["play E TH"]
    first_call = replay_to(hands, rules, "h1.bid1")  # no call yet: the auction's first window
    assert first_call.phase == "auction"
    assert {str(a) for a in first_call.legal_actions()} >= {"bid N pass", "bid N sun"}


def test_replay_to_refuses_what_the_replay_never_reached() -> None:
    hands, rules = _nonconforming()
    stop = "stops before h3.t6.p1: cannot continue after h3.t5.p1"
    with pytest.raises(NoSuchMoment, match=re.escape(stop)):
        replay_to(hands, rules, "h3.t6.p1")  # the replay of h3 stops at E's card out of turn
    with pytest.raises(NoSuchMoment, match="before the hand's 'dealer' and 'faceup' lines"):
        replay_to(hands, rules, "h1.dealer")
    with pytest.raises(NoSuchMoment, match=re.escape("no event or claim is at h10.t1.p1")):
        replay_to(hands, rules, "h10.t1.p1")
