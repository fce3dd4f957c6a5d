"""The JSON form of BTN (schema ``spec/schema/btn.schema.json``), both ways, without loss.

Engines that prefer JSON never parse text: a JSON transcript holds the same events, claims
and comments as the BTN text, in the same order. Positions are written out for readers and
recomputed on input (they are derived). JSON input goes through the same structural checks as
text (a card dealt twice, a claim before its event, ...), so both forms accept the same
transcripts: a string the text could not hold on its line (a line break, a NUL, a lone
surrogate in a comment, a tag value or a word) is refused at its JSON pointer, as the writer
(:func:`~baloot_conformance.btn.writer.text_problem`) would refuse to write it.
"""

from __future__ import annotations

import dataclasses
import io
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cache
from typing import IO, Any, Protocol

from baloot_conformance.btn.builder import HandBuilder
from baloot_conformance.btn.grammar import Stmt
from baloot_conformance.btn.items import (
    TEAM_CLAIMS,
    Baloot,
    Call,
    CallVerdictClaim,
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
    Kawesh,
    LegalClaim,
    Play,
    Rest,
    ResultClaim,
    Sawa,
    Start,
    Tag,
    TeamClaim,
    Transcript,
    TrickClaim,
    WinnerClaim,
)
from baloot_conformance.btn.lines import _Errors
from baloot_conformance.btn.reader import load_metadata
from baloot_conformance.btn.writer import text_problem
from baloot_conformance.cards import Card, Suit
from baloot_conformance.errors import Location, TranscriptSyntaxError
from baloot_conformance.resources import spec_path
from baloot_conformance.rules.strict_yaml import plain_yaml

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


def item_json(item: HandItem) -> dict[str, Any]:
    """One event, claim or comment in its JSON form."""
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
    elif isinstance(item, Sawa):
        out = {"event": "sawa", "seat": item.seat}
    elif isinstance(item, Kawesh):
        out = {"event": "kawesh", "seat": item.seat}
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
    elif isinstance(item, CallVerdictClaim):
        out = {"claim": item.call, "verdict": item.verdict}
    else:  # pragma: no cover - every item type is handled above
        raise TypeError(f"not a BTN item: {item!r}")
    return placed(out, item)


class Placed(Protocol):
    """An item of either BTN version: where it is and its end-of-line comment."""

    @property
    def position(self) -> str: ...
    @property
    def comment(self) -> str | None: ...


class HandLike(Protocol):
    """A hand of either BTN version, as its JSON form needs it."""

    @property
    def number(self) -> int: ...
    @property
    def comment(self) -> str | None: ...
    @property
    def items(self) -> Sequence[Any]: ...


class Head(Protocol):
    """What either BTN version's transcript holds before its hands."""

    @property
    def version(self) -> str: ...
    @property
    def metadata(self) -> Mapping[str, Any] | None: ...
    @property
    def metadata_text(self) -> str | None: ...
    @property
    def header(self) -> Sequence[Any]:
        """Header tags (``name``, ``value``, ``comment``) and whole-line comments (``text``)."""


def placed(out: dict[str, Any], item: Placed) -> dict[str, Any]:
    """``out``, an item's JSON form, with the item's position and comment."""
    out["position"] = item.position
    if item.comment is not None:
        out["comment"] = item.comment
    return out


def hand_json(
    hand: HandLike, item_form: Callable[[Any], dict[str, Any]] = item_json
) -> dict[str, Any]:
    """One hand in its JSON form, each item as ``item_form`` writes it (BTN 1's by
    default; BTN 2 passes its own)."""
    out: dict[str, Any] = {"hand": hand.number}
    if hand.comment is not None:
        out["comment"] = hand.comment
    out["items"] = [item_form(i) for i in hand.items]
    return out


