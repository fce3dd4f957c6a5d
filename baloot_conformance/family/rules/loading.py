"""Load, resolve and validate trick rulesets: from a shipped id (``bourre``, ``bourre-seed``,
``bourre@1``) or a file to a typed :class:`~.model.TrickRuleset`.

The way in is :func:`load_trick_ruleset`. Loading goes through the four gates of Baloot's
rulesets (:mod:`baloot_conformance.rules.loading`), each reporting ``file:line:col``:

1. **Strict YAML**, by the kit's one reader (:mod:`baloot_conformance.rules.strict_yaml`).
2. **Overlays.** A profile ``extends`` another trick ruleset and replaces whole rules (a
   contract whole, a stage rule whole); sources merge; a rule restated with its base's
   parameters is refused, as for Baloot. Missing bases and cycles are errors.
3. **JSON Schema** (``spec/schema/trick-ruleset.schema.json``, which takes the words of a
   rule, formulas and examples from Baloot's schema by reference), most relevant error first,
   with a "did you mean" for a misspelt key (:mod:`.validation`).
4. **Semantic checks** no schema can express (:mod:`.validation`).

A document that passed is recorded as valid in the user's cache folder (``valid-trick-
rulesets``), so that the next run loading it skips gates 3 and 4, as for Baloot.

Shipped trick rulesets sit in ``spec/rulesets`` and ``spec/profiles`` beside Baloot's; the
format each file declares on its first key line tells them apart
(:func:`baloot_conformance.rules.loading.shipped_files`): Baloot's tools never list them.
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
import json
import types
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from baloot_conformance import rules as baloot_rules
from baloot_conformance.errors import BalootError, Location, SpecError, UnreadableInputError
from baloot_conformance.family.rules import model
from baloot_conformance.family.rules.model import FORMAT, TrickRuleset
from baloot_conformance.family.rules.validation import (
    changed_rule_problems,
    schema_problems,
    semantic_problems,
)
from baloot_conformance.resources import spec_path
from baloot_conformance.rules.loading import MAX_ID_LENGTH, shipped_files, split_reference
from baloot_conformance.rules.ruleset import canonical_json, mechanism, type_hints
from baloot_conformance.rules.shared_loading import (
    Document,
    Lineage,
    build_value,
    check_major,
    extend_document,
    is_path_reference,
    read_document,
    refuse_cycle,
    replace_subtrees,
    validate_once,
)
from baloot_conformance.rules.strict_yaml import Path_, dump_yaml
from baloot_conformance.version import __version__

#: The sections whose rules a profile replaces one by one (the others' entries are whole).
RULE_SECTIONS = ("table", "contracts", "phases", "play", "scoring", "game")

#: Top-level keys that describe one file's source and are never inherited by a profile.
_OWN_KEYS = ("extends", "silent", "unmodelled")


def shipped_trick_rulesets() -> dict[str, Path]:
    """The shipped trick rulesets and profiles (``format: trick-ruleset/1``): id -> file."""
    return shipped_files(FORMAT)


def _locate(reference: str, relative_to: Path | None, where: Location | None) -> Path:
    """The file a reference names: a path, or a shipped id (``bourre`` or ``bourre@1``)."""
    if is_path_reference(reference):
        candidate = Path(reference)
        if relative_to is not None and not candidate.is_absolute():
            candidate = relative_to / candidate
        return candidate
    name, _ = split_reference(reference, where)
    shipped = shipped_trick_rulesets()
    if name in shipped:
        return shipped[name]
    error = UnreadableInputError if where is None else SpecError
    if name in shipped_files():
        raise error(
            f"{name} is a Baloot ruleset (baloot-ruleset/1), not a {FORMAT} one",
            location=where,
            hint="Baloot rulesets are loaded by the Baloot tools (load_ruleset); "
            f"trick rulesets shipped: {', '.join(shipped)}",
        )
    close = difflib.get_close_matches(name, list(shipped), n=1)
    raise error(
        f"no trick ruleset named {name!r}",
        location=where,
        hint=(f"did you mean {close[0]!r}? " if close else "")
        + f"shipped trick rulesets: {', '.join(shipped)}; "
        + "a ruleset file of your own is given by its path",
    )


def _resolve(path: Path, chain: tuple[Path, ...], where: Location | None) -> Document:
    """Read ``path`` and apply it over the trick ruleset it extends, recursively."""
    resolved_path = refuse_cycle(path, chain, where)
    doc = read_document(path)
    if not isinstance(doc.data, dict):
        raise SpecError(
            "a ruleset must be a mapping of keys to values",
            location=doc.values[()],
            hint=f"start with 'format: {FORMAT}'",
        )
    fmt = doc.data.get("format")
    if fmt != FORMAT:
        raise SpecError(
            f"format: {'missing' if fmt is None else repr(fmt) + ' is not a trick ruleset'}; "
            f"the trick family reads {FORMAT!r}",
            location=doc.values.get(("format",), doc.values[()]),
            hint=f"the first line of a trick ruleset is 'format: {FORMAT}'"
            + ("; a Baloot ruleset is loaded by the Baloot tools" if fmt is not None else ""),
        )
    return extend_document(doc, path, (*chain, resolved_path), _TRICK_LINEAGE)


def _check_overrides(base: Document, top: Document) -> None:
    """Refuse a profile rule whose mechanism is its base's: a profile may only restate a rule
    by changing what it does (its words alone change no verdict)."""
    problems: list[BalootError] = []
    for section in RULE_SECTIONS:
        mine, theirs = top.data.get(section), base.data.get(section)
        if not isinstance(mine, dict) or not isinstance(theirs, dict):
            continue
        for name, rule in mine.items():
            if (
                isinstance(rule, dict)
                and isinstance(theirs.get(name), dict)
                and mechanism(theirs[name]) == mechanism(rule)
            ):
                problems.append(
                    BalootError(
                        f"{section}.{name} is restated with the same parameters as its base",
                        location=top.keys.get((section, name)),
                        hint="change a parameter, or remove the rule (the base's applies); "
                        "rewording a rule without changing what it does is not allowed",
                    )
                )
    if problems:
        head = problems[0]
        raise SpecError(
            head.message, location=head.location, hint=head.hint, problems=tuple(problems)
        )


def _overlay(base: Document, top: Document) -> Document:
    """Apply a profile over its base: metadata and whole rules replace, sources merge."""
    merged = Document(top.path, {}, lineage=(*top.lineage, *base.lineage))
    data = {k: v for k, v in base.data.items() if k not in _OWN_KEYS}
    mergeable = ("sources", *RULE_SECTIONS)
    for name, value in top.data.items():
        if name == "extends":
            continue
        if name in mergeable and isinstance(value, dict) and isinstance(data.get(name), dict):
            data[name] = {**data[name], **value}
        else:
            data[name] = value
    replaced: list[Path_] = []
    for name, value in top.data.items():
        if isinstance(value, dict) and name in mergeable:
            replaced.extend((name, inner) for inner in value)
        else:
            replaced.append((name,))
    merged.values = replace_subtrees(base.values, top.values, replaced)
    merged.keys = replace_subtrees(base.keys, top.keys, replaced)
    merged.inline = replace_subtrees(base.inline, top.inline, replaced)
    merged.data = data
    return merged


# --- validation and its record ---------------------------------------------------------------


_TRICK_LINEAGE = Lineage(
    _locate, _resolve, _check_overrides, _overlay, "bourre@1", "a trick ruleset, bourre@1 say"
)


def _check_valid(doc: Document) -> None:
    """Validate ``doc`` (the schema, then the semantic checks) unless this kit has recorded
    it valid already, as a Baloot ruleset is (:func:`validate_once`).

    Raises:
        SpecError: the document is not valid; ``problems`` lists everything found.
    """
    validate_once(
        doc,
        "valid-trick-rulesets",
        _validation_stamp(),
        lambda checked: schema_problems(checked) or semantic_problems(checked),
    )


@cache
def _validation_stamp() -> bytes:
    """What validating a trick ruleset depends on besides the document: the kit's version,
    this package's sources and Baloot's rules package (the words, formulas, the schema
    messages it reuses), and the schemas."""
    stamp = hashlib.sha256(__version__.encode("utf-8"))
    files = [
        *sorted(Path(__file__).parent.glob("*.py")),
        *sorted(Path(baloot_rules.__file__).parent.glob("*.py")),
        spec_path("schema", "ruleset.schema.json"),
        *sorted(spec_path("schema").glob("trick-*.schema.json")),
    ]
    for path in files:
        stamp.update(path.read_bytes())
    return stamp.digest()


# --- the typed ruleset ---------------------------------------------------------------------


def _section(cls: Any, data: Mapping[str, Any], section: str) -> Any:
    """A typed section (:mod:`.model`) from its validated plain data: each field is the rule
    under its key, ``None`` where an optional rule is left out."""
    hints = type_hints(cls)
    values = {}
    for sf in dataclasses.fields(cls):
        rule_key = sf.metadata["key"]
        value = data.get(rule_key)
        values[sf.name] = (
            None
            if value is None
            else build_value(hints[sf.name], value, f"{section}.{rule_key}", {})
        )
    return cls(**values)


def _play(data: Mapping[str, Any]) -> Any:
    """The ``play`` section, typed by the generic engine's :func:`.play_build.build_play`."""
    from baloot_conformance.family.rules.play_build import build_play

    return build_play(data)


