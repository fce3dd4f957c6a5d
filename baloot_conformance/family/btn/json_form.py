"""The JSON form of BTN 2 (schema ``spec/schema/btn2.schema.json``), both ways, without loss.

A JSON transcript holds the same events, claims and comments as the text, in the same order.
Positions (and a play's place in its trick) are written for readers and recomputed on input.
JSON input is validated against the schema and then goes through the same structural checks as
text (:class:`~.builder.HandBuilder`, against the ruleset's table), so both forms accept the
same transcripts; an error cites its JSON pointer (``game.json#/hands/0/items:3:1``: the
fourth item of the first hand, items numbered from 0). One difference with BTN 1: a play names
its ``trick``, which input keeps, since the notation cannot know how many seats are still in.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from functools import cache
from typing import Any

from baloot_conformance.btn import json_form as baloot_json
from baloot_conformance.btn.json_form import head_json, placed
from baloot_conformance.btn.reader import load_metadata
from baloot_conformance.btn.writer import text_problem
from baloot_conformance.errors import Location, TranscriptSyntaxError
from baloot_conformance.family.btn.builder import HandBuilder
from baloot_conformance.family.btn.grammar import Stmt
from baloot_conformance.family.btn.items import (
    Ante,
    Call,
    Comment,
    Deal,
    Dealer,
    Exchange,
    FaceUp,
    Hand,
    HandItem,
    Knock,
    LayoutPlay,
    LegalClaim,
    OrderClaim,
    Penalty,
    Play,
    Reshuffle,
    SidesClaim,
    Start,
    Table,
    Tag,
    Transcript,
    TrickClaim,
    Wager,
)
from baloot_conformance.family.btn.lines import Errors
from baloot_conformance.family.btn.reader import KNOWN_MAJOR, RulesetFor, table_of
from baloot_conformance.resources import spec_path
from baloot_conformance.rules.strict_yaml import plain_yaml

__all__ = ["from_json", "from_json_text", "schema", "to_json", "to_json_text"]


@cache
def schema() -> dict[str, Any]:
    """The JSON Schema of the JSON form."""
    with spec_path("schema", "btn2.schema.json").open(encoding="utf-8") as handle:
        loaded: dict[str, Any] = json.load(handle)
    return loaded


# ---- to JSON ---------------------------------------------------------------------------------


def item_json(item: HandItem) -> dict[str, Any]:
    """One event, claim or comment in its JSON form."""
    if isinstance(item, Comment):
        return {"comment": item.text}
    out: dict[str, Any]
    if isinstance(item, Play):
        out = {"event": "play", "seat": item.seat, "card": item.card}
        out.update(trick=item.trick, index=item.index)
    elif isinstance(item, Start):
        out = _start_json(item)
    elif isinstance(item, Dealer):
        out = {"event": "dealer", "seat": item.seat}
    elif isinstance(item, Ante):
        out = {"event": "ante", "chips": dict(item.chips)}
    elif isinstance(item, Deal):
        out = {"event": "deal", "seat": item.seat, "cards": list(item.cards)}
    elif isinstance(item, FaceUp):
        out = {"event": "faceup", "seat": item.seat, "card": item.card}
    elif isinstance(item, Call):
        out = {"event": "bid", "seat": item.seat, "call": item.word}
        if item.args:
            out["args"] = list(item.args)
    elif isinstance(item, Exchange):
        out = {"event": "exchange", "seat": item.seat}
        out.update(discards=list(item.discards), received=list(item.received))
    elif isinstance(item, Reshuffle):
        out = {"event": "reshuffle"}
    elif isinstance(item, Penalty):
        out = {"event": "penalty", "seat": item.seat, "offence": item.offence}
    elif isinstance(item, TrickClaim):
        out = {"claim": "trick", "trick": item.trick, "winner": item.winner}
        if item.points is not None:
            out["points"] = item.points
    elif isinstance(item, LegalClaim):
        out = {"claim": "legal", "seat": item.seat, "cards": list(item.cards)}
    elif isinstance(item, SidesClaim):
        out = {"claim": item.name, "values": dict(item.values)}
    elif isinstance(item, Wager):
        out = {"event": "raise", "seat": item.seat}
        if item.doubles:
            out["doubles"] = list(item.doubles)
        if item.redoubles:
            out["redoubles"] = list(item.redoubles)
    elif isinstance(item, LayoutPlay):
        out = {"event": "move", "seat": item.seat, "card": item.card}
    elif isinstance(item, Knock):
        out = {"event": "knock", "seat": item.seat}
    elif isinstance(item, OrderClaim):
        out = {"claim": "order", "seats": list(item.seats)}
    else:  # pragma: no cover - every item type is handled above
        raise TypeError(f"not a BTN 2 item: {item!r}")
    return placed(out, item)


def _start_json(item: Start) -> dict[str, Any]:
    if item.hand is None:
        out: dict[str, Any] = {"event": "start", "pot": item.pot}
        if item.exempt:
            out["exempt"] = list(item.exempt)
        return out
    out = {"event": "start", "hand": item.hand}
    if item.scores:
        out["score"] = dict(item.scores)
    if item.doubled:
        out["doubled"] = dict(item.doubled)
    if item.chosen:
        out["chosen"] = list(item.chosen)
    return out


def hand_json(hand: Hand) -> dict[str, Any]:
    """One hand in its JSON form."""
    return baloot_json.hand_json(hand, item_json)


def to_json(transcript: Transcript) -> dict[str, Any]:
    """The JSON form of a transcript, as Python data ready for :func:`json.dumps`."""
    return {**head_json(transcript), "hands": [hand_json(h) for h in transcript.hands]}


def to_json_text(transcript: Transcript) -> str:
    """The JSON form as text: UTF-8 friendly, two-space indent, one final newline."""
    return json.dumps(to_json(transcript), ensure_ascii=False, indent=2) + "\n"


# ---- from JSON -------------------------------------------------------------------------------


def _error(path: str, pointer: str, message: str, hint: str | None = None) -> TranscriptSyntaxError:
    return TranscriptSyntaxError(
        message, location=Location(f"{path}#{pointer}", 1, 1) if pointer else None, hint=hint
    )


@cache
def _validator() -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema())


def _validate(data: Any, path: str) -> None:
    """The schema's verdict on the whole document: its first problem, with its pointer."""
    errors = sorted(
        _validator().iter_errors(data),
        key=lambda e: (len(e.absolute_path), [str(p) for p in e.absolute_path]),
        reverse=True,
    )
    if errors:
        first = errors[0]
        pointer = "".join(f"/{p}" for p in first.absolute_path) or "/"
        more = f" ({len(errors)} problems)" if len(errors) > 1 else ""
        raise TranscriptSyntaxError(
            f"{path}: not a BTN 2 JSON document: at {pointer}: {first.message}{more}",
            hint="see spec/schema/btn2.schema.json and docs/btn2.md, 'The JSON form'",
        )


