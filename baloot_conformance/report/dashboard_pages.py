"""The conformance dashboard as a static site: its pages, its badges, and how it is written.

The site is self-contained the way the HTML report is: every page carries its CSS inline,
badges are drawn as inline SVG, there is no script and no request to anything outside the
site (the pages' Content-Security-Policy forbids both), and the links between pages are
relative, so that the folder can be opened from disk, served as it is, or committed. Pages
hold no date and no absolute path: the same reports give the same bytes.

- ``index.html``: the matrix of engines (a row per engine, version and ruleset) by rule
  areas, each cell's counts linking to the cases behind them;
- ``cases/ROW.html``: a row's results that do not pass, by area, each with its divergence
  and, for the first ``diagrams`` of each area, the table drawn where it departs;
- ``engines/ENGINE.html``: an engine's rows, history, defects and inferred profile;
- ``rules/RULE.html``: the engines that fail a rule, and which fails it alone;
- ``badges/ENGINE.svg`` (its best ruleset at its latest version) and
  ``badges/ENGINE--RULESET.svg`` (each ruleset), each with a shields.io endpoint ``.json``.

:func:`write_site` writes the files into a folder and a marker file listing them
(:data:`MARKER`). It never deletes or overwrites a file it did not write: a folder that
exists must be empty or hold its marker, and a rebuild removes only the files the marker
lists that the new site no longer has.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from baloot_conformance.errors import UnreadableInputError
from baloot_conformance.report.dashboard import Dashboard, EnginePage, Row, percent
from baloot_conformance.report.html import environment

MARKER = ".baloot-dashboard"
"""The file that marks a folder as a dashboard and lists the files it wrote."""
_MARKER_HEAD = "# written by baloot-conformance dashboard: the files of the site, one a line\n"
LABEL = "baloot conformance"
"""The left half of every badge."""


def colour(share: Fraction | None) -> str:
    """A badge's colour by its rate, in shields.io's names."""
    if share is None:
        return "lightgrey"
    if share == 1:
        return "brightgreen"
    for floor, name in ((Fraction(9, 10), "green"), (Fraction(3, 4), "yellow")):
        if share >= floor:
            return name
    return "orange" if share >= Fraction(1, 2) else "red"


_HEX = {
    "brightgreen": "#4c1",
    "green": "#97ca00",
    "yellow": "#dfb317",
    "orange": "#fe7d37",
    "red": "#e05d44",
    "lightgrey": "#9f9f9f",
}


def badge_message(row: Row | None) -> str:
    """``98% saudi@1.2.0``: the share of judged results that pass, and the ruleset."""
    if row is None:
        return "no results"
    return f"{percent(row.rate)} {row.ruleset}"


def badge_svg(message: str, share: Fraction | None) -> str:
    """A flat badge, ``LABEL | message``; widths estimated from the text (7 px a character
    at 11 px Verdana, which is what shields.io's own estimate comes to)."""
    left, right = 6 * len(LABEL) + 10, 7 * len(message) + 10
    width = left + right
    text = escape(message)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="20" role="img" '
        f'aria-label="{escape(LABEL)}: {text}">'
        f"<title>{escape(LABEL)}: {text}</title>"
        f'<rect width="{left}" height="20" fill="#555"/>'
        f'<rect x="{left}" width="{right}" height="20" fill="{_HEX[colour(share)]}"/>'
        f'<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" '
        f'font-size="11">'
        f'<text x="{left / 2}" y="14">{escape(LABEL)}</text>'
        f'<text x="{left + right / 2}" y="14">{text}</text></g></svg>'
    )


def badge_json(message: str, share: Fraction | None) -> str:
    """The shields.io endpoint's JSON for a badge."""
    data = {"schemaVersion": 1, "label": LABEL, "message": message, "color": colour(share)}
    return json.dumps(data, ensure_ascii=False) + "\n"


def _latest_rows(engine: EnginePage) -> list[Row]:
    last = engine.rows[-1].engine.version
    return [row for row in engine.rows if row.engine.version == last]


