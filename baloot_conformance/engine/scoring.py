"""Scoring a played hand: from what happened at the table to the points on the score sheet.

The play engine reduces a hand to :class:`HandFacts` (card points, tricks, the projects and the
Baloot that count); :func:`score_hand` turns them into a :class:`HandScore` by the ruleset's
scoring rules, each implemented once below under its rule ID, every option of each:

- ``cards.last_trick``: the last trick's bonus, giving each side's abnat.
- ``scoring.kaboot`` and ``scoring.reverse_kaboot``: a sweep replaces card scoring.
- ``scoring.contract``, ``scoring.contract.tie`` and ``doubling.tie``: made, failed or split.
- ``scoring.sun.conversion`` / ``scoring.hokum.conversion``: card points to game points, only
  through the ruleset's formulas (:func:`card_points_to_game_points`).
- ``scoring.failure``, ``scoring.raised``, ``scoring.round_value`` and ``doubling.gahwa``: who
  takes what when one side takes all.

Where the rules leave a case open, this module decides as follows (the rule table's reasons):

- Baloot is never multiplied and is not a project: it scores for its holder's side whoever wins,
  except the *buyer's* Baloot when the buyer loses, which follows ``scoring.failure.baloot``
  (in a failed, a raised or a swept hand alike), and the loser's Baloot where
  ``scoring.raised.loser_baloot`` or ``scoring.kaboot.swept_baloot`` is ``lost``. So the loser
  of a raised hand or of a Kaboot scores 0 except its own Baloot, and
  ``scoring.kaboot.projects: ignored`` drops the sweeping side's projects but not its Baloot.
- In a Kaboot only the sweeping side's projects can count (``projects: added``), or the
  comparison winner's whichever side it is (``each_side``); otherwise the swept side's projects
  score for nobody. ``raised: flat`` means the raise does not touch a Kaboot at all (value and
  projects unmultiplied); ``multiplied`` scores it like a raised hand with the Kaboot value in
  place of the round value (value x level, projects by ``scoring.raised.project_multiplier``);
  ``projects_multiplied`` multiplies the projects only. A reverse Kaboot is never multiplied,
  projects included.
- ``scoring.contract.tie`` ``made`` scores a tie as ``split`` does (each side its own points)
  and calls it made.
- ``scoring.raised`` ``made: each_side_multiplied`` scores a made raised hand as an unraised
  made hand, each side's game points and counted projects times the level (the projects by
  ``project_multiplier``), Baloot added after; a failed raised hand still goes to the winner
  whole, and the buyer's side is compared as ``scoring.contract`` says, before the raise.
- In a raised hand the loser's projects go to the winner or nobody as ``scoring.failure.projects``
  says, whichever side lost.
- Gahwa overrides Kaboot (SAKKAH): the hand's winner is found as usual (a sweep, else the
  contract), then ``doubling.gahwa`` alone sets the points. Under ``match_win`` the sheet records
  the hand as a raised hand at the contract's level (4 at Gahwa), so totals stay meaningful;
  under ``fixed_points`` the winner scores ``points`` and nothing else (no projects, no Baloot).
- ``HandScore.projects`` holds the raw projects whose game points are in ``game_points``;
  Baloot is not among them.
- ``decided_by`` lists the rules that decided the outcome and the points, in the order applied;
  ``cards.last_trick`` applies to every hand and is not listed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from baloot_conformance.engine.model import Contract, Seat, Team, next_seat, per_ruleset, team
from baloot_conformance.errors import FormulaError
from baloot_conformance.rules.ruleset import Ruleset

Outcome = Literal["made", "failed", "split", "kaboot", "reverse_kaboot", "penalty"]
TRICKS_PER_HAND = 8


@dataclass(frozen=True, slots=True)
class HandFacts:
    """What happened in a played hand, as the scorer needs it."""

    contract: Contract
    card_points: tuple[int, int]
    """Card points of the tricks won, per team (index = team), without the last-trick bonus."""
    last_trick_team: Team
    tricks: tuple[int, int]
    """Tricks won per team (they sum to 8)."""
    project_team: Team | None
    """The team whose projects count (it won the project comparison), or ``None``."""
    project_raw: int
    """Raw value of that team's counted projects (70 for a sira and a fifty)."""
    project_points: int
    """Their unmultiplied game points for the contract (2 + 5 = 7 in Hokum)."""
    baloot_team: Team | None
    """The team whose Baloot scores (blocking already checked), or ``None``."""
    buyer_held_ace: bool
    """The buyer's eight cards held an Ace (reverse Kaboot)."""
    buyer_is_first_seat: bool
    """The buyer sits at the dealer's right (reverse Kaboot)."""
    faceup_ace: bool = False
    """The face-up card was an Ace (``scoring.kaboot.faceup_ace``)."""
    sweep_scores: bool = True
    """Whether a side with every trick scores a Kaboot: not after a right Sawa where
    ``claims.sawa.kaboot`` is false."""


