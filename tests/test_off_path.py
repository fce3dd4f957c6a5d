"""One step off the README's path: what a new user and a hostile one met (issue 24), each
reproduction run through the command line as they ran it."""

from __future__ import annotations

import io
import json
import os
import shutil
from pathlib import Path

import pytest

from baloot_conformance.cli import main

ROOT = Path(__file__).resolve().parent.parent
GOOD = ROOT / "examples" / "conforming-game.btn"
BAD = ROOT / "examples" / "nonconforming-game.btn"
MAJLIS = sorted((ROOT / "tests" / "data" / "peer-logs" / "majlis").glob("*.json.gz"))


def run(*argv: str | Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], out, err)
    return code, out.getvalue(), err.getvalue()


# --- outputs: a folder is a folder --------------------------------------------------------


@pytest.mark.parametrize("command", ["import", "convert"])
def test_an_output_ending_in_a_slash_is_a_folder_with_one_input(
    tmp_path: Path, command: str
) -> None:
    if command == "import":
        args, made = ["import", "--from", "majlis", MAJLIS[0]], MAJLIS[0].name[: -len(".json.gz")]
    else:
        args, made = ["convert", "--to", "json", GOOD], "conforming-game"
    folder = tmp_path / "out"
    assert run(*args, "-o", f"{folder}/")[0] == 0
    assert folder.is_dir() and [p.name for p in folder.iterdir()] == [
        made + (".btn" if command == "import" else ".json")
    ]
    # the README's next step: several inputs into the same folder
    more = [MAJLIS[0], MAJLIS[1]] if command == "import" else [GOOD, BAD]
    assert run(*args[:-1], *more, "-o", f"{folder}/")[0] == 0
    assert len(list(folder.iterdir())) == 2
    # and an existing folder named without the slash is a folder too
    assert run(*args, "-o", folder)[0] == 0
    assert len(list(folder.iterdir())) == 2


def test_several_outputs_into_a_file_or_onto_one_name_are_refused(tmp_path: Path) -> None:
    file = tmp_path / "afile"
    file.write_text("keep", encoding="utf-8")
    code, _, err = run("import", "--from", "majlis", *MAJLIS[:2], "-o", file)
    assert code == 2 and "a file, not a folder" in err and "Traceback" not in err
    assert file.read_text(encoding="utf-8") == "keep"
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    for sub in "ab":
        shutil.copy(GOOD, tmp_path / sub / "game.btn")
    code, _, err = run(
        "convert", "--to", "json", tmp_path / "a/game.btn", tmp_path / "b/game.btn",
        "-o", tmp_path / "out",
    )  # fmt: skip
    assert code == 2 and "would both be written to" in err
    assert not (tmp_path / "out" / "game.json").exists()


# --- inputs: one mechanism for every command ----------------------------------------------


def test_a_folder_walk_reports_what_it_cannot_read(tmp_path: Path) -> None:
    shutil.copy(GOOD, tmp_path / "good.btn")
    (tmp_path / "dangling.btn").symlink_to(tmp_path / "nowhere.btn")
    (tmp_path / "loop.btn").symlink_to(tmp_path / "loop.btn")
    os.mkfifo(tmp_path / "pipe.btn")  # nobody writes to it: reading it would never end
    for jobs in ("1", "2"):
        code, out, _ = run("check", tmp_path, "--jobs", jobs, "--format", "json")
        records = [json.loads(line) for line in out.splitlines()]
        errors = {r["path"]: r["message"] for r in records if r["record"] == "file_error"}
        assert code == 2 and records[-1]["ok"] is False and records[-1]["unreadable"] == 3
        assert "which does not exist" in errors[str(tmp_path / "dangling.btn")]
        assert "symbolic links" in errors[str(tmp_path / "loop.btn")]
        assert "not a regular file" in errors[str(tmp_path / "pipe.btn")]


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["check"], "a folder with no .btn, .btn.gz, .btn.zst file below it"),
        (["fmt", "--check"], "a folder with no .btn, .btn.gz, .btn.zst file below it"),
        (["convert", "--to", "btn"], "a folder with no .json file below it"),
    ],
)
def test_a_folder_with_nothing_to_read(tmp_path: Path, argv: list[str], expected: str) -> None:
    code, out, err = run(*argv, tmp_path)
    assert code == 2 and expected in out + err
    assert "Is a directory" not in out + err and "no such file" not in out + err


def test_fmt_takes_a_folder_and_keeps_a_compressed_file(tmp_path: Path) -> None:
    untidy = GOOD.read_text(encoding="utf-8").replace("dealer N", "dealer   N", 1)
    (tmp_path / "a.btn").write_text(untidy, encoding="utf-8")
    import gzip

    (tmp_path / "b.btn.gz").write_bytes(gzip.compress(untidy.encode()))
    code, out, _ = run("fmt", "--check", tmp_path)
    assert code == 1 and out.count("would reformat") == 2
    code, out, err = run("fmt", tmp_path)
    assert code == 2 and "a compressed file is not rewritten" in err
    assert gzip.decompress((tmp_path / "b.btn.gz").read_bytes()).decode() == untidy
    assert run("fmt", "--check", tmp_path / "a.btn")[0] == 0


# --- summaries that say everything --------------------------------------------------------


def test_a_file_error_counts_among_the_errors(tmp_path: Path) -> None:
    code, out, _ = run("check", tmp_path / "missing.btn")
    assert code == 2
    assert out.splitlines()[-1].endswith(
        "0 passed, 0 failed, 1 error (0 divergences); 1 file not read to the end"
    )


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_fail_fast_says_where_it_stopped_and_what_it_never_read(jobs: str) -> None:
    code, out, _ = run("check", BAD, GOOD, GOOD, "--fail-fast", "--jobs", jobs, "--no-color")
    assert code == 1
    assert out.splitlines()[-1].endswith(
        f"stopped at {BAD} h2 (--fail-fast), 2 files not checked: {GOOD}, {GOOD}"
    )
    code, out, _ = run("check", BAD, GOOD, "--fail-fast", "--jobs", jobs, "--format", "json")
    summary = json.loads(out.splitlines()[-1])
    assert (summary["stopped"], summary["not_checked"]) == (f"{BAD} h2", [str(GOOD)])
    code, out, _ = run("check", GOOD, "--fail-fast", "--format", "json")
    summary = json.loads(out.splitlines()[-1])
    assert (code, summary["stopped"], summary["not_checked"]) == (0, None, [])


def test_a_file_name_cannot_forge_a_report_line(tmp_path: Path) -> None:
    forged = tmp_path / "x\nPASS all.btn  9 hands"
    shutil.copy(BAD, forged)
    code, out, _ = run("check", forged, "--no-color")
    assert code == 1
    assert not [line for line in out.splitlines() if line.startswith("PASS")]
    assert "x\\nPASS all.btn" in out
