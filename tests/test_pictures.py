"""Pictures of a hand: terminal diagrams (against snapshots), the HTML report and the
rendered rulebook, opened in a real browser (headless Chromium).

``python tests/test_pictures.py --write`` rewrites the snapshots after a deliberate change.
"""

from __future__ import annotations

import io
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from html.parser import HTMLParser
from pathlib import Path

import pytest

from baloot_conformance import btn
from baloot_conformance.check.run import table_at
from baloot_conformance.cli import main
from baloot_conformance.report.diagram import render
from baloot_conformance.rules.loading import load_ruleset, shipped_rulesets

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOTS = ROOT / "tests" / "data" / "snapshots"
CONFORMING = ROOT / "examples" / "conforming-game.btn"
NONCONFORMING = ROOT / "examples" / "nonconforming-game.btn"
CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--enable-logging=stderr", "--v=0",
)  # fmt: skip


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def table_1_4() -> str:
    with btn.TranscriptReader(CONFORMING) as reader:
        hands = list(reader)
    return render(table_at(hands, load_ruleset("saudi"), 1, 4), color=True)


SNAPSHOT_MAKERS = {
    "show-h1-t4.ascii.txt": lambda: run(
        "show", str(CONFORMING), "--hand", "1", "--trick", "4", "--ascii"
    )[1],
    "show-h1-t4.txt": lambda: run("show", str(CONFORMING), "--hand", "1", "--trick", "4")[1],
    "show-h1-t4.color.txt": table_1_4,
}


# --- the terminal -------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SNAPSHOT_MAKERS))
def test_terminal_diagrams_match_their_snapshots(name: str) -> None:
    assert SNAPSHOT_MAKERS[name]() == (SNAPSHOTS / name).read_text(encoding="utf-8")


def test_show_draws_the_table_at_a_trick() -> None:
    code, out, _ = run("show", str(CONFORMING), "--hand", "1", "--trick", "4", "--ascii")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "hand 1, trick 4 · E sun · dealer E"
    assert lines[3].strip() == "N" and lines[8].startswith("W") and "E (to play)" in lines[8]
    assert "W 7S" in out and "N 8H" in out and "S 9H" in out and "E QH!" in out
    assert out.rstrip().endswith("E played QH!; legal: QH")


def test_show_names_what_is_missing() -> None:
    code, _, err = run("show", str(CONFORMING), "--hand", "42")
    assert code == 2 and "there is no hand 42 (the hands are 1, 2," in err
    code, _, err = run("show", str(CONFORMING), "--hand", "1", "--trick", "9")
    assert code == 2 and "hand 1 has 8 complete tricks, not 9" in err
    code, _, err = run("show", str(CONFORMING), "--trick", "0")
    assert code == 2 and "tricks are numbered from 1, not 0" in err


def test_check_diagram_draws_each_root_divergence() -> None:
    code, out, _ = run("check", "--diagram", "--jobs", "1", str(NONCONFORMING))
    assert code == 1
    assert out.count("card points NS") == 2  # two failing hands, one picture each
    assert "    hand 3, trick 4 · S hokum ♥ · dealer W" in out
    assert "    E played 9♣!; legal: 10♥" in out
    plain = run("check", "--jobs", "1", str(NONCONFORMING))[1]
    assert "card points" not in plain


# --- the browser ----------------------------------------------------------------------------


def chromium(*argv: str) -> subprocess.CompletedProcess[str]:
    """Headless Chromium on this machine (``.ci/run`` installs it when it is missing)."""
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary is None:
        pytest.fail("Chromium is not installed: 'apt-get install chromium' (.ci/run does it)")
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run(
            [binary, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *argv],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )


def browse(page: Path, tmp_path: Path) -> tuple[str, list[str], bytes]:
    """The DOM Chromium renders for ``page``, its console messages, and a screenshot."""
    shown = chromium("--dump-dom", page.as_uri())
    shot = tmp_path / f"{page.stem}.png"
    chromium(f"--screenshot={shot}", "--window-size=1200,1600", page.as_uri())
    console = [line for line in shown.stderr.splitlines() if ":CONSOLE" in line]
    return shown.stdout, console, shot.read_bytes()


def distinct_pixels(png: bytes) -> int:
    """How many different byte values the image's pixels hold (a blank page has one or
    two): the PNG's data chunks, inflated."""
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    data, at = b"", 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind = png[at + 4 : at + 8]
        if kind == b"IDAT":
            data += png[at + 8 : at + 8 + length]
        at += 12 + length
    return len(set(zlib.decompress(data)))


