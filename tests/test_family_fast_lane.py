"""The family's fast lane gives the reference path's verdicts, hand for hand, and takes the
hands that pass.

Each transcript is checked twice, with the lane and without (``fast=False``, ``check
--reference-replay``): the verdicts (or the syntax error that stops the file) must be equal.
The transcripts are every family fixture under each ruleset it is read under, generated
games of Bourré, Barbu (every profile) and Hearts, and generated games damaged at random
(a line dropped, two lines swapped, a card changed), which the lane must leave to the
reference path whenever they do not pass.
"""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from lane_counter import Taken

from baloot_conformance.check.verdicts import HandVerdict
from baloot_conformance.cli import main
from baloot_conformance.corpus.family_fixtures import (
    load_family_corpus,
    readings,
    trick_rulesets,
)
from baloot_conformance.errors import TranscriptSyntaxError
from baloot_conformance.family.check import run as family_run
from baloot_conformance.family.check.run import check_btn2
from baloot_conformance.family.corpus.generate import generate_games
from baloot_conformance.family.rules.loading import load_trick_ruleset
from baloot_conformance.family.rules.model import TrickRuleset

RULESETS = trick_rulesets()


def outcome(
    text: str, fast: bool, rules: TrickRuleset | None = None
) -> tuple[list[HandVerdict], str | None]:
    """The verdicts of a transcript, and the syntax error that stopped it (if any)."""
    verdicts: list[HandVerdict] = []
    try:
        verdicts.extend(check_btn2(text, "t.btn", rules, fast=fast))
    except TranscriptSyntaxError as exc:
        return verdicts, str(exc)
    return verdicts, None


def test_every_fixture_gets_the_same_verdicts_under_each_reading(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    taken = Taken(monkeypatch, family_run, "lane_hand")
    compared = 0
    for fixture in load_family_corpus():
        for ruleset_id in readings(fixture):
            rules = RULESETS[ruleset_id]
            fast = outcome(fixture.text, True, rules)
            assert fast == outcome(fixture.text, False, rules), (fixture.id, ruleset_id)
            compared += 1
    assert compared > 200
    # The corpus holds hands that pass and hands that fail or stop: the lane takes the first
    # and leaves the others to the reference path.
    assert taken.taken > 100 and taken.left > 100, (taken.taken, taken.left)


def _games(name: str, seed: int, short: bool = False) -> str:
    """Generated games: two Bourré sessions of six players, a whole Barbu game (``short``: its
    first block of seven hands), a dozen hands of Hearts (``short``: four)."""
    rules = load_trick_ruleset(name)
    if rules.id.startswith("bourre"):
        return "".join(generate_games(rules, 6, 4 if short else 8, seed, 2))
    if rules.id.startswith("barbu"):
        return "".join(generate_games(rules, 4, 7 if short else 28, seed, 1))
    return "".join(generate_games(rules, 4, 4 if short else 12, seed, 1))


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_generated_games_pass_in_the_lane_with_the_same_verdicts(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = _games(name, 7)
    taken = Taken(monkeypatch, family_run, "lane_hand")
    fast = outcome(text, True)
    assert fast == outcome(text, False)
    verdicts, error = fast
    assert error is None and {v.status for v in verdicts} == {"pass"}
    assert taken.left == 0 and taken.taken == len(verdicts) > 0  # every hand in the lane


def _damage(text: str, rng: random.Random) -> str:
    """One random damage below the header: a line dropped, two swapped, a card changed."""
    lines = text.split("\n")
    body = [k for k, line in enumerate(lines) if line and not line.startswith(("[", "%"))]
    k = rng.choice(body)
    how = rng.randrange(3)
    if how == 0:
        del lines[k]
    elif how == 1:
        j = rng.choice(body)
        lines[k], lines[j] = lines[j], lines[k]
    else:
        words = lines[k].split(" ")
        cards = [i for i, w in enumerate(words) if len(w.rstrip(",")) == 2 and w[1:2] in "SHDC"]
        if not cards:
            del lines[k]
        else:
            i = rng.choice(cards)
            tail = "," if words[i].endswith(",") else ""
            words[i] = rng.choice("23456789TJQKA") + rng.choice("SHDC") + tail
            lines[k] = " ".join(words)
    return "\n".join(lines)


@pytest.mark.parametrize("name", ["bourre", "barbu", "barbu-seed", "hearts"])
def test_damaged_games_get_the_same_verdicts(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(name)
    games = [_games(name, seed, short=True) for seed in (1, 2)]
    taken = Taken(monkeypatch, family_run, "lane_hand")
    failed = 0
    for _ in range(40):
        text = _damage(rng.choice(games), rng)
        fast = outcome(text, True)
        assert fast == outcome(text, False), text
        failed += fast[1] is not None or any(v.status != "pass" for v in fast[0])
    assert failed > 20  # most damage is caught, by the reference path
    assert taken.taken > 0 and taken.left > 0


def test_reference_replay_gives_the_same_report(tmp_path: Path) -> None:
    # A Barbu game whose first trick claims the wrong winner: one hand fails, the rest pass.
    lines = _games("barbu", 3).split("\n")
    k = next(k for k, line in enumerate(lines) if line.startswith("trick 1:"))
    plays, winner = lines[k].split(" = ")
    seats = [play.split()[-2] for play in plays.split(", ")]
    lines[k] = f"{plays} = {next(s for s in seats if s != winner)}"
    path = tmp_path / "barbu.btn"
    path.write_text("\n".join(lines), encoding="utf-8")
    reports = []
    for extra in ([], ["--reference-replay"]):
        out = io.StringIO()
        argv = ["check", str(path), "--format", "json", *extra]
        reports.append((main(argv, stdout=out, stderr=io.StringIO()), out.getvalue()))
    assert reports[0] == reports[1]
    code, report = reports[0]
    assert code == 1 and report.count('"status":"fail"') == 1, report[-300:]
