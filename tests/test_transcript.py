"""The BTN reader: the worked hand, positions, streaming, structural checks and every kind of
bad input, each with its position; plus the fast path against the normative Lark grammar."""

from __future__ import annotations

import io
from pathlib import Path
from unittest import mock

import pytest
from btn_strategies import mutated, respelled, transcripts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baloot_conformance.btn import (
    MAX_LINE_BYTES,
    Call,
    CallVerdictClaim,
    Comment,
    ContractClaim,
    Deal,
    Declare,
    Foul,
    Hold,
    Kawesh,
    LegalClaim,
    Play,
    Sawa,
    TeamClaim,
    TranscriptReader,
    TrickClaim,
    iter_hands,
    parse_transcript,
    read_transcript,
)
from baloot_conformance.btn import statements as btn_statements
from baloot_conformance.btn.grammar import lark_statements
from baloot_conformance.btn.statements import fast_statements
from baloot_conformance.cards import Card, Suit
from baloot_conformance.errors import TranscriptSyntaxError

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
HEAD = '%btn 1\n[Ruleset "saudi@1"]\n\nhand 1\n'


def error_of(text: str | bytes) -> TranscriptSyntaxError:
    with pytest.raises(TranscriptSyntaxError) as caught:
        parse_transcript(text)
    return caught.value


# ---- the worked hand ---------------------------------------------------------------------------


def test_worked_hand_parses_with_positions() -> None:
    transcript = read_transcript(FIXTURES / "scoring" / "worked-hand.btn")
    assert transcript.version == "1"
    assert transcript.tags == {
        "Ruleset": "saudi@1",
        "Engine": "example-engine 0.1",
        "Date": "2026-11-29",
    }
    (hand,) = transcript.hands
    assert hand.number == 1 and hand.position == "h1"
    by_position = {item.position: item for item in hand.events + hand.claims}
    deal = by_position["h1.deal.N"]
    assert isinstance(deal, Deal)
    assert [c.code for c in deal.cards] == ["8S", "TS", "8H", "9H", "7C"]
    assert deal.line == 22 and deal.column == 1
    assert deal.comment == " the first five cards of each seat (dealt 3 then 2)"
    call = by_position["h1.bid4"]
    assert isinstance(call, Call) and (call.seat, call.word, call.phase) == ("E", "pass", "bid")
    contract = by_position["h1.contract"]
    assert contract == ContractClaim(
        position="h1.contract", buyer="N", kind="hokum", trump=Suit.SPADES
    )
    play = by_position["h1.t5.p3"]
    assert isinstance(play, Play)
    assert (play.seat, play.card.code, play.trick, play.index, play.line) == ("S", "7S", 5, 3, 42)
    winner = by_position["h1.t8.winner"]
    assert isinstance(winner, TrickClaim) and winner.winner == "S"
    declare = by_position["h1.decl2"]
    assert isinstance(declare, Declare) and declare.project == "fifty"
    abnat = by_position["h1.abnat"]
    assert abnat == TeamClaim(position="h1.abnat", name="abnat", ns=92, ew=70)
    projects = by_position["h1.projects"]
    assert isinstance(projects, TeamClaim) and (projects.ns, projects.ew) == (None, 70)
    assert len([e for e in hand.events if isinstance(e, Play)]) == 32
    assert [f"{p.seat} {p.card}" for p in hand.trick(4)] == ["E TD", "N QS", "W 7D", "S 7H"]


@pytest.mark.parametrize(
    "name",
    [
        "scoring/worked-hand.btn",
        "majlis/majlis-game-1.btn",
        "notation/tazjel-game-1.btn",
        "../examples/notation-tour.btn",
    ],
)
def test_fixtures_parse(name: str) -> None:
    transcript = read_transcript(FIXTURES / name)
    assert transcript.hands


def test_full_game_reaches_152() -> None:
    hands = read_transcript(FIXTURES / "majlis" / "majlis-game-1.btn").hands
    last = {c.position.rsplit(".", 1)[1]: c for c in hands[-1].claims}
    total = last["total"]
    assert isinstance(total, TeamClaim) and max(total.ns or 0, total.ew or 0) >= 152
    assert "winner" in last


