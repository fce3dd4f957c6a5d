"""The JSON form of BTN (schema ``spec/schema/btn.schema.json``), both ways, without loss.

Engines that prefer JSON never parse text: a JSON transcript holds the same events, claims
and comments as the BTN text, in the same order. Positions are written out for readers and
recomputed on input (they are derived). JSON input goes through the same structural checks as
text (a card dealt twice, a claim before its event, ...), so both forms accept the same
transcripts.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from typing import Any

from baloot_conformance.cards import Card, Suit
from baloot_conformance.errors import Location, TranscriptSyntaxError
from baloot_conformance.resources import spec_path
from baloot_conformance.transcript import (
    TEAM_CLAIMS,
    Baloot,
    Call,
    Comment,
    ContractClaim,
    Deal,
    Dealer,
    Declare,
    FaceUp,
    Foul,
    Hand,
    HandItem,
    Hold,
    KabootClaim,
    LegalClaim,
    Play,
    Rest,
    ResultClaim,
    Start,
    Stmt,
    Tag,
    TeamClaim,
    Transcript,
    TrickClaim,
    WinnerClaim,
    _Errors,
    _HandBuilder,
    load_metadata,
)

__all__ = ["from_json", "from_json_text", "schema", "to_json", "to_json_text"]


@cache
def schema() -> dict[str, Any]:
    """The JSON Schema of the JSON form."""
    with spec_path("schema", "btn.schema.json").open(encoding="utf-8") as handle:
        loaded: dict[str, Any] = json.load(handle)
    return loaded


# ---- to JSON ---------------------------------------------------------------------------------


def _cards(cards: tuple[Card, ...]) -> list[str]:
    return [c.code for c in cards]


def _teams(out: dict[str, Any], ns: int | None, ew: int | None) -> dict[str, Any]:
    if ns is not None:
        out["NS"] = ns
    if ew is not None:
        out["EW"] = ew
    return out


def _item(item: HandItem) -> dict[str, Any]:
    if isinstance(item, Comment):
        return {"comment": item.text}
    out: dict[str, Any]
    if isinstance(item, Play):
        out = {"event": "play", "seat": item.seat, "card": item.card.code}
        out["trick"] = item.trick
        out["index"] = item.index
    elif isinstance(item, (Deal, Hold, Rest)):
        word = "deal" if isinstance(item, Deal) else "hold" if isinstance(item, Hold) else "rest"
        out = {"event": word, "seat": item.seat, "cards": _cards(item.cards)}
    elif isinstance(item, Call):
        out = {"event": item.phase, "seat": item.seat, "call": item.word}
        if item.args:
            out["args"] = list(item.args)
    elif isinstance(item, Dealer):
        out = {"event": "dealer", "seat": item.seat}
    elif isinstance(item, FaceUp):
        out = {"event": "faceup", "card": item.card.code}
    elif isinstance(item, Start):
        out = _teams({"event": "start"}, item.ns, item.ew)
    elif isinstance(item, Declare):
        out = {"event": "declare", "seat": item.seat, "project": item.project}
        if item.cards:
            out["cards"] = _cards(item.cards)
    elif isinstance(item, Baloot):
        out = {"event": "baloot", "seat": item.seat}
        if item.cards:
            out["cards"] = _cards(item.cards)
    elif isinstance(item, Foul):
        out = {"event": "foul", "seat": item.seat, "target": item.target}
        if item.words:
            out["words"] = list(item.words)
    elif isinstance(item, ContractClaim):
        out = {"claim": "contract", "buyer": item.buyer}
        if item.kind is not None:
            out["kind"] = item.kind
        if item.trump is not None:
            out["trump"] = item.trump.value
        if item.multiplier is not None:
            out["multiplier"] = item.multiplier
        if item.lock is not None:
            out["lock"] = item.lock
    elif isinstance(item, TrickClaim):
        out = {"claim": "trick", "trick": item.trick, "winner": item.winner}
        if item.points is not None:
            out["points"] = item.points
    elif isinstance(item, LegalClaim):
        out = {"claim": "legal", "seat": item.seat, "cards": _cards(item.cards)}
    elif isinstance(item, TeamClaim):
        out = _teams({"claim": item.name}, item.ns, item.ew)
    elif isinstance(item, ResultClaim):
        out = {"claim": "result", "outcome": item.outcome}
    elif isinstance(item, KabootClaim):
        out = {"claim": "kaboot", "team": item.team}
    elif isinstance(item, WinnerClaim):
        out = {"claim": "winner", "team": item.team}
    else:  # pragma: no cover - every item type is handled above
        raise TypeError(f"not a BTN item: {item!r}")
    out["position"] = item.position
    if item.comment is not None:
        out["comment"] = item.comment
    return out


def _hand(hand: Hand) -> dict[str, Any]:
    out: dict[str, Any] = {"hand": hand.number}
    if hand.comment is not None:
        out["comment"] = hand.comment
    out["items"] = [_item(i) for i in hand.items]
    return out


def to_json(transcript: Transcript) -> dict[str, Any]:
    """The JSON form of a transcript, as Python data ready for :func:`json.dumps`."""
    out: dict[str, Any] = {"btn": transcript.version}
    if transcript.metadata is not None:
        out["metadata"] = dict(transcript.metadata)
    if transcript.metadata_text is not None:
        out["metadataText"] = transcript.metadata_text
    header: list[dict[str, Any]] = []
    for entry in transcript.header:
        if isinstance(entry, Tag):
            tag: dict[str, Any] = {"tag": entry.name, "value": entry.value}
            if entry.comment is not None:
                tag["comment"] = entry.comment
            header.append(tag)
        else:
            header.append({"comment": entry.text})
    out["header"] = header
    out["hands"] = [_hand(h) for h in transcript.hands]
    return out


def to_json_text(transcript: Transcript) -> str:
    """The JSON form as text: UTF-8 friendly, two-space indent, one final newline."""
    return json.dumps(to_json(transcript), ensure_ascii=False, indent=2) + "\n"


# ---- from JSON -------------------------------------------------------------------------------


def _error(path: str, pointer: str, message: str) -> TranscriptSyntaxError:
    return TranscriptSyntaxError(
        message, location=Location(f"{path}#{pointer}", 1, 1) if pointer else None
    )


@cache
def _validator(name: str | None = None) -> Any:
    """A validator for the whole document (``name`` None) or for one kind of item, e.g.
    ``event-deal``: items are checked one by one against their own definition, which is much
    faster than letting the validator try every kind for every item."""
    from jsonschema import Draft202012Validator

    document = schema()
    if name is None:
        return Draft202012Validator(document)
    return Draft202012Validator(dict(document["$defs"][name], **{"$defs": document["$defs"]}))


_CALLS = ("bid", "raise")


def _definition(item: Any) -> str:
    """The name of the definition an item must match (``item`` when it is not recognisable,
    so that the generic definition reports what is wrong)."""
    if not isinstance(item, dict):
        return "item"
    names = schema()["$defs"]
    if "event" in item and "claim" not in item:
        event = item["event"]
        name = "event-call" if event in _CALLS else f"event-{event}"
    elif "claim" in item and "event" not in item:
        claim = item["claim"]
        name = "claim-team" if claim in TEAM_CLAIMS else f"claim-{claim}"
    elif "event" not in item and "claim" not in item:
        name = "comment"
    else:
        name = "item"
    return name if isinstance(name, str) and name in names else "item"


def _raise_first(errors: list[Any], path: str, prefix: str) -> None:
    if errors:
        errors.sort(key=lambda e: [str(p) for p in e.absolute_path])
        first = errors[0]
        pointer = prefix + "".join(f"/{p}" for p in first.absolute_path)
        raise TranscriptSyntaxError(
            f"{path}: not a BTN JSON document: at {pointer or '/'}: {first.message}",
            hint=f"{len(errors)} problem(s) here; the schema is spec/schema/btn.schema.json",
        )


def _validate(data: Any, path: str) -> None:
    shallow = data
    if isinstance(data, dict) and isinstance(data.get("hands"), list):
        shallow = dict(data)
        shallow["hands"] = [
            dict(h, items=[]) if isinstance(h, dict) and isinstance(h.get("items"), list) else h
            for h in data["hands"]
        ]
    _raise_first(list(_validator().iter_errors(shallow)), path, "")
    for h_index, hand in enumerate(data["hands"]):
        for i_index, item in enumerate(hand["items"]):
            validator = _validator(_definition(item))
            errors = list(validator.iter_errors(item))
            _raise_first(errors, path, f"/hands/{h_index}/items/{i_index}")


def _to_cards(codes: list[str]) -> tuple[Card, ...]:
    return tuple(Card.from_code(c) for c in codes)


def _stmt(obj: Mapping[str, Any], number: int) -> Stmt:
    comment = obj.get("comment")
    if "event" not in obj and "claim" not in obj:
        return ("comment", (obj["comment"],), number, 1, None)
    values: tuple[Any, ...]
    if "event" in obj:
        kind = obj["event"]
        if kind in ("deal", "hold", "rest"):
            values = (obj["seat"], _to_cards(obj["cards"]))
        elif kind == "play":
            values = (obj["seat"], Card.from_code(obj["card"]))
        elif kind in ("bid", "raise"):
            values = (obj["seat"], obj["call"], tuple(obj.get("args", ())))
        elif kind == "dealer":
            values = (obj["seat"],)
        elif kind == "faceup":
            values = (Card.from_code(obj["card"]),)
        elif kind == "start":
            values = (obj.get("NS"), obj.get("EW"))
        elif kind == "declare":
            values = (obj["seat"], obj["project"], _to_cards(obj.get("cards", [])))
        elif kind == "baloot":
            values = (obj["seat"], _to_cards(obj.get("cards", [])))
        else:  # foul
            values = (obj["seat"], obj["target"], tuple(obj.get("words", ())))
        return (kind, values, number, 1, comment)
    name = obj["claim"]
    if name == "contract":
        trump = obj.get("trump")
        values = (
            obj["buyer"],
            obj.get("kind"),
            Suit(trump) if trump is not None else None,
            obj.get("multiplier"),
            obj.get("lock"),
        )
        if obj["buyer"] is None:
            values = (None, None, None, None, None)
    elif name == "trick":
        values = (obj["trick"], obj["winner"], obj.get("points"))
    elif name == "legal":
        values = (obj["seat"], _to_cards(obj["cards"]))
    elif name in TEAM_CLAIMS:
        return ("=team", (name, obj.get("NS"), obj.get("EW")), number, 1, comment)
    elif name == "result":
        values = (obj["outcome"],)
    else:  # kaboot, winner
        values = (obj["team"],)
    return ("=" + name, values, number, 1, comment)


def from_json(data: Any, path: str = "<json>") -> Transcript:
    """Build a transcript from its JSON form (validated against the schema, then checked
    like text: a card dealt twice, a claim before its event, ...)."""
    _validate(data, path)
    version = data["btn"]
    if int(version.split(".")[0]) != 1:
        raise _error(path, "/btn", f"unknown BTN version {version}: this reader knows version 1")
    header: list[Tag | Comment] = []
    names: set[str] = set()
    for entry in data["header"]:
        if "tag" in entry:
            if entry["tag"] in names:
                raise _error(path, "/header", f"a second [{entry['tag']} ...] tag")
            names.add(entry["tag"])
            header.append(
                Tag(name=entry["tag"], value=entry["value"], comment=entry.get("comment"))
            )
        else:
            header.append(Comment(text=entry["comment"]))
    if "Ruleset" not in names:
        raise _error(path, "/header", 'the header has no [Ruleset "..."] tag')
    metadata_text = data.get("metadataText")
    metadata = data.get("metadata")
    if metadata_text is not None:
        parsed = load_metadata(metadata_text, 1, f"{path}#/metadataText")
        if metadata is not None and parsed != metadata:
            raise _error(path, "/metadata", "'metadata' and 'metadataText' disagree")
        metadata = parsed
    elif metadata is not None:
        import yaml

        metadata_text = yaml.safe_dump(metadata, sort_keys=False, allow_unicode=True)
    hands: list[Hand] = []
    seen: set[int] = set()
    for h_index, hand in enumerate(data["hands"]):
        number = hand["hand"]
        if number in seen:
            raise _error(path, f"/hands/{h_index}", f"a second 'hand {number}'")
        seen.add(number)
        errors = _Errors(f"{path}#/hands/{h_index}/items")
        builder = _HandBuilder(number, 0, 1, hand.get("comment"), errors)
        for i_index, obj in enumerate(hand["items"]):
            stmt = _stmt(obj, i_index)
            builder.add(stmt)
        hands.append(builder.finish())
    return Transcript(
        version=version,
        header=tuple(header),
        hands=tuple(hands),
        metadata=metadata,
        metadata_text=metadata_text,
    )


def from_json_text(text: str, path: str = "<json>") -> Transcript:
    """Parse JSON text and build the transcript (see :func:`from_json`)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TranscriptSyntaxError(
            f"not valid JSON: {exc.msg}", location=Location(path, exc.lineno, exc.colno)
        ) from None
    except RecursionError:
        raise TranscriptSyntaxError(f"{path}: JSON nested too deeply") from None
    except ValueError as exc:  # an integer too long for Python to read
        raise TranscriptSyntaxError(f"{path}: not a usable JSON form: {exc}") from None
    return from_json(data, path)
