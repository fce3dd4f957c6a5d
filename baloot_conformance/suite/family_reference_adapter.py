"""The reference adapter of the protocol's version 2: the trick family's engine behind it.

``python -m baloot_conformance.suite.reference_adapter --protocol 2`` (or ``python -m
baloot_conformance.suite.family_reference_adapter``) plays every shipped trick ruleset
(Bourré's, Barbu's, Hearts') and answers ``replay``, ``legal`` and ``claims`` from the family's
:class:`~baloot_conformance.family.engine.hand.TrickHand`, as ``check`` replays a BTN 2
transcript, so that ``suite`` passes it on every family case: it shows version 2 at work and
is the model for an engine's own adapter. ``--rulesets LIST`` declares only some rulesets
(the cases of the others are ``unsupported``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from functools import cache
from typing import Any, TextIO

from baloot_conformance.errors import BalootError
from baloot_conformance.family.rules.loading import load_trick_ruleset, shipped_trick_rulesets
from baloot_conformance.family.rules.model import TrickRuleset
from baloot_conformance.suite import family_truth as truth
from baloot_conformance.suite.protocol2 import PROTOCOL2
from baloot_conformance.version import __version__


class FamilyReferenceAdapter:
    """Answers version 2's requests (parsed JSON) with the trick family's reference engine."""

    def __init__(self, rulesets: Sequence[str] | None = None, validate: bool = False) -> None:
        self.rulesets = tuple(rulesets) if rulesets else tuple(sorted(shipped_trick_rulesets()))
        self.validate = validate
        """Whether each request's transcript is checked against the BTN 2 schema (slow; the
        kit's are valid)."""
        self.walk = truth.HandWalk()
        """The last ``legal`` or ``claims`` request's hand, replayed: the next request of a
        walk through a hand is a card longer, and its replay goes on from there."""

    def started(self) -> dict[str, Any]:
        return {
            "protocol": PROTOCOL2,
            "engine": {
                "name": "baloot-conformance family reference",
                "version": __version__,
                "language": "Python",
            },
            "rulesets": list(self.rulesets),
            "capabilities": ["replay", "legal", "claims"],
        }

    def answer(self, request: dict[str, Any]) -> dict[str, Any] | None:
        """The answer to one request, ``None`` for ``stop``."""
        command = request.get("cmd")
        if command == "start":
            return self.started()
        if command == "stop":
            return None
        seq = request.get("seq")
        try:
            rules = _shipped(request["ruleset"]["id"])
            transcript = truth.read_document(request["transcript"], rules, validate=self.validate)
            ring = truth.ring_of(transcript, rules)
            hands = transcript.hands
            if command == "replay":
                return {"seq": seq, **self.replay(hands, rules, ring)}
            if command == "legal":
                hand = truth.hand_after(hands, rules, ring, self.walk)
                return {"seq": seq, **truth.legal_now(hand, request["seat"])}
            if command == "claims":
                hand = truth.hand_after(hands, rules, ring, self.walk)
                return {"seq": seq, "claims": truth.closing_claims(hand, hands[-1].position)}
        except (BalootError, truth.NotPlayable, KeyError, TypeError, ValueError) as exc:
            return {"seq": seq, "error": f"{type(exc).__name__}: {exc}"}
        return {"seq": seq, "error": f"unknown command {command!r}"}

    def replay(self, hands: Any, rules: TrickRuleset, ring: Any) -> dict[str, Any]:
        """The ``replay`` answer (without its ``seq``): accepted, or the first event
        rejected."""
        rejection = truth.first_rejection(hands, rules, ring)
        if rejection is None:
            return {"accepted": True}
        return {
            "accepted": False,
            "hand": rejection.hand,
            "event": rejection.event,
            "reason": rejection.reason,
        }


@cache
def _shipped(ruleset_id: str) -> TrickRuleset:
    return load_trick_ruleset(ruleset_id)


def serve(adapter: FamilyReferenceAdapter, stdin: TextIO, stdout: TextIO) -> None:
    """Answer requests line by line until ``stop`` or the end of input."""
    for line in stdin:
        if not line.strip():
            continue
        answer = adapter.answer(json.loads(line))
        if answer is None:
            return
        stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
        stdout.flush()


def parser(prog: str = "python -m baloot_conformance.suite.family_reference_adapter") -> Any:
    """The command line of the adapter (shared with ``reference_adapter --protocol 2``)."""
    found = argparse.ArgumentParser(
        prog=prog,
        description="The reference engine adapter of the protocol's version 2: answers BTN 2 "
        "requests (JSON Lines on stdin/stdout) with the trick family's engine. Run it under "
        "'baloot-conformance suite --engine'.",
    )
    found.add_argument(
        "--rulesets",
        metavar="LIST",
        help="declare only these trick rulesets (comma-separated; default: every shipped one)",
    )
    found.add_argument(
        "--validate",
        action="store_true",
        help="check each request's transcript against the BTN 2 schema (slow)",
    )
    return found


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    return run(args.rulesets, args.validate)


def run(rulesets: str | None, validate: bool) -> int:
    """Serve standard input and output; 2 for a ruleset that is not shipped."""
    chosen = [r.strip() for r in rulesets.split(",") if r.strip()] if rulesets else None
    known = shipped_trick_rulesets()
    unknown = [r for r in chosen or () if r not in known]
    if unknown:
        print(
            f"error: not a shipped trick ruleset: {', '.join(unknown)} (the shipped ones: "
            f"{', '.join(sorted(known))})",
            file=sys.stderr,
        )
        return 2
    serve(FamilyReferenceAdapter(chosen, validate), sys.stdin, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
