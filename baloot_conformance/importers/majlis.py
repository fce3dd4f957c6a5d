"""The majlis-baloot importer: a match log of its ``lib/baloot`` engine to BTN.

The log is ``{engine, seed, phase, matchScores, seconds, rounds}``; each round gives the dealer,
the first five cards of each seat (``hands``), the face-up card, every action in order and,
unless the round was dealt again after an all-pass (``redealt``), the contract, the engine's
project result and its round result. Seats 0-3 play in that order: N W S E; team 0 is NS.

Placed as:

- ``dealer``, ``hands``, ``faceUp`` → ``dealer``, ``deal``, ``faceup`` (the completion of the
  deal is not logged; the checker reads it from the play);
- ``bid`` actions → ``bid`` lines (``hokom`` spelled ``hokum``, other words as logged);
  ``double`` actions → ``raise`` lines (the call ``coffee`` is ``gahwa``), with
  ``closed``/``open`` when ``locked`` is logged;
- ``play_card`` actions → ``= legal`` (the engine's legal cards for the seat) and ``play``;
- contract → ``= contract`` (bidder, kind, trump, ``xN`` and, raised, the lock);
- ``projects.gamePoints`` less the Baloot it includes (a counted project of kind ``baloot``) →
  ``= projectscore``; ``result.cardRawPoints`` → ``= abnat``;
  ``cardGamePoints`` → ``= cardscore``; ``roundPoints`` → ``= score``; ``contractMade`` →
  ``= result``, its ``reason`` the line's comment; ``kaboot`` → ``= kaboot``; the round's
  ``matchScores`` → ``= total``; ``matchWinner`` → ``= winner``;
- as comments, because no claim of the notation means the same: each project the engine found
  (``projects.all``, ``counted``), ``projects.rawEquivalent`` (raw project points before the
  outcome) and ``result.projectPoints`` (Baloot included, and doubled in a raised hand).

Left out on purpose: the contract's ``receiver``, ``riskTaker``, ``doubler`` and ``ashkal``
(they follow from the calls), ``coffee`` (a Gahwa is its raise line), ``result.winningTeam``
(it follows from the score), ``projects.winningTeam``, the log's ``phase``, final
``matchScores`` (the last total) and ``seconds``, and each card's ``id`` (its rank and suit).
"""

from __future__ import annotations

from typing import Any

from baloot_conformance.importers import (
    RANKS,
    SEATS,
    SUIT_NAMES,
    TEAMS,
    Deck,
    Node,
    match,
    pair,
    shown,
)

_CALLS = {
    "pass": "pass",
    "sun": "sun",
    "hokom": "hokum",
    "ashkal": "ashkal",
    "confirm_hokom": "confirm_hokum",
    "confirm_sun": "confirm_sun",
}
_RAISES = {
    "pass": "pass",
    "double": "double",
    "triple": "triple",
    "four": "four",
    "coffee": "gahwa",  # the engine's word for Gahwa
    "gahwa": "gahwa",
}
_KINDS = {"sun": "sun", "hokom": "hokum"}


def convert(log: Any, source: str) -> str:
    """BTN text for one majlis-baloot match log (see the module docstring)."""
    return match(log, source, "majlis@2", ("phase", "matchScores", "seconds"), _round)


def _card(node: Node) -> str:
    node.ignore("id")
    card = node["rank"].choice(RANKS, "rank") + node["suit"].choice(SUIT_NAMES, "suit")
    node.done()
    return card


def _card_id(node: Node) -> str:
    """A card written ``hearts-10``."""
    suit, _, rank = node.text().partition("-")
    if suit not in SUIT_NAMES or rank not in RANKS:
        raise node.error(f"expected a card like 'hearts-10', found {shown(node.value)}")
    return RANKS[rank] + SUIT_NAMES[suit]


def _seat(node: Node) -> str:
    return node.choice(dict(enumerate(SEATS)), "seat")