def test_eight_card_hands_and_no_declare_lines() -> None:
    tazjel = read_transcript(FIXTURES / "notation" / "tazjel-game-1.btn").hands[0]
    holds = [e for e in tazjel.events if isinstance(e, Hold)]
    assert [h.seat for h in holds] == ["N", "W", "S", "E"]
    assert all(len(h.cards) == 8 for h in holds)
    majlis = read_transcript(FIXTURES / "majlis" / "majlis-game-1.btn").hands
    assert not any(isinstance(e, Declare) for h in majlis for e in h.events)
    raises = [e for h in majlis for e in h.events if isinstance(e, Call) and e.phase == "raise"]
    assert any(r.word == "pass" for r in raises)


def test_alternates_give_the_same_cards() -> None:
    canonical = parse_transcript(HEAD + "faceup QS\n= legal N TS AD 7C\nplay N TS\n")
    alternate = parse_transcript(HEAD + "faceup Q♠\n= legal N 10♠ A♦ 7♣\nplay N 10S\n")
    assert alternate == canonical
    legal = alternate.hands[0].items[1]
    assert isinstance(legal, LegalClaim) and legal.cards[0] == Card.from_code("TS")


def test_per_card_plays_with_claims_between() -> None:
    text = HEAD + (
        "= legal N TS 8S\nplay N TS\nbaloot W\nplay W KS\nplay S AS\nplay E JS\n"
        "foul N t1.p2 revoke\n= trick 1 E 20\n"
    )
    hand = parse_transcript(text).hands[0]
    legal = hand.items[0]
    assert isinstance(legal, LegalClaim) and legal.position == "h1.t1.p1.legal"
    assert [i.position for i in hand.items[1:] if not isinstance(i, Comment)] == [
        "h1.t1.p1",
        "h1.baloot1",
        "h1.t1.p2",
        "h1.t1.p3",
        "h1.t1.p4",
        "h1.foul1",
        "h1.t1.winner",
    ]
    foul = hand.items[6]
    assert isinstance(foul, Foul) and (foul.target, foul.words) == ("t1.p2", ("revoke",))


def test_a_foul_call_may_name_no_card() -> None:
    # "-": a call made before any card is down (mohamed352/bloot's Qayd may be).
    hand = parse_transcript(HEAD + "foul N - madaq\n= foul wrong\nplay N TS\n").hands[0]
    foul = hand.items[0]
    assert foul == Foul(position="h1.foul1", seat="N", target="-", words=("madaq",))
    assert isinstance(foul, Foul) and foul.play is None
    with pytest.raises(TranscriptSyntaxError):
        parse_transcript(HEAD + "foul N -- madaq\n")


TABLE_TALK = HEAD.replace("hand 1", "hand 4") + (
    "kawesh E  # no scoring card\n"
    "trick 1: N TS, W KS, S AS, E JS = E\n"
    "foul N t1.p2 revoke\n"
    "= foul wrong\n"
    "foul W t1.p3\n"
    "= foul right  # it was a revoke\n"
    "play E 7C\n"
    "sawa E\n"
    "= sawa right\n"
)