def badges(board: Dashboard) -> dict[str, str]:
    """Every badge file, by its path in the site."""
    files: dict[str, str] = {}
    for engine in board.engines:
        files[f"badges/{engine.slug}.svg"] = badge_svg(
            badge_message(engine.best), engine.best.rate if engine.best else None
        )
        files[f"badges/{engine.slug}.json"] = badge_json(
            badge_message(engine.best), engine.best.rate if engine.best else None
        )
        for row in _latest_rows(engine):
            name = f"badges/{engine.slug}--{row.ruleset.split('@')[0]}"
            files[name + ".svg"] = badge_svg(badge_message(row), row.rate)
            files[name + ".json"] = badge_json(badge_message(row), row.rate)
    return files


def pages(board: Dashboard, note: str = "", diagrams: int = 5) -> dict[str, str]:
    """Every page and badge of the site, by its path in it."""
    env = environment()
    engine_of = {row.slug: e for e in board.engines for row in e.rows}
    rule_slug = {page.rule_id: page.slug for page in board.rules}
    shared: dict[str, Any] = {
        "board": board,
        "percent": percent,
        "engine_of": engine_of,
        "rule_slug": rule_slug,
        "note": note,
        "diagrams": diagrams,
    }
    files = badges(board)
    svg = {path: text for path, text in files.items() if path.endswith(".svg")}

    def render(name: str, root: str, **values: Any) -> str:
        return env.get_template(name).render(root=root, badge=svg, **shared, **values)

    alone = [(rule, f) for rule in board.rules for f in rule.failing if f.alone]
    out = {"index.html": render("dash_index.html", "", alone=alone)}
    for row in board.rows:
        out[f"cases/{row.slug}.html"] = render("dash_cases.html", "../", row=row)
    for engine in board.engines:
        out[f"engines/{engine.slug}.html"] = render("dash_engine.html", "../", engine=engine)
    for rule in board.rules:
        out[f"rules/{rule.slug}.html"] = render("dash_rule.html", "../", rule=rule)
    out.update(files)
    return out


def _listed(folder: Path) -> set[str] | None:
    """The files the marker in ``folder`` lists, ``None`` when it has no marker."""
    marker = folder / MARKER
    if not marker.is_file():
        return None
    lines = marker.read_text(encoding="utf-8").splitlines()
    return {line for line in lines if line and not line.startswith("#")}


def site_files(folder: Path) -> set[str]:
    """The files a dashboard wrote before in ``folder`` (none for a new or empty folder):
    checked before any work, so that a folder it may not write to is refused at once.

    Raises:
        UnreadableInputError: ``folder`` is a file, or a folder that holds files but no
            marker (the dashboard would not know which of them are its own).
    """
    if folder.exists() and not folder.is_dir():
        raise UnreadableInputError(
            f"--to {folder}: is a file, not a folder",
            hint="give a new folder, or one the dashboard wrote before",
        )
    if not (folder.is_dir() and any(folder.iterdir())):
        return set()
    listed = _listed(folder)
    if listed is None:
        raise UnreadableInputError(
            f"--to {folder}: the folder holds files and no {MARKER} marker: the dashboard "
            "writes only into a new or empty folder, or one it wrote before",
            hint="give a new folder (it is created), or empty this one",
        )
    return listed


def write_site(folder: Path, files: Mapping[str, str]) -> None:
    """Write ``files`` (path in the site -> text) into ``folder`` (see the module docstring),
    removing only the files it wrote there before (:func:`site_files`)."""
    before = site_files(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for name in sorted(before - set(files)):
        target = folder / name
        if _inside(folder, target) and target.is_file():
            target.unlink()
    for name, text in sorted(files.items()):
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        part = target.with_name(target.name + ".part")  # renamed over a link, never through it
        part.write_text(text, encoding="utf-8", newline="\n")
        os.replace(part, target)
    for name in sorted(before - set(files)):  # folders its old files left empty
        parent = (folder / name).parent
        while parent != folder and parent.is_dir() and _inside(folder, parent):
            if any(parent.iterdir()):
                break
            parent.rmdir()
            parent = parent.parent
    listing = _MARKER_HEAD + "".join(f"{name}\n" for name in sorted(files))
    (folder / MARKER).write_text(listing, encoding="utf-8", newline="\n")


def _inside(folder: Path, path: Path) -> bool:
    """Whether ``path`` lies inside ``folder`` (a marker line may not reach out of it)."""
    try:
        return os.path.commonpath([folder.resolve(), path.resolve()]) == str(folder.resolve())
    except ValueError:
        return False
