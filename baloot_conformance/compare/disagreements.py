"""``docs/disagreements.md``: every rule on which the shipped rulesets disagree, as a page a
Baloot player can read, generated from the rulesets themselves.

For each rule that some profile changes: the default reading, then each other reading with
the rulesets that hold it, their statement, sources and notes (which quote the source texts),
and a witness hand that tells the reading from the default (see
:func:`~baloot_conformance.compare.witness.find_witness`). Then the readings no option can
express yet (the profiles' ``unmodelled``), the engines' listed defects (``defects``) and what
each source leaves unsaid (``silent``).

The page is deterministic: the witness search is seeded, so the same rulesets give the same
page, and a test regenerates it to catch a stale copy.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from baloot_conformance.compare.diff import Difference, diff_rulesets
from baloot_conformance.compare.witness import (
    Witness,
    find_witness,
    replayed_witness,
    witness_words,
)
from baloot_conformance.rules.loading import load_ruleset, shipped_rulesets
from baloot_conformance.rules.ruleset import Ruleset, canonical_json, mechanism
from baloot_conformance.rules.validation import ruleset_schema

WitnessFinder = Callable[[Ruleset, Ruleset, Difference], "Witness | None"]

_HEAD = """\
# Where the rules of Baloot disagree

Published rule texts, apps and engines do not play the same Baloot. This page lists every rule
on which a ruleset shipped with the kit departs from the default, `{base}` (the common Saudi
rules): for each rule, the default reading, every other reading with the rulesets that hold it
and their sources, and a **witness**: a short recorded game that is correct under one reading
and wrong under the other, so an engine's author can see the difference on a real hand.

Generated from the rulesets by `baloot-conformance spec disagreements --output
docs/disagreements.md`; do not edit it by hand (a test fails when it is stale). To compare two
rulesets yourself: `baloot-conformance spec diff {base} gamerules --witness`.

