"""``suite`` off its main path (issue 24): engines that check nothing, cannot start, play one
ruleset, answer with lone surrogates and control characters; a run stopped by a signal; a
closed standard output; fixtures named as the user's repository names them; expectations
files whose values are wrong.

Each test here failed before its fix: a run that checked nothing was green, a dead engine
gave an error per case, a stopped ``--jobs`` run left its engines and workers running, a
closed pipe lost the JUnit file and the verdict, fixtures were named by their installed path.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from baloot_conformance.cli import main
from baloot_conformance.suite import expectations

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
REFERENCE = f"{PYTHON} -m baloot_conformance.suite.reference_adapter"
DEVIANT = f"{REFERENCE} --rules {ROOT / 'examples/adapters/deviant.yaml'} --as saudi"
ADAPTERS = ROOT / "tests/adapters"
MISBEHAVE = f"{PYTHON} {ADAPTERS / 'misbehave.py'}"
FEW = ("--fixtures", "play.follow-suit.*,play.trick-winner.pass-1", "--generated", "0")
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["suite", *argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def records(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.split("\n") if line]


def cases(text: str) -> dict[str, dict[str, Any]]:
    return {r["id"]: r for r in records(text) if r["record"] == "case"}


# --- F1: a run in which nothing was checked is never green ------------------------------------


@pytest.mark.parametrize(
    ("mode", "why"),
    [
        ("partial", "declares none of replay, legal, claims"),
        ("nosuch", "does not play the saudi ruleset (it plays nosuch)"),
        ("skip", "the engine skips it: not implemented"),
    ],
)
def test_a_run_that_checked_nothing_is_not_green(mode: str, why: str, tmp_path: Path) -> None:
    engine = f"{PYTHON} {ADAPTERS / 'hollow.py'} {mode}"
    code, out, _ = run(
        "--engine", engine, *FEW, "--generated", "1", "--jobs", "1", "--format", "json"
    )
    summary = records(out)[-1]
    assert code == 1 and summary["ok"] is False
    assert summary["pass"] == 0 and summary["cases"] == 4
    assert any("nothing was checked" in p and why in p for p in summary["problems"])
    report = tmp_path / "suite.xml"
    code, _, _ = run(
        "--engine", engine, *FEW, "--jobs", "1", "--format", "junit", "-o", str(report)
    )
    root = ET.parse(report).getroot()
    assert code == 1 and int(root.get("errors", "0")) >= 1
    assert any("nothing was checked" in e.get("message", "") for e in root.iter("error"))
    code, out, _ = run("--engine", engine, *FEW, "--jobs", "1")
    assert code == 1 and out.splitlines()[-1].startswith("FAIL ")
    assert "nothing was checked" in out


# --- item 9: one error for an engine that cannot start; unsupported cases summarised ----------


@pytest.mark.parametrize(
    ("command", "said"),
    [
        (f"{MISBEHAVE} nostart", "cannot find my engine library"),
        ("/no/such/engine --flag", "cannot run '/no/such/engine'"),
    ],
)
def test_an_engine_that_cannot_start_is_one_error(command: str, said: str, tmp_path: Path) -> None:
    code, out, err = run("--engine", command, "--jobs", "2")  # every fixture, 20 games
    assert code == 2
    assert "ERROR " not in out and out.count("cannot start") == 1
    assert said in out and repr(command) in out and "check" in out
    report, summary = tmp_path / "suite.xml", tmp_path / "summary.md"
    argv = ("--format", "junit", "-o", str(report), "--summary", str(summary))
    code, _, err = run("--engine", command, *FEW, *argv)
    root = ET.parse(report).getroot()
    assert code == 2 and err.count("error: ") == 1 and said in err
    assert root.get("errors") == "1" and root.get("tests") == "1"
    assert len(list(root.iter("error"))) == 1
    assert " fails\n" in summary.read_text() and "the engine cannot start" in summary.read_text()


def test_unsupported_cases_are_summarised_by_reason() -> None:
    argv = (
        "--engine",
        DEVIANT,
        "--fixtures",
        "majlis/*,kuwait/*,sun-split-65-65",
        "--generated",
        "0",
    )
    code, out, _ = run(*argv, "--jobs", "1")
    lines = out.splitlines()
    assert code == 1
    assert (
        "UNSUPPORTED 20 cases: the engine does not play the majlis ruleset (it plays saudi)"
        in lines
    )
    assert (
        "UNSUPPORTED 1 case: the engine does not play the kuwait ruleset (it plays saudi)" in lines
    )
    assert sum(line.startswith("UNSUPPORTED ") for line in lines) == 2
    assert any(line.startswith("FAIL sun-split-65-65") for line in lines)
    code, out, _ = run(*argv, "--jobs", "1", "--verbose")
    assert sum(line.startswith("UNSUPPORTED majlis") for line in out.splitlines()) == 20
    code, out, _ = run(*argv, "--jobs", "1", "--format", "json")
    assert sum(r["verdict"] == "unsupported" for r in cases(out).values()) == 21


# --- F6: stopping a run ends every process it started -----------------------------------------


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _ends(pid: int) -> bool:
    """Whether ``pid`` ends within 30 seconds (a bounded wait, not a timing assertion)."""
    return _wait_for(lambda: not _alive(pid), 30)


def _wait_for(predicate: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize(
    ("how", "jobs"),
    [("SIGINT to the terminal's group", 2), ("SIGTERM", 2), ("SIGKILL", 2), ("SIGTERM", 1)],
)
def test_stopping_a_run_ends_its_workers_and_engines(how: str, jobs: int, tmp_path: Path) -> None:
    engine = f"{PYTHON} {ADAPTERS / 'lingering.py'} {tmp_path}"
    log = tmp_path / "kit.log"  # a file, not a pipe: a process left behind cannot block it
    with log.open("wb") as handle:
        kit = subprocess.Popen(
            [PYTHON, "-m", "baloot_conformance", "suite", "--engine", engine, *FEW,
             "--jobs", str(jobs), "--timeout", "600"],
            stdout=handle, stderr=subprocess.STDOUT, env=ENV, cwd=tmp_path,
            start_new_session=True,  # a terminal's process group of its own
            # as from a terminal: a test runner may have left Ctrl-C ignored, which a child keeps
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )  # fmt: skip
    try:

        def hung() -> bool:
            return len(list(tmp_path.glob("*.hung"))) >= jobs

        assert _wait_for(hung, 120), "no engine hung"
        for _ in range(40):
            if how.startswith("SIGINT"):
                os.killpg(kit.pid, signal.SIGINT)  # Ctrl-C: the kit and its workers get it
            else:
                kit.send_signal(signal.SIGTERM if how == "SIGTERM" else signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                # CPython runs a handler between bytecodes: a signal that comes just before a
                # blocking call waits for it. Signal again, as a user presses Ctrl-C again.
                kit.wait(timeout=3)
                break
    finally:
        if kit.poll() is None:
            kit.kill()
            kit.wait()
    expected = {"SIGTERM": 143, "SIGKILL": -signal.SIGKILL}.get(how, 130)
    assert kit.returncode == expected
    assert "Traceback" not in log.read_text()
    started = [tuple(map(int, p.read_text().split())) for p in tmp_path.glob("*.pid")]
    engines = {pid for pid, _ in started}
    workers = {parent for _, parent in started} - {kit.pid}
    assert len(workers) == (jobs if jobs > 1 else 0)
    assert len(engines) >= jobs + 1  # the handshake's, and one per job
    left = [pid for pid in engines | workers if not _ends(pid)]
    for pid in left:  # what this test started must not outlive it, even when it fails
        os.kill(pid, signal.SIGKILL)
    assert not left, f"processes {left} still ran"


# --- F8: a closed standard output loses neither the verdict nor a file ------------------------


def _closed_pipe_run(argv: list[str], cwd: Path) -> int:
    """Run the kit with standard output and error into a pipe nobody reads (``| true``)."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(
            [PYTHON, "-m", "baloot_conformance", "suite", *argv],
            stdout=write, stderr=write, env=ENV, cwd=cwd, timeout=300, check=False,
        )  # fmt: skip
    finally:
        os.close(write)
    return done.returncode