@dataclass(frozen=True, slots=True)
class HandScore:
    """The scored hand: what a transcript's claims for the hand say."""

    abnat: tuple[int, int]
    """Card points per team, the last-trick bonus included."""
    aklat: tuple[int, int]
    """Card points per team without the last-trick bonus."""
    card_scores: tuple[int, int]
    """Each side's card points converted to game points, before the outcome (a failure, a
    Kaboot, a raise) is applied: the ``cardscore`` engines report (majlis-baloot's logs)."""
    project_scores: tuple[int, int]
    """The game points of the projects that count, before the outcome is applied (the
    ``projectscore`` engines report); Baloot is not among them."""
    projects: tuple[int, int]
    """Raw project points that count per team, after any transfer (Baloot not included)."""
    outcome: Outcome
    kaboot_team: Team | None
    game_points: tuple[int, int]
    """What goes on the score sheet for this hand."""
    match_winner: Team | None
    """Set when a Gahwa decides the game (``doubling.gahwa: match_win``)."""
    decided_by: tuple[str, ...]
    """The rule IDs that decided the outcome and the points, in order."""
    penalty_team: Team | None = None
    """The side a penalty scored for (outcome ``penalty``: a wrong Sawa, a foul call)."""


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended."""

    contract: Contract | None
    """``None`` for a void hand."""
    void_reason: str
    """``all_pass``, ``kawesh`` or ``exposed_ace`` for a void hand, else empty."""
    score: HandScore | None
    game_points: tuple[int, int]
    next_dealer: Seat


def void_result(rules: Ruleset, dealer: Seat, reason: str) -> HandResult:
    """A hand that ended without a contract (``all_pass``, ``kawesh``, ``exposed_ace``), and
    who deals next [deal.dealer.rotation, deal.kawesh]."""
    rotation = rules.deal.dealer_rotation.after_all_pass
    same_dealer = (reason == "all_pass" and rotation == "same_dealer") or (
        reason in ("exposed_ace", "kawesh") and rules.deal.kawesh.option != "next_dealer"
    )
    return HandResult(None, reason, None, (0, 0), dealer if same_dealer else next_seat(dealer))


def card_points_to_game_points(
    ruleset: Ruleset, contract: Contract, side: Team, abnat: tuple[int, int]
) -> int:
    """One side's game points for its card points (``scoring.sun/hokum.conversion``)."""
    rule = (
        ruleset.scoring.sun_conversion
        if contract.kind == "sun"
        else ruleset.scoring.hokum_conversion
    )
    risk = team(contract.raisers[-1]) if contract.raisers else contract.buyer_team
    is_buyer, takes_risk = side == contract.buyer_team, side == risk
    # The formula depends on these four values only: its results are kept per ruleset (a
    # few hundred pairs of card points occur), in a table emptied when it grows large.
    known: dict[tuple[str, int, int, bool, bool], int] = per_ruleset(ruleset, "conversions", dict)
    key = (rule.id, abnat[side], abnat[1 - side], is_buyer, takes_risk)
    points: int | None = known.get(key)
    if points is not None:
        return points
    env = {
        "raw": abnat[side],
        "other_raw": abnat[1 - side],
        "is_buyer": is_buyer,
        "takes_risk": takes_risk,
    }
    try:
        points = rule.formula.evaluate_int(env)
    except FormulaError as exc:  # validation tries every input; this is a last guard
        raise FormulaError(f"{rule.id}: {exc.message} (for {env})", hint=exc.hint) from None
    if len(known) >= 65_536:
        known.clear()
    known[key] = points
    return points


