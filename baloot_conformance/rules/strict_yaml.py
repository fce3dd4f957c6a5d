"""Strict YAML with positions: the kit's one YAML reader (and writer).

Rulesets, transcripts' metadata blocks and expectations files are read here, into plain data
(mappings, lists, text, integers, booleans) with the ``file:line:col`` of every value and key.
Safe loading only, and strict: duplicate keys, aliases and anchors, tags, floats, YAML 1.1
booleans (``yes``, ``on``) and numbers that do not look canonical (``08``, ``1_000``) are
errors, never reinterpretations. Nothing else in the kit imports ``yaml``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import yaml

from baloot_conformance.errors import Location, SpecError
from baloot_conformance.rules.model import FORMAT

Path_ = tuple[str | int, ...]


@dataclass
class _Document:
    """A YAML file as plain data, with the location of every value and every mapping key."""

    path: str
    data: Any
    lineage: tuple[str, ...] = ()
    """The ids this document was resolved from, its own first (a profile, then its bases)."""
    values: dict[Path_, Location] = field(default_factory=dict)
    keys: dict[Path_, Location] = field(default_factory=dict)
    inline: dict[Path_, int] = field(default_factory=dict)
    """Scalars written on one line: how many characters precede the text (1 for a quote)."""
    seen: set[int] = field(default_factory=set, repr=False)
    """Nodes already converted (by id): meeting one again means an alias."""
    dates_as_text: bool = False
    """Keep dates as text instead of refusing them (transcript metadata)."""


# libyaml's parser when available (ten times faster, and it bounds nesting); ours composes only.
_Composer: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


_CANONICAL_INT = re.compile(r"[-+]?(0|[1-9][0-9]*)\Z")


_NUMBER_LIKE = re.compile(r"[-+]?(\.?[0-9][0-9_.:eE+-]*|0[xXoObB][0-9a-fA-F_]+)\Z")


_PLAIN_COLLECTION_TAGS = {"tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"}


_YAML11_BOOLS = {"yes", "no", "on", "off", "y", "n"}


_YAML12_BOOLS = {"true": True, "false": False, "True": True, "False": False}


def _mark(path: str, node: yaml.Node) -> Location:
    return Location(path, node.start_mark.line + 1, node.start_mark.column + 1)


def load_yaml(text: str, path: str, first_line: int = 1, dates_as_text: bool = False) -> Any:
    """Parse a YAML text strictly into plain data (mappings, lists, text, integers, booleans)
    as rulesets are read; ``None`` for a blank text. The kit's one YAML reader: the fixture
    metadata of transcripts comes here too. ``first_line`` is the text's first line in its
    file, for the locations; ``dates_as_text`` keeps a date such as 2026-11-29 as text.

    Raises:
        SpecError: the text is not strict YAML, with its ``file:line:col``.
    """
    if not text.strip():
        return None
    return _parse_yaml("\n" * (first_line - 1) + text, path, dates_as_text).data


def yaml_key_locations(
    text: str, path: str, first_line: int = 1, dates_as_text: bool = False
) -> dict[str, Location]:
    """Where each top-level key of a YAML mapping is (``file:line:col``), as :func:`load_yaml`
    reads the text; for errors about the data it holds (the fixture metadata's checks)."""
    if not text.strip():
        return {}
    doc = _parse_yaml("\n" * (first_line - 1) + text, path, dates_as_text)
    return {str(at[0]): where for at, where in doc.keys.items() if len(at) == 1}


def load_yaml_located(
    text: str, path: str, dates_as_text: bool = False
) -> tuple[Any, dict[tuple[Any, ...], Location]]:
    """:func:`load_yaml` with where each value is, by its path of keys and indexes (a
    mapping entry's path points at its key): for errors about the data a file holds."""
    if not text.strip():
        return None, {}
    doc = _parse_yaml(text, path, dates_as_text)
    return doc.data, {**doc.values, **doc.keys}


def _parse_yaml(text: str, path: str, dates_as_text: bool = False) -> _Document:
    """Parse YAML text strictly into plain data with locations (see the module docstring)."""
    doc = _Document(path, None, dates_as_text=dates_as_text)
    try:
        loader = _Composer(text)
        try:
            node = loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        if "nesting depth" in str(exc.problem):
            raise SpecError(
                "the YAML is nested too deeply", location=Location(path, 1, 1)
            ) from None
        mark = exc.problem_mark or exc.context_mark
        where = Location(path, mark.line + 1, mark.column + 1) if mark else None
        what = " ".join(str(p) for p in (exc.context, exc.problem) if p)
        raise SpecError(
            f"invalid YAML: {what}",
            location=where,
            hint="check the indentation and quoting around this place",
        ) from None
    except yaml.YAMLError as exc:
        raise SpecError(f"invalid YAML: {exc}", location=Location(path, 1, 1)) from None
    except RecursionError:
        raise SpecError("the YAML is nested too deeply", location=Location(path, 1, 1)) from None
    if node is None:
        raise SpecError(
            "the file is empty",
            location=Location(path, 1, 1),
            hint=f"a ruleset starts with 'format: {FORMAT}', 'id:' and 'version:'",
        )
    doc.data = _convert(node, (), doc)
    return doc


def _convert(
    node: yaml.Node, at: Path_, doc: _Document, where: Location | None = None, depth: int = 0
) -> Any:
    """Turn a composed node into plain data, refusing everything ambiguous.

    ``where`` is the place that refers to the node (its key), for error messages.
    """
    doc.values[at] = _mark(doc.path, node)
    if id(node) in doc.seen:  # an alias: the composer shares the anchored node
        raise SpecError(
            "YAML aliases (*name) are not allowed",
            location=where,
            hint=f"write out the value anchored at line {doc.values[at].line} in full",
        )
    doc.seen.add(id(node))
    if depth > 64:
        raise SpecError("the YAML is nested too deeply", location=doc.values[at])
    if not isinstance(node, yaml.ScalarNode) and node.tag not in _PLAIN_COLLECTION_TAGS:
        raise SpecError(
            f"the YAML tag {node.tag!r} is not allowed",
            location=doc.values[at],
            hint="remove the tag; rulesets hold plain mappings, lists, text, integers and booleans",
        )
    if isinstance(node, yaml.MappingNode):
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise SpecError(
                    "YAML merge keys (<<) are not allowed",
                    location=_mark(doc.path, key_node),
                    hint="write the keys out",
                )
            if not (isinstance(key_node, yaml.ScalarNode) and key_node.tag.endswith(":str")):
                raise SpecError(
                    f"a key must be text, found {key_node.value!r}",
                    location=_mark(doc.path, key_node),
                    hint=f'quote it: "{key_node.value}"',
                )
            name = key_node.value
            child = (*at, name)
            if name in result:
                first = doc.keys[child]
                raise SpecError(
                    f"duplicate key {name!r} (first defined at line {first.line})",
                    location=_mark(doc.path, key_node),
                    hint="each key may appear once in a mapping; merge the two entries",
                )
            doc.keys[child] = _mark(doc.path, key_node)
            result[name] = _convert(value_node, child, doc, doc.keys[child], depth + 1)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [
            _convert(item, (*at, i), doc, doc.values[at], depth + 1)
            for i, item in enumerate(node.value)
        ]
    assert isinstance(node, yaml.ScalarNode)
    if node.start_mark.line == node.end_mark.line:
        doc.inline[at] = 1 if node.style else 0
    return _scalar(node, doc.values[at], doc.dates_as_text)


def _scalar(node: yaml.ScalarNode, where: Location, dates_as_text: bool) -> Any:
    tag, value, plain = node.tag, node.value, not node.style  # plain: None, or "" from libyaml
    if tag == "tag:yaml.org,2002:str":
        if plain and value.lower() in _YAML11_BOOLS:
            raise SpecError(
                f"{value!r} is ambiguous (YAML 1.1 reads it as a boolean)",
                location=where,
                hint=f'write true or false, or quote it as text: "{value}"',
            )
        if plain and _NUMBER_LIKE.match(value):
            raise SpecError(
                f"{value!r} looks like a number but is not a plain integer",
                location=where,
                hint=f'write a plain integer such as 8, or quote it as text: "{value}"',
            )
        return value
    if tag == "tag:yaml.org,2002:int":
        if plain and not _CANONICAL_INT.match(value):
            raise SpecError(
                f"{value!r} is an ambiguous integer (leading zero, base prefix or separator)",
                location=where,
                hint=f'write a plain decimal integer, or quote it as text: "{value}"',
            )
        if len(value.lstrip("+-")) > MAX_DIGITS:
            raise SpecError(
                f"an integer of {len(value.lstrip('+-')):,} digits: a ruleset's numbers have at "
                f"most {MAX_DIGITS} digits",
                location=where,
                hint="no point value or total in Baloot needs more",
            )
        return int(value)
    if tag == "tag:yaml.org,2002:bool":
        if value not in _YAML12_BOOLS:
            raise SpecError(
                f"{value!r} is ambiguous (YAML 1.1 reads it as a boolean)",
                location=where,
                hint=f'write true or false, or quote it as text: "{value}"',
            )
        return _YAML12_BOOLS[value]
    if tag == "tag:yaml.org,2002:null":
        return None
    if tag == "tag:yaml.org,2002:float":
        raise SpecError(
            f"{value!r} is a decimal number; only integers are used (formulas are exact)",
            location=where,
            hint='quote versions ("1.10"), and write fractions as formulas',
        )
    if tag == "tag:yaml.org,2002:timestamp":
        if dates_as_text:
            return value
        raise SpecError(f"{value!r} reads as a date", location=where, hint=f'quote it: "{value}"')
    raise SpecError(
        f"the YAML tag {tag!r} is not allowed",
        location=where,
        hint="remove the tag; rulesets hold plain mappings, lists, text, integers and booleans",
    )


def dump_yaml(document: Mapping[str, Any]) -> str:
    """A ruleset document as YAML text that the strict loader reads back unchanged."""
    return yaml.dump(dict(document), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)


def plain_yaml(data: Any, width: int = 80) -> str:
    """Plain data as block-style YAML, its keys in their order: a transcript's metadata block
    (the JSON form back to BTN), an expectations file."""
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=width)


class _Dumper(yaml.SafeDumper):
    """Quotes every text that the strict loader would otherwise refuse or misread."""


def _represent_text(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    ambiguous = text.lower() in _YAML11_BOOLS or _NUMBER_LIKE.match(text)
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style='"' if ambiguous else None)


MAX_DIGITS = 9
"""The longest integer a ruleset may hold (documented limit)."""


_Dumper.add_representer(str, _represent_text)
