"""BTN 2, the trick family's notation: reading with positions, the structural checks against the
ruleset's table, the canonical writer, the JSON form and its schema, and the documentation's
transcripts.

The rulesets are the stand-ins of ``tests/btn2_table.py`` (Bourré's table, a 32-card table and
a table of fixed seats), built from the typed model: swap them for the loader's rulesets once
``family.rules.loading`` exists.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from btn2_table import ruleset_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from baloot_conformance.errors import BalootError, TranscriptSyntaxError
from baloot_conformance.family.btn.grammar import (
    CLAIM_WORDS,
    STATEMENT_WORDS,
    lark_statements,
    slow_statement,
)
from baloot_conformance.family.btn.items import (
    Call,
    Comment,
    Deal,
    Dealer,
    Exchange,
    FaceUp,
    LegalClaim,
    Play,
    SidesClaim,
    Transcript,
    TrickClaim,
)
from baloot_conformance.family.btn.json_form import from_json, from_json_text, schema, to_json
from baloot_conformance.family.btn.lines import Errors
from baloot_conformance.family.btn.reader import read_btn2
from baloot_conformance.family.btn.statements import fast_statement, statements
from baloot_conformance.family.btn.writer import format_btn2

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "btn2"
WORKED = DATA / "worked-hand.btn"
DOC = ROOT / "docs" / "btn2.md"
SAMPLES = sorted(DATA.glob("*.btn"))

HEAD = '%btn 2\n[Ruleset "bourre@1"]\n[Seats "P1 P2 P3 P4 P5"]\n\nhand 1\n'


def read(text: str, path: str = "t.btn") -> Transcript:
    return read_btn2(text, path, ruleset_for)


def error_of(text: str) -> TranscriptSyntaxError:
    with pytest.raises(TranscriptSyntaxError) as info:
        read(text)
    return info.value


# --- reading ------------------------------------------------------------------------------------


def test_the_worked_hand_reads_with_its_positions_and_locations() -> None:
    transcript = read(WORKED.read_text(encoding="utf-8"), "worked.btn")
    assert transcript.table.seats == ("P1", "P2", "P3", "P4", "P5")
    assert len(transcript.table.pack) == 52 and transcript.table.hand_size == 5
    (hand,) = transcript.hands
    by_position = {i.position: i for i in hand.items if not isinstance(i, Comment)}
    exchange = by_position["h1.x.P1"]
    assert isinstance(exchange, Exchange)
    assert exchange.discards == ("5S", "JC") and exchange.received == ("AS", "3C")
    call = by_position["h1.bid5"]
    assert isinstance(call, Call) and (call.seat, call.word, call.args) == ("P5", "play", ("0",))
    faceup = by_position["h1.faceup"]
    assert isinstance(faceup, FaceUp) and (faceup.seat, faceup.card) == ("P5", "9H")
    # A trick line goes on over a legal-set claim: the claim takes the next play's position.
    legal = by_position["h1.t2.p3.legal"]
    assert isinstance(legal, LegalClaim) and legal.cards == ("6C",)
    play = by_position["h1.t2.p3"]
    assert isinstance(play, Play) and (play.seat, play.card, play.index) == ("P5", "6C", 3)
    assert str(play.location) == "worked.btn:27:10"
    assert str(by_position["h1.t1.p2"].location) == "worked.btn:24:17"  # the play's own column
    assert [p.card for p in hand.trick(4)] == ["QH", "9H", "AH"]
    winners = [i.winner for i in hand.items if isinstance(i, TrickClaim)]
    assert winners == ["P1", "P3", "P3", "P1", "P1"]
    tricks = by_position["h1.tricks"]
    assert isinstance(tricks, SidesClaim) and tricks.value("P3") == 2 and tricks.value("P2") is None
    score = by_position["h1.score"]
    assert isinstance(score, SidesClaim) and sum(v for _, v in score.values) == -5


def test_the_items_the_reader_builds_are_the_frozen_dataclasses() -> None:
    (hand,) = read(HEAD + "deal P1 2C AH 9S KS 4D\ntrick 1: P1 AH = P1\n").hands
    deal, play, claim = hand.items
    assert deal == Deal(position="h1.deal.P1", seat="P1", cards=("9S", "KS", "AH", "4D", "2C"))
    assert play == Play(position="h1.t1.p1", seat="P1", card="AH", trick=1, index=1)
    assert claim == TrickClaim(position="h1.t1.winner", trick=1, winner="P1")
    assert str(play.location) == "t.btn:7:10" and type(play.location).__name__ == "Location"
    with pytest.raises(dataclasses.FrozenInstanceError):
        play.card = "KS"  # type: ignore[misc]


def test_a_set_of_cards_is_kept_in_the_packs_order_and_sides_in_the_tables() -> None:
    text = HEAD + "deal P1 2C AH 10s KS 4D\n= tricks P5 0 P1 3\n".replace("10s", "9S")
    (hand,) = read(text).hands
    deal, claim = hand.items
    assert isinstance(deal, Deal) and deal.cards == ("9S", "KS", "AH", "4D", "2C")
    assert isinstance(claim, SidesClaim) and claim.values == (("P1", 3), ("P5", 0))


def test_the_accepted_alternates_are_written_canonically() -> None:
    text = (
        '%btn 2\n[Ruleset  "bourre@1"]\n[Seats "P1 P2 P3"]\nhand 1\n'
        "  deal\tP1 10♥ 2C KS 4D 9S   #  note \n"
        "deal P2 3H 5♣ 6D 7S 8H\r\n"
        "bid P1 play 1\n"
        "exchange P1 2C   :  TC\n"
        "trick 1:  P1 T♥,\tP2 3H\n"
        "trick 1: P3 AH\n"
        "= trick 1 P3\n"
        "= pot P3 3 P1 0"
    )
    expected = (
        '%btn 2\n[Ruleset "bourre@1"]\n[Seats "P1 P2 P3"]\n\nhand 1\n'
        "deal P1 9S KS TH 4D 2C  #  note\n"
        "deal P2 7S 3H 8H 6D 5C\n"
        "bid P1 play 1\n"
        "exchange P1 2C : TC\n"
        "trick 1: P1 TH, P2 3H, P3 AH = P3\n"
        "= pot P1 0 P3 3\n"
    )
    assert format_btn2(read(text)) == expected
    assert format_btn2(read(expected)) == expected


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_canonical_files_round_trip_byte_for_byte(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    transcript = read(text, path.name)
    assert format_btn2(transcript) == text
    assert read(format_btn2(transcript)) == transcript


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_the_fast_path_and_the_grammar_give_the_same_statements(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    errors = Errors(path.name)
    lines = list(enumerate(text.split("\n"), 1))
    assert list(statements(iter(lines), errors)) == lark_statements(text, path.name)
    for number, line in lines[1:]:
        fast = fast_statement(line, number)
        if fast is not None:
            assert fast == slow_statement(line, number, errors), line


def test_the_fast_path_leaves_what_the_grammar_refuses() -> None:
    errors = Errors("x")
    for line in ["deal P1 1H", "trick 1: P1 AH,P2 KH", "exchange P1 2C:TC", "= score P1 -0"]:
        assert fast_statement(line, 3) is None
        with pytest.raises(TranscriptSyntaxError):
            slow_statement(line, 3, errors)


# --- structural errors ----------------------------------------------------------------------------

_DEALS = "deal P1 AH KS 2D 5S JC\ndeal P2 6S 2H TH 3D 8C\ndeal P3 7S QH KH 8D 2C\n"

ERRORS = [
    # (text after the hand line, file:line:col, the message's first line)
    (
        "deal P1 AH KS 2D 5S JC 9H\n",
        "t.btn:6:24",
        "hand 1: 'deal P1' lists 6 cards: a hand is dealt 5 under bourre@1",
    ),
    (
        "deal P6 AH KS 2D 5S JC\n",
        "t.btn:6:6",
        "hand 1: P6 is not a seat at this table (P1 P2 P3 P4 P5, from [Seats])",
    ),
    (
        _DEALS + "bid P1 play 1\nexchange P1 JC : 9C\nbid P2 pass\nbid P1 pass\n",
        "t.btn:12:5",
        "hand 1: a declaration by P1 after its draw (its exchange is on line 10)",
    ),
    (
        _DEALS + "trick 1: P1 AH, P2 2H, P3 KH, P4 5H, P5 9H, P1 KS\n",
        "t.btn:9:45",
        "hand 1: trick 1 has more plays than the table's 5 seats",
    ),
    (
        _DEALS + "deal P4 JS 5H 7D AH 4C\n",
        "t.btn:9:18",
        "hand 1: card AH is dealt twice (first on line 6, to P1)",
    ),
    ("deal P1 AH KS AH 5S JC\n", "t.btn:6:15", "hand 1: card AH is dealt twice on this line"),
    (
        _DEALS + "trick 1: P1 AH, P2 2H\ntrick 2: P3 AH\n",
        "t.btn:10:13",
        "hand 1: card AH is played twice (first in trick 1)",
    ),
    (_DEALS + "trick 1: P1 AH, P2 2H, P1 KS\n", "t.btn:9:24", "hand 1: P1 plays twice in trick 1"),
    (
        _DEALS + "trick 2: P1 AH\n",
        "t.btn:9:1",
        "hand 1: trick 2 out of order: the next trick is 1",
    ),
    (
        _DEALS + "trick 1: P1 AH, P2 2H\ntrick 3: P3 5S\n",
        "t.btn:10:1",
        "hand 1: trick 3 out of order: trick 1 goes on, or trick 2 begins",
    ),
    (
        _DEALS + "trick 1: P1 AH = P1\ntrick 1: P2 2H\n",
        "t.btn:10:1",
        "hand 1: trick 1 goes on after its winner claim",
    ),
    (
        _DEALS + "trick 1: P1 AH, P2 2H = P3\n",
        "t.btn:9:25",
        "hand 1: the winner of trick 1, P3, played no card in it",
    ),
    (
        _DEALS + "= legal P1 AH KS\nbid P2 pass\n",
        "t.btn:10:1",
        "hand 1: the '= legal P1' claim on line 9 is not followed by a play",
    ),
    (
        _DEALS + "= legal P2 2H\ntrick 1: P1 AH\n",
        "t.btn:10:10",
        "hand 1: the '= legal P2' claim on line 9 is followed by a card of P1",
    ),
    (
        _DEALS + "faceup P3 AH\n",
        "t.btn:9:11",
        "hand 1: the face-up card AH is dealt to P1 (line 6), not P3",
    ),
    (
        "faceup P1 9H\ndeal P1 AH KS 2D 5S JC\n",
        "t.btn:7:1",
        "hand 1: P1's deal does not hold its face-up card 9H (line 6)",
    ),
    (
        _DEALS + "exchange P1 JC 5S : 9C\n",
        "t.btn:9:1",
        "hand 1: P1 discards 2 card(s) and receives 1: a hand keeps its 5 cards",
    ),
    (
        _DEALS + "exchange P1 JC : 8D\n",
        "t.btn:9:18",
        "hand 1: P1 receives 8D, which is already out (dealt on line 8)",
    ),
    (
        _DEALS + "exchange P1 JC : 9C\nexchange P2 8C : JC\n",
        "t.btn:10:18",
        "hand 1: P2 receives JC, which is already out (discarded on line 9)",
    ),
    (
        _DEALS + "= tricks P1 1\ntrick 1: P1 AH\n",
        "t.btn:10:1",
        "hand 1: an event after the hand's closing claims (line 9)",
    ),
    (
        _DEALS + "= pot P1 1\n= pot P1 1\n",
        "t.btn:10:1",
        "hand 1: a second '= pot' claim (the first is on line 9)",
    ),
    (_DEALS + "= pays P1 1 P1 2\n", "t.btn:9:13", "hand 1: P1 is listed twice on this line"),
    (
        _DEALS + "trick 1: P1 AH\n= trick 2 P1\n",
        "t.btn:10:1",
        "hand 1: a claim on trick 2 before its first card (tricks begun: 1)",
    ),
    (
        "dealer P5\ndeal P1 AH KS 2D 5S JC\ndealer P4\n",
        "t.btn:8:1",
        "hand 1: a 'dealer' line after the deal began (the first 'deal' is on line 7)",
    ),
    (
        _DEALS + "trick 1: P1 AH\nbid P2 pass\n",
        "t.btn:10:1",
        "hand 1: a declaration after the play began (the first 'trick' is on line 9)",
    ),
    (
        _DEALS + "bid P1 play 1\ndeal P4 JS 5H 7D QD 4C\n",
        "t.btn:10:1",
        "hand 1: a 'deal' line after the draw began (the first 'bid' is on line 9)",
    ),
    (
        "faceup P1 AH\ndealer P5\n",
        "t.btn:7:1",
        "hand 1: a 'dealer' line after the deal began (the first 'faceup' is on line 6)",
    ),
    (
        "deal P1 AH KS 2D 5S JC\nstart pot 3\n",
        "t.btn:7:1",
        "hand 1: 'start' comes first in a hand, before the deal",
    ),
    (
        "".join(f"trick {t}: P1 {c}S\n" for t, c in enumerate("AKQJT9", 1)),
        "t.btn:11:1",
        "hand 1: trick 6: a hand has 5 tricks under bourre@1",
    ),
    ("deal P1 AH KS 2D 5S JX\n", "t.btn:6:21", "expected a card like 'TS' or '2H', found 'JX'"),
    (
        "deal P1 AH KS 2D 5S JC\nfold P2\n",
        "t.btn:7:1",
        "expected a statement (hand, start, dealer, ante, deal, faceup, bid, raise, exchange, "
        "reshuffle, penalty, trick, play, knock, '=' for a claim, or '#'), found 'fold'",
    ),
    ("= tricks P1 -1\n", "t.btn:6:13", "expected a whole number, found '-1'"),
    ("trick 1: P1 AH P2 KH\n", "t.btn:6:16", "expected '=', found 'P2'"),
]


@pytest.mark.parametrize(("body", "where", "message"), ERRORS, ids=[e[2][:50] for e in ERRORS])
def test_a_structural_error_is_one_line_at_its_place(body: str, where: str, message: str) -> None:
    error = error_of(HEAD + body)
    shown = str(error).split("\n")
    assert shown[0] == f"{where}: {message}"
    line, column = map(int, where.split(":")[1:])
    assert error.excerpt is not None and error.excerpt.split("\n")[0].startswith(f"{line} | ")
    assert error.excerpt.split("\n")[1].index("^") == len(f"{line} | ") + column - 1
    assert len(shown) <= 4  # the message, the line, the caret, a hint


def test_a_trick_line_without_its_commas_says_how_plays_are_separated() -> None:
    error = error_of(HEAD + "trick 1: P1 AH P2 KH\n")
    assert error.hint is not None and "separated by ', '" in error.hint


def test_a_card_outside_a_32_card_pack_names_the_pack() -> None:
    text = '%btn 2\n[Ruleset "piquet@1"]\n[Seats "P1 P2 P3"]\n\nhand 1\ndeal P1 AH KS 2C 7S JC\n'
    error = error_of(text)
    assert (
        str(error).split("\n")[0] == "t.btn:6:15: hand 1: 2C is not in this ruleset's 32-card pack"
    )
    assert error.hint == "the pack of piquet@1 is 7 8 9 T J Q K A of S H D C"


@pytest.mark.parametrize(
    ("header", "where", "message"),
    [
        (
            '[Ruleset "bourre@1"]\n',
            "t.btn:1:1",
            'the header has no [Seats "..."] tag: bourre@1 numbers its seats (2 to 8)',
        ),
        (
            '[Ruleset "bourre@1"]\n[Seats "P1 P2 P4"]\n',
            "t.btn:3:15",
            "[Seats] lists P4: bourre@1's 3 seats are P1 to P3",
        ),
        (
            '[Ruleset "bourre@1"]\n[Seats "P1"]\n',
            "t.btn:3:1",
            "[Seats] lists 1 seats: bourre@1 is played by 2 to 8",
        ),
        ('[Ruleset "bourre@1"]\n[Seats "P1 P2 P1"]\n', "t.btn:3:15", "[Seats] lists P1 twice"),
        (
            '[Ruleset "bourre@1"]\n[Seats "P1  P2"]\n',
            "t.btn:3:1",
            "[Seats] lists '', which is not a seat name",
        ),
        (
            '[Ruleset "fixed@1"]\n[Seats "N S E W"]\n',
            "t.btn:3:1",
            "[Seats] lists 'N S E W': fixed@1's seats are N E S W",
        ),
        ('[Event "x"]\n', "t.btn:4:1", 'the header has no [Ruleset "..."] tag'),
        (
            '[Ruleset "bourre@1"]\n[Ruleset "bourre@1"]\n',
            "t.btn:3:1",
            "a second [Ruleset ...] tag (the first is on line 2)",
        ),
    ],
)
def test_a_header_error_is_one_line_at_its_place(header: str, where: str, message: str) -> None:
    error = error_of("%btn 2\n" + header + "\nhand 1\n")
    assert str(error).split("\n")[0] == f"{where}: {message}"


def test_a_fixed_table_needs_no_seats_tag() -> None:
    text = '%btn 2\n[Ruleset "fixed@1"]\n\nhand 1\ntrick 1: N AH, E KH, S QH, W JH = N\n'
    assert read(text).table.seats == ("N", "E", "S", "W")
    assert format_btn2(read(text)) == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("%btn 1\n", "t.btn:1:6: unknown BTN version 1: this reader knows version 2"),
        ("", "t.btn:1:1: empty file: expected the version line '%btn 2'"),
        (
            "hand 1\n",
            "t.btn:1:1: expected the version line '%btn 2' as the first line, found 'hand'",
        ),
        (
            HEAD + '[Event "x"]\n',
            "t.btn:6:1: a header tag may only come before the first 'hand' line",
        ),
        (HEAD + "hand 1\n", "t.btn:6:1: a second 'hand 1'"),
        (HEAD.replace("hand 1", "hand 0"), "t.btn:5:1: hand numbers start at 1"),
    ],
)
def test_a_file_error_is_one_line_at_its_place(text: str, message: str) -> None:
    assert str(error_of(text)).split("\n")[0] == message


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'%btn 2\n[Ruleset "bourre@1"]\n# a\x00b\n', "t.btn:3:4: binary data: a NUL byte"),
        (b"%btn 2\n# " + b"x" * 16_384 + b"\n", "t.btn:2:16385: line 2 is longer than 16384 bytes"),
        (b"%btn 2\n\xff\n", "t.btn:2:1: invalid UTF-8: byte 0xff cannot start or continue"),
        (
            b"%btn 2\n---\nid: x\ndescription:\r y\n---\n",
            "t.btn:4:13: a carriage return inside a line of the metadata block",
        ),
    ],
)
def test_what_is_not_text_is_refused_at_its_line(data: bytes, message: str) -> None:
    with pytest.raises(TranscriptSyntaxError) as info:
        read_btn2(data, "t.btn", ruleset_for)
    assert str(info.value).startswith(message)
    with pytest.raises(TranscriptSyntaxError):
        read_btn2(data.decode("utf-8", "replace").replace("\ufffd", "\x00"), "t.btn", ruleset_for)


def test_an_unknown_ruleset_is_the_loaders_error() -> None:
    with pytest.raises(BalootError, match=r"t\.btn:2:11: unknown ruleset 'whist@1'"):
        read('%btn 2\n[Ruleset "whist@1"]\n')


def test_a_reshuffle_lets_a_discard_be_dealt_again() -> None:
    body = _DEALS + "exchange P1 JC : 9C\nreshuffle\nexchange P2 8C : JC\n"
    (hand,) = read(HEAD + body).hands
    assert [i.position for i in hand.items if not isinstance(i, Comment)][-3:] == [
        "h1.x.P1",
        "h1.reshuffle1",
        "h1.x.P2",
    ]
    with pytest.raises(TranscriptSyntaxError, match="P2 receives 6S, which is already out"):
        read(HEAD + _DEALS + "reshuffle\nexchange P2 8C : 6S\n")


def test_the_writer_writes_only_what_reads_back() -> None:
    transcript = read(HEAD + "dealer P5  # fine\n")
    (hand,) = transcript.hands
    (dealer,) = hand.items
    assert isinstance(dealer, Dealer)
    broken = dataclasses.replace(dealer, comment=" two\nlines")
    bad = dataclasses.replace(transcript, hands=(dataclasses.replace(hand, items=(broken,)),))
    with pytest.raises(TranscriptSyntaxError, match=r"^h1\.dealer: cannot be written as one BTN"):
        format_btn2(bad)
    huge = SidesClaim(position="h1.score", name="score", values=(("P1", -(10**9)),))
    bad = dataclasses.replace(transcript, hands=(dataclasses.replace(hand, items=(huge,)),))
    with pytest.raises(TranscriptSyntaxError, match="the number -1000000000 cannot be written"):
        format_btn2(bad)


# --- the JSON form --------------------------------------------------------------------------------


def test_the_json_form_round_trips_and_the_schema_accepts_it() -> None:
    transcript = read(WORKED.read_text(encoding="utf-8"))
    data = to_json(transcript)
    Draft202012Validator.check_schema(schema())
    assert not list(Draft202012Validator(schema()).iter_errors(data))
    assert from_json(json.loads(json.dumps(data)), "w.json", ruleset_for) == transcript
    assert data["hands"][0]["items"][-1] == {
        "claim": "score",
        "values": {"P1": 4, "P2": -1, "P3": -1, "P4": -1, "P5": -6},
        "position": "h1.score",
    }


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_every_sample_round_trips_through_json(path: Path) -> None:
    transcript = read(path.read_text(encoding="utf-8"), path.name)
    text = json.dumps(to_json(transcript), ensure_ascii=False)
    again = from_json_text(text, "s.json", ruleset_for)
    assert again == transcript and again.metadata_text == transcript.metadata_text
    assert format_btn2(again) == path.read_text(encoding="utf-8")


def test_a_json_document_the_schema_refuses_names_the_pointer() -> None:
    data = to_json(read(WORKED.read_text(encoding="utf-8")))
    data["hands"][0]["items"][3]["cards"][0] = "10S"
    with pytest.raises(TranscriptSyntaxError) as info:
        from_json(data, "g.json", ruleset_for)
    assert str(info.value).startswith(
        "g.json: not a BTN 2 JSON document: at /hands/0/items/3/cards/0: '10S' does not match"
    )


def test_a_structural_error_in_json_names_the_item() -> None:
    data = to_json(read(WORKED.read_text(encoding="utf-8")))
    data["hands"][0]["items"][4]["cards"][0] = "AH"  # P2 is dealt P1's ace
    with pytest.raises(TranscriptSyntaxError) as info:
        from_json(data, "g.json", ruleset_for)
    assert str(info.value).startswith(
        "g.json#/hands/0/items:4:1: hand 1: card AH is dealt twice (first on line 3, to P1)"
    )
    with pytest.raises(TranscriptSyntaxError, match=r"g\.json:1:2: not valid JSON"):
        from_json_text("{]", "g.json", ruleset_for)


# --- generated transcripts ------------------------------------------------------------------

_PACK = [r + s for s in "SHDC" for r in "23456789TJQKA"]


@st.composite
def hands(draw: st.DrawFn) -> str:  # pragma: no cover - run by hypothesis
    """The text of a structurally valid hand over Bourré's table, in random spellings."""
    n = draw(st.integers(2, 8))
    seats = [f"P{i}" for i in range(1, n + 1)]
    pack = draw(st.permutations(_PACK))
    spell = draw(st.booleans())

    def card(code: str) -> str:
        if not spell:
            return code
        return code.replace("T", "10", 1) if code[0] == "T" else code.replace("H", "♥")

    sp = " \t " if spell else " "
    lines = ["%btn 2", '[Ruleset "bourre@1"]', f'[Seats "{" ".join(seats)}"]', "", "hand 1"]
    if draw(st.booleans()):
        lines.append(f"start pot {draw(st.integers(0, 99))} exempt {seats[-1]}")
    lines.append(f"dealer {seats[-1]}")
    lines.append("ante " + " ".join(f"{s} 1" for s in draw(st.permutations(seats))))
    hands_of = {s: pack[5 * i : 5 * i + 5] for i, s in enumerate(seats)}
    stock = pack[5 * n :]
    for s in seats:
        if draw(st.booleans()):
            lines.append(f"deal{sp}{s} " + " ".join(map(card, hands_of[s])))
    lines.append(f"faceup {seats[-1]} {card(hands_of[seats[-1]][-1])}")
    active = [s for s in seats if draw(st.booleans())] or seats[:1]
    in_turn = draw(st.booleans())  # each seat declares and draws, or all declare first
    draws: list[str] = []
    for s in seats:
        lines.append(f"bid {s} play {draw(st.integers(0, 5))}" if s in active else f"bid {s} pass")
        k = draw(st.integers(0, min(2, len(stock)))) if s in active else 0
        if k:
            out, stock = stock[:k], stock[k:]
            text = f"exchange {s} {' '.join(hands_of[s][:k])} :{sp}{' '.join(map(card, out))}"
            (lines if in_turn else draws).append(text)
            hands_of[s] = hands_of[s][k:] + out
    lines.extend(draws)
    for t in range(1, draw(st.integers(0, 5)) + 1):
        plays = [(s, hands_of[s][t - 1]) for s in active]
        cut = draw(st.integers(0, len(plays)))
        if draw(st.booleans()) and plays:
            lines.append(
                f"= legal {plays[0][0]} {' '.join(map(card, hands_of[plays[0][0]][t - 1 :]))}"
            )
        parts = [plays[:cut], plays[cut:]] if 0 < cut < len(plays) else [plays]
        for part in parts:
            lines.append(f"trick {t}:{sp}" + f",{sp}".join(f"{s} {card(c)}" for s, c in part))
        if draw(st.booleans()):
            lines[-1] += f" = {draw(st.sampled_from(active))}"
        if draw(st.booleans()):
            lines.append(f"# after trick {t}")
    lines.append("= tricks " + " ".join(f"{s} {draw(st.integers(0, 5))}" for s in active))
    lines.append(f"= score {active[0]} {draw(st.integers(-99, 99))}  # net")
    return "\n".join(lines) + "\n"


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(hands())
def test_generated_hands_round_trip(text: str) -> None:
    transcript = read(text)
    canonical = format_btn2(transcript)
    again = read(canonical)
    assert again == transcript
    assert format_btn2(again) == canonical
    assert from_json(to_json(transcript), "g.json", ruleset_for) == transcript
    errors = Errors("g")
    assert lark_statements(canonical) == list(
        statements(enumerate(canonical.split("\n"), 1), errors)
    )


