"""Load, resolve and validate rulesets; the typed :class:`Ruleset` the engine runs on.

The way in is :func:`load_ruleset` (a shipped id such as ``saudi`` or ``kammelna``, or a path).
Loading goes through four gates, each reporting ``file:line:col``:

1. **Strict YAML.** Safe loading only; duplicate keys, aliases (no "billion laughs"), floats,
   YAML 1.1 surprises (``on``/``off``/``yes``, ``08``, unquoted ``1.10``) and files over 1 MiB
   are errors, never silent reinterpretations.
2. **Overlays.** A profile ``extends`` another ruleset and replaces whole rules; sources merge.
   Missing bases and cycles are errors.
3. **JSON Schema** (``spec/schema/ruleset.schema.json``, draft 2020-12) on the resolved
   document, most relevant error first, with a "did you mean" for misspelt keys.
4. **Semantic checks** the schema cannot express: orders are permutations of the ranks, the
   point tables add up to the declared totals, the deal uses the whole pack, every formula
   parses and passes its own examples, every cited source is in the bibliography.

This is the only module that reads YAML.
"""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
import hashlib
import json
import re
import types
import typing
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal

import yaml

from baloot_conformance import rules
from baloot_conformance.cards import RANK_CODES, SUIT_CODES, Rank, Suit
from baloot_conformance.errors import (
    BalootError,
    FormulaError,
    Location,
    SpecError,
    UnreadableInputError,
)
from baloot_conformance.formula import Formula, parse_formula
from baloot_conformance.resources import cache_folder, spec_path

if typing.TYPE_CHECKING:  # jsonschema loads when a document is validated (start-up)
    from jsonschema.exceptions import ValidationError

#: The only ruleset format this version of the kit reads.
FORMAT = "baloot-ruleset/1"
#: Rulesets larger than this are refused before parsing.
MAX_FILE_BYTES = 1 << 20
#: Folders (under ``spec/``) searched for shipped rulesets, in order.
SHIPPED_FOLDERS = ("rulesets", "profiles")

Path_ = tuple[str | int, ...]
#: Top-level keys that describe one file's source and are never inherited by a profile.
_OWN_KEYS = ("extends", "silent", "unmodelled")
#: The fields of a rule that are its text, not its mechanism: changing them alone changes no
#: verdict, so a profile may not restate a rule with only these changed.
TEXT_FIELDS = frozenset({"statement", "sources", "notes", "examples"})


def mechanism(rule: Mapping[str, Any]) -> dict[str, Any]:
    """A rule's parameters without its words (statement, sources, notes, examples)."""
    return {k: v for k, v in rule.items() if k not in TEXT_FIELDS}


# --- strict YAML with positions -------------------------------------------------------------


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


