"""The trick rulesets' rulebook as static HTML pages (``spec render --ruleset bourre ...``),
beside Baloot's (:mod:`.rulebook_pages`, whose pages this module leaves as they are).

One page per trick ruleset: a profile's page opens with its differences from the ruleset it
extends (each rule's two readings, and the command that prints a witness hand for it), then
every rule in order, each with an anchor named by its rule ID, its statement, its parameters,
its sources with their bibliography entries, and links to the profiles that read it
otherwise; then what the ruleset leaves unmodelled. An index page lists the pages. The pages
are self-contained (one stylesheet inline, no script), linked by relative paths.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from typing import Any

from baloot_conformance.family.rules.loading import RULE_SECTIONS, load_trick_ruleset
from baloot_conformance.family.rules.model import TrickRuleset
from baloot_conformance.report.rulebook_pages import GENERATOR, Page
from baloot_conformance.rules.ruleset import mechanism

_STYLE = (
    "body{font-family:system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;"
    "line-height:1.45}code{background:#f3f3f3;padding:0 .2em}h3{margin-bottom:.2rem}"
    ".other{border-left:3px solid #c60;padding-left:.8rem}.meta{color:#555}"
)


def _esc(value: Any) -> str:
    return html.escape(" ".join(str(value).split()))


def _rules(ruleset: TrickRuleset) -> dict[str, Mapping[str, Any]]:
    return {
        f"{section}.{name}": rule
        for section in RULE_SECTIONS
        for name, rule in ruleset.document.get(section, {}).items()
        if isinstance(rule, Mapping)
    }


def _parameters(rule: Mapping[str, Any]) -> str:
    items = []
    for name, value in mechanism(rule).items():
        if name == "examples":
            continue
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        items.append(f"<code>{_esc(name)}: {_esc(text)}</code>")
    return ", ".join(items) or "(no parameters)"


def _sources(rule: Mapping[str, Any], bibliography: Mapping[str, str]) -> str:
    shown = []
    for source in rule.get("sources", ()):
        key = str(source).split()[0].rstrip(",:")
        entry = bibliography.get(key)
        title = f' title="{_esc(entry)}"' if entry else ""
        shown.append(f"<span{title}>{_esc(source)}</span>")
    return "; ".join(shown) or "—"


def _page(title: str, body: list[str]) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{_esc(title)}</title><style>{_STYLE}</style>"
        f'<meta name="generator" content="{GENERATOR}">'
        "</head><body>\n" + "\n".join(body) + "\n</body></html>\n"
    )


def render_trick_pages(names: Sequence[str]) -> list[Page]:
    """The pages of the named trick rulesets and their index (``index.html``)."""
    rulesets = [load_trick_ruleset(name) for name in names]
    rendered = {r.id for r in rulesets}
    readers: dict[tuple[str, str], list[str]] = {}  # (base id, rule) -> profiles reading it
    bases: dict[str, TrickRuleset] = {}
    for ruleset in rulesets:
        if len(ruleset.lineage) > 1:
            base = bases.setdefault(ruleset.lineage[1], load_trick_ruleset(ruleset.lineage[1]))
            mine, theirs = _rules(ruleset), _rules(base)
            for rule_id, rule in mine.items():
                if mechanism(rule) != mechanism(theirs.get(rule_id, {})):
                    readers.setdefault((base.id, rule_id), []).append(ruleset.id)
    pages = [_ruleset_page(r, bases, readers, rendered) for r in rulesets]
    index = [f"<h1>Trick rulesets</h1><p class=meta>trick-ruleset/1, {len(pages)} pages</p><ul>"]
    for ruleset in rulesets:
        index.append(
            f'<li><a href="{ruleset.id}.html">{_esc(ruleset.id)}</a> {_esc(ruleset.version)}: '
            f"{_esc(ruleset.title)}</li>"
        )
    index.append("</ul>")
    return [*pages, Page("index.html", _page("Trick rulesets", index))]


def _ruleset_page(
    ruleset: TrickRuleset,
    bases: Mapping[str, TrickRuleset],
    readers: Mapping[tuple[str, str], list[str]],
    rendered: set[str],
) -> Page:
    bibliography = dict(ruleset.sources)
    body = [
        '<p><a href="index.html">all trick rulesets</a></p>',
        f"<h1>{_esc(ruleset.title)}</h1>",
        f"<p class=meta><code>{_esc(ruleset.id)}</code> {_esc(ruleset.version)}, resolved from "
        f"{_esc(' <- '.join(ruleset.lineage))}; {_esc(ruleset.digest)}</p>",
        f"<p>{_esc(ruleset.description)}</p>",
    ]
    rules = _rules(ruleset)
    if len(ruleset.lineage) > 1:
        base = bases[ruleset.lineage[1]]
        theirs = _rules(base)
        changed = [r for r in rules if mechanism(rules[r]) != mechanism(theirs.get(r, {}))]
        body.append(f"<h2>How it differs from {_esc(base.id)}</h2>")
        if not changed:
            body.append("<p>In no rule.</p>")
        for rule_id in changed:
            body.append(
                f'<div class=other><h3><a href="#{rule_id}">{_esc(rule_id)}</a></h3>'
                f"<p>{_esc(base.id)}: {_parameters(theirs.get(rule_id, {}))}<br>"
                f"{_esc(ruleset.id)}: {_parameters(rules[rule_id])}</p>"
                f"<p class=meta>a witness hand: <code>baloot-conformance spec diff {base.id} "
                f"{ruleset.id} --witness</code></p></div>"
            )
    body.append("<h2>Every rule</h2>")
    for rule_id, rule in rules.items():
        others = [p for p in readers.get((ruleset.id, rule_id), []) if p in rendered]
        links = ", ".join(f'<a href="{p}.html#{rule_id}">{_esc(p)}</a>' for p in others)
        body += [
            f'<h3 id="{rule_id}">{_esc(rule_id)}</h3>',
            f"<p>{_esc(rule.get('statement', ''))}</p>",
            f"<p class=meta>parameters: {_parameters(rule)}<br>sources: "
            f"{_sources(rule, bibliography)}</p>",
        ]
        if links:
            body.append(f"<p class=meta>read otherwise by {links}</p>")
    unmodelled = ruleset.document.get("unmodelled") or ()
    if unmodelled:
        body.append("<h2>Not modelled</h2><ul>")
        for entry in unmodelled:
            body.append(
                f"<li><code>{_esc(entry.get('rule'))}</code>: {_esc(entry.get('says'))} "
                f"<em>Why:</em> {_esc(entry.get('why'))}</li>"
            )
        body.append("</ul>")
    return Page(f"{ruleset.id}.html", _page(ruleset.title, body))
