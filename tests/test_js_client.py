"""The adapter kit for JavaScript and TypeScript engines (``clients/js/``, baloot-adapter-kit),
run under Node: its own ``node --test`` tests; its BTN writer against the kit's canonical
writer on every transcript of the corpus and on random ones; a game written with its builder,
which ``check`` passes and ``fmt`` leaves as it is; its protocol loop's answers against the
protocol's schema; and its package metadata.

Node 18 or later is needed (``apt-get install nodejs``; ``.ci/run`` installs it when it is
missing), as Chromium is for the HTML tests.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from btn_strategies import transcripts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baloot_conformance import __version__
from baloot_conformance.btn import parse_transcript, read_transcript
from baloot_conformance.btn.json_form import to_json
from baloot_conformance.btn.writer import format_transcript
from baloot_conformance.cli import main
from baloot_conformance.corpus.fixtures import baloot_fixture_files
from baloot_conformance.suite.protocol import ANSWERS, answer_problem

ROOT = Path(__file__).resolve().parent.parent
KIT = ROOT / "clients" / "js"
CORPUS = baloot_fixture_files(ROOT / "fixtures") + sorted((ROOT / "examples").rglob("*.btn"))

SCRIPTS = ROOT / "tests" / "data" / "js"
"""Node scripts on the kit: ``write_all.mjs`` (formatTranscript on a list of transcripts),
``rebuild.mjs`` (a transcript rebuilt with the builder), ``session.mjs`` (a protocol session)."""


@cache
def node_binary() -> str:
    """Node on this machine, 18 or later (``node --test``); a clear failure otherwise."""
    binary = shutil.which("node") or shutil.which("nodejs")
    if binary is None:
        pytest.fail(
            "Node.js is not installed: 'apt-get install nodejs' (.ci/run does it); the JS "
            "adapter kit (clients/js) is tested under Node 18 or later"
        )
    version = subprocess.run([binary, "--version"], capture_output=True, text=True, check=False)
    found = re.match(r"v(\d+)\.", version.stdout.strip())
    if found is None or int(found.group(1)) < 18:
        pytest.fail(f"Node {version.stdout.strip()} is too old: clients/js needs Node 18 or later")
    return binary


def node(*argv: str, stdin: str = "", cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [node_binary(), *argv],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=cwd,
        timeout=120,
        check=False,
    )


def script(name: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run one of the :data:`SCRIPTS` under Node."""
    return node(str(SCRIPTS / name), stdin=stdin)


def write_all(docs: list[dict[str, Any]]) -> list[str]:
    done = script("write_all.mjs", json.dumps(docs))
    assert done.returncode == 0, done.stderr
    written: list[str] = json.loads(done.stdout)
    return written


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_the_kits_own_tests_pass_under_node() -> None:
    done = node("--test", cwd=KIT)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    counts = dict(re.findall(r"^# (tests|pass|fail) (\d+)$", done.stdout, re.MULTILINE))
    assert counts["fail"] == "0" and int(counts["pass"]) >= 20, done.stdout[-2000:]


def test_the_writer_writes_what_fmt_writes_for_every_transcript_of_the_corpus() -> None:
    parsed = [read_transcript(path) for path in CORPUS]
    written = write_all([to_json(t) for t in parsed])
    wrong = [
        str(path.relative_to(ROOT))
        for path, transcript, text in zip(CORPUS, parsed, written, strict=True)
        if text != format_transcript(transcript)
    ]
    assert len(CORPUS) > 300
    assert wrong == []


