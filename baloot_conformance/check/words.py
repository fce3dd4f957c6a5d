"""The notation's words for what the engine computed, and the claims of a played hand.

The checker compares a claim with these words (``N hokum S x2 closed``, ``made``,
``hundred``); the generator (:mod:`baloot_conformance.corpus.generate`) and the reference adapter
write the same words as claims (:func:`contract_claim`, :func:`result_claims`), so that a
claim written by the kit is judged right by the kit by construction.
"""

from __future__ import annotations

from collections.abc import Iterator

from baloot_conformance import btn
from baloot_conformance.cards import Card
from baloot_conformance.engine.game import Game
from baloot_conformance.engine.hand import Hand
from baloot_conformance.engine.model import SEAT_NAMES, TEAM_NAMES, CardSet, Contract, cards_of
from baloot_conformance.engine.scoring import HandResult

#: How the notation names each project of the rulesets (both hundreds are "hundred").
PROJECT_WORDS = {
    "sira": "sira",
    "fifty": "fifty",
    "hundred.sequence": "hundred",
    "hundred.four_of_a_kind": "hundred",
    "four_hundred": "four_hundred",
}


_RESULT_WORDS = {"made": "made", "failed": "failed", "split": "tie"}


def result_word(result: HandResult) -> str:
    """The notation's word for a hand's outcome, as the buyer sees it: made, failed or tie."""
    score = result.score
    if score is None or result.contract is None:
        return "none"
    if score.outcome == "penalty":  # a wrong Sawa or a foul call: as the buyer's side fares
        return "made" if score.penalty_team == result.contract.buyer_team else "failed"
    if score.outcome in ("kaboot", "reverse_kaboot"):
        return (
            "made"
            if score.kaboot_team == result.contract.buyer_team and score.outcome == "kaboot"
            else "failed"
        )
    return _RESULT_WORDS[score.outcome]


def contract_words(contract: Contract | None, level: bool = True, lock: bool = True) -> str:
    """A contract as the notation writes it: ``N hokum S x2 closed``, ``W sun``, ``none``."""
    if contract is None:
        return "none"
    words = [SEAT_NAMES[contract.buyer], contract.kind]
    if contract.trump is not None:
        words.append(contract.trump.value)
    if level and contract.level > 1:
        words.append(f"x{contract.level}")
    if lock and contract.kind == "hokum" and contract.level > 1:
        words.append("closed" if contract.locked else "open")
    return " ".join(words)


def rest_events(hand: Hand, prefix: str) -> Iterator[btn.Rest]:
    """The completion of the deal as ``rest`` events: the buyer's two cards besides the
    face-up card, three for everyone else; ``prefix`` is the hand's position (``h3``)."""
    hand.settle_auction()  # a Sun-claim window the play let lapse
    contract = hand.contract
    assert contract is not None
    for seat in range(4):
        rest: CardSet = hand.initial[seat] & ~hand.first_five[seat]
        if seat == contract.receiver:
            rest &= ~(1 << hand.faceup.index)
        name = SEAT_NAMES[seat]
        yield btn.Rest(position=f"{prefix}.rest.{name}", seat=name, cards=card_list(rest))


def contract_claim(hand: Hand, prefix: str) -> btn.ContractClaim:
    """The ``= contract`` claim of a hand whose auction (and raises) are over; ``prefix`` is
    the hand's position (``h3``)."""
    contract, position = hand.contract, f"{prefix}.contract"
    if contract is None:
        return btn.ContractClaim(position=position, buyer=None)
    raised = contract.level > 1
    return btn.ContractClaim(
        position=position,
        buyer=SEAT_NAMES[contract.buyer],
        kind=contract.kind,
        trump=contract.trump,
        multiplier=contract.level if raised else None,
        lock=("closed" if contract.locked else "open")
        if raised and contract.kind == "hokum"
        else None,
    )


def result_claims(
    hand: Hand, game: Game, prefix: str, totals: tuple[int, int]
) -> Iterator[btn.Claim]:
    """The claims of a finished hand after its tricks: the score's figures, the result, a
    Kaboot, the score and the running ``totals`` (those before the hand) plus it, and the
    game's winner when this hand, recorded in ``game``, ended it."""
    p, result = prefix, hand.result()
    score = result.score
    if score is not None:
        figures = (
            ("abnat", score.abnat),
            ("aklat", score.aklat),
            ("projects", score.projects),
            ("cardscore", score.card_scores),
            ("projectscore", score.project_scores),
        )
        for name, (ns, ew) in figures:
            yield btn.TeamClaim(position=f"{p}.{name}", name=name, ns=ns, ew=ew)
        yield btn.ResultClaim(position=f"{p}.result", outcome=result_word(result))
        if score.kaboot_team is not None:
            yield btn.KabootClaim(position=f"{p}.kaboot", team=TEAM_NAMES[score.kaboot_team])
    ns, ew = result.game_points
    yield btn.TeamClaim(position=f"{p}.score", name="score", ns=ns, ew=ew)
    total = (totals[0] + ns, totals[1] + ew)
    yield btn.TeamClaim(position=f"{p}.total", name="total", ns=total[0], ew=total[1])
    if game.is_over() and game.results[-1] == result and game.winner is not None:
        yield btn.WinnerClaim(position=f"{p}.winner", team=TEAM_NAMES[game.winner])


def card_list(mask: CardSet) -> tuple[Card, ...]:
    """A set of cards as a line lists them (suit by suit, rank by rank)."""
    return tuple(cards_of(mask))
