"""The messages of the adapter protocol, version 2, and their validation.

Version 2 is version 1's session (``start``, requests with a ``seq``, ``stop``) carrying BTN 2
transcripts of the trick family (``docs/protocol.md``, Version 2). Every message has a
definition in ``spec/schema/protocol2.schema.json``, whose transcripts are BTN 2's JSON form
(``spec/schema/btn2.schema.json``, referenced by its ``$id``); an answer that breaks its
definition is named as version 1 names it (the field, what was expected).
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

from baloot_conformance.resources import spec_path
from baloot_conformance.suite.protocol import _short

PROTOCOL2 = 2
"""The version of the protocol that carries BTN 2."""

SCHEMA_FILE = "protocol2.schema.json"

#: The definition an answer to each command must match (besides ``skipped``/``errored``).
ANSWERS = {
    "start": "started",
    "replay": "replayed",
    "legal": "legalAnswer",
    "claims": "claimsAnswer",
}

#: The requests of version 2, which an engine lists among its capabilities.
REQUESTS = frozenset({"replay", "legal", "claims"})


@cache
def schema() -> dict[str, Any]:
    """The JSON Schema of version 2's messages (one ``$defs`` entry each)."""
    with spec_path("schema", SCHEMA_FILE).open(encoding="utf-8") as handle:
        loaded: dict[str, Any] = json.load(handle)
    return loaded


@cache
def _validator(name: str) -> Any:
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    from baloot_conformance.family.btn import json_form as btn2_json  # only for version 2

    document = schema()
    btn2 = btn2_json.schema()
    registry: Registry[Any] = Registry().with_resources(
        (
            (document["$id"], Resource.from_contents(document)),
            (btn2["$id"], Resource.from_contents(btn2)),
        )
    )
    definition = {"$ref": f"{document['$id']}#/$defs/{name}"}
    return Draft202012Validator(definition, registry=registry)


def problem(message: Any, definition: str) -> str | None:
    """What is wrong with ``message`` as a ``definition`` message of version 2, or ``None``."""
    errors = list(_validator(definition).iter_errors(message))
    if not errors:
        return None
    errors.sort(key=lambda e: (len(e.absolute_path), [str(p) for p in e.absolute_path]))
    first = errors[-1] if errors[0].validator in ("oneOf", "anyOf", "if") else errors[0]
    pointer = "".join(f"/{p}" for p in first.absolute_path) or "/"
    return f"at {pointer}: {_short(first.message)}"


def answer_problem(command: str, answer: Any) -> str | None:
    """What is wrong with ``answer`` as version 2's answer to ``command`` (any request but
    ``start`` may also be answered with ``skip`` or ``error``)."""
    if _plainly_valid(command, answer):
        return None
    if command != "start" and isinstance(answer, dict):
        if "skip" in answer:
            return problem(answer, "skipped")
        if "error" in answer:
            return problem(answer, "errored")
    return problem(answer, ANSWERS[command])


_CARD = re.compile(r"[2-9TJQKA][SHDC]\Z")
_ACTION = re.compile(r"(bid|raise|knock) [A-Z][A-Z0-9]{0,2}(,? [A-Za-z0-9_]+)*\Z")


def _plainly_valid(command: str, answer: Any) -> bool:
    """The common answers, checked without the schema (a run asks thousands of times)."""
    if type(answer) is not dict or type(answer.get("seq")) is not int or answer["seq"] < 1:
        return False
    if command == "legal" and answer.keys() == {"seq", "cards", "actions"}:
        cards, actions = answer["cards"], answer["actions"]
        return (
            type(cards) is list
            and type(actions) is list
            and all(type(c) is str and _CARD.match(c) for c in cards)
            and all(type(a) is str and len(a) <= 200 and _ACTION.match(a) for a in actions)
            and len(set(cards)) == len(cards)
            and len(set(actions)) == len(actions)
        )
    if command == "claims" and answer.keys() == {"seq", "claims"}:
        claims = answer["claims"]
        return type(claims) is list and len(claims) <= 200 and all(map(_plain_claim, claims))
    return command == "replay" and answer == {"seq": answer["seq"], "accepted": True}


_SEAT = re.compile(r"[A-Z][A-Z0-9]{0,2}\Z")
_SIDES = frozenset({"tricks", "pot", "pays", "score", "points", "total"})
_SIGNED = frozenset({"score", "points", "total"})


def _plain_claim(claim: Any) -> bool:
    """A closing claim in its plainest form (``{"claim": "score", "values": {...}}`` or an
    ``order``); anything else is left to the schema."""
    if type(claim) is not dict:
        return False
    name = claim.get("claim")
    if name in _SIDES and claim.keys() == {"claim", "values"}:
        values = claim["values"]
        return (
            type(values) is dict
            and len(values) >= 1
            and all(
                type(s) is str
                and _SEAT.match(s)
                and type(n) is int
                and (0 if name not in _SIGNED else -999_999_999) <= n <= 999_999_999
                for s, n in values.items()
            )
        )
    if name == "order" and claim.keys() == {"claim", "seats"}:
        seats = claim["seats"]
        return (
            type(seats) is list
            and len(seats) >= 1
            and all(type(s) is str and _SEAT.match(s) for s in seats)
        )
    return False
