"""The kit as a CI gate meets hostile and careless input: reports never green on an error,
no input destroyed, no traceback, one exit code per kind of fault, and the documented limits.

Each test reproduces a fault found by trying the kit as a hostile tester and a newcomer would
(the README's exit-code table and docs/security.md's limits are the contract).
"""

from __future__ import annotations

import io
import json
import os
import re
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from baloot_conformance.btn import MAX_LINE_BYTES, TranscriptReader
from baloot_conformance.btn.json_form import JsonReader
from baloot_conformance.cli import main
from baloot_conformance.errors import TranscriptSyntaxError

ROOT = Path(__file__).resolve().parent.parent
GOOD = ROOT / "examples" / "conforming-game.btn"
BAD = ROOT / "examples" / "nonconforming-game.btn"


def run(*argv: str, cwd: Path | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    if cwd is None:
        return main(list(argv), out, err), out.getvalue(), err.getvalue()
    previous = Path.cwd()
    os.chdir(cwd)
    try:
        return main(list(argv), out, err), out.getvalue(), err.getvalue()
    finally:
        os.chdir(previous)


def profile(tmp_path: Path, name: str, rules: str) -> Path:
    """A profile over saudi changing the rules written in ``rules`` (YAML from line 7 on)."""
    path = tmp_path / f"{name}.yaml"
    path.write_text(
        f"format: baloot-ruleset/1\nid: {name}\nversion: '1.0.0'\nextends: saudi@1\n"
        f"title: {name}\ndescription: {name}\n{rules}",
        encoding="utf-8",
    )
    return path


def conversion(formula: str) -> str:
    return (
        "scoring:\n  sun.conversion:\n    statement: x\n    sources: [KAM]\n"
        f"    formula: '{formula}'\n"
    )


def clean(code: int, out: str, err: str) -> None:
    assert code in (0, 1, 2) and "Traceback" not in out + err


# --- reports are never green when something went wrong ----------------------------------------


@pytest.mark.parametrize("fmt", ["text", "json", "junit", "markdown", "html"])
def test_a_mixed_run_is_never_green(tmp_path: Path, fmt: str) -> None:
    unreadable = tmp_path / "notes.btn"
    unreadable.write_text("these are my notes\n", encoding="utf-8")
    missing = tmp_path / "missing.btn"
    files = [str(GOOD), str(BAD), str(unreadable), str(missing)]
    report = tmp_path / "report"
    code, _, _ = run("check", *files, "--format", fmt, "-o", str(report))
    assert code == 2  # unreadable input outranks the failing hands
    text = report.read_text(encoding="utf-8")
    if fmt == "json":
        records = [json.loads(line) for line in text.splitlines()]
        summary = records[-1]
        assert summary["ok"] is False and summary["unreadable"] == 2
        assert summary["failed"] == 2 and summary["passed"] == 16
        errors = [r["path"] for r in records if r["record"] == "file_error"]
        assert errors == [str(unreadable), str(missing)]
    elif fmt == "junit":
        head = text.splitlines()[1]
        assert re.search(r'failures="2" errors="2"', head), head
        assert text.count('name="(file)"') == 2 and text.count('type="file_error"') == 2
    elif fmt == "markdown":
        assert text.startswith("## ❌") and "2 files not read to the end" in text
        assert f"`{unreadable}` error" in text and f"`{missing}` error" in text
    elif fmt == "html":
        assert "<title>baloot-conformance check: fails</title>" in text
        assert '<td data-count="unreadable">2</td>' in text
        assert text.count('class="status-error problem"') == 2
        assert f"FAIL <code>{unreadable}</code>" in text
    else:
        assert "2 files not read to the end" in text
        assert f"FAIL {unreadable}" in text and f"FAIL {missing}" in text


def test_a_formula_that_can_divide_by_zero_is_refused(tmp_path: Path) -> None:
    zero = profile(tmp_path, "zero", conversion("raw // (raw - 65)"))
    code, _, err = run("spec", "validate", str(zero))
    assert code == 1 and "zero.yaml:11:14" in err
    assert "can divide by zero: raw=65" in err
    code, _, err = run("check", str(GOOD), "--ruleset", str(zero))
    assert code == 2 and "can divide by zero" in err


# --- inputs are never destroyed --------------------------------------------------------------


def test_an_output_that_is_an_input_is_refused(tmp_path: Path) -> None:
    game = tmp_path / "g.btn"
    game.write_bytes(GOOD.read_bytes())
    for argv in (
        ["check", str(game), "--output", str(game)],
        ["convert", "--to", "json", str(game), "-o", str(game)],
    ):
        code, _, err = run(*argv)
        assert code == 2 and "the output is one of the inputs" in err
        assert game.read_bytes() == GOOD.read_bytes()


@pytest.mark.parametrize("where", ["missing/report.txt", "folder"])
def test_an_output_that_cannot_be_written_is_a_usage_error(tmp_path: Path, where: str) -> None:
    (tmp_path / "folder").mkdir()
    commands = [["check", str(GOOD)], ["generate"]]
    if where != "folder":  # convert writes into a folder it is given, by design
        commands.append(["convert", "--to", "json", str(GOOD)])
    for command in commands:
        code, out, err = run(*command, "-o", str(tmp_path / where))
        clean(code, out, err)
        assert code == 2 and str(tmp_path / where) in err


def test_an_output_that_is_a_pipe_or_a_device_is_written_in_place(tmp_path: Path) -> None:
    """``-o /dev/null`` or a named pipe is written to, never renamed over: the rename that
    keeps a regular file whole would put a file where the device or pipe was (as root, onto
    ``/dev/null`` itself)."""
    pipe = tmp_path / "report.pipe"
    os.mkfifo(pipe)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(pipe.read_bytes()), daemon=True)
    reader.start()
    code, _, err = run("check", str(GOOD), "--format", "json", "-o", str(pipe))
    reader.join(timeout=30)
    assert code == 0, err
    assert stat.S_ISFIFO(pipe.stat().st_mode), "the pipe was replaced by a file"  # before /dev/null
    records = [json.loads(line) for line in received[0].decode("utf-8").splitlines()]
    summary = records[-1]
    assert records[0]["record"] == "header" and summary["hands"] == 9 and summary["ok"] is True
    assert [p.name for p in tmp_path.iterdir()] == ["report.pipe"]  # no temporary file left
    code, _, err = run("generate", "--seed", "3", "-o", os.devnull)
    assert code == 0, err
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode), "/dev/null is no longer a device"


