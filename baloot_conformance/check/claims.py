"""The claims of a hand judged: each compared with the engine's own figure where it stands.

A claim is what an engine computed (``= E`` for a trick's winner, ``= score NS 0 EW 23``, the
legal cards before a card, the contract, the result, a Kaboot, the game's winner). Each kind
has its judge below, reached through :func:`judge_claim`; a wrong claim is a ``wrong_claim``
divergence naming the rule that decides the figure, with the expected and the claimed value
as the notation writes them. The judges read the :class:`~baloot_conformance.check.events.
HandChecker` and change nothing in the replay but what the claim itself establishes (a
partial transcript starts from its ``= contract`` claim; a ``= total`` is where the next hand
goes on from).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from baloot_conformance import btn
from baloot_conformance.check.events import HandChecker
from baloot_conformance.check.words import contract_words, result_word
from baloot_conformance.engine.actions import Action, call_action
from baloot_conformance.engine.hand import Hand
from baloot_conformance.engine.model import (
    SEAT_NAMES,
    TEAM_NAMES,
    CardSet,
    Contract,
    IllegalAction,
    card_set,
    cards_of,
    format_cards,
    seat_from_name,
)
from baloot_conformance.engine.scoring import HandResult
from baloot_conformance.rules.ruleset import Ruleset


def judge_claim(checker: HandChecker, item: btn.Claim) -> None:
    """Compare one claim with the engine's own figure at this point."""
    checker.claims += 1
    _CLAIM_HANDLERS[type(item)](checker, item)


def _claim_winner(checker: HandChecker, item: btn.WinnerClaim) -> None:
    winner = checker.game.winner
    expected = TEAM_NAMES[winner] if winner is not None else "none"
    if item.team != expected:
        checker.diverge(
            item,
            "wrong_claim",
            checker.rules.game.target.id,
            f"{expected} won the game"
            if winner is not None
            else f"the game is not over (totals {_pair_words(checker.game.totals)})",
            expected=expected,
            claimed=item.team,
        )


def _claim_legal(checker: HandChecker, item: btn.LegalClaim) -> None:
    engine = checker.engine
    if engine is not None and engine.phase in ("auction", "completion"):
        engine.settle_auction()  # the first card's legal set: the deal is complete by then
        if engine.phase == "completion":
            checker.complete(item)
    if engine is None or engine.phase not in ("raises", "play"):
        checker.diverge(item, "wrong_claim", None, "a legal-set claim before the play")
        return
    seat = seat_from_name(item.seat)
    legal = engine.legal_cards()
    claimed = card_set(item.cards)
    if seat != engine.to_play():
        checker.diverge(
            item,
            "wrong_claim",
            checker.rules.play.first_lead.id,
            f"the legal set is claimed for {item.seat}, but "
            f"{SEAT_NAMES[engine.to_play()]} plays next",
        )
    elif claimed != legal:
        checker.diverge(
            item,
            "wrong_claim",
            _legal_rule(checker.rules, engine, legal, claimed),
            f"{item.seat} may play {format_cards(legal)}, not {format_cards(claimed)} "
            f"(holds {format_cards(engine.hands[seat])})",
            expected=format_cards(legal),
            claimed=format_cards(claimed),
        )


def _claim_calls(checker: HandChecker, item: btn.LegalCallsClaim) -> None:
    """An engine's legal calls before a call event (``suite``), compared as sets."""
    engine = checker.engine_at(item)
    seat = seat_from_name(item.seat)
    aliases = checker.rules.bidding.call_words.aliases
    claimed = frozenset(
        " ".join([aliases.get(word, word), *rest])
        for word, *rest in (call.split(" ") for call in item.calls)
    )
    legal, _ = checker.legal_now(item, seat)
    engine = checker.engine or engine
    if claimed == legal:
        return
    wrong = sorted(claimed ^ legal)[0]
    rule: str | None
    if wrong in legal:
        rule = (
            engine.auction.window_rule() if item.phase == "bid" else checker.rules.doubling.chain.id
        )
        if wrong in ("closed", "open"):
            rule = checker.rules.doubling.lock.id
    else:
        rule = _refusing_rule(engine, call_action(seat, item.phase, wrong))
    checker.diverge(
        item,
        "wrong_claim",
        rule,
        f"{item.seat} may call {_call_list(legal)}, not {_call_list(claimed)}",
        expected=_call_list(legal),
        claimed=_call_list(claimed),
    )