@settings(max_examples=1, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(st.lists(transcripts(), min_size=40, max_size=40))
def test_the_writer_writes_what_fmt_writes_for_random_transcripts(texts: list[str]) -> None:
    parsed = [parse_transcript(text) for text in texts]
    written = write_all([to_json(t) for t in parsed])
    for transcript, text in zip(parsed, written, strict=True):
        assert text == format_transcript(transcript)


def test_a_game_written_with_the_builder_passes_check_and_is_canonical(tmp_path: Path) -> None:
    code, generated, _ = run(
        "generate", "--ruleset", "saudi", "--seed", "3", "--games", "2",
        "--sawa", "0.3", "--foul-calls", "0.3", "--kawesh", "0.3", "--rich-deals",
    )  # fmt: skip
    assert code == 0
    assert re.search(r"^sawa ", generated, re.MULTILINE) and "= legal" not in generated
    game = tmp_path / "builder.btn"
    done = script("rebuild.mjs", json.dumps(to_json(parse_transcript(generated))))
    assert done.returncode == 0, done.stderr
    game.write_text(done.stdout, encoding="utf-8")
    assert done.stdout == generated
    code, out, err = run("check", str(game))
    assert code == 0, out + err
    assert re.search(r"^PASS .*builder\.btn\s+\d+ hands$", out, re.MULTILINE), out
    assert run("fmt", "--check", str(game))[0] == 0


def test_the_loops_answers_are_valid_protocol_answers() -> None:
    transcript = to_json(read_transcript(ROOT / "examples" / "sawa.btn"))
    sawa = {"event": "sawa", "seat": "W"}
    requests: list[dict[str, Any]] = [
        {"cmd": "start", "protocol": 1, "kit": __version__},
        {"cmd": "replay", "seq": 1, "transcript": transcript},
        {"cmd": "replay", "seq": 2, "transcript": transcript},
        {"cmd": "legal", "seq": 3, "seat": "N", "transcript": transcript},
        {"cmd": "claims", "seq": 4, "transcript": transcript},
        {"cmd": "judge", "seq": 5, "transcript": transcript, "event": sawa},
        {"cmd": "judge", "seq": 6, "transcript": transcript, "event": sawa},
        {"cmd": "judge", "seq": 7, "transcript": transcript, "event": sawa},
        {"cmd": "boom", "seq": 8},
        {"cmd": "stop"},
    ]  # fmt: skip
    done = script("session.mjs", "".join(json.dumps(r) + "\n" for r in requests))
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(requests) - 1
    for request, answer in zip(requests, answers, strict=False):
        command = request["cmd"] if request["cmd"] in ANSWERS else "replay"
        assert answer_problem(command, answer) is None, (request["cmd"], answer)
    assert answers[0]["capabilities"] == ["replay", "legal", "claims", "judge"]
    refused = {"seq": 2, "accepted": False, "hand": 1, "event": 4, "reason": "W must follow suit"}
    assert answers[2] == refused
    assert answers[3] == {"seq": 3, "calls": ["pass", "hokum", "hokum S"], "cards": ["TS", "7H"]}
    assert answers[6] == {"seq": 6, "skip": "no Sawa", "issue": "https://example.org/7"}
    assert answers[7] == {"seq": 7, "verdict": "wrong", "reason": "E takes trick 7"}
    assert answers[8]["seq"] == 8 and answers[8]["error"].startswith("RangeError: boom\n")
    assert "RangeError: boom" in done.stderr


def test_the_package_is_the_kits_version_with_no_dependency() -> None:
    package = json.loads((KIT / "package.json").read_text(encoding="utf-8"))
    assert package["name"] == "baloot-adapter-kit"
    assert package["version"] == __version__
    assert package["type"] == "module"
    assert not {"dependencies", "peerDependencies", "optionalDependencies"} & package.keys()
    assert package["scripts"]["test"].startswith("node --test")


def test_the_node_tests_data_are_the_corpus_files_they_copy() -> None:
    """``clients/js/test/data`` holds copies (the package's tests run without the kit): each
    ``.btn`` is a corpus or example file byte for byte, each ``.json`` its JSON form."""
    data = KIT / "test" / "data"
    copies = sorted(data.glob("*.btn"))
    assert copies
    for copy in copies:
        sources = [p for p in CORPUS if p.name == copy.name]
        assert len(sources) == 1, f"{copy.name}: no single corpus file of that name"
        assert copy.read_bytes() == sources[0].read_bytes(), f"{copy.name} is stale"
        form = json.loads(copy.with_suffix(".json").read_text(encoding="utf-8"))
        assert form == to_json(read_transcript(sources[0])), f"{copy.stem}.json is stale"