How to read a witness: it is a transcript in BTN (see `btn.md`); *passes* names the ruleset
under which every event and claim of it is right, *fails* the ruleset under which it is not,
with the position (`h1.t5.p4`: hand 1, trick 5, fourth card), the rule and the reason.
"""


def _profiles(base: Ruleset) -> list[Ruleset]:
    return [
        ruleset
        for ruleset in (load_ruleset(name) for name in shipped_rulesets())
        if ruleset.id != base.id and ruleset.lineage[-1] == base.id
    ]


def committed_witnesses(page: str) -> dict[tuple[str, str], str]:
    """The witness transcripts of a page, by rule ID and the ruleset they were found for."""
    found: dict[tuple[str, str], str] = {}
    pattern = re.compile(r"<!-- witness (\S+) (\S+) -->\n<details>.*?```btn\n(.*?)```", re.S)
    for rule_id, ruleset_id, text in pattern.findall(page):
        found[(rule_id, ruleset_id)] = text
    return found


def disagreements_markdown(
    base_id: str = "saudi",
    witness_for: WitnessFinder | None = None,
    progress: Callable[[str], None] | None = None,
) -> str:
    """The page, for the shipped profiles of ``base_id``. ``witness_for`` finds the witness
    of one difference (default: the seeded search)."""
    find = witness_for or (lambda a, b, d: find_witness(a, b, d))
    say = progress or (lambda line: None)
    base = load_ruleset(base_id)
    profiles = _profiles(base)
    schema = ruleset_schema()["properties"]
    by_rule: dict[str, list[tuple[Ruleset, Difference]]] = {}
    for profile in profiles:
        for difference in diff_rulesets(base, profile):
            by_rule.setdefault(difference.rule_id, []).append((profile, difference))
    order = [rule.id for rule in base.iter_rules() if rule.id in by_rule]

    out = [_HEAD.format(base=base.id), "## The rulesets", ""]
    out += ["| ruleset | what it is | rules changed | silent on | not expressible |"]
    out += ["|---|---|---|---|---|"]
    changed = {p.id: 0 for p in profiles}
    for entries in by_rule.values():
        for profile, _ in entries:
            changed[profile.id] += 1
    for profile in profiles:
        doc = profile.document
        out.append(
            f"| `{profile.id}` | {profile.title} | {changed[profile.id]} | "
            f"{len(doc.get('silent', []))} | {len(doc.get('unmodelled', []))} |"
        )
    out += ["", "## The disagreements, rule by rule", ""]
    out += [f"- [`{rule_id}`](#{_anchor(rule_id)})" for rule_id in order]
    for rule_id in order:
        section, _, key = rule_id.partition(".")
        what = schema[section]["properties"][key].get("description", "")
        rule = base.rule(rule_id)
        out += ["", f"### `{rule_id}`", "", f"{what}", ""]
        out += [f"**`{base.id}`** ({_sources(rule.sources)}): {rule.statement}", ""]
        readings: dict[str, list[tuple[Ruleset, Difference]]] = {}
        for profile, difference in by_rule[rule_id]:
            readings.setdefault(canonical_json(mechanism(difference.rule_b)), []).append(
                (profile, difference)
            )
        for entries in readings.values():
            holders = ", ".join(f"`{p.id}`" for p, _ in entries)
            change = "; ".join(entries[0][1].details)  # one reading: the same details
            out += [f"**{holders}**: {change}", ""]
            for profile, d in entries:
                statement = d.rule_b.get("statement", "")
                sources = _sources(tuple(d.rule_b.get("sources", ())))
                out.append(f"- `{profile.id}` ({sources}): {statement}")
                notes = d.rule_b.get("notes")
                if notes and notes != d.rule_a.get("notes"):
                    out.append(f"  *{_one_line(notes)}*")
            # The witness comes from the holder nearest the base: its other differences are the
            # fewest to get in the way.
            nearest = sorted(entries, key=lambda e: (len(diff_rulesets(base, e[0])), e[0].id))
            witness, first = None, nearest[0][0]
            for first, difference in nearest[:2]:
                say(f"witness for {rule_id} under {first.id}")
                witness = find(base, first, difference)
                if witness is not None:
                    break
            out.append("")
            if witness is None:
                out += [
                    "No witness: the generated hands never showed this difference "
                    "(it may have no effect together with the ruleset's other rules).",
                    "",
                ]
                continue
            out += [
                f"<!-- witness {rule_id} {first.id} -->",
                "<details>",
                f"<summary>Witness: {_escape(witness_words(witness))}</summary>",
                "",
                "```btn",
                witness.text.rstrip(),
                "```",
                "</details>",
                "",
            ]
    out += _unmodelled(profiles)
    out += _defects(profiles)
    out += _silent(profiles)
    return "\n".join(out).rstrip() + "\n"


def _defects(profiles: list[Ruleset]) -> list[str]:
    rows = [(profile.id, defect) for profile in profiles for defect in profile.defects]
    out = ["", "## Engine defects", ""]
    if not rows:
        return [*out, "None."]
    out += [
        "What an engine does that no rulebook would state, listed by its profile: a hand whose "
        "every divergence follows from one is reported as `known-defect`, never as a pass.",
        "",
        "| rule | ruleset | defect | what the engine does | witness |",
        "|---|---|---|---|---|",
    ]
    for ruleset_id, defect in sorted(rows, key=lambda r: (r[1].rule, r[0], r[1].id)):
        out.append(
            f"| `{defect.rule}` | `{ruleset_id}` | `{defect.id}` | {_cell(defect.does)} "
            f"| {_cell(defect.witness)} |"
        )
    return out


def _unmodelled(profiles: list[Ruleset]) -> list[str]:
    rows = [
        (profile.id, gap) for profile in profiles for gap in profile.document.get("unmodelled", [])
    ]
    out = ["", "## Readings no option can express yet", ""]
    if not rows:
        return [*out, "None."]
    out += [
        "What the sources say that the kit cannot check yet; the profile keeps its base's rule "
        "there.",
        "",
        "| rule | ruleset | what the source says | what is missing |",
        "|---|---|---|---|",
    ]
    for ruleset_id, gap in sorted(rows, key=lambda r: (r[1]["rule"], r[0])):
        out.append(
            f"| `{gap['rule']}` | `{ruleset_id}` | {_cell(gap['says'])} | {_cell(gap['why'])} |"
        )
    return out


def _silent(profiles: list[Ruleset]) -> list[str]:
    out = ["", "## What each source leaves unsaid", ""]
    out += ["Where a source says nothing, its profile keeps the default reading.", ""]
    for profile in profiles:
        silent = profile.document.get("silent", [])
        if silent:
            out.append(f"- `{profile.id}`: " + ", ".join(f"`{r}`" for r in silent))
    return out


def _sources(sources: tuple[str, ...]) -> str:
    return ", ".join(sources)


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _cell(text: str) -> str:
    return _one_line(text).replace("|", "\\|")


def _escape(text: str) -> str:
    return text.replace("<", "&lt;").replace(">", "&gt;")


def _anchor(rule_id: str) -> str:
    """The anchor a Markdown renderer gives the heading of a rule ID."""
    return rule_id.replace(".", "").lower()


def from_page(page: str) -> WitnessFinder:
    """A witness finder that takes each witness from a committed page and verifies it by
    replaying it, instead of searching: regenerating the page this way is cheap and still
    fails when a witness no longer tells its rulesets apart."""
    committed = committed_witnesses(page)

    def finder(a: Ruleset, b: Ruleset, difference: Difference) -> Witness | None:
        text = committed.get((difference.rule_id, b.id))
        return None if text is None else replayed_witness(text, a, b)

    return finder