_WORDS = [
    *STATEMENT_WORDS,
    "=",
    "pot",
    "exempt",
    "play",
    "pass",
    "renege",
    "legal",
    "tricks",
    "pays",
    "score",
    "P1",
    "P2",
    "P9",
    "p1",
    "AH",
    "10♥",
    "2C",
    "1C",
    "XS",
    "3",
    "-4",
    "0",
    "007",
    ":",
    ",",
    "2:",
    "AH,",
    "#",
    "# c",
    "\t",
    "  ",
    "[Seats",
    '"x"]',
    "%btn",
    "---",
]


@settings(
    max_examples=200, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True
)
@given(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=9), st.sampled_from([" ", "\t", ""]))
def test_any_line_reads_or_is_a_syntax_error_and_both_front_ends_agree(
    words: list[str], glue: str
) -> None:
    line = glue.join(words)
    errors = Errors("f")
    fast = fast_statement(line, 6)
    try:
        slow = slow_statement(line, 6, errors)
    except TranscriptSyntaxError as exc:
        assert fast is None, line  # what the grammar refuses, the fast path never accepts
        assert exc.location is not None and exc.location.line == 6
        slow = None
    if fast is not None:
        assert fast == slow, line
    try:
        read(HEAD + line + "\n")
    except TranscriptSyntaxError as exc:
        assert exc.location is not None and str(exc).startswith("t.btn:"), line