def head_json(transcript: Head) -> dict[str, Any]:
    """The JSON form of everything but the hands, alike in both BTN versions: the version,
    the fixture metadata and the header's tags and comments in file order."""
    out: dict[str, Any] = {"btn": transcript.version}
    if transcript.metadata is not None:
        out["metadata"] = dict(transcript.metadata)
    if transcript.metadata_text is not None:
        out["metadataText"] = transcript.metadata_text
    header: list[dict[str, Any]] = []
    for entry in transcript.header:
        if hasattr(entry, "name"):
            tag: dict[str, Any] = {"tag": entry.name, "value": entry.value}
            if entry.comment is not None:
                tag["comment"] = entry.comment
            header.append(tag)
        else:
            header.append({"comment": entry.text})
    out["header"] = header
    return out


def to_json(transcript: Transcript) -> dict[str, Any]:
    """The JSON form of a transcript, as Python data ready for :func:`json.dumps`."""
    return {**head_json(transcript), "hands": [hand_json(h) for h in transcript.hands]}


def json_chunks(head: Transcript, hands: Iterable[Hand]) -> Iterator[str]:
    """The JSON form as text, a hand at a time (``head``'s own hands are ignored): the same
    text as ``json.dumps(..., indent=2)`` of the whole, which never sits in memory."""
    text = json.dumps(head_json(head), ensure_ascii=False, indent=2)
    yield text[: text.rindex("\n}")] + ',\n  "hands": ['
    first = True
    for hand in hands:
        body = json.dumps(hand_json(hand), ensure_ascii=False, indent=2).replace("\n", "\n    ")
        yield ("\n    " if first else ",\n    ") + body
        first = False
    yield "]\n}\n" if first else "\n  ]\n}\n"


def to_json_text(transcript: Transcript) -> str:
    """The JSON form as text: UTF-8 friendly, two-space indent, one final newline."""
    return "".join(json_chunks(transcript, transcript.hands))


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
_JUDGED = ("sawa", "foul")  # the calls a verdict claim judges (= sawa right)


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
        if claim in TEAM_CLAIMS:
            name = "claim-team"
        elif claim in _JUDGED:
            name = "claim-verdict"
        else:
            name = f"claim-{claim}"
    elif "event" not in item and "claim" not in item:
        name = "comment"
    else:
        name = "item"
    return name if isinstance(name, str) and name in names else "item"


def _check_strings(value: Any, path: str, pointer: str) -> None:
    """Refuse a string of ``value`` (an item, a header entry: its strings and lists of
    strings) that BTN text cannot hold on one line, naming its JSON pointer."""
    if not isinstance(value, dict):
        return
    for key, field in value.items():
        texts = field if isinstance(field, list) else [field]
        for index, text in enumerate(texts):
            if isinstance(text, str) and (problem := text_problem(text)) is not None:
                where = f"{pointer}/{key}" + (f"/{index}" if isinstance(field, list) else "")
                raise _error(path, where, f"a string BTN cannot write on one line: {problem}")


def _raise_first(errors: list[Any], path: str, prefix: str) -> None:
    if errors:
        errors.sort(key=lambda e: [str(p) for p in e.absolute_path])
        first = errors[0]
        pointer = prefix + "".join(f"/{p}" for p in first.absolute_path)
        raise TranscriptSyntaxError(
            f"{path}: not a BTN JSON document: at {pointer or '/'}: {first.message}",
            hint=f"{len(errors)} problem(s) here; the schema is spec/schema/btn.schema.json",
        )


def item_problem(item: Any) -> str | None:
    """What is wrong with one item of the JSON form, or ``None`` (the first problem, with
    its JSON pointer inside the item)."""
    errors = sorted(
        _validator(_definition(item)).iter_errors(item),
        key=lambda e: [str(p) for p in e.absolute_path],
    )
    if not errors:
        return None
    pointer = "".join(f"/{p}" for p in errors[0].absolute_path)
    return f"{pointer + ': ' if pointer else ''}{errors[0].message}"


