"""Generated pages: the rule reference of ``docs/ruleset.md``, and ``docs/sources.md``.

The reference lists every section, rule and field, with the schema's descriptions, the allowed
values and the default ruleset's value; fixed rules say why no profile may change them. The
sources page is the bibliography behind the source keys every rule cites, with the rules and
rulesets citing each. Tests keep both in step: ``python -m baloot_conformance.rules.rulebook
--write`` rewrites them.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from baloot_conformance.rules.loading import load_ruleset
from baloot_conformance.rules.model import SECTIONS
from baloot_conformance.rules.ruleset import Ruleset
from baloot_conformance.rules.validation import ruleset_schema

#: The heading the generated section starts at; it runs to the end of the page.
HEADING = "## Reference: every section, rule and field"
_TEXT_FIELDS = ("statement", "sources", "notes")


def _kind(spec: dict[str, Any]) -> str:
    if "enum" in spec:
        return "one of " + ", ".join(f"`{v}`" for v in spec["enum"])
    ref = spec.get("$ref", "")
    if ref.endswith("/formula"):
        return "formula"
    if ref.endswith("/examples"):
        return "examples"
    if "oneOf" in spec:
        return "integer, or a mapping per contract"
    kind = spec.get("type", "")
    if isinstance(kind, list):
        return " or ".join(kind)
    return {"array": "list", "object": "mapping"}.get(str(kind), str(kind))


def _value(name: str, value: Any) -> str:
    if value is None:
        return "(absent)" if name != "faceup_ace" else "`null`"
    if name == "examples":
        return f"({len(value)} examples)"
    if isinstance(value, str):
        return f"`{' '.join(value.split())}`"
    return f"`{json.dumps(value, ensure_ascii=False)}`"


def rule_reference_markdown(ruleset: Ruleset | None = None) -> str:
    """The reference section, from the schema and ``ruleset`` (default ``saudi``)."""
    base = ruleset or load_ruleset("saudi")
    schema = ruleset_schema()
    defs = schema["$defs"]
    lines = [
        HEADING,
        "",
        "Generated from the schema's descriptions and the `saudi` values; "
        "`spec/schema/ruleset.schema.json`",
        "is normative. A **fixed** rule is one every source agrees on: "
        "a profile may not restate it.",
    ]
    for section in SECTIONS:
        section_schema = schema["properties"][section]
        lines += ["", f"### `{section}`: {section_schema.get('description', '')}"]
        for key, rule_schema in section_schema["properties"].items():
            rule = base.document[section][key]
            description = rule_schema.get("description", "").rstrip(".")
            lines += ["", f"#### `{section}.{key}`", ""]
            lines.append(f"{description}. Default: *{rule['statement']}*")
            if "x-fixed" in rule_schema:
                lines += ["", f"Fixed: {rule_schema['x-fixed']}"]
            fields = [
                (name, spec)
                for name, spec in rule_schema["properties"].items()
                if name not in _TEXT_FIELDS
            ]
            if not fields:
                continue
            lines += ["", "| field | meaning | values | `saudi` |", "|---|---|---|---|"]
            for name, spec in fields:
                resolved = defs[spec["$ref"].split("/")[-1]] if "$ref" in spec else spec
                described = spec.get("description") or resolved.get("description", "")
                meaning = " ".join(str(described).split())
                lines.append(
                    f"| `{name}` | {meaning} | {_kind(spec)} | {_value(name, rule.get(name))} |"
                )
    return "\n".join(lines) + "\n"


def sources_markdown() -> str:
    """``docs/sources.md``: each bibliography key, what it is, and who cites it."""
    from baloot_conformance.rules.loading import shipped_rulesets

    base = load_ruleset("saudi")
    bibliography: dict[str, str] = dict(base.document.get("sources", {}))
    cited: dict[str, list[str]] = {key: [] for key in bibliography}
    for name in shipped_rulesets():
        ruleset = load_ruleset(name)
        for section in SECTIONS:
            for key, rule in ruleset.document.get(section, {}).items():
                if name != "saudi" and rule == base.document[section].get(key):
                    continue  # inherited from saudi, counted there
                for source in rule.get("sources", []):
                    head = str(source).split()[0].rstrip(",:")
                    if head in cited:
                        cited[head].append(
                            f"{section}.{key}" + ("" if name == "saudi" else f" ({name})")
                        )
    lines = [
        "# Sources",
        "",
        "Every rule of every ruleset cites the sources it rests on by a short key (`sources:`),",
        "sometimes followed by the part of the source meant (a file, a section, a logged hand).",
        "This page is the bibliography behind the keys, generated from `spec/rulesets/saudi.yaml`",
        "(`python -m baloot_conformance.rules.rulebook --write`); profiles cite the same keys.",
        "Where the sources disagree, `docs/disagreements.md` sets their readings side by side.",
        "",
        "| key | source | cited by |",
        "|---|---|---|",
    ]
    for key, text in bibliography.items():
        users = cited[key]
        shown = ", ".join(f"`{u}`" for u in users[:6]) + (
            f" and {len(users) - 6} more" if len(users) > 6 else ""
        )
        lines.append(f"| `{key}` | {' '.join(str(text).split())} | {shown or '—'} |")
    return "\n".join(lines) + "\n"


def updated_page(page: str) -> str:
    """``page`` (docs/ruleset.md) with its reference section regenerated."""
    head = page.split(HEADING, 1)[0]
    return head + rule_reference_markdown()


if __name__ == "__main__":  # pragma: no cover - a maintenance command
    docs = Path(__file__).resolve().parents[2] / "docs"
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m baloot_conformance.rules.rulebook --write")
    target = docs / "ruleset.md"
    target.write_text(updated_page(target.read_text(encoding="utf-8")), encoding="utf-8")
    (docs / "sources.md").write_text(sources_markdown(), encoding="utf-8")
    print(f"wrote {target} and {docs / 'sources.md'}")