def _claim_contract(checker: HandChecker, item: btn.ContractClaim) -> None:
    if checker.partial and checker.engine is None:
        checker.start_from_contract(item)
        return
    engine = checker.engine
    if engine is not None:
        engine.settle_auction()
    contract = engine.contract if engine is not None else None
    if item.buyer is None:
        void = engine is not None and bool(engine.void_reason)  # all pass, Kawesh, an Ace
        if not void:
            checker.diverge(
                item,
                "wrong_claim",
                checker.rules.bidding.all_pass.id,
                "the hand has a contract"
                if contract
                else "the auction is not over: no contract yet",
                expected=contract_words(contract),
                claimed="none",
            )
        return
    if contract is None:
        open_auction = engine is not None and engine.phase == "auction"
        rule = checker.rules.bidding.all_pass.id if engine and engine.void_reason else None
        message = "the claimed contract does not exist at this point"
        if engine is not None and open_auction:
            rule = engine.auction.window_rule()
            message = (
                f"the auction is not over: it is {SEAT_NAMES[engine.auction.to_call()]}'s "
                "call, so there is no contract yet"
            )
        checker.diverge(
            item,
            "wrong_claim",
            rule,
            message,
            expected="none",
            claimed=_claim_words(item),
        )
        return
    expected = contract_words(contract, item.multiplier is not None, item.lock is not None)
    claimed = _claim_words(item)
    if contract.kind == "sun" and claimed.endswith(" open"):
        claimed = claimed[: -len(" open")]  # a Sun is always open: saying so is no error
    if claimed != expected:
        checker.diverge(
            item,
            "wrong_claim",
            _contract_rule(checker.rules, contract, item),
            f"the contract is {expected}, not {_claim_words(item)}",
            expected=expected,
            claimed=_claim_words(item),
        )


def _claim_trick(checker: HandChecker, item: btn.TrickClaim) -> None:
    if item.trick > len(checker.tricks):
        checker.diverge(item, "wrong_claim", None, f"trick {item.trick} is not complete")
        return
    winner, points = checker.tricks[item.trick - 1]
    if item.winner != SEAT_NAMES[winner]:
        checker.diverge(
            item,
            "wrong_claim",
            checker.rules.play.trick_winner.id,
            f"trick {item.trick} is won by {SEAT_NAMES[winner]}, not {item.winner}",
            expected=SEAT_NAMES[winner],
            claimed=item.winner,
        )
    elif item.points is not None and item.points != points:
        checker.diverge(
            item,
            "wrong_claim",
            checker.rules.cards.points_trump.id
            if checker.engine
            and checker.engine.contract
            and checker.engine.contract.kind == "hokum"
            else checker.rules.cards.points_plain.id,
            f"trick {item.trick} holds {points} card points, not {item.points}",
            expected=str(points),
            claimed=str(item.points),
        )


def _claim_team(checker: HandChecker, item: btn.TeamClaim) -> None:
    if item.name == "total":
        checker.claimed_total = claimed_total(item) or checker.claimed_total
    _claim_result(checker, item)


def _claim_result(checker: HandChecker, item: btn.Claim) -> None:
    result = checker.result
    if result is None:
        void = checker.engine is not None and checker.engine.is_over()
        if void and checker.engine is not None:
            result = checker.engine.result()
        else:
            checker.diverge(item, "wrong_claim", None, "the hand is not over yet")
            return
    score = result.score
    expected: str | None
    claimed: str
    if isinstance(item, btn.TeamClaim):
        expected_pair = _team_figure(checker, item.name, result)
        ns, ew = item.ns, item.ew
        if (ns is not None and ns != expected_pair[0]) or (
            ew is not None and ew != expected_pair[1]
        ):
            expected = _pair_words(expected_pair)
            claimed = _pair_words((ns, ew))
            judged = checker.engine.claim if checker.engine is not None else None
            why = f" ({judged.reason})" if judged is not None and item.name == "score" else ""
            checker.diverge(
                item,
                "wrong_claim",
                _team_rule(checker, item.name, result),
                f"{item.name} is {expected}, not {claimed}{why}",
                expected=expected,
                claimed=claimed,
            )
        return
    if isinstance(item, btn.ResultClaim):
        expected = result_word(result)
        if item.outcome != expected:
            decider = score.decided_by[0] if score and score.decided_by else None
            checker.diverge(
                item,
                "wrong_claim",
                decider,
                f"the result is {expected}, not {item.outcome}",
                expected=expected,
                claimed=item.outcome,
            )
    elif isinstance(item, btn.KabootClaim):
        team_ = score.kaboot_team if score else None
        expected = TEAM_NAMES[team_] if team_ is not None else "none"
        if item.team != expected:
            checker.diverge(
                item,
                "wrong_claim",
                checker.rules.scoring.kaboot.id,
                f"the Kaboot is {expected}'s, not {item.team}'s"
                if team_ is not None
                else f"no team took every trick ({item.team} claimed a Kaboot)",
                expected=expected,
                claimed=item.team,
            )


def _team_figure(checker: HandChecker, name: str, result: HandResult) -> tuple[int, int]:
    """The engine's figure for a per-team claim."""
    points = result.game_points
    if name == "total":
        return (checker.totals[0] + points[0], checker.totals[1] + points[1])
    if name == "score":
        return points
    if result.score is None:
        return (0, 0)
    figure: tuple[int, int] = getattr(result.score, _SCORE_FIGURES[name])
    return figure


