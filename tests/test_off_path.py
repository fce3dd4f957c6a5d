"""One step off the README's path: what a new user and a hostile one met (issue 24), each
reproduction run through the command line as they ran it."""

from __future__ import annotations

import contextlib
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
    args: list[str | Path]
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


# --- rulesets: a tag names a shipped ruleset and its major version ------------------------


@pytest.mark.parametrize(
    ("reference", "expected"),
    [
        ("saudi@3", "'saudi@3' asks for saudi 3.x, but this kit has saudi 1.2.0 only"),
        ("saudi@0", "'saudi@0' asks for saudi 0.x, but this kit has saudi 1.2.0 only"),
        ("saudi@x", "'saudi@x': what follows '@' is a major version, a number"),
        ("majlis@1", "'majlis@1' asks for majlis 1.x, but this kit has majlis 2.2.0 only"),
    ],
)
def test_a_major_version_that_does_not_exist_is_refused(
    tmp_path: Path, reference: str, expected: str
) -> None:
    code, out, err = run("check", GOOD, "--ruleset", reference)
    assert (code, out) == (2, "") and expected in err
    tagged = tmp_path / "tagged.btn"
    tagged.write_text(
        GOOD.read_text(encoding="utf-8").replace('"saudi@1"', f'"{reference}"'), encoding="utf-8"
    )
    for jobs in ("1", "2"):
        code, out, _ = run("check", tagged, "--jobs", jobs)
        assert code == 2 and f"{tagged}:2:1: [Ruleset {reference!r}]: {expected}" in out
        assert " passed" in out and "0 hands" in out


def test_the_major_version_shipped_is_accepted() -> None:
    assert run("check", GOOD, "--ruleset", "saudi@1")[0] == 0
    assert run("check", GOOD, "--ruleset", "majlis@2")[0] in (0, 1)  # judged, not refused


def test_a_transcript_cannot_name_a_file(tmp_path: Path) -> None:
    secret = tmp_path / "secret.yaml"
    secret.write_text("password: hunter2\n", encoding="utf-8")
    tagged = tmp_path / "tagged.btn"
    tagged.write_text(
        GOOD.read_text(encoding="utf-8").replace('"saudi@1"', f'"{secret}"'), encoding="utf-8"
    )
    for jobs in ("1", "2"):
        code, out, err = run("check", tagged, "--jobs", jobs, "--format", "json")
        assert code == 2 and "is a path: a transcript names a shipped ruleset id" in out
        assert "hunter2" not in out + err and "password" not in out + err
    code, _, err = run("show", tagged)
    assert code == 2 and "is a path" in err
    # the same file given on the command line is the user's own choice: it is read
    code, _, err = run("check", GOOD, "--ruleset", secret)
    assert code == 2 and "format: missing" in err


# --- show draws only what the replay reached ----------------------------------------------


def test_show_never_draws_a_trick_the_replay_did_not_reach() -> None:
    for trick in ("6", "7", "8"):
        code, out, err = run("show", BAD, "--hand", "3", "--trick", trick, "--ascii")
        assert (code, out) == (2, "")
        assert f"the replay of h3 stops before h3.t{trick}.p1" in err
    code, out, _ = run("show", BAD, "--hand", "3", "--trick", "5", "--ascii")
    assert code == 0 and "trick 5" in out and "S played 10S!" in out  # where it stopped


def test_show_on_a_hand_with_no_dealer(tmp_path: Path) -> None:
    no_dealer = tmp_path / "no-dealer.btn"
    lines = GOOD.read_text(encoding="utf-8").splitlines(keepends=True)
    no_dealer.write_text("".join(x for x in lines if not x.startswith("dealer")), "utf-8")
    code, out, err = run("show", no_dealer, "--trick", "2")
    assert (code, out) == (2, "") and "no 'dealer' line" in err and "Traceback" not in err


def test_a_profile_extends_only_within_its_folder(tmp_path: Path) -> None:
    (tmp_path / "inside").mkdir()
    secret = tmp_path / "secret.yaml"
    secret.write_text("password: hunter2\n", encoding="utf-8")
    for reference in ("../secret.yaml", str(secret)):
        profile = tmp_path / "inside" / "mine.yaml"
        profile.write_text(
            f'format: baloot-ruleset/1\nid: mine\nversion: "1.0.0"\nextends: {reference}\n',
            encoding="utf-8",
        )
        code, _, err = run("check", GOOD, "--ruleset", profile)
        assert code == 2 and "outside the profile's folder" in err and "hunter2" not in err


