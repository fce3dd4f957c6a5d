"""Baloot's golden reports: the bytes ``check --format json`` writes, frozen and compared.

The trick-taking family (issue 28) joins the kit beside Baloot, on paths of its own; Baloot
must stay exactly as it is. This module runs the real command line (:func:`cli.main` in this
process, standard output captured as the UTF-8 bytes a user's terminal or ``-o`` file gets,
``--jobs 1``, one ``check`` run per report) over a fixed body of Baloot transcripts, and stores
each JSON Lines report compressed under ``tests/data/golden/`` with a manifest
(``manifest.json``: each report's sha256, hand count, exit code and standard error, and the
sha256 of the transcripts it checked). ``tests/test_golden.py`` runs the same commands and
asserts the same bytes. The reports, one per run:

- ``fixtures``: every BTN 1 fixture (``corpus.fixtures.baloot_fixture_files``, listed in the
  manifest), each under its own ``[Ruleset]``: every rule's passing and failing cases, the
  syntax errors;
- ``examples``: ``examples/*.btn``;
- ``witnesses`` and ``witnesses.under-saudi``: the witness hands of ``docs/disagreements.md``
  (:func:`~baloot_conformance.compare.disagreements.committed_witnesses`), each under the
  profile it was found for and under saudi, the two readings a witness tells apart;
- ``peer-logs.ENGINE``: every logged match of the four public engines in
  ``tests/data/peer-logs``, imported by ``import --from ENGINE`` (``check`` reads BTN only) and
  checked under their profiles (the manifest pins the imported BTN's sha256 too);
- ``generated.RULESET``: ``generate`` under every shipped Baloot ruleset and profile
  (:data:`GAMES` games from seed :data:`SEED`, rare deals and every kind of table talk the
  ruleset allows), checked under that ruleset, and for a profile ``generated.RULESET.under-saudi``,
  the same games checked under saudi: every place the profile's reading changes a verdict,
  message or figure (the manifest pins each generated file's sha256, so the generator and the
  playout are frozen too);
- ``damaged``: :data:`DAMAGED` copies of a generated game, each damaged at random (a card,
  seat or number changed, a line dropped, repeated or moved), the inputs the fast lane must
  leave to the reference path: wrong claims, illegal cards, replays stopped, syntax errors.

Twenty games a ruleset (about 170 hands each, 3,000 in all) reach every contract, raise and
project and most table talk of each ruleset, and keep the whole test under about 20 seconds on
one core and the stored data under 200 KB; the fixtures and the witnesses cover the rare cases
by construction.

What is masked: only the header's ``kit_version`` (shown as ``<kit>``), so that a release does
not touch the data. No path needs a mask: each run is made from a folder its transcripts are
named relative to (the repository for the fixtures and examples, a scratch folder for the
rest), as a user would name them.

Refreshing (``python tools/golden.py --write``, which rewrites only the reports that changed)
is legitimate only for a deliberate change to Baloot: a rule, a message, a report field, with
the ruleset's major version bumped where its verdicts change (as ``tests/test_versions.py``
asks), in a commit that says so. Never in a commit of the trick-taking family: a family change
that moves a Baloot byte is a defect of the family change.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import lzma
import os
import random
import re
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from baloot_conformance.cli import main as cli_main  # noqa: E402
from baloot_conformance.compare.disagreements import committed_witnesses  # noqa: E402
from baloot_conformance.corpus.fixtures import baloot_fixture_files  # noqa: E402
from baloot_conformance.resources import data_root  # noqa: E402
from baloot_conformance.rules.loading import load_ruleset, shipped_rulesets  # noqa: E402

GOLDEN = ROOT / "tests" / "data" / "golden"
MANIFEST = GOLDEN / "manifest.json"
BALOOT_FORMAT = "baloot-ruleset/1"
BASE = "saudi"
ENGINES = ("majlis", "tazjel", "bloot7", "bloot352")
GAMES = 20
SEED = 28
TALK = ["--rich-deals", "--sawa", "0.1", "--fouls", "0.1", "--foul-calls", "0.5"]
TALK += ["--kawesh", "0.5"]
DAMAGED = 40
#: The files of Baloot's formats whose bytes are frozen, besides every Baloot ruleset file.
FROZEN = (
    "spec/schema/ruleset.schema.json",
    "spec/schema/btn.schema.json",
    "spec/schema/protocol.schema.json",
    "spec/schema/report.schema.json",
    "spec/schema/fixture.schema.json",
    "grammar/btn.lark",
    "grammar/formula.lark",
)
KIT_MASK = "<kit>"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def ruleset_format(path: Path) -> str | None:
    """The ``format:`` a ruleset file declares (its first such line), read without loading
    it: a file of another format may not load under this kit's Baloot loader."""
    found = re.search(r"^format:\s*['\"]?([^\s'\"#]+)", path.read_text(encoding="utf-8"), re.M)
    return found.group(1) if found else None


