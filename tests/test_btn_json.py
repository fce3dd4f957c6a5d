"""The JSON form: schema-valid, lossless both ways, and checked like text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from btn_strategies import transcripts
from hypothesis import HealthCheck, given, settings
from jsonschema import Draft202012Validator

from baloot_conformance.btn import parse_transcript, read_transcript
from baloot_conformance.btn.json_form import (
    from_json,
    from_json_text,
    schema,
    to_json,
    to_json_text,
)
from baloot_conformance.btn.writer import format_transcript
from baloot_conformance.corpus.fixtures import baloot_fixture_files
from baloot_conformance.errors import TranscriptSyntaxError

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def test_schema_is_valid_and_described() -> None:
    document = schema()
    Draft202012Validator.check_schema(document)
    assert document["$id"] == "urn:baloot-conformance:schema:btn:1"

    def walk(node: object, where: str) -> None:
        if isinstance(node, dict):
            if node.get("type") == "object" and "properties" in node:
                assert node.get("additionalProperties") is False, where
                for name, prop in node["properties"].items():
                    assert "description" in prop, f"{where}/{name}"
            for key, value in node.items():
                walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{where}/{i}")

    walk(document, "#")


@pytest.mark.parametrize("path", baloot_fixture_files(FIXTURES), ids=lambda p: p.name)
def test_fixtures_convert_both_ways(path: Path) -> None:
    transcript = read_transcript(path)
    data = to_json(transcript)
    if path.name == "worked-hand.btn":  # the whole-document schema, on one file (it is slow)
        Draft202012Validator(schema()).validate(data)
    back = from_json_text(to_json_text(transcript))
    assert back == transcript
    assert format_transcript(back) == path.read_text(encoding="utf-8")


@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(transcripts(max_hands=2))
def test_json_round_trip(text: str) -> None:
    transcript = parse_transcript(text)
    data = json.loads(to_json_text(transcript))
    assert from_json(data) == transcript  # from_json validates against the schema


def test_positions_are_written_and_recomputed() -> None:
    transcript = read_transcript(FIXTURES / "scoring" / "worked-hand.btn")
    data = to_json(transcript)
    items = data["hands"][0]["items"]
    assert items[17] == {
        "event": "play",
        "seat": "N",
        "card": "TS",
        "trick": 1,
        "index": 1,
        "position": "h1.t1.p1",
    }
    for item in items:
        item.pop("position", None)
    assert from_json(data) == transcript


def test_json_checked_like_text() -> None:
    data = to_json(read_transcript(FIXTURES / "scoring" / "worked-hand.btn"))
    data["hands"][0]["items"][2]["cards"][0] = "8S"  # W is dealt N's 8S as well
    with pytest.raises(TranscriptSyntaxError, match="8S is dealt twice"):
        from_json(data)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d.update(btn="2"), "not a BTN JSON document"),
        (lambda d: d["hands"][0]["items"][0].update(seat="X"), "not a BTN JSON document"),
        (lambda d: d["hands"][0]["items"][1]["cards"].__setitem__(0, "10S"), "BTN JSON"),
        (lambda d: d.update(extra=1), "Additional properties"),
        (lambda d: d["hands"][0]["items"][5].update(event="shuffle"), "at /hands/0/items/5"),
        (lambda d: d["hands"][0]["items"][5].update(claim="abnat"), "at /hands/0/items/5"),
        (lambda d: d.update(header=[]), "no [Ruleset"),
    ],
)
def test_bad_json(change: object, words: str) -> None:
    data = to_json(read_transcript(FIXTURES / "scoring" / "worked-hand.btn"))
    change(data)  # type: ignore[operator]
    with pytest.raises(TranscriptSyntaxError, match=words.replace("[", "\\[")):
        from_json(data)


def test_invalid_json_text() -> None:
    with pytest.raises(TranscriptSyntaxError) as caught:
        from_json_text('{"btn": "1",\n  oops}', "x.json")
    assert caught.value.location is not None and caught.value.location.line == 2


def test_metadata_travels_as_mapping_and_text() -> None:
    text = '%btn 1\n---\nid: a.b\n# a YAML comment\n---\n[Ruleset "saudi@1"]\n'
    data = to_json(parse_transcript(text))
    assert data["metadata"] == {"id": "a.b"}
    assert data["metadataText"] == "id: a.b\n# a YAML comment\n"
    assert format_transcript(from_json(data)) == text
    del data["metadataText"]
    assert format_transcript(from_json(data)) == '%btn 1\n---\nid: a.b\n---\n[Ruleset "saudi@1"]\n'


TABLE_TALK = (
    '%btn 1\n[Ruleset "saudi@1"]\n\nhand 4\n'
    "kawesh E  # no scoring card\n"
    "trick 1: N TS, W KS, S AS, E JS = E\n"
    "foul N t1.p2 revoke\n"
    "= foul wrong\n"
    "sawa E\n"
    "= sawa right  # every trick\n"
)


def test_table_talk_in_the_json_form() -> None:
    transcript = parse_transcript(TABLE_TALK)
    data = json.loads(to_json_text(transcript))
    Draft202012Validator(schema()).validate(data)
    items = data["hands"][0]["items"]
    assert items[0] == {
        "event": "kawesh",
        "seat": "E",
        "position": "h4.kawesh",
        "comment": " no scoring card",
    }
    assert items[6:] == [
        {
            "event": "foul",
            "seat": "N",
            "target": "t1.p2",
            "words": ["revoke"],
            "position": "h4.foul1",
        },
        {"claim": "foul", "verdict": "wrong", "position": "h4.foul1.verdict"},
        {"event": "sawa", "seat": "E", "position": "h4.sawa"},
        {
            "claim": "sawa",
            "verdict": "right",
            "position": "h4.sawa.verdict",
            "comment": " every trick",
        },
    ]
    assert from_json(data) == transcript
    assert format_transcript(from_json_text(to_json_text(transcript))) == TABLE_TALK
    for item in items:
        item.pop("position", None)
    assert from_json(data) == transcript  # positions are recomputed


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (
            lambda items: items[9].update(verdict="maybe"),
            "at /hands/0/items/9/verdict: 'maybe' is not one of ['right', 'wrong']",
        ),
        (lambda items: items[8].update(seat="NS"), "at /hands/0/items/8/seat"),
        (lambda items: items[0].update(cards=["7S"]), "at /hands/0/items/0"),
        (lambda items: items[9].update(claim="kawesh"), "at /hands/0/items/9"),
        (
            lambda items: items.insert(0, {"claim": "sawa", "verdict": "right"}),
            "items:0:1: hand 4: '= sawa right' judges a Sawa, but no 'sawa' line",
        ),
        (
            lambda items: items.append({"event": "kawesh", "seat": "N"}),
            "items:10:1: hand 4: a second 'kawesh' line",
        ),
    ],
)
def test_table_talk_json_is_checked(change: object, words: str) -> None:
    data = to_json(parse_transcript(TABLE_TALK))
    change(data["hands"][0]["items"])  # type: ignore[operator]
    with pytest.raises(TranscriptSyntaxError) as caught:
        from_json(data, "t.json")
    assert words in str(caught.value)


def test_table_talk_json_without_the_schema_is_checked_by_the_builder() -> None:
    data = to_json(parse_transcript(TABLE_TALK))
    data["hands"][0]["items"][9]["verdict"] = "maybe"
    with pytest.raises(TranscriptSyntaxError, match="expected 'right' or 'wrong' after '= sawa'"):
        from_json(data, validate=False)
