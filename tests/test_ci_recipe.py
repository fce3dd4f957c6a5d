"""The CI recipe: the GitHub Action's script, the example workflow and the version tags.

The action's suite step is run with a stand-in for the kit that prints its arguments, and
those must parse as a real ``suite`` command line for every combination of the optional
inputs; every input the action declares is used; the example workflow calls only inputs the
action has, outputs some step writes, and a ``diff`` command line the CLI takes; and every tag
the documentation names follows the kit's version (docs/ci.md: ``vX.Y.Z`` releases, a moving
``v0.Y`` before 1.0.0 and ``vX`` after).
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from baloot_conformance.cli import build_parser
from baloot_conformance.version import __version__

ROOT = Path(__file__).resolve().parent.parent
ACTION = yaml.safe_load((ROOT / "action.yml").read_text("utf-8"))
WORKFLOW_PATH = ROOT / "examples/ci/conformance-diff.yml"
WORKFLOW = yaml.safe_load(WORKFLOW_PATH.read_text("utf-8"))


def step(name: str) -> dict[str, Any]:
    steps: list[dict[str, Any]] = ACTION["runs"]["steps"]
    return next(s for s in steps if s.get("name") == name)


def parsed(argv: list[str]) -> argparse.Namespace:
    return build_parser().parse_args(argv)


@pytest.mark.parametrize("optional", [{}, {"RULESET": "saudi", "BASELINE": "main.jsonl"}])
def test_the_suite_step_runs_a_real_command_line(tmp_path: Path, optional: dict[str, str]) -> None:
    run = step("Run the suite")
    kit = tmp_path / "kit"
    kit.write_text('#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; done\n', "utf-8")
    kit.chmod(0o755)
    env = {k: "" for k in run["env"]}
    env.update(ENGINE="python adapter.py", FIXTURES="*", GENERATED="50", TIMEOUT="10")
    env.update(REPORT="r.xml", JSON_REPORT="r.jsonl", EXPECTATIONS="", **optional)
    env.update(KIT=str(kit), GITHUB_STEP_SUMMARY=str(tmp_path / "summary.md"))
    env["PATH"] = os.environ["PATH"]
    done = subprocess.run(
        ["bash", "-e", "-c", run["run"]], env=env, capture_output=True, text=True, check=True
    )
    argv = done.stdout.splitlines()
    args = parsed(argv)
    assert args.engine == "python adapter.py" and args.format == "junit"
    assert (args.output, args.json_output) == ("r.xml", "r.jsonl")
    assert args.baseline == (optional.get("BASELINE") or None)
    assert args.ruleset == (optional.get("RULESET") or None)


def test_every_input_of_the_action_is_used() -> None:
    text = (ROOT / "action.yml").read_text("utf-8")
    used = set(re.findall(r"\$\{\{ inputs\.([a-z-]+) \}\}|inputs\.([a-z-]+) !=", text))
    names = {a or b for a, b in used}
    assert names == set(ACTION["inputs"])
    setup = next(s for s in ACTION["runs"]["steps"] if "setup-python" in s.get("uses", ""))
    assert setup["if"] == "inputs.setup-python != 'false'"  # the caller's Python kept
    install = step("Install baloot-conformance")
    assert '"$KIT_PYTHON" -m venv' in install["run"]  # the kit's own environment then
    assert set(ACTION["outputs"]) == {"report", "json-report", "command"}


def _references(text: str) -> set[tuple[str, str]]:
    return set(re.findall(r"steps\.([a-z-]+)\.outputs\.([a-z-]+)", text))


def test_the_example_workflow_uses_what_exists() -> None:
    (job,) = WORKFLOW["jobs"].values()
    steps: list[dict[str, Any]] = job["steps"]
    ours = [s for s in steps if "/baloot-conformance@" in s.get("uses", "")]
    assert len(ours) == 1
    assert set(ours[0]["with"]) <= set(ACTION["inputs"])
    assert "baseline" in ours[0]["with"]
    # every step output it reads is written by that step (or is one of the action's)
    written = {}
    for s in steps:
        if "id" in s:
            names = set(re.findall(r'echo "([a-z-]+)=', s.get("run", "")))
            written[s["id"]] = names | (set(ACTION["outputs"]) if s in ours else set())
    text = WORKFLOW_PATH.read_text("utf-8")
    refs = _references(text)
    assert refs and all(name in written.get(id_, set()) for id_, name in refs), refs
    # the diff it posts is a real command line, in Markdown
    post = next(s for s in steps if "diff" in s.get("run", ""))
    line = next(x for x in post["run"].splitlines() if " diff " in x)
    argv = shlex.split(line.split("||")[0])[1:]
    args = parsed(argv)
    assert args.handler.__name__ == "_diff" and args.format == "markdown"
    assert "gh pr comment" in post["run"] and "GH_TOKEN" in post["env"]
    assert WORKFLOW["permissions"]["pull-requests"] == "write"


def test_the_documented_tags_follow_the_kit_version() -> None:
    major, minor, _ = (int(part) for part in __version__.split("."))
    moving = f"v{major}.{minor}" if major == 0 else f"v{major}"
    release = f"v{__version__}"
    pages = [ROOT / "README.md", ROOT / "docs/ci.md", ROOT / "action.yml", WORKFLOW_PATH]
    uses = rev = 0
    for page in pages:
        text = page.read_text("utf-8")
        for tag in re.findall(r"baloot-conformance@(v[0-9.]+)", text):
            uses += 1
            assert tag in (moving, release), f"{page.name}: @{tag}"
        for tag in re.findall(r"rev: (\S+)", text):
            rev += 1
            assert tag == release, f"{page.name}: rev {tag} (pre-commit takes a release tag)"
    assert uses >= 3 and rev >= 2
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))
    assert {hook["id"] for hook in hooks} <= set((ROOT / "docs/ci.md").read_text().split("`"))
