"""A deviant engine of the adapter protocol's version 2, for tests/test_suite_family.py.

It is the family reference adapter, except where its command line makes it deviate:

- ``--accept RULE`` (repeatable): its ``replay`` accepts an event whose fault is that rule
  (``--accept play.head``: a player who does not head the trick is let be);
- ``--score``: its ``= score`` claim gives the first seat one chip (or point) more;
- ``--all-cards``: its ``legal`` answer in a trick offers every card the seat holds.

``suite`` must fail exactly the cases these deviations reach, and pass the rest.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from baloot_conformance.family.engine.deck import cards_of
from baloot_conformance.family.rules.loading import load_trick_ruleset
from baloot_conformance.family.rules.model import TrickRuleset
from baloot_conformance.suite import family_truth as truth
from baloot_conformance.suite.family_reference_adapter import FamilyReferenceAdapter, serve


class Deviant(FamilyReferenceAdapter):
    def __init__(self, args: argparse.Namespace) -> None:
        super().__init__()
        self.args = args

    def replay(self, hands: Any, rules: TrickRuleset, ring: Any) -> dict[str, Any]:
        rejection = truth.first_rejection(hands, rules, ring)
        if rejection is not None and rejection.rule_id in self.args.accept:
            return {"accepted": True}
        return super().replay(hands, rules, ring)

    def answer(self, request: dict[str, Any]) -> dict[str, Any] | None:
        answer = super().answer(request)
        if answer is None or "error" in answer:
            return answer
        if self.args.score and request.get("cmd") == "claims":
            for claim in answer["claims"]:
                if claim["claim"] == "score":
                    first = next(iter(claim["values"]))
                    claim["values"][first] += 1
        if self.args.all_cards and request.get("cmd") == "legal" and answer["cards"]:
            rules = load_trick_ruleset(request["ruleset"]["id"])
            transcript = truth.read_document(request["transcript"], rules, validate=False)
            hand = truth.hand_after(transcript.hands, rules, truth.ring_of(transcript, rules))
            if hand.phase == "tricks":
                seat = hand.names.index(request["seat"])
                codes = hand.pack.codes
                answer["cards"] = sorted(codes[c] for c in cards_of(hand.hands[seat]))
        return answer


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--accept", action="append", default=[])
    parser.add_argument("--score", action="store_true")
    parser.add_argument("--all-cards", action="store_true")
    serve(Deviant(parser.parse_args()), sys.stdin, sys.stdout)
