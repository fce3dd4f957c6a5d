"""Table talk judged: Sawa claims, foul calls and Kawesh calls replayed as events with verdicts.

The transcripts are generated under rulesets that allow each claim (the generator claims a
Sawa the solver finds right, and a wrong one now and then; plays illegal cards where they
stand; calls fouls right and wrong; claims Kawesh), then checked under those rulesets, under
``saudi``, and with one word changed.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from talk_rulesets import ON_TURN, SAUDI, TALK

from baloot_conformance import btn
from baloot_conformance.check.run import check_hands
from baloot_conformance.check.verdicts import HandVerdict
from baloot_conformance.cli import main
from baloot_conformance.corpus.generate import generate_games
from baloot_conformance.engine.playout import Policy
from baloot_conformance.rules.loading import load_ruleset
from baloot_conformance.rules.ruleset import Ruleset

HEAD = '%btn 1\n[Ruleset "saudi@1"]\n\n'
TALK_POLICY = Policy(sawa=0.15, fouls=0.2, foul_calls=0.3, kawesh=0.4, rich_deals=True)


def check(text: str, ruleset: Ruleset) -> list[HandVerdict]:
    with btn.TranscriptReader(io.StringIO(text), "talk.btn") as reader:
        return list(check_hands(reader, "talk.btn", ruleset))


def roots(verdicts: list[HandVerdict]) -> dict[str, tuple[str, str | None, str]]:
    """Each failing hand's root divergence: position, rule ID and message."""
    found = {}
    for verdict in verdicts:
        assert verdict.status != "error", (verdict.position, verdict.error)
        for d in verdict.divergences:
            if d.root:
                found[verdict.position] = (d.position, d.rule_id, d.message)
    return found


def hands_of(text: str) -> Iterator[tuple[str, str]]:
    """Each hand of a transcript: its position and its lines."""
    for block in re.split(r"\n(?=hand \d+\n)", text):
        head = re.match(r"hand (\d+)\n", block)
        if head:
            yield f"h{head.group(1)}", block


@pytest.fixture(scope="module")
def corpus() -> str:
    """200 generated games under TALK, with Sawa, standing fouls, foul calls and Kawesh."""
    return "".join(generate_games(TALK, 25, games=200, hands=6, policy=TALK_POLICY))


def test_a_generated_corpus_with_table_talk_passes_under_its_ruleset(corpus: str) -> None:
    verdicts = check(corpus, TALK)
    assert verdicts and all(v.status == "pass" for v in verdicts), roots(verdicts)
    counts = {word: corpus.count(word) for word in ("\nsawa ", "\nkawesh ", "\nfoul ")}
    counts |= {w: corpus.count(w) for w in ("= sawa right", "= sawa wrong", "= foul right")}
    counts["= foul wrong"] = corpus.count("= foul wrong")
    assert min(counts.values()) >= 10, counts  # every kind of talk, right and wrong
    assert sum(bool(v.latent_fouls) for v in verdicts) >= 5  # fouls that stood, never called


def test_under_saudi_it_fails_exactly_where_the_talk_is(corpus: str) -> None:
    """Saudi refuses an illegal card and has no Kawesh: every hand holding either fails there
    first, and no other hand fails (saudi judges the Sawa claims and foul calls alike)."""
    found = roots(check(corpus, SAUDI))
    verdicts = {v.position: v for v in check(corpus, TALK)}
    expected = {}
    for position, block in hands_of(corpus):
        first = None
        if "\nkawesh " in block:
            first = f"{position}.kawesh"
        else:
            fouls = _fouled(block, verdicts[position], position)
            first = fouls[0] if fouls else None
        if first is not None:
            expected[position] = first
    sawa_only = [p for p, b in hands_of(corpus) if "\nsawa " in b and p not in expected]
    assert len(expected) >= 20 and len(sawa_only) >= 10
    assert {p: root[0] for p, root in found.items()} == expected
    for position, (_, rule_id, _) in found.items():
        if expected[position].endswith(".kawesh"):
            assert rule_id == "deal.kawesh"
        else:
            assert rule_id is not None and rule_id.startswith("play.")


def _fouled(block: str, verdict: HandVerdict, position: str) -> list[str]:
    """The positions of the cards of one hand that broke a play rule (its latent fouls, and
    those a right call named), in play order."""
    stood = [f.split(" ")[0] for f in verdict.latent_fouls]
    called = re.findall(r"\nfoul [NWSE] (t\d\.p\d)\n= foul right", block)
    return sorted({*stood, *(f"{position}.{t}" for t in called)}, key=_play_order)


