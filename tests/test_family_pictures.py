"""Pictures of a trick family's hand: n seats in a ring, in the terminal (against snapshots),
as HTML (against snapshots, and the report of a failing Bourré run opened in headless
Chromium), ``show`` at any position of a BTN 2 file, and ``check --diagram``.

The transcripts are ``tests/data/btn2/worked-hand.btn`` (five seats, two folding) and
``tests/data/btn2-pictures/``: two and eight seats played out by the family engine, and the
worked hand with P5's renege at t2.p3 (it plays 4D where it must head the club led with 6C).

``python tests/test_family_pictures.py --write`` rewrites the snapshots after a deliberate
change.
"""

from __future__ import annotations

import io
import pickle
import random
import sys
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path

import pytest

from baloot_conformance.check.run import NoSuchMoment
from baloot_conformance.check.table import Table
from baloot_conformance.cli import main
from baloot_conformance.family.check.moments import read_hands, table_at_position
from baloot_conformance.family.check.run import check_btn2
from baloot_conformance.family.check.table import RingTable, ring_table
from baloot_conformance.family.engine.hand import TrickHand
from baloot_conformance.family.engine.ledger import Ledger
from baloot_conformance.family.rules.loading import load_trick_ruleset
from baloot_conformance.report.html import picture_page
from baloot_conformance.report.pictures import draw
from baloot_conformance.report.ring_layout import CELLS, LAYOUTS, places

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOTS = ROOT / "tests" / "data" / "snapshots" / "family"
WORKED = ROOT / "tests" / "data" / "btn2" / "worked-hand.btn"
PICTURES = ROOT / "tests" / "data" / "btn2-pictures"
TWO, EIGHT, RENEGE = (
    PICTURES / "two-seats.btn",
    PICTURES / "eight-seats.btn",
    PICTURES / "renege.btn",
)
#: A Barbu hand played as a layout (Domino from 10), and the worked Barbu hand (no hearts).
DOMINO = ROOT / "tests" / "data" / "btn2" / "barbu-domino.btn"
BARBU = ROOT / "tests" / "data" / "btn2" / "worked-barbu.btn"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def shown(path: Path, position: str) -> RingTable:
    rules, ring, hands = read_hands(path.read_bytes(), str(path))
    return table_at_position(hands, rules, ring, position, str(path))


def shown_text(*argv: str) -> str:
    """What ``show`` writes, the checkout's own folder taken out of the paths it names."""
    return run("show", *argv)[1].replace(str(ROOT) + "/", "")


#: (snapshot, file, position): a card being played at each table size, one per layout.
MOMENTS = (
    ("ring-2", TWO, "h1.t3.p2"),
    ("ring-5", WORKED, "h1.t2.p3"),
    ("ring-8", EIGHT, "h1.t4.p5"),
    ("barbu-no-hearts", BARBU, "h1.t5.p2"),
    ("barbu-domino", DOMINO, "h1.m20"),
)

SNAPSHOT_MAKERS: dict[str, Callable[[], str]] = {
    **{f"{name}.txt": partial(shown_text, str(path), at, "--ascii") for name, path, at in MOMENTS},
    **{
        f"{name}.html": partial(shown_text, str(path), at, "--format", "html")
        for name, path, at in MOMENTS
    },
    "ring-8.color.txt": lambda: draw(shown(EIGHT, "h1.t4.p5"), color=True),
}


# --- where the seats go ---------------------------------------------------------------------


def test_every_table_size_has_a_balanced_ring_clockwise_from_the_bottom() -> None:
    for count in range(2, 9):
        seats, middle = places(count)
        assert len(set(seats)) == count and middle not in seats
        assert seats[0] == (2, 1)  # the first seat listed sits at the bottom
        cells = LAYOUTS[count]
        assert list(cells) == sorted(cells)  # clockwise: bottom, left, top, right
        columns = [column for _, column in seats]
        assert sorted(columns) == sorted(2 - column for column in columns)  # left = right
    assert [CELLS[c] for c in LAYOUTS[4]] == [(2, 1), (1, 0), (0, 1), (1, 2)]
    seats, middle = places(10)  # more seats than any layout: rows of three, the trick under
    assert seats[9] == (3, 0) and middle == (4, 0)


