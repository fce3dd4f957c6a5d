"""The HTML report: one self-contained page (no script, no network, no external asset).

It shows the run's totals, the divergences per rule ID as a bar chart, and for each hand
that does not pass its root divergence: the position, the rule's statement and sources, the
ruleset's digest, the transcript line and the table drawn as cards (the card played and the
cards the ruleset allowed marked; at a Sawa or a foul call, the table at the call with the
card called marked, and the verdict with its line under it). The rule and the digest quoted
are those of the ruleset the hand was checked under, the object itself when the run names
one (a local file may reuse a shipped id with other rules), never a shipped ruleset looked
up by that id in its stead. The page is made with Jinja2 templates
(``baloot_conformance/report/templates/``) with autoescape on: everything that comes from a
transcript (comments, tag values, file names, messages quoting them) is text, never markup,
and the page's Content-Security-Policy forbids scripts besides.
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, TextIO, cast

import jinja2

from baloot_conformance.check.table import Picture, Table
from baloot_conformance.check.verdicts import FileError, HandVerdict, RunHeader, RunSummary
from baloot_conformance.errors import BalootError
from baloot_conformance.report import ring_layout
from baloot_conformance.report.base import NOTHING_CHECKED, FileTally, defect_note, unsupported_note
from baloot_conformance.report.diagram import RANK_ORDER, SYMBOLS, card_words
from baloot_conformance.rules.loading import load_ruleset, names_trick_ruleset
from baloot_conformance.rules.ruleset import Ruleset

SEAT_INDEX = {"N": 0, "W": 1, "S": 2, "E": 3}


@functools.cache
def environment() -> jinja2.Environment:
    """The templates, with autoescape on and the filters the card pictures use."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("baloot_conformance.report", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["rank"] = lambda code: "10" if code[0] == "T" else code[0]
    env.filters["suit"] = lambda suit: SYMBOLS[suit]
    env.filters["by_suit"] = lambda cards, suit: sorted(
        (c for c in cards if c[1] == suit), key=lambda c: RANK_ORDER.index(c[0])
    )
    env.filters["on_table"] = _on_table
    env.filters["card_words"] = lambda text: card_words(
        text, lambda code: env.filters["rank"](code) + SYMBOLS[code[1]]
    )
    env.globals["seat_index"] = SEAT_INDEX
    env.filters["ring_rank"] = ring_layout.rank
    env.filters["ring_suit"] = lambda suit: SYMBOLS.get(suit, suit)
    env.globals["ring_places"] = ring_layout.places
    env.globals["ring_label"] = ring_layout.label
    env.globals["ring_caption"] = lambda table: ring_layout.caption(
        table,
        env.filters["ring_suit"],
        lambda code: ring_layout.rank(code) + SYMBOLS.get(code[-1], code[-1]),
    )
    return env


def _on_table(table: Table) -> dict[str, tuple[str, bool]]:
    """The trick's cards by seat, with whether each is the card the picture is about."""
    shown = {seat: (card, card == table.called) for seat, card in table.on_table}
    if table.played is not None and table.to_play is not None:
        shown[table.to_play] = (table.played, True)
    return shown


@functools.lru_cache(maxsize=32)
def _shipped(reference: str) -> Ruleset | None:
    """The shipped ruleset a file's tag names (``saudi@1.1.0``), ``None`` when none is; a
    trick family's (``bourre``: the same face where the page quotes it) only once Baloot's
    load has failed, so that a Baloot run never loads the family."""
    name = reference.split("@")[0]
    try:
        return load_ruleset(name)
    except BalootError:
        if not names_trick_ruleset(name):
            return None
    from baloot_conformance.family.rules.loading import load_trick_ruleset

    try:
        return cast(Ruleset, load_trick_ruleset(name))
    except BalootError:
        return None