def baloot_rulesets() -> dict[str, Path]:
    """The shipped rulesets and profiles of format ``baloot-ruleset/1``: id -> file."""
    return {
        name: path
        for name, path in shipped_rulesets().items()
        if ruleset_format(path) == BALOOT_FORMAT
    }


def relative(path: Path) -> str:
    return path.resolve().relative_to(ROOT).as_posix()


def data_file(path: Path) -> str:
    """A shipped data file's name (``spec/rulesets/saudi.yaml``), in a checkout or an
    installed package alike."""
    return path.resolve().relative_to(data_root().resolve()).as_posix()


# --- running the command line -------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """One ``check`` run as a user sees it."""

    report: bytes
    """Its standard output (the JSON Lines report), the header's kit version masked."""
    exit: int
    stderr: str
    inputs: str
    """The sha256 of the transcripts it checked (their names and bytes)."""

    @property
    def hands(self) -> int:
        last = json.loads(self.report.splitlines()[-1]) if self.report else {}
        return int(last.get("hands", 0)) if last.get("record") == "summary" else 0

    def entry(self, file: str) -> dict[str, Any]:
        """The manifest's record of this run."""
        return {
            "file": file,
            "sha256": sha256(self.report),
            "hands": self.hands,
            "records": len(self.report.splitlines()),
            "exit": self.exit,
            "stderr": self.stderr,
            "inputs": self.inputs,
        }


@contextmanager
def cwd(folder: Path) -> Iterator[None]:
    before = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def command(argv: list[str], folder: Path) -> tuple[int, str, str]:
    """Exit code, standard output and standard error of the command line run in ``folder``."""
    out, err = io.StringIO(), io.StringIO()
    with cwd(folder):
        code = cli_main(argv, out, err)
    return code, out.getvalue(), err.getvalue()


def mask(report: str) -> bytes:
    """The report's bytes, the kit's version in its header (the first line) masked."""
    head, newline, rest = report.partition("\n")
    head = re.sub(r'"kit_version":"[^"]*"', f'"kit_version":"{KIT_MASK}"', head, count=1)
    return (head + newline + rest).encode("utf-8", "backslashreplace")


def inputs_digest(folder: Path, names: list[str]) -> str:
    digest = hashlib.sha256()
    for name in names:
        digest.update(name.encode("utf-8") + b"\0" + (folder / name).read_bytes() + b"\0")
    return digest.hexdigest()


def check(folder: Path, names: list[str], ruleset: str | None = None) -> Run:
    """``check --format json --jobs 1 [--ruleset R] NAMES...`` run in ``folder``."""
    argv = ["check", "--format", "json", "--jobs", "1", *names]
    if ruleset is not None:
        argv += ["--ruleset", ruleset]
    code, out, err = command(argv, folder)
    return Run(mask(out), code, err, inputs_digest(folder, names))


# --- the reports --------------------------------------------------------------------------


