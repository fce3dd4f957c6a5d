"""The compiled build gives the pure build's reports, byte for byte.

``tools/mypyc_build.py`` compiles the kit's hot modules with mypyc: the optional accelerated
path, for which the pure-Python package stays the reference. The test builds it once, in a
temporary folder (40 s: ``-O0``, without the C compiler's warnings; it needs mypy, setuptools,
a C compiler and the Python headers, which the test environment and CI machines have: a
missing one fails the build, and so the test, rather than skipping it). Then each input goes
through two child processes over that one copy: the compiled build, and the same copy with
``BALOOT_CONFORMANCE_PURE=1``, which imports its Python sources. What they print must be equal:

- every fixture of the corpus: the verdicts, or the syntax error that stops the fixture;
- ``check`` on generated games under five rulesets, and on damaged games in every report
  format, on one job and on two (verdicts of compiled classes then travel between
  processes), and with ``--reference-replay``;
- the trick family's BTN 2 files: its fixtures, generated Bourré, Barbu and Hearts games
  (one job, two, the reference path), a transcript that stops;
- the errors a user can cause: a transcript that stops, a ruleset that is not valid.

Run as a script (``python tests/test_compiled.py corpus FIXTURES``), this file is the child
that prints the corpus's verdicts.
"""

from __future__ import annotations

import functools
import os
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from mypyc_build import COMPILED  # noqa: E402

RULESETS = ["saudi", "majlis", "kuwait", "tazjel", "pagat"]
FORMATS = ["text", "json", "junit", "markdown", "html"]