@pytest.mark.parametrize("count", range(2, 9))
def test_a_table_of_each_size_draws_every_seat_once_with_its_cards(count: int) -> None:
    rules = load_trick_ruleset("bourre")
    hand = TrickHand.shuffled(rules, Ledger.start(count), None, random.Random(count))
    while hand.phase != "tricks" or hand.trick_number < 1:
        if hand.is_over():
            break
        actions = hand.legal_actions()
        stay = [a for a in actions if getattr(a, "play", True)]  # nobody folds
        hand.push(stay[0] if stay else actions[0])
    table = ring_table(hand, 1)
    picture = draw(table, ascii=True)
    lines = picture.splitlines()
    for seat, cards in zip(table.seats, table.holdings, strict=True):
        assert sum(line.count(f"{seat} (") + (f"{seat} " in line) for line in lines) >= 1
        for suit in table.suits:
            held = [card for card in cards if card[-1] == suit]
            assert len(cards) == hand.hands[hand.names.index(seat)].bit_count()
            if held:
                ranks = " ".join("10" if c[0] == "T" else c[:-1] for c in held)
                assert f"{suit} {ranks}" in picture or f"{suit} <" in picture
    assert lines[0].startswith("hand 1, trick 2 · trump ")
    assert f"pot {hand.pot} · {count} seats, play goes clockwise" == lines[1]


# --- the terminal ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SNAPSHOT_MAKERS))
def test_ring_pictures_match_their_snapshots(name: str) -> None:
    assert SNAPSHOT_MAKERS[name]() == (SNAPSHOTS / name).read_text(encoding="utf-8")


def test_the_worked_hand_drawn_as_five_seats() -> None:
    table = shown(WORKED, "h1.t2.p3")
    assert table.seats == ("P1", "P2", "P3", "P4", "P5") and table.folded == ("P2", "P4")
    assert table.on_table == (("P1", "3C"), ("P3", "KH")) and table.played == "6C"
    assert table.to_play == "P5" and table.legal == ("6C",)
    assert table.trump == "H" and table.faceup == "9H" and table.pot == 5
    assert table.tricks == (("P1", 1), ("P3", 0), ("P5", 0))
    assert table.holdings[0] == ("KS", "AH", "2D")  # P1, by suit in the pack's order
    lines = draw(table, ascii=True).splitlines()
    assert lines[0] == "hand 1, trick 2 · trump H (face-up 9H) · dealer P5"
    bottom = next(i for i, line in enumerate(lines) if line.strip().startswith("P1 ("))
    top = next(i for i, line in enumerate(lines) if line.startswith("P3 ("))
    assert top < bottom and lines[top].rstrip().endswith("P4 (folded)")  # top left, top right
    assert "P2 (folded)" in lines[top + 6] and "P5 (dealer, to play, 0 tricks)" in lines[top + 6]
    assert "C <6>" in draw(table, ascii=True) and lines[-1] == "P5 played 6C!; legal: 6C"


def test_a_counter_clockwise_table_keeps_its_seats_in_their_places() -> None:
    rules = load_trick_ruleset("bourre")
    table = replace(
        rules.table, direction=replace(rules.table.direction, option="counter_clockwise")
    )
    rules = replace(rules, table=table)
    hand = TrickHand.shuffled(rules, Ledger.start(5), None, random.Random(5))
    assert hand.names == ("P1", "P5", "P4", "P3", "P2")  # the order of play
    picture = ring_table(hand, 1)
    assert picture.seats == ("P1", "P2", "P3", "P4", "P5")  # clockwise, as the table lists them
    assert picture.direction == "counter_clockwise"
    assert "play goes counter-clockwise" in draw(picture)