def test_table_talk_statements_and_verdicts() -> None:
    hand = parse_transcript(TABLE_TALK).hands[0]
    assert hand.items == (
        Kawesh(position="h4.kawesh", seat="E", comment=" no scoring card"),
        *hand.items[1:6],
        Foul(position="h4.foul1", seat="N", target="t1.p2", words=("revoke",)),
        CallVerdictClaim(position="h4.foul1.verdict", call="foul", verdict="wrong"),
        Foul(position="h4.foul2", seat="W", target="t1.p3"),
        CallVerdictClaim(
            position="h4.foul2.verdict", call="foul", verdict="right", comment=" it was a revoke"
        ),
        hand.items[10],
        Sawa(position="h4.sawa", seat="E"),
        CallVerdictClaim(position="h4.sawa.verdict", call="sawa", verdict="right"),
    )
    assert [i.position for i in hand.items[1:6]] == [  # type: ignore[union-attr]
        *(f"h4.t1.p{k}" for k in range(1, 5)),
        "h4.t1.winner",
    ]
    assert hand.items[10].position == "h4.t2.p1"  # type: ignore[union-attr]
    assert [(i.line, i.column) for i in hand.items if isinstance(i, (Sawa, Kawesh))] == [
        (5, 1),
        (12, 1),
    ]
    # A Sawa between the cards of a trick, its verdict later on, and cards after it: the
    # rules judge what follows a Sawa, the reader only places it.
    text = HEAD + "play N TS\nsawa S\nplay W KS\n= sawa wrong\nplay S AS\n"
    items = parse_transcript(text).hands[0].items
    assert [i.position for i in items] == [  # type: ignore[union-attr]
        "h1.t1.p1",
        "h1.sawa",
        "h1.t1.p2",
        "h1.sawa.verdict",
        "h1.t1.p3",
    ]
    assert items[3] == CallVerdictClaim(position="h1.sawa.verdict", call="sawa", verdict="wrong")
    # The latest foul call is the one judged; a Sawa just before the last card is allowed.
    tricks = "".join(
        f"trick {t}: N {r}S, W {r}H, S {r}D, E {r}C\n" for t, r in enumerate("789TJQK", 1)
    )
    last = parse_transcript(HEAD + tricks + "play N AS\nplay W AH\nplay S AD\nsawa W\n")
    assert last.hands[0].items[-1] == Sawa(position="h1.sawa", seat="W")


@pytest.mark.parametrize(
    ("line", "kind", "value"),
    [
        ("sawa N", "sawa", "N"),
        ("kawesh W", "kawesh", "W"),
        ("= sawa right", "=sawa", "right"),
        ("= sawa wrong", "=sawa", "wrong"),
        ("= foul right", "=foul", "right"),
        ("= foul wrong", "=foul", "wrong"),
        ("= sawa maybe", "=sawa", "maybe"),  # read alike; the builder refuses the word
        ("  sawa\tS  # claimed", "sawa", "S"),
        ("kawesh  E\t", "kawesh", "E"),
        ("=\tsawa  right # x", "=sawa", "right"),
        ("  =  foul\twrong", "=foul", "wrong"),
    ],
)
def test_table_talk_reads_alike_through_both_front_ends(line: str, kind: str, value: str) -> None:
    """The fast path reads every spelling of the new lines itself, as the grammar does."""
    text = HEAD + line + "\n"

    def refuse(line: str, number: int, errors: object) -> object:
        raise AssertionError(f"line {number} took the slow path: {line!r}")

    with mock.patch.object(btn_statements, "_slow_statement", refuse):
        fast = fast_statements(text)
    assert fast == lark_statements(text)
    assert fast[-1][:2] == (kind, (value,))


def test_unknown_call_words_parse() -> None:
    hand = parse_transcript(HEAD + "bid N kaboot_sun H\nraise E lock closed\n").hands[0]
    calls = [i for i in hand.items if isinstance(i, Call)]
    assert [(c.word, c.args, c.position) for c in calls] == [
        ("kaboot_sun", ("H",), "h1.bid1"),
        ("lock", ("closed",), "h1.bid2"),
    ]


def test_comments_are_kept() -> None:
    hand = parse_transcript(HEAD + "# before\ndealer N  # after\n").hands[0]
    assert hand.items[0] == Comment(text=" before")
    assert hand.items[1].comment == " after"  # type: ignore[union-attr]


def test_metadata_block_is_yaml() -> None:
    text = "%btn 1\n---\nid: x.y-001\ndate: 2026-11-29\nrequires: [a, b]\n---\n"
    transcript = parse_transcript(text + '[Ruleset "saudi@1"]\n')
    assert transcript.metadata == {"id": "x.y-001", "date": "2026-11-29", "requires": ["a", "b"]}
    assert transcript.metadata_text == "id: x.y-001\ndate: 2026-11-29\nrequires: [a, b]\n"