# --- the documentation ----------------------------------------------------------------------


def _blocks(kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)


def test_every_transcript_of_the_documentation_reads() -> None:
    blocks = [b for b in _blocks("btn") if b.startswith("%btn 2")]
    assert len(blocks) >= 2
    for block in blocks:
        assert format_btn2(read(block, "docs/btn2.md")) == block  # each is canonical
    assert WORKED.read_text(encoding="utf-8") in blocks  # the worked hand, verbatim


def test_the_documentation_shows_the_grammar_and_every_statement() -> None:
    (grammar,) = _blocks("lark")
    assert grammar == (ROOT / "grammar" / "btn2.lark").read_text(encoding="utf-8")
    text = DOC.read_text(encoding="utf-8")
    for word in STATEMENT_WORDS:
        assert f"`{word} " in text or f"`{word}`" in text, word
    for word in CLAIM_WORDS:
        assert f"`= {word} " in text, word


def test_the_ruleset_reference_is_read_from_the_header_without_loading_it() -> None:
    from baloot_conformance.family.btn.reader import ruleset_reference

    head = '%btn 2\n[Event "x"]\n[Ruleset "nosuch@3"] # a comment\n\nhand 1\n'
    assert ruleset_reference(head, "t.btn") == "nosuch@3"  # not shipped: not loaded either
    assert ruleset_reference("%btn 2\n\nhand 1\n", "t.btn") is None  # no tag
    assert ruleset_reference("%btn 1\n", "t.btn") is None  # not BTN 2