def _read_document(path: Path) -> _Document:
    shown = str(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise SpecError(
                f"the file is {size:,} bytes; a ruleset may be at most {MAX_FILE_BYTES:,}",
                location=Location(shown, 1, 1),
                hint="is this really a ruleset? Profiles are small overlays (see docs/ruleset.md)",
            )
        raw = path.read_bytes()
    except OSError as exc:
        raise UnreadableInputError(
            f"cannot read {shown}: {exc.strerror or exc}",
            hint="check the path; 'baloot-conformance spec list' shows the shipped rulesets",
        ) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise SpecError(
            f"the file is not valid UTF-8 (byte 0x{raw[exc.start]:02x})",
            location=Location(shown, line, column),
            hint="save the ruleset as UTF-8 text",
        ) from None
    return _parse_yaml(text, shown)


# --- locating and resolving ---------------------------------------------------------------


def shipped_rulesets() -> dict[str, Path]:
    """The shipped rulesets and profiles: id -> file."""
    found: dict[str, Path] = {}
    for folder in SHIPPED_FOLDERS:
        directory = spec_path(folder)
        if directory.is_dir():
            for file in sorted(directory.glob("*.yaml")):
                found.setdefault(file.stem, file)
    return found


def _is_path_reference(reference: str) -> bool:
    return "/" in reference or "\\" in reference or reference.endswith((".yaml", ".yml"))


def _locate(reference: str, relative_to: Path | None, where: Location | None) -> Path:
    """The file a ruleset reference names: a path, or a shipped id (``saudi`` or ``saudi@1``)."""
    if _is_path_reference(reference):
        candidate = Path(reference)
        if relative_to is not None and not candidate.is_absolute():
            candidate = relative_to / candidate
        return candidate
    name = reference.split("@", 1)[0]
    shipped = shipped_rulesets()
    if name in shipped:
        return shipped[name]
    close = difflib.get_close_matches(name, list(shipped), n=1)
    error = UnreadableInputError if where is None else SpecError
    raise error(
        f"no ruleset named {name!r}",
        location=where,
        hint=(f"did you mean {close[0]!r}? " if close else "")
        + f"shipped rulesets: {', '.join(shipped)}; or give a path to a .yaml file",
    )


def _required_major(reference: str) -> int | None:
    if "@" in reference and not _is_path_reference(reference):
        tail = reference.split("@", 1)[1]
        if tail.isdigit():
            return int(tail)
    return None


def _resolve(path: Path, chain: tuple[Path, ...], where: Location | None) -> _Document:
    """Read ``path`` and apply it over the ruleset it extends, recursively."""
    resolved_path = path.resolve()
    if resolved_path in chain:
        cycle = " -> ".join(p.name for p in (*chain, resolved_path))
        raise SpecError(
            f"'extends' forms a cycle: {cycle}",
            location=where,
            hint="a profile must end in a ruleset that extends nothing",
        )
    doc = _read_document(path)
    if not isinstance(doc.data, dict):
        raise SpecError(
            "a ruleset must be a mapping of keys to values",
            location=doc.values[()],
            hint=f"start with 'format: {FORMAT}'",
        )
    fmt = doc.data.get("format")
    if fmt != FORMAT:
        raise SpecError(
            f"format: {'missing' if fmt is None else repr(fmt) + ' is not supported'}; "
            f"this kit reads {FORMAT!r}",
            location=doc.values.get(("format",), doc.values[()]),
            hint=f"the first line of a ruleset is 'format: {FORMAT}'",
        )
    doc.lineage = (str(doc.data.get("id")),)
    base_ref = doc.data.get("extends")
    if base_ref is None:
        return doc
    base_where = doc.values[("extends",)]
    if not isinstance(base_ref, str):
        raise SpecError("'extends' must name a ruleset id or a path", location=base_where)
    base_path = _locate(base_ref, path.parent, base_where)
    if not base_path.is_file():
        raise SpecError(
            f"the base ruleset {base_ref!r} does not exist ({base_path})",
            location=base_where,
            hint="give a shipped id (see 'baloot-conformance spec list') or a path",
        )
    base = _resolve(base_path, (*chain, resolved_path), base_where)
    _check_overrides(base, doc)
    major = _required_major(base_ref)
    base_version = str(base.data.get("version", ""))
    if major is not None and base_version.split(".")[0] != str(major):
        raise SpecError(
            f"{base_ref!r} asks for major version {major}, but the base is {base_version}",
            location=base_where,
        )
    return _overlay(base, doc)


def fixed_rules() -> dict[str, str]:
    """The fixed rules, which no profile may restate: rule ID -> why it is fixed (every
    source agrees). Declared in the schema (``x-fixed``)."""
    schema = ruleset_schema()
    return {
        f"{section}.{key}": rule["x-fixed"]
        for section in rules.SECTIONS
        for key, rule in schema["properties"][section]["properties"].items()
        if "x-fixed" in rule
    }


def _check_overrides(base: _Document, top: _Document) -> None:
    """Refuse a profile that restates a fixed rule, or a rule whose mechanism it leaves as
    it was: a profile may only reword a rule by changing what the rule does."""
    fixed = fixed_rules()
    problems: list[BalootError] = []
    for section in rules.SECTIONS:
        mine, theirs = top.data.get(section), base.data.get(section)
        if not isinstance(mine, dict) or not isinstance(theirs, dict):
            continue
        for name, rule in mine.items():
            rule_id = f"{section}.{name}"
            where = top.keys.get((section, name))
            if rule_id in fixed:
                problems.append(
                    BalootError(
                        f"{rule_id} is a fixed rule: a profile may not restate it",
                        location=where,
                        hint=f"{fixed[rule_id]} Remove it; a reading that differs belongs "
                        "under 'unmodelled'",
                    )
                )
            elif (
                isinstance(rule, dict)
                and isinstance(theirs.get(name), dict)
                and mechanism(theirs[name]) == mechanism(rule)
            ):
                problems.append(
                    BalootError(
                        f"{rule_id} is restated with the same parameters as its base",
                        location=where,
                        hint="change a parameter, or remove the rule (the base's applies); "
                        "rewording a rule without changing what it does is not allowed",
                    )
                )
    if problems:
        head = problems[0]
        raise SpecError(
            head.message, location=head.location, hint=head.hint, problems=tuple(problems)
        )


def _overlay(base: _Document, top: _Document) -> _Document:
    """Apply a profile over its base: metadata and whole rules replace, sources merge."""
    merged = _Document(top.path, {}, lineage=(*top.lineage, *base.lineage))
    data = {k: v for k, v in base.data.items() if k not in _OWN_KEYS}
    for name, value in top.data.items():
        if name == "extends":
            continue
        mergeable = name == "sources" or name in rules.SECTIONS
        if mergeable and isinstance(value, dict) and isinstance(data.get(name), dict):
            data[name] = {**data[name], **value}
        else:
            data[name] = value
    # Locations: a replaced subtree takes its locations from the profile.
    replaced: list[Path_] = []
    for name, value in top.data.items():
        if isinstance(value, dict) and (name in rules.SECTIONS or name == "sources"):
            replaced.extend((name, inner) for inner in value)
        else:
            replaced.append((name,))
    merged.values = _replace_subtrees(base.values, top.values, replaced)
    merged.keys = _replace_subtrees(base.keys, top.keys, replaced)
    merged.inline = _replace_subtrees(base.inline, top.inline, replaced)
    merged.data = data
    return merged


_T = typing.TypeVar("_T")


_HINTS: dict[Any, dict[str, Any]] = {}


def _type_hints(cls: Any) -> dict[str, Any]:
    """The resolved annotations of a rules.py class (computed once per class)."""
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


@cache
def _formula(text: str, variables: tuple[tuple[str, Any], ...]) -> Formula:
    """Parse a formula once per text and variable set (rulesets share most formulas)."""
    return parse_formula(text, dict(variables))


def _replace_subtrees(
    base: dict[Path_, _T], top: dict[Path_, _T], replaced: list[Path_]
) -> dict[Path_, _T]:
    """Entries of ``base`` outside the ``replaced`` subtrees, plus all of ``top``."""
    kept = {p: v for p, v in base.items() if not any(p[: len(r)] == r for r in replaced)}
    return kept | top


# --- schema validation ----------------------------------------------------------------------


@cache
def ruleset_schema() -> dict[str, Any]:
    """The JSON Schema of the ruleset format (``spec/schema/ruleset.schema.json``)."""
    schema: dict[str, Any] = json.loads(
        spec_path("schema", "ruleset.schema.json").read_text(encoding="utf-8")
    )
    return schema


@cache
def _validator() -> Any:
    """The ruleset schema's validator. The schema itself is checked against its meta-schema
    by the test suite, not here: that check alone costs more than loading a ruleset."""
    import jsonschema

    return jsonschema.Draft202012Validator(ruleset_schema())


def _locate_error(error: ValidationError, doc: _Document) -> Location:
    """The most precise location of a schema error: the bad key, else the deepest value."""
    at = tuple(error.absolute_path)
    if error.validator in ("additionalProperties", "unevaluatedProperties") and isinstance(
        error.instance, dict
    ):
        for name in _unexpected_keys(error):
            child = (*at, name)
            if child in doc.keys:
                return doc.keys[child]
    if "propertyNames" in error.relative_schema_path and isinstance(error.instance, str):
        key_at = (*at, error.instance)
        if key_at in doc.keys:
            return doc.keys[key_at]
    while at not in doc.values and at:
        at = at[:-1]
    return doc.values.get(at, Location(doc.path, 1, 1))


def _unexpected_keys(error: ValidationError) -> list[str]:
    allowed = set(error.schema.get("properties", {}))
    return [name for name in error.instance if name not in allowed]


def _explain(error: ValidationError) -> tuple[str, str | None]:
    """A message in plain words and a hint for one schema error."""
    dotted = _dotted(error.absolute_path)
    where = f"{dotted}: " if dotted else ""
    description = error.schema.get("description") if isinstance(error.schema, dict) else None
    if error.validator in ("additionalProperties", "unevaluatedProperties"):
        extras = _unexpected_keys(error)
        allowed = sorted(error.schema.get("properties", {}))
        close = difflib.get_close_matches(extras[0], allowed, n=1) if extras else []
        hint = f"did you mean {close[0]!r}?" if close else None
        if hint is None and allowed:
            hint = "allowed here: " + ", ".join(allowed)
        return f"{where}unknown key {', '.join(map(repr, extras))}", hint
    if error.validator == "required":
        return f"{where}{error.message}", description
    if error.validator == "enum":
        options = ", ".join(map(str, error.validator_value))
        return f"{where}{error.instance!r} is not one of: {options}", description
    if error.validator == "const":
        return f"{where}expected {error.validator_value!r}, found {error.instance!r}", description
    if error.validator == "type":
        shown = repr(error.instance)
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        return f"{where}expected {error.validator_value}, found {_kind(error.instance)} {shown}", (
            description
        )
    if error.validator in ("maxLength", "minLength") and isinstance(error.instance, str):
        bound = "at most" if error.validator == "maxLength" else "at least"
        return (
            f"{where}{len(error.instance):,} characters long; {bound} "
            f"{error.validator_value:,} are allowed",
            description,
        )
    if error.validator in ("maxItems", "minItems") and isinstance(error.instance, list):
        bound = "at most" if error.validator == "maxItems" else "at least"
        return f"{where}{len(error.instance):,} entries; {bound} {error.validator_value:,}", (
            description
        )
    message = error.message if len(error.message) <= 300 else error.message[:297] + "..."
    return f"{where}{message}", description


def _kind(value: Any) -> str:
    return {
        bool: "a boolean",
        int: "an integer",
        str: "text",
        list: "a list",
        dict: "a mapping",
    }.get(type(value), type(value).__name__)


def _dotted(path: Any) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def _schema_problems(doc: _Document) -> list[BalootError]:
    from jsonschema.exceptions import best_match, relevance

    errors = []
    for error in _validator().iter_errors(doc.data):
        if error.context:
            error = best_match(error.context)
        errors.append(error)
    errors.sort(key=relevance, reverse=True)
    problems: list[BalootError] = []
    seen: set[tuple[Location, str]] = set()
    for error in errors:
        message, hint = _explain(error)
        location = _locate_error(error, doc)
        if (location, message) not in seen:
            seen.add((location, message))
            problems.append(BalootError(message, location=location, hint=hint))
    return problems


# --- semantic checks -----------------------------------------------------------------------


def _rule_entries(data: Mapping[str, Any]) -> Iterator[tuple[str, str, Mapping[str, Any]]]:
    for section in rules.SECTIONS:
        for name, rule in data.get(section, {}).items():
            yield section, name, rule


def _semantic_problems(doc: _Document) -> list[BalootError]:
    data = doc.data
    problems: list[BalootError] = []

    def problem(at: Path_, message: str, hint: str | None = None) -> None:
        location = doc.values.get(at) or doc.keys.get(at) or Location(doc.path, 1, 1)
        problems.append(BalootError(f"{_dotted(at)}: {message}", location=location, hint=hint))

    cards = data["cards"]
    ranks = cards["deck"]["ranks"]
    for name in ("order.plain", "order.trump", "order.sequence"):
        order = cards[name]["order"]
        if sorted(order) != sorted(ranks) or len(set(order)) != len(order):
            problem(
                ("cards", name, "order"),
                f"must list each rank of the deck exactly once, found {order}",
                f"the deck's ranks are {ranks}",
            )
    for name in ("points.plain", "points.trump"):
        missing = [r for r in ranks if r not in cards[name]["points"]]
        if missing:
            problem(("cards", name, "points"), f"no points for {missing}")
    if not problems:
        plain = sum(cards["points.plain"]["points"][r] for r in ranks)
        trump = sum(cards["points.trump"]["points"][r] for r in ranks)
        bonus = cards["last_trick"]["points"]
        suits = len(cards["deck"]["suits"])
        for contract, total in (
            ("sun", suits * plain + bonus),
            ("hokum", (suits - 1) * plain + trump + bonus),
        ):
            declared = cards["totals"][contract]
            if total != declared:
                # Point at whichever of the involved rules the top file (re)defines.
                involved: list[Path_] = [
                    ("cards", "points.trump", "points"),
                    ("cards", "points.plain", "points"),
                    ("cards", "last_trick", "points"),
                ]
                at = next(
                    (p for p in involved if p in doc.values and doc.values[p].path == doc.path),
                    ("cards", "totals", contract),
                )
                problem(
                    at,
                    f"the point tables give {total} in {contract.capitalize()}, not {declared}",
                    "fix the point tables or the declared total",
                )

    deal = data["deal"]
    deck_size = len(cards["deck"]["suits"]) * len(ranks)
    first = sum(deal["first_round"]["packets"])
    buyer_cards = first + 1 + deal["completion"]["buyer"]
    other_cards = first + deal["completion"]["others"]
    dealt = 4 * first + 1 + deal["completion"]["buyer"] + 3 * deal["completion"]["others"]
    if dealt != deck_size or buyer_cards != other_cards:
        problem(
            ("deal", "completion"),
            f"the deal hands out {dealt} of {deck_size} cards "
            f"(buyer {buyer_cards}, others {other_cards})",
            "every player must end with the same number of cards and the pack must be used up",
        )

    levels = data["doubling"]["chain"]["levels"]
    calls = [level["call"] for level in levels]
    for i, level in enumerate(levels):
        expected = ("opponents", "doubler") if i % 2 == 0 else ("buyer_team", "buyer")
        if level["by"] not in expected:
            problem(
                ("doubling", "chain", "levels", i, "by"),
                f"raise {i + 1} ({level['call']}) must be called by {' or '.join(expected)}",
                "raises alternate, starting with the buyer's opponents",
            )
        elif level["by"] == "doubler" and i == 0:
            problem(
                ("doubling", "chain", "levels", i, "by"),
                "the first raise cannot be reserved to the doubler: nobody has doubled yet",
                "write 'opponents' for the double",
            )
    if len(set(calls)) != len(calls):
        problem(("doubling", "chain", "levels"), f"a call appears twice: {calls}")
    if data["doubling"]["sun"]["max_call"] not in (*calls, "none"):
        problem(
            ("doubling", "sun", "max_call"),
            f"{data['doubling']['sun']['max_call']!r} is not a call of doubling.chain",
            f"calls: {', '.join((*calls, 'none'))}",
        )
    eligibility = data["bidding"]["ashkal.eligibility"]
    if any(r > data["bidding"]["rounds"]["count"] for r in eligibility["rounds"]):
        problem(("bidding", "ashkal.eligibility", "rounds"), "names a round that is not played")

    ranking = [
        name
        for entry in data["projects"]["ranking"]["order"]
        for name in (entry if isinstance(entry, list) else [entry])
    ]
    expected_projects = sorted(typing.get_args(rules.ProjectName))
    if sorted(ranking) != expected_projects:
        problem(
            ("projects", "ranking", "order"),
            "must list every project exactly once",
            f"projects: {', '.join(expected_projects)}",
        )
    for name in ("sira", "fifty", "hundred.sequence", "hundred.four_of_a_kind", "four_hundred"):
        project = data["projects"][name]
        contracts = (
            [c for c in ("sun", "hokum") if project["ranks"].get(c)]
            if "ranks" in project
            else ["sun", "hokum"]
        )
        for contract in contracts:
            if contract not in project["game_points"]:
                problem(
                    ("projects", name, "game_points"),
                    f"no game points for {contract.capitalize()}, where this project exists",
                )

    bibliography = data.get("sources", {})
    for section, name, rule in _rule_entries(data):
        for i, source in enumerate(rule.get("sources", [])):
            cited = source.split()[0] if source.split() else source
            if cited not in bibliography:
                close = difflib.get_close_matches(cited, list(bibliography), n=1)
                problem(
                    (section, name, "sources", i),
                    f"cites {cited!r}, which is not in the ruleset's 'sources'",
                    f"did you mean {close[0]!r}?" if close else "add it to 'sources'",
                )
    ids = [f"{section}.{name}" for section, name, _ in _rule_entries(data)]
    for rule_id in {i for i in ids if ids.count(i) > 1}:
        problems.append(BalootError(f"rule ID {rule_id!r} is defined twice"))
    named: list[tuple[Path_, str]] = [
        (("silent", i), r) for i, r in enumerate(data.get("silent", []))
    ]
    named += [
        (("unmodelled", i, "rule"), g["rule"]) for i, g in enumerate(data.get("unmodelled", []))
    ]
    for at, rule_id in named:
        if rule_id not in ids:
            close = difflib.get_close_matches(rule_id, ids, n=1)
            problem(
                at,
                f"{rule_id!r} is not a rule ID",
                f"did you mean {close[0]!r}?" if close else None,
            )
    problems.extend(_formula_problems(doc))
    return problems


def _formula_problems(doc: _Document) -> list[BalootError]:
    """Parse every formula of the document and check the rule's embedded examples."""
    problems: list[BalootError] = []
    for section, section_cls in rules.SECTIONS.items():
        hints = _type_hints(section_cls)
        for sf in dataclasses.fields(section_cls):
            rule_key = sf.metadata["key"]
            for ff in dataclasses.fields(hints[sf.name]):
                if "variables" not in ff.metadata:
                    continue
                rule = doc.data[section][rule_key]
                try:
                    formula = _compile_formula(rule[ff.name], ff)
                except FormulaError as exc:
                    problems.append(_formula_error(doc, (section, rule_key, ff.name), exc))
                    continue
                zero = _division_by_zero(formula) if formula.variable_divisor else None
                if zero:
                    location = doc.values.get((section, rule_key, ff.name))
                    problems.append(
                        BalootError(
                            f"{section}.{rule_key}.{ff.name}: the formula can divide by zero: "
                            f"{zero}",
                            location=location,
                            hint="guard the division, e.g. if d == 0 then 0 else x // d",
                        )
                    )
                for i, example in enumerate(rule.get("examples", [])):
                    at: Path_ = (section, rule_key, "examples", i)
                    message = _example_problem(formula, example, ff.metadata["variables"])
                    if message:
                        problems.append(
                            BalootError(
                                f"{_dotted(at)}: {message}",
                                location=doc.values.get(at),
                                hint="fix the formula or the example",
                            )
                        )
    return problems


def _division_by_zero(formula: Formula) -> str | None:
    """The first input the engine can give on which ``formula`` divides by zero: every card
    split for a conversion, game totals from 0 to 400 for a condition."""
    if "raw" in formula.variables or "other_raw" in formula.variables:
        inputs: Iterator[dict[str, Any]] = (
            {"raw": raw, "other_raw": total - raw, "is_buyer": buyer, "takes_risk": risk}
            for total in (130, 162)
            for raw in range(total + 1)
            for buyer in (True, False)
            for risk in (True, False)
        )
    else:
        inputs = ({"buyer_total": a, "doubler_total": b} for a in range(401) for b in range(401))
    for env in inputs:
        try:
            formula.evaluate(env)
        except FormulaError as exc:
            shown = ", ".join(f"{k}={v}" for k, v in env.items() if k in formula.variables)
            return f"{shown}: {exc.message}"
    return None


def _example_problem(
    formula: Formula, example: Mapping[str, Any], variables: Mapping[str, str]
) -> str | None:
    """Why a worked example does not hold, or ``None`` when it does."""
    env = {k: v for k, v in example.items() if k != "expect"}
    unknown = sorted(set(env) - set(variables))
    if unknown:
        return f"unknown variable(s) {', '.join(unknown)}; variables: {', '.join(variables)}"
    try:
        got: Any = formula.evaluate(env)
    except FormulaError as exc:
        return exc.message
    expect = example["expect"]
    if got != expect or isinstance(got, bool) != isinstance(expect, bool):
        inputs = ", ".join(f"{k}={v}" for k, v in env.items())
        return f"the formula gives {got} for {inputs}, the example expects {expect}"
    return None


def _compile_formula(text: str, spec_field: dataclasses.Field[Any]) -> Formula:
    formula = _formula(text, tuple(spec_field.metadata["variables"].items()))
    expected = spec_field.metadata["result"]
    if formula.result_type != expected:
        raise FormulaError(
            f"the formula gives a {formula.result_type}, but this rule needs a {expected}",
            column=1,
        )
    return formula


def _formula_error(doc: _Document, at: Path_, exc: FormulaError) -> BalootError:
    """Place a formula error in the YAML file (exactly, for a formula written on one line)."""
    location = doc.values.get(at)
    suffix = ""
    if location is not None and exc.column is not None:
        if at in doc.inline:
            column = location.column + doc.inline[at] + exc.column - 1
            location = Location(location.path, location.line, column)
        else:
            suffix = f" (column {exc.column} of the formula)"
    return BalootError(f"{_dotted(at)}: {exc.message}{suffix}", location=location, hint=exc.hint)


# --- the typed ruleset ---------------------------------------------------------------------


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
    cards: rules.CardsSection
    deal: rules.DealSection
    bidding: rules.BiddingSection
    doubling: rules.DoublingSection
    play: rules.PlaySection
    projects: rules.ProjectsSection
    scoring: rules.ScoringSection
    game: rules.GameSection
    sources: Mapping[str, str]
    digest: str
    document: Mapping[str, Any] = field(repr=False, compare=False)
    """The resolved document (plain data, as ``spec show`` prints it). Do not mutate."""

    @property
    def major(self) -> int:
        return int(self.version.split(".")[0])

    def iter_rules(self) -> Iterator[rules.Rule]:
        """Every rule, in document order."""
        for section in rules.SECTIONS:
            holder = getattr(self, section)
            for f in dataclasses.fields(holder):
                yield getattr(holder, f.name)

    def rule(self, rule_id: str) -> rules.Rule:
        """The rule with this ID. Raises KeyError for an unknown ID."""
        for candidate in self.iter_rules():
            if candidate.id == rule_id:
                return candidate
        raise KeyError(rule_id)

    def to_yaml(self) -> str:
        """The resolved ruleset as YAML text that loads back to the same ruleset."""
        header = (
            f"# {self.id} {self.version}, resolved from {' <- '.join(self.lineage)}\n"
            f"# digest {self.digest}\n"
        )
        return header + dump_yaml(self.document)


def dump_yaml(document: Mapping[str, Any]) -> str:
    """A ruleset document as YAML text that the strict loader reads back unchanged."""
    return yaml.dump(dict(document), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)


class _Dumper(yaml.SafeDumper):
    """Quotes every text that the strict loader would otherwise refuse or misread."""


def _represent_text(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    ambiguous = text.lower() in _YAML11_BOOLS or _NUMBER_LIKE.match(text)
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style='"' if ambiguous else None)


_Dumper.add_representer(str, _represent_text)


def _build(cls: Any, value: Any, rule_id: str, meta: Mapping[str, Any]) -> Any:
    """Convert validated plain data into the typed value ``cls``."""
    origin = typing.get_origin(cls)
    if cls is Formula:
        return _formula(value, tuple(meta["variables"].items()))
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
        hints = _type_hints(cls)
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
    raise TypeError(f"no conversion to {cls!r}")  # a defect in rules.py, not user input


def _typed(doc: _Document, digest: str) -> Ruleset:
    data = doc.data
    sections: dict[str, Any] = {}
    for section, section_cls in rules.SECTIONS.items():
        hints = _type_hints(section_cls)
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
        path=doc.path,
        lineage=doc.lineage,
        sources=types.MappingProxyType(dict(data.get("sources", {}))),
        digest=digest,
        document=data,
        **sections,
    )