def test_a_failed_run_leaves_the_old_output(tmp_path: Path) -> None:
    report = tmp_path / "report.xml"
    report.write_text("the previous report\n", encoding="utf-8")
    code, _, _ = run("check", str(GOOD), "--ruleset", "saudy", "-o", str(report))
    assert code == 2 and report.read_text(encoding="utf-8") == "the previous report\n"


def test_fmt_check_writes_nothing_and_fmt_keeps_a_link(tmp_path: Path) -> None:
    messy = tmp_path / "messy.btn"
    messy.write_text(GOOD.read_text(encoding="utf-8").replace("dealer E", "dealer  E", 1))
    before = sorted(tmp_path.iterdir())
    assert run("fmt", "--check", str(messy))[0] == 1
    assert sorted(tmp_path.iterdir()) == before  # not even a temporary file
    link = tmp_path / "link.btn"
    link.symlink_to(messy)
    assert run("fmt", str(link))[0] == 0
    assert link.is_symlink() and messy.read_bytes() == GOOD.read_bytes()


# --- no traceback: each fault has its message and its exit code ------------------------------


def test_huge_numbers_are_refused_by_every_reader(tmp_path: Path) -> None:
    digits = "9" * 5000
    btn = tmp_path / "big.btn"
    btn.write_text(f'%btn 1\n[Ruleset "saudi@1"]\n\nhand 1\nstart NS {digits} EW 0\n')
    for argv in (["check", str(btn)], ["fmt", str(btn)], ["convert", "--to", "json", str(btn)]):
        code, out, err = run(*argv)
        clean(code, out, err)
        assert code == 2 and "a number of 5,000 digits" in out + err
    as_json = tmp_path / "big.json"
    as_json.write_text(
        '{"btn": "1", "header": [{"tag": "Ruleset", "value": "saudi@1"}], "hands": [{"hand": '
        + digits
        + "}]}"
    )
    code, out, err = run("convert", "--to", "btn", str(as_json))
    clean(code, out, err)
    assert code == 2 and "not a usable JSON form" in err
    target = f"game:\n  target:\n    statement: x\n    sources: [GEA]\n    points: {digits}\n"
    code, _, err = run("spec", "validate", str(profile(tmp_path, "big", target)))
    assert code == 1 and "an integer of 5,000 digits" in err