def test_a_lone_carriage_return_in_the_metadata_is_an_error_at_its_place() -> None:
    """The block's text is kept to be written back, which a lone CR cannot be (a line end
    is LF or CR LF): refused where it stands, not once the file is written."""
    text = '%btn 1\n---\nid: x\ndescription:\r ok\n---\n[Ruleset "saudi@1"]\n'
    error = error_of(text)
    assert str(error).split("\n")[0] == (
        "<string>:4:13: a carriage return inside a line of the metadata block"
    )
    assert parse_transcript(text.replace(":\r", ":\r\n")).metadata_text is not None  # CR LF


# ---- streaming -----------------------------------------------------------------------------------


def test_iter_hands_streams_from_binary_stream() -> None:
    body = "".join(f"\nhand {n}\r\ndealer N\n= total NS {n} EW 0\n" for n in range(1, 12001))
    text = '%btn 1\n[Ruleset "saudi@1"]\n' + body
    stream = io.BytesIO(text.encode())
    hands = iter_hands(stream)
    first = next(hands)
    assert first.number == 1
    assert stream.tell() < len(stream.getvalue())  # not everything was read yet
    rest = list(hands)
    assert [first, *rest] == list(parse_transcript(text).hands)  # blocks join up exactly
    assert rest[-1].items[-1].line == 4 + 4 * 11999 + 2


def test_reader_exposes_header_before_hands(tmp_path: Path) -> None:
    path = tmp_path / "t.btn"
    path.write_text('%btn 1.1\n[Ruleset "saudi@1"]\n# c\n' + "\nhand 3\ndealer S\n")
    with TranscriptReader(path) as reader:
        assert reader.version == "1.1"
        assert reader.header[1] == Comment(text=" c")
        assert [h.number for h in reader] == [3]


def test_text_stream_is_accepted() -> None:
    hands = list(iter_hands(io.StringIO(HEAD + "dealer N\n")))
    assert hands[0].items[0].position == "h1.dealer"  # type: ignore[union-attr]


# ---- bad input: every one a TranscriptSyntaxError with its position -----------------------------

