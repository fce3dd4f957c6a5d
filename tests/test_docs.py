"""The documentation keeps up with the data: every rule ID and option is documented."""

from __future__ import annotations

from pathlib import Path

from baloot_conformance.rules.validation import ruleset_schema

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_ruleset_doc_names_every_rule_and_option() -> None:
    text = (DOCS / "ruleset.md").read_text(encoding="utf-8")
    schema = ruleset_schema()
    missing = []
    for section in ("cards", "deal", "bidding", "doubling", "play", "projects", "scoring", "game"):
        for key, rule in schema["properties"][section]["properties"].items():
            if f"`{section}.{key}`" not in text:
                missing.append(f"{section}.{key}")
            for name, field in rule["properties"].items():
                missing += [
                    f"{section}.{key}.{name}={option}"
                    for option in field.get("enum", [])
                    if f"`{option}`" not in text
                ]
    assert not missing, f"docs/ruleset.md does not mention: {missing}"


def test_readme_shows_the_real_check_output() -> None:
    """The quick start's sample output is what `check` prints today."""
    import io

    from baloot_conformance.cli import main

    readme = (DOCS.parent / "README.md").read_text(encoding="utf-8")
    for name in ("conforming-game.btn", "nonconforming-game.btn"):
        out = io.StringIO()
        main(["check", f"examples/{name}", "--no-color"], stdout=out, stderr=io.StringIO())
        block = f"$ baloot-conformance check examples/{name}\n{out.getvalue()}"
        assert block in readme, f"README output for {name} is stale:\n{out.getvalue()}"


def test_the_rule_reference_is_generated_from_the_schema() -> None:
    from baloot_conformance.rules.rulebook import updated_page

    page = (DOCS / "ruleset.md").read_text(encoding="utf-8")
    assert updated_page(page) == page, (
        "docs/ruleset.md's reference is stale: python -m baloot_conformance.rules.rulebook --write"
    )


def test_the_sources_page_is_current() -> None:
    from baloot_conformance.rules.rulebook import sources_markdown

    page = (DOCS / "sources.md").read_text(encoding="utf-8")
    assert page == sources_markdown(), (
        "docs/sources.md is stale: python -m baloot_conformance.rules.rulebook --write"
    )
    assert "| `KAM` |" in page and "`scoring.sun.conversion`" in page