def test_the_compiled_build_gives_the_reports_of_the_pure_build(tmp_path: Path) -> None:
    """One test, so that one worker builds once (the build is most of its time)."""
    build = tmp_path / "compiled"
    # gcc -O0 -w: the same C as the -O3 an install builds, compiled in a fifth of the time
    # (bench/run.py compares the -O3 build's reports with the pure build's on every run).
    command = [sys.executable, str(ROOT / "tools" / "mypyc_build.py"), str(build)]
    done = subprocess.run(
        [*command, "--opt-level", "0", "--no-warnings"],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, f"the compiled build failed:\n{done.stdout[-3000:]}{done.stderr}"
    assert len(list(build.rglob("*.so"))) == len(COMPILED) + 1  # and the shared library
    work = tmp_path / "work"
    work.mkdir()
    each_build_runs_what_it_says(build, work)
    the_corpus_gets_the_same_verdicts(build, work)
    for ruleset in RULESETS:
        generated_games_get_the_same_report(build, work, ruleset)
    damaged_games_get_the_same_report(build, work)
    family_files_get_the_same_report(build, work)
    errors_are_the_same(build, work)


def child(build: Path, pure: bool, argv: list[str], cwd: Path) -> tuple[int, str, str]:
    """Run ``python ARGV`` over the compiled copy, or over its sources (``pure``)."""
    env = dict(os.environ, PYTHONPATH=str(build))
    env.pop("BALOOT_CONFORMANCE_PURE", None)
    if pure:
        env["BALOOT_CONFORMANCE_PURE"] = "1"
    # The working folder is empty of packages, so that the copy is what is imported.
    done = subprocess.run(
        [sys.executable, *argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )
    return done.returncode, done.stdout, done.stderr


def both(build: Path, argv: list[str], cwd: Path) -> tuple[int, str, str]:
    """The outcome of ``argv`` under both builds, which must be equal."""
    compiled = child(build, False, argv, cwd)
    pure = child(build, True, argv, cwd)
    assert compiled == pure, f"the builds differ on {argv}"
    return compiled


def check(build: Path, cwd: Path, *args: str) -> tuple[int, str, str]:
    return both(build, ["-m", "baloot_conformance", "check", *args], cwd)


def each_build_runs_what_it_says(build: Path, cwd: Path) -> None:
    names = [p.removesuffix(".py").replace("/", ".") for p in COMPILED]
    names = [n.removesuffix(".__init__") for n in names]
    script = (
        "import importlib, sys\nfor n in sys.argv[1:]: print(importlib.import_module(n).__file__)"
    )
    for pure, suffix in ((False, ".so"), (True, ".py")):
        code, out, err = child(build, pure, ["-c", script, *names], cwd)
        assert code == 0, err
        files = out.split()
        assert len(files) == len(names)
        assert all(f.startswith(str(build)) and f.endswith(suffix) for f in files), files
    version = child(build, False, ["-m", "baloot_conformance", "--version"], cwd)[1]
    assert "compiled with mypyc" in version
    version = child(build, True, ["-m", "baloot_conformance", "--version"], cwd)[1]
    assert "pure Python, BALOOT_CONFORMANCE_PURE is set" in version


def the_corpus_gets_the_same_verdicts(build: Path, cwd: Path) -> None:
    from baloot_conformance.corpus.fixtures import load_corpus

    code, out, err = both(build, [__file__, "corpus", str(ROOT / "fixtures")], cwd)
    assert code == 0, err
    fixtures = [line for line in out.splitlines() if line.startswith("fixture ")]
    assert len(fixtures) == len(load_corpus(ROOT / "fixtures"))
    assert out.count("status='pass'") > 100 and out.count("status='fail'") > 100


def generated_games_get_the_same_report(build: Path, cwd: Path, ruleset: str) -> None:
    from baloot_conformance.corpus.generate import generate_games
    from baloot_conformance.rules.loading import load_ruleset

    games = cwd / f"{ruleset}.btn"
    count = 30 if ruleset == "saudi" else 12
    games.write_text("".join(generate_games(load_ruleset(ruleset), seed=3, games=count)))
    reports = []
    # Once is enough for two jobs (verdicts of compiled classes travel between processes)
    # and for the reference path on hands that pass (the fast lane takes them otherwise).
    options = [["--jobs", "1"]]
    if ruleset == "saudi":
        options += [["--jobs", "2"], ["--jobs", "1", "--reference-replay"]]
    for extra in options:
        code, out, err = check(build, cwd, str(games), "--ruleset", ruleset, *extra)
        assert code == 0, err
        reports.append(out)
    assert reports[0] == reports[-1] and "hands: 0 passed" not in reports[0]


def damaged_games_get_the_same_report(build: Path, cwd: Path) -> None:
    from test_fast_lane import LINES, damage

    rng = random.Random(11)
    files = []
    for k in range(20):
        lines = LINES
        for _ in range(1 + k % 3):
            lines = damage(lines, rng)
        files.append(cwd / f"damaged-{k:02}.btn")
        files[-1].write_text("\n".join(lines))
    for fmt in FORMATS:
        check(build, cwd, *map(str, files), "--format", fmt)
    code, report, _ = check(build, cwd, *map(str, files), "--format", "json", "--jobs", "2")
    assert code == 2  # some damage stops a file: an error, every other file still reported
    assert '"status":"fail"' in report and '"status":"pass"' in report


def family_files_get_the_same_report(build: Path, cwd: Path) -> None:
    """BTN 2 goes through the Baloot reader first (its version line turns the file over to
    the family), then the family's compiled reader and obligations and its interpreted
    hands: every one of those crossings, in both builds."""
    from baloot_conformance.family.corpus.generate import generate_games, generate_session
    from baloot_conformance.family.rules.loading import load_trick_ruleset

    folders = [str(ROOT / "fixtures" / game) for game in ("bourre", "barbu", "hearts")]
    code, out, err = check(build, cwd, *folders, "--format", "json")
    # fixtures that pass, that fail, and that stop at a syntax error (so an error, exit 2)
    assert code == 2 and '"status":"fail"' in out and '"status":"pass"' in out, err
    games = {
        "bourre": generate_session(load_trick_ruleset("bourre"), 5, 40, 3),
        "barbu": generate_games(load_trick_ruleset("barbu"), 4, 28, 3, 2),
        "hearts": generate_games(load_trick_ruleset("hearts"), 4, 60, 3, 3),
    }
    for game, text in games.items():
        path = cwd / f"{game}-games.btn"
        path.write_text("".join(text))
        reports = []
        for extra in (["--jobs", "1"], ["--jobs", "2"], ["--jobs", "1", "--reference-replay"]):
            code, out, err = check(build, cwd, str(path), *extra)
            assert code == 0, err
            reports.append(out)
        assert reports[0] == reports[1] == reports[2] and "hands: 0 passed" not in reports[0]
    stops = cwd / "stops-2.btn"
    stops.write_text((cwd / "hearts-games.btn").read_text().replace("\ntrick 3:", "\ntrick 9:", 1))
    code, out, err = check(build, cwd, str(stops))
    assert code == 2 and "stops-2.btn:" in out, out + err


def errors_are_the_same(build: Path, cwd: Path) -> None:
    stops = cwd / "stops.btn"
    stops.write_text('%btn 1\n[Ruleset "saudi@1"]\nhand 1\ndeal N 7S 8S 9S TS JS\ndeal N 7S\n')
    code, out, err = check(build, cwd, str(stops))
    assert code == 2 and "stops.btn:5:1: hand 1: a second 'deal N' line" in out
    ruleset = cwd / "bad.yaml"
    ruleset.write_text("id: bad\nextends: saudi\nplay: [\n")
    code, out, err = check(build, cwd, str(stops), "--ruleset", str(ruleset))
    assert code == 2 and "bad.yaml:" in out + err


def _print_corpus(folder: Path) -> None:
    """Each fixture's verdicts, as reprs (the fast lane takes the hands that pass, the
    reference path the others)."""
    from baloot_conformance import btn
    from baloot_conformance.check.run import check_hands
    from baloot_conformance.corpus.fixtures import load_corpus
    from baloot_conformance.errors import TranscriptSyntaxError
    from baloot_conformance.rules.loading import load_ruleset

    ruleset_named = functools.cache(load_ruleset)  # once each, not once per fixture
    for fixture in load_corpus(folder):
        print("fixture", fixture.id)
        rules = ruleset_named(fixture.tag or fixture.ruleset_id)
        try:
            with btn.TranscriptReader.from_text(fixture.text, "t.btn") as reader:
                for verdict in check_hands(reader, "t.btn", rules):
                    print(repr(verdict))
        except TranscriptSyntaxError as exc:
            print("syntax error:", exc)


if __name__ == "__main__":
    if sys.argv[1:2] == ["corpus"]:
        _print_corpus(Path(sys.argv[2]))
