"""``infer``: generated games of every shipped profile are explained best by that profile (or
by rulesets the games cannot tell from it), and the rules they never exercised are named."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from baloot_conformance import btn
from baloot_conformance.cli import main
from baloot_conformance.compare.diff import diff_rulesets
from baloot_conformance.compare.inference import infer
from baloot_conformance.corpus.generate import generate_games
from baloot_conformance.engine.playout import Policy
from baloot_conformance.rules.loading import isolate, load_ruleset, shipped_rulesets

ALL = [load_ruleset(name) for name in shipped_rulesets()]
#: 20 short games per profile, as many Hokum as Sun hands, raised often.
POLICY = Policy(contracts={"sun": 1, "hokum": 1}, raise_chance=0.5)


def games(name: str) -> list[tuple[str, list[btn.Hand]]]:
    text = "".join(generate_games(load_ruleset(name), seed=11, games=20, hands=2, policy=POLICY))
    with btn.TranscriptReader(io.StringIO(text), f"{name}.btn") as reader:
        return [(f"{name}.btn", list(reader))]


@pytest.mark.parametrize("name", list(shipped_rulesets()))
def test_infer_names_the_profile_that_generated_the_games(name: str) -> None:
    result = infer(games(name), ALL, ALL)
    me = load_ruleset(name)
    label = f"{me.id}@{me.version}"
    assert label in result.best, (label, result.ranking[:3])
    assert result.ranking[0].failed == 0
    # Every ruleset tied at the top differs from this one only in rules the games never
    # exercised: a rule that tells them apart would have failed some hand.
    unexercised = {rule_id for rule_id, _ in result.unexercised}
    assert unexercised, "20 games never exercise every option of every rule"
    for other in ALL:
        if f"{other.id}@{other.version}" in result.best and other.id != me.id:
            for difference in diff_rulesets(me, other):
                single = isolate(me, {difference.rule_id: difference.rule_b})
                if single is not None:
                    assert difference.rule_id in unexercised, difference.rule_id


def test_infer_proposes_an_overlay_for_an_engine_that_fits_no_profile(tmp_path: Path) -> None:
    # Games of saudi with a free under-ruff: no shipped ruleset has exactly that.
    saudi = load_ruleset("saudi")
    rule = dict(saudi.document["play"]["hokum.underruff"], option="free")
    engine = isolate(saudi, {"play.hokum.underruff": rule})
    assert engine is not None
    path = tmp_path / "engine.btn"
    policy = Policy(contracts={"hokum": 1})
    path.write_text("".join(generate_games(engine, seed=5, games=20, hands=3, policy=policy)))

    def infer_cli(*extra: str) -> tuple[int, str]:
        out = io.StringIO()
        argv = ["infer", str(path), "--rulesets", "saudi,kammelna,jawaker", "--quiet", *extra]
        return main(argv, stdout=out, stderr=io.StringIO()), out.getvalue()

    code, text = infer_cli()
    assert code == 1  # no candidate explains every hand ...
    assert "best fit: saudi@" in text and "the overlay:" in text
    code, out = infer_cli("--format", "json")
    report = json.loads(out)
    assert report["best"][0] == "saudi@1.2.0" and report["ranking"][0]["failed"] > 0
    # ... but the overlay it prints does: saved as a profile, every hand passes.
    overlay = tmp_path / "overlay.yaml"
    overlay.write_text(report["overlay_yaml"], encoding="utf-8")
    profile = load_ruleset(overlay)
    assert profile.lineage[-1] == "saudi"
    code = main(["check", str(path), "--ruleset", str(overlay)], stdout=io.StringIO())
    assert code == 0


#: Games whose players claim Sawa, play fouls that stand, call fouls and Kawesh where the
#: ruleset lets them, so that the table talk's rules show in the transcripts.
TALK = Policy(sawa=0.3, fouls=0.3, foul_calls=0.3, kawesh=0.4, rich_deals=True)


@pytest.mark.parametrize(
    ("rule_id", "parameter", "value"),
    [
        ("claims.sawa", "who", "on_turn"),
        ("play.fouls", "option", "stand_until_called"),
        ("deal.kawesh", "option", "same_dealer"),
    ],
)
def test_infer_names_the_table_talk_option_an_engine_plays(
    rule_id: str, parameter: str, value: str
) -> None:
    # An engine that plays saudi but for one rule of table talk: a Sawa from the player on
    # turn in the middle of a trick, an illegal card that stands until called, a Kawesh.
    saudi = load_ruleset("saudi")
    section, _, key = rule_id.partition(".")
    rule = dict(saudi.document[section][key], **{parameter: value})
    engine = isolate(saudi, {rule_id: rule})
    assert engine is not None
    text = "".join(generate_games(engine, seed=5, games=20, hands=3, policy=TALK))
    with btn.TranscriptReader(io.StringIO(text), "engine.btn") as reader:
        transcripts = [("engine.btn", list(reader))]
    result = infer(transcripts, ALL, ALL)
    assert result.best[0] == f"{saudi.id}@{saudi.version}"
    assert result.ranking[0].failed > 0  # saudi itself does not explain the table talk ...
    # ... and the one change that does is that option.
    assert [v.label for v in result.overlay] == [f"{rule_id}.{parameter}={value}"]
    assert result.overlay_fit is not None and result.overlay_fit.failed == 0