def typed_trick_ruleset(
    data: Mapping[str, Any], path: str, lineage: tuple[str, ...], digest: str
) -> TrickRuleset:
    """The typed ruleset of a resolved, validated document."""
    return TrickRuleset(
        id=data["id"],
        version=data["version"],
        title=data.get("title", data["id"]),
        description=data.get("description", ""),
        path=path,
        lineage=lineage,
        sources=types.MappingProxyType(dict(data.get("sources", {}))),
        digest=digest,
        document=data,
        contracts=types.MappingProxyType(
            {
                name: build_value(model.Contract, rule, f"contracts.{name}", {})
                for name, rule in data["contracts"].items()
            }
        ),
        play=_play(data["play"]),
        **{name: _section(cls, data[name], name) for name, cls in model.SECTIONS.items()},
    )


# --- public entry points -------------------------------------------------------------------


def _load_checked(reference: str | Path) -> Document:
    if isinstance(reference, str) and not is_path_reference(reference):
        if len(reference) > MAX_ID_LENGTH:
            raise UnreadableInputError(
                f"a ruleset id of {len(reference):,} characters: ids have at most {MAX_ID_LENGTH}",
                hint="give a shipped trick ruleset id (bourre) or a .yaml file",
            )
        if reference.split("@")[0] in shipped_trick_rulesets() or not Path(reference).is_file():
            path = _locate(reference, None, None)
            doc = _resolve(path, (), None)
            check_major(reference, str(doc.data.get("version", "")), None)
            _check_valid(doc)
            return doc
    path = Path(reference)
    try:
        if not path.is_file():
            raise UnreadableInputError(
                f"no such file: {path}" if not path.exists() else f"not a file: {path}",
                hint="give a shipped trick ruleset id (bourre) or a .yaml file",
            )
        doc = _resolve(path, (), None)
    except OSError as exc:  # a name too long for the file system, a loop of links
        raise UnreadableInputError(f"cannot read the ruleset {reference}: {exc.strerror}") from None
    _check_valid(doc)
    return doc


