"""Every command, every output target, under generated command lines (issue 24).

Two measures: no command line ends in a traceback (every error is a message and exit 2), and
no run that reports an error leaves a report that says otherwise (green on error). The
command lines are drawn from each command's own options, with values from the kinds a user
or a hostile input gives: real files, missing ones, folders, links, pipes, text with control
characters or lone surrogates, huge numbers.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baloot_conformance.cli import main

ROOT = Path(__file__).resolve().parent.parent
GOOD = ROOT / "examples" / "conforming-game.btn"
BAD = ROOT / "examples" / "nonconforming-game.btn"
LOG = sorted((ROOT / "tests" / "data" / "peer-logs" / "majlis").glob("*.json.gz"))[0]

#: The commands with what they read and which option names their output.
COMMANDS: dict[str, tuple[list[str], str | None]] = {
    "check": (["check"], "-o"),
    "check-json": (["check", "--format", "json"], "-o"),
    "check-junit": (["check", "--format", "junit"], "-o"),
    "check-md": (["check", "--format", "markdown"], "-o"),
    "convert": (["convert", "--to", "json"], "-o"),
    "import": (["import", "--from", "majlis"], "-o"),
    "fmt-check": (["fmt", "--check"], None),
    "generate": (["generate", "--games", "1", "--hands", "2"], "-o"),
    "show": (["show"], None),
    "perft": (["perft", "--trick", "2", "--depth", "2"], None),
    "spec-validate": (["spec", "validate"], None),
}

TEXTS = st.sampled_from(
    ["", "-", "x", "\ud800", "a\nb", "\x1b[31m", "9" * 40, "-1", "0", "saudi@9", "../x.yaml"]
)


def _inputs(tmp: Path) -> dict[str, str]:
    """Every kind of input a command line may name, made in ``tmp``."""
    (tmp / "folder").mkdir(exist_ok=True)
    shutil.copy(GOOD, tmp / "folder" / "good.btn")
    made = {
        "good": str(GOOD),
        "bad": str(BAD),
        "log": str(LOG),
        "missing": str(tmp / "missing.btn"),
        "folder": str(tmp / "folder"),
        "empty-folder": str(tmp / "empty"),
        "not-btn": str(ROOT / "README.md"),
        "dangling": str(tmp / "dangling.btn"),
    }
    (tmp / "empty").mkdir(exist_ok=True)
    with contextlib.suppress(FileExistsError):
        (tmp / "dangling.btn").symlink_to(tmp / "nowhere")
    return made


def _target(tmp: Path, kind: str) -> str:
    """An output target of ``kind``: a new file, an old one, a link, a folder, a folder's
    path with a slash, a file in a folder that does not exist, or a name with a newline."""
    old = tmp / "old.txt"
    old.write_text("the old output\n", encoding="utf-8")
    link = tmp / "link.txt"
    with contextlib.suppress(FileExistsError):
        link.symlink_to(old)
    return {
        "new": str(tmp / "new.out"),
        "old": str(old),
        "link": str(link),
        "folder": str(tmp / "folder"),
        "slash": str(tmp / "outdir") + "/",
        "no-folder": str(tmp / "nope" / "out.txt"),
        "newline": str(tmp / "a\nb.txt"),
    }[kind]


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,  # the same examples on every run: a CI gate does not flicker
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    command=st.sampled_from(sorted(COMMANDS)),
    inputs=st.lists(
        st.sampled_from(
            ["good", "bad", "log", "missing", "folder", "empty-folder", "not-btn", "dangling"]
        ),
        min_size=1,
        max_size=3,
    ),
    target=st.sampled_from(["none", "new", "old", "link", "folder", "slash", "no-folder"]),
    extra=st.lists(
        st.tuples(st.sampled_from(["--ruleset", "--jobs", "--require", "--hand"]), TEXTS),
        max_size=2,
    ),
)
def test_no_command_line_ends_in_a_traceback_or_green_on_error(
    tmp_path: Path, command: str, inputs: list[str], target: str, extra: list[tuple[str, str]]
) -> None:
    base, output_option = COMMANDS[command]
    made = _inputs(tmp_path)
    argv = [*base]
    if command in ("show", "perft"):
        argv.append(made[inputs[0]])
    elif command != "generate":
        argv += [made[name] for name in inputs]
    if output_option and target != "none":
        argv += [output_option, _target(tmp_path, target)]
    for option, value in extra:
        if option == "--hand" and command not in ("show", "perft"):
            continue
        argv += [option, value]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(io.StringIO()) as usage:  # argparse writes there
        code = main(argv, out, err)  # an exception here is a traceback for the user
    said = out.getvalue() + err.getvalue() + usage.getvalue()
    assert code in (0, 1, 2), (argv, code)
    assert "Traceback" not in said
    if code == 2 and command.startswith("check") and target == "old":
        report = (tmp_path / "old.txt").read_text(encoding="utf-8", errors="replace")
        # an error run's report, if it replaced the old one, says the run failed
        assert report == "the old output\n" or not _reads_green(command, report), report
    if "error" in err.getvalue().lower() and command.startswith("check") and target == "none":
        assert not _reads_green(command, out.getvalue()), said


def _reads_green(command: str, report: str) -> bool:
    """Whether a report says that everything passed."""
    if command == "check-json":
        return '"ok":true' in report.replace(" ", "")
    if command == "check-junit":  # the run's totals, on the outer element
        return re.search(r'<testsuites [^>]*failures="0" errors="0"', report) is not None
    if command == "check-md":
        return "all hands pass" in report
    lines = report.strip().splitlines()
    return bool(lines) and " 0 failed, 0 errors" in lines[-1] and "not read" not in lines[-1]


@pytest.mark.parametrize("kind", ["new", "old", "link", "folder", "slash", "no-folder", "newline"])
@pytest.mark.parametrize("command", ["check", "generate", "convert", "import"])
def test_every_output_target(tmp_path: Path, command: str, kind: str) -> None:
    """Each kind of target: written, followed, or refused with a message; an old file is
    replaced only by a complete output; nothing else in the folder changes."""
    base, option = COMMANDS[command]
    made = _inputs(tmp_path)
    target = _target(tmp_path, kind)
    reads = {"check": [made["good"]], "convert": [made["good"]], "import": [made["log"]]}
    before = {p.name for p in tmp_path.iterdir()}
    out, err = io.StringIO(), io.StringIO()
    code = main([*base, *reads.get(command, []), str(option), target], out, err)
    assert "Traceback" not in err.getvalue()
    after = {p.name for p in tmp_path.iterdir()}
    one_file = command in ("check", "generate")  # convert and import also write into folders
    if kind == "no-folder" or (kind in ("folder", "slash") and one_file):
        assert code == 2 and err.getvalue().startswith("error: ")
    else:
        assert code == 0, err.getvalue()
    if kind == "link" and code == 0:
        assert os.path.islink(target)
    assert not [name for name in after - before if name.startswith(".")]  # no temp file left
