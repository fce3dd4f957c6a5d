"""The messages of the adapter protocol, version 1, and their validation.

Every message has a definition in ``spec/schema/protocol.schema.json``; an engine's answer
that breaks its definition is named precisely (the field, what was expected), so that an
adapter's author can fix it from the report alone.
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

from baloot_conformance.btn import json_form
from baloot_conformance.cards import CARDS
from baloot_conformance.check.features import ALL as FEATURES
from baloot_conformance.check.features import unknown_feature
from baloot_conformance.resources import spec_path

PROTOCOL = 1
"""The protocol version this kit speaks."""

#: The definition an answer to each command must match (besides ``skipped``/``errored``).
ANSWERS = {
    "start": "started",
    "replay": "replayed",
    "legal": "legalAnswer",
    "claims": "claimsAnswer",
    "judge": "judgeAnswer",
    "perft": "perftAnswer",
}


@cache
def schema() -> dict[str, Any]:
    """The JSON Schema of the protocol's messages (one ``$defs`` entry each)."""
    with spec_path("schema", "protocol.schema.json").open(encoding="utf-8") as handle:
        loaded: dict[str, Any] = json.load(handle)
    return loaded


@cache
def _validator(name: str) -> Any:
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    document = schema()
    registry: Registry[Any] = Registry().with_resources(
        (
            (document["$id"], Resource.from_contents(document)),
            (json_form.schema()["$id"], Resource.from_contents(json_form.schema())),
        )
    )
    definition = {"$ref": f"{document['$id']}#/$defs/{name}"}
    return Draft202012Validator(definition, registry=registry)


def problem(message: Any, definition: str) -> str | None:
    """What is wrong with ``message`` as a ``definition`` message, in one sentence naming
    the field and what was expected, or ``None`` when it is valid."""
    errors = list(_validator(definition).iter_errors(message))
    if not errors:
        return None
    errors.sort(key=lambda e: (len(e.absolute_path), [str(p) for p in e.absolute_path]))
    first = errors[-1] if errors[0].validator in ("oneOf", "anyOf", "if") else errors[0]
    pointer = "".join(f"/{p}" for p in first.absolute_path) or "/"
    return f"at {pointer}: {_short(first.message)}"


def answer_problem(command: str, answer: Any) -> str | None:
    """What is wrong with ``answer`` as the answer to ``command`` (an engine may also answer
    any request but ``start`` with ``skip`` or ``error``)."""
    if _plainly_valid(command, answer):
        return None
    if command == "start":
        wrong = _feature_problem(answer)
        if wrong is not None:
            return wrong
    if command != "start" and isinstance(answer, dict):
        if "skip" in answer:
            return problem(answer, "skipped")
        if "error" in answer:
            return problem(answer, "errored")
    return problem(answer, ANSWERS[command])


def _feature_problem(answer: Any) -> str | None:
    """A ``started`` answer's unknown feature, named with the closest and the known ones (the
    schema's enum would say it less helpfully)."""
    listed = answer.get("features") if isinstance(answer, dict) else None
    if not isinstance(listed, list):
        return None
    for index, name in enumerate(listed):
        if isinstance(name, str) and name not in FEATURES:
            return f"at /features/{index}: {unknown_feature(name)}"
    return None


_CALL = re.compile(r"[a-z][a-z0-9_]*( ([a-z][a-z0-9_]*|[SHDC]))*\Z")
_CARD_CODES = frozenset(card.code for card in CARDS)


def _plainly_valid(command: str, answer: Any) -> bool:
    """The common answers, checked without the schema (it is slow, and a run asks
    thousands of times); anything else goes to the schema, which also names the problem."""
    if type(answer) is not dict or type(answer.get("seq")) is not int or answer["seq"] < 1:
        return False
    if command == "legal" and answer.keys() == {"seq", "calls", "cards"}:
        calls, cards = answer["calls"], answer["cards"]
        return (
            type(calls) is list
            and type(cards) is list
            and all(type(c) is str and _CALL.match(c) for c in calls)
            and all(type(c) is str and c in _CARD_CODES for c in cards)
            and len(set(calls)) == len(calls)
            and len(set(cards)) == len(cards)
        )
    return command == "replay" and answer == {"seq": answer["seq"], "accepted": True}


def _short(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."
