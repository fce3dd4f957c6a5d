"""The acceptance of the family checker on generated Bourré: 200 sessions pass under their
profiles, single mutations are caught at their position under the right rule, bad input is a
one-screen error with ``file:line:col``, and every report format renders a failing run.

Each mutation edits a generated session's text at a place the engine finds (a card the seat
holds but may not play, a claim the engine computed): nothing is hard-coded but the rule the
edit must break.
"""

from __future__ import annotations

import functools
import io
import json
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import jsonschema
import pytest

from baloot_conformance.cli import main
from baloot_conformance.family.btn import items as b2
from baloot_conformance.family.btn.reader import read_btn2
from baloot_conformance.family.check.run import check_btn2
from baloot_conformance.family.corpus.generate import generate_session
from baloot_conformance.family.engine.actions import Play
from baloot_conformance.family.engine.hand import TrickHand
from baloot_conformance.family.engine.obligations import IllegalAction
from baloot_conformance.family.engine.pack import pack_of
from baloot_conformance.family.engine.playout import random_session
from baloot_conformance.family.rules.loading import load_trick_ruleset, shipped_trick_rulesets
from baloot_conformance.family.rules.model import TrickRuleset
from baloot_conformance.resources import spec_path

ROOT = Path(__file__).resolve().parent.parent
PROFILES = sorted(shipped_trick_rulesets())


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@functools.cache
def rules(name: str) -> TrickRuleset:
    return load_trick_ruleset(name)


def games() -> Iterator[tuple[str, int, int]]:
    """200 (profile, players, seed): every shipped Bourré profile at every table size it
    allows, round after round."""
    tables = [(p, n) for p in PROFILES for n in range(rules(p).table.seats.min, 9)]
    tables = [(p, n) for p, n in tables if n <= rules(p).table.seats.max]
    for k in range(200):
        profile, players = tables[k % len(tables)]
        yield profile, players, k