def _validate_items(hand: Any, path: str, pointer: str) -> None:
    for i_index, item in enumerate(hand["items"]):
        validator = _validator(_definition(item))
        _raise_first(list(validator.iter_errors(item)), path, f"{pointer}/items/{i_index}")


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
        elif kind == "foul":
            values = (obj["seat"], obj["target"], tuple(obj.get("words", ())))
        else:  # sawa, kawesh
            values = (obj["seat"],)
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
    elif name in _JUDGED:
        values = (obj["verdict"],)
    else:  # kaboot, winner
        values = (obj["team"],)
    return ("=" + name, values, number, 1, comment)


def _head(data: Any, path: str, validate: bool = True) -> Transcript:
    """The transcript's version, header and metadata from the JSON form without its hands
    (validated against the schema, unless ``validate`` is false)."""
    if validate:
        _raise_first(list(_validator().iter_errors(data)), path, "")
    version = data["btn"]
    if int(version.split(".")[0]) != 1:
        raise _error(path, "/btn", f"unknown BTN version {version}: this reader knows version 1")
    header: list[Tag | Comment] = []
    names: set[str] = set()
    for index, entry in enumerate(data["header"]):
        _check_strings(entry, path, f"/header/{index}")
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
        metadata_text = plain_yaml(metadata)
    return Transcript(
        version=version,
        header=tuple(header),
        hands=(),
        metadata=metadata,
        metadata_text=metadata_text,
    )


def hand_from_json(hand: Any, index: int, path: str, seen: set[int], validate: bool = True) -> Hand:
    """The ``index``-th hand of a JSON document (validated), checked like text; ``seen``
    collects the hand numbers, which must differ. Each item's line is its index. Only data
    the kit built itself may skip the schema (``validate`` false): it is the slow part."""
    pointer = f"/hands/{index}"
    shallow = dict(hand, items=[]) if isinstance(hand, dict) else hand
    if isinstance(hand, dict) and not isinstance(hand.get("items"), list):
        shallow = hand
    if validate:
        _raise_first(list(_validator("hand").iter_errors(shallow)), path, pointer)
        _validate_items(hand, path, pointer)
        _check_strings(shallow, path, pointer)
        for i_index, obj in enumerate(hand["items"]):
            _check_strings(obj, path, f"{pointer}/items/{i_index}")
    number = hand["hand"]
    if number in seen:
        raise _error(path, pointer, f"a second 'hand {number}'")
    seen.add(number)
    errors = _Errors(f"{path}#{pointer}/items")
    builder = HandBuilder(number, 0, 1, hand.get("comment"), errors)
    for i_index, obj in enumerate(hand["items"]):
        builder.add(_stmt(obj, i_index))
    return builder.finish()


def from_json(data: Any, path: str = "<json>", validate: bool = True) -> Transcript:
    """Build a transcript from its JSON form (validated against the schema, then checked
    like text: a card dealt twice, a claim before its event, ...). Without ``validate``
    the hands skip the schema (see :func:`hand_from_json`)."""
    if not isinstance(data, dict) or not isinstance(data.get("hands"), list):
        _raise_first(list(_validator().iter_errors(data)), path, "")
    head = _head({**data, "hands": []}, path, validate)
    seen: set[int] = set()
    hands = tuple(hand_from_json(h, i, path, seen, validate) for i, h in enumerate(data["hands"]))
    return dataclasses.replace(head, hands=hands)


def from_json_text(text: str, path: str = "<json>") -> Transcript:
    """Parse JSON text and build the transcript (see :func:`from_json`)."""
    reader = JsonReader(io.StringIO(text), path)
    return dataclasses.replace(reader.head, hands=tuple(reader))


class HandFeed:
    """A hand of the JSON form built item by item, without the schema (for data the kit
    built itself): positions as :func:`hand_from_json` gives them, at the cost of the new
    items only."""

    def __init__(self, number: int, path: str = "<json>") -> None:
        self._builder = HandBuilder(number, 0, 1, None, _Errors(path))
        self.count = 0

    def extend(self, items: Iterable[Mapping[str, Any]]) -> None:
        for obj in items:
            self._builder.add(_stmt(obj, self.count))
            self.count += 1

    def hand(self) -> Hand:
        return self._builder.finish()