@dataclass(frozen=True)
class Inputs:
    """What the reports are made of, as the manifest lists it (never a glob at test time, so
    that files added later, of the family or not, do not change what is compared)."""

    fixtures: list[str]
    examples: list[str]
    witnesses: list[tuple[str, str]]
    rulesets: list[str]

    @classmethod
    def current(cls) -> Inputs:
        """Today's Baloot inputs, for ``--write``."""
        fixtures = sorted(relative(p) for p in baloot_fixture_files(ROOT / "fixtures"))
        examples = sorted(relative(p) for p in ROOT.glob("examples/*.btn"))
        rulesets = sorted(baloot_rulesets())
        witnesses = sorted(k for k in page_witnesses() if k[1] in rulesets)
        return cls(fixtures, examples, witnesses, rulesets)

    @classmethod
    def of(cls, manifest: dict[str, Any]) -> Inputs:
        listed = manifest["inputs"]
        witnesses = [(rule, ruleset) for rule, ruleset in listed["witnesses"]]
        return cls(listed["fixtures"], listed["examples"], witnesses, sorted(manifest["rulesets"]))

    def as_json(self) -> dict[str, Any]:
        return {
            "fixtures": self.fixtures,
            "examples": self.examples,
            "witnesses": [list(w) for w in self.witnesses],
        }


def page_witnesses() -> dict[tuple[str, str], str]:
    page = (ROOT / "docs" / "disagreements.md").read_text(encoding="utf-8")
    return committed_witnesses(page)


#: A unit of the golden test: a name and what makes its reports (one ``check`` run each).
Unit = tuple[str, Callable[[Inputs, Path], dict[str, Run]]]


def _fixtures(inputs: Inputs, scratch: Path) -> dict[str, Run]:
    return {"fixtures": check(ROOT, inputs.fixtures)}


def _examples(inputs: Inputs, scratch: Path) -> dict[str, Run]:
    return {"examples": check(ROOT, inputs.examples)}


def _witnesses(inputs: Inputs, scratch: Path) -> dict[str, Run]:
    texts = page_witnesses()
    names = []
    for rule_id, ruleset_id in inputs.witnesses:
        name = f"witnesses/{ruleset_id}/{rule_id}.btn"
        (scratch / name).parent.mkdir(parents=True, exist_ok=True)
        (scratch / name).write_text(texts.get((rule_id, ruleset_id), ""), encoding="utf-8")
        names.append(name)
    return {
        "witnesses": check(scratch, names),
        f"witnesses.under-{BASE}": check(scratch, names, BASE),
    }


def _peer_logs(engine: str) -> Callable[[Inputs, Path], dict[str, Run]]:
    def unit(inputs: Inputs, scratch: Path) -> dict[str, Run]:
        logs = sorted(ROOT.glob(f"tests/data/peer-logs/{engine}/*.json.gz"))
        argv = ["import", "--from", engine, *(relative(p) for p in logs), "-o", f"{scratch}/"]
        code, _, err = command(argv, ROOT)
        if code != 0:
            raise RuntimeError(f"import --from {engine} failed: {err}")
        names = sorted(p.name for p in scratch.glob("*.btn"))
        return {f"peer-logs.{engine}": check(scratch, names)}

    return unit


def _generated(ruleset: str) -> Callable[[Inputs, Path], dict[str, Run]]:
    def unit(inputs: Inputs, scratch: Path) -> dict[str, Run]:
        name = f"generated-{ruleset}.btn"
        argv = ["generate", "--ruleset", ruleset, "--seed", str(SEED), "--games", str(GAMES)]
        code, _, err = command([*argv, *TALK, "-o", name], scratch)
        if code != 0:
            raise RuntimeError(f"generate --ruleset {ruleset} failed: {err}")
        runs = {f"generated.{ruleset}": check(scratch, [name])}
        if ruleset != BASE:
            runs[f"generated.{ruleset}.under-{BASE}"] = check(scratch, [name], BASE)
        return runs

    return unit


