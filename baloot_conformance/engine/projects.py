"""Projects (melds) and Baloot: what a hand can declare, which declarations count, who has Baloot.

The ``projects`` section of a ruleset decides every number and reading used here: the shortest
run of each sequence project, the ranks of each four of a kind per contract, the ranking
groups, the tie-break, the per-player limit, the declaration mode and when Baloot is blocked.
A :class:`Project` carries its ``strength``, a tuple that compares the way the ranking rules
do, so that the comparison between teams is a plain ``max``. The rule IDs implemented here:

- ``projects.sira``, ``projects.fifty``, ``projects.hundred.sequence``: runs in one suit by
  ``cards.order.sequence``, each maximal run classified by the longest project whose
  ``length`` fits (an 8-card run is one hundred);
- ``projects.hundred.four_of_a_kind``, ``projects.four_hundred``: four cards of a rank that
  the project lists for the contract;
- ``projects.declaration``: checking one declaration; the automatic modes;
- ``projects.limits``: at most ``per_player`` projects per player, no card in two (unless
  ``shared_cards`` lets a four of a kind and a sequence share one; under ``four_first`` a four
  of a kind takes its cards before any sequence is found);
- ``projects.ranking``, ``projects.comparison``, ``projects.tie``: which team's projects count;
- ``projects.baloot``, ``projects.baloot.inside_hundred``: who holds a Baloot that scores
  (held, or played in two consecutive tricks).

A project exists in a contract only where the ruleset gives it game points for that contract
(four hundred has none in Hokum). A declared run must be a whole run of the hand, as
:func:`find_projects` reports it: a fifty cannot be declared as a sira, nor an 8-card run as
5 + 3 (unless ``projects.hundred.sequence`` ``longer: top_and_rest`` splits it so).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from baloot_conformance.cards import CARDS, Card, Rank, card
from baloot_conformance.engine.model import (
    SEAT_NAMES,
    SUIT_MASKS,
    CardSet,
    Contract,
    ContractKind,
    IllegalAction,
    Seat,
    Team,
    per_ruleset,
    team,
)
from baloot_conformance.rules.model import FourOfAKindProject, ProjectName, SequenceProject
from baloot_conformance.rules.ruleset import Ruleset

SEQUENCE_PROJECTS: tuple[ProjectName, ...] = ("sira", "fifty", "hundred.sequence")
FOUR_OF_A_KIND_PROJECTS: tuple[ProjectName, ...] = ("hundred.four_of_a_kind", "four_hundred")
PROJECT_NAMES: tuple[ProjectName, ...] = SEQUENCE_PROJECTS + FOUR_OF_A_KIND_PROJECTS
#: The projects that count as "a hundred" for projects.baloot.inside_hundred.
HUNDREDS: tuple[ProjectName, ...] = ("hundred.sequence", "hundred.four_of_a_kind")
_RANK_INDEX = {rank: i for i, rank in enumerate(Rank)}


@dataclass(frozen=True, slots=True)
class Project:
    """One project of one player's hand, valued under a ruleset and a contract kind."""

    name: ProjectName
    seat: Seat
    cards: CardSet
    raw: int
    """Raw value from the ruleset (``projects.<name>.raw``)."""
    game_points: int
    """Unmultiplied game points for the contract kind."""
    strength: tuple[int, ...]
    """Comparison key: (ranking group, top card by sequence order, length); higher is better."""

    def __str__(self) -> str:
        """``W sira AD KD QD``: the seat, the name and the cards, highest rank first."""
        return f"{SEAT_NAMES[self.seat]} {self.name} {_fmt(self.cards)}"


# --- the ruleset's tables ---------------------------------------------------------------------


def _sequence_rule(ruleset: Ruleset, name: ProjectName) -> SequenceProject:
    p = ruleset.projects
    return {"sira": p.sira, "fifty": p.fifty, "hundred.sequence": p.hundred_sequence}[name]


