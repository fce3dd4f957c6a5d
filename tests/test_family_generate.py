"""``generate --ruleset bourre``: seeded BTN 2 sessions from the family engine's playouts, read
back by the BTN 2 reader, canonical, deterministic, and refused options named."""

from __future__ import annotations

import io
import re

import pytest

from baloot_conformance.cli import main
from baloot_conformance.family.btn.reader import read_btn2
from baloot_conformance.family.btn.writer import format_btn2
from baloot_conformance.family.check.run import check_btn2
from baloot_conformance.family.corpus.generate import generate_games, generate_session
from baloot_conformance.family.rules.loading import load_trick_ruleset
from baloot_conformance.family.rules.model import TrickRuleset


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def bourre() -> TrickRuleset:
    return load_trick_ruleset("bourre")


def test_the_command_line_writes_a_session_the_checker_passes() -> None:
    code, text, err = run(
        "generate", "--ruleset", "bourre", "--players", "5", "--hands", "10", "--seed", "3"
    )
    assert (code, err) == (0, "")
    assert text.startswith('%btn 2\n[Ruleset "bourre@1"]\n[Seats "P1 P2 P3 P4 P5"]\n')
    assert '[Seed "3"]' in text
    assert re.findall(r"^hand (\d+)$", text, re.M) == [str(k) for k in range(1, 11)]
    assert text.count("\nstart pot 0\n") == 1  # one session: only its first hand starts it
    assert text.count("\ndealer ") == 10 and text.count("\n= score ") == 10
    verdicts = list(check_btn2(text, "gen.btn"))
    assert [v.status for v in verdicts] == ["pass"] * 10


def test_the_same_seed_gives_the_same_bytes_and_another_seed_another_session(
    bourre: TrickRuleset,
) -> None:
    one = "".join(generate_session(bourre, 6, 4, 11))
    assert one == "".join(generate_session(bourre, 6, 4, 11))
    assert one != "".join(generate_session(bourre, 6, 4, 12))
    code, text, _ = run("generate", "--ruleset", "bourre", "--players", "6", "--hands", "4")
    assert code == 0 and text != one and text == "".join(generate_session(bourre, 6, 4, 0))


def test_a_generated_session_is_canonical_btn2(bourre: TrickRuleset) -> None:
    text = "".join(generate_session(bourre, 7, 5, 4, legal=True))
    transcript = read_btn2(text, "gen.btn", lambda ref, where: bourre)
    assert len(transcript.hands) == 5
    assert format_btn2(transcript) == text


def test_legal_claims_come_before_every_card_and_are_checked(bourre: TrickRuleset) -> None:
    text = "".join(generate_session(bourre, 4, 3, 8, legal=True))
    plays = sum(line.count(":") for line in text.splitlines() if line.startswith("trick "))
    assert plays > 0 and text.count("\n= legal ") == plays
    verdicts = list(check_btn2(text, "gen.btn"))
    assert all(v.status == "pass" for v in verdicts)
    assert sum(v.claims for v in verdicts) > plays


def test_several_games_start_each_session_and_number_hands_on(bourre: TrickRuleset) -> None:
    text = "".join(generate_games(bourre, 3, 2, 5, 3))
    assert text.count("\nstart pot 0\n") == 3
    assert re.findall(r"^hand (\d+)$", text, re.M) == ["1", "2", "3", "4", "5", "6"]
    assert [v.status for v in check_btn2(text, "gen.btn")] == ["pass"] * 6


@pytest.mark.parametrize(
    "ruleset",
    ["bourre-wikipedia", "bourre-hoyle", "bourre-cpusonicatt", "bourre-jorisl", "bourre-eighty"],
)
def test_every_profile_names_itself_in_the_header(ruleset: str) -> None:
    code, text, err = run("generate", "--ruleset", ruleset, "--players", "4", "--hands", "3")
    assert (code, err) == (0, "")
    assert f'[Ruleset "{ruleset}@1"]' in text
    assert [v.status for v in check_btn2(text, "gen.btn")] == ["pass"] * 3


def test_a_two_round_draw_writes_bids_without_discards() -> None:
    code, text, _ = run("generate", "--ruleset", "bourre-hoyle", "--players", "6", "--hands", "4")
    assert code == 0
    bids = re.findall(r"^bid P\d (play.*|pass)$", text, re.M)
    assert "play" in bids and not any(b.startswith("play ") for b in bids)
    code, text, _ = run("generate", "--ruleset", "bourre", "--players", "6", "--hands", "4")
    assert re.search(r"^bid P\d play \d$", text, re.M)


def test_players_outside_the_table_are_refused_naming_the_range() -> None:
    code, out, err = run("generate", "--ruleset", "bourre-hoyle", "--players", "8")
    assert (code, out) == (2, "")
    assert err == "error: --players 8: bourre-hoyle is played by 2 to 7 players\n"
    code, _, err = run("generate", "--ruleset", "bourre", "--players", "1")
    assert code == 2 and "bourre is played by 2 to 8 players" in err


def test_baloot_options_are_refused_under_a_trick_ruleset() -> None:
    code, out, err = run("generate", "--ruleset", "bourre", "--sawa", "0.2", "--rich-deals")
    assert (code, out) == (2, "")
    assert err.startswith("error: --rich-deals, --sawa: Baloot's options; bourre is a trick")
    assert "--players" in err and len(err.splitlines()) == 1


def test_players_is_refused_under_a_baloot_ruleset() -> None:
    code, out, err = run("generate", "--ruleset", "saudi", "--players", "5")
    assert (code, out) == (2, "")
    assert err.startswith("error: --players is for trick rulesets")


def test_the_default_table_fits_the_ruleset() -> None:
    code, text, _ = run("generate", "--ruleset", "bourre-jorisl", "--hands", "1")
    assert code == 0 and '[Seats "P1 P2 P3 P4 P5"]' in text
    assert re.findall(r"^hand \d+$", text, re.M) == ["hand 1"]


@pytest.mark.parametrize(("ruleset", "hands"), [("bourre", 10), ("barbu", 28)])
def test_without_hands_a_whole_game_or_a_session(ruleset: str, hands: int) -> None:
    from baloot_conformance.cli import generate_commands
    from baloot_conformance.family.corpus.generate import SESSION_HANDS, whole_game

    # the help text's number, kept by the command line without importing the family
    assert generate_commands._FAMILY_HANDS == SESSION_HANDS
    assert whole_game(load_trick_ruleset(ruleset)) == hands
    code, text, _ = run("generate", "--ruleset", ruleset, "--seed", "2")
    assert code == 0 and len(re.findall(r"^hand \d+$", text, re.M)) == hands
