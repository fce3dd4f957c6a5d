"""Load, resolve and validate rulesets: from a shipped id or a file to a typed
:class:`~baloot_conformance.rules.ruleset.Ruleset`.

The way in is :func:`load_ruleset` (a shipped id such as ``saudi`` or ``kammelna``, or a path).
Loading goes through four gates, each reporting ``file:line:col``:

1. **Strict YAML** (:mod:`~baloot_conformance.rules.strict_yaml`). Safe loading only;
   duplicate keys, aliases (no "billion laughs"), floats, YAML 1.1 surprises (``on``/``off``/
   ``yes``, ``08``, unquoted ``1.10``) and files over 1 MiB are errors, never silent
   reinterpretations.
2. **Overlays.** A profile ``extends`` another ruleset and replaces whole rules; sources merge.
   Missing bases and cycles are errors.
3. **JSON Schema** (``spec/schema/ruleset.schema.json``, draft 2020-12) on the resolved
   document, most relevant error first, with a "did you mean" for misspelt keys
   (:mod:`~baloot_conformance.rules.validation`).
4. **Semantic checks** the schema cannot express: orders are permutations of the ranks, the
   point tables add up to the declared totals, the deal uses the whole pack, every formula
   parses and passes its own examples, every cited source is in the bibliography (there too).

A document that passed is recorded as valid in the user's cache folder, so that the next run
loading it skips gates 3 and 4. :func:`derive_ruleset` builds a ruleset that differs from
another in some rules, validated the same way (spec diffs, inference, fixtures).
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import json
import typing
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from baloot_conformance.errors import BalootError, Location, SpecError, UnreadableInputError
from baloot_conformance.resources import cache_folder, spec_path
from baloot_conformance.rules import model
from baloot_conformance.rules.model import FORMAT
from baloot_conformance.rules.ruleset import Ruleset, canonical_json, mechanism, typed_ruleset
from baloot_conformance.rules.strict_yaml import Path_, _Document, _parse_yaml, dump_yaml
from baloot_conformance.rules.validation import _schema_problems, _semantic_problems, fixed_rules
from baloot_conformance.version import __version__

#: Rulesets larger than this are refused before parsing.
MAX_FILE_BYTES = 1 << 20
#: Folders (under ``spec/``) searched for shipped rulesets, in order.
SHIPPED_FOLDERS = ("rulesets", "profiles")

#: Top-level keys that describe one file's source and are never inherited by a profile.
_OWN_KEYS = ("extends", "silent", "unmodelled", "defects")


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
    return shipped_files()


#: The trick family's format (``spec/rulesets/bourre.yaml``): its files are shipped beside
#: Baloot's, and :mod:`baloot_conformance.family.rules.loading` reads them, never this module.
TRICK_FORMAT = "trick-ruleset/1"


def shipped_files(fmt: str = FORMAT) -> dict[str, Path]:
    """The shipped files of one format (Baloot's, or :data:`TRICK_FORMAT`): id -> file. A
    file is the trick family's when its first key line says so (:func:`_declares_trick`);
    every other file is Baloot's, as before the family existed."""
    found: dict[str, Path] = {}
    for folder in SHIPPED_FOLDERS:
        directory = spec_path(folder)
        if directory.is_dir():
            for file in sorted(directory.glob("*.yaml")):
                if _declares_trick(file) == (fmt == TRICK_FORMAT):
                    found.setdefault(file.stem, file)
    return found


def _shipped_file(name: str) -> Path | None:
    """The shipped Baloot file with this id, as :func:`shipped_rulesets` would give it, from
    the file's own name: the folders are not listed and only that file is sniffed, so finding
    ``saudi`` costs what it did before the trick family's files were shipped beside it."""
    for folder in SHIPPED_FOLDERS:
        file = spec_path(folder, f"{name}.yaml")
        try:
            if file.is_file() and not _declares_trick(file):
                return file
        except OSError:  # a name too long for the file system: no shipped id
            return None
    return None


@cache
def _declares_trick(file: Path) -> bool:
    """Whether a shipped file's first key line is ``format: trick-ruleset/1``: read up to it
    (its header comment, a dozen lines), never parsed, once per file and run."""
    try:
        with file.open("rb") as text:
            for line in text:
                if line.strip() and not line.startswith(b"#"):
                    key, _, value = line.split(b"#")[0].partition(b":")
                    declared = value.strip().strip(b"'\"")
                    return key == b"format" and declared == TRICK_FORMAT.encode()
    except OSError:
        pass
    return False


def _is_path_reference(reference: str) -> bool:
    return "/" in reference or "\\" in reference or reference.endswith((".yaml", ".yml"))


def _locate(reference: str, relative_to: Path | None, where: Location | None) -> Path:
    """The file a ruleset reference names: a path, or a shipped id (``saudi`` or ``saudi@1``)."""
    if _is_path_reference(reference):
        candidate = Path(reference)
        if relative_to is not None and not candidate.is_absolute():
            candidate = relative_to / candidate
        return candidate
    name, _ = split_reference(reference, where)
    found = _shipped_file(name)
    if found is not None:
        return found
    error = UnreadableInputError if where is None else SpecError
    if name in shipped_files(TRICK_FORMAT):
        raise _trick_ruleset_error(name, where)
    shipped = shipped_rulesets()
    close = difflib.get_close_matches(name, list(shipped), n=1) or difflib.get_close_matches(
        name, list(shipped_files(TRICK_FORMAT)), n=1
    )
    raise error(
        f"no ruleset named {name!r}",
        location=where,
        hint=(f"did you mean {close[0]!r}? " if close else "")
        + f"shipped rulesets: {', '.join(shipped)}; "
        + "a ruleset file of your own is given by its path (--ruleset PATH)",
    )


def names_trick_ruleset(reference: str) -> bool:
    """Whether a reference (a shipped id, ``id@major``, or a path) names a trick ruleset
    (``format: trick-ruleset/1``): asked only after a Baloot load failed, so that it costs a
    Baloot run nothing."""
    if _is_path_reference(reference):
        return _declares_trick(Path(reference))
    return reference.split("@")[0] in shipped_files(TRICK_FORMAT)


def _trick_ruleset_error(name: str, where: Location | None) -> BalootError:
    """The error for a Baloot load of a trick ruleset (``bourre``): it names the format."""
    error = UnreadableInputError if where is None else SpecError
    return error(
        f"{name} is a {TRICK_FORMAT} ruleset: the Baloot tools read {FORMAT} rulesets only",
        location=where,
        hint="trick rulesets are loaded by the trick family "
        "(baloot_conformance.family.rules.loading.load_trick_ruleset); Baloot rulesets: "
        + ", ".join(shipped_rulesets()),
    )


def split_reference(reference: str, where: Location | None = None) -> tuple[str, int | None]:
    """A shipped ruleset's id and the major version asked for: ``saudi@1`` -> ``("saudi",
    1)``, ``saudi`` -> ``("saudi", None)``.

    Raises:
        UnreadableInputError (SpecError with ``where``): what follows ``@`` is not a number.
    """
    name, at, tail = reference.partition("@")
    if not at:
        return name, None
    if not (tail.isascii() and tail.isdigit()) or len(tail) > 4:
        error = UnreadableInputError if where is None else SpecError
        raise error(
            f"{reference!r}: what follows '@' is a major version, a number",
            location=where,
            hint=f"write {name}@1 for version 1.x, or {name} for the version shipped",
        )
    return name, int(tail)


def _check_major(reference: str, version: str, where: Location | None) -> None:
    """``reference`` (``saudi@3``) asks for the major version of ``version`` (``1.1.0``), or
    it is an error naming the version there is: a transcript written for another major
    version of a ruleset is never judged under this one."""
    name, major = split_reference(reference, where)
    shipped = version.split(".")[0]
    if major is None or shipped == str(major):
        return
    error = UnreadableInputError if where is None else SpecError
    raise error(
        f"{reference!r} asks for {name} {major}.x, but this kit has {name} {version} only",
        location=where,
        hint=f"write {name}@{shipped} to be judged under {name} {version}, "
        f"or use a kit that ships {name} {major}.x",
    )


def _resolve(path: Path, chain: tuple[Path, ...], where: Location | None) -> _Document:
    """Read ``path`` and apply it over the ruleset it extends, recursively."""
    resolved_path = _refuse_cycle(path, chain, where)
    doc = _read_document(path)
    if not isinstance(doc.data, dict):
        raise SpecError(
            "a ruleset must be a mapping of keys to values",
            location=doc.values[()],
            hint=f"start with 'format: {FORMAT}'",
        )
    fmt = doc.data.get("format")
    if fmt == TRICK_FORMAT:
        trick = _trick_ruleset_error(str(doc.data.get("id", path.stem)), None)
        raise SpecError(trick.message, location=doc.values[("format",)], hint=trick.hint)
    if fmt != FORMAT:
        raise SpecError(
            f"format: {'missing' if fmt is None else repr(fmt) + ' is not supported'}; "
            f"this kit reads {FORMAT!r}",
            location=doc.values.get(("format",), doc.values[()]),
            hint=f"the first line of a ruleset is 'format: {FORMAT}'",
        )
    return _extend(doc, path, (*chain, resolved_path), _BALOOT_LINEAGE)


class _Lineage(typing.NamedTuple):
    """How one ruleset format finds, reads and applies the base a profile extends: the two
    formats share :func:`_extend` and differ only in these."""

    locate: typing.Callable[[str, Path | None, Location | None], Path]
    resolve: typing.Callable[[Path, tuple[Path, ...], Location | None], _Document]
    check_overrides: typing.Callable[[_Document, _Document], None]
    overlay: typing.Callable[[_Document, _Document], _Document]
    example: str
    """a shipped reference of the format, for hints ("saudi@1")"""
    listing: str
    """where the shipped ids are listed, for the hint on a missing base"""


def _refuse_cycle(path: Path, chain: tuple[Path, ...], where: Location | None) -> Path:
    """``path`` resolved, unless it is already on the chain of files being extended."""
    resolved_path = path.resolve()
    if resolved_path in chain:
        cycle = " -> ".join(p.name for p in (*chain, resolved_path))
        raise SpecError(
            f"'extends' forms a cycle: {cycle}",
            location=where,
            hint="a profile must end in a ruleset that extends nothing",
        )
    return resolved_path


def _extend(doc: _Document, path: Path, chain: tuple[Path, ...], lineage: _Lineage) -> _Document:
    """``doc`` (read from ``path``, the last file of ``chain``) over the ruleset its
    ``extends`` names, resolved recursively; ``doc`` itself when it extends nothing. The base
    is a shipped id of the same major version or a file in the profile's folder or below, and
    the profile may only replace rules whose mechanism it changes."""
    doc.lineage = (str(doc.data.get("id")),)
    base_ref = doc.data.get("extends")
    if base_ref is None:
        return doc
    base_where = doc.values[("extends",)]
    if not isinstance(base_ref, str):
        raise SpecError("'extends' must name a ruleset id or a path", location=base_where)
    base_path = lineage.locate(base_ref, path.parent, base_where)
    folder = path.parent.resolve()
    if _is_path_reference(base_ref) and not base_path.resolve().is_relative_to(folder):
        raise SpecError(
            f"'extends' names {base_ref!r}, outside the profile's folder {folder}",
            location=base_where,
            hint=f"extend a shipped ruleset ({lineage.example}) or a file in the same folder "
            "or below",
        )
    if not base_path.is_file():
        raise SpecError(
            f"the base ruleset {base_ref!r} does not exist ({base_path})",
            location=base_where,
            hint=f"give a shipped id ({lineage.listing}) or a path",
        )
    base = lineage.resolve(base_path, chain, base_where)
    lineage.check_overrides(base, doc)
    if not _is_path_reference(base_ref):
        _check_major(base_ref, str(base.data.get("version", "")), base_where)
    return lineage.overlay(base, doc)


def _check_overrides(base: _Document, top: _Document) -> None:
    """Refuse a profile that restates a fixed rule, or a rule whose mechanism it leaves as
    it was: a profile may only reword a rule by changing what the rule does."""
    fixed = fixed_rules()
    problems: list[BalootError] = []
    for section in model.SECTIONS:
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
        mergeable = name == "sources" or name in model.SECTIONS
        if mergeable and isinstance(value, dict) and isinstance(data.get(name), dict):
            data[name] = {**data[name], **value}
        else:
            data[name] = value
    # Locations: a replaced subtree takes its locations from the profile.
    replaced: list[Path_] = []
    for name, value in top.data.items():
        if isinstance(value, dict) and (name in model.SECTIONS or name == "sources"):
            replaced.extend((name, inner) for inner in value)
        else:
            replaced.append((name,))
    merged.values = _replace_subtrees(base.values, top.values, replaced)
    merged.keys = _replace_subtrees(base.keys, top.keys, replaced)
    merged.inline = _replace_subtrees(base.inline, top.inline, replaced)
    merged.data = data
    return merged


_BALOOT_LINEAGE = _Lineage(
    _locate, _resolve, _check_overrides, _overlay, "saudi@1", "see 'baloot-conformance spec list'"
)


_T = typing.TypeVar("_T")


def _replace_subtrees(
    base: dict[Path_, _T], top: dict[Path_, _T], replaced: list[Path_]
) -> dict[Path_, _T]:
    """Entries of ``base`` outside the ``replaced`` subtrees, plus all of ``top``."""
    kept = {p: v for p, v in base.items() if not any(p[: len(r)] == r for r in replaced)}
    return kept | top


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
        if Path(reference).is_dir() and not _names_shipped(reference):
            raise UnreadableInputError(
                f"{reference} is a folder, not a ruleset",
                hint=f"give a ruleset id or a .yaml file; for every file of a folder: "
                f"{Path(reference) / '*.yaml'}",
            )
        return _load_path_checked(reference)
    except OSError as exc:  # e.g. a name too long for the file system, a loop of links
        raise UnreadableInputError(f"cannot read the ruleset {reference}: {exc.strerror}") from None


def _names_shipped(reference: str | Path) -> bool:
    """Whether ``reference`` is a shipped ruleset's id (``tazjel``, ``tazjel@2``), which a
    file or folder of that name in the current folder does not shadow."""
    return (
        isinstance(reference, str)
        and not _is_path_reference(reference)
        and _shipped_file(reference.split("@")[0]) is not None
    )


def _load_path_checked(reference: str | Path) -> _Document:
    if (
        isinstance(reference, str)
        and not _names_shipped(reference)
        and (Path(reference).is_file() or _is_path_reference(reference))
    ):
        reference = Path(reference)
    path = reference if isinstance(reference, Path) else _locate(reference, None, None)
    if not path.is_file():
        raise UnreadableInputError(
            f"no such file: {path}" if not path.exists() else f"not a file: {path}",
            hint="give a shipped ruleset id (see 'baloot-conformance spec list') or a .yaml file",
        )
    doc = _resolve(path, (), None)
    if isinstance(reference, str):
        _check_major(reference, str(doc.data.get("version", "")), None)
    _check_valid(doc)
    return doc


def _check_valid(doc: _Document) -> None:
    """Validate ``doc`` (the schema, then the semantic checks) unless this kit has recorded
    it valid already (:func:`_validate_once`).

    Raises:
        SpecError: the document is not valid; ``problems`` lists everything found.
    """
    _validate_once(
        doc,
        "valid-rulesets",
        _validation_stamp(),
        lambda checked: _schema_problems(checked) or _semantic_problems(checked),
    )


def _validate_once(
    doc: _Document,
    records: str,
    stamp: bytes,
    problems_of: typing.Callable[[_Document], list[BalootError]],
) -> None:
    """Validate ``doc`` with ``problems_of`` unless this kit has recorded it valid already;
    record it when it passes; raise :class:`SpecError` (at the first problem, listing them
    all) when it does not.

    Validating a ruleset (the schema, then the semantic checks, with jsonschema to import) is
    most of loading one, and the same shipped rulesets are loaded by every run. The record is
    a file under ``records`` in the user's own cache folder (see
    :func:`~baloot_conformance.resources.cache_folder`), named by a hash of the document and
    of ``stamp``, what validates it (the loading and validation code, the rules model, the
    schema and the kit's version); without a usable folder every load validates.
    """
    folder = cache_folder()
    known = None
    if folder is not None:
        key = hashlib.sha256(stamp)
        key.update(canonical_json(doc.data).encode("utf-8"))
        known = folder / records / key.hexdigest()
        if known.exists():
            return
    problems = problems_of(doc)
    if problems:
        head = problems[0]
        raise SpecError(
            head.message, location=head.location, hint=head.hint, problems=tuple(problems)
        )
    if known is not None:
        with contextlib.suppress(OSError):  # no record: the next run validates again
            known.parent.mkdir(mode=0o700, exist_ok=True)
            known.touch()


@cache
def _validation_stamp() -> bytes:
    """What the validation of a ruleset depends on besides the document itself: the kit's
    version, the sources of this package (the loading, the validation, the rules model, the
    formula language) and the schema."""
    stamp = hashlib.sha256(__version__.encode("utf-8"))
    for path in (
        *sorted(Path(__file__).parent.glob("*.py")),
        spec_path("schema", "ruleset.schema.json"),
    ):
        stamp.update(path.read_bytes())
    return stamp.digest()


def derive_ruleset(
    base: Ruleset,
    changes: Mapping[str, Mapping[str, Any]],
    id: str,
    sources: Mapping[str, str] | None = None,
) -> Ruleset:
    """``base`` with some rules replaced whole (rule ID -> the rule as plain data, as in a
    profile), validated like a loaded ruleset: how spec diffs and inference build the rulesets
    that differ from another in one rule. ``sources``: bibliography entries the new rules cite
    (a rule taken from another ruleset cites that ruleset's sources), added to ``base``'s.

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
    if sources:
        data["sources"] = {**dict(sources), **data.get("sources", {})}
    data["id"] = id
    doc = _Document(f"<{id}>", data, lineage=(id, *base.lineage))
    _check_valid(doc)  # spec diffs and inference derive the same variants again and again
    digest = "sha256:" + hashlib.sha256(canonical_json(data).encode("utf-8")).hexdigest()
    return typed_ruleset(doc.data, doc.path, doc.lineage, digest)


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
    return typed_ruleset(doc.data, doc.path, doc.lineage, digest)


def load_shipped_ruleset(reference: str) -> Ruleset:
    """:func:`load_ruleset` for a name that comes from a file (a transcript's ``[Ruleset]``
    tag, a fixture's): a shipped id, with or without ``@major``, never a path, so that a
    transcript cannot make the kit read a file of its choosing into a report.

    Raises:
        UnreadableInputError: ``reference`` is a path, an unknown id, or asks for a major
            version this kit does not have.
    """
    if _is_path_reference(reference):
        raise UnreadableInputError(
            f"{reference!r} is a path: a transcript names a shipped ruleset id (saudi@1)",
            hint="to check it under a ruleset file of yours, give --ruleset PATH",
        )
    return load_ruleset(reference)


def isolate(
    base: Ruleset,
    changes: Mapping[str, Mapping[str, Any]],
    sources: Mapping[str, str] | None = None,
) -> Ruleset | None:
    """``base`` with ``changes`` applied (see :func:`derive_ruleset`), or ``None`` when that
    is no valid ruleset alone: how witnesses and fixtures change one rule of a ruleset."""
    try:
        return derive_ruleset(base, changes, f"{base.id}-variant", sources)
    except SpecError:
        return None


def resolved_yaml(ruleset: Ruleset) -> str:
    """The resolved ruleset as YAML text that loads back to the same ruleset (``spec show``)."""
    header = (
        f"# {ruleset.id} {ruleset.version}, resolved from {' <- '.join(ruleset.lineage)}\n"
        f"# digest {ruleset.digest}\n"
    )
    return header + dump_yaml(ruleset.document)
