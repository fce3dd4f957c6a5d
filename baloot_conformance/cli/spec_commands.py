"""``spec list``, ``show``, ``validate``, ``diff`` and ``disagreements``, and ``infer``:
working with rulesets."""

from __future__ import annotations

import argparse
import contextlib
import json
from pathlib import Path
from typing import Any, TextIO

from baloot_conformance.cli.output import replaced
from baloot_conformance.errors import SpecError, UnreadableInputError
from baloot_conformance.rules.loading import load_ruleset, resolved_yaml, shipped_rulesets

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
    show.add_argument(
        "--resolved",
        action="store_true",
        help="print the ruleset resolved (the default, and the only form: a profile is shown "
        "with its 'extends' chain applied)",
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

    diff = commands.add_parser(
        "diff",
        help="the rules on which two rulesets differ, with witness hands",
        description=(
            "List the rules whose parameters differ between rulesets A and B: changed card "
            "orders as the pairs that swap, point changes, formulas as the inputs whose results "
            "differ, every other changed option; each classified by what it can change "
            "(legality, claims, score, game end). With --witness, each difference gets a small "
            "BTN transcript that passes under one ruleset and fails under the other because of "
            "it, found by replaying seeded random hands and verified under both."
        ),
        epilog="exit codes: 0 done (with --witness: every difference witnessed), 1 a "
        "difference without a witness, 2 usage error or unreadable ruleset.\n"
        "example: baloot-conformance spec diff saudi gamerules --witness",
    )
    diff.add_argument("a", metavar="A", help="a ruleset id or file")
    diff.add_argument("b", metavar="B", help="another ruleset id or file")
    diff.add_argument("--witness", action="store_true", help="find a witness hand for each")
    diff.add_argument(
        "--tries",
        type=int,
        default=3000,
        metavar="N",
        help="generated transcripts tried per difference and side (default 3000)",
    )
    diff.add_argument(
        "--format",
        choices=("text", "markdown", "json"),
        default="text",
        help="output format (default text)",
    )
    diff.set_defaults(handler=_diff)

    disagreements = commands.add_parser(
        "disagreements",
        help="write docs/disagreements.md: every disagreement of the shipped rulesets",
        description=(
            "Write the Markdown page of every rule on which a shipped profile departs from "
            "its base: each ruleset's reading, its sources, and a witness hand per reading. "
            "The search is seeded: the same rulesets give the same page."
        ),
    )
    disagreements.add_argument(
        "-o", "--output", metavar="FILE", help="write to FILE (default: standard output)"
    )
    disagreements.set_defaults(handler=_disagreements)

    render = commands.add_parser(
        "render",
        help="write the rulebook as static HTML pages",
        description=(
            "Write the rulebook as HTML pages into a folder: a page per ruleset with every "
            "rule (anchored by its ID), its statement, parameters, sources and the profiles "
            "that read it differently; a profile's page opens with its differences, each with "
            "its witness hand drawn. Self-contained pages, ready for GitHub Pages."
        ),
        epilog="example:\n  baloot-conformance spec render --to site/",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    render.add_argument("--to", required=True, metavar="DIR", help="the folder to write into")
    render.add_argument(
        "--ruleset",
        action="append",
        metavar="ID",
        help="render only this ruleset (repeat for several; default: every shipped one)",
    )
    render.set_defaults(handler=_render)


def register_infer(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``infer`` to the CLI."""
    command = subparsers.add_parser(
        "infer",
        help="name the ruleset an engine's transcripts fit best",
        description=(
            "Replay the transcripts under every shipped ruleset (or those of --rulesets), "
            "rank them by failed hands and root divergences, name the best, list the rules "
            "the transcripts never exercised, and where they do not all pass print the overlay "
            "profile (YAML) that makes the most of them pass."
        ),
        epilog="exit codes: 0 the best ruleset explains every hand, 1 it does not, "
        "2 usage error or unreadable input.\nexample: baloot-conformance infer games/*.btn",
    )
    command.add_argument("files", nargs="+", metavar="FILE", help="BTN transcripts")
    command.add_argument(
        "--rulesets",
        metavar="ID,ID",
        help="comma-separated rulesets to rank (default: every shipped one)",
    )
    command.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    command.add_argument("--quiet", action="store_true", help="no progress lines on standard error")
    command.set_defaults(handler=_infer)


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
    from baloot_conformance.cli import trick_spec

    tricks = trick_spec.list_rows()
    if args.json:
        json.dump([*rows, *tricks], out, indent=2, ensure_ascii=False)
        out.write("\n")
        return _EXIT_OK
    width = max(len(str(row["id"])) for row in rows)
    for row in rows:
        base = f"  (extends {row['extends']})" if row["extends"] else ""
        out.write(f"{row['id']!s:<{width}}  {row['version']!s:<7}  {row['title']}{base}\n")
    if tricks:  # the trick family's rulesets after Baloot's, their format named
        out.write(trick_spec.list_text(tricks))
    return _EXIT_OK


def _names_trick_ruleset(reference: str) -> bool:
    """Whether a reference names a trick ruleset (asked only once a Baloot load failed)."""
    from baloot_conformance.rules.loading import names_trick_ruleset

    return names_trick_ruleset(reference)


def _show(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    try:
        ruleset = load_ruleset(args.ruleset)
    except (SpecError, UnreadableInputError):
        if not _names_trick_ruleset(args.ruleset):
            raise
        from baloot_conformance.cli import trick_spec

        trick_spec.show(args.ruleset, args.format, out)
        return _EXIT_OK
    if args.format == "json":
        json.dump(ruleset.document, out, indent=2, ensure_ascii=False)
        out.write("\n")
    else:
        out.write(resolved_yaml(ruleset))
    return _EXIT_OK


def _validate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    references: list[str] = args.paths or list(shipped_rulesets())
    status = _EXIT_OK
    for reference in references:
        try:
            try:
                ruleset: Any = load_ruleset(reference)
            except (SpecError, UnreadableInputError):
                if not _names_trick_ruleset(reference):
                    raise
                from baloot_conformance.family.rules.loading import load_trick_ruleset

                ruleset = load_trick_ruleset(reference)
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


# The commands' own modules are imported when a command runs, not at start-up.


def _diff(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from baloot_conformance.compare.diff import diff_rulesets
    from baloot_conformance.compare.witness import find_witness
    from baloot_conformance.report.spec_report import render_diff

    if args.tries < 1:
        print("error: --tries must be at least 1", file=err)
        return _EXIT_USAGE
    tricks = [_names_trick_ruleset(ref) for ref in (args.a, args.b)]
    if any(tricks):
        if not all(tricks):
            print(
                f"error: {args.a} and {args.b} are not of one format: a Baloot ruleset "
                "(baloot-ruleset/1) and a trick ruleset (trick-ruleset/1) cannot be compared",
                file=err,
            )
            return _EXIT_USAGE
        from baloot_conformance.cli import trick_spec

        done = trick_spec.diff(args.a, args.b, args.witness, args.tries, args.format, out, err)
        return _EXIT_OK if done else _EXIT_INVALID
    a, b = load_ruleset(args.a), load_ruleset(args.b)
    differences = diff_rulesets(a, b)
    witnesses = None
    if args.witness:
        witnesses = {}
        for difference in differences:
            print(f"searching a witness for {difference.rule_id} ...", file=err)
            witnesses[difference.rule_id] = find_witness(a, b, difference, args.tries)
    name_a, name_b = f"{a.id}@{a.version}", f"{b.id}@{b.version}"
    out.write(render_diff(name_a, name_b, differences, witnesses, args.format))
    if witnesses is not None and any(w is None for w in witnesses.values()):
        return _EXIT_INVALID
    return _EXIT_OK


def _disagreements(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from baloot_conformance.compare.disagreements import disagreements_markdown
    from baloot_conformance.family.compare.disagreements import family_disagreements_markdown

    # The output is checked before the search, which takes minutes.
    target = replaced(args.output) if args.output else contextlib.nullcontext(out)
    with target as stream:
        say = lambda line: print(line, file=err)  # noqa: E731
        stream.write(disagreements_markdown(progress=say))
        stream.write(family_disagreements_markdown(progress=say))
    return _EXIT_OK


def _render(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from baloot_conformance.report.rulebook_pages import is_rendered, is_rendered_page, render_pages

    folder = Path(args.to)
    if folder.exists() and not folder.is_dir():
        print(f"error: {folder}: not a folder", file=err)
        return _EXIT_USAGE
    if folder.is_dir() and any(folder.iterdir()) and not is_rendered(folder):
        print(
            f"error: {folder}: the folder is not empty and is not an earlier rendering "
            "(its index.html was not written by spec render); name a new or empty folder",
            file=err,
        )
        return _EXIT_USAGE
    tricks = bool(args.ruleset) and all(_names_trick_ruleset(n) for n in args.ruleset)
    if tricks:  # the trick family's pages (a Baloot id among them is refused below)
        from baloot_conformance.cli import trick_spec

        for name in args.ruleset:
            trick_spec.load(name)
    else:
        for name in args.ruleset or ():
            load_ruleset(name)  # an unknown id is a usage error, before anything is written
    folder.mkdir(parents=True, exist_ok=True)
    if tricks:
        from baloot_conformance.report.trick_rulebook_pages import render_trick_pages

        pages = render_trick_pages(args.ruleset)
    else:
        pages = list(render_pages(args.ruleset))
    for page in pages:
        with replaced(folder / page.name) as stream:
            stream.write(page.html)
    written = {page.name for page in pages}
    for old in folder.glob("*.html"):  # pages of an earlier rendering that are not rendered now
        if old.name not in written and is_rendered_page(old):
            old.unlink()
    print(f"wrote {len(pages)} pages to {folder} (open {folder / 'index.html'})", file=err)
    return _EXIT_OK


def _infer(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from baloot_conformance.compare.inference import infer, overlay_yaml, read_transcripts
    from baloot_conformance.report.spec_report import render_inference

    if _all_btn2(args.files):
        from baloot_conformance.cli import trick_spec

        explained = trick_spec.infer(args.files, args.rulesets, args.format, args.quiet, out, err)
        return _EXIT_OK if explained else _EXIT_INVALID
    names = args.rulesets.split(",") if args.rulesets else list(shipped_rulesets())
    candidates = [load_ruleset(name.strip()) for name in names if name.strip()]
    if not candidates:
        print("error: --rulesets names no ruleset", file=err)
        return _EXIT_USAGE
    pool = [load_ruleset(name) for name in shipped_rulesets()]
    transcripts = read_transcripts(args.files)
    say = None if args.quiet else (lambda line: print(line, file=err))
    result = infer(transcripts, candidates, pool, progress=say)
    best = next(r for r in candidates if f"{r.id}@{r.version}" == result.best[0])
    overlay = overlay_yaml(best, result.overlay) if result.overlay else None
    out.write(render_inference(result, overlay, args.format))
    return _EXIT_OK if result.ranking[0].failed == 0 else _EXIT_INVALID


def _all_btn2(files: list[str]) -> bool:
    """Whether every file given to ``infer`` is a BTN 2 transcript (the trick family's)."""
    heads = []
    for name in files:
        try:
            with open(name, "rb") as stream:
                heads.append(stream.read(16))
        except OSError:
            return False
    if not heads or not all(head.startswith(b"%btn 2") for head in heads):
        return False
    from baloot_conformance.family.check.run import is_btn2

    return all(is_btn2(head) for head in heads)
