"""``check`` and ``generate`` from the command line: exit codes, inputs, formats, parallelism."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import junitparser
import pytest

from baloot_conformance.cli import main
from baloot_conformance.resources import spec_path

ROOT = Path(__file__).resolve().parent.parent
WORKED = ROOT / "fixtures" / "scoring" / "worked-hand.btn"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def with_jobs(*files: str) -> tuple[tuple[int, str, str], tuple[int, str, str]]:
    """``check --format json`` of ``files`` with --jobs 1 and with --jobs 2."""
    one = run("check", *files, "--jobs", "1", "--format", "json")
    return one, run("check", *files, "--jobs", "2", "--format", "json")


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Three generated game files and one with a wrong claim in its third hand."""
    folder = tmp_path_factory.mktemp("games")
    files = []
    for seed in (1, 2, 3):
        path = folder / f"game-{seed}.btn"
        assert run("generate", "--seed", str(seed), "--output", str(path))[0] == 0
        files.append(path)
    text = files[0].read_text(encoding="utf-8")
    lines = text.split("\n")
    third = [i for i, line in enumerate(lines) if line.startswith("= score ")][2]
    lines[third] = lines[third].replace("= score NS ", "= score NS 1")
    bad = folder / "bad.btn"
    bad.write_text("\n".join(lines), encoding="utf-8")
    files.append(bad)
    return files


def test_a_conforming_game_exits_0(games: list[Path]) -> None:
    code, out, err = run("check", str(games[0]))
    assert (code, err) == (0, "")
    assert out.startswith(f"PASS {games[0]}")
    assert out.rstrip().endswith("(0 divergences)")


def test_a_wrong_claim_exits_1_with_its_position(games: list[Path]) -> None:
    code, out, _ = run("check", str(games[3]), "--no-color")
    assert code == 1
    first = out.splitlines()[0]
    assert first.startswith(f"{games[3]}:") and ".score " in first and "(root)" in first
    assert "FAIL" in out


def test_unreadable_input_exits_2(tmp_path: Path) -> None:
    # The text report says it on standard output (and nothing twice on the terminal).
    code, out, err = run("check", str(tmp_path / "missing.btn"))
    assert code == 2 and "no such file" in out.lower() and not err
    not_btn = tmp_path / "notes.btn"
    not_btn.write_text("hello\n", encoding="utf-8")
    code, out, err = run("check", str(not_btn))
    assert code == 2 and f"{not_btn}:1:1" in out and "Traceback" not in out + err
    code, _, err = run("check", str(not_btn), "--format", "json")
    assert code == 2 and f"{not_btn}:1:1" in err  # a machine report: stderr says it too


def test_usage_errors_exit_2() -> None:
    assert run("check", str(WORKED), "--require", "abnat,colour")[0] == 2
    assert run("check", str(WORKED), "--jobs", "0")[0] == 2
    assert run("check", str(WORKED), "--ruleset", "saudy")[0] == 2