BAD: list[tuple[str, str | bytes, int, int, str]] = [
    ("empty file", "", 1, 1, "empty file"),
    ("missing version", '[Ruleset "x"]\n', 1, 1, "version line '%btn 1'"),
    ("unknown version", '%btn 2\n[Ruleset "x"]\n', 1, 6, "unknown BTN version 2"),
    ("binary data", b"%btn 1\n\x00\x01\x02\xff", 2, 1, "binary data"),
    ("invalid UTF-8", b'%btn 1\n[Ruleset "s\xc3("]\n', 2, 12, "invalid UTF-8"),
    ("unknown statement", HEAD + "shuffle N\n", 5, 1, "expected a statement"),
    ("misspelled card 1OS", HEAD + "deal N 1OS TS 8H 9H 7C\n", 5, 8, "found '1OS'"),
    ("misspelled card KX", HEAD + "faceup KX\n", 5, 8, "expected a card like 'TS'"),
    (
        "card dealt twice",
        HEAD + "deal N 8S TS 8H 9H 7C\ndeal W 8H 7S 9S AS KS\n",
        6,
        8,
        "8H is dealt twice (first on line 5)",
    ),
    (
        "card twice in a line",
        HEAD + "deal N 8S TS 8H 8S 7C\n",
        5,
        17,
        "8S is dealt twice (first on line 5)",
    ),
    (
        "face-up card dealt again",
        HEAD + "faceup 8H\ndeal N 8S TS 8H 9H 7C\n",
        6,
        14,
        "8H is dealt twice (first on line 5)",
    ),
    (
        "missing seat",
        HEAD + "deal N 8S TS 8H 9H 7C\ndeal W KS JH QH 7D QD\ndeal E 7S 9S AS 7H 8C\nfaceup QS\n",
        5,
        1,
        "no line for seat S",
    ),
    ("trick claim before trick", HEAD + "= trick 1 N\n", 5, 1, "before its fourth card"),
    ("legal claim never played", HEAD + "= legal N TS\n", 5, 1, "not followed by a play"),
    ("legal claim other seat", HEAD + "= legal N TS\nplay W TS\n", 6, 1, "card of seat W"),
    ("event after result claims", HEAD + "= result made\nplay N TS\n", 6, 1, "after the hand"),
    ("call after contract", HEAD + "= contract N sun\nbid W pass\n", 6, 1, "after the '= contract"),
    ("foul on future play", HEAD + "foul N t1.p1\n", 5, 1, "not been played yet"),
    (
        "second sawa",
        HEAD.replace("hand 1", "hand 4") + "sawa N\nplay N TS\n  sawa W\n",
        7,
        3,
        "hand 4: a second 'sawa' line (the first is on line 5)",
    ),
    (
        "sawa after the last trick",
        HEAD.replace("hand 1", "hand 4")
        + "".join(
            f"trick {t}: N {r}S, W {r}H, S {r}D, E {r}C\n" for t, r in enumerate("789TJQKA", 1)
        )
        + "sawa N\n",
        13,
        1,
        "hand 4: N claims Sawa after the last trick: no trick remains",
    ),
    (
        "second kawesh",
        HEAD + "kawesh N\ndealer E\nkawesh S  # again\n",
        7,
        1,
        "hand 1: a second 'kawesh' line (the first is on line 5)",
    ),
    (
        "sawa verdict without a sawa",
        HEAD.replace("hand 1", "hand 4") + "play N TS\n= sawa right\nsawa N\n",
        6,
        1,
        "hand 4: '= sawa right' judges a Sawa, but no 'sawa' line comes before it in the hand",
    ),
    (
        "foul verdict without a foul",
        HEAD.replace("hand 1", "hand 2") + "sawa N\n= foul wrong\n",
        6,
        1,
        "hand 2: '= foul wrong' judges a foul call, but no 'foul' line comes before it in the hand",
    ),
    (
        "sawa verdict in another hand",
        HEAD + "sawa N\n\nhand 2\n= sawa right\n",
        8,
        1,
        "hand 2: '= sawa right' judges a Sawa",
    ),
    (
        "sawa verdict word",
        HEAD + "sawa N\n= sawa  maybe  # sawa\n",
        6,
        9,
        "hand 1: expected 'right' or 'wrong' after '= sawa', found 'maybe'",
    ),
    (
        "foul verdict word repeating the call",
        HEAD + "play N TS\nfoul E t1.p1\n  = foul foul\n",
        7,
        10,
        "hand 1: expected 'right' or 'wrong' after '= foul', found 'foul'",
    ),
    (
        "second verdict on a foul",
        HEAD + "play N TS\nfoul E t1.p1\n= foul right\n= foul wrong\n",
        8,
        1,
        "hand 1: a second '= foul' verdict on h1.foul1 (the first is on line 7)",
    ),
    (
        "second verdict on the sawa",
        HEAD + "sawa N\n= sawa right\n= sawa right\n",
        7,
        1,
        "hand 1: a second '= sawa' verdict on h1.sawa (the first is on line 6)",
    ),
    ("sawa after result claims", HEAD + "= result made\nsawa N\n", 6, 1, "after the hand"),
    ("uppercase verdict", HEAD + "sawa N\n= sawa Right\n", 6, 8, "lowercase word"),
    ("sawa without a seat", HEAD + "sawa NS\n", 5, 6, "expected a seat"),
    ("misspelled verdict claim", HEAD + "= sawaa right\n", 5, 3, "sawa, foul)"),
    ("duplicate hand", HEAD + "dealer N\n\nhand 1\n", 7, 1, "a second 'hand 1'"),
    ("duplicate dealer", HEAD + "dealer N\ndealer W\n", 6, 1, "a second 'dealer' line"),
    (
        "second trick winner claim",
        HEAD + "trick 1: N TS, W KS, S AS, E JS = E\n= trick 1 W\n",
        6,
        1,
        "a second winner claim for trick 1",
    ),
    ("card played twice", HEAD + "play N TS\nplay W TS\n", 6, 8, "TS is played twice"),
    ("trick out of order", HEAD + "trick 2: N TS, W KS, S AS, E JS\n", 5, 1, "out of order"),
    ("short trick line", HEAD + "trick 1: N TS, W KS, S AS\n", 5, 26, "expected ','"),
    ("unknown claim", HEAD + "= abant NS 3\n", 5, 3, "expected a claim name"),
    ("uppercase call", HEAD + "bid N HOKUM\n", 5, 7, "lowercase word"),
    ("deal of four cards", HEAD + "deal N 8S TS 8H 9H\n", 5, 1, "lists 5 cards, found 4"),
    ("deal and hold", HEAD + "hold N 7S 8S 9S TS JS QS KS AS\n" * 1, 5, 1, ""),
    ("tag inside a hand", HEAD + '[Date "x"]\n', 5, 1, "before the first 'hand' line"),
    ("event before any hand", '%btn 1\n[Ruleset "x"]\ndealer N\n', 3, 1, "before the first"),
    ("no ruleset tag", "%btn 1\n\nhand 1\n", 3, 1, "no [Ruleset"),
    ("unclosed metadata", "%btn 1\n---\nid: x\n", 2, 1, "not closed"),
    ("metadata not YAML", "%btn 1\n---\nid: [x\n---\n", 4, 1, "not valid YAML"),
    ("metadata not a mapping", "%btn 1\n---\n- x\n---\n", 3, 1, "must be a YAML mapping"),
    ("byte-order mark", "\ufeff%btn 1\n", 1, 1, "version line"),
    ("metadata duplicate key", "%btn 1\n---\nid: a\nid: b\n---\n", 4, 1, "duplicate key 'id'"),
    ("metadata ambiguous value", "%btn 1\n---\nstatus: on\n---\n", 3, 9, "ambiguous"),
    ("metadata not JSON data", "%btn 1\n---\na: !!binary aGk=\n---\n", 3, 4, "plain YAML data"),
    (
        "metadata alias bomb",
        "%btn 1\n---\na: &a [x, x, x, x, x, x, x, x, x, x]\n"
        + "".join(
            f"{c}: &{c} [{', '.join(['*' + p] * 10)}]\n"
            for p, c in zip("abcdef", "bcdefg", strict=True)
        )
        + "---\n",
        4,
        4,
        "aliases (*name) are not allowed",
    ),
]