class JsonReader:
    """The JSON form read as a stream: ``head`` (version, header, metadata) at once, then
    the hands one at a time, so that a large transcript never sits in memory. The hands
    stream when the document gives its header before them (as this kit writes it); a
    document with ``hands`` first is held until its header has been read."""

    _CHUNK = 1 << 16

    def __init__(self, stream: IO[str], path: str = "<json>") -> None:
        self.path = path
        self._stream = stream
        self._buf = ""
        self._pos = 0
        self._eof = False
        self._lines_before = 0  # newlines in the text dropped from the buffer
        self._decoder = json.JSONDecoder()
        self._held: list[Any] | None = None
        head: dict[str, Any] = {}
        self._expect("{")
        while self._peek() != "}":
            if head or self._held is not None:
                self._expect(",")
            key = self._value()
            self._expect(":")
            if key == "hands" and self._peek() == "[":
                if "header" in head and "btn" in head:
                    break  # stream the hands from here
                self._held = self._value()
            else:
                head[key] = self._value()
        else:
            self._pos += 1
        self._streaming = self._held is None and self._peek() == "["
        if self._held is None and not self._streaming:
            raise TranscriptSyntaxError(f"{path}: not a BTN JSON document: no 'hands' list")
        self.head = _head({**head, "hands": []}, path)

    def __iter__(self) -> Iterator[Hand]:
        seen: set[int] = set()
        if self._held is not None:
            for index, hand in enumerate(self._held):
                yield hand_from_json(hand, index, self.path, seen)
            return
        self._expect("[")
        index = 0
        while self._peek() != "]":
            if index:
                self._expect(",")
            yield hand_from_json(self._value(), index, self.path, seen)
            index += 1
        self._pos += 1
        while self._peek() == ",":  # keys after the hands
            self._pos += 1
            key = self._value()
            self._expect(":")
            self._value()
            if key in ("btn", "header", "metadata", "metadataText"):
                raise _error(self.path, f"/{key}", "a second value after the hands")
        self._expect("}")
        if self._peek():
            raise TranscriptSyntaxError(f"{self.path}: text after the JSON document")

    # --- an incremental JSON scanner over the stream -----------------------------------------

    def _fill(self) -> bool:
        if self._eof:
            return False
        chunk = self._stream.read(self._CHUNK)
        if not chunk:
            self._eof = True
            return False
        self._lines_before += self._buf.count("\n", 0, self._pos)
        self._buf = self._buf[self._pos :] + chunk
        self._pos = 0
        return True

    def _error(self, message: str, index: int) -> TranscriptSyntaxError:
        """``message`` at buffer position ``index``, as ``file:line:col``."""
        line = self._lines_before + self._buf.count("\n", 0, index) + 1
        column = index - self._buf.rfind("\n", 0, index)
        return TranscriptSyntaxError(message, location=Location(self.path, line, column))

    def _peek(self) -> str:
        """The next character that is not white space ('' at the end)."""
        while True:
            while self._pos < len(self._buf) and self._buf[self._pos] in " \t\r\n":
                self._pos += 1
            if self._pos < len(self._buf) or not self._fill():
                return self._buf[self._pos : self._pos + 1]

    def _expect(self, char: str) -> None:
        found = self._peek()
        if found != char:
            shown = repr(found) if found else "the end"
            raise self._error(f"not valid JSON: expected {char!r}, found {shown}", self._pos)
        self._pos += 1

    def _value(self) -> Any:
        self._peek()
        while True:
            try:
                value, end = self._decoder.raw_decode(self._buf, self._pos)
            except json.JSONDecodeError as exc:
                if self._fill():
                    continue
                raise self._error(f"not valid JSON: {exc.msg}", exc.pos) from None
            except RecursionError:
                raise TranscriptSyntaxError(f"{self.path}: JSON nested too deeply") from None
            except ValueError as exc:  # an integer too long for Python to read
                raise TranscriptSyntaxError(f"{self.path}: not a usable JSON form: {exc}") from None
            if end == len(self._buf) and not self._eof and self._fill():
                continue  # a number may go on in the next chunk
            self._pos = end
            return value