def damage(lines: list[str], rng: random.Random) -> list[str]:
    """One change a transcript may suffer: a card, seat or number changed, a line dropped,
    repeated or moved a few lines down."""
    lines = list(lines)
    body = [i for i, line in enumerate(lines) if line and not line.startswith(("%", "["))]
    i = rng.choice(body)
    line, kind = lines[i], rng.randrange(6)
    if kind < 3:
        pattern = (r"\b[789TJQKA][SHDC]\b", r"\b[NWSE]\b", r"\b\d+\b")[kind]
        found = list(re.finditer(pattern, line))
        if found:
            m = rng.choice(found)
            if kind == 0:
                new = rng.choice("789TJQKA") + rng.choice("SHDC")
            elif kind == 1:
                new = rng.choice("NWSE")
            else:
                new = str(int(m.group()) + rng.choice((-1, 1, 10)))
            lines[i] = line[: m.start()] + new + line[m.end() :]
    elif kind == 3:
        del lines[i]
    elif kind == 4:
        lines.insert(i, line)
    else:
        moved = lines.pop(i)
        lines.insert(min(len(lines), i + rng.randrange(1, 4)), moved)
    return lines


def _damaged(inputs: Inputs, scratch: Path) -> dict[str, Run]:
    code, text, err = command(["generate", "--ruleset", BASE, "--seed", "9"], scratch)
    if code != 0:
        raise RuntimeError(f"generate failed: {err}")
    names = []
    for seed in range(DAMAGED):
        rng = random.Random(seed)
        lines = text.split("\n")
        for _ in range(1 + seed % 3):
            lines = damage(lines, rng)
        name = f"damaged-{seed:02d}.btn"
        (scratch / name).write_text("\n".join(lines), encoding="utf-8")
        names.append(name)
    return {"damaged": check(scratch, names)}


def units(inputs: Inputs) -> list[Unit]:
    """Every unit, in the manifest's order."""
    found: list[Unit] = [
        ("fixtures", _fixtures),
        ("examples", _examples),
        ("witnesses", _witnesses),
    ]
    found += [(f"peer-logs.{engine}", _peer_logs(engine)) for engine in ENGINES]
    found += [(f"generated.{ruleset}", _generated(ruleset)) for ruleset in inputs.rulesets]
    found.append(("damaged", _damaged))
    return found


def run_unit(inputs: Inputs, unit: Unit) -> dict[str, Run]:
    with tempfile.TemporaryDirectory(prefix="golden-") as temp:
        return unit[1](inputs, Path(temp))


# --- stored reports and their differences -------------------------------------------------


def report_file(name: str) -> str:
    return f"{name}.jsonl.xz"


def compress(data: bytes) -> bytes:
    """xz, which stores no time or name: the same report gives the same bytes."""
    return lzma.compress(data, format=lzma.FORMAT_XZ, preset=9 | lzma.PRESET_EXTREME)


def stored_report(name: str) -> bytes:
    return lzma.decompress((GOLDEN / report_file(name)).read_bytes())


def _short(value: Any, limit: int = 300) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _where(record: dict[str, Any]) -> str:
    if record.get("record") == "hand":
        return f"hand {record.get('position')} of {record.get('path')}"
    if "path" in record:  # a file_error
        return f"{record.get('record')} record of {record.get('path')}"
    return f"{record.get('record')} record"


def _fields(stored: Any, now: Any, at: str = "") -> Iterator[str]:
    """The paths of the values that differ between two records (lists item by item)."""
    if isinstance(stored, dict) and isinstance(now, dict):
        for key in [*stored, *(k for k in now if k not in stored)]:
            yield from _fields(stored.get(key), now.get(key), f"{at}/{key}")
    elif isinstance(stored, list) and isinstance(now, list) and len(stored) == len(now):
        for i, (a, b) in enumerate(zip(stored, now, strict=True)):
            yield from _fields(a, b, f"{at}/{i}")
    elif stored != now:
        yield at or "/"


def _record(line: bytes) -> dict[str, Any]:
    try:
        value = json.loads(line)
    except ValueError:
        return {"record": "(not JSON)", "text": line.decode("utf-8", "replace")}
    return value if isinstance(value, dict) else {"record": "(not an object)", "value": value}


