"""``fmt``, ``convert`` and ``import``: the BTN transcript commands.

``fmt FILE...`` rewrites each transcript in canonical form (``--check`` only reports, for CI);
``convert --to json|btn FILE...`` turns BTN text into its JSON form and back; ``import --from
ENGINE LOG...`` turns an engine's own match logs into BTN. Files are
processed hand by hand, so a large transcript never sits in memory as a whole.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from baloot_conformance import btn
from baloot_conformance.btn import TranscriptReader
from baloot_conformance.btn.json_form import JsonReader, json_chunks
from baloot_conformance.btn.writer import format_hand, format_header
from baloot_conformance.cli.inputs import TRANSCRIPTS, expand
from baloot_conformance.cli.output import OutputError, replaced
from baloot_conformance.errors import BalootError, TranscriptSyntaxError, UnreadableInputError
from baloot_conformance.importers import BUILT_IN, ENTRY_POINT_GROUP, import_file, importer

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_USAGE = 2


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the transcript commands to the CLI."""
    fmt = subparsers.add_parser(
        "fmt",
        help="rewrite BTN transcripts in canonical form",
        description="Rewrite each BTN file in canonical form (docs/btn.md). With --check, "
        "change nothing and exit 1 if a file is not canonical.",
    )
    fmt.add_argument("files", nargs="+", metavar="FILE", help="BTN transcripts (.btn)")
    fmt.add_argument(
        "--check", action="store_true", help="report files that are not canonical; exit 1"
    )
    fmt.set_defaults(handler=run_fmt)

    convert = subparsers.add_parser(
        "convert",
        help="convert transcripts between BTN text and its JSON form",
        description="Convert BTN text to JSON (--to json) or JSON to canonical BTN (--to btn). "
        "With one FILE the result goes to standard output unless --output is given; with "
        "several, --output names a folder and each result keeps its file's stem.",
    )
    convert.add_argument("files", nargs="+", metavar="FILE", help="files to convert")
    convert.add_argument("--to", required=True, choices=["json", "btn"], help="target form")
    convert.add_argument(
        "-o", "--output", metavar="PATH", help="output file (one input) or folder (several)"
    )
    convert.set_defaults(handler=run_convert)

    importer = subparsers.add_parser(
        "import",
        help="convert engines' own match logs to BTN transcripts",
        description="Convert match logs written by an engine in its own JSON shape (.json or "
        ".json.gz) to BTN, ready for 'check'. With one LOG the transcript goes to standard "
        "output unless --output is given; with several, --output names a folder and each "
        "transcript keeps its log's stem. A log field the importer cannot place is an error "
        "naming its JSON pointer. Importers: "
        + ", ".join(BUILT_IN)
        + ", and those installed packages add (entry point group "
        + f"'{ENTRY_POINT_GROUP}').",
    )
    importer.add_argument("files", nargs="+", metavar="LOG", help="the engine's match logs")
    importer.add_argument(
        "--from",
        dest="engine",
        required=True,
        metavar="ENGINE",
        help="the importer for the engine that wrote the logs: " + ", ".join(BUILT_IN) + ", ...",
    )
    importer.add_argument(
        "-o", "--output", metavar="PATH", help="output file (one log) or folder (several)"
    )
    importer.set_defaults(handler=run_import)


def _write_canonical(source: Path, write: Callable[[str], object]) -> None:
    """Stream the canonical form of ``source`` to ``write``, hand by hand."""
    with TranscriptReader(source) as reader:
        write(format_header(reader.head()))
        for hand in reader:
            write(format_hand(hand))


def _is_canonical(path: Path) -> bool:
    """Whether ``path`` is in canonical form, compared as its canonical form streams out
    (nothing is written anywhere; a compressed file is compared decompressed)."""
    same = True
    with btn.open_source(str(path)) as original:

        def compare(text: str) -> None:
            nonlocal same
            data = text.encode("utf-8")
            same = same and original.read(len(data)) == data

        _write_canonical(path, compare)
        return same and not original.read(1)