def test_a_closed_stdout_keeps_the_verdict_and_every_file(tmp_path: Path) -> None:
    report, summary, expected = tmp_path / "r.xml", tmp_path / "s.md", tmp_path / "e.yaml"
    few = ["--fixtures", "sun-split-6*", "--generated", "0", "--jobs", "1"]
    code = _closed_pipe_run(
        ["--engine", f"{MISBEHAVE} nostart", *few, "--format", "junit", "-o", str(report)], tmp_path
    )
    assert code == 2 and ET.parse(report).getroot().get("errors") == "1"
    argv = ["--engine", DEVIANT, *few, "--format", "junit", "-o", str(report),
            "--summary", str(summary), "--expectations", str(expected)]  # fmt: skip
    code = _closed_pipe_run([*argv, "--update-expectations"], tmp_path)  # says "wrote" first
    root = ET.parse(report).getroot()
    assert code == 0 and root.get("tests") == "5" and root.get("skipped") == "1"
    assert "sun-split-65-65:" in expected.read_text()
    assert summary.read_text().startswith("## Baloot conformance: ")
    code = _closed_pipe_run(["--engine", DEVIANT, *few, "-v"], tmp_path)
    assert code == 1


# --- item 5: fixtures named by their corpus path ---------------------------------------------


def test_fixtures_are_named_by_their_corpus_path(tmp_path: Path) -> None:
    argv = ("--engine", DEVIANT, "--fixtures", "sun-split-65-65", "--generated", "0")
    where = "fixtures/scoring/sun-split-65-65.btn"
    code, out, _ = run(*argv, "--format", "json")
    case = cases(out)["sun-split-65-65"]
    assert code == 1 and case["path"] == where
    assert case["failure"]["location"] == f"{where}:39:1"
    code, out, _ = run(*argv)
    assert f"FAIL sun-split-65-65  {where}:39:1: h1.cardscore claims" in out
    report = tmp_path / "suite.xml"
    run(*argv, "--format", "junit", "-o", str(report))
    (testcase,) = ET.parse(report).getroot().iter("testcase")
    assert testcase.get("file") == where
    assert f"{where}:39:1" in (testcase.find("failure").get("message") or "")  # type: ignore[union-attr]