def difference(name: str, stored: bytes, now: bytes) -> str:
    """What differs between a stored report and today's: the first record that differs,
    where it is (file and hand), each differing field with both values, and how many more."""
    old, new = stored.splitlines(), now.splitlines()
    differing = [i for i in range(max(len(old), len(new))) if old[i : i + 1] != new[i : i + 1]]
    if not differing:
        return f"{name}: the reports differ only in their line ends"
    first = differing[0]
    lines = [
        f"golden report {name} ({GOLDEN.relative_to(ROOT) / report_file(name)}) has changed: "
        f"{len(differing)} of {len(old)} stored records differ (now {len(new)} records)"
    ]
    if first >= len(new):
        lines.append(f"  record {first + 1} is missing now: {_where(_record(old[first]))}")
        lines.append(f"  stored: {_short(_record(old[first]), 600)}")
    elif first >= len(old):
        lines.append(f"  record {first + 1} is new: {_where(_record(new[first]))}")
        lines.append(f"  now:    {_short(_record(new[first]), 600)}")
    else:
        a, b = _record(old[first]), _record(new[first])
        lines.append(f"  first difference: record {first + 1}, {_where(a)}")
        for field in list(_fields(a, b))[:8]:
            lines.append(f"    {field}")
            lines.append(f"      stored: {_short(_pointer(a, field))}")
            lines.append(f"      now:    {_short(_pointer(b, field))}")
    later = [_where(_record((old if i < len(old) else new)[i])) for i in differing[1:6]]
    if later:
        more = len(differing) - 1 - len(later)
        lines.append(f"  and: {'; '.join(later)}" + (f"; {more} more" if more else ""))
    return "\n".join(lines)


def _pointer(record: Any, pointer: str) -> Any:
    for part in pointer.strip("/").split("/") if pointer != "/" else []:
        if isinstance(record, dict):
            record = record.get(part)
        elif isinstance(record, list) and part.isdigit() and int(part) < len(record):
            record = record[int(part)]
        else:
            return None
    return record


# --- the manifest -------------------------------------------------------------------------


def ruleset_pins(names: list[str]) -> dict[str, dict[str, str]]:
    """Each ruleset's file, version and digest (the sha256 of its resolved document, the one
    every report and ``spec show`` print)."""
    pins = {}
    for name in names:
        ruleset = load_ruleset(name)
        pins[name] = {
            "file": data_file(shipped_rulesets()[name]),
            "version": ruleset.version,
            "digest": ruleset.digest,
        }
    return pins


def frozen_files(rulesets: dict[str, dict[str, str]]) -> dict[str, str]:
    files = [*FROZEN, *sorted(pin["file"] for pin in rulesets.values())]
    return {file: sha256((data_root() / file).read_bytes()) for file in files}


def load_manifest() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(MANIFEST.read_text(encoding="utf-8"))
    return data


def write() -> None:
    """Rebuild every report and the manifest; rewrite only the reports that changed."""
    inputs = Inputs.current()
    GOLDEN.mkdir(parents=True, exist_ok=True)
    reports: dict[str, dict[str, Any]] = {}
    for unit in units(inputs):
        for name, run in run_unit(inputs, unit).items():
            path = GOLDEN / report_file(name)
            if not path.exists() or lzma.decompress(path.read_bytes()) != run.report:
                path.write_bytes(compress(run.report))
                print(f"wrote {relative(path)} ({run.hands} hands)")
            reports[name] = run.entry(report_file(name))
    for stale in set(GOLDEN.glob("*.jsonl.xz")) - {GOLDEN / e["file"] for e in reports.values()}:
        stale.unlink()
        print(f"removed {relative(stale)}")
    rulesets = ruleset_pins(inputs.rulesets)
    manifest = {
        "about": "Baloot's frozen reports, ruleset digests and files: see tools/golden.py",
        "kit_version_mask": KIT_MASK,
        "rulesets": rulesets,
        "frozen": frozen_files(rulesets),
        "inputs": inputs.as_json(),
        "reports": reports,
    }
    MANIFEST.write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", "utf-8")
    print(f"wrote {relative(MANIFEST)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--write", action="store_true", help="rebuild the stored reports and the manifest"
    )
    args = parser.parse_args()
    if not args.write:
        parser.error("nothing to do: --write rebuilds the golden data (the test compares it)")
    write()


if __name__ == "__main__":
    main()