def _four_rule(ruleset: Ruleset, name: ProjectName) -> FourOfAKindProject:
    p = ruleset.projects
    return {"hundred.four_of_a_kind": p.hundred_four_of_a_kind, "four_hundred": p.four_hundred}[
        name
    ]


def _rule(ruleset: Ruleset, name: ProjectName) -> SequenceProject | FourOfAKindProject:
    return _sequence_rule(ruleset, name) if name in SEQUENCE_PROJECTS else _four_rule(ruleset, name)


def _exists(ruleset: Ruleset, kind: ContractKind, name: ProjectName) -> bool:
    """A project exists in a contract when the ruleset gives it game points there."""
    rule = _rule(ruleset, name)
    if isinstance(rule, FourOfAKindProject) and not rule.ranks.for_contract(kind):
        return False
    return rule.game_points.for_contract(kind) is not None


def _group(ruleset: Ruleset, name: ProjectName) -> int:
    """The project's ranking group as a number, higher is better (projects.ranking)."""
    order = ruleset.projects.ranking.order
    for i, group in enumerate(order):
        if name in group:
            return len(order) - i
    return 0  # not ranked: below every ranked project (the loader requires all to be ranked)


def _sequence_place(ruleset: Ruleset) -> dict[Rank, int]:
    """Each rank's place in cards.order.sequence, 0 for the lowest."""
    order = ruleset.cards.order_sequence.order
    return {rank: len(order) - 1 - i for i, rank in enumerate(order)}


def _sequence_name(ruleset: Ruleset, kind: ContractKind, length: int) -> ProjectName | None:
    """The longest sequence project of ``kind`` whose ``length`` fits a run of ``length``."""
    fitting = [
        (rule.length, name)
        for name in SEQUENCE_PROJECTS
        if (rule := _sequence_rule(ruleset, name)).length <= length and _exists(ruleset, kind, name)
    ]
    return max(fitting)[1] if fitting else None


def _four_name(ruleset: Ruleset, kind: ContractKind, rank: Rank) -> ProjectName | None:
    """The best-ranked four-of-a-kind project of ``kind`` that lists ``rank``."""
    fitting = [
        (_group(ruleset, name), name)
        for name in FOUR_OF_A_KIND_PROJECTS
        if rank in _four_rule(ruleset, name).ranks.for_contract(kind)
        and _exists(ruleset, kind, name)
    ]
    return max(fitting)[1] if fitting else None


def _fmt(mask: CardSet) -> str:
    """Cards by suit, highest rank first: ``AD KD QD``."""
    chosen = [c for c in CARDS if mask >> c.index & 1]
    chosen.sort(key=lambda c: (c.index >> 3, -_RANK_INDEX[c.rank]))
    return " ".join(c.code for c in chosen)


def _rank_mask(rank: Rank) -> CardSet:
    return sum(1 << c.index for c in CARDS if c.rank is rank)


# --- finding and declaring ----------------------------------------------------------------------


def _runs(ruleset: Ruleset, hand: CardSet) -> list[tuple[CardSet, int]]:
    """Every maximal run of the hand in one suit, of any length: (cards, top place)."""
    place = _sequence_place(ruleset)
    runs: list[tuple[CardSet, int]] = []
    for suit in range(4):
        # The suit's cards by sequence place, lowest first.
        by_place = sorted((place[c.rank], c.index) for c in CARDS[8 * suit : 8 * suit + 8])
        run = 0
        top = -1
        for p, index in by_place:
            if hand >> index & 1:
                run |= 1 << index
                top = p
            elif run:
                runs.append((run, top))
                run = 0
        if run:
            runs.append((run, top))
    return runs


