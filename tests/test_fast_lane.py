"""The fast lane gives the reference path's verdicts, hand for hand, and takes most hands.

Each transcript is checked twice, with the lane and without (``fast=False``, ``check
--reference-replay``): the verdicts (or the syntax error that stops the file) must be equal.
The transcripts are the fixture corpus, generated games under several rulesets, and
generated games damaged at random in ways the lane must leave to the reference path.
"""

from __future__ import annotations

import functools
import io
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lane_counter import Taken

from baloot_conformance import btn
from baloot_conformance.check import fast_lane
from baloot_conformance.check.run import check_hands
from baloot_conformance.check.verdicts import HandVerdict
from baloot_conformance.cli import main
from baloot_conformance.corpus.fixtures import load_corpus
from baloot_conformance.corpus.generate import generate_games
from baloot_conformance.engine.game import Game
from baloot_conformance.errors import TranscriptSyntaxError
from baloot_conformance.rules.loading import load_ruleset

ROOT = Path(__file__).resolve().parent.parent
CORPUS = load_corpus(ROOT / "fixtures")
SAUDI = load_ruleset("saudi")
ruleset_named = functools.cache(load_ruleset)


def outcome(
    text: str, fast: bool, ruleset_id: str | None = None
) -> tuple[list[HandVerdict], str | None]:
    """The verdicts of a transcript, and the syntax error that stopped it (if any)."""
    verdicts: list[HandVerdict] = []
    try:
        with btn.TranscriptReader.from_text(text, "t.btn") as reader:
            rules = ruleset_named(ruleset_id or "saudi")
            verdicts.extend(check_hands(reader, "t.btn", rules, fast=fast))
    except TranscriptSyntaxError as exc:
        return verdicts, str(exc)
    return verdicts, None


def test_the_corpus_gets_the_same_verdicts(monkeypatch: pytest.MonkeyPatch) -> None:
    taken = Taken(monkeypatch, fast_lane, "_judge")
    for fixture in CORPUS:
        ruleset = fixture.tag or fixture.ruleset_id
        fast = outcome(fixture.text, True, ruleset)
        assert fast == outcome(fixture.text, False, ruleset), fixture.id
    # The corpus is mostly hands that fail or stop: the lane leaves those to the reference.
    assert taken.taken > 100 and taken.left > 100


@pytest.mark.parametrize("ruleset", ["saudi", "majlis", "kuwait", "tazjel", "pagat"])
def test_generated_games_get_the_same_verdicts(
    ruleset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "".join(generate_games(ruleset_named(ruleset), seed=5, games=12))
    taken = Taken(monkeypatch, fast_lane, "_judge")
    fast = outcome(text, True, ruleset)
    assert fast == outcome(text, False, ruleset)
    assert fast[1] is None and all(v.status == "pass" for v in fast[0])
    assert taken.taken >= 0.9 * len(fast[0])  # the lane takes the games' hands


GAMES = "".join(generate_games(SAUDI, seed=9, games=4))
LINES = GAMES.split("\n")


def damage(lines: list[str], rng: random.Random) -> list[str]:
    """One change a transcript can suffer: a card, seat or number changed, a line dropped,
    repeated or moved, a comment or odd spacing added."""
    lines = list(lines)
    body = [i for i, line in enumerate(lines) if line and not line.startswith(("%", "["))]
    i = rng.choice(body)
    line = lines[i]
    kind = rng.randrange(8)
    if kind == 0:  # another card
        cards = re.findall(r"\b[789TJQKA][SHDC]\b", line)
        if cards:
            old = rng.choice(cards)
            new = rng.choice("789TJQKA") + rng.choice("SHDC")
            lines[i] = line.replace(old, new, 1)
    elif kind == 1:  # another seat
        seats = [m.start() for m in re.finditer(r"\b[NWSE]\b", line)]
        if seats:
            at = rng.choice(seats)
            lines[i] = line[:at] + rng.choice("NWSE") + line[at + 1 :]
    elif kind == 2:  # another number
        numbers = list(re.finditer(r"\b\d+\b", line))
        if numbers:
            m = rng.choice(numbers)
            number = str(int(m.group()) + rng.choice((-1, 1, 10)))
            lines[i] = line[: m.start()] + number + line[m.end() :]
    elif kind == 3:
        del lines[i]
    elif kind == 4:
        lines.insert(i, line)
    elif kind == 5:  # moved a few lines down
        moved = lines.pop(i)
        lines.insert(min(len(lines), i + rng.randrange(1, 4)), moved)
    elif kind == 6:
        lines.insert(i, "# a comment")
    else:
        lines[i] = line.replace(" ", "  ", 1) + rng.choice(("", " ", " # note"))
    return lines


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.integers(min_value=1, max_value=3))
def test_damaged_games_get_the_same_verdicts(rng: random.Random, changes: int) -> None:
    lines = LINES
    for _ in range(changes):
        lines = damage(lines, rng)
    text = "\n".join(lines)
    assert outcome(text, True) == outcome(text, False)


def test_check_reference_replay_writes_the_same_report(tmp_path: Path) -> None:
    path = tmp_path / "games.btn"
    lines = LINES
    for seed in range(6):  # a few wrong claims and illegal cards among passing hands
        lines = damage(lines, random.Random(seed))
    path.write_text("\n".join(lines), encoding="utf-8")
    reports = []
    for extra in ([], ["--reference-replay"]):
        out, err = io.StringIO(), io.StringIO()
        code = main(["check", str(path), "--jobs", "1", "--format", "json", *extra], out, err)
        reports.append((code, out.getvalue()))
    assert reports[0] == reports[1]
    assert '"status":"pass"' in reports[0][1] and reports[0][0] in (1, 2)


_FIRST_HAND = GAMES[: GAMES.index("\nhand 2\n") + 1]


@pytest.mark.parametrize(
    ("after", "lines"),
    [
        ("faceup ", ["kawesh N"]),
        ("trick 5:", ["sawa W"]),
        ("trick 5:", ["sawa W", "= sawa right"]),
        ("trick 2:", ["foul N t2.p1"]),
        ("trick 2:", ["foul N t2.p1", "= foul wrong"]),
    ],
)
def test_the_lane_leaves_table_talk_to_the_reference_path(after: str, lines: list[str]) -> None:
    """A hand with a foul call, a Sawa, a Kawesh or a verdict on one is not the lane's: it
    gives up before replaying anything (the hands are not checked here: the rules do not
    judge those statements yet)."""

    def lane(text: str) -> tuple[bool, int]:
        with btn.TranscriptReader.from_text(text, "t.btn") as reader:
            chunk = next(reader.chunks())
            builder = reader.builder(chunk)
            game = Game(SAUDI, dealer=0)
            judged = fast_lane._judge(chunk, builder, SAUDI, "t.btn", "saudi@1", game, None, None)
            return judged is not None, len(builder.items)

    assert lane(_FIRST_HAND)[0]  # the hand as generated is the lane's
    at = _FIRST_HAND.index("\n", _FIRST_HAND.index("\n" + after) + 1) + 1
    text = _FIRST_HAND[:at] + "".join(line + "\n" for line in lines) + _FIRST_HAND[at:]
    btn.parse_transcript(text)  # structurally valid
    assert lane(text) == (False, 0)
