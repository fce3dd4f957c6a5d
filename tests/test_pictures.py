"""Pictures of a hand: terminal diagrams (against snapshots), the HTML report and the
rendered rulebook, opened in a real browser (headless Chromium).

``python tests/test_pictures.py --write`` rewrites the snapshots after a deliberate change.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import zlib
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

import pytest

from baloot_conformance import btn
from baloot_conformance.check.run import check_transcript, table_at, table_at_position
from baloot_conformance.check.table import Table
from baloot_conformance.cli import main
from baloot_conformance.report.diagram import render
from baloot_conformance.rules.loading import load_ruleset, shipped_rulesets

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOTS = ROOT / "tests" / "data" / "snapshots"
CONFORMING = ROOT / "examples" / "conforming-game.btn"
NONCONFORMING = ROOT / "examples" / "nonconforming-game.btn"
TALK = ROOT / "tests" / "data" / "table-talk"
SAWA = TALK / "sawa.btn"
"""Hand 1: N's wrong Sawa with 7 tricks left; hand 2: W's right Sawa with 3 left."""
FOULS = TALK / "fouls.btn"
"""Under ``talk.yaml`` (an illegal card stands): hand 1, N's right call on W's 9H (t1.p2);
hand 2, E's wrong call on N's 9H (t1.p3); each on the trick just finished."""
TALK_RULES = TALK / "talk.yaml"
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


SNAPSHOT_MAKERS: dict[str, Callable[[], str]] = {
    "show-h1-t4.ascii.txt": lambda: run(
        "show", str(CONFORMING), "--hand", "1", "--trick", "4", "--ascii"
    )[1],
    "show-h1-t4.txt": lambda: run("show", str(CONFORMING), "--hand", "1", "--trick", "4")[1],
    "show-h1-t4.color.txt": table_1_4,
    "show-sawa-h2.ascii.txt": lambda: run("show", str(SAWA), "h2.sawa", "--ascii")[1],
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


# --- table talk ------------------------------------------------------------------------------


def flat(text: str) -> str:
    """``text`` with its lines joined and its spaces single (the words under a picture are
    wrapped)."""
    return " ".join(text.split())


def misjudged(tmp_path: Path) -> Path:
    """sawa.btn with hand 2's right Sawa claimed wrong."""
    path = tmp_path / "misjudged.btn"
    text = SAWA.read_text(encoding="utf-8")
    path.write_text(text.replace("= sawa right", "= sawa wrong", 1), encoding="utf-8")
    return path


def test_the_picture_of_a_sawa_draws_the_cards_left_and_the_line() -> None:
    with btn.TranscriptReader(SAWA) as reader:
        hands = list(reader)
    wrong = table_at_position(hands, load_ruleset("saudi"), "h1.sawa")
    assert wrong.talk == ("N", "claims Sawa") and wrong.trick == 2 and wrong.on_table == ()
    assert set(wrong.holdings[0]) == {"QS", "KS", "KH", "AH", "TD", "QD", "9C"}
    assert [len(cards) for cards in wrong.holdings] == [7, 7, 7, 7]
    picture = render(wrong, ascii=True)
    assert "N (to play, claims Sawa)" in picture
    assert "S K Q" in picture and "H A K" in picture and "D Q 10" in picture  # N's cards
    assert "D A K J 9 7" in picture  # E's, which refute it
    assert "N claims Sawa with 7 tricks left" in picture
    assert (
        "N's Sawa is wrong: its own cards do not win every trick left; E answers AD in trick 3 "
        "and wins it: line t2 N AH, W 7H, S 9H, E 7D; t3 N 10D, W 8D, S 7S, E AD"
    ) in flat(picture)
    right = table_at_position(hands, load_ruleset("saudi"), "h2.sawa")
    assert right.talk == ("W", "claims Sawa") and right.trick == 6
    assert right.holdings == (("TD", "QD", "KC"), ("8H", "JC", "AC"), ("7D", "8D", "JD"),
                              ("KD", "AD", "QC"))  # fmt: skip
    picture = render(right)
    assert "W (to play, claims Sawa)" in picture and "♣ A J" in picture
    assert (
        "W's Sawa is right: its own cards win every trick left against any defence; "
        "the forcing order: "
        "t6 W A♣, S J♦, E Q♣, N K♣; t7 W J♣, S 8♦, E K♦, N Q♦; t8 W 8♥, S 7♦, E A♦, N 10♦"
    ) in flat(picture)