@dataclass(frozen=True, slots=True)
class _Finder:
    """The tables behind :func:`find_projects`, for one ruleset and contract kind."""

    runs: tuple[tuple[tuple[CardSet, int], ...], ...]
    """By the 8-bit pattern of one suit's cards: each maximal run (its bits, its top place)."""
    sequences: tuple[tuple[ProjectName, int, int, int] | None, ...]
    """By run length 0-8: the sequence project it makes (name, raw, points, group), if any."""
    fours: tuple[tuple[CardSet, ProjectName, int, int, int, int], ...]
    """Four of a kind that make projects: (mask, name, raw, points, group, top place)."""


def _finder(ruleset: Ruleset, kind: ContractKind) -> _Finder:
    return per_ruleset(ruleset, ("projects", kind), lambda: _build_finder(ruleset, kind))


def _build_finder(ruleset: Ruleset, kind: ContractKind) -> _Finder:
    place = _sequence_place(ruleset)
    by_place = sorted((place[rank], j) for j, rank in enumerate(Rank))
    runs: list[tuple[tuple[CardSet, int], ...]] = []
    for pattern in range(256):
        found: list[tuple[CardSet, int]] = []
        run, top = 0, -1
        for p, j in by_place:
            if pattern >> j & 1:
                run, top = run | 1 << j, p
            elif run:
                found.append((run, top))
                run = 0
        if run:
            found.append((run, top))
        runs.append(tuple(_split(ruleset, found, by_place)))
    sequences: list[tuple[ProjectName, int, int, int] | None] = []
    for length in range(9):
        name = _sequence_name(ruleset, kind, length)
        sequences.append(None if name is None else _values(ruleset, kind, name))
    fours = []
    for rank in Rank:
        four = _four_name(ruleset, kind, rank)
        if four is not None:
            name, raw, points, group = _values(ruleset, kind, four)
            fours.append((_rank_mask(rank), name, raw, points, group, place[rank]))
    return _Finder(tuple(runs), tuple(sequences), tuple(fours))


def _split(
    ruleset: Ruleset, runs: list[tuple[CardSet, int]], by_place: list[tuple[int, int]]
) -> list[tuple[CardSet, int]]:
    """``projects.hundred.sequence`` ``longer: top_and_rest``: each run longer than a hundred
    split into the hundred of its top cards and the rest (a run of its own, which makes a
    project only if it is long enough); ``one_project`` keeps the runs whole. ``by_place``:
    (sequence place, rank index) of one suit, lowest first."""
    rule = ruleset.projects.hundred_sequence
    if rule.longer == "one_project":
        return runs
    split: list[tuple[CardSet, int]] = []
    for bits, top in runs:
        ranks = [j for _, j in by_place if bits >> j & 1]  # lowest first
        while len(ranks) > rule.length:
            split.append((sum(1 << j for j in ranks[-rule.length :]), top))
            ranks = ranks[: -rule.length]
            top = next(p for p, j in by_place if j == ranks[-1])
        split.append((sum(1 << j for j in ranks), top))
    return split


def _values(
    ruleset: Ruleset, kind: ContractKind, name: ProjectName
) -> tuple[ProjectName, int, int, int]:
    rule = _rule(ruleset, name)
    points = rule.game_points.for_contract(kind)
    assert points is not None  # callers check _exists
    raw = rule.raw if isinstance(rule.raw, int) else rule.raw.for_contract(kind)
    return name, raw, points, _group(ruleset, name)


def find_projects(
    ruleset: Ruleset, kind: ContractKind, seat: Seat, hand: CardSet
) -> tuple[Project, ...]:
    """Every project the hand can form, strongest first.

    Each maximal run of the hand in one suit (by ``cards.order.sequence``) makes the longest
    sequence project whose ``length`` fits it (3 sira, 4 fifty, 5 or more one hundred, or
    under ``projects.hundred.sequence`` ``longer: top_and_rest`` a hundred of its top five and
    the rest on its own); each four of a kind whose rank the contract lists makes a hundred or
    a four hundred.
    """
    finder = _finder(ruleset, kind)
    found: list[Project] = []
    in_runs = hand & ~_four_cards(ruleset, finder, hand)
    for suit in range(4):
        shift = 8 * suit
        for bits, top in finder.runs[in_runs >> shift & 0xFF]:
            length = bits.bit_count()
            sequence = finder.sequences[length]
            if sequence is not None:
                name, raw, points, group = sequence
                found.append(Project(name, seat, bits << shift, raw, points, (group, top, length)))
    for mask, name, raw, points, group, top in finder.fours:
        if hand & mask == mask:
            found.append(Project(name, seat, mask, raw, points, (group, top, 4)))
    if len(found) > 1:
        found.sort(key=lambda p: (p.strength, p.cards), reverse=True)
    return tuple(found)