def _round(node: Node) -> list[str]:
    deck = Deck()
    lines = [f"dealer {_seat(node['dealer'])}"]
    for seat, cards in zip(SEATS, node["hands"].items(4), strict=True):
        dealt = " ".join(deck.give(_card(c), c) for c in cards.items(5))
        lines.append(f"deal {seat} {dealt}")
    lines.append(f"faceup {deck.give(_card(node['faceUp']), node['faceUp'])}")
    plays: list[str] = []
    for action in node["actions"].items():
        kind = action["type"].text()
        seat = _seat(action["seat"])
        if kind == "bid":
            words = [action["call"].choice(_CALLS, "call")]
            suit = action.get("suit")
            if suit is not None:
                words.append(suit.choice(SUIT_NAMES, "suit"))
            lines.append(f"bid {seat} {' '.join(words)}")
        elif kind == "double":
            words = [action["call"].choice(_RAISES, "raise")]
            locked = action.get("locked")
            if locked is not None:
                words.append("closed" if locked.flag() else "open")
            lines.append(f"raise {seat} {' '.join(words)}")
        elif kind == "play_card":
            legal = " ".join(_card_id(c) for c in action["legal"].items(at_least=1))
            card = deck.play(_card_id(action["cardId"]), action["cardId"])
            plays += [f"= legal {seat} {legal}", f"play {seat} {card}"]
        else:
            raise action["type"].error(
                f"unknown action type {kind!r}", hint="known: bid, double, play_card"
            )
        action.done()
    if node.has("redealt") and node["redealt"].flag():
        return [*lines, "= contract none"]
    node.ignore("redealt")
    lines.append(f"= contract {_contract(node['contract'])}")
    lines += plays
    lines += _projects(node["projects"])
    lines += _result(node["result"], node["matchScores"])
    return lines


def _contract(node: Node) -> str:
    kind = node["kind"].choice(_KINDS, "contract kind")
    words = [_seat(node["bidder"]), kind]
    trump = node.get("trump")
    if trump is not None:
        words.append(trump.choice(SUIT_NAMES, "trump"))
    level = node["multiplier"].integer()
    if level > 1:
        words.append(f"x{level}")
        if kind == "hokum":
            words.append("closed" if node["locked"].flag() else "open")
    node.ignore("receiver", "riskTaker", "doubler", "ashkal", "coffee", "locked")
    node.done()
    return " ".join(words)


def _project_cards(node: Node) -> tuple[str, ...]:
    return tuple(_card_id(c) for c in node["cards"].items())


def _projects(node: Node) -> list[str]:
    """The engine's projects as comments, and its project game points as a claim."""
    lines = []
    counted = {_project_cards(p) for p in node["counted"].items()}
    baloot = [0, 0]  # the engine counts Baloot among the projects; the notation does not
    for project in node["all"].items():
        cards = _project_cards(project)
        points = project["gamePoints"].integer()
        kind = project["kind"].note()
        if kind == "baloot" and cards in counted:
            baloot[project["team"].choice({0: "0", 1: "1"}, "team") == "1"] += points
        count = "counted" if cards in counted else "not counted"
        lines.append(
            f"# majlis project: {_seat(project['seat'])} {kind} {' '.join(cards)} "
            f"({points}, {count})"
        )
        project.ignore("highRank", "team")
        project.done()
    raw = node["rawEquivalent"]
    lines.append(f"# majlis projects rawEquivalent: {pair(*raw.pair(), raw)}")
    node.ignore("winningTeam")
    game = node["gamePoints"]
    ns, ew = game.pair()
    lines.append(f"= projectscore {pair(ns - baloot[0], ew - baloot[1], game)}")
    node.done()
    return lines


def _result(node: Node, totals: Node) -> list[str]:
    abnat, cards, projects = (node[k] for k in ("cardRawPoints", "cardGamePoints", "projectPoints"))
    outcome = "made" if node["contractMade"].flag() else "failed"
    reason = node["reason"].note()
    lines = [
        "# majlis projectPoints (Baloot included, doubled when raised): "
        f"{pair(*projects.pair(), projects)}",
        f"= abnat {pair(*abnat.pair(), abnat)}",
        f"= cardscore {pair(*cards.pair(), cards)}",
        f"= result {outcome}  # {reason}" if reason else f"= result {outcome}",
    ]
    kaboot = node.get("kaboot")
    if kaboot is not None:
        lines.append(f"= kaboot {kaboot.choice(dict(enumerate(TEAMS)), 'team')}")
    score = node["roundPoints"]
    lines += [
        f"= score {pair(*score.pair(), score)}",
        f"= total {pair(*totals.pair(), totals)}",
    ]
    winner = node.get("matchWinner")
    if winner is not None:
        lines.append(f"= winner {winner.choice(dict(enumerate(TEAMS)), 'team')}")
    node.ignore("winningTeam")
    node.done()
    return lines