# --- F7: lone surrogates and control characters from an engine, in every format ---------------


def _script(tmp_path: Path, script: dict[str, Any]) -> str:
    path = tmp_path / "script.json"
    path.write_text(json.dumps(script))
    return f"{PYTHON} {ADAPTERS / 'scripted.py'} {path}"


HOSTILE = "\ud800 \x1b[31mred\u2028\nPASS 999 cases"


def test_lone_surrogates_and_controls_in_replies_give_valid_reports(tmp_path: Path) -> None:
    start = {
        "protocol": 1,
        "engine": {"name": f"e{HOSTILE}", "version": "1\udfff", "language": "\x00"},
        "rulesets": ["saudi"],
        "capabilities": ["replay"],
    }
    answers = [
        {"answer": {"seq": "$seq", "accepted": False, "hand": 1, "event": 0, "reason": HOSTILE}},
        {"answer": {"seq": "$seq", "skip": HOSTILE, "issue": HOSTILE}},
        {"answer": {"seq": "$seq", "error": HOSTILE}},
    ]
    engine = _script(tmp_path, {"start": {"answer": start}, "answers": answers})
    for fmt in ("text", "json", "junit", "markdown"):
        report = tmp_path / f"report.{fmt}"
        code, _, err = run(
            "--engine", engine, *FEW, "--jobs", "1", "--format", fmt, "-o", str(report)
        )
        assert code == 1, err
        text = report.read_bytes().decode("utf-8")  # valid UTF-8: escaped, never raw
        assert "\x1b" not in text and "\u2028" not in text
        assert not any(line.startswith("PASS 999") for line in text.split("\n"))
        if fmt == "json":
            found = cases(text)
            assert records(text)[0]["engine"]["name"] == f"e{HOSTILE}"  # the JSON keeps it
            assert {r["verdict"] for r in found.values()} == {"fail", "skip", "error"}
            assert HOSTILE in found["play.follow-suit.pass-1"]["message"]
        elif fmt == "junit":
            root = ET.parse(report).getroot()
            assert root.get("failures") == "1" and root.get("errors") == "1"
        elif fmt == "text":
            assert "\\ud800 \\x1b[31mred\\u2028\\nPASS 999 cases" in text


# --- F22: an expectations file's wrong values, named at their place ----------------------------


@pytest.mark.parametrize(
    ("value", "where", "said"),
    [
        ("9" * 5000, "3:13", "reason: expected text, found a number"),
        ("1.5", "3:13", "reason: expected text, found a number"),
        ("a\x00b", "3:14", "a NUL character (\\x00)"),
        ("a\x07b", "3:14", "a control character (\\x07)"),
    ],
)
def test_wrong_values_in_expectations_are_named_where_they_are(
    value: str, where: str, said: str, tmp_path: Path
) -> None:
    path = tmp_path / "e.yaml"
    path.write_text(f"expectations:\n  some.case:\n    reason: {value}\n")
    with pytest.raises(expectations.ExpectationsError) as caught:
        expectations.load(str(path))
    message = str(caught.value)
    assert message.startswith(f"{path}:{where}: ") and said in message
    assert "ruleset" not in message and "formula" not in message
    assert len(message) < 600


def test_an_expectations_file_that_is_not_utf8_is_named_at_its_byte(tmp_path: Path) -> None:
    path = tmp_path / "e.yaml"
    path.write_bytes(b"expectations:\n  some.case:\n    reason: caf\xe9\n")
    with pytest.raises(expectations.ExpectationsError) as caught:
        expectations.load(str(path))
    assert str(caught.value).startswith(f"{path}:3:16: ") and "not UTF-8" in str(caught.value)