def _four_cards(ruleset: Ruleset, finder: _Finder, hand: CardSet) -> CardSet:
    """The cards a four of a kind takes before any sequence [projects.limits, shared_cards
    ``four_first``]; none under the other options."""
    if ruleset.projects.limits.shared_cards != "four_first":
        return 0
    return sum(mask for mask, *_ in finder.fours if hand & mask == mask)


def declared_project(
    ruleset: Ruleset, kind: ContractKind, seat: Seat, hand: CardSet, name: str, cards: CardSet
) -> Project:
    """Check one declaration against the cards held and return the project it makes.

    Raises:
        IllegalAction: ``projects.declaration`` when the name is no project or a card is not
            held; ``projects.<name>`` when the cards do not form that project (wrong length,
            suit or rank, a part of a longer run, another project), or the project does not
            exist in this contract (four hundred in Hokum).
    """

    def declaring() -> str:  # the start of every message; formatted only on an error
        return f"{SEAT_NAMES[seat]} declares {name} {_fmt(cards)}"

    rule_id = ruleset.projects.declaration.id
    project_name = next((p for p in PROJECT_NAMES if p == name), None)
    if project_name is None:
        raise IllegalAction(
            rule_id, f"{declaring()}: {name!r} is not a project ({', '.join(PROJECT_NAMES)})"
        )
    if cards & ~hand:
        raise IllegalAction(rule_id, f"{declaring()} but does not hold {_fmt(cards & ~hand)}")
    rule_id = _rule(ruleset, project_name).id
    if not _exists(ruleset, kind, project_name):
        raise IllegalAction(rule_id, f"{declaring()}: there is no {name} in {kind.capitalize()}")
    found = find_projects(ruleset, kind, seat, hand)
    for project in found:
        if project.cards == cards:
            if project.name == project_name:
                return project
            raise IllegalAction(rule_id, f"{declaring()}, but these cards form a {project.name}")
    raise IllegalAction(
        rule_id, f"{declaring()}, but {_why_not(ruleset, kind, hand, cards, found)}"
    )


def _why_not(
    ruleset: Ruleset,
    kind: ContractKind,
    hand: CardSet,
    cards: CardSet,
    found: Sequence[Project],
) -> str:
    """Why cards held are not one of the hand's projects."""
    count = cards.bit_count()
    if not count:
        return "no cards were named"
    ranks = {c.rank for c in CARDS if cards >> c.index & 1}
    if count == 4 and len(ranks) == 1:
        rank = ranks.pop()
        return f"four {rank.value}s are no project in {kind.capitalize()}"
    if not any(cards & ~mask == 0 for mask in SUIT_MASKS):
        return "the cards are neither of one suit nor of one rank"
    place = _sequence_place(ruleset)
    places = [place[c.rank] for c in CARDS if cards >> c.index & 1]
    if max(places) - min(places) + 1 != count:
        order = " ".join(r.value for r in ruleset.cards.order_sequence.order)
        return f"the cards are not consecutive in sequence order ({order})"
    fours = _four_cards(ruleset, _finder(ruleset, kind), hand)
    if cards & fours:
        verb = "is" if (cards & fours).bit_count() == 1 else "are"
        return f"{_fmt(cards & fours)} {verb} part of a four of a kind, which takes its cards first"
    for run, _top in _runs(ruleset, hand):
        if cards & ~run == 0:
            if run == cards and count > ruleset.projects.hundred_sequence.length:
                return "a longer run is a hundred of its top cards and the rest apart"
            if run == cards:
                return f"a run of {count} is no project"
            longer = next((p for p in found if p.cards == run), None)
            what = f"a {longer.name}" if longer else "a run"
            return f"they are part of the longer run {_fmt(run)} ({what}): declare it whole"
    raise AssertionError("consecutive cards held lie in a run of the hand")  # pragma: no cover


