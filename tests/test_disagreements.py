"""``docs/disagreements.md`` is generated from the shipped rulesets and is current: the page
regenerated from the rulesets, with each witness taken from the page and verified by replaying
it under both rulesets, is the page itself."""

from __future__ import annotations

import difflib
from pathlib import Path

from baloot_conformance.compare.disagreements import (
    committed_witnesses,
    disagreements_markdown,
    from_page,
)
from baloot_conformance.family.compare import disagreements as family

PAGE = Path(__file__).resolve().parent.parent / "docs" / "disagreements.md"


def test_the_disagreements_page_is_current() -> None:
    page = PAGE.read_text(encoding="utf-8")
    fresh = disagreements_markdown(witness_for=from_page(page))
    fresh += family.family_disagreements_markdown(witness_for=family.from_page(page))
    if fresh != page:
        diff = "".join(
            list(
                difflib.unified_diff(
                    page.splitlines(True), fresh.splitlines(True), "committed", "regenerated"
                )
            )[:40]
        )
        raise AssertionError(
            "docs/disagreements.md is stale: run 'baloot-conformance spec disagreements "
            f"--output docs/disagreements.md'\n{diff}"
        )


def test_the_page_shows_the_source_texts_in_their_own_words() -> None:
    page = PAGE.read_text(encoding="utf-8")
    assert "## Readings no option can express yet" in page
    for profile in ("wikipedia-ja", "gamerules", "cardgames-zone"):
        assert f"`{profile}`" in page
    assert "第2ラウンド" in page  # a Japanese quote, with its translation next to it
    assert "licitați" in page or "Jucătorul" in page
    witnesses = committed_witnesses(page)
    assert ("play.first_lead", "gamerules") in witnesses
    assert witnesses[("play.first_lead", "gamerules")].startswith("%btn 1")


def test_each_reading_shows_its_own_change() -> None:
    """The change line above each group of profiles is that group's (it once showed another
    group's: flutter's each_raiser lock read 'at_double_and_four')."""
    page = disagreements_markdown(witness_for=lambda a, b, d: None)
    lock = page.split("### `doubling.lock`")[1].split("### ")[0]
    assert "**`baloot-ui-flutter`**: option: doubler_at_double -> each_raiser" in lock
    assert (
        "**`bloot7`, `majlis`, `saudi-federation`, `wikipedia-ja`**: option: doubler_at_double"
        " -> at_double_and_four"
    ) in lock
    assert "**`tazjel`**: option: doubler_at_double -> buyer_after_raises" in lock


def test_the_page_covers_the_trick_family_with_its_witnesses() -> None:
    page = PAGE.read_text(encoding="utf-8")
    family_part = page.split("# Where the rules of the trick family disagree")[1]
    for heading in ("(`bourre`)", "(`barbu`)", "(`hearts`)"):
        assert heading in family_part
    assert "### `play.barbu_lead` (barbu)" in family_part
    assert "<!-- trick-witness play.barbu_lead barbu-seed -->" in family_part
    assert "No witness" not in family_part
    assert "%btn 2" in family_part and "%btn 1" not in family_part