def test_long_ruleset_names_are_refused(tmp_path: Path) -> None:
    name = "a" * 300
    code, _, err = run("check", str(GOOD), "--ruleset", name)
    assert code == 2 and "ids have at most 100" in err
    tagged = tmp_path / "tagged.btn"
    tagged.write_text(f'%btn 1\n[Ruleset "{name}@1"]\n', encoding="utf-8")
    code, out, err = run("check", str(tagged))
    clean(code, out, err)
    assert code == 2 and "ids have at most 100" in out
    code, out, err = run("spec", "validate", str(tmp_path / f"{name}.yaml"))
    clean(code, out, err)
    assert code == 2 and "File name too long" in err


def test_one_exit_code_for_a_file_that_is_not_btn(tmp_path: Path) -> None:
    notes = tmp_path / "notes.btn"
    notes.write_text("hello\n", encoding="utf-8")
    binary = tmp_path / "latin.json"
    binary.write_bytes(b"\xff\xfe not utf-8")
    assert run("check", str(notes))[0] == 2
    assert run("fmt", "--check", str(notes))[0] == 2
    assert run("convert", "--to", "json", str(notes))[0] == 2
    code, _, err = run("convert", "--to", "btn", str(binary))
    assert code == 2 and "not UTF-8" in err


def test_messages_that_name_the_problem(tmp_path: Path) -> None:
    code, _, err = run("spec", "validate", str(tmp_path))
    assert code == 2 and "is a folder, not a ruleset" in err
    formula = " + ".join(["raw"] * 700)
    code, _, err = run("spec", "validate", str(profile(tmp_path, "long", conversion(formula))))
    assert code == 1 and f"{len(formula):,} characters long; at most 2,000 are allowed" in err
    as_json = tmp_path / "game.btn"
    run("convert", "--to", "json", str(GOOD), "-o", str(as_json))
    code, out, _ = run("check", str(as_json))
    assert code == 2 and "convert --to btn" in out
    version = tmp_path / "v.btn"
    version.write_text('%btn 01\n[Ruleset "saudi@1"]\n', encoding="utf-8")
    assert run("fmt", "--check", str(version))[0] == 2  # as convert refuses its JSON form


def test_divergences_quote_their_line_from_stdin_and_far_in_a_file(tmp_path: Path) -> None:
    (tmp_path / "-").write_text("a file named '-' that must not be quoted\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "baloot_conformance", "check", "-", "--no-color"],
        input=BAD.read_bytes(),
        capture_output=True,
        cwd=tmp_path,
        check=False,
    )
    out = result.stdout.decode("utf-8")
    assert result.returncode == 1
    assert "  69 | = score NS 0 EW 35" in out and "must not be quoted" not in out
    # Far in a file (past the sparse index's first marks): the right line is quoted.
    far = tmp_path / "far.btn"
    assert run("generate", "--seed", "5", "--games", "14", "-o", str(far))[0] == 0
    lines = far.read_text(encoding="utf-8").splitlines()
    target = max(i for i, line in enumerate(lines) if line.startswith("= score "))
    lines[target] = re.sub(r"NS (\d+)", lambda m: f"NS {int(m[1]) + 1}", lines[target])
    far.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, _ = run("check", str(far), "--no-color")
    assert code == 1 and target > 3000
    assert f"  {target + 1} | {lines[target]}" in out