def check_declarations(
    ruleset: Ruleset, kind: ContractKind, seat: Seat, projects: Sequence[Project]
) -> None:
    """projects.limits: at most ``per_player`` projects for one seat, no card in two of them.

    Raises:
        IllegalAction: ``projects.limits`` naming the projects at fault.
        ValueError: a project of another seat is in the list (a caller's error).
    """
    limits = ruleset.projects.limits
    who = SEAT_NAMES[seat]
    if any(p.seat != seat for p in projects):
        raise ValueError(f"check_declarations({who}) got a project of another seat")
    if len(projects) > limits.per_player:
        raise IllegalAction(
            limits.id,
            f"{who} declares {len(projects)} projects ({'; '.join(map(str, projects))}) but a "
            f"player declares at most {limits.per_player}",
        )
    for a, b in combinations(projects, 2):
        if a.cards & b.cards and not _may_share(ruleset, a, b):
            raise IllegalAction(
                limits.id,
                f"{who} uses {_fmt(a.cards & b.cards)} in two projects ({a}; {b}): a card serves "
                "in only one project",
            )


def can_add(ruleset: Ruleset, declared: Sequence[Project], project: Project) -> bool:
    """Whether a seat that has declared ``declared`` may add ``project`` [projects.limits]:
    the cheap test behind :func:`check_declarations`, for listing legal declarations."""
    return len(declared) < ruleset.projects.limits.per_player and not any(
        p.cards & project.cards and not _may_share(ruleset, p, project) for p in declared
    )


_OF_A_KIND = ("hundred.four_of_a_kind", "four_hundred")


def _may_share(ruleset: Ruleset, a: Project, b: Project) -> bool:
    """Whether two projects may share a card [projects.limits, shared_cards]."""
    return ruleset.projects.limits.shared_cards == "across_kinds" and (
        (a.name in _OF_A_KIND) != (b.name in _OF_A_KIND)
    )


def _compatible(ruleset: Ruleset, projects: Sequence[Project]) -> bool:
    """No two of ``projects`` share a card, except as ``projects.limits`` allows."""
    return all(
        not (a.cards & b.cards) or _may_share(ruleset, a, b) for a, b in combinations(projects, 2)
    )


def automatic_declarations(
    ruleset: Ruleset, kind: ContractKind, seat: Seat, hand: CardSet
) -> tuple[Project, ...]:
    """The projects an engine declares for a player under the automatic declaration modes.

    ``automatic_all``: the best-scoring set of non-overlapping projects within
    ``projects.limits.per_player``; ``automatic_best_two``: the same, at most two. "Best" is
    the most game points, then the most raw points, then the strongest projects. (Eight cards
    hold at most two disjoint projects, so the two modes differ only if ``per_player`` < 2.)

    Raises:
        ValueError: the ruleset declares explicitly (callers check the option first).
    """
    option = ruleset.projects.declaration.option
    if option in ("explicit", "explicit_by_kind"):
        raise ValueError("projects.declaration is explicit: the players declare")
    limit = ruleset.projects.limits.per_player
    if option == "automatic_best_two":
        limit = min(limit, 2)
    found = find_projects(ruleset, kind, seat, hand)
    best: tuple[Project, ...] = ()
    best_key: tuple[int, int, list[tuple[int, ...]]] = (0, 0, [])
    for size in range(1, min(limit, len(found)) + 1):
        for chosen in combinations(found, size):
            if not _compatible(ruleset, chosen):
                continue
            key = (
                sum(p.game_points for p in chosen),
                sum(p.raw for p in chosen),
                sorted((p.strength for p in chosen), reverse=True),
            )
            if key > best_key:
                best, best_key = chosen, key
    return best


