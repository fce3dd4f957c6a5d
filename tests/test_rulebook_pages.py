"""The rulebook pages (``spec render``): every difference of every shipped profile from its
base is listed once, and its witness section draws the table where the two rulesets part and
says what each decides there, or says in one sentence that no witness exists."""

from __future__ import annotations

import html
import re
from functools import cache

import pytest

from baloot_conformance.compare.diff import diff_rulesets
from baloot_conformance.report.rulebook_pages import Page, render_pages
from baloot_conformance.rules.loading import load_ruleset, shipped_rulesets

PROFILES = [name for name in shipped_rulesets() if len(load_ruleset(name).lineage) > 1]
SECTION = re.compile(r'<section class="difference" id="difference-([^"]+)">(.*?)</section>', re.S)


@cache
def pages() -> dict[str, Page]:
    return {page.name: page for page in render_pages()}


def _text(fragment: str) -> str:
    """The words of an HTML fragment, tags dropped, entities read."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", fragment)).split())


@pytest.mark.parametrize("name", PROFILES)
def test_every_difference_is_listed_once_with_its_witness(name: str) -> None:
    profile = load_ruleset(name)
    base = load_ruleset(profile.lineage[-1])
    differences = diff_rulesets(base, profile)
    sections = SECTION.findall(pages()[f"{name}.html"].html)
    assert [rule_id for rule_id, _ in sections] == [d.rule_id for d in differences]
    for (rule_id, body), difference in zip(sections, differences, strict=True):
        items = re.findall(r"<li>(.*?)</li>", body, re.S)
        assert len(items) == len(difference.changes), f"{name} {rule_id}: {items}"
        for (parameter, _, _), item in zip(difference.changes, items, strict=True):
            assert _text(item).startswith(f"{parameter}: {base.id} "), item
            assert _text(item).count(f" {profile.id} ") == 1, item
        words = _text(body.split("</ul>", 1)[1])
        if "No witness" in words:  # one sentence, and no table
            assert words.count(".") == 1 and "<figure" not in body, f"{name} {rule_id}: {words}"
            continue
        assert body.count('<figure class="diagram"') == 1, f"{name} {rule_id}: no table"
        # the profile against its base, or against itself with this one rule read as the base
        # reads it, where its other differences make the base reject the fixture too
        variant = f"{profile.id} with {rule_id} read as {base.id} reads it"
        witness = re.search(r"fixture \S+\. (.+?) accepts it; (.+?) parts from it at (\S+)", words)
        assert witness is not None, f"{name} {rule_id}: {words}"
        assert re.fullmatch(r"h\d+\.\S+", witness.group(3).rstrip(":"))
        assert {witness.group(1), witness.group(2)} in (
            {base.id, profile.id},
            {variant, profile.id},
        ), words


def test_every_profile_difference_is_witnessed_by_its_fixture() -> None:
    """The shipped corpus has a fixture per difference: none of the pages says none exists."""
    missing = [
        f"{name}: {rule_id}"
        for name in PROFILES
        for rule_id, body in SECTION.findall(pages()[f"{name}.html"].html)
        if "No witness" in body
    ]
    assert missing == []


def test_a_difference_without_a_witness_says_so_in_one_sentence() -> None:
    (page, _) = render_pages(["jawaker"], corpus=[])
    sections = SECTION.findall(page.html)
    assert len(sections) == len(diff_rulesets(load_ruleset("saudi"), load_ruleset("jawaker")))
    for rule_id, body in sections:
        words = _text(body.split("</ul>", 1)[1])
        assert words.startswith("No witness:") and words.count(".") == 1, (rule_id, words)
        assert "<figure" not in body and "parts from it" not in body


def test_an_empty_or_absent_value_is_named_not_left_blank() -> None:
    page = pages()["baloothub.html"].html
    assert "<code></code>" not in page
    assert "baloothub <code>none</code>" in page
