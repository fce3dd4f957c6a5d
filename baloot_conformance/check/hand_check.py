"""One hand on the reference path: its items in order, then the end of the hand.

:func:`check_hand` replays a hand item by item: events through the
:class:`~baloot_conformance.check.events.HandChecker`, claims through
:func:`~baloot_conformance.check.claims.judge_claim`, in the transcript's order, so that each
claim is judged where it stands. At the end of the hand come the claims that ``--require``
demands and the hand's verdict; the game goes on from the transcript's own running total.
Every hand the fast lane does not pass comes here, and every report's divergences. A hand
whose divergences all follow from engine defects the ruleset lists (under their rules, where
their ``when`` holds) is ``known-defect``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from baloot_conformance import btn
from baloot_conformance.check.claims import claimed_total, judge_claim
from baloot_conformance.check.events import PLAYS_OF, HandChecker, ReplayStop
from baloot_conformance.check.verdicts import Divergence, DivergenceKind, EngineId, HandVerdict
from baloot_conformance.engine.actions import FoulCall, SawaClaim
from baloot_conformance.engine.game import Game
from baloot_conformance.engine.model import IllegalAction, Seat
from baloot_conformance.errors import FormulaError, Location
from baloot_conformance.rules.defects import DefectCondition
from baloot_conformance.rules.ruleset import Ruleset

#: What ``--require`` can demand, for a strict gate: the claims, and the auction (a hand
#: that logs no auction, or not enough of it to replay, fails instead of passing unchecked).
REQUIRABLE = (
    "contract", "trick", "legal", "abnat", "aklat", "projects", "cardscore", "projectscore",
    "score", "total", "result", "kaboot", "winner", "auction",
)  # fmt: skip


def check_hand(
    rules: Ruleset,
    hand: btn.Hand,
    path: str,
    ruleset_name: str,
    game: Game,
    expected_dealer: Seat | None = None,
    required: frozenset[str] = frozenset(),
    lines: Callable[[int], str | None] = lambda number: None,
    pictures: bool = False,
    engine_id: EngineId | None = None,
) -> tuple[HandVerdict, HandChecker]:
    """Replay one hand of ``game``; the checker is returned too (its result, for the next).
    ``lines`` gives the transcript's lines by number, to quote them in divergences.

    ``required`` names claims that must be present (see :data:`REQUIRABLE`); each one
    missing is a ``missing_claim`` divergence, and an auction that cannot be replayed a
    ``missing_event`` one.
    """
    checker = HandChecker(
        rules, path, ruleset_name, game, expected_dealer, lines, pictures, engine_id
    )
    checker.scan(hand)
    stopped: str | None = None
    try:
        replay_items(checker, hand.items)
    except (ReplayStop, FormulaError) as exc:  # a formula that fails on this hand's figures too
        stopped = (
            str(exc) if isinstance(exc, ReplayStop) else f"the ruleset's formula failed: {exc}"
        )
        for item in hand.items:  # the claims after the stop: the game goes on from its total
            checker.claimed_total = claimed_total(item) or checker.claimed_total
    if required and stopped is None:
        _check_required(checker, hand, required)
    # The game goes on from the transcript's own running totals, so that one wrong hand does
    # not make every later total wrong too.
    if checker.claimed_total is not None:
        game.go_on_from(checker.claimed_total)
    return verdict_of(checker, hand, stopped), checker


def replay_items(checker: HandChecker, items: Iterable[btn.HandItem]) -> None:
    """Apply the events and check the claims of a hand, in order; raises :class:`ReplayStop`
    when the hand cannot be followed further."""
    event = checker.event
    claim = judge_claim
    play_item = btn.Play
    plays_of = PLAYS_OF
    for item in items:
        engine = checker.engine
        if type(item) is play_item and engine is not None and engine.phase == "play":
            # The common case, inline: a card in the play (the other phases: event()).
            checker.events += 1
            checker.plays += 1
            play = plays_of[item.seat][item.card.index]
            try:
                engine.push_play(play)
            except IllegalAction as exc:
                checker.illegal(item, engine, play, exc)
            if not engine.trick:
                checker.trick_done(engine)
        elif isinstance(item, btn.Event):
            event(item)
        elif isinstance(item, btn.Claim):
            claim(checker, item)


def _check_required(checker: HandChecker, hand: btn.Hand, required: frozenset[str]) -> None:
    """A ``missing_claim`` divergence for each required claim the hand leaves out."""
    claims = [i for i in hand.items if isinstance(i, btn.Claim)]
    names = {c.name for c in claims if isinstance(c, btn.TeamClaim)}
    result = checker.result
    played = result is not None and result.score is not None
    score = result.score if result is not None else None
    needed: list[tuple[str, bool]] = [
        ("contract", not any(isinstance(c, btn.ContractClaim) for c in claims)),
        ("trick", len([c for c in claims if isinstance(c, btn.TrickClaim)]) < len(checker.tricks)),
        ("legal", len([c for c in claims if isinstance(c, btn.LegalClaim)]) < checker.plays),
        ("result", played and not any(isinstance(c, btn.ResultClaim) for c in claims)),
        (
            "kaboot",
            score is not None
            and score.kaboot_team is not None
            and not any(isinstance(c, btn.KabootClaim) for c in claims),
        ),
        (
            "winner",
            checker.game.winner is not None
            and result is not None
            and checker.game.results[-1] is result
            and not any(isinstance(c, btn.WinnerClaim) for c in claims),
        ),
    ]
    for name in ("abnat", "aklat", "projects", "cardscore", "projectscore"):
        needed.append((name, played and name not in names))
    for name in ("score", "total"):
        needed.append((name, result is not None and name not in names))
    missing: list[tuple[str, DivergenceKind]] = [
        (name, "missing_claim") for name, absent in needed if name in required and absent
    ]
    if "auction" in required and checker.partial:
        missing.insert(0, ("bid1", "missing_event"))
    for name, kind in missing:
        message = (
            f"the auction cannot be checked ({checker.partial}; required by --require auction)"
            if kind == "missing_event"
            else f"the hand has no '= {name}' claim (required by --require)"
        )
        checker.divergences.append(
            Divergence(
                position=f"{hand.position}.{name}",
                location=Location(checker.path, hand.line, hand.column),
                rule_id=None,
                kind=kind,
                message=message,
                root=not checker.divergences,
            )
        )


def verdict_of(checker: HandChecker, hand: btn.Hand, stopped: str | None) -> HandVerdict:
    """The verdict on ``hand`` as ``checker`` leaves it (see :func:`verdict_at`)."""
    return verdict_at(checker, hand.position, hand.line, hand.column, stopped)


def verdict_at(
    checker: HandChecker, position: str, line: int, column: int, stopped: str | None
) -> HandVerdict:
    """The verdict on the hand at ``position`` (``h3``), whose ``hand`` line is at
    ``line``:``column``; ``stopped`` says why replay stopped, if it did."""
    location = Location(checker.path, line, column)
    if stopped and not checker.divergences:
        return HandVerdict(
            checker.path,
            checker.ruleset_name,
            position,
            "error",
            error=stopped,
            location=location,
            events=checker.events,
            claims=checker.claims,
            unchecked=tuple(checker.unchecked),
            engine=checker.engine_id,
        )
    defects = explaining_defects(checker)
    return HandVerdict(
        checker.path,
        checker.ruleset_name,
        position,
        "known-defect" if defects else "fail" if checker.divergences else "pass",
        tuple(checker.divergences),
        error=stopped,
        location=location,
        events=checker.events,
        claims=checker.claims,
        unchecked=tuple(checker.unchecked),
        latent_fouls=latent_fouls(checker, position),
        defects=defects,
        engine=checker.engine_id,
    )


def explaining_defects(checker: HandChecker) -> tuple[str, ...]:
    """The ids of the ruleset's listed engine defects that explain the hand's divergences,
    when every one of them falls under some defect's rule (or a rule it ``shows``) in a hand
    where that defect's ``when`` holds; else ``()``: one divergence no defect explains makes
    the hand a plain failure."""
    defects = checker.rules.defects
    if not checker.divergences or not defects:
        return ()
    holding = _conditions(checker)
    used: set[str] = set()
    for divergence in checker.divergences:
        defect = next((d for d in defects if d.explains(divergence.rule_id, holding)), None)
        if defect is None:
            return ()
        used.add(defect.id)
    return tuple(d.id for d in defects if d.id in used)


def _conditions(checker: HandChecker) -> frozenset[DefectCondition]:
    """Which of the conditions a defect's ``when`` may name hold for the hand."""
    holding: set[DefectCondition] = set()
    earlier = [r for r in checker.game.results if r is not checker.result]
    if all(r.score is None for r in earlier):
        holding.add("no_hand_scored_yet")
    engine = checker.engine
    if engine is not None:
        if any(isinstance(a, SawaClaim) for a in engine.history):
            holding.add("sawa")
        if any(isinstance(a, FoulCall) for a in engine.history):
            holding.add("foul_call")
        if engine.contract is not None and engine.contract.level > 1:
            holding.add("raised")
    score = checker.result.score if checker.result is not None else None
    if score is not None and score.kaboot_team is not None:
        holding.add("kaboot")
    return frozenset(holding)


def latent_fouls(checker: HandChecker, position: str) -> tuple[str, ...]:
    """The cards that broke a play rule and stood, never called [play.fouls:
    stand_until_called], one phrase each: ``h2.t3.p2 play.follow_suit: ...``."""
    engine = checker.engine
    if engine is None or not engine.fouls or checker.rules.play.fouls.option == "refused":
        return ()
    called = {a.play for a in engine.history if isinstance(a, FoulCall)}
    return tuple(
        f"{position}.{foul.target} {foul.rule_id}: {foul.reason}"
        for foul in engine.fouls
        if foul.play not in called
    )
