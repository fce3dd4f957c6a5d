"""The trick family's part of ``docs/disagreements.md``: every rule on which a game's shipped
profiles depart from its common rules (Bourré's, Barbu's; Hearts has one ruleset), with the
readings, the rulesets that hold each, their sources and a witness hand (a BTN 2 transcript
that passes under one reading and fails under the other: :func:`.witness.find_witness`).

The page's Baloot part is :mod:`baloot_conformance.compare.disagreements`'; ``spec
disagreements`` writes this part after it. The witness search is seeded, so the same rulesets
give the same page, and :func:`from_page` rebuilds the page from its committed witnesses
(replayed, so a witness that no longer tells its rulesets apart fails), which a test does to
catch a stale copy.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from baloot_conformance.family.compare.diff import Difference, diff_trick_rulesets
from baloot_conformance.family.compare.witness import Witness, find_witness, replayed_witness
from baloot_conformance.family.rules.model import TrickRuleset
from baloot_conformance.family.rules.rulebook import games
from baloot_conformance.rules.ruleset import canonical_json, mechanism

TrickWitnessFinder = Callable[[TrickRuleset, TrickRuleset, Difference], "Witness | None"]

_HEAD = """\

# Where the rules of the trick family disagree

The same for Baloot's siblings (format `trick-ruleset/1`, transcripts in BTN 2, see
`btn2.md`): for each game, every rule on which a profile departs from the game's common rules,
the readings and the rulesets that hold them, and a witness hand. To compare two rulesets
yourself: `baloot-conformance spec diff barbu barbu-seed --witness`.
"""

#: The marker of a family witness on the page (Baloot's use ``<!-- witness ...``).
_MARK = re.compile(r"<!-- trick-witness (\S+) (\S+) -->\n<details>.*?```btn\n(.*?)```", re.S)


def family_disagreements_markdown(
    witness_for: TrickWitnessFinder | None = None,
    progress: Callable[[str], None] | None = None,
) -> str:
    """The family's part of the page (``witness_for``: how a witness is found; the seeded
    search by default)."""
    find = witness_for or (lambda a, b, d: find_witness(a, b, d))
    say = progress or (lambda line: None)
    out = [_HEAD]
    for game, rulesets in games().items():
        base, profiles = rulesets[0], rulesets[1:]
        out += [f"## {base.title} (`{base.id}`)", ""]
        if not profiles:
            out += [f"One ruleset, `{base.id}`: no profile departs from it yet.", ""]
            continue
        out += ["| ruleset | what it is | rules changed | not expressible |", "|---|---|---|---|"]
        by_rule: dict[str, list[tuple[TrickRuleset, Difference]]] = {}
        for profile in profiles:
            differences = diff_trick_rulesets(base, profile)
            for difference in differences:
                by_rule.setdefault(difference.rule_id, []).append((profile, difference))
            unmodelled = len(profile.document.get("unmodelled", []) or [])
            out.append(f"| `{profile.id}` | {profile.title} | {len(differences)} | {unmodelled} |")
        out.append("")
        for rule_id, entries in by_rule.items():
            out += [f"### `{rule_id}` ({game})", ""]
            rule = entries[0][1].rule_a
            if rule is not None:
                out += [
                    f"**`{base.id}`** ({_sources(rule)}): {_one_line(rule.get('statement'))}",
                    "",
                ]
            readings: dict[str, list[tuple[TrickRuleset, Difference]]] = {}
            for profile, difference in entries:
                key = canonical_json(mechanism(difference.rule_b or {}))
                readings.setdefault(key, []).append((profile, difference))
            for holders in readings.values():
                names = ", ".join(f"`{p.id}`" for p, _ in holders)
                out += [f"**{names}**: {'; '.join(holders[0][1].details)}", ""]
                for profile, difference in holders:
                    other = difference.rule_b or {}
                    out.append(
                        f"- `{profile.id}` ({_sources(other)}): {_one_line(other.get('statement'))}"
                    )
                first, difference = holders[0]
                say(f"witness for {rule_id} under {first.id}")
                found = find(base, first, difference)
                # shown as the two whole rulesets judge it (as a replay of the page does)
                witness = found and (replayed_witness(found.text, base, first) or found)
                out.append("")
                if witness is None:
                    out += ["No witness: the generated hands never showed this difference.", ""]
                    continue
                out += [
                    f"<!-- trick-witness {rule_id} {first.id} -->",
                    "<details>",
                    f"<summary>Witness: passes under {witness.passes}; under {witness.fails} it "
                    f"fails at {witness.position} {witness.rule_id}: "
                    f"{_escape(witness.message)}</summary>",
                    "",
                    "```btn",
                    witness.text.rstrip(),
                    "```",
                    "</details>",
                    "",
                ]
    return "\n".join(out).rstrip() + "\n"


def from_page(page: str) -> TrickWitnessFinder:
    """A finder that takes each witness from a committed page and replays it instead of
    searching (cheap, and still failing when a witness no longer tells its rulesets apart)."""
    committed = {(rule, ruleset): text for rule, ruleset, text in _MARK.findall(page)}

    def finder(a: TrickRuleset, b: TrickRuleset, difference: Difference) -> Witness | None:
        text = committed.get((difference.rule_id, b.id))
        return None if text is None else replayed_witness(text, a, b)

    return finder


def _sources(rule: Mapping[str, Any]) -> str:
    return ", ".join(str(s) for s in rule.get("sources", ())) or "—"


def _one_line(text: object) -> str:
    return " ".join(str(text or "").split())


def _escape(text: str) -> str:
    return text.replace("<", "&lt;").replace(">", "&gt;")