def score_hand(ruleset: Ruleset, facts: HandFacts) -> HandScore:
    """Score a played hand under ``ruleset``. Raises ValueError for inconsistent facts."""
    _check_facts(ruleset, facts)
    contract = facts.contract
    abnat = _abnat(ruleset, facts)
    figures = _figures(ruleset, facts, abnat)
    decided: list[str] = []

    sweeper = _sweeper(facts) if facts.sweep_scores else None
    winner: Team | None
    if sweeper is not None:
        reverse = _is_reverse_kaboot(ruleset, facts, sweeper)
        rule_id = ruleset.scoring.reverse_kaboot.id if reverse else ruleset.scoring.kaboot.id
        decided.append(rule_id)
        outcome: Outcome = "reverse_kaboot" if reverse else "kaboot"
        winner = sweeper
    else:
        outcome, winner = _contract_outcome(ruleset, facts, abnat, decided)

    if contract.gahwa:
        assert winner is not None  # a raised hand is never split
        return _score_gahwa(ruleset, facts, abnat, figures, outcome, sweeper, winner, decided)
    if sweeper is not None:
        projects, points = _score_kaboot(ruleset, facts, sweeper, outcome == "reverse_kaboot")
    elif winner is None or (
        winner == contract.buyer_team
        and (not _is_raised(contract) or ruleset.scoring.raised.made == "each_side_multiplied")
    ):
        conversion = (
            ruleset.scoring.sun_conversion
            if contract.kind == "sun"
            else ruleset.scoring.hokum_conversion
        )
        if _is_raised(contract):
            decided.append(ruleset.scoring.raised.id)
        decided.append(conversion.id)
        projects, points = _score_own_points(ruleset, facts, abnat)
    else:
        projects, points = _score_winner_takes_all(ruleset, facts, winner, contract.level, decided)
    return HandScore(abnat, *figures, projects, outcome, sweeper, points, None, tuple(decided))


# --- checks --------------------------------------------------------------------------------


def _check_facts(ruleset: Ruleset, facts: HandFacts) -> None:
    """Refuse facts no real hand can produce, naming what is wrong."""
    contract = facts.contract
    for name in ("last_trick_team", "project_team", "baloot_team"):
        value = getattr(facts, name)
        if value is not None and value not in (0, 1):
            raise ValueError(f"{name} must be 0 (NS), 1 (EW) or None, not {value!r}")
    if min(facts.tricks) < 0 or sum(facts.tricks) != TRICKS_PER_HAND:
        raise ValueError(f"tricks {facts.tricks} must be non-negative and sum to 8")
    expected = (
        ruleset.cards.totals.sun if contract.kind == "sun" else ruleset.cards.totals.hokum
    ) - ruleset.cards.last_trick.points
    if min(facts.card_points) < 0 or sum(facts.card_points) != expected:
        raise ValueError(
            f"card points {facts.card_points} must be non-negative and sum to {expected} "
            f"in {contract.kind} (the last-trick bonus excluded)"
        )
    for side in (0, 1):
        if facts.tricks[side] == 0 and (facts.card_points[side] or facts.last_trick_team == side):
            raise ValueError(f"team {side} won no trick, so it can have no card points")
    if facts.project_raw < 0 or facts.project_points < 0:
        raise ValueError("project values cannot be negative")
    if facts.project_team is None and (facts.project_raw or facts.project_points):
        raise ValueError("project values are given but no team's projects count")
    if facts.baloot_team is not None and contract.kind == "sun":
        raise ValueError("Baloot exists only in Hokum")
    if contract.level < 1:
        raise ValueError(f"contract level {contract.level} must be at least 1")


# --- cards.last_trick ----------------------------------------------------------------------


def _abnat(ruleset: Ruleset, facts: HandFacts) -> tuple[int, int]:
    """``cards.last_trick``: card points plus the last trick's bonus."""
    bonus = ruleset.cards.last_trick.points
    ns, ew = facts.card_points
    return (ns + bonus, ew) if facts.last_trick_team == 0 else (ns, ew + bonus)


# --- scoring.kaboot / scoring.reverse_kaboot -----------------------------------------------


def _sweeper(facts: HandFacts) -> Team | None:
    """The team that won all eight tricks, if any (whoever bought)."""
    for side in (0, 1):
        if facts.tricks[side] == TRICKS_PER_HAND:
            return side
    return None


def _is_reverse_kaboot(ruleset: Ruleset, facts: HandFacts, sweeper: Team) -> bool:
    """``scoring.reverse_kaboot``: does this sweep of a Sun buyer's side score the fixed value?"""
    contract = facts.contract
    if contract.kind != "sun" or sweeper == contract.buyer_team:
        return False
    option = ruleset.scoring.reverse_kaboot.option
    if option == "first_seat_with_ace":
        return facts.buyer_is_first_seat and facts.buyer_held_ace
    return option == "any_sun_buyer"  # "disabled": an ordinary Kaboot