def _play_order(position: str) -> tuple[int, int]:
    trick, place = re.findall(r"t(\d+)\.p(\d)", position)[0]
    return int(trick), int(place)


# --- one word changed ------------------------------------------------------------------------


def _first_hand_with(corpus: str, needle: str) -> str:
    return next(HEAD + b for _, b in hands_of(corpus) if needle in b and "start" in b)


def test_an_engine_that_misjudges_its_sawa_is_a_wrong_claim_quoting_the_line(
    corpus: str,
) -> None:
    right = _first_hand_with(corpus, "= sawa right")
    verdict = check(right.replace("= sawa right", "= sawa wrong"), TALK)[0]
    root = next(d for d in verdict.divergences if d.root)
    assert root.position.endswith(".sawa.verdict") and root.rule_id == "claims.sawa"
    assert root.expected == "right" and "the forcing order: t" in root.message
    wrong = _first_hand_with(corpus, "= sawa wrong")
    verdict = check(wrong.replace("= sawa wrong", "= sawa right"), TALK)[0]
    root = next(d for d in verdict.divergences if d.root)
    assert root.expected == "wrong" and re.search(r"and wins it: line t\d", root.message)


def test_a_sawa_out_of_its_window_is_a_divergence_under_claims_sawa() -> None:
    """Saudi lets only the player to lead claim; a claim in mid-trick breaks claims.sawa."""
    policy = Policy(sawa=0.3)
    games = "".join(generate_games(ON_TURN, 3, games=30, hands=2, policy=policy))
    assert all(v.status == "pass" for v in check(games, ON_TURN))
    found = roots(check(games, SAUDI))
    mid_trick = [p for p, b in hands_of(games) if re.search(r"\nplay [NWSE] \w+\nsawa ", b)]
    assert len(mid_trick) >= 3
    for position in mid_trick:
        at, rule_id, message = found[position]
        assert at == f"{position}.sawa" and rule_id == "claims.sawa"
        assert "only the player to lead may" in message


def test_a_wrong_foul_call_scores_for_the_accused_side(corpus: str) -> None:
    hand = _first_hand_with(corpus, "= foul wrong")
    verdict = check(hand.replace("= foul wrong", "= foul right"), TALK)[0]
    root = next(d for d in verdict.divergences if d.root)
    assert root.rule_id == "play.fouls" and "that card was legal" in root.message


def test_a_latent_foul_is_reported_in_every_format(corpus: str, tmp_path: Any) -> None:
    hand = next(
        HEAD + b
        for p, b in hands_of(corpus)
        if "start" in b and check(HEAD + b, TALK)[0].latent_fouls
    )
    path = tmp_path / "latent.btn"
    path.write_text(hand, encoding="utf-8")
    ruleset = tmp_path / "talk.yaml"
    ruleset.write_text(_profile_text(), encoding="utf-8")
    out = io.StringIO()
    code = main(["check", str(path), "--ruleset", str(ruleset)], stdout=out, stderr=io.StringIO())
    assert code == 0 and "latent foul, never called: h1.t" in out.getvalue()
    out = io.StringIO()
    code = main(
        ["check", str(path), "--ruleset", str(ruleset), "--format", "json"],
        stdout=out,
        stderr=io.StringIO(),
    )
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    (record,) = [r for r in records if r["record"] == "hand"]
    assert code == 0 and record["latent_fouls"][0].startswith("h1.t")
    out = io.StringIO()
    argv = ["check", str(path), "--ruleset", str(ruleset), "--format", "markdown"]
    assert main(argv, stdout=out, stderr=io.StringIO()) == 0
    section = out.getvalue().split("### Latent fouls (illegal cards that stood, never called)")
    assert len(section) == 2 and section[1].lstrip().startswith("- `")
    assert record["latent_fouls"][0].split(" ")[0] in section[1]
    code = main(["check", str(path)], stdout=io.StringIO(), stderr=io.StringIO())
    assert code == 1  # saudi refuses the card