@dataclass
class HtmlReporter:
    """Collects the hands that do not pass, and writes the page at the end."""

    stream: TextIO
    ruleset: Ruleset | None = field(default=None, kw_only=True)
    """The ruleset the run checks every file under (``check --ruleset``), the object itself:
    the page quotes its rules and digest. Without it the page quotes the run's digest from
    the header, and a shipped ruleset's rules only when it is the one the run used (the same
    digest)."""
    header: RunHeader | None = None
    files: list[FileTally] = field(default_factory=list)
    hands: list[dict[str, Any]] = field(default_factory=list)
    rules: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)

    def start(self, header: RunHeader) -> None:
        self.header = header

    def _tally(self, path: str) -> FileTally:
        if not self.files or self.files[-1].path != path:
            self.files.append(FileTally(path))
        return self.files[-1]

    def hand(self, verdict: HandVerdict) -> None:
        self._tally(verdict.path).add(verdict)
        for divergence in verdict.divergences:
            self.rules[divergence.rule_id or "(no rule)"] += 1
        if verdict.status == "pass":
            return
        root = verdict.divergences[0] if verdict.divergences else None
        used = self._used(verdict.ruleset)
        self.hands.append(
            {
                "anchor": f"hand-{len(self.hands) + 1}",
                "path": verdict.path,
                "position": verdict.position,
                "status": verdict.status,
                "error": verdict.error,
                "defects": defect_note(verdict),
                "unsupported": unsupported_note(verdict),
                "root": root,
                "later": verdict.divergences[1:],
                "rule": _rule(used, root.rule_id) if root and root.rule_id else None,
                "ruleset": verdict.ruleset,
                "unquoted": used is None,
                "digest": self._digest(used),
            }
        )

    def _used(self, reference: str) -> Ruleset | None:
        """The ruleset a hand was checked under (``reference``: its ``id@version``), as the
        run used it; ``None`` when the page cannot have it (a file the run read that is not
        the shipped ruleset of its id)."""
        if self.ruleset is not None and reference == f"{self.ruleset.id}@{self.ruleset.version}":
            return self.ruleset
        shipped = _shipped(reference)
        run_digest = self.header.ruleset_digest if self.header else None
        if shipped is None or (run_digest is not None and shipped.digest != run_digest):
            return None  # the run's ruleset reuses a shipped id: never quote the shipped one
        return shipped  # each file under the ruleset its tag names: a shipped one

    def _digest(self, used: Ruleset | None) -> str:
        """The digest of the ruleset a hand was checked under: the run's, when it names one."""
        if self.header is not None and self.header.ruleset_digest is not None:
            return self.header.ruleset_digest
        return used.digest if used is not None else ""

    def file_error(self, error: FileError) -> None:
        self._tally(error.path).errors += 1
        self.problems.append(error.message)

    def finish(self, summary: RunSummary) -> None:
        page = (
            environment()
            .get_template("report.html")
            .render(
                header=self.header,
                summary=summary,
                rules=self.rules.most_common(),
                files=self.files,
                hands=self.hands,
                problems=self.problems,
                nothing_checked=NOTHING_CHECKED,
            )
        )
        self.stream.write(page)
        self.stream.flush()


def _rule(rules: Ruleset | None, rule_id: str) -> dict[str, Any] | None:
    """A rule of ``rules`` (the ruleset used): its statement and its sources with their
    bibliography entries; ``None`` when the page does not have the ruleset or the rule."""
    if rules is None:
        return None
    try:
        rule = rules.rule(rule_id)
    except KeyError:
        return None
    sources = [(key, rules.sources.get(key.split()[0], "")) for key in rule.sources]
    return {"id": rule.id, "statement": rule.statement, "sources": sources}


def picture_page(table: Table | Picture, path: str, position: str) -> str:
    """One table as a self-contained page (``show --format html``): Baloot's compass or a
    trick family's ring, as the report draws it; ``position`` says which moment it is."""
    title = f"baloot-conformance show: {path} {position}"
    template = environment().get_template("picture.html")
    return template.render(table=table, path=path, position=position, title=title)
