"""The rulebook as static HTML pages (``spec render``), for people who play Baloot and have
never read YAML.

One page per ruleset: every rule in order, each with an anchor named by its rule ID, its
statement, its parameters in words, its sources with their bibliography entries, and the
profiles that read it differently. A profile's page opens with its differences from the
ruleset it extends, each change told once, and its witness: the profile's fixture for that
rule, which one of the two rulesets accepts and the other does not, with the table where the
two part and what each decides there (or one sentence saying no fixture tells them apart),
then the engine defects it lists (``defects:``) and the readings no option can express yet
(``unmodelled:``). An index page lists the rulesets. The pages are self-contained (one
stylesheet inline, no script) and link to each other by relative paths, so the folder can be
published as is.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from baloot_conformance.compare.diff import Difference, change_notes, diff_rulesets
from baloot_conformance.compare.witness import Witness, replayed_witness
from baloot_conformance.corpus.fixtures import Fixture, load_corpus
from baloot_conformance.report.html import environment
from baloot_conformance.rules.loading import isolate, load_ruleset, shipped_rulesets
from baloot_conformance.rules.ruleset import Ruleset, mechanism, rule_documents
from baloot_conformance.version import __version__


@dataclass(frozen=True)
class Page:
    """One page: its file name and its HTML."""

    name: str
    html: str


def _words(value: Any) -> str:
    """A parameter's value in words: text as is, lists joined, anything else as JSON; an
    empty list is ``none`` and an absent value ``(absent)``, never an empty box."""
    if value is None:
        return "(absent)"
    if value == []:
        return "none"
    if isinstance(value, str):
        return " ".join(value.split())
    if isinstance(value, list) and all(isinstance(v, (str, int)) for v in value):
        return ", ".join(str(v) for v in value)
    return json.dumps(value, ensure_ascii=False)


def _witnesses(
    profile: Ruleset, base: Ruleset, corpus: Sequence[Fixture], differences: Sequence[Difference]
) -> dict[str, dict[str, Any]]:
    """Each differing rule's witness, by rule ID: the first of the profile's fixtures for that
    rule (in corpus order) that one of the two rulesets accepts and the other does not (the
    profile's reading may be the one that fails), with the table where they part.

    A profile's fixture shows its rule against the profile with that one rule read as the
    base reads it; where the profile's other differences make the base reject the fixture
    too, that is the comparison the page shows. A rule no fixture tells apart has no entry.
    """
    found: dict[str, dict[str, Any]] = {}
    for difference in differences:
        rule_id = difference.rule_id
        fixtures = [f for f in corpus if f.area == profile.id and rule_id in f.rules]
        names = {profile.id: profile.id, base.id: base.id}
        others = [base]
        variant = isolate(profile, {rule_id: difference.rule_a})
        if variant is not None:
            names[variant.id] = f"{profile.id} with {rule_id} read as {base.id} reads it"
            others.append(variant)
        for other, fixture in ((o, f) for o in others for f in fixtures):
            witness = replayed_witness(fixture.text, other, profile, str(fixture.path), True)
            if witness is not None:
                found[rule_id] = {"id": fixture.id, **_witness_words(witness, names)}
                break
    return found


def _witness_words(witness: Witness, names: dict[str, str]) -> dict[str, Any]:
    """What the page says of a witness: who accepts it, who parts from it, where and why."""
    return {
        "passes": names[witness.passes.partition("@")[0]],
        "fails": names[witness.fails.partition("@")[0]],
        "position": witness.position,
        "rule_id": witness.rule_id,
        "message": witness.message.rstrip("."),
        "expected": witness.expected,
        "claimed": witness.claimed,
        "table": witness.table,
    }


def _rules(ruleset: Ruleset, readers: dict[str, list[str]]) -> list[dict[str, Any]]:
    rules = []
    for rule_id, document in rule_documents(ruleset).items():
        rules.append(
            {
                "id": rule_id,
                "statement": document["statement"],
                "parameters": [(k, _words(v)) for k, v in mechanism(document).items()],
                "sources": [
                    (key, ruleset.sources.get(key.split()[0], "")) for key in document["sources"]
                ],
                "notes": document.get("notes"),
                "read_by": readers.get(rule_id, []),
            }
        )
    return rules


def render_pages(
    ids: Sequence[str] | None = None, corpus: Sequence[Fixture] | None = None
) -> Iterator[Page]:
    """The pages of the rulesets named (default: every shipped one) and an index; the
    witnesses are taken from ``corpus`` (default: the shipped fixtures)."""
    names = list(ids) if ids else list(shipped_rulesets())
    rulesets = [load_ruleset(name) for name in names]
    env = environment()
    corpus = load_corpus() if corpus is None else corpus
    differences: dict[str, list[Difference]] = {}
    readers: dict[str, dict[str, list[str]]] = {}
    for ruleset in rulesets:
        if len(ruleset.lineage) > 1:
            base = load_ruleset(ruleset.lineage[-1])
            differences[ruleset.id] = diff_rulesets(base, ruleset)
            for difference in differences[ruleset.id]:
                readers.setdefault(base.id, {}).setdefault(difference.rule_id, [])
                readers[base.id][difference.rule_id].append(ruleset.id)
    shown = {ruleset.id for ruleset in rulesets}
    for ruleset in rulesets:
        base_id = ruleset.lineage[-1] if len(ruleset.lineage) > 1 else None
        changed = differences.get(ruleset.id, [])
        witnesses = (
            _witnesses(ruleset, load_ruleset(base_id), corpus, changed)
            if base_id is not None
            else {}
        )
        yield Page(
            f"{ruleset.id}.html",
            env.get_template("rulebook.html").render(
                ruleset=ruleset,
                base=base_id if base_id in shown else None,
                base_id=base_id,
                rules=_rules(
                    ruleset,
                    {
                        k: [p for p in v if p in shown]
                        for k, v in readers.get(ruleset.id, {}).items()
                    },
                ),
                differences=[
                    {
                        "rule_id": d.rule_id,
                        "changes": [
                            (n, _words(a), _words(b), change_notes(d.rule_id, n, a, b))
                            for n, a, b in d.changes
                        ],
                        "witness": witnesses.get(d.rule_id),
                    }
                    for d in changed
                ],
                unmodelled=ruleset.document.get("unmodelled", []),
                kit=__version__,
                generator=GENERATOR,
            ),
        )
    yield Page(
        "index.html",
        env.get_template("index.html").render(
            rulesets=rulesets, kit=__version__, generator=GENERATOR
        ),
    )


GENERATOR = "baloot-conformance spec render"
"""The ``generator`` meta tag of every page: how an earlier rendering is recognised."""


def is_rendered(folder: Path) -> bool:
    """Whether ``folder`` holds an earlier rendering (which ``spec render`` may replace)."""
    return is_rendered_page(folder / "index.html")


def is_rendered_page(path: Path) -> bool:
    """Whether ``path`` is a page ``spec render`` wrote."""
    try:
        return f'<meta name="generator" content="{GENERATOR}">' in path.read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return False
