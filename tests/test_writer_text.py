"""The BTN writer writes only what reads back (issue 24, F7/F11): one line per line.

A comment, a tag value or a word holding a line break, a NUL or a lone surrogate, or a number
BTN cannot write, is an error naming where it is (the item's position; the JSON pointer when
it comes from the JSON form), never a second line that reads as another statement, and never
a lone surrogate silently replaced.
"""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baloot_conformance.btn import Comment, Dealer, Tag, TeamClaim, Transcript, parse_transcript
from baloot_conformance.btn.json_form import from_json, from_json_text, to_json
from baloot_conformance.btn.writer import format_transcript, text_problem
from baloot_conformance.cli import main
from baloot_conformance.corpus.fixtures import baloot_fixture_files
from baloot_conformance.errors import TranscriptSyntaxError

FIXTURE = Path(__file__).parents[1] / "fixtures"
TEXT = '%btn 1\n[Ruleset "saudi@1"]\n\nhand 1\ndealer N  # hi\nbid N pass\n'
INJECTED = "x\n= winner EW"


def _json() -> dict[str, Any]:
    return to_json(parse_transcript(TEXT))


@pytest.mark.parametrize(
    ("pointer", "value", "problem"),
    [
        ("/hands/0/items/0/comment", INJECTED, "a line break at character 2"),
        ("/hands/0/comment", "z\ud800", "a lone surrogate (U+D800) at character 2"),
        ("/header/0/comment", "c\rd", "a carriage return at character 2"),
        ("/hands/0/items/1/call", "pass\n", "a line break at character 5"),  # '$' lets it by
        ("/header/1", {"comment": "a\x00b"}, "a NUL at character 2"),
    ],
)
def test_the_json_form_refuses_a_string_btn_cannot_hold_at_its_pointer(
    pointer: str, value: Any, problem: str, tmp_path: Path
) -> None:
    data = _json()
    *steps, last = pointer.strip("/").split("/")
    node: Any = data
    for step in steps:
        node = node[int(step)] if isinstance(node, list) else node[step]
    if isinstance(node, list):
        node.append(value)
    else:
        node[last] = value
    expected = f"{pointer}" if not isinstance(value, dict) else f"{pointer}/comment"
    for text in (None, json.dumps(data)):
        with pytest.raises(TranscriptSyntaxError) as caught:
            from_json(data, "t.json") if text is None else from_json_text(text)
        assert f"#{expected}" in str(caught.value) and problem in str(caught.value)
    # The command: exit 2, the pointer said, no output written.
    source, target = tmp_path / "t.json", tmp_path / "t.btn"
    source.write_text(json.dumps(data), encoding="utf-8")
    err = io.StringIO()
    assert main(["convert", "--to", "btn", str(source), "-o", str(target)], io.StringIO(), err) == 2
    assert f"t.json#{expected}" in err.getvalue() and not target.exists()


def _with(transcript: Transcript, **changes: Any) -> Transcript:
    hand = transcript.hands[0]
    items = changes.pop("items", hand.items)
    return dataclasses.replace(
        transcript, hands=(dataclasses.replace(hand, items=items, **changes),), **{}
    )


def test_the_writer_refuses_an_item_it_cannot_write_naming_its_position() -> None:
    transcript = parse_transcript(TEXT)
    dealer = transcript.hands[0].items[0]
    assert isinstance(dealer, Dealer)
    cases: list[tuple[Transcript, str]] = [
        (_with(transcript, items=(dataclasses.replace(dealer, comment=INJECTED),)), "h1.dealer"),
        (_with(transcript, items=(Comment(text=" a\ud800"),)), "h1: a comment"),
        (_with(transcript, comment="\n= total NS 1"), "h1: cannot be written"),
        (
            dataclasses.replace(transcript, header=(Tag(name="Ruleset", value="s\ud83d"),)),
            "the header tag Ruleset",
        ),
        (
            _with(transcript, items=(TeamClaim(position="h1.score", name="score", ns=-5, ew=3),)),
            "h1.score: the number -5 cannot be written",
        ),
        (
            _with(
                transcript, items=(TeamClaim(position="h1.total", name="total", ns=1, ew=10**9),)
            ),
            "h1.total: the number 1000000000",
        ),
    ]
    for case, message in cases:
        with pytest.raises(TranscriptSyntaxError, match=message):
            format_transcript(case)


def test_a_metadata_text_that_would_end_its_block_early_is_refused() -> None:
    transcript = dataclasses.replace(parse_transcript(TEXT), metadata_text="a: 1\n---\n= x\n")
    with pytest.raises(TranscriptSyntaxError, match="hold no '---' line"):
        format_transcript(transcript)


def test_every_fixture_still_writes_and_reads_back() -> None:
    fixtures = baloot_fixture_files(FIXTURE)[:200]
    assert fixtures
    for path in fixtures:
        text = path.read_text(encoding="utf-8")
        transcript = parse_transcript(text, str(path))
        assert parse_transcript(format_transcript(transcript)) == transcript


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(codec=None), max_size=12))
def test_any_comment_is_written_so_that_it_reads_back_or_refused(comment: str) -> None:
    transcript = parse_transcript(TEXT)
    dealer = transcript.hands[0].items[0]
    assert isinstance(dealer, Dealer)
    case = _with(transcript, items=(dataclasses.replace(dealer, comment=comment),))
    if text_problem(comment) is not None:
        with pytest.raises(TranscriptSyntaxError):
            format_transcript(case)
        return
    back = parse_transcript(format_transcript(case)).hands[0].items
    assert len(back) == 1 and back[0].comment.rstrip() == comment.rstrip()  # type: ignore[union-attr]
