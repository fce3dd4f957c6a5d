"""The typed :class:`Ruleset`: what the engine runs on, built from a resolved document.

A ruleset document (plain data, after :mod:`~baloot_conformance.rules.loading` has read,
resolved and validated it) becomes frozen dataclasses of :mod:`~baloot_conformance.rules.model`,
one per rule, with its formulas compiled (:mod:`~baloot_conformance.rules.formula`). This
module reads no YAML and no file: the engine imports it, and nothing of the loading comes
with it.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

from baloot_conformance.cards import RANK_CODES, SUIT_CODES, Rank, Suit
from baloot_conformance.rules import model
from baloot_conformance.rules.defects import Defect
from baloot_conformance.rules.formula import Formula, parse_formula

#: The fields of a rule that are its text, not its mechanism: changing them alone changes no
#: verdict, so a profile may not restate a rule with only these changed.
TEXT_FIELDS = frozenset({"statement", "sources", "notes", "examples"})


def mechanism(rule: Mapping[str, Any]) -> dict[str, Any]:
    """A rule's parameters without its words (statement, sources, notes, examples)."""
    return {k: v for k, v in rule.items() if k not in TEXT_FIELDS}


_HINTS: dict[Any, dict[str, Any]] = {}


def type_hints(cls: Any) -> dict[str, Any]:
    """The resolved annotations of a model.py class (computed once per class)."""
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


@cache
def cached_formula(text: str, variables: tuple[tuple[str, Any], ...]) -> Formula:
    """Parse a formula once per text and variable set (rulesets share most formulas)."""
    return parse_formula(text, dict(variables))


@dataclass(frozen=True)
class Ruleset:
    """A resolved, validated ruleset: what the engine runs on (it never sees YAML).

    Rules are reached by section, typed: ``ruleset.play.hokum_overruff.option``; or by ID with
    :meth:`rule`. ``digest`` is the sha256 of the canonical resolved document, for reports.
    """

    id: str
    version: str
    title: str
    description: str
    path: str
    lineage: tuple[str, ...]
    """This ruleset's id, then the ids of the rulesets it extends, nearest first."""
    cards: model.CardsSection
    deal: model.DealSection
    bidding: model.BiddingSection
    doubling: model.DoublingSection
    play: model.PlaySection
    projects: model.ProjectsSection
    scoring: model.ScoringSection
    claims: model.ClaimsSection
    game: model.GameSection
    sources: Mapping[str, str]
    digest: str
    document: Mapping[str, Any] = field(repr=False, compare=False)
    """The resolved document (plain data, as ``spec show`` prints it). Do not mutate."""
    defects: tuple[Defect, ...] = ()
    """The engine defects the profile lists (its own, never inherited from its base)."""

    @property
    def major(self) -> int:
        return int(self.version.split(".")[0])

    def iter_rules(self) -> Iterator[model.Rule]:
        """Every rule, in document order."""
        for section in model.SECTIONS:
            holder = getattr(self, section)
            for f in dataclasses.fields(holder):
                yield getattr(holder, f.name)

    def rule(self, rule_id: str) -> model.Rule:
        """The rule with this ID. Raises KeyError for an unknown ID."""
        for candidate in self.iter_rules():
            if candidate.id == rule_id:
                return candidate
        raise KeyError(rule_id)


def _build(cls: Any, value: Any, rule_id: str, meta: Mapping[str, Any]) -> Any:
    """Convert validated plain data into the typed value ``cls``."""
    origin = typing.get_origin(cls)
    if cls is Formula:
        return cached_formula(value, tuple(meta["variables"].items()))
    if cls is Rank:
        return RANK_CODES[value]
    if cls is Suit:
        return SUIT_CODES[value]
    if origin in (types.UnionType, typing.Union):
        if value is None:
            return None
        inner = [a for a in typing.get_args(cls) if a is not type(None)]
        if isinstance(value, dict):  # the mapping arm of "a number, or one per contract"
            inner = [a for a in inner if dataclasses.is_dataclass(a)] or inner
        return _build(inner[0], value, rule_id, meta)
    if origin is tuple:
        item = typing.get_args(cls)[0]
        if typing.get_origin(item) is tuple:  # groups: "a" or ["a", "b"]
            return tuple(
                _build(item, v if isinstance(v, list) else [v], rule_id, meta) for v in value
            )
        return tuple(_build(item, v, rule_id, meta) for v in value)
    if origin in (Mapping, dict) or cls is Mapping:
        key_type, value_type = typing.get_args(cls)
        return types.MappingProxyType(
            {
                _build(key_type, k, rule_id, meta): _build(value_type, v, rule_id, meta)
                for k, v in value.items()
            }
        )
    if origin is Literal or cls in (str, int, bool):
        return value
    if isinstance(cls, type) and dataclasses.is_dataclass(cls):
        hints = type_hints(cls)
        kwargs: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if f.name == "id":
                kwargs["id"] = rule_id
            elif f.name in value:
                kwargs[f.name] = _build(hints[f.name], value[f.name], rule_id, f.metadata)
            elif f.name == "sources":
                kwargs["sources"] = ()
            elif f.name == "notes":
                kwargs["notes"] = None
        return cls(**kwargs)
    raise TypeError(f"no conversion to {cls!r}")  # a defect in model.py, not user input


def typed_ruleset(
    data: Mapping[str, Any], path: str, lineage: tuple[str, ...], digest: str
) -> Ruleset:
    """The typed ruleset of a resolved, validated document (``lineage``: its id, then the ids
    it extends; ``digest``: see :attr:`Ruleset.digest`)."""
    sections: dict[str, Any] = {}
    for section, section_cls in model.SECTIONS.items():
        hints = type_hints(section_cls)
        values = {}
        for sf in dataclasses.fields(section_cls):
            rule_key = sf.metadata["key"]
            values[sf.name] = _build(
                hints[sf.name], data[section][rule_key], f"{section}.{rule_key}", {}
            )
        sections[section] = section_cls(**values)
    return Ruleset(
        id=data["id"],
        version=data["version"],
        title=data.get("title", data["id"]),
        description=data.get("description", ""),
        path=path,
        lineage=lineage,
        sources=types.MappingProxyType(dict(data.get("sources", {}))),
        digest=digest,
        document=data,
        defects=tuple(
            Defect(
                id=d["id"],
                rule=d["rule"],
                does=d["does"],
                witness=d["witness"],
                shows=tuple(d.get("shows", ())),
                when=frozenset(d.get("when", ())),
            )
            for d in data.get("defects", ())
        ),
        **sections,
    )


def canonical_json(data: Any) -> str:
    """The canonical JSON text of a document (sorted keys, no spaces): what the digest hashes."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def rule_documents(ruleset: Ruleset) -> dict[str, Mapping[str, Any]]:
    """Every rule of a ruleset as plain data, by rule ID, in document order."""
    return {
        f"{section}.{name}": rule
        for section in model.SECTIONS
        for name, rule in ruleset.document[section].items()
    }