class Elements(HTMLParser):
    """Every element's tag and attributes, in document order."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.found: list[tuple[str, dict[str, str]]] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, {k: v or "" for k, v in attrs}))

    def having(self, tag: str, css_class: str = "") -> list[dict[str, str]]:
        return [
            attrs
            for name, attrs in self.found
            if name == tag and (not css_class or css_class in attrs.get("class", "").split())
        ]


def test_the_html_report_in_a_browser(tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    code, _, _ = run("check", "--format", "html", "--output", str(report), str(NONCONFORMING))
    assert code == 1
    dom, console, shot = browse(report, tmp_path)
    assert console == []
    elements = Elements(dom)
    counts = {a["data-count"]: a for a in elements.having("td") if "data-count" in a}
    assert set(counts) >= {"files", "hands", "passed", "failed", "errors", "divergences"}
    values = dict(re.findall(r'data-count="(\w+)">(\d+)<', dom))
    assert values["hands"] == "9" and values["passed"] == "7" and values["failed"] == "2"
    assert len(elements.having("section", "failing-hand")) == 2
    assert len(elements.having("figure", "diagram")) == 2  # one per failing hand
    played = elements.having("span", "played")
    legal = elements.having("span", "legal")
    assert {a["title"] for a in played} == {"9C"} and "TH" in {a["title"] for a in legal}
    assert "play.hokum.overruff" in dom and "sha256:" in dom
    assert len(elements.having("script")) == 0
    assert distinct_pixels(shot) > 20


def test_nothing_from_a_transcript_runs_in_the_report(tmp_path: Path) -> None:
    payload = "<script>document.body.setAttribute('data-pwned','1')</script>"
    image = "<img src=x onerror=\"document.body.setAttribute('data-pwned','2')\">"
    text = NONCONFORMING.read_text(encoding="utf-8")
    text = text.replace('[Event "', f'[Event "{payload} ', 1)
    text = text.replace(
        "trick 4: W 7D, S QH, E 9C, N JD = E 15",
        f"trick 4: W 7D, S QH, E 9C, N JD = E 15 # {image}{payload}",
    )
    assert payload in text and image in text
    hostile = tmp_path / "<script>alert(1)<\\script>.btn"
    hostile.write_text(text, encoding="utf-8")
    report = tmp_path / "report.html"
    code, _, _ = run("check", "--format", "html", "--output", str(report), str(hostile))
    assert code == 1
    page = report.read_text(encoding="utf-8")
    assert "&lt;img src=x onerror" in page and "&lt;script&gt;" in page
    dom, console, _ = browse(report, tmp_path)
    elements = Elements(dom)
    assert elements.having("script") == [] and elements.having("img") == []
    assert not any("data-pwned" in attrs for _, attrs in elements.found)
    assert console == []


def test_the_rulebook_renders_with_an_anchor_per_rule(tmp_path: Path) -> None:
    site = tmp_path / "site"
    code, _, err = run("spec", "render", "--to", str(site))
    assert code == 0 and "wrote 16 pages" in err
    pages = {path.name: path.read_text(encoding="utf-8") for path in site.glob("*.html")}
    assert set(pages) == {"index.html", *(f"{name}.html" for name in shipped_rulesets())}
    ids = {
        name: {a["id"] for _, a in Elements(html).found if "id" in a}
        for name, html in pages.items()
    }
    for name in shipped_rulesets():
        rules = load_ruleset(name)
        assert {rule.id for rule in rules.iter_rules()} <= ids[f"{name}.html"]
    for name, html in pages.items():  # every link lands on a page and an anchor that exist
        for _, attrs in Elements(html).found:
            href = attrs.get("href")
            if href is None:
                continue
            target, _, anchor = href.partition("#")
            page = target or name
            assert page in pages, f"{name}: {href}"
            assert not anchor or anchor in ids[page], f"{name}: {href}"
    kuwait = Elements(pages["kuwait.html"])
    assert kuwait.having("section", "difference")[0]["id"] == "difference-game.target"
    assert len(kuwait.having("figure", "diagram")) == 1
    assert 'href="kuwait.html#difference-game.target"' in pages["saudi.html"]
    for name in ("index.html", "majlis.html"):
        dom, console, shot = browse(site / name, tmp_path)
        assert console == [] and distinct_pixels(shot) > 20
        assert "<h1>" in dom


def test_spec_render_keeps_other_folders_intact(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    code, _, err = run("spec", "render", "--to", str(tmp_path))
    assert code == 2 and "is not an earlier rendering" in err
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]
    code, _, err = run("spec", "render", "--to", str(tmp_path / "out"), "--ruleset", "nosuch")
    assert code == 2 and not (tmp_path / "out").exists()
    assert run("spec", "render", "--to", str(tmp_path / "out"), "--ruleset", "kuwait")[0] == 0
    code, _, err = run("spec", "render", "--to", str(tmp_path / "out"), "--ruleset", "saudi")
    assert code == 0 and "wrote 2 pages" in err  # an earlier rendering is replaced
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["index.html", "saudi.html"]


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    SNAPSHOTS.mkdir(parents=True, exist_ok=True)
    for snapshot, make in SNAPSHOT_MAKERS.items():
        (SNAPSHOTS / snapshot).write_text(make(), encoding="utf-8")
        print(f"wrote {SNAPSHOTS / snapshot}", file=sys.stderr)
    sys.exit(0)
