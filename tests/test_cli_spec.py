"""The command line: ``spec list|show|validate``, ``--help``, ``--version`` and exit codes."""

from __future__ import annotations

import importlib.metadata
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from baloot_conformance import __version__
from baloot_conformance.cli import main
from baloot_conformance.rules.loading import load_ruleset, shipped_rulesets


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_spec_list_names_every_shipped_ruleset() -> None:
    code, out, _ = run("spec", "list")
    assert code == 0
    baloot, _, tricks = out.partition("\n\ntrick rulesets (trick-ruleset/1):\n")
    listed = [line.split()[0] for line in baloot.splitlines()]
    assert listed == list(shipped_rulesets())
    assert "(extends saudi)" in out
    listed = [line.split()[0] for line in tricks.splitlines()]
    assert listed[:3] == ["barbu", "bourre", "hearts"]  # each game's common rules, then profiles
    assert "bourre-cajun" in listed and "barbu-seed" in listed


def test_spec_list_json() -> None:
    code, out, _ = run("spec", "list", "--json")
    assert code == 0
    rows = json.loads(out)
    kammelna = next(row for row in rows if row["id"] == "kammelna")
    assert kammelna == {
        "id": "kammelna",
        "version": "1.2.0",
        "extends": "saudi",
        "title": "Kammelna app (observed)",
    }


def test_spec_show_prints_the_resolved_ruleset() -> None:
    code, out, _ = run("spec", "show", "kammelna")
    assert code == 0
    assert out.startswith("# kammelna 1.2.0, resolved from kammelna <- saudi\n")
    document = yaml.safe_load(out)
    assert "extends" not in document
    assert document["scoring"]["contract.tie"]["hokum"] == "buyer_fails"
    assert document["play"]["hokum.overruff"]["option"] == "required"  # from saudi


def test_spec_show_json_is_the_digested_document() -> None:
    code, out, _ = run("spec", "show", "saudi", "--format", "json")
    assert code == 0
    assert json.loads(out) == load_ruleset("saudi").document


def test_spec_show_unknown_id_is_a_usage_error() -> None:
    code, out, err = run("spec", "show", "saudy")
    assert (code, out) == (2, "")
    assert "no ruleset named 'saudy'" in err and "did you mean 'saudi'?" in err
    assert "Traceback" not in err


def test_spec_validate_all_shipped() -> None:
    code, out, err = run("spec", "validate")
    assert (code, err) == (0, "")
    assert len(out.splitlines()) == len(shipped_rulesets())
    assert out.splitlines()[0] == "valid: saudi 1.2.0"
    assert all(line.startswith("valid: ") for line in out.splitlines())


def test_spec_validate_a_broken_file_exits_1_with_its_location(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text(
        'format: baloot-ruleset/1\nid: mine\nversion: "1.0.0"\nextends: saudi\n'
        "play:\n  hokum.overruff:\n    statement: x\n    sources: [VIP]\n    option: requird\n",
        encoding="utf-8",
    )
    code, out, err = run("spec", "validate", str(broken), "saudi")
    assert code == 1
    assert f"{broken}:9:13: play.hokum.overruff.option: 'requird' is not one of" in err
    assert "valid: " in out  # the good one is still reported
    assert "Traceback" not in err


def test_spec_validate_a_missing_file_exits_2(tmp_path: Path) -> None:
    code, _, err = run("spec", "validate", str(tmp_path / "nothing.yaml"))
    assert code == 2
    assert "no such file" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],
        ["spec", "--help"],
        ["spec", "list", "--help"],
        ["spec", "show", "--help"],
        ["spec", "validate", "--help"],
    ],
)
def test_every_command_has_help(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 0
    assert "usage: baloot-conformance" in capsys.readouterr().out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    # The tests run the pure build (tests/test_compiled.py covers the compiled one).
    assert capsys.readouterr().out.strip() == f"baloot-conformance {__version__} (pure Python)"
    # The package's metadata takes its version from __init__.py, the one place it is written.
    assert importlib.metadata.version("baloot-conformance") == __version__


def test_no_command_prints_usage_and_exits_2() -> None:
    code, _, err = run()
    assert code == 2
    assert "usage: baloot-conformance" in err


def test_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["spec", "show"]) == 2
    assert "the following arguments are required" in capsys.readouterr().err
    assert main(["spec", "show", "saudi", "--format", "xml"]) == 2


def test_installed_command_works_from_any_folder(tmp_path: Path) -> None:
    """Run from an empty folder, the package finds its shipped spec/ and grammar/."""
    result = subprocess.run(
        [sys.executable, "-m", "baloot_conformance", "spec", "validate", "saudi"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == "valid: saudi 1.2.0\n"