def test_globs_and_stdin(games: list[Path]) -> None:
    code, out, _ = run("check", str(games[0].parent / "game-*.btn"))
    assert code == 0 and out.count("PASS ") == 3
    result = subprocess.run(
        [sys.executable, "-m", "baloot_conformance", "check", "-"],
        input=WORKED.read_bytes(),
        capture_output=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode().startswith("PASS -  1 hand")


def test_jobs_do_not_change_the_report(games: list[Path]) -> None:
    files = [str(path) for path in games]
    one, two = with_jobs(*files)
    assert one[0] == two[0] == 1
    assert one[1] == two[1]


def test_one_file_of_one_game_is_checked_in_process_with_jobs(tmp_path: Path) -> None:
    """Nothing to share out: --jobs 2 streams it here, with the same report and errors."""
    one, two = with_jobs(str(WORKED))
    assert one == two
    broken = tmp_path / "broken.btn"
    broken.write_text(WORKED.read_text(encoding="utf-8") + "trick 9: N AS\n", encoding="utf-8")
    one, two = with_jobs(str(broken))
    assert one == two
    assert two[0] == 2 and f"{broken}:" in two[2]


def test_fail_fast_stops_at_the_first_failing_hand(games: list[Path]) -> None:
    code, out, _ = run("check", str(games[3]), str(games[0]), "--fail-fast", "--format", "json")
    records = [json.loads(line) for line in out.splitlines()]
    hands = [r for r in records if r["record"] == "hand"]
    assert code == 1
    assert [h["status"] for h in hands] == ["pass", "pass", "fail"]


def test_require_turns_missing_claims_into_failures(tmp_path: Path) -> None:
    text = WORKED.read_text(encoding="utf-8").replace("= abnat NS 92 EW 70\n", "")
    path = tmp_path / "no-abnat.btn"
    path.write_text(text, encoding="utf-8")
    assert run("check", str(path))[0] == 0
    code, out, _ = run("check", str(path), "--require", "abnat,score", "--no-color")
    assert code == 1 and "h1.abnat" in out and "--require" in out


def test_json_lines_validate_against_the_shipped_schema(games: list[Path]) -> None:
    schema = json.loads(spec_path("schema", "report.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    code, out, _ = run("check", *map(str, games), "--format", "json", "--ruleset", "saudi")
    records = [json.loads(line) for line in out.splitlines()]
    for record in records:
        validator.validate(record)
    assert records[0]["record"] == "header" and records[0]["ruleset"]["id"] == "saudi"
    assert records[-1]["record"] == "summary" and records[-1]["ok"] is False
    assert code == 1


def test_junit_is_well_formed(games: list[Path], tmp_path: Path) -> None:
    report = tmp_path / "report.xml"
    code, out, _ = run("check", *map(str, games), "--format", "junit", "--output", str(report))
    assert code == 1 and out == ""
    root = ET.parse(report).getroot()
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    assert len(suites) == 4
    assert int(root.get("failures", "0")) == 1
    assert sum(int(s.get("tests", "0")) for s in suites) == int(root.get("tests", "0"))
    parsed = junitparser.JUnitXml.fromfile(str(report))
    assert sum(suite.tests for suite in parsed) == int(root.get("tests", "0"))


def test_markdown_summary(games: list[Path]) -> None:
    code, out, _ = run("check", *map(str, games), "--format", "markdown")
    assert code == 1 and out.startswith("## ❌")
    assert "| file | hands | passed | failed | errors |" in out


def test_generate_is_deterministic_and_checks(tmp_path: Path) -> None:
    a = run("generate", "--ruleset", "kammelna", "--seed", "9", "--games", "2", "--legal")
    b = run("generate", "--ruleset", "kammelna", "--seed", "9", "--games", "2", "--legal")
    assert a == b and a[0] == 0
    path = tmp_path / "k.btn"
    path.write_text(a[1], encoding="utf-8")
    assert run("check", str(path))[0] == 0
    assert run("fmt", "--check", str(path))[0] == 0


def test_check_help_documents_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--help"]) == 0
    text = capsys.readouterr().out
    assert "exit codes: 0" in text and "--require" in text


def test_jobs_split_one_file_by_games_without_changing_the_report(tmp_path: Path) -> None:
    path = tmp_path / "many.btn"
    assert run("generate", "--seed", "5", "--games", "20", "--output", str(path))[0] == 0
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    late = [i for i, line in enumerate(lines) if line.startswith("= score ")][-5]
    lines[late] = lines[late].replace("= score NS ", "= score NS 9")  # a failure near the end
    path.write_text("\n".join(lines), encoding="utf-8")
    one, two = with_jobs(str(path))
    assert one[0] == two[0] == 1
    assert one[1] == two[1]
    assert one[1].count('"record":"hand"') > 100


def test_a_hand_number_repeated_in_another_game_is_found_with_jobs(tmp_path: Path) -> None:
    path = tmp_path / "repeated.btn"
    assert run("generate", "--seed", "7", "--games", "30", "--output", str(path))[0] == 0
    lines = path.read_text(encoding="utf-8").split("\n")
    last = max(i for i, line in enumerate(lines) if line.startswith("hand "))
    lines[last] = "hand 2"  # hand 2 is in the first game, far from this one
    path.write_text("\n".join(lines), encoding="utf-8")
    one, two = with_jobs(str(path))
    assert one[0] == two[0] == 2
    assert f"{path}:{last + 1}:1: a second 'hand 2'" in one[2]
    assert one[1:] == two[1:]


def test_a_syntax_error_late_in_a_split_file_keeps_its_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.btn"
    assert run("generate", "--seed", "6", "--games", "30", "--output", str(path))[0] == 0
    lines = path.read_text(encoding="utf-8").split("\n")
    bad = len(lines) - 20
    lines[bad] = "trick 9: N AS"  # not BTN
    path.write_text("\n".join(lines), encoding="utf-8")
    one, two = with_jobs(str(path))
    assert one[0] == two[0] == 2
    assert f"{path}:{bad + 1}:" in one[2]
    assert one[1:] == two[1:]


def test_generate_plays_the_contracts_asked_for(capsys: pytest.CaptureFixture[str]) -> None:
    from baloot_conformance.cli import main

    def contracts(*extra: str) -> list[str]:
        out = io.StringIO()
        assert main(["generate", "--seed", "4", "--games", "5", *extra], stdout=out) == 0
        return [
            line.split()[3]
            for line in out.getvalue().splitlines()
            if line.startswith("= contract ") and line != "= contract none"
        ]

    plain = contracts()
    hokum = contracts("--contracts", "hokum=1")
    assert plain.count("hokum") < plain.count("sun")  # plain random bidding favours Sun
    assert hokum and set(hokum) == {"hokum"}
    mixed = contracts("--contracts", "sun=1,hokum=1", "--raise-chance", "1")
    assert 0.3 < mixed.count("hokum") / len(mixed) < 0.7
    assert main(["generate", "--contracts", "clubs=1"], stdout=io.StringIO()) == 2
    assert "expected sun=W or hokum=W" in capsys.readouterr().err
