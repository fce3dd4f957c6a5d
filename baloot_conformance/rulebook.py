"""The rule reference of ``docs/ruleset.md``, generated from the schema and a ruleset.

Every section, rule and field, with the schema's descriptions, the allowed values and the
default ruleset's value; fixed rules say why no profile may change them. A test keeps the page
in step: ``python -m baloot_conformance.rulebook --write`` rewrites the section.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from baloot_conformance.rules import SECTIONS
from baloot_conformance.ruleset import Ruleset, load_ruleset, ruleset_schema

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
                meaning = " ".join(str(resolved.get("description", "")).split())
                lines.append(
                    f"| `{name}` | {meaning} | {_kind(spec)} | {_value(name, rule.get(name))} |"
                )
    return "\n".join(lines) + "\n"


def updated_page(page: str) -> str:
    """``page`` (docs/ruleset.md) with its reference section regenerated."""
    head = page.split(HEADING, 1)[0]
    return head + rule_reference_markdown()


if __name__ == "__main__":  # pragma: no cover - a maintenance command
    target = Path(__file__).resolve().parent.parent / "docs" / "ruleset.md"
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m baloot_conformance.rulebook --write")
    target.write_text(updated_page(target.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote {target}")