def _profile_text() -> str:
    return (
        "format: baloot-ruleset/1\nid: talk\nversion: '1.0.0'\nextends: saudi@1\n"
        "play:\n  fouls:\n    statement: An illegal card stands until called.\n"
        "    sources: [TZ-ENG]\n    option: stand_until_called\n    callers: opponents\n"
        "    window: hand_end\n    right_call: round_value * level + projects\n"
        "    wrong_call: round_value * level + projects\n"
    )


# --- bad input ---------------------------------------------------------------------------------


def test_bad_table_talk_is_one_line_with_its_place(tmp_path: Any) -> None:
    hand = next(
        text
        for seed in range(50)
        if "trick 8:" in (text := "".join(generate_games(SAUDI, seed, hands=1)))
        and "\ntrick 2:" in text
    )
    assert roots(check(hand, SAUDI)) == {}
    cases = {
        "sawa after the last trick": (hand.replace("\n= abnat", "\nsawa N\n= abnat", 1), 2),
        "a foul call on a card not played yet": (
            re.sub(r"(\ntrick 2: [^\n]*)", r"\1\nfoul N t5.p1", hand, count=1),
            2,
        ),
        "a foul call on a trick that does not exist": (
            re.sub(r"(\ntrick 2: [^\n]*)", r"\1\nfoul N t9.p1", hand, count=1),
            2,
        ),
    }
    for name, (text, want) in cases.items():
        path = tmp_path / "bad.btn"
        path.write_text(text, encoding="utf-8")
        out, err = io.StringIO(), io.StringIO()
        code = main(["check", str(path)], stdout=out, stderr=err)
        report = out.getvalue() + err.getvalue()
        assert code == want, (name, report)
        assert re.search(r"bad\.btn:\d+:\d+:", report), (name, report)
        assert "Traceback" not in report


def test_a_kawesh_after_the_auction_is_a_divergence_under_deal_kawesh(corpus: str) -> None:
    hand = _first_hand_with(corpus, "trick 2:")
    seat = re.search(r"\ntrick 2: ([NWSE])", hand)
    assert seat is not None
    text = hand.replace("\ntrick 2:", f"\nkawesh {seat.group(1)}\ntrick 2:", 1)
    ((position, rule_id, message),) = roots(check(text, TALK)).values()
    assert position.endswith(".kawesh") and rule_id == "deal.kawesh"
    assert "after the auction" in message


def test_generate_makes_table_talk_at_the_rates_given(tmp_path: Any) -> None:
    ruleset = tmp_path / "talk.yaml"
    ruleset.write_text(_profile_text(), encoding="utf-8")
    games = tmp_path / "talk.btn"
    argv = ["generate", "--ruleset", str(ruleset), "--games", "20", "--hands", "3", "-o"]
    rates = ["--sawa", "0.3", "--fouls", "0.3", "--foul-calls", "0.5", "--kawesh", "0.5"]
    err = io.StringIO()
    assert main([*argv, str(games), *rates, "--rich-deals"], io.StringIO(), err) == 0
    # the profile lets fouls stand but has no Kawesh: the command says so
    assert err.getvalue() == "note: --kawesh makes nothing under talk: deal.kawesh is disabled\n"
    text = games.read_text(encoding="utf-8")
    assert "\nsawa " in text and "\nfoul " in text and "\nkawesh " not in text
    out = io.StringIO()
    assert main(["check", str(games), "--ruleset", str(ruleset)], out, io.StringIO()) == 0
    plain = tmp_path / "plain.btn"
    assert main([*argv, str(plain)], io.StringIO(), io.StringIO()) == 0
    text = plain.read_text(encoding="utf-8")
    assert "\nsawa " not in text and "\nfoul " not in text  # the rates default to 0


def test_a_kawesh_written_as_a_call_in_btn_1_0_is_still_a_kawesh() -> None:
    """Old transcripts keep their verdicts: 'bid E kawesh' is read as 'kawesh E'."""
    ja = load_ruleset("wikipedia-ja")
    text = next(
        t
        for seed in range(400)
        if "\nkawesh " in (t := "".join(generate_games(ja, seed, hands=1, policy=TALK_POLICY)))
    )
    old = re.sub(r"\nkawesh ([NWSE])\n", r"\nbid \1 kawesh\n", text)
    assert old != text and roots(check(old, ja)) == {} and roots(check(text, ja)) == {}
    found = roots(check(old, SAUDI))
    ((at, rule, _),) = found.values()
    assert re.fullmatch(r"h1\.bid\d", at) and rule == "deal.kawesh"