def digest_of(data: Mapping[str, Any]) -> str:
    """The digest a ruleset's reports print: sha256 of its canonical resolved document."""
    return "sha256:" + hashlib.sha256(canonical_json(data).encode("utf-8")).hexdigest()


def load_trick_ruleset(reference: str | Path) -> TrickRuleset:
    """Load a trick ruleset by shipped id (``bourre``, ``bourre@1``, ``bourre-seed``) or path.

    Raises:
        SpecError: the ruleset cannot be read, resolved or validated; ``problems`` lists all
            problems found, most relevant first, each with ``file:line:col``.
        UnreadableInputError: no such file or shipped id.
    """
    doc = _load_checked(reference)
    return typed_trick_ruleset(doc.data, doc.path, doc.lineage, digest_of(doc.data))


def resolved_trick_yaml(ruleset: TrickRuleset) -> str:
    """The resolved ruleset as YAML text that loads back to the same ruleset (``spec show``)."""
    header = (
        f"# {ruleset.id} {ruleset.version}, resolved from {' <- '.join(ruleset.lineage)}\n"
        f"# digest {ruleset.digest}\n"
    )
    return header + dump_yaml(ruleset.document)


def derive_trick_ruleset(
    base: TrickRuleset,
    changes: Mapping[str, Mapping[str, Any]],
    id: str,
    sources: Mapping[str, str] | None = None,
) -> TrickRuleset:
    """``base`` with some rules replaced whole (rule ID -> the rule as plain data, as in a
    profile), validated like a loaded ruleset: how spec diffs and inference will build the
    rulesets that differ from another in one rule (see
    :func:`baloot_conformance.rules.loading.derive_ruleset`). ``sources``: bibliography
    entries the new rules cite, added to ``base``'s.

    Raises:
        SpecError: the result is not a valid trick ruleset; ``problems`` lists everything.
        KeyError: a rule ID that the ruleset does not have.
    """
    data: dict[str, Any] = json.loads(canonical_json(base.document))
    for rule_id, rule in changes.items():
        section, _, name = rule_id.partition(".")
        if name not in data.get(section, {}):
            raise KeyError(rule_id)
        data[section][name] = json.loads(canonical_json(rule))
    if sources:
        data["sources"] = {**dict(sources), **data.get("sources", {})}
    data["id"] = id
    doc = Document(f"<{id}>", data, lineage=(id, *base.lineage))
    # base is valid: only the rules replaced need the schema, the whole needs the semantics
    validate_once(
        doc,
        "valid-trick-rulesets",
        _validation_stamp(),
        lambda checked: changed_rule_problems(checked, changes) or semantic_problems(checked),
    )
    return typed_trick_ruleset(doc.data, doc.path, doc.lineage, digest_of(data))


def isolate_trick(
    base: TrickRuleset,
    changes: Mapping[str, Mapping[str, Any]],
    sources: Mapping[str, str] | None = None,
) -> TrickRuleset | None:
    """``base`` with ``changes`` applied, or ``None`` when that is no valid trick ruleset
    alone (a witness search changes one rule at a time)."""
    try:
        return derive_trick_ruleset(base, changes, f"{base.id}-variant", sources)
    except SpecError:
        return None