def _check_strings(value: Any, path: str, pointer: str) -> None:
    """Refuse a string the text form could not hold on its line (as the writer would)."""
    if isinstance(value, str):
        problem = text_problem(value)
        if problem is not None:
            raise _error(path, pointer, f"cannot be written as one BTN line: {problem}")
    elif isinstance(value, Mapping):
        for key, inner in value.items():
            _check_strings(inner, path, f"{pointer}/{key}")
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            _check_strings(inner, path, f"{pointer}/{index}")


def _sides(values: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple(values.items())


def _stmt(obj: Mapping[str, Any], number: int) -> Stmt:
    """The statement an item stands for, as the text's reader would give it."""
    comment = obj.get("comment")
    if "event" not in obj and "claim" not in obj:
        return ("comment", (obj["comment"],), number, 1, None)
    values: tuple[Any, ...]
    kind = obj.get("event") or "=" + obj["claim"]
    if kind == "play":
        return (
            "trick",
            (obj["trick"], ((obj["seat"], obj["card"], 1),), None, None),
            number,
            1,
            comment,
        )
    if kind == "start" and "hand" in obj:
        chosen = obj.get("chosen")
        values = (
            None,
            (),
            obj["hand"],
            _sides(obj.get("score", {})),
            _sides(obj.get("doubled", {})),
            None if chosen is None else tuple(chosen),
        )
    elif kind == "start":
        values = (obj["pot"], tuple(obj.get("exempt", ())), None, None, None, None)
    elif kind == "raise":
        parts = [(word, tuple(obj[key])) for word, key in _WAGER_KEYS if obj.get(key)]
        values = (obj["seat"], tuple(parts) or (("pass", ()),))
    elif kind == "move":
        return ("play", (obj["seat"], obj["card"]), number, 1, comment)
    elif kind == "knock":
        values = (obj["seat"],)
    elif kind == "=order":
        values = (tuple(obj["seats"]),)
    elif kind == "dealer":
        values = (obj["seat"],)
    elif kind == "ante":
        values = (_sides(obj["chips"]),)
    elif kind in ("deal", "=legal"):
        values = (obj["seat"], tuple(obj["cards"]))
    elif kind == "faceup":
        values = (obj["seat"], obj["card"])
    elif kind == "bid":
        values = (obj["seat"], obj["call"], tuple(obj.get("args", ())))
    elif kind == "exchange":
        values = (obj["seat"], tuple(obj["discards"]), tuple(obj["received"]))
    elif kind == "reshuffle":
        values = ()
    elif kind == "penalty":
        values = (obj["seat"], obj["offence"])
    elif kind == "=trick":
        values = (obj["trick"], obj["winner"], obj.get("points"))
    else:  # the per-seat claims
        values = (_sides(obj["values"]),)
    return (kind, values, number, 1, comment)


#: A ``raise`` item's lists and the words of the text they stand for.
_WAGER_KEYS = (("double", "doubles"), ("redouble", "redoubles"))


def _head(data: Mapping[str, Any], path: str, ruleset_for: RulesetFor) -> Transcript:
    version = data["btn"]
    if int(version.split(".")[0]) != KNOWN_MAJOR:  # pragma: no cover - the schema refuses it
        raise _error(path, "/btn", f"unknown BTN version {version}: this reader knows 2")
    header: list[Tag | Comment] = []
    tags: dict[str, Tag] = {}
    for index, entry in enumerate(data["header"]):
        _check_strings(entry, path, f"/header/{index}")
        where = Location(f"{path}#/header", index, 1)
        if "tag" in entry:
            if entry["tag"] in tags:
                raise _error(path, f"/header/{index}", f"a second [{entry['tag']} ...] tag")
            tag = Tag(
                name=entry["tag"],
                value=entry["value"],
                comment=entry.get("comment"),
                location=where,
            )
            tags[tag.name] = tag
            header.append(tag)
        else:
            header.append(Comment(text=entry["comment"], location=where))
    reference = tags.get("Ruleset")
    if reference is None:
        raise _error(path, "/header", 'the header has no [Ruleset "..."] tag')
    ruleset = ruleset_for(reference.value, reference.location)
    table: Table = table_of(ruleset, reference.value, tags.get("Seats"), Errors(f"{path}#/header"))
    metadata_text = data.get("metadataText")
    metadata = data.get("metadata")
    if metadata_text is not None:
        parsed = load_metadata(metadata_text, 1, f"{path}#/metadataText")
        if metadata is not None and parsed != metadata:
            raise _error(path, "/metadata", "'metadata' and 'metadataText' disagree")
        metadata = parsed
    elif metadata is not None:
        metadata_text = plain_yaml(metadata)
    return Transcript(
        version=version,
        header=tuple(header),
        hands=(),
        table=table,
        metadata=metadata,
        metadata_text=metadata_text,
    )


def from_json(data: Any, path: str, ruleset_for: RulesetFor, validate: bool = True) -> Transcript:
    """A transcript from its JSON form: validated against the schema, its strings checked to
    fit a line of the text (both unless ``validate`` is false: a document the kit wrote
    itself), then checked as text is (against the table of the ruleset ``ruleset_for``
    gives)."""
    if validate:
        _validate(data, path)
    head = _head(data, path, ruleset_for)
    hands: list[Hand] = []
    seen: set[int] = set()
    for index, hand in enumerate(data["hands"]):
        pointer = f"/hands/{index}"
        if validate:
            _check_strings(hand, path, pointer)
        number = hand["hand"]
        if number in seen:
            raise _error(path, pointer, f"a second 'hand {number}'")
        seen.add(number)
        errors = Errors(f"{path}#{pointer}/items")
        where = Location(f"{path}#{pointer}", 1, 1)
        builder = HandBuilder(head.table, number, where, hand.get("comment"), errors)
        for i_index, obj in enumerate(hand["items"]):
            builder.add(_stmt(obj, i_index))
        hands.append(builder.finish())
    return dataclasses.replace(head, hands=tuple(hands))


def from_json_text(text: str, path: str, ruleset_for: RulesetFor) -> Transcript:
    """A transcript from the text of its JSON form."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TranscriptSyntaxError(
            f"not valid JSON: {exc.msg}", location=Location(path, exc.lineno, exc.colno)
        ) from None
    return from_json(data, path, ruleset_for)
