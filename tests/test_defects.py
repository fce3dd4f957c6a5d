"""Engine defects a profile lists (``defects:``): validated like ``unmodelled:``, and a hand
whose every divergence follows from one is ``known-defect`` in every report format, counted
apart from passes and failures; ``--fail-on-known-defects`` makes it fail the run.

The data: tazjel's logged match seed 50, whose hand 2 is dealt by a random seat (the engine's
``random-first-dealer`` defect).
"""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

from baloot_conformance.cli import main
from baloot_conformance.errors import SpecError
from baloot_conformance.importers import import_file
from baloot_conformance.report.rulebook_pages import render_pages
from baloot_conformance.rules.loading import load_ruleset

ROOT = Path(__file__).parent.parent
LOG = ROOT / "tests" / "data" / "peer-logs" / "tazjel" / "t50.json.gz"
SCHEMA = json.loads((ROOT / "spec" / "schema" / "report.schema.json").read_text("utf-8"))


@pytest.fixture(scope="module")
def match(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("defects") / "t50.btn"
    path.write_text(import_file("tazjel", LOG), encoding="utf-8")
    return path


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def profile(tmp_path: Path, defects: str, name: str = "mine") -> Path:
    """A profile over tazjel listing ``defects`` (YAML text of the list), in ``name.yaml``
    (a new name for each profile of a test: rulesets are loaded once per path)."""
    path = tmp_path / f"{name}.yaml"
    path.write_text(
        "format: baloot-ruleset/1\nid: mine\nversion: '1.0.0'\nextends: tazjel@2\n"
        f"defects:\n{defects}",
        encoding="utf-8",
    )
    return path


def test_a_hand_explained_by_a_listed_defect_is_known_defect_and_the_run_passes(
    match: Path,
) -> None:
    code, out, _ = run("check", str(match), "--ruleset", "tazjel")
    assert code == 0
    assert "h2 known defect (random-first-dealer)" in out
    assert f"KNOWN-DEFECT {match}  12 hands, 1 known defect, 1 divergence" in out
    assert out.rstrip().endswith(
        "1 file, 12 hands: 11 passed, 1 known defect, 0 failed, 0 errors (1 divergence)"
    )


def test_the_flag_makes_a_known_defect_fail_the_run(match: Path) -> None:
    code, out, _ = run("check", str(match), "--ruleset", "tazjel", "--fail-on-known-defects")
    assert code == 1
    assert f"FAIL {match}" in out and "(failures: --fail-on-known-defects)" in out


def test_fail_fast_stops_at_a_known_defect_only_when_it_fails_the_run(match: Path) -> None:
    _, out, _ = run("check", str(match), "--ruleset", "tazjel", "--fail-fast", "--format", "json")
    assert json.loads(out.splitlines()[-1])["hands"] == 12
    code, out, _ = run(
        "check", str(match), "--ruleset", "tazjel", "--fail-fast", "--fail-on-known-defects",
        "--format", "json",
    )  # fmt: skip
    summary = json.loads(out.splitlines()[-1])
    assert code == 1 and summary["hands"] == 2 and summary["stopped"] == f"{match} h2"


def test_the_json_report_names_the_defects_and_counts_them_apart(match: Path) -> None:
    _, out, _ = run("check", str(match), "--ruleset", "tazjel", "--format", "json")
    records = [json.loads(line) for line in out.splitlines()]
    for record in records:
        jsonschema.validate(record, SCHEMA)
    hands = {r["position"]: r for r in records if r["record"] == "hand"}
    assert hands["h2"]["status"] == "known-defect"
    assert hands["h2"]["defects"] == ["random-first-dealer"]
    assert hands["h2"]["divergences"][0]["rule_id"] == "deal.dealer.rotation"
    assert all(h["defects"] == [] for p, h in hands.items() if p != "h2")
    summary = records[-1]
    assert (summary["passed"], summary["known_defects"], summary["failed"]) == (11, 1, 0)
    assert summary["ok"] is True and summary["defects_fail"] is False


def test_the_schema_refuses_a_known_defect_without_its_defects(match: Path) -> None:
    _, out, _ = run("check", str(match), "--ruleset", "tazjel", "--format", "json")
    hand = next(json.loads(line) for line in out.splitlines() if '"known-defect"' in line)
    hand["defects"] = []
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(hand, SCHEMA)


def test_junit_skips_a_known_defect_or_fails_it_under_the_flag(match: Path) -> None:
    for flag, tag in (((), "skipped"), (("--fail-on-known-defects",), "failure")):
        _, out, _ = run("check", str(match), "--ruleset", "tazjel", "--format", "junit", *flag)
        root = ET.fromstring(out)
        case = next(c for c in root.iter("testcase") if c.get("name") == "h2")
        (element,) = list(case)
        assert element.tag == tag and element.get("type") == "known_defect"
        assert "random-first-dealer" in (element.get("message") or "")
        assert root.get("failures") == ("1" if flag else "0")
        assert root.get("skipped") == (None if flag else "1")


def test_markdown_and_html_count_known_defects_apart(match: Path) -> None:
    _, md, _ = run("check", str(match), "--ruleset", "tazjel", "--format", "markdown")
    assert md.startswith("## ✅ Baloot conformance: no failure, 1 known defect")
    assert "| file | hands | passed | known defects | failed |" in md
    assert "### Known engine defects (listed by the ruleset)" in md
    assert "### Divergences" not in md  # the defect's divergence is listed under it
    _, page, _ = run("check", str(match), "--ruleset", "tazjel", "--format", "html")
    assert '<td data-count="known_defects">1</td>' in page
    assert "with 1 known defect</span>" in page and "KNOWN-DEFECT <code>" in page


def test_one_divergence_no_defect_explains_makes_the_hand_fail(match: Path, tmp_path: Path) -> None:
    text = match.read_text(encoding="utf-8")
    hand2 = text.index("hand 2\n")
    score = text.index("= score ", hand2)
    end = text.index("\n", score)
    broken = tmp_path / "broken.btn"
    broken.write_text(text[:score] + "= score NS 0 EW 0" + text[end:], encoding="utf-8")
    code, out, _ = run("check", str(broken), "--ruleset", "tazjel", "--format", "json")
    hand = next(json.loads(line) for line in out.splitlines() if '"position":"h2"' in line)
    assert code == 1 and hand["status"] == "fail" and hand["defects"] == []


def test_defects_are_the_profiles_own_and_not_inherited(match: Path, tmp_path: Path) -> None:
    path = profile(
        tmp_path,
        "  - {id: other, rule: scoring.kaboot, does: 'something', witness: 'nowhere'}\n",
    )
    assert [d.id for d in load_ruleset(path).defects] == ["other"]
    code, out, _ = run("check", str(match), "--ruleset", str(path), "--format", "json")
    hand = next(json.loads(line) for line in out.splitlines() if '"position":"h2"' in line)
    assert code == 1 and hand["status"] == "fail"  # tazjel's defect is not mine
    path = profile(
        tmp_path,
        "  - {id: dealer, rule: game.target, shows: [deal.dealer.rotation], does: 'it', "
        "witness: 'here'}\n",
        "shows",
    )
    code, out, _ = run("check", str(match), "--ruleset", str(path), "--format", "json")
    hand = next(json.loads(line) for line in out.splitlines() if '"position":"h2"' in line)
    assert code == 0 and hand["defects"] == ["dealer"]  # explained through 'shows'


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (
            "  - {id: a, rule: play.follow_sute, does: it, witness: here}\n",
            "'play.follow_sute' is not a rule ID",
        ),
        (
            "  - {id: a, rule: play.follow_suit, shows: [scoring.kabot], does: it, witness: x1}\n",
            "'scoring.kabot' is not a rule ID",
        ),
        (
            "  - {id: a, rule: play.follow_suit, does: it, witness: here}\n"
            "  - {id: a, rule: scoring.kaboot, does: it, witness: here}\n",
            "defect 'a' is listed twice",
        ),
        ("  - {id: a, rule: play.follow_suit, does: it}\n", "'witness' is a required property"),
        ("  - {id: A b, rule: play.follow_suit, does: it, witness: here}\n", "does not match"),
    ],
)
def test_a_defect_entry_is_validated(tmp_path: Path, entry: str, message: str) -> None:
    with pytest.raises(SpecError) as caught:
        load_ruleset(profile(tmp_path, entry))
    text = str(caught.value) + "".join(str(p) for p in caught.value.problems)
    assert message in text and "mine.yaml:" in text


def test_the_rulebook_page_and_the_disagreements_page_list_the_defects() -> None:
    page = next(p for p in render_pages(["tazjel"], corpus=[]) if p.name == "tazjel.html")
    assert 'id="defect-random-first-dealer"' in page.html
    assert 'id="unmodelled"' in page.html
    # the committed page, which tests/test_disagreements.py keeps equal to the generated one
    committed = (ROOT / "docs" / "disagreements.md").read_text(encoding="utf-8")
    assert "| `deal.dealer.rotation` | `tazjel` | `random-first-dealer` |" in committed


def test_a_defect_explains_only_where_its_when_holds() -> None:
    # The example game follows the Saudi rotation: under tazjel its hand 5, after scored hands
    # and an all-pass, is dealt by the wrong seat, which tazjel's random first dealer (only
    # before the first scored hand) does not explain.
    game = ROOT / "examples" / "conforming-game.btn"
    _, out, _ = run("check", str(game), "--ruleset", "tazjel", "--format", "json")
    hand = next(json.loads(line) for line in out.splitlines() if '"position":"h5"' in line)
    assert hand["status"] == "fail"
    assert hand["divergences"][0]["rule_id"] == "deal.dealer.rotation"