def test_a_closed_pipe_keeps_the_verdict(tmp_path: Path) -> None:
    files = [str(BAD)] * 30
    for expected, names in ((1, files), (0, [str(GOOD)] * 30)):
        check = subprocess.Popen(
            [sys.executable, "-m", "baloot_conformance", "check", *names, "--no-color"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert check.stdout is not None
        check.stdout.readline()
        check.stdout.close()  # like 'check ... | head -1'
        assert check.wait() == expected
        assert b"Traceback" not in (check.stderr.read() if check.stderr else b"")


def test_generated_games_carry_every_claim(tmp_path: Path) -> None:
    game = tmp_path / "game.btn"
    assert run("generate", "--seed", "3", "--legal", "-o", str(game))[0] == 0
    assert "= winner " in game.read_text(encoding="utf-8")
    assert run("check", str(game), "--require", "all")[0] == 0


def test_a_newcomer_sees_green() -> None:
    assert run("check", str(GOOD))[0] == 0  # the README's quick start
    assert run("fmt", "--check", *map(str, sorted((ROOT / "examples").glob("*.btn"))))[0] == 0
    passing = [
        ROOT / "fixtures" / "scoring" / "worked-hand.btn",
        *(ROOT / "fixtures" / "game").glob("full-game-*.btn"),
    ]
    assert run("check", *map(str, passing))[0] == 0
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = doc.read_text(encoding="utf-8")
        assert not re.search(r"(?<![\w.-])(\.\./)?(shared|design)/", text), doc.name


# --- streaming --------------------------------------------------------------------------------


def test_the_json_form_streams_hand_by_hand() -> None:
    """The first hand comes out before the rest of the document is read: a broken end is
    only found after it."""
    _, out, _ = run("convert", "--to", "json", str(GOOD))
    broken = out[: out.rindex('"hand": 9')] + "this is not JSON"
    reader = JsonReader(io.StringIO(broken), "g.json")
    hands = iter(reader)
    assert next(hands).number == 1
    with pytest.raises(TranscriptSyntaxError, match=r"g\.json:\d+:\d+: not valid JSON"):
        list(hands)


# --- documented limits --------------------------------------------------------------------------


def test_a_line_over_the_limit(tmp_path: Path) -> None:
    long = tmp_path / "long.btn"
    long.write_text('%btn 1\n[Ruleset "saudi@1"]\n# ' + "x" * MAX_LINE_BYTES + "\n")
    with pytest.raises(TranscriptSyntaxError, match="longer than 16384 bytes"):
        TranscriptReader(long)


@pytest.mark.parametrize(
    ("yaml_text", "message"),
    [
        ("x: " + "[" * 70 + "]" * 70 + "\n", "nested too deeply"),
        ("description: '" + "x" * (1 << 20) + "'\n", "may be at most 1,048,576"),
    ],
)
def test_ruleset_yaml_limits(tmp_path: Path, yaml_text: str, message: str) -> None:
    path = tmp_path / "p.yaml"
    path.write_text("format: baloot-ruleset/1\n" + yaml_text, encoding="utf-8")
    code, _, err = run("spec", "validate", str(path))
    assert code in (1, 2) and message in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("formula", "message"),
    [
        ("(" * 70 + "raw" + ")" * 70, "nested"),
        ("raw + " + "9" * 31, "digits"),
    ],
)
def test_formula_limits(formula: str, message: str) -> None:
    from baloot_conformance.errors import FormulaError
    from baloot_conformance.rules.formula import parse_formula
    from baloot_conformance.rules.model import CONVERSION_VARIABLES

    with pytest.raises(FormulaError, match=message):
        parse_formula(formula, CONVERSION_VARIABLES)


def test_a_folder_named_like_a_shipped_ruleset_does_not_shadow_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An engine's checkout is often a folder named as its profile (/tmp/bloot352, ./tazjel):
    # a bare id still names the shipped ruleset, a path the folder.
    (tmp_path / "tazjel").mkdir()
    (tmp_path / "saudi").write_text("not a ruleset\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert run("spec", "show", "tazjel")[0] == 0
    assert run("spec", "show", "saudi@1")[0] == 0
    code, _, err = run("spec", "validate", "./tazjel")
    assert code == 2 and "is a folder, not a ruleset" in err


def test_a_huge_jobs_count_is_refused_before_any_fork() -> None:
    """``--jobs 99999``: each job is a fork of the kit; a typo must not fork until the
    machine runs out of memory (it did, in the command-line fuzz)."""
    for command in (
        ["check", str(ROOT / "examples" / "conforming-game.btn")],
        ["suite", "--engine", "x"],
    ):
        out, err = io.StringIO(), io.StringIO()
        assert main([*command, "--jobs", "9" * 40], out, err) == 2
        assert "at most 256" in err.getvalue() and out.getvalue() == ""


def test_a_baseline_is_never_written_over(tmp_path: Path) -> None:
    """``--baseline FILE -o FILE``: the report would replace the stored run it is judged
    against, and the next run would pass whatever regressed. Refused, the file untouched."""
    game = ROOT / "examples" / "nonconforming-game.btn"
    check_base = tmp_path / "check.jsonl"
    suite_base = tmp_path / "suite.jsonl"
    suite_base.write_bytes((ROOT / "examples" / "reports" / "reference.jsonl").read_bytes())
    assert main(["check", str(game), "--format", "json", "-o", str(check_base)]) == 1
    for argv, stored in (
        (["check", str(game), "--format", "json", "-o", str(check_base)], check_base),
        (["suite", "--engine", "x", "--json-output", str(suite_base)], suite_base),
    ):
        before = stored.read_bytes()
        out, err = io.StringIO(), io.StringIO()
        assert main([*argv, "--baseline", str(stored)], out, err) == 2
        assert "the output is one of the inputs" in err.getvalue()
        assert stored.read_bytes() == before
