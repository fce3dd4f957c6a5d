"""Every console example of the README and the docs runs as written, and prints what it shows.

An example is a ``$ baloot-conformance ...`` line in a ```` ```console ```` block; the lines
after it, up to the next ``$`` line, are its output. A line ``...`` (indented or not) stands
for any lines, and a line ending in ``...`` for any line that starts with what comes before. A
command runs from the repository's folder, as the README says to run them. The few that
cannot run as written (a placeholder for the user's own files, or one that would write into
the checkout) are named below with the reason; any other example is run.
"""

from __future__ import annotations

import io
import re
import shlex
from pathlib import Path

import pytest

from baloot_conformance.cli import main

ROOT = Path(__file__).resolve().parent.parent
PAGES = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
    ROOT / "fixtures" / "README.md",
    ROOT / "examples" / "adapters" / "README.md",
]

#: Examples that cannot run as written, with why.
NOT_RUN = {
    "baloot-conformance import --from majlis match-*.json -o btn/": "the user's own logs",
    "baloot-conformance check btn/*.btn": "the files the previous example writes",
    "baloot-conformance check /tmp/t50.btn": "the file the previous example writes (its "
    "output is asserted by tests/test_defects.py)",
    "baloot-conformance fixtures export --to corpus --format json": "writes into the checkout",
    "baloot-conformance fixtures lint": "run by tests/test_fixtures.py, which compares its "
    "figures with the README's (a lint of the whole corpus, once)",
}


def _examples() -> list[tuple[str, str, list[str]]]:
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for block in re.findall(r"```console\n(.*?)```", text, flags=re.S):
            command: str | None = None
            output: list[str] = []
            for line in [*block.splitlines(), "$ end"]:
                if line.startswith("$ "):
                    if command is not None:
                        while output and not output[-1].strip():
                            output.pop()
                        found.append((f"{page.relative_to(ROOT)}", command, output))
                    command = re.sub(r"\s{2,}#.*$", "", line[2:]).strip()
                    output = []
                else:
                    output.append(line)
    return [(page, command, out) for page, command, out in found if command != "end"]


EXAMPLES = _examples()


def _matches(expected: list[str], actual: list[str]) -> bool:
    if not expected:
        return not actual
    head, rest = expected[0], expected[1:]
    if head.strip() == "...":
        return any(_matches(rest, actual[i:]) for i in range(len(actual) + 1))
    if not actual:
        return False
    same = actual[0].startswith(head[:-3]) if head.endswith("...") else actual[0] == head
    return same and _matches(rest, actual[1:])


def test_the_examples_are_found() -> None:
    commands = {command for _, command, _ in EXAMPLES}
    assert "baloot-conformance check examples/conforming-game.btn" in commands
    assert set(NOT_RUN) <= commands  # a renamed example must leave this list too
    assert len(EXAMPLES) >= 15


@pytest.mark.parametrize(
    ("page", "command", "output"),
    [e for e in EXAMPLES if e[1] not in NOT_RUN],
    ids=[f"{e[0]}: {e[1][:70]}" for e in EXAMPLES if e[1] not in NOT_RUN],
)
def test_a_console_example_runs_as_written(
    page: str, command: str, output: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = shlex.split(command)
    assert argv[0] == "baloot-conformance", f"{page}: {command!r} is not the kit's command"
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("NO_COLOR", "1")
    out, err = io.StringIO(), io.StringIO()
    code = main(argv[1:], out, err)
    assert code in (0, 1), f"{page}: {command!r} exits {code}:\n{err.getvalue()}"
    if output:
        shown = out.getvalue().splitlines()
        both = (err.getvalue() + out.getvalue()).splitlines()
        assert _matches(output, shown) or _matches(output, both), (
            f"{page}: the output of {command!r} is stale; it is now:\n{out.getvalue()}"
        )
