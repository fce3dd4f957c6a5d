"""The canonical writer: parse -> write -> parse is the identity on events and claims, and
canonical text -> parse -> write is byte-identical."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from btn_strategies import respelled, transcripts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baloot_conformance.btn import iter_hands, parse_transcript, read_transcript
from baloot_conformance.btn.writer import format_transcript
from baloot_conformance.corpus.fixtures import baloot_fixture_files

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
_settings = settings(
    max_examples=20, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True
)


@_settings
@given(st.data())
def test_parse_write_parse_is_identity(data: st.DataObject) -> None:
    text = data.draw(respelled(data.draw(transcripts())))
    first = parse_transcript(text)
    canonical = format_transcript(first)
    second = parse_transcript(canonical)
    assert second == first
    assert [h.events for h in second.hands] == [h.events for h in first.hands]
    assert [h.claims for h in second.hands] == [h.claims for h in first.hands]
    assert format_transcript(second) == canonical  # canonical text is a fixed point
    streamed = list(iter_hands(io.BytesIO(text.encode("utf-8"))))
    assert streamed == list(first.hands)


@pytest.mark.parametrize("path", baloot_fixture_files(FIXTURES), ids=lambda p: p.name)
def test_fixtures_are_canonical(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert format_transcript(read_transcript(path)) == text


def test_alternates_are_written_canonically() -> None:
    text = (
        '%btn 1\n[Ruleset "saudi@1"]\n\n\n  hand 1\t# x\n'
        "bid\tW  hokum ♥\n"
        "trick 1:  N 10♠,\tW KS,  S A♠, E JS  =  E   20\r\n"
        "=  contract W hokum ♥\n"
    )
    assert format_transcript(parse_transcript(text)) == (
        '%btn 1\n[Ruleset "saudi@1"]\n\nhand 1  # x\n'
        "bid W hokum H\n"
        "trick 1: N TS, W KS, S AS, E JS = E 20\n"
        "= contract W hokum H\n"
    )


def test_play_lines_merge_into_a_trick_line_only_when_nothing_sits_between() -> None:
    head = '%btn 1\n[Ruleset "saudi@1"]\n\nhand 1\n'
    merged = head + "play N TS\nplay W KS\nplay S AS\nplay E JS\n= trick 1 E\n"
    assert format_transcript(parse_transcript(merged)).endswith(
        "hand 1\ntrick 1: N TS, W KS, S AS, E JS = E\n"
    )
    apart = head + "play N TS\n= legal W KS\nplay W KS\nplay S AS\nplay E JS\n"
    assert format_transcript(parse_transcript(apart)).endswith(
        "hand 1\nplay N TS\n= legal W KS\nplay W KS\nplay S AS\nplay E JS\n"
    )
    commented = head + "play N TS  # lead\nplay W KS\nplay S AS\nplay E JS  # last\n= trick 1 E\n"
    assert format_transcript(parse_transcript(commented)).endswith(
        "play N TS  # lead\nplay W KS\nplay S AS\nplay E JS  # last\n= trick 1 E\n"
    )


def test_tag_values_are_escaped() -> None:
    text = '%btn 1\n[Ruleset "saudi@1"]\n[Event "the \\"big\\" one \\\\ 2"]\n'
    transcript = parse_transcript(text)
    assert transcript.tags["Event"] == 'the "big" one \\ 2'
    assert format_transcript(transcript) == text


def _fenced_blocks(markdown: str, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", markdown, flags=re.S)


def test_docs_embed_the_grammar_and_the_examples() -> None:
    docs = (ROOT / "docs" / "btn.md").read_text(encoding="utf-8")
    assert (ROOT / "grammar" / "btn.lark").read_text(encoding="utf-8") in _fenced_blocks(
        docs, "lark"
    )
    examples = _fenced_blocks(docs, "btn")
    for name in ("scoring/worked-hand.btn", "majlis/majlis-game-1.btn"):
        assert (FIXTURES / name).read_text(encoding="utf-8") in examples
    for example in examples:
        assert format_transcript(parse_transcript(example)) == example


TABLE_TALK = (
    '%btn 1\n[Ruleset "saudi@1"]\n\nhand 4\n'
    "kawesh E  # no scoring card\n"
    "trick 1: N TS, W KS, S AS, E JS = E\n"
    "foul N t1.p2 revoke\n"
    "= foul wrong\n"
    "play E 7C\n"
    "sawa E\n"
    "play N 8C\n"
    "= sawa right\n"
    "play W 9C\n"
    "play S TC\n"
)


def test_table_talk_is_written_as_read() -> None:
    transcript = parse_transcript(TABLE_TALK)
    assert format_transcript(transcript) == TABLE_TALK  # canonical text is a fixed point
    spelled = (
        TABLE_TALK.replace("kawesh E", "  kawesh\tE")
        .replace("sawa E", "sawa  E \t")
        .replace("= foul wrong", "=\tfoul   wrong")
        .replace("= sawa right", "  = sawa\tright")
    )
    assert spelled != TABLE_TALK
    respelled_once = parse_transcript(spelled)
    assert respelled_once == transcript
    assert format_transcript(respelled_once) == TABLE_TALK
    assert parse_transcript(format_transcript(respelled_once)) == transcript