# --- signals: a stopped run leaves nothing behind -----------------------------------------


def _children(pid: int) -> list[int]:
    found = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [int(child) for child in found]


def _gone(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True
    return "State:\tZ" in status


@pytest.mark.parametrize(("how", "code"), [("SIGINT", 130), ("SIGTERM", 143)])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_stopped_run_leaves_the_old_report_and_no_process(
    tmp_path: Path, how: str, code: int, jobs: str
) -> None:
    import signal
    import subprocess
    import sys
    import time

    report = tmp_path / "report.txt"
    report.write_text("the old report\n", encoding="utf-8")
    pipe = tmp_path / "feed.btn"
    os.mkfifo(pipe)
    check = subprocess.Popen(
        [sys.executable, "-m", "baloot_conformance", "check", *[str(GOOD)] * 8, str(pipe),
         "--jobs", jobs, "-o", str(report)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        # as from a terminal: a test runner may have left Ctrl-C ignored, which a child keeps
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    with pipe.open("w", encoding="utf-8") as feed:  # returns once check reads the pipe
        feed.write(GOOD.read_text(encoding="utf-8")[:400])
        feed.flush()
        workers = _children(check.pid)
        assert len(workers) == (2 if jobs == "2" else 0)
        for _ in range(20):
            if how == "SIGINT":  # Ctrl-C: the terminal signals the whole process group
                os.killpg(check.pid, signal.SIGINT)
            else:
                check.send_signal(signal.SIGTERM)
            try:
                _, err = check.communicate(timeout=3)
                break
            except subprocess.TimeoutExpired:
                # CPython runs a signal's handler between bytecodes: one that arrives just
                # before a blocking read waits for the read to end. Signal again, as a user
                # presses Ctrl-C again; what is measured is how the run ends, not when.
                continue
    assert check.returncode == code
    assert b"Traceback" not in err and err.strip().splitlines()[-1] in (
        b"interrupted",
        b"terminated",
    )
    assert report.read_text(encoding="utf-8") == "the old report\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["feed.btn", "report.txt"]
    deadline = time.monotonic() + 30  # a bound on the wait, not a measure
    while not all(map(_gone, workers)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(map(_gone, workers))


# --- outputs: every failure is a message, every verdict an exit code ----------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["check", str(BAD)],
        ["check", str(BAD), "--format", "json"],
        ["fixtures", "lint", str(BAD)],
        ["spec", "validate", str(ROOT / "README.md")],
        ["fmt", "--check", *["{untidy}"] * 300],
    ],
)
def test_a_closed_pipe_never_turns_a_verdict_green(tmp_path: Path, argv: list[str]) -> None:
    import subprocess
    import sys

    untidy = tmp_path / "untidy.btn"
    untidy.write_text(GOOD.read_text(encoding="utf-8").replace("dealer N", "dealer  N"), "utf-8")
    argv = [a.replace("{untidy}", str(untidy)) for a in argv]
    alone = subprocess.run(
        [sys.executable, "-m", "baloot_conformance", *argv], capture_output=True, check=False
    )
    piped = subprocess.Popen(
        [sys.executable, "-m", "baloot_conformance", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert piped.stdout is not None and piped.stderr is not None
    piped.stdout.close()  # like '| true': nothing reads the report
    err = piped.stderr.read()
    assert piped.wait() == alone.returncode != 0
    assert b"Traceback" not in err and b"Broken pipe" not in err


def test_a_usage_error_leaves_the_old_report(tmp_path: Path) -> None:
    report = tmp_path / "report.txt"
    report.write_text("the old report\n", encoding="utf-8")
    code, _, err = run("check", GOOD, "--scheduler", "tcp://x:1", "-o", report)
    assert code == 2 and "--scheduler needs --executor dask" in err
    assert report.read_text(encoding="utf-8") == "the old report\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["check", str(GOOD), "-o", "{out}"],
        ["generate", "--games", "3", "-o", "{out}"],
        ["convert", "--to", "json", str(GOOD), "-o", "{out}"],
    ],
)
def test_a_full_disk_is_a_message_naming_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> None:
    import errno

    class Full(io.StringIO):
        def write(self, text: str) -> int:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def fdopen(handle: int, *args: object, **kwargs: object) -> io.StringIO:
        os.close(handle)
        return Full()

    monkeypatch.setattr(os, "fdopen", fdopen)  # what the output's temporary file opens with
    target = tmp_path / "out.txt"
    target.write_text("the old output\n", encoding="utf-8")
    code, _, err = run(*(a.replace("{out}", str(target)) for a in argv))
    assert code == 2 and f"{target}: cannot write it: No space left on device" in err
    assert "Traceback" not in err
    assert target.read_text(encoding="utf-8") == "the old output\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_an_output_link_is_followed(tmp_path: Path) -> None:
    real = tmp_path / "real.txt"
    link = tmp_path / "link.txt"
    link.symlink_to(real.name)
    assert run("check", GOOD, "-o", link)[0] == 0
    assert link.is_symlink() and "9 passed" in real.read_text(encoding="utf-8")


# --- streams: read once, as they come -------------------------------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_pipe_or_standard_input_is_read_once_as_a_stream(tmp_path: Path, jobs: str) -> None:
    import subprocess
    import sys
    import threading

    pipe = tmp_path / "feed.btn"
    os.mkfifo(pipe)
    text = BAD.read_text(encoding="utf-8")

    def feed() -> None:
        with pipe.open("w", encoding="utf-8") as stream:
            stream.write(text)

    writer = threading.Thread(target=feed)
    writer.start()
    code, out, _ = run("check", GOOD, pipe, GOOD, "--jobs", jobs)
    writer.join(timeout=60)
    assert code == 1 and f"FAIL {pipe}  9 hands" in out
    assert out.count(f"PASS {GOOD}") == 2

    # standard input streams: the first verdict is out before the input ends
    check = subprocess.Popen(
        [sys.executable, "-m", "baloot_conformance", "check", "-", "--jobs", jobs],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert check.stdin is not None and check.stdout is not None
    check.stdin.write(text.encode())
    check.stdin.flush()
    first = check.stdout.readline()  # the input is still open
    assert first.startswith(b"-:") and b"(root)" in first
    check.stdin.close()
    assert check.wait(timeout=60) == 1


# --- messages -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["chek", "x.btn"], "did you mean 'check'?"),
        (["check", "--jobz", "2", "x.btn"], "did you mean '--jobs'?"),
        (["check", "--format", "jsn", "x.btn"], "did you mean 'json'?"),
        (["spec", "lst"], "did you mean 'list'?"),
    ],
)
def test_a_typo_gets_a_suggestion_and_its_command_usage(argv: list[str], expected: str) -> None:
    with contextlib.redirect_stderr(io.StringIO()) as err:  # where argparse writes
        assert main(argv, io.StringIO()) == 2
    text = err.getvalue()
    assert expected in text
    if argv[0] == "check":
        assert text.startswith("usage: baloot-conformance check ")


@pytest.mark.parametrize("address", ["notanaddress", "tcp://127.0.0.1:99999", "tcp://:8786"])
def test_a_scheduler_address_that_cannot_be_is_a_usage_error(address: str) -> None:
    code, _, err = run("check", GOOD, "--executor", "dask", "--scheduler", address)
    assert code == 2 and "not a scheduler address" in err and "Traceback" not in err


def test_a_structural_error_points_at_its_word(tmp_path: Path) -> None:
    text = GOOD.read_text(encoding="utf-8")
    lines = text.splitlines()
    deal = next(i for i, line in enumerate(lines) if line.startswith("deal N"))
    words = lines[deal].split()
    card = words[2]
    lines[deal] = " ".join([*words[:-1], card]) + f"  # {card} again"  # twice in its line
    dealt = tmp_path / "dealt.btn"
    dealt.write_text("\n".join(lines) + "\n", encoding="utf-8")
    column = lines[deal].split("#")[0].rindex(f" {card}") + 2
    code, out, _ = run("check", dealt)
    assert code == 2 and f"{dealt}:{deal + 1}:{column}: hand 1: card {card} is dealt twice" in out
    trick = next(i for i, line in enumerate(lines) if line.startswith("trick 2:"))
    first = lines[trick - 1].split()[3].rstrip(",")  # a card of trick 1, played again
    lines = text.splitlines()
    lines[trick] = lines[trick].replace(lines[trick].split()[3].rstrip(","), first, 1)
    played = tmp_path / "played.btn"
    played.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, _ = run("check", played)
    where = f"{played}:{trick + 1}:{lines[trick].index(first) + 1}:"
    assert code == 2 and f"{where} hand 1: card {first} is played twice" in out
