"""``baloot-conformance fmt`` and ``convert``."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

from baloot_conformance.cli import main
from baloot_conformance.corpus.fixtures import baloot_fixture_files

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
UNTIDY = '%btn 1\n[Ruleset "saudi@1"]\nhand 1\ndealer   E\nfaceup 10♠\n'
TIDY = '%btn 1\n[Ruleset "saudi@1"]\n\nhand 1\ndealer E\nfaceup TS\n'


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def test_fmt_check_and_rewrite(tmp_path: Path) -> None:
    path = tmp_path / "a.btn"
    path.write_text(UNTIDY, encoding="utf-8")
    path.chmod(0o644)
    code, out, _ = run("fmt", "--check", str(path))
    assert (code, out.strip()) == (1, f"would reformat {path}")
    assert path.read_text(encoding="utf-8") == UNTIDY
    code, out, _ = run("fmt", str(path))
    assert (code, out.strip()) == (0, f"reformatted {path}")
    assert path.read_text(encoding="utf-8") == TIDY
    assert path.stat().st_mode & 0o777 == 0o644
    assert run("fmt", "--check", str(path))[0] == 0
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".btnfmt")]


def test_fmt_check_passes_on_fixtures() -> None:
    code, out, err = run("fmt", "--check", *map(str, baloot_fixture_files(FIXTURES)))
    assert (code, out, err) == (0, "", "")


def test_fmt_reports_syntax_errors(tmp_path: Path) -> None:
    path = tmp_path / "bad.btn"
    path.write_text(TIDY + "deal N 1OS\n", encoding="utf-8")
    code, _, err = run("fmt", str(path))
    assert code == 2  # not BTN: the same exit code as check and convert give
    assert f"{path}:7:8: expected a card" in err and "Traceback" not in err
    assert path.read_text(encoding="utf-8") == TIDY + "deal N 1OS\n"


def test_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    assert run("fmt", str(tmp_path / "nope.btn"))[0] == 2
    assert run("convert", "--to", "json", str(tmp_path / "nope.btn"))[0] == 2


def test_convert_both_ways(tmp_path: Path) -> None:
    source = tmp_path / "worked.btn"
    shutil.copy(FIXTURES / "scoring" / "worked-hand.btn", source)
    code, out, _ = run("convert", "--to", "json", str(source))
    assert code == 0
    data = json.loads(out)
    assert data["hands"][0]["items"][0]["position"] == "h1.dealer"
    json_path = tmp_path / "worked.json"
    json_path.write_text(out, encoding="utf-8")
    code, out, _ = run("convert", "--to", "btn", str(json_path))
    assert (code, out) == (0, source.read_text(encoding="utf-8"))


def test_convert_several_files_needs_a_folder(tmp_path: Path) -> None:
    files = [str(p) for p in baloot_fixture_files(FIXTURES)[:2]]
    assert run("convert", "--to", "json", *files)[0] == 2
    folder = tmp_path / "out"
    assert run("convert", "--to", "json", "-o", str(folder), *files)[0] == 0
    assert sorted(p.name for p in folder.iterdir()) == sorted(Path(f).stem + ".json" for f in files)


def test_convert_invalid_json(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"btn": "1"}', encoding="utf-8")
    code, _, err = run("convert", "--to", "btn", str(path))
    assert code == 2 and "not a BTN JSON document" in err  # not what --to btn converts