def test_the_picture_says_what_the_checker_says(tmp_path: Path) -> None:
    """The verdict under the picture is the divergence's own words."""
    (_, verdict) = check_transcript(str(misjudged(tmp_path)), "x.btn", pictures=True)
    root = verdict.divergences[0]
    assert root.position == "h2.sawa.verdict" and isinstance(root.table, Table)
    assert root.table.claim[1] == root.message
    assert root.table == table_at_position(
        list(btn.TranscriptReader(SAWA)), load_ruleset("saudi"), "h2.sawa"
    )


def test_show_draws_a_sawa_at_the_claim() -> None:
    code, out, _ = run("show", str(SAWA), "h1.sawa", "--ascii")
    assert code == 0
    assert out.startswith("hand 1, trick 2 · N sun · dealer W\n")
    assert "N (to play, claims Sawa)" in out and "E answers AD in trick 3" in flat(out)
    for after in ("h1.sawa.verdict", "h1.score"):  # the hand ends at the claim
        assert run("show", str(SAWA), after, "--ascii") == (0, out, "")
    code, _, err = run("show", str(SAWA), "h1.sawa", "--hand", "1")
    assert code == 2 and "a position is shown without --hand and --trick" in err
    code, _, err = run("show", str(SAWA), "h3.sawa")
    assert code == 2 and "no event or claim is at h3.sawa" in err
    code, out, _ = run("show", str(SAWA), "h2.t3.p2", "--ascii")  # any position: a card
    assert code == 0 and "N played 10S!; legal: 7S 10S" in out


def test_show_draws_a_foul_call_with_the_card_it_names() -> None:
    code, out, _ = run("show", str(FOULS), "h1.foul1", "--ruleset", str(TALK_RULES), "--ascii")
    assert code == 0
    assert "N (calls a foul)" in out and "W 9H!" in out  # the trick just done, still in view
    assert "N calls a foul on W's 9H (t1.p2)" in out
    assert "N's foul call on t1.p2 is right: W played 9H but must follow N's JD" in flat(out)
    code, out, _ = run("show", str(FOULS), "h2.foul1.verdict", "--ruleset", str(TALK_RULES))
    assert code == 0
    assert "E (calls a foul)" in out and "N 9♥!" in out
    assert "E calls a foul on N's 9♥ (t1.p3)" in out
    assert "E's foul call on t1.p3 is wrong: that card was legal" in out


def test_check_diagram_draws_a_misjudged_sawa_at_the_claim(tmp_path: Path) -> None:
    code, out, _ = run("check", "--diagram", "--jobs", "1", str(misjudged(tmp_path)))
    assert code == 1
    assert "h2.sawa.verdict claims.sawa (root)" in out
    assert "    hand 2, trick 6 · E hokum ♠ x2 open · dealer N" in out  # not as it ended
    assert "W (to play, claims Sawa)" in out and "    W claims Sawa with 3 tricks left" in out
    assert "the forcing order: t6 W A♣, S J♦, E Q♣, N K♣; t7 W J♣" in flat(out)


# --- the browser ----------------------------------------------------------------------------


def chromium(*argv: str) -> subprocess.CompletedProcess[str]:
    """Headless Chromium on this machine (``.ci/run`` installs it when it is missing)."""
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary is None:
        pytest.fail("Chromium is not installed: 'apt-get install chromium' (.ci/run does it)")
    with tempfile.TemporaryDirectory() as profile:
        # Chromium's helper processes inherit its pipes: in a session of their own, so that a
        # browser that does not answer is killed whole, not left holding the output open.
        browser = subprocess.Popen(
            [binary, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *argv],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
            start_new_session=True,
        )
        try:
            out, err = browser.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            os.killpg(browser.pid, signal.SIGKILL)
            browser.communicate()
            pytest.fail(f"Chromium did not finish within 120 s: {' '.join(argv)}")
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(browser.pid, signal.SIGKILL)  # its helpers, if any outlive it
        return subprocess.CompletedProcess(browser.args, browser.returncode, out, err)


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


def test_a_misjudged_sawa_in_the_browser(tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    code, _, _ = run("check", "--format", "html", "--output", str(report), str(misjudged(tmp_path)))
    assert code == 1
    dom, console, shot = browse(report, tmp_path)
    assert console == []
    elements = Elements(dom)
    assert len(elements.having("figure", "diagram")) == 1
    assert len(elements.having("div", "talks")) == 1 and len(elements.having("p", "claim")) == 2
    assert "the forcing order: t6 W A♣, S J♦, E Q♣, N K♣; t7 W J♣, S 8♦" in dom
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
    assert code == 0 and f"wrote {len(shipped_rulesets()) + 1} pages" in err
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
