"""``spec list``, ``spec show`` and ``spec validate``: working with rulesets."""

from __future__ import annotations

import argparse
import json
from typing import Any, TextIO

from baloot_conformance.errors import SpecError, UnreadableInputError
from baloot_conformance.ruleset import load_ruleset, shipped_rulesets

_EXIT_OK, _EXIT_INVALID, _EXIT_USAGE = 0, 1, 2


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``spec`` and its sub-commands to the CLI."""
    spec = subparsers.add_parser(
        "spec",
        help="list, show and validate rulesets",
        description="Work with rulesets: the shipped ones (by id) or your own (by path).",
    )
    commands = spec.add_subparsers(title="spec commands", metavar="COMMAND")
    spec.set_defaults(handler=lambda args, out, err: _usage(spec, err))

    listing = commands.add_parser(
        "list",
        help="list the shipped rulesets and profiles",
        description="List the shipped rulesets and profiles with their versions.",
    )
    listing.add_argument("--json", action="store_true", help="print JSON instead of a table")
    listing.set_defaults(handler=_list)

    show = commands.add_parser(
        "show",
        help="print a resolved ruleset",
        description="Print a ruleset with its 'extends' chain applied, as YAML (or JSON).",
        epilog="example: baloot-conformance spec show kammelna",
    )
    show.add_argument("ruleset", metavar="ID|PATH", help="a shipped id (saudi, saudi@1) or a file")
    show.add_argument(
        "--format", choices=("yaml", "json"), default="yaml", help="output format (default yaml)"
    )
    show.set_defaults(handler=_show)

    validate = commands.add_parser(
        "validate",
        help="check rulesets against the schema and the semantic rules",
        description=(
            "Validate ruleset files (or, with no argument, every shipped ruleset): strict "
            "YAML, overlays, the JSON Schema, and the semantic checks. Every problem is "
            "reported as file:line:col."
        ),
        epilog="exit codes: 0 all valid, 1 some invalid, 2 usage error or unreadable file.",
    )
    validate.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="ruleset files or shipped ids (default: all shipped)",
    )
    validate.set_defaults(handler=_validate)


def _usage(parser: argparse.ArgumentParser, err: TextIO) -> int:
    parser.print_help(err)
    return _EXIT_USAGE


def _list(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    rows: list[dict[str, str | None]] = []
    for name in shipped_rulesets():
        ruleset = load_ruleset(name)
        rows.append(
            {
                "id": ruleset.id,
                "version": ruleset.version,
                "extends": ruleset.lineage[1] if len(ruleset.lineage) > 1 else None,
                "title": ruleset.title,
            }
        )
    if args.json:
        json.dump(rows, out, indent=2, ensure_ascii=False)
        out.write("\n")
        return _EXIT_OK
    width = max(len(str(row["id"])) for row in rows)
    for row in rows:
        base = f"  (extends {row['extends']})" if row["extends"] else ""
        out.write(f"{row['id']!s:<{width}}  {row['version']!s:<7}  {row['title']}{base}\n")
    return _EXIT_OK


def _show(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    ruleset = load_ruleset(args.ruleset)
    if args.format == "json":
        json.dump(ruleset.document, out, indent=2, ensure_ascii=False)
        out.write("\n")
    else:
        out.write(ruleset.to_yaml())
    return _EXIT_OK


def _validate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    references: list[str] = args.paths or list(shipped_rulesets())
    status = _EXIT_OK
    for reference in references:
        try:
            ruleset = load_ruleset(reference)
        except UnreadableInputError as exc:
            print(f"error: {exc}", file=err)
            status = _EXIT_USAGE
        except SpecError as exc:
            print(f"invalid: {exc}", file=err)
            status = max(status, _EXIT_INVALID)
        else:
            shown = "" if reference == ruleset.id else f" ({reference})"
            out.write(f"valid: {ruleset.id} {ruleset.version}{shown}\n")
    return status
