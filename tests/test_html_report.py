"""The HTML report quotes the ruleset a run used: a local ruleset that reuses a shipped id
(a copy of saudi.yaml with one number changed) is quoted by its own digest and rules, never
the shipped saudi's."""

from __future__ import annotations

import html
import io
import re
from pathlib import Path

from baloot_conformance.cli import main
from baloot_conformance.rules.loading import load_ruleset
from baloot_conformance.rules.ruleset import Ruleset

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "nonconforming-game.btn"
SHIPPED = load_ruleset("saudi")
LOCAL_WORDS = "A void player need not beat a trump already on the table (this copy's reading)."


def _local(tmp_path: Path) -> Path:
    """saudi.yaml with one number changed and one rule's statement reworded, still id saudi."""
    text = (ROOT / "spec" / "rulesets" / "saudi.yaml").read_text(encoding="utf-8")
    changed = text.replace("    game_points: 2\n", "    game_points: 3\n", 1)
    statement = SHIPPED.rule("play.hokum.overruff").statement
    changed = changed.replace(f'"{statement}"', f'"{LOCAL_WORDS}"', 1)
    assert changed.count(LOCAL_WORDS) == 1 and changed != text
    path = tmp_path / "my.yaml"
    path.write_text(changed, encoding="utf-8")
    return path


def _page(tmp_path: Path, *argv: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    page = tmp_path / "report.html"
    code = main(["check", *argv, "--format", "html", "-o", str(page), str(EXAMPLE)], out, err)
    assert code == 1, err.getvalue()  # the example fails on purpose
    return html.unescape(page.read_text(encoding="utf-8"))


def _hand_digests(page: str) -> list[str]:
    return re.findall(r"Ruleset saudi@[\d.]+, digest <code>(sha256:[0-9a-f]+)</code>", page)


def test_a_local_ruleset_with_a_shipped_id_is_quoted_by_its_own_digest(tmp_path: Path) -> None:
    local = load_ruleset(_local(tmp_path))
    assert local.id == SHIPPED.id and local.digest != SHIPPED.digest
    page = _page(tmp_path, "--ruleset", str(_local(tmp_path)))
    assert _hand_digests(page) and set(_hand_digests(page)) == {local.digest}
    assert SHIPPED.digest not in page
    # the shipped saudi's wording of the rule the hand breaks is not quoted for the copy's
    assert SHIPPED.rule("play.hokum.overruff").statement not in page


def test_the_shipped_ruleset_is_quoted_when_it_is_the_one_used(tmp_path: Path) -> None:
    page = _page(tmp_path, "--ruleset", "saudi")
    assert set(_hand_digests(page)) == {SHIPPED.digest}
    assert SHIPPED.rule("play.hokum.overruff").statement in page
    page = _page(tmp_path)  # the file's tag names saudi
    assert set(_hand_digests(page)) == {SHIPPED.digest}
    assert SHIPPED.rule("play.hokum.overruff").statement in page


def test_the_reporter_given_the_ruleset_used_quotes_its_rules(tmp_path: Path) -> None:
    from baloot_conformance.check.run import check_transcript
    from baloot_conformance.check.verdicts import RunHeader, RunSummary
    from baloot_conformance.report.html import HtmlReporter

    local: Ruleset = load_ruleset(_local(tmp_path))
    stream = io.StringIO()
    reporter = HtmlReporter(stream, ruleset=local)
    reporter.start(RunHeader("test", local.id, local.version, local.digest))
    verdicts = list(check_transcript(str(EXAMPLE), str(EXAMPLE), local, pictures=True))
    for verdict in verdicts:
        reporter.hand(verdict)
    failed = sum(v.status == "fail" for v in verdicts)
    reporter.finish(RunSummary(1, len(verdicts), len(verdicts) - failed, failed, 0, 0))
    page = html.unescape(stream.getvalue())
    assert LOCAL_WORDS in page and SHIPPED.rule("play.hokum.overruff").statement not in page
    assert set(_hand_digests(page)) == {local.digest}


def test_a_misjudged_sawa_is_drawn_at_the_claim_with_its_line(tmp_path: Path) -> None:
    """The table under the root divergence is the one at the claim (W to lead trick 6 with
    three cards a seat), and under it the verdict and the forcing order."""
    sawa = ROOT / "tests" / "data" / "table-talk" / "sawa.btn"
    path = tmp_path / "misjudged.btn"
    path.write_text(sawa.read_text(encoding="utf-8").replace("= sawa right", "= sawa wrong"))
    page = tmp_path / "report.html"
    code = main(["check", "--format", "html", "-o", str(page), str(path)], io.StringIO())
    assert code == 1
    text = html.unescape(page.read_text(encoding="utf-8"))
    assert '<figure class="diagram" data-hand="2" data-trick="6">' in text
    assert '<div class="seat-name">W (to play, claims Sawa)</div>' in text
    claims = re.findall(r'<p class="claim">([^<]*)</p>', text)
    assert claims == [
        "W claims Sawa with 3 tricks left",
        "W's Sawa is right: its own cards win every trick left against any defence; "
        "the forcing order: "
        "t6 W A♣, S J♦, E Q♣, N K♣; t7 W J♣, S 8♦, E K♦, N Q♦; t8 W 8♥, S 7♦, E A♦, N 10♦",
    ]
    assert text.count('title="AC"') == 1  # W's cards left, not the hand as it ended