def test_a_domino_layout_is_drawn_in_the_middle_of_the_ring() -> None:
    table = shown(DOMINO, "h1.m20")
    assert table.contract == "domino from T by E" and table.to_play == "N"
    assert dict(table.layout)["S"] == ("5S", "6S", "7S", "8S", "9S", "TS", "JS")
    assert table.legal == ("9C",) and not table.on_table
    text = draw(table, ascii=True)
    assert "domino from T by E · 4 seats, play goes clockwise" in text
    assert "S 5 6 7 8 9 10 J" in text and "N to play; legal: 9C" in text
    page = shown_text(str(DOMINO), "h1.m20", "--format", "html")
    assert page.count('class="layout-row"') == 4 and 'data-suit="S"' in page
    code, out, _ = run("show", str(DOMINO), "h1.m1", "--ascii")  # E holds no ten: a knock
    assert code == 0 and out.count(" ·") >= 4 and "E to play; legal: none" in out


def test_a_points_games_caption_names_its_contract_and_declarer() -> None:
    table = shown(BARBU, "h1.t5.p2")
    assert table.contract == "no_hearts by E" and not table.layout
    assert "no_hearts by E · 4 seats" in draw(table, ascii=True)
    assert shown(BARBU, "h1.bid1").contract is None  # not chosen yet


def test_show_draws_any_position_of_a_btn2_file() -> None:
    code, out, _ = run("show", str(WORKED), "h1.t2.p3.legal", "--ascii")
    assert code == 0 and out.rstrip().endswith("P5 to play; legal: 6C")
    code, out, _ = run("show", str(WORKED), "--hand", "1", "--trick", "4", "--ascii")
    assert code == 0 and "P1 played AH!; legal: AH" in out  # the trick's last card
    code, out, _ = run("show", str(WORKED), "h1.bid1", "--ascii")
    assert code == 0 and "P1 (" not in out and "S K 5" in out  # before the draw: all five hold
    code, out, _ = run("show", str(WORKED), "h1.deal.P3", "--ascii")
    assert code == 0 and "S -" in out and "H " not in out.replace("H -", "")  # before the deal
    code, out, _ = run("show", str(WORKED), "h1.score", "--ascii")  # over: the last trick in view
    assert code == 0 and "P1 KS" in out and "P1 (3 tricks)" in out and "P3 (2 tricks)" in out


def test_show_names_what_is_missing(tmp_path: Path) -> None:
    code, _, err = run("show", str(WORKED), "h1.t9.p1")
    assert code == 2 and "no event or claim is at h1.t9.p1 (the hands are h1;" in err
    code, _, err = run("show", str(WORKED), "--hand", "2")
    assert code == 2 and "there is no hand 2 (the hands are 1)" in err
    code, _, err = run("show", str(WORKED), "--hand", "1", "--trick", "6")
    assert code == 2 and "hand 1 has 5 tricks, not 6" in err
    code, _, err = run("show", str(WORKED), "h1.t1.p1", "--hand", "1")
    assert code == 2 and "a position is shown without --hand and --trick" in err
    broken = tmp_path / "broken.btn"  # P5 plays a card it does not hold: the replay stops
    broken.write_text(WORKED.read_text().replace("trick 2: P5 6C", "trick 2: P5 8C"))
    code, out, _ = run("show", str(broken), "h1.t2.p3", "--ascii")
    assert code == 0 and "P5 played 8C!; legal: 6C" in out  # the card itself is drawn
    code, _, err = run("show", str(broken), "h1.t3.p1")
    assert (
        code == 2
        and (
            "the replay of h1 stops before h1.t3.p1: h1.t2.p3: P5 played 8C, which it does not hold"
        )
        in err
    )
    assert len(err.strip().splitlines()) == 1
    code, _, err = run("show", str(WORKED), "h1.t1.p1", "--ruleset", "saudi")
    assert code == 2 and "is not a trick ruleset" in err


def test_show_and_a_renege_are_played_on() -> None:
    """A renege is a penalised event: the replay goes on past it, so ``show`` draws after it."""
    table = shown(RENEGE, "h1.t3.p2")
    assert table.on_table == (("P3", "8D"),) and table.played == "9H"
    assert table.tricks == (("P1", 1), ("P3", 1), ("P5", 0))


# --- check --diagram and the reports --------------------------------------------------------