def canonical_json(data: Any) -> str:
    """The canonical JSON text of a document (sorted keys, no spaces): what the digest hashes."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# --- public entry points -------------------------------------------------------------------


def _load_checked(reference: str | Path) -> _Document:
    if (
        isinstance(reference, str)
        and not _is_path_reference(reference)
        and (len(reference) > MAX_ID_LENGTH)
    ):
        raise UnreadableInputError(
            f"a ruleset id of {len(reference):,} characters: ids have at most {MAX_ID_LENGTH}",
            hint="give a shipped ruleset id (see 'baloot-conformance spec list') or a .yaml file",
        )
    try:
        if Path(reference).is_dir():
            raise UnreadableInputError(
                f"{reference} is a folder, not a ruleset",
                hint=f"give a ruleset id or a .yaml file; for every file of a folder: "
                f"{Path(reference) / '*.yaml'}",
            )
        return _load_path_checked(reference)
    except OSError as exc:  # e.g. a name too long for the file system, a loop of links
        raise UnreadableInputError(f"cannot read the ruleset {reference}: {exc.strerror}") from None


def _load_path_checked(reference: str | Path) -> _Document:
    if isinstance(reference, str) and (Path(reference).is_file() or _is_path_reference(reference)):
        reference = Path(reference)
    path = reference if isinstance(reference, Path) else _locate(reference, None, None)
    if not path.is_file():
        raise UnreadableInputError(
            f"no such file: {path}" if not path.exists() else f"not a file: {path}",
            hint="give a shipped ruleset id (see 'baloot-conformance spec list') or a .yaml file",
        )
    doc = _resolve(path, (), None)
    _check_valid(doc)
    return doc


def _check_valid(doc: _Document) -> None:
    """Validate ``doc`` (the schema, then the semantic checks) unless this kit has recorded
    it valid already (:func:`_validated`); record it when it passes.

    Raises:
        SpecError: the document is not valid; ``problems`` lists everything found.
    """
    known = _validated(doc)
    if known is not None and known.exists():
        return
    problems = _schema_problems(doc) or _semantic_problems(doc)
    if problems:
        head = problems[0]
        raise SpecError(
            head.message, location=head.location, hint=head.hint, problems=tuple(problems)
        )
    if known is not None:
        with contextlib.suppress(OSError):  # no record: the next run validates again
            known.parent.mkdir(mode=0o700, exist_ok=True)
            known.touch()


def _validated(doc: _Document) -> Path | None:
    """The file whose presence says that this very document passed validation by this very
    kit: validating a ruleset (the schema, then the semantic checks, with jsonschema to
    import) is most of loading one, and the same shipped rulesets are loaded by every run.
    Its name is a hash of the document and of what validates it (this module, the rules
    model, the schema and the kit's version), in the user's own cache folder (see
    :func:`~baloot_conformance.resources.cache_folder`); ``None`` without a usable folder."""
    folder = cache_folder()
    if folder is None:
        return None
    key = hashlib.sha256(_validation_stamp())
    key.update(canonical_json(doc.data).encode("utf-8"))
    return folder / "valid-rulesets" / key.hexdigest()


@cache
def _validation_stamp() -> bytes:
    """What the validation of a ruleset depends on besides the document itself."""
    from baloot_conformance import __version__

    stamp = hashlib.sha256(__version__.encode("utf-8"))
    for path in (Path(__file__), Path(rules.__file__), spec_path("schema", "ruleset.schema.json")):
        stamp.update(path.read_bytes())
    return stamp.digest()


def derive_ruleset(base: Ruleset, changes: Mapping[str, Mapping[str, Any]], id: str) -> Ruleset:
    """``base`` with some rules replaced whole (rule ID -> the rule as plain data, as in a
    profile), validated like a loaded ruleset: how spec diffs and inference build the rulesets
    that differ from another in one rule.

    Raises:
        SpecError: the result is not a valid ruleset (e.g. a Sun raise limit that the new
            raise chain lacks); ``problems`` lists everything found.
        KeyError: a rule ID that the ruleset does not have.
    """
    data: dict[str, Any] = json.loads(canonical_json(base.document))
    for rule_id, rule in changes.items():
        section, _, name = rule_id.partition(".")
        if name not in data.get(section, {}):
            raise KeyError(rule_id)
        data[section][name] = json.loads(canonical_json(rule))
    data["id"] = id
    doc = _Document(f"<{id}>", data, lineage=(id, *base.lineage))
    _check_valid(doc)  # spec diffs and inference derive the same variants again and again
    digest = "sha256:" + hashlib.sha256(canonical_json(data).encode("utf-8")).hexdigest()
    return _typed(doc, digest)


MAX_DIGITS = 9
"""The longest integer a ruleset may hold (documented limit)."""
MAX_ID_LENGTH = 100
"""The longest ruleset reference (id, id@version or path) accepted (documented limit)."""


def load_ruleset(reference: str | Path) -> Ruleset:
    """Load a ruleset by shipped id (``saudi``, ``saudi@1``, ``kammelna``) or by path.

    Raises:
        SpecError: the ruleset cannot be read, resolved or validated; ``problems`` lists all
            problems found, most relevant first, each with ``file:line:col``.
    """
    doc = _load_checked(reference)
    digest = "sha256:" + hashlib.sha256(canonical_json(doc.data).encode("utf-8")).hexdigest()
    return _typed(doc, digest)