def _score_kaboot(
    ruleset: Ruleset, facts: HandFacts, sweeper: Team, reverse: bool
) -> tuple[tuple[int, int], tuple[int, int]]:
    """``scoring.kaboot`` (and the value of ``scoring.reverse_kaboot``): projects, points."""
    contract = facts.contract
    kaboot = ruleset.scoring.kaboot
    multiplied = _is_raised(contract) and kaboot.raised == "multiplied" and not reverse
    projects_multiplied = multiplied or (
        _is_raised(contract) and kaboot.raised == "projects_multiplied" and not reverse
    )
    if reverse:
        value = ruleset.scoring.reverse_kaboot.points
    else:
        value = kaboot.sun if contract.kind == "sun" else kaboot.hokum
        if facts.faceup_ace and kaboot.faceup_ace is not None:
            value = kaboot.faceup_ace
        if multiplied:
            value *= contract.level
    project_raw = [0, 0]
    points = [0, 0]
    owner = facts.project_team
    if owner is not None and (
        (kaboot.projects == "added" and owner == sweeper) or kaboot.projects == "each_side"
    ):
        factor = _project_multiplier(ruleset, contract.level) if projects_multiplied else 1
        points[owner] += facts.project_points * factor
        project_raw[owner] = facts.project_raw
    points[sweeper] += value
    _add_baloot(ruleset, facts, sweeper, points, kaboot.swept_baloot)
    return _pair(project_raw), _pair(points)


# --- scoring.contract, scoring.contract.tie, doubling.tie ----------------------------------


def _is_raised(contract: Contract) -> bool:
    return contract.level > 1 or contract.gahwa


def _contract_total(ruleset: Ruleset, facts: HandFacts, abnat: tuple[int, int], side: Team) -> int:
    """``scoring.contract``: abnat, counted projects and (per ``baloot_counts``) Baloot, in
    card points or, with ``compare: game_points``, converted to game points."""
    rule = ruleset.scoring.contract
    in_game_points = rule.compare == "game_points"
    if in_game_points:
        total = card_points_to_game_points(ruleset, facts.contract, side, abnat)
    else:
        total = abnat[side]
    if facts.project_team == side:
        total += facts.project_points if in_game_points else facts.project_raw
    if rule.baloot_counts and facts.baloot_team == side:
        baloot = ruleset.projects.baloot
        total += baloot.game_points if in_game_points else baloot.raw
    return total


def _contract_outcome(
    ruleset: Ruleset, facts: HandFacts, abnat: tuple[int, int], decided: list[str]
) -> tuple[Outcome, Team | None]:
    """Made, failed or split, and the hand's winner (``None`` when split)."""
    contract = facts.contract
    buyer = contract.buyer_team
    opponents = 1 - buyer
    decided.append(ruleset.scoring.contract.id)
    ours = _contract_total(ruleset, facts, abnat, buyer)
    theirs = _contract_total(ruleset, facts, abnat, opponents)
    if ours != theirs:
        return ("made", buyer) if ours > theirs else ("failed", opponents)
    if _is_raised(contract):
        decided.append(ruleset.doubling.tie.id)
        loser = _raised_tie_loser(ruleset, contract)
        return ("failed", opponents) if loser == buyer else ("made", buyer)
    tie = ruleset.scoring.contract_tie
    decided.append(tie.id)
    option = tie.sun if contract.kind == "sun" else tie.hokum
    if option == "split":
        return "split", None
    if option == "made":  # the same points as a split, and the buyer is said to have made it
        return "made", buyer
    return "failed", opponents  # buyer_fails


def _raised_tie_loser(ruleset: Ruleset, contract: Contract) -> Team:
    """``doubling.tie``: the side that loses an exact tie in a raised hand."""
    option = ruleset.doubling.tie.option
    if option == "buyer":
        return contract.buyer_team
    if not contract.raisers:
        raise ValueError(f"a raised contract needs its raisers for doubling.tie: {option}")
    raiser = contract.raisers[-1] if option == "last_raiser" else contract.raisers[0]
    return team(raiser)


# --- scoring.sun.conversion / scoring.hokum.conversion -------------------------------------


def _score_own_points(
    ruleset: Ruleset, facts: HandFacts, abnat: tuple[int, int]
) -> tuple[tuple[int, int], tuple[int, int]]:
    """A made (or split) unraised hand, or a made raised hand under ``scoring.raised`` ``made:
    each_side_multiplied``: each side scores its own points (times the level, projects by
    ``scoring.raised.project_multiplier``; Baloot never multiplied)."""
    contract = facts.contract
    level = contract.level
    project_raw = [0, 0]
    points = [0, 0]
    for side in (0, 1):
        points[side] = card_points_to_game_points(ruleset, contract, side, abnat) * level
        if facts.project_team == side:
            points[side] += facts.project_points * _project_multiplier(ruleset, level)
            project_raw[side] = facts.project_raw
        if facts.baloot_team == side:
            points[side] += ruleset.projects.baloot.game_points
    return _pair(project_raw), _pair(points)


# --- scoring.failure, scoring.raised, scoring.round_value ----------------------------------