@pytest.fixture(scope="module")
def session_files(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("bourre")
    files = []
    for profile, players, seed in games():
        path = folder / f"{profile}-{players}-{seed}.btn"
        path.write_text("".join(generate_session(rules(profile), players, 3, seed)))
        files.append(path)
    return files


# --- 200 generated sessions pass ---------------------------------------------------------


def test_the_200_sessions_cover_every_profile_and_table_size() -> None:
    seen = {(p, n) for p, n, _ in games()}
    assert {p for p, _ in seen} == set(PROFILES) and len(PROFILES) >= 9
    assert {n for _, n in seen} == set(range(2, 9))


def test_200_generated_sessions_pass_under_their_profiles(session_files: list[Path]) -> None:
    code, out, err = run("check", *map(str, session_files), "--format", "json")
    records = [json.loads(line) for line in out.splitlines()]
    assert (code, err) == (0, "")
    hands = [r for r in records if r["record"] == "hand"]
    assert len(hands) == 600 and all(h["status"] == "pass" for h in hands)
    assert {h["path"] for h in hands} == {str(p) for p in session_files}
    summary = records[-1]
    assert summary["record"] == "summary" and summary["ok"] is True
    assert summary["passed"] == 600


def test_the_real_command_line_checks_generated_sessions(session_files: list[Path]) -> None:
    picked = [str(p) for p in session_files[::25]]
    result = subprocess.run(
        [sys.executable, "-m", "baloot_conformance", "check", *picked],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert (
        f"{len(picked)} files, {3 * len(picked)} hands: {3 * len(picked)} passed" in result.stdout
    )


# --- mutations ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Spot:
    """A card a seat holds but may not play, found by the engine: hand, trick, index, the
    card played, the card put in its place, and the rule the engine says it breaks."""

    hand: int
    trick: int
    index: int
    seat: str
    played: str
    instead: str
    rule: str


def spots(ruleset: TrickRuleset, players: int, seed: int) -> Iterator[tuple[Spot, TrickHand]]:
    """Every illegal card a seat held at a play of a generated session, with the hand before
    that play (replayed from the engine's own history)."""
    codes = pack_of(ruleset).codes
    for number, played in enumerate(random_session(ruleset, players, 3, None, seed), start=1):
        replay = TrickHand(ruleset, played.ledger, names=played.names)
        for action in played.history:
            if isinstance(action, Play):
                held = replay.hands[action.seat] & ~replay.legal_cards()
                for card in range(replay.pack.size):
                    if held >> card & 1:
                        try:
                            replay.copy().push(Play(action.seat, card))
                        except IllegalAction as error:
                            spot = Spot(
                                number,
                                replay.trick_number + 1,
                                len(replay.trick) + 1,
                                played.names[action.seat],
                                codes[action.card],
                                codes[card],
                                error.rule_id,
                            )
                            yield spot, replay
            replay.push(action)


def find(
    ruleset: str, rule: str, test: Callable[[Spot, TrickHand], bool], players: int = 5
) -> tuple[str, Spot]:
    """The first generated session (seed 0 up) with an illegal card breaking ``rule`` and
    passing ``test``, as text, with the spot."""
    rules_ = rules(ruleset)
    for seed in range(300):
        for spot, hand in spots(rules_, players, seed):
            if spot.rule == rule and test(spot, hand):
                return "".join(generate_session(rules_, players, 3, seed)), spot
    raise AssertionError(f"no {rule} spot in 300 sessions")


def swap(text: str, spot: Spot, ruleset: TrickRuleset) -> str:
    """The text with ``spot.instead`` played at the spot and ``spot.played`` where the seat
    played ``spot.instead`` later in the hand (so that every card is still played once)."""
    transcript = read_btn2(text, "g.btn", lambda ref, where: ruleset)
    hand = transcript.hands[spot.hand - 1]
    plays = [i for i in hand.items if isinstance(i, b2.Play) and i.seat == spot.seat]
    here = next(p for p in plays if p.trick == spot.trick)
    later = next(p for p in plays if p.card == spot.instead)
    lines = text.split("\n")
    for item, old, new in ((here, spot.played, spot.instead), (later, spot.instead, spot.played)):
        row = item.location.line - 1
        edited = lines[row].replace(f"{spot.seat} {old}", f"{spot.seat} {new}")
        assert edited != lines[row]
        lines[row] = edited
    return "\n".join(lines)


def root(text: str) -> tuple[int, str, str | None, str]:
    """The first failing hand's number and its root divergence's position, rule and words."""
    for verdict in check_btn2(text, "m.btn"):
        if verdict.status != "pass":
            first = verdict.divergences[0]
            assert first.root
            return int(verdict.position[1:]), first.position, first.rule_id, first.message
    raise AssertionError("the mutation passed")


def led_suit(hand: TrickHand) -> int:
    return hand.pack.suit_of[hand.trick[0]]


def test_a_card_that_does_not_head_the_trick_is_caught_at_its_position() -> None:
    def heads(spot: Spot, hand: TrickHand) -> bool:
        suit = hand.pack.suit_of
        card = hand.pack.codes.index(spot.instead)
        return bool(hand.trick) and suit[card] == led_suit(hand)

    text, spot = find("bourre", "play.head", heads)
    mutated = swap(text, spot, rules("bourre"))
    hand, position, rule, message = root(mutated)
    assert (hand, position, rule) == (
        spot.hand,
        f"h{spot.hand}.t{spot.trick}.p{spot.index}",
        "play.head",
    )
    assert spot.seat in message and spot.instead in message


def test_a_missed_trump_is_caught_at_its_position() -> None:
    def misses(spot: Spot, hand: TrickHand) -> bool:
        seat = hand.names.index(spot.seat)
        suit = hand.pack.suit_of
        held = [c for c in range(hand.pack.size) if hand.hands[seat] >> c & 1]
        card = hand.pack.codes.index(spot.instead)
        void = bool(hand.trick) and all(suit[c] != led_suit(hand) for c in held)
        has_trump = any(suit[c] == hand.trump for c in held)
        return void and has_trump and suit[card] != hand.trump

    text, spot = find("bourre", "play.ruff", misses)
    hand, position, rule, _ = root(swap(text, spot, rules("bourre")))
    assert (hand, position, rule) == (
        spot.hand,
        f"h{spot.hand}.t{spot.trick}.p{spot.index}",
        "play.ruff",
    )


def test_a_wrong_cinch_lead_is_caught_at_its_position() -> None:
    def leads(spot: Spot, hand: TrickHand) -> bool:
        return not hand.trick

    text, spot = find("bourre", "play.cinch", leads)
    assert spot.index == 1
    hand, position, rule, _ = root(swap(text, spot, rules("bourre")))
    assert (hand, position, rule) == (spot.hand, f"h{spot.hand}.t{spot.trick}.p1", "play.cinch")


def claim_line(pattern: str) -> tuple[str, int, re.Match[str]]:
    """The first generated session (seed 0 up) with a line matching ``pattern``: its text,
    the number of the hand the line is in, the match."""
    for seed in range(50):
        text = "".join(generate_session(rules("bourre"), 5, 3, seed))
        hand = 0
        for line in text.split("\n"):
            if line.startswith("hand "):
                hand = int(line.split()[1])
            match = re.fullmatch(pattern, line)
            if match:
                return text, hand, match
    raise AssertionError(f"no line {pattern}")


def test_a_wrong_pot_claim_is_caught() -> None:
    text, hand, match = claim_line(r"= pot (P\d) (\d+)")
    line = match.group(0)
    wrong = text.replace(line, f"= pot {match.group(1)} {int(match.group(2)) + 1}", 1)
    number, position, rule, message = root(wrong)
    assert (number, position, rule) == (hand, f"h{hand}.pot", "scoring.outcome")
    assert f"{match.group(1)} {match.group(2)}, not {int(match.group(2)) + 1}" in message


def test_a_wrong_pays_claim_is_caught() -> None:
    text, hand, match = claim_line(r"= pays (P\d) (\d+)(.*)")
    wrong = text.replace(
        match.group(0), f"= pays {match.group(1)} {int(match.group(2)) * 2}{match.group(3)}", 1
    )
    number, position, rule, _ = root(wrong)
    assert (number, position, rule) == (hand, f"h{hand}.pays", "scoring.pot.bourre")


def test_a_wrong_trick_winner_is_caught() -> None:
    text, hand, match = claim_line(r"trick (\d+): (.*) = (P\d)")
    seats = [cell.split()[0] for cell in match.group(2).split(", ")]
    other = next(s for s in seats if s != match.group(3))
    wrong = text.replace(match.group(0), match.group(0)[: -len(match.group(3))] + other, 1)
    number, position, rule, message = root(wrong)
    trick = match.group(1)
    assert (number, position, rule) == (hand, f"h{hand}.t{trick}.winner", "play.trick_winner")
    assert message == f"trick {trick} is won by {match.group(3)}, not {other}"


# --- bad input ------------------------------------------------------------------------------


def bad(tmp_path: Path, edit: Callable[[list[str]], None]) -> tuple[int, str, Path]:
    lines = "".join(generate_session(rules("bourre"), 5, 2, 3)).split("\n")
    edit(lines)
    path = tmp_path / "bad.btn"
    path.write_text("\n".join(lines))
    code, out, err = run("check", str(path))
    assert err == ""
    return code, out, path


def first(lines: list[str], prefix: str) -> int:
    return next(k for k, line in enumerate(lines) if line.startswith(prefix))


def assert_error(code: int, out: str, path: Path, line: int, col: int, words: str) -> None:
    """Exit 2, no traceback, the error's first line ``error: FILE:LINE:COL: ...``, the whole
    message a few lines (the line, its caret, a hint) before the summary."""
    assert code == 2
    assert "Traceback" not in out
    head = out.splitlines()[0]
    assert head.startswith(f"error: {path}:{line}:{col}: "), head
    assert words in head
    assert len(out.splitlines()) <= 8


def test_a_card_not_in_the_pack(tmp_path: Path) -> None:
    row = 0

    def edit(lines: list[str]) -> None:
        nonlocal row
        row = first(lines, "deal P2 ")
        lines[row] = "deal P2 1S " + " ".join(lines[row].split()[3:])

    code, err, path = bad(tmp_path, edit)
    assert_error(code, err, path, row + 1, 9, "expected a card like 'TS' or '2H', found '1S'")


def test_a_sixth_card_in_a_five_card_hand(tmp_path: Path) -> None:
    row = 0

    def edit(lines: list[str]) -> None:
        nonlocal row
        row = first(lines, "deal P1 ")
        dealt = {c for line in lines[row : row + 5] for c in line.split()[2:]}
        spare = next(c for c in ("AS", "KS", "QS", "JS", "TS", "9S", "8S") if c not in dealt)
        lines[row] += f" {spare}"

    code, err, path = bad(tmp_path, edit)
    assert_error(code, err, path, row + 1, 24, "'deal P1' lists 6 cards: a hand is dealt 5")


def test_a_seat_not_at_the_table(tmp_path: Path) -> None:
    row = 0

    def edit(lines: list[str]) -> None:
        nonlocal row
        row = first(lines, "bid ")
        lines[row] = "bid P6 " + " ".join(lines[row].split()[2:])

    code, err, path = bad(tmp_path, edit)
    assert_error(code, err, path, row + 1, 5, "P6 is not a seat at this table (P1 P2 P3 P4 P5")


def test_a_fold_after_the_draw(tmp_path: Path) -> None:
    row = 0
    seat = ""

    def edit(lines: list[str]) -> None:
        nonlocal row, seat
        row = first(lines, "exchange ") + 1
        seat = lines[row - 1].split()[1]
        lines.insert(row, f"bid {seat} pass")

    code, err, path = bad(tmp_path, edit)
    assert_error(code, err, path, row + 1, 5, f"a declaration by {seat} after its draw")


# --- report formats -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def failing(tmp_path_factory: pytest.TempPathFactory) -> Path:
    text, _, match = claim_line(r"= pot (P\d) (\d+)")
    path = tmp_path_factory.mktemp("report") / "failing.btn"
    path.write_text(text.replace(match.group(0), f"= pot {match.group(1)} 999", 1))
    return path


@pytest.mark.parametrize("form", ["text", "json", "junit", "markdown", "html"])
def test_every_report_format_renders_a_failing_bourre_run(failing: Path, form: str) -> None:
    code, out, err = run("check", str(failing), "--format", form)
    assert (code, err) == (1, "")
    assert "scoring.outcome" in out
    assert "999" in out
    if form == "json":
        schema = json.loads(spec_path("schema", "report.schema.json").read_text())
        validator = jsonschema.Draft202012Validator(schema)
        records = [json.loads(line) for line in out.splitlines()]
        for record in records:
            validator.validate(record)
        statuses = [r["status"] for r in records if r["record"] == "hand"]
        assert statuses == ["pass", "pass", "fail"] or sorted(statuses) == ["fail", "pass", "pass"]
        assert records[-1]["failed"] == 1 and records[-1]["passed"] == 2


# --- partial transcripts ------------------------------------------------------------------


def unseen(text: str, seat: str) -> str:
    """The text without ``seat``'s deal and exchange lines: the table seen from the others."""
    drop = (f"deal {seat} ", f"exchange {seat} ")
    return "\n".join(line for line in text.split("\n") if not line.startswith(drop))


def tour() -> str:
    doc = (ROOT / "docs" / "btn2.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```btn\n(.*?)```", doc, re.S)
    return str(next(b for b in blocks if "notation tour" in b))


def test_the_tour_is_judged_as_far_as_it_goes() -> None:
    (verdict,) = check_btn2(tour(), "tour.btn")
    assert verdict.status == "pass" and verdict.claims == 3
    assert "the cards of P4 P5 P6 P7 (their deals are not recorded)" in verdict.unchecked
    assert "the cinch (it needs every active hand)" in verdict.unchecked
    assert "the rest of the hand (the transcript stops before its end)" in verdict.unchecked


def test_a_session_seen_without_one_seat_passes_with_every_claim_checked() -> None:
    full = "".join(generate_session(rules("bourre"), 5, 3, 2))
    verdicts = list(check_btn2(unseen(full, "P3"), "partial.btn"))
    whole = list(check_btn2(full, "full.btn"))
    assert [v.status for v in verdicts] == ["pass"] * 3
    assert [v.claims for v in verdicts] == [v.claims for v in whole]
    for verdict in verdicts:
        assert "the cards of P3 (their deals are not recorded)" in verdict.unchecked
        assert not [u for u in verdict.unchecked if u.startswith("h")]  # no claim left out
    assert all(not v.unchecked for v in whole)


def test_a_seen_seat_card_is_judged_and_an_unseen_one_is_not() -> None:
    def heads(spot: Spot, hand: TrickHand) -> bool:
        card = hand.pack.codes.index(spot.instead)
        return bool(hand.trick) and hand.pack.suit_of[card] == led_suit(hand)

    text, spot = find("bourre", "play.head", heads)
    mutated = swap(text, spot, rules("bourre"))
    others = [f"P{k}" for k in range(1, 6) if f"P{k}" != spot.seat]
    hand, position, rule, _ = root(unseen(mutated, others[-1]))
    assert (hand, position, rule) == (spot.hand, f"h{spot.hand}.t{spot.trick}.p{spot.index}", rule)
    assert rule == "play.head"
    # Unseen, the card is not judged (what it changes downstream, a trick's winner, still is).
    verdict = list(check_btn2(unseen(mutated, spot.seat), "partial.btn"))[spot.hand - 1]
    assert all(d.position != position for d in verdict.divergences)
    assert f"the cards of {spot.seat} (their deals are not recorded)" in verdict.unchecked


def test_a_wrong_pot_claim_is_caught_on_a_partial_hand() -> None:
    text, hand, match = claim_line(r"= pot (P\d) (\d+)")
    seat = next(f"P{k}" for k in range(1, 6) if f"P{k}" != match.group(1))
    wrong = text.replace(match.group(0), f"= pot {match.group(1)} 999", 1)
    number, position, rule, _ = root(unseen(wrong, seat))
    assert (number, position, rule) == (hand, f"h{hand}.pot", "scoring.outcome")


def test_a_hand_cut_short_after_its_antes_passes_with_the_rest_unchecked() -> None:
    path = ROOT / "tests" / "data" / "btn2" / "two-hands.btn"
    first, second = check_btn2(path.read_bytes(), str(path))
    assert (first.status, first.unchecked) == ("pass", ())
    assert second.status == "pass" and second.events == 3
    assert second.unchecked == ("the rest of the hand (the transcript stops before its end)",)
    wrong = path.read_text(encoding="utf-8").replace("ante P2 1", "ante P2 2")
    _, second = check_btn2(wrong, str(path))
    assert [(d.position, d.rule_id) for d in second.divergences] == [("h2.ante1", "phases.ante")]


def test_a_legal_claim_of_a_seen_seat_is_judged_on_a_partial_hand() -> None:
    text = unseen("".join(generate_session(rules("bourre"), 5, 3, 4, legal=True)), "P2")
    lines = text.split("\n")
    row = next(k for k, line in enumerate(lines) if re.fullmatch(r"= legal P1 \S+( \S+)+", line))
    hand = sum(1 for line in lines[:row] if line.startswith("hand "))
    lines[row] = lines[row].rsplit(" ", 1)[0]  # one legal card left out
    verdict = list(check_btn2(text, "partial.btn"))[hand - 1]
    wrong = list(check_btn2("\n".join(lines), "partial.btn"))[hand - 1]
    (divergence,) = wrong.divergences
    assert divergence.position not in " ".join(verdict.unchecked)
    assert (divergence.rule_id, divergence.kind) == ("play.obligations", "wrong_claim")
    assert divergence.location is not None and divergence.location.line == row + 1


def test_a_session_seen_from_no_seat_still_checks_the_winners_and_the_settlement() -> None:
    full = "".join(generate_session(rules("bourre"), 5, 2, 3))
    blind = "\n".join(
        line for line in full.split("\n") if not line.startswith(("deal ", "exchange "))
    )
    verdicts = list(check_btn2(blind, "blind.btn"))
    assert [v.unchecked for v in verdicts] == [
        ("the cards of P1 P2 P3 P4 P5 (their deals are not recorded)",)
    ] * 2
    assert [v.status for v in verdicts] == ["pass", "pass"]
    wrong = re.sub(r"^= score P1 (-?\d+)", "= score P1 99", blind, count=1, flags=re.M)
    assert wrong != blind
    assert root(wrong)[:3] == (1, "h1.score", "scoring.outcome")


def test_a_seen_renege_without_its_penalty_is_missing_on_a_partial_hand() -> None:
    """A renege whose swap leaves the tricks' order as it was (the full replay reaches the
    settlement and misses the penalty): the partial replay misses it too."""
    bourre = rules("bourre")
    for seed in range(100):
        text = "".join(generate_session(bourre, 5, 3, seed))
        for spot, _ in spots(bourre, 5, seed):
            mutated = swap(text, spot, bourre)
            full = list(check_btn2(mutated, "m.btn"))[spot.hand - 1]
            if ("scoring.pot.renege", "missing_event") in [
                (d.rule_id, d.kind) for d in full.divergences
            ]:
                break
        else:
            continue
        break
    else:
        raise AssertionError("no renege that keeps the tricks' order in 100 sessions")
    other = next(f"P{k}" for k in range(1, 6) if f"P{k}" != spot.seat)
    verdict = list(check_btn2(unseen(mutated, other), "p.btn"))[spot.hand - 1]
    kinds = [(d.rule_id, d.kind) for d in verdict.divergences]
    assert kinds[0] == (spot.rule, "illegal_event")
    assert ("scoring.pot.renege", "missing_event") in kinds