def _team_rule(checker: HandChecker, name: str, result: HandResult) -> str:
    """The rule that decides a per-team claim's figure (named when the claim is wrong)."""
    score = result.score
    rules = checker.rules
    if name == "total":
        return rules.game.target.id
    if name == "score":
        deciders = [r for r in (score.decided_by if score else ()) if r != "scoring.round_value"]
        return deciders[-1] if deciders else rules.scoring.round_value.id
    if score is None:
        return rules.bidding.all_pass.id
    hokum = result.contract is not None and result.contract.kind == "hokum"
    conversion = rules.scoring.hokum_conversion if hokum else rules.scoring.sun_conversion
    return {
        "abnat": rules.cards.last_trick.id,
        "aklat": rules.cards.points_plain.id,
        "projects": rules.projects.comparison.id,
        "cardscore": conversion.id,
        "projectscore": rules.projects.comparison.id,
    }[name]


def _claim_verdict(checker: HandChecker, item: btn.CallVerdictClaim) -> None:
    """``= sawa right``, ``= foul wrong``: what the engine decided about the hand's claim."""
    engine = checker.engine
    judged = engine.claim if engine is not None else None
    rules = checker.rules
    rule = rules.claims.sawa.id if item.call == "sawa" else rules.play.fouls.id
    if judged is None or judged.kind != item.call:
        checker.diverge(
            item, "wrong_claim", rule, f"no {item.call} was judged in this hand before this claim"
        )
        return
    expected = "right" if judged.right else "wrong"
    if item.verdict != expected:
        checker.diverge(
            item,
            "wrong_claim",
            rule,
            judged.reason,
            expected=expected,
            claimed=item.verdict,
        )


_CLAIM_HANDLERS: dict[type[btn.Claim], Callable[[HandChecker, Any], None]] = {
    btn.TrickClaim: _claim_trick,
    btn.TeamClaim: _claim_team,
    btn.ContractClaim: _claim_contract,
    btn.LegalClaim: _claim_legal,
    btn.LegalCallsClaim: _claim_calls,
    btn.ResultClaim: _claim_result,
    btn.KabootClaim: _claim_result,
    btn.WinnerClaim: _claim_winner,
    btn.CallVerdictClaim: _claim_verdict,
}
"""The judge of each kind of claim."""


#: The field of HandScore behind each per-team claim of the hand's figures.
_SCORE_FIGURES = {
    "abnat": "abnat",
    "aklat": "aklat",
    "projects": "projects",
    "cardscore": "card_scores",
    "projectscore": "project_scores",
}


def claimed_total(item: btn.HandItem) -> tuple[int, int] | None:
    """The running totals a ``= total`` claim states, when it states both."""
    if not (type(item) is btn.TeamClaim and item.name == "total"):
        return None
    return None if item.ns is None or item.ew is None else (item.ns, item.ew)


def _refusing_rule(engine: Hand, action: Action) -> str | None:
    """The rule that refuses ``action`` now (on a copy of the hand)."""
    try:
        engine.copy().push(action)
    except IllegalAction as exc:
        return exc.rule_id
    return None


def _call_list(calls: frozenset[str]) -> str:
    return ", ".join(sorted(calls)) or "nothing"


def _pair_words(pair: tuple[int | None, int | None]) -> str:
    return " ".join(
        f"{name} {value}"
        for name, value in zip(("NS", "EW"), pair, strict=True)
        if value is not None
    )


def _claim_words(item: btn.ContractClaim) -> str:
    words = [item.buyer or "none", item.kind or ""]
    if item.trump is not None:
        words.append(item.trump.value)
    if item.multiplier is not None and item.multiplier > 1:
        words.append(f"x{item.multiplier}")
    if item.lock is not None:
        words.append(item.lock)
    return " ".join(w for w in words if w)


def _contract_rule(rules: Ruleset, contract: Contract, item: btn.ContractClaim) -> str:
    if item.buyer is not None and seat_from_name(item.buyer) != contract.buyer:
        return rules.bidding.ashkal.id if contract.ashkal else rules.bidding.order.id
    if item.kind != contract.kind:
        return rules.bidding.sun_over_hokum.id
    if item.multiplier is not None and item.multiplier != contract.level:
        return rules.doubling.chain.id
    if item.lock is not None:
        return rules.doubling.lock.id
    return rules.bidding.round2_hokum_suit.id


def _legal_rule(rules: Ruleset, engine: Hand, legal: CardSet, claimed: CardSet) -> str:
    """The rule that decides a wrongly claimed legal set: the one a claimed card breaks."""
    assert engine.play_rules is not None
    seat = engine.to_play()
    for card in cards_of(claimed & ~legal & engine.hands[seat]):
        try:
            engine.play_rules.check(engine.hands[seat], engine.trick, engine.leader, card)
        except IllegalAction as exc:
            return exc.rule_id
    return rules.play.follow_suit.id