def run_fmt(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Rewrite (or with --check only report) each file, or each ``.btn`` file below a folder:
    1 if a file is not canonical (with --check), 2 if a file is missing or not BTN. A rewrite
    goes through a temporary file, and a symbolic link is followed (the file it points to is
    rewritten, the link stays). A compressed transcript is checked, never rewritten: its
    canonical form would lose the compression."""
    status = EXIT_OK
    inputs = expand(args.files, TRANSCRIPTS)
    for name in inputs.names:
        path = Path(name)
        try:
            if name in inputs.problems:
                raise UnreadableInputError(inputs.problems[name])
            if _is_canonical(path):
                continue
            if args.check:
                print(f"would reformat {name}", file=stdout)
                status = max(status, EXIT_INVALID)
                continue
            if name.endswith(btn.COMPRESSED):
                raise UnreadableInputError(
                    f"{name}: not canonical, and a compressed file is not rewritten",
                    hint="decompress it, run fmt on the .btn file, and compress it again",
                )
            with replaced(path.resolve()) as out:
                _write_canonical(path, out.write)
            print(f"reformatted {name}", file=stdout)
        except BalootError as exc:
            print(f"error: {exc}", file=stderr)
            status = EXIT_USAGE
        except OSError as exc:
            print(f"error: {name}: cannot read it: {exc.strerror}", file=stderr)
            status = EXIT_USAGE
    return status


def _convert_one(path: Path, to: str, write: Callable[[str], object]) -> None:
    """Stream ``path`` converted to ``to`` into ``write``, hand by hand both ways."""
    if to == "json":
        with TranscriptReader(path) as reader:
            for chunk in json_chunks(reader.head(), reader):
                write(chunk)
        return
    try:
        with path.open(encoding="utf-8") as stream:
            reader_json = JsonReader(stream, str(path))
            write(format_header(reader_json.head))
            for hand in reader_json:
                write(format_hand(hand))
    except UnicodeDecodeError as exc:
        raise TranscriptSyntaxError(f"{path}: not UTF-8 text: {exc.reason}") from None
    except OSError as exc:
        raise UnreadableInputError(f"{path}: cannot read it: {exc.strerror}") from None


def run_convert(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Convert each file; 2 if a file is missing or not what ``--to`` converts from."""
    suffix = ".json" if args.to == "json" else ".btn"
    return _each_file(
        args,
        stdout,
        stderr,
        lambda path, write: _convert_one(path, args.to, write),
        lambda path: path.stem + suffix,
        TRANSCRIPTS if args.to == "json" else (".json",),
    )


def _each_file(
    args: argparse.Namespace,
    stdout: TextIO,
    stderr: TextIO,
    convert: Callable[[Path, Callable[[str], object]], object],
    name: Callable[[Path], str],
    endings: tuple[str, ...],
) -> int:
    """Convert ``args.files`` (files, or the files with ``endings`` below a folder) one by
    one, streaming: to standard output, or to ``--output``, written through a temporary file
    and never over an input. ``--output`` names a folder when it ends in ``/``, is a folder
    already, or there are several inputs (each result under ``name(path)``), else a file.
    2 if an input cannot be converted (reported, the others still converted) or for usage
    problems, found before anything is written."""
    inputs = expand(args.files, endings)
    if inputs.problems:
        for problem in inputs.problems.values():
            print(f"error: {problem}", file=stderr)
        return EXIT_USAGE
    files = [Path(f) for f in inputs.names]
    targets = _targets(files, args.output, name)
    status = EXIT_OK
    for path, target in zip(files, targets, strict=True):
        try:
            if target is None:
                convert(path, stdout.write)
                continue
            with replaced(target, files) as out:
                convert(path, out.write)
        except BalootError as exc:
            print(f"error: {exc}", file=stderr)
            status = EXIT_USAGE
    return status


def _targets(
    files: list[Path], output: str | None, name: Callable[[Path], str]
) -> list[Path | None]:
    """Where each input's result goes (``None``: standard output), the folder made if need be.

    Raises:
        OutputError: several inputs and no folder, a folder that is a file or cannot be made,
            or two inputs whose results would have the same name.
    """
    if output is None:
        if len(files) > 1:
            raise OutputError("several files need --output FOLDER", hint="e.g. -o out/")
        return [None]
    folder = Path(output)
    if not (len(files) > 1 or output.endswith(("/", os.sep)) or folder.is_dir()):
        return [folder]
    if folder.exists() and not folder.is_dir():
        raise OutputError(
            f"{output}: a file, not a folder, and the results go into a folder",
            hint="name a folder (a new one is made), e.g. -o out/",
        )
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"{output}: cannot make the folder: {exc.strerror}") from None
    targets: dict[Path, Path] = {}
    for path in files:
        target = folder / name(path)
        if target in targets:
            raise OutputError(
                f"{targets[target]} and {path} would both be written to {target}",
                hint="convert them into separate folders",
            )
        targets[target] = path
    return list(targets)


def run_import(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Import each log; 2 if a log cannot be read or has a shape its importer cannot place,
    or for usage problems (an unknown importer, a missing file)."""
    importer(args.engine)  # an unknown name is a usage error before any file is read
    return _each_file(
        args,
        stdout,
        stderr,
        lambda path, write: write(import_file(args.engine, path)),
        lambda path: path.name.removesuffix(".gz").removesuffix(".json") + ".btn",
        (".json", ".json.gz"),
    )
