"""What the corpus holds, fixture by fixture: ``fixtures list`` and the rule-ID selectors of
``suite --fixtures``.

A fixture is listed with its id, area, expected verdict and the features it needs
(:mod:`~baloot_conformance.check.features`), computed from its replay as ``suite``
computes a case's (never from its metadata); the filters (a rule its ``rules:`` names, an
area, a feature, a ruleset) combine with AND. A name that is no rule, area or feature is a
usage error with the closest one.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from baloot_conformance import btn
from baloot_conformance.check.features import ALL, transcript_features, unknown_feature
from baloot_conformance.corpus.fixtures import Fixture, load_corpus, run_fixture
from baloot_conformance.errors import TranscriptSyntaxError, UnreadableInputError
from baloot_conformance.rules.loading import load_ruleset, shipped_rulesets
from baloot_conformance.rules.ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class Listed:
    """One fixture as ``fixtures list`` shows it."""

    id: str
    area: str
    expect: str
    ruleset: str
    rules: tuple[str, ...]
    features: frozenset[str]


def fixture_features(fixture: Fixture) -> frozenset[str]:
    """The features a fixture needs: what its replay under its own ruleset decided, and its
    events. None for a fixture of the notation's syntax (no hand is played). Kept for the
    process by the fixture's file and text (the corpus does not change under a run)."""
    if fixture.expect.syntax_error is not None:
        return frozenset()
    return _features(fixture.path, fixture.text, fixture.tag or fixture.ruleset_id, fixture)


def _features(path: Path, text: str, ruleset: str, fixture: Fixture) -> frozenset[str]:
    key = (path, text, ruleset)
    if key not in _FEATURES:
        rules = _ruleset(ruleset)
        run = run_fixture(fixture, rules)
        try:
            with btn.TranscriptReader.from_text(text, str(path)) as reader:
                hands = tuple(reader)
        except TranscriptSyntaxError:
            hands = ()
        _FEATURES[key] = transcript_features(run.trace.rules(), hands, rules)
    return _FEATURES[key]


_FEATURES: dict[tuple[Path, str, str], frozenset[str]] = {}


@cache
def _ruleset(reference: str) -> Ruleset:
    """A ruleset a fixture names, loaded once (the corpus has hundreds under a few)."""
    return load_ruleset(reference)


@cache
def rule_ids() -> frozenset[str]:
    """Every rule ID of the shipped rulesets (what ``--rule`` and a rule-ID selector take)."""
    return frozenset(
        rule.id for name in shipped_rulesets() for rule in load_ruleset(name).iter_rules()
    )


def _known(option: str, name: str, names: Iterable[str], what: str, listing: str) -> None:
    """A usage error unless ``name`` is one of ``names``: the closest, and where to look."""
    known = sorted(set(names))
    if name in known:
        return
    close = difflib.get_close_matches(name, known, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise UnreadableInputError(f"{option}: {name!r} is not {what}{hint}", hint=listing)


def list_fixtures(
    rule: str | None = None,
    area: str | None = None,
    feature: str | None = None,
    ruleset: str | None = None,
    fixtures: Sequence[Fixture] | None = None,
) -> list[Listed]:
    """The fixtures (the shipped corpus by default) that pass every filter given.

    Raises:
        UnreadableInputError: a filter names no rule, area, feature or ruleset (a usage
            error), with the closest name.
    """
    if feature is not None and feature not in ALL:
        raise UnreadableInputError(f"--feature: {unknown_feature(feature)}")
    if ruleset is not None:
        named = ", ".join(shipped_rulesets())
        _known("--ruleset", ruleset, shipped_rulesets(), "a shipped ruleset", f"they are: {named}")
    if rule is not None:
        listing = "'baloot-conformance spec show saudi' shows the rule IDs"
        _known("--rule", rule, rule_ids(), "a rule ID", listing)
    corpus = list(fixtures) if fixtures is not None else load_corpus()
    if area is not None:
        areas = {f.area for f in corpus}
        _known("--area", area, areas, "an area", f"the areas: {', '.join(sorted(areas))}")
    listed = []
    for fixture in corpus:
        if rule is not None and rule not in fixture.rules:
            continue
        if area is not None and fixture.area != area:
            continue
        if ruleset is not None and fixture.ruleset_id != ruleset:
            continue
        needed = fixture_features(fixture)
        if feature is not None and feature not in needed:
            continue
        listed.append(
            Listed(
                fixture.id,
                fixture.area,
                str(fixture.expect),
                fixture.ruleset_id,
                fixture.rules,
                needed,
            )
        )
    return listed