@pytest.mark.parametrize(("name", "text", "line", "column", "words"), BAD, ids=[b[0] for b in BAD])
def test_bad_input(name: str, text: str | bytes, line: int, column: int, words: str) -> None:
    if name == "deal and hold":
        text = HEAD + "hold N 7S 8S 9S TS JS QS KS AS\nhold W 7H 8H 9H TH JH QH KH AH\n"
        text += "hold S 7D 8D 9D TD JD QD KD AD\nhold E 7C 8C 9C TC JC QC KC AC\n"
        text += "deal N 7S 8S 9S TS JS\n"
        line, words = 9, "either with 'deal'"
    error = error_of(text)
    assert error.location is not None
    assert (error.location.line, error.location.column) == (line, column), str(error)
    assert words in str(error)
    assert "Traceback" not in str(error)


def test_syntax_error_shows_caret_and_plain_words() -> None:
    error = error_of(HEAD + "deal N 8S 1OS 8H 9H 7C\n")
    assert str(error).splitlines()[1:3] == ["5 | deal N 8S 1OS 8H 9H 7C", "  |           ^"]
    assert "CARD" not in str(error) and "_WS" not in str(error)


def test_ten_megabyte_line(tmp_path: Path) -> None:
    path = tmp_path / "long.btn"
    with path.open("wb") as out:
        out.write(b"%btn 1\n# ")
        out.write(b"x" * (10 * 1024 * 1024))
        out.write(b"\n")
    with pytest.raises(TranscriptSyntaxError) as caught:
        read_transcript(path)
    assert caught.value.location is not None
    assert (caught.value.location.line, caught.value.location.column) == (2, MAX_LINE_BYTES + 1)
    assert "longer than" in str(caught.value)
    error = error_of("%btn 1\n" + "#" * (10 * 1024 * 1024))
    assert error.location is not None and error.location.line == 2