def test_check_diagram_draws_the_root_divergence_of_a_bourre_hand() -> None:
    code, out, _ = run("check", "--diagram", str(RENEGE))
    assert code == 1
    assert "h1.t2.p3 play.follow_suit (root): P5 played 4D but must follow P1's 3C" in out
    assert "    hand 1, trick 2 · trump ♥ (face-up 9♥) · dealer P5" in out
    assert "    P5 played 4♦!; legal: 6♣" in out and out.count("pot 5 ·") == 1
    assert "pot 5" not in run("check", str(RENEGE))[1]


def test_the_root_divergence_carries_the_table_show_draws_there() -> None:
    (verdict,) = check_btn2(RENEGE.read_bytes(), str(RENEGE), pictures=True)
    root = verdict.divergences[0]
    assert root.table == shown(RENEGE, root.position)
    assert pickle.loads(pickle.dumps(verdict)) == verdict  # it travels to a worker and back
    (plain,) = check_btn2(RENEGE.read_bytes(), str(RENEGE))
    assert plain.divergences[0].table is None


def test_a_renege_in_the_html_report_in_a_browser(tmp_path: Path) -> None:
    from test_pictures import Elements, browse, distinct_pixels

    report = tmp_path / "report.html"
    code, _, _ = run("check", "--format", "html", "--output", str(report), str(RENEGE))
    assert code == 1
    dom, console, shot = browse(report, tmp_path)
    assert console == []
    elements = Elements(dom)
    (figure,) = elements.having("figure", "ring")
    assert figure["data-seats"] == "5" and figure["data-trick"] == "2"
    seats = {a["data-seat"]: a for a in elements.having("div", "seat-ring")}
    assert sorted(seats) == ["P1", "P2", "P3", "P4", "P5"]
    assert {s for s, a in seats.items() if "folded" in a["class"].split()} == {"P2", "P4"}
    assert "to-play" in seats["P5"]["class"].split()
    assert seats["P1"]["style"] == "grid-row: 3; grid-column: 2"  # the bottom of the ring
    assert {a["title"] for a in elements.having("span", "played")} == {"4D"}
    assert {a["title"] for a in elements.having("span", "legal")} == {"6C"}
    assert "play.follow_suit</strong>: A player must follow the suit led if he can." in dom
    assert "Ruleset bourre@1.1.0, digest <code>sha256:" in dom  # the rule quoted from its ruleset
    assert elements.having("script") == []
    assert distinct_pixels(shot) > 20


def test_show_writes_a_baloot_table_as_a_page_too() -> None:
    conforming = str(ROOT / "examples" / "conforming-game.btn")
    code, page, _ = run("show", conforming, "--hand", "1", "--trick", "4", "--format", "html")
    assert code == 0 and page.startswith("<!DOCTYPE html>")
    assert 'class="diagram" data-hand="1" data-trick="4"' in page and "ring-grid" not in page
    assert page == picture_page(shown_baloot(), conforming, "hand 1, trick 4")


def shown_baloot() -> Table:
    from baloot_conformance import btn
    from baloot_conformance.check.run import table_at
    from baloot_conformance.rules.loading import load_ruleset

    with btn.TranscriptReader(ROOT / "examples" / "conforming-game.btn") as reader:
        hands = list(reader)
    return table_at(hands, load_ruleset("saudi"), 1, 4)


def test_a_table_is_never_drawn_past_a_stopped_replay(tmp_path: Path) -> None:
    broken = tmp_path / "broken.btn"
    broken.write_text(WORKED.read_text().replace("bid P3 play 1", "bid P3 play 9"))
    rules, ring, hands = read_hands(broken.read_bytes(), str(broken))
    with pytest.raises(NoSuchMoment, match=r"stops before h1\.t1\.p1: h1\.bid3: "):
        table_at_position(hands, rules, ring, "h1.t1.p1")
    assert table_at_position(hands, rules, ring, "h1.bid3").to_play is None  # before it: drawn


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    SNAPSHOTS.mkdir(parents=True, exist_ok=True)
    for snapshot, make in SNAPSHOT_MAKERS.items():
        (SNAPSHOTS / snapshot).write_text(make(), encoding="utf-8")
        print(f"wrote {SNAPSHOTS / snapshot}", file=sys.stderr)
    sys.exit(0)
