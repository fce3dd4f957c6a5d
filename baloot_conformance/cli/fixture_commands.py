"""``fixtures lint``, ``fixtures list``, ``fixtures export`` and ``coverage``: the fixture
corpus."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from baloot_conformance.cli.output import OutputError, replaced
from baloot_conformance.errors import BalootError, UnreadableInputError

if TYPE_CHECKING:  # start-up: the corpus's modules (and jsonschema) load when a command runs
    from baloot_conformance.corpus.coverage import Traced
    from baloot_conformance.corpus.fixtures import Fixture
    from baloot_conformance.rules.ruleset import Ruleset

_EXIT_OK, _EXIT_INVALID, _EXIT_USAGE = 0, 1, 2
_EXPORT_KIND = "baloot-conformance fixtures"


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``fixtures`` (lint, export) and ``coverage`` to the CLI."""
    fixtures = subparsers.add_parser(
        "fixtures",
        help="lint, list and export the fixture corpus",
        description="The fixture corpus: one transcript per rule case, with its metadata.",
    )
    commands = fixtures.add_subparsers(title="fixtures commands", metavar="COMMAND")
    fixtures.set_defaults(handler=lambda args, out, err: _usage(fixtures, err))

    check = commands.add_parser(
        "lint",
        help="check fixtures: metadata, ids, rules, and that each gives its expected verdict",
        description=(
            "Check fixture files (default: the shipped corpus): the metadata against its "
            "schema, ids equal to file names and unique, known rule IDs and source keys, the "
            "ruleset and its versions, the expected verdict reproduced, every declared rule "
            "exercised, and a profile's fixture telling the profile apart from its base."
        ),
        epilog="exit codes: 0 no problem, 1 problems found, 2 usage error or unreadable file.",
    )
    check.add_argument("paths", nargs="*", metavar="PATH", help="fixture files or folders")
    check.set_defaults(handler=run_lint)

    export = commands.add_parser(
        "export",
        help="write the corpus as plain files and a manifest, for another runner",
        description=(
            "Write the fixtures as plain files, BTN or JSON, under DIR/<area>/<id>.<ext>, with "
            "DIR/manifest.json listing each one's id, file, ruleset, rules and expected "
            "verdict. DIR must be new, empty, or an earlier export (whose files are replaced)."
        ),
        epilog="example: baloot-conformance fixtures export --to corpus --format json",
    )
    export.add_argument("--to", required=True, metavar="DIR", help="the folder to write")
    export.add_argument(
        "--format", choices=("btn", "json"), default="btn", help="file format (default btn)"
    )
    export.add_argument("paths", nargs="*", metavar="PATH", help="fixture files or folders")
    export.set_defaults(handler=run_export)

    listing = commands.add_parser(
        "list",
        help="one line per fixture: id, area, expected verdict, the features it needs",
        description=(
            "List the shipped fixtures, one line each: id, area (a part of the rules or a "
            "profile), expected verdict, and the features it needs (computed from its "
            "replay, as 'suite' computes a case's: docs/protocol.md, Features). The filters "
            "combine: a fixture is listed when it passes every one given."
        ),
        epilog=_LIST_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    listing.add_argument("--rule", metavar="ID", help="only fixtures whose 'rules:' name ID")
    listing.add_argument("--area", metavar="AREA", help="only fixtures of this area (folder)")
    listing.add_argument("--feature", metavar="F", help="only fixtures that need feature F")
    listing.add_argument("--ruleset", metavar="ID", help="only fixtures written for ruleset ID")
    listing.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text (aligned columns) or json (JSON Lines, one object per fixture)",
    )
    listing.set_defaults(handler=run_list)

    coverage = subparsers.add_parser(
        "coverage",
        help="which rules the fixtures (or your transcripts) exercise, measured by replay",
        description=(
            "Replay files under a ruleset, recording which rules decided something (a "
            "legality check that could have failed, a conversion, a comparison), and print "
            "the rule x file table. Without files: the shipped fixtures written for the "
            "ruleset or a ruleset it extends."
        ),
        epilog=(
            "exit codes: 0 every rule covered, 1 a rule no file exercises, 2 usage error or "
            "unreadable file.\nexample: baloot-conformance coverage --ruleset saudi"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    coverage.add_argument(
        "--ruleset", default="saudi", metavar="ID|PATH", help="the ruleset (default saudi)"
    )
    coverage.add_argument(
        "--format", choices=("text", "json"), default="text", help="output format (default text)"
    )
    coverage.add_argument("paths", nargs="*", metavar="FILE", help="transcripts or fixtures")
    coverage.set_defaults(handler=run_coverage)


_LIST_EPILOG = """\
examples:
  baloot-conformance fixtures list --rule play.hokum.overruff
  baloot-conformance fixtures list --area bidding --feature ashkal
  baloot-conformance fixtures list --feature sawa --format json
  baloot-conformance fixtures list --ruleset majlis --feature doubling

The ids listed are what 'suite --fixtures' takes (a rule ID there selects the same
fixtures as --rule here). exit codes: 0 listed (even none), 2 an unknown rule, area,
feature or ruleset (with the closest name).
"""


def run_list(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Print the fixtures that pass the filters, one per line."""
    from baloot_conformance.check.features import ordered
    from baloot_conformance.corpus.listing import list_fixtures
    from baloot_conformance.rules.loading import shipped_rulesets

    if args.ruleset not in (None, *shipped_rulesets()) and _is_trick_ruleset(args.ruleset):
        from baloot_conformance.cli.family_fixtures import run_family_list

        return run_family_list(args, stdout, stderr)
    listed = list_fixtures(args.rule, args.area, args.feature, args.ruleset)
    if args.format == "json":
        for entry in listed:
            record = {
                "id": entry.id,
                "area": entry.area,
                "expect": entry.expect,
                "ruleset": entry.ruleset,
                "rules": list(entry.rules),
                "features": ordered(entry.features),
            }
            stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
        return _EXIT_OK
    width = max((len(entry.id) for entry in listed), default=0)
    area = max((len(entry.area) for entry in listed), default=0)
    expect = max((len(entry.expect) for entry in listed), default=0)
    for entry in listed:
        needed = ",".join(ordered(entry.features)) or "-"
        line = f"{entry.id:<{width}}  {entry.area:<{area}}  {entry.expect:<{expect}}  {needed}"
        stdout.write(line + "\n")
    print(f"{len(listed)} fixture{'s' * (len(listed) != 1)}", file=stderr)
    return _EXIT_OK


def _usage(parser: argparse.ArgumentParser, err: TextIO) -> int:
    parser.print_help(err)
    return _EXIT_USAGE


def _paths(names: list[str], anywhere: bool = False) -> list[Path]:
    """The files named, and those found in folders named: fixtures (``<area>/<id>.btn``, or
    the ``.btn`` files of one area's folder), or with ``anywhere`` every ``.btn`` file below.
    No names: the shipped corpus."""
    from baloot_conformance.corpus.fixtures import corpus_root, fixture_paths

    if not names:
        return fixture_paths(corpus_root())
    found: list[Path] = []
    for name in names:
        path = Path(name)
        if path.is_dir():
            inside = (
                sorted(path.rglob("*.btn"))
                if anywhere
                else fixture_paths(path) or sorted(path.glob("*.btn"))
            )
            if not inside:
                raise UnreadableInputError(f"{name}: no .btn files in it")
            found += inside
        elif path.is_file():
            found.append(path)
        else:
            raise UnreadableInputError(f"{name}: no such file or folder")
    return found


def run_lint(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Print each problem as file:line:col; 1 if there is any."""
    from baloot_conformance.corpus.fixtures import FixtureRun
    from baloot_conformance.corpus.lint import LintProblem, lint

    paths = _paths(args.paths)
    family = [path for path in paths if _is_btn2(path)]
    if family:  # BTN 2 fixtures (the trick family's): their own lint, the same report
        from baloot_conformance.cli.family_fixtures import family_lint

        found_any = family_lint([p for p in paths if p not in family], family)
    else:
        found_any = lint(paths)
    problems = runs = failing = 0
    for found in found_any:
        if isinstance(found, FixtureRun) or not isinstance(found, LintProblem):
            runs += 1
            failing += not found.fixture.expect.passes
            if stderr.isatty():
                print(f"\r{runs}/{len(paths)} {found.fixture.id[:60]:<60}", end="", file=stderr)
            continue
        if stderr.isatty():
            print("\r" + " " * 70 + "\r", end="", file=stderr)
        problems += 1
        print(str(found), file=stdout)
    if stderr.isatty():
        print("\r" + " " * 70 + "\r", end="", file=stderr)
    count = f"{len(paths)} fixture{'s' * (len(paths) != 1)}"
    said = f"{problems} problem{'s' * (problems != 1)}" if problems else "no problem"
    print(f"{count} ({runs - failing} passing, {failing} failing by design): {said}", file=stdout)
    return _EXIT_INVALID if problems else _EXIT_OK


def run_export(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Write the files and the manifest; a fixture that cannot be read stops the export."""
    from baloot_conformance.corpus.export import MANIFEST, manifest_entry
    from baloot_conformance.corpus.fixtures import load_fixture

    paths = _paths(args.paths)
    fixtures = [load_fixture(path) for path in paths if not _is_btn2(path)]
    family = [path for path in paths if _is_btn2(path)]
    exported = []
    if family:  # the trick family's (BTN 2), imported only when there are some
        from baloot_conformance.cli.family_fixtures import family_export

        exported = [family_export(path, args.format) for path in family]
    target = Path(args.to)
    _prepare(target)
    entries: list[dict[str, object]] = []
    for fixture in fixtures:
        name = f"{fixture.area}/{fixture.id}.{args.format}"
        (target / fixture.area).mkdir(parents=True, exist_ok=True)
        with replaced(target / name) as out:
            out.write(_exported_text(fixture, args.format))
        entries.append(manifest_entry(fixture, name))
    for name, text, entry in exported:
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        with replaced(target / name) as out:
            out.write(text)
        entries.append(entry)
    manifest = {"kind": _EXPORT_KIND, "format": args.format, "fixtures": entries}
    with replaced(target / MANIFEST) as out:
        out.write(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
    print(f"wrote {len(entries)} fixtures and {MANIFEST} to {target}", file=stdout)
    return _EXIT_OK


def _exported_text(fixture: Fixture, form: str) -> str:
    from baloot_conformance.btn import parse_transcript
    from baloot_conformance.btn.json_form import to_json_text

    if form == "btn":
        return fixture.text
    return to_json_text(parse_transcript(fixture.text, str(fixture.path)))


def _prepare(target: Path) -> None:
    """Make ``target`` ready: new or empty, or an earlier export whose files are removed."""
    from baloot_conformance.corpus.export import MANIFEST, exported_files

    if target.exists() and not target.is_dir():
        raise OutputError(f"{target}: not a folder", hint="name a new folder for the export")
    if not target.exists():
        try:
            target.mkdir(parents=True)
        except OSError as exc:
            raise OutputError(f"{target}: cannot create it: {exc.strerror}") from None
        return
    if not any(target.iterdir()):
        return
    manifest = target / MANIFEST
    try:
        earlier = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        earlier = None
    if not isinstance(earlier, dict) or earlier.get("kind") != _EXPORT_KIND:
        raise OutputError(
            f"{target}: the folder is not empty and holds no earlier export",
            hint="export into a new or empty folder",
        )
    for name in exported_files(earlier):
        path = (target / name).resolve()
        if path.is_relative_to(target.resolve()) and path.is_file():
            path.unlink()


def run_coverage(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Print the table; 1 when a rule of the ruleset is not covered."""
    from baloot_conformance.corpus.coverage import measure, render_text, trace_fixture
    from baloot_conformance.corpus.fixtures import load_corpus
    from baloot_conformance.rules.loading import load_ruleset

    try:
        ruleset = load_ruleset(args.ruleset)
    except BalootError:
        if not _is_trick_ruleset(args.ruleset):
            raise
        from baloot_conformance.cli.family_fixtures import run_family_coverage

        paths = [p for p in _paths(args.paths, True) if _is_btn2(p)] if args.paths else []
        return run_family_coverage(args, paths, stdout)
    traced: list[Traced] = []
    if args.paths:
        for path in _paths(args.paths, anywhere=True):
            if not _is_btn2(path):  # a folder's BTN 2 files are the trick family's
                traced.append(_trace_any(path, ruleset))
    else:
        for fixture in load_corpus():
            if fixture.ruleset_id in ruleset.lineage and fixture.expect.syntax_error is None:
                traced.append(trace_fixture(fixture, ruleset))
    coverage = measure(ruleset, traced)
    if args.format == "json":
        stdout.write(json.dumps(coverage.to_json(), indent=2) + "\n")
    else:
        stdout.write(render_text(coverage))
    return _EXIT_INVALID if coverage.uncovered else _EXIT_OK


def _is_trick_ruleset(reference: str) -> bool:
    """Whether ``--ruleset`` names a trick ruleset (Bourré): the family's commands then."""
    from baloot_conformance.rules.loading import names_trick_ruleset

    return names_trick_ruleset(reference)


def _is_btn2(path: Path) -> bool:
    """Whether a file starts with BTN 2's version line (a family fixture)."""
    try:
        with path.open("rb") as handle:
            head = handle.read(16)
    except OSError:
        return False
    return head.startswith(b"%btn 2") and head[6:7] in (b"", b"\n", b"\r", b" ", b"\t", b"#")


def _trace_any(path: Path, ruleset: Ruleset) -> Traced:
    """A fixture is traced under its id; a transcript without metadata under its path (a
    fixture whose metadata is broken is an error, as in ``fixtures lint``)."""
    from baloot_conformance.corpus.coverage import trace_fixture
    from baloot_conformance.corpus.coverage import trace_transcript as trace_plain
    from baloot_conformance.corpus.fixtures import NoMetadataError, load_fixture

    try:
        fixture = load_fixture(path)
    except NoMetadataError:
        return trace_plain(path, ruleset)
    return trace_fixture(fixture, ruleset)