def test_missing_file_is_a_kit_error(tmp_path: Path) -> None:
    with pytest.raises(TranscriptSyntaxError, match="cannot read"):
        read_transcript(tmp_path / "absent.btn")


# ---- the fast path agrees with the grammar -------------------------------------------------------

_settings = settings(
    max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True
)


def _outcome(parse: object, text: str) -> tuple[str, object]:
    try:
        return ("ok", parse(text))  # type: ignore[operator]
    except TranscriptSyntaxError as exc:
        return ("error", exc.location.line if exc.location else None)


@_settings
@given(st.data())
def test_fast_path_matches_grammar_on_generated(data: st.DataObject) -> None:
    text = data.draw(respelled(data.draw(transcripts(max_hands=2))))
    assert fast_statements(text) == lark_statements(text)


@_settings
@given(st.data())
def test_fast_path_matches_grammar_on_mutated(data: st.DataObject) -> None:
    text = data.draw(mutated(data.draw(transcripts(max_hands=1))))
    assert _outcome(fast_statements, text) == _outcome(lark_statements, text)


@pytest.mark.parametrize("memo_lines", [2, 4096])
def test_repeated_lines_give_their_statements_again(
    memo_lines: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fast path remembers lines it has read (a bounded memo); with a memo that is
    emptied every two lines or one that keeps them all, statements equal the grammar's."""
    from baloot_conformance.corpus.generate import generate_games
    from baloot_conformance.rules.loading import load_ruleset

    text = "".join(generate_games(load_ruleset("saudi"), 11, games=2))
    monkeypatch.setattr(btn_statements, "_MEMO_LINES", memo_lines)
    statements = fast_statements(text)
    assert len({s[0:2] for s in statements}) < len(statements) * 3 // 4  # many repeats
    assert statements == lark_statements(text)
    # The memo is the process's: another transcript is read with the lines of this one known.
    other = "".join(generate_games(load_ruleset("saudi"), 12, games=2))
    assert fast_statements(other) == lark_statements(other)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(st.data())
def test_only_the_kit_error_comes_out(data: st.DataObject) -> None:
    choice = data.draw(st.integers(min_value=0, max_value=2))
    text: str | bytes
    if choice == 0:
        text = data.draw(mutated(data.draw(transcripts(max_hands=2))))
    elif choice == 1:
        text = data.draw(st.text(max_size=200))
    else:
        text = b"%btn 1\n" + data.draw(st.binary(max_size=200))
    try:
        parse_transcript(text)
    except TranscriptSyntaxError as exc:
        assert exc.location is None or exc.location.line >= 1


@_settings
@given(st.data())
def test_fast_path_needs_no_lark_for_valid_lines(data: st.DataObject) -> None:
    """Every spelling the generator produces is recognised without the Lark fallback."""
    text = data.draw(respelled(data.draw(transcripts(max_hands=2))))

    def refuse(line: str, number: int, errors: object) -> object:
        raise AssertionError(f"line {number} took the slow path: {line!r}")

    with mock.patch.object(btn_statements, "_slow_statement", refuse):
        fast_statements(text)


def test_game_runs_cut_before_hands_that_start_a_game() -> None:
    from baloot_conformance.btn import TranscriptReader
    from baloot_conformance.btn.runs import game_runs
    from baloot_conformance.corpus.generate import generate_games
    from baloot_conformance.rules.loading import load_ruleset

    text = "".join(generate_games(load_ruleset("saudi"), 3, games=12))
    data = text.encode("utf-8")
    runs = game_runs(data, 30)
    assert len(runs) > 1
    assert b"\n".join(run for run, _ in runs) == data  # nothing lost, nothing repeated
    whole = [(h.number, h.line) for h in TranscriptReader.from_text(text)]
    pieces = [(h.number, h.line) for h in TranscriptReader(io.BytesIO(runs[0][0]))]
    for run, first_line in runs[1:]:
        assert run.startswith(b"hand ") and run.split(b"\n")[1].startswith(b"start ")
        pieces += [(h.number, h.line) for h in TranscriptReader.for_hands(run, "x", first_line)]
    assert pieces == whole  # the same hands, at the same lines
    assert game_runs(data, 10**6) == [(data, 1)]
    # A repeated hand number keeps the file whole, for its reader to report the repeat.
    last = data.rindex(b"\nhand ")
    number = data[last + 6 : data.index(b"\n", last + 1)]
    repeated = data[:last] + b"\nhand 1" + data[last + 6 + len(number) :]
    assert game_runs(repeated, 30) == [(repeated, 1)]


_SEAT_WORDS = st.sampled_from(["N", "W", "S", "E", "X", "n"])
_CARD_WORDS = st.sampled_from(["7C", "TH", "10S", "AD", "KC", "Q♠", "1C", "QS"])


@given(
    st.sampled_from(["1", "2", "8", "9", "0", "07", "12"]),
    st.lists(st.tuples(_SEAT_WORDS, _CARD_WORDS), min_size=4, max_size=4),
    st.sampled_from(
        ["", " = E", " = N 15", " = W 0", " = S 007", " = S 999", " = E 1000", " =  E 3"]
    ),
    st.sampled_from(["", " ", " # note", "\t"]),
    st.sampled_from([", ", ",", " , "]),
)
def test_a_trick_line_read_by_splitting_is_read_as_its_pattern_reads_it(
    number: str, plays: list[tuple[str, str]], claim: str, tail: str, comma: str
) -> None:
    from baloot_conformance.btn.statements import _FAST, _split_trick

    line = f"trick {number}: " + comma.join(f"{s} {c}" for s, c in plays) + claim + tail
    match = _FAST["trick"][0](line)
    split = _split_trick(line)
    if split is not None:  # the split reading accepts only what the pattern accepts, alike
        assert match is not None and split == _FAST["trick"][2](match.groups())
        assert match.groups()[-1] is None  # and no comment
    simple = not tail and comma == ", " and int(number) in range(1, 9) and "  " not in claim
    if match is not None and simple and claim in ("", " = E", " = N 15", " = W 0", " = S 999"):
        assert split is not None  # the canonical form is read by splitting


def test_runs_do_not_depend_on_how_the_stream_is_read() -> None:
    from baloot_conformance.btn.runs import iter_game_runs, repeats_hand_numbers
    from baloot_conformance.corpus.generate import generate_games
    from baloot_conformance.rules.loading import load_ruleset

    class Trickle(io.BytesIO):
        """A stream that gives at most 7 bytes a read: every block boundary is tried."""

        def read(self, size: int | None = -1) -> bytes:
            return super().read(7)

    text = "".join(generate_games(load_ruleset("saudi"), 4, games=6))
    # CRLF line ends, an indented hand line, 'hand' inside a comment: none moves a cut.
    text = text.replace("\nhand 3\n", "\n  hand 3\n").replace("\n", "\r\n")
    text = text.replace("\r\nhand 5\r\n", "\r\n# a hand 5 comment\r\nhand 5\r\n")
    data = text.encode("utf-8")
    whole = list(iter_game_runs(io.BytesIO(data), 20))
    assert len(whole) > 2
    assert list(iter_game_runs(Trickle(data), 20)) == whole
    assert b"\n".join(run for run, _ in whole) == data
    assert not repeats_hand_numbers(Trickle(data))
    assert repeats_hand_numbers(Trickle(data.replace(b"hand 5\r\n", b"hand 4\r\n")))