# --- which projects count -----------------------------------------------------------------------


def counted_projects(
    ruleset: Ruleset, contract: Contract, declared: Sequence[Project], first_seat: Seat
) -> tuple[Team | None, tuple[Project, ...]]:
    """The team whose projects count, and those projects (projects.comparison and tie).

    Each team's best project is compared by ``strength`` (projects.ranking); only the winning
    team's projects count, all of them, the partner's included. Equal best projects of both
    teams are settled by projects.tie: ``earlier_seat``, the holder earlier in play order from
    ``first_seat`` (the dealer's right); ``buyer_team``; ``cancel``, nobody. Returns
    ``(None, ())`` when nothing counts.
    """
    if not declared:
        return None, ()
    top = max(p.strength for p in declared)
    holders = [p.seat for p in declared if p.strength == top]
    teams = {team(s) for s in holders}
    if len(teams) == 1:
        winner = teams.pop()
    else:
        option = ruleset.projects.tie.option
        if option == "cancel":
            return None, ()
        if option == "buyer_team":
            winner = contract.buyer_team
        else:  # earlier_seat
            winner = team(min(holders, key=lambda s: (s - first_seat) % 4))
    return winner, tuple(p for p in declared if team(p.seat) == winner)


def baloot_seat(contract: Contract, hands: Sequence[CardSet]) -> Seat | None:
    """The seat dealt the King and Queen of trump (``hands`` by seat), in Hokum; else None."""
    if contract.kind != "hokum" or contract.trump is None:
        return None
    pair = 1 << card(Rank.KING, contract.trump).index | 1 << card(Rank.QUEEN, contract.trump).index
    return next((s for s, hand in enumerate(hands) if hand & pair == pair), None)


def baloot_holder(
    ruleset: Ruleset,
    contract: Contract,
    hands: Sequence[CardSet],
    declared: Sequence[Project],
    played: Sequence[Card],
) -> Seat | None:
    """The seat whose Baloot scores (projects.baloot and projects.baloot.inside_hundred).

    In Hokum only: the seat holding both the King and the Queen of trump among its eight cards
    (``hands`` by seat), and under ``counts: consecutive_tricks`` only once it has played them
    in two consecutive tricks (``played``: the hand's cards so far, in order). None when
    nobody holds them, or when the holder's declared projects block it:
    ``blocked_by_any_hundred``, a hundred (sequence or four of a kind) holding both;
    ``blocked_by_four_kings_or_queens``, four Kings or four Queens;
    ``blocked_by_hundred_or_four_kings_queens``, either; ``never_blocked``.
    """
    holder = baloot_seat(contract, hands)
    if holder is None or contract.trump is None:
        return None
    king, queen = card(Rank.KING, contract.trump), card(Rank.QUEEN, contract.trump)
    pair = 1 << king.index | 1 << queen.index
    if ruleset.projects.baloot.counts == "consecutive_tricks" and not (
        king in played
        and queen in played
        and abs(played.index(king) // 4 - played.index(queen) // 4) == 1
    ):
        return None
    own = [p for p in declared if p.seat == holder]
    option = ruleset.projects.baloot_inside_hundred.option
    fours = (_rank_mask(Rank.KING), _rank_mask(Rank.QUEEN))
    by_hundred = any(p.name in HUNDREDS and p.cards & pair == pair for p in own)
    by_four = any(p.cards in fours for p in own)
    blocked = {
        "blocked_by_any_hundred": by_hundred,
        "blocked_by_four_kings_or_queens": by_four,
        "blocked_by_hundred_or_four_kings_queens": by_hundred or by_four,
        "never_blocked": False,
    }[option]
    return None if blocked else holder