def _project_multiplier(ruleset: Ruleset, level: int) -> int:
    """``scoring.raised.project_multiplier``: what multiplies projects at this level."""
    option = ruleset.scoring.raised.project_multiplier
    if option == "level":
        return level
    if option == "capped_at_double":
        return min(level, 2)
    return 2 if level == 2 else 1  # double_only


def _score_winner_takes_all(
    ruleset: Ruleset, facts: HandFacts, winner: Team, level: int, decided: list[str]
) -> tuple[tuple[int, int], tuple[int, int]]:
    """A failed or raised hand: the winner takes the round value and the projects, x level.

    Unraised (a failure) this is ``scoring.failure``: every project multiplier is 1 at level 1.
    """
    contract = facts.contract
    failure = ruleset.scoring.failure
    round_value = ruleset.scoring.round_value
    decided.append(ruleset.scoring.raised.id if _is_raised(contract) else failure.id)
    decided.append(round_value.id)
    loser = 1 - winner
    project_raw = [0, 0]
    project_points = 0
    if facts.project_team == winner:
        project_points = facts.project_points
        project_raw[winner] = facts.project_raw
    elif facts.project_team == loser:
        if failure.id not in decided:
            decided.append(failure.id)
        if failure.projects == "transfer":
            project_points = facts.project_points
            project_raw[winner] = facts.project_raw
    base = round_value.sun if contract.kind == "sun" else round_value.hokum
    points = [0, 0]
    points[winner] = base * level + project_points * _project_multiplier(ruleset, level)
    loser_baloot = ruleset.scoring.raised.loser_baloot if _is_raised(contract) else "kept"
    if _add_baloot(ruleset, facts, winner, points, loser_baloot) and failure.id not in decided:
        decided.append(failure.id)
    return _pair(project_raw), _pair(points)


def _add_baloot(
    ruleset: Ruleset,
    facts: HandFacts,
    winner: Team,
    points: list[int],
    loser_baloot: Literal["kept", "lost"] = "kept",
) -> bool:
    """Add the Baloot of a hand one side won outright; True if ``scoring.failure`` decided it.

    The winner's own Baloot is added. The loser's is lost where ``loser_baloot`` says so (a
    raised hand's ``scoring.raised.loser_baloot``, a Kaboot's ``swept_baloot``); otherwise the
    loser keeps its own unless the loser is the buyer's side, whose Baloot follows
    ``scoring.failure.baloot``. Never multiplied.
    """
    holder = facts.baloot_team
    if holder is None:
        return False
    value = ruleset.projects.baloot.game_points
    if holder == winner:
        points[holder] += value
        return False
    if loser_baloot == "lost":
        return False
    if holder != facts.contract.buyer_team:
        points[holder] += value
        return False
    option = ruleset.scoring.failure.baloot
    if option == "owner_keeps":
        points[holder] += value
    elif option == "to_winner":
        points[winner] += value
    return True  # "lost": nobody scores it


# --- doubling.gahwa ------------------------------------------------------------------------


def _score_gahwa(
    ruleset: Ruleset,
    facts: HandFacts,
    abnat: tuple[int, int],
    figures: _Figures,
    outcome: Outcome,
    sweeper: Team | None,
    winner: Team,
    decided: list[str],
) -> HandScore:
    """``doubling.gahwa``: the hand's winner wins the game, or scores a fixed value."""
    gahwa = ruleset.doubling.gahwa
    decided.append(gahwa.id)
    if gahwa.option == "fixed_points":
        points = [0, 0]
        points[winner] = gahwa.points
        fixed = _pair(points)
        return HandScore(abnat, *figures, (0, 0), outcome, sweeper, fixed, None, tuple(decided))
    projects, game_points = _score_winner_takes_all(
        ruleset, facts, winner, facts.contract.level, decided
    )
    return HandScore(
        abnat, *figures, projects, outcome, sweeper, game_points, winner, tuple(decided)
    )


_Figures = tuple[tuple[int, int], tuple[int, int], tuple[int, int]]


def _figures(ruleset: Ruleset, facts: HandFacts, abnat: tuple[int, int]) -> _Figures:
    """The aklat, the card scores and the project scores, before any outcome applies."""
    cards = (
        card_points_to_game_points(ruleset, facts.contract, 0, abnat),
        card_points_to_game_points(ruleset, facts.contract, 1, abnat),
    )
    projects = [0, 0]
    if facts.project_team is not None:
        projects[facts.project_team] = facts.project_points
    return facts.card_points, cards, _pair(projects)


def _pair(values: list[int]) -> tuple[int, int]:
    return values[0], values[1]
