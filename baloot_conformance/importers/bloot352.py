"""The bloot352 importer: a match log of mohamed352/bloot's JavaScript engine to BTN.

The log is ``{engine, repo, commit, files, seed, options, driver, matchOver, winnerTeam, final,
handsPlayed, seconds, rounds}``; each round gives the dealer and the seat that bids first and
leads (``firstPlayer``: the dealer itself in this version, a house rule), the first five cards
of each seat, the face-up card (``topCard``), the stock (``rest``), every accepted call and the
calls the engine refused, the contract, each seat's eight cards (``hands8``), the projects the
engine found, declared and counted, the doubling window, every card with the engine's legal
cards for its seat, the claims said at the table (Sawa, Qayd), the engine's round result and
the match score after it. Seats 0-3 play in that order (seat ``s`` passes to ``s + 1``,
counter-clockwise): N W S E; team 0 (seats 0 and 2) is NS.

Placed as:

- ``dealer``, ``first5``, ``topCard`` → ``dealer``, ``deal``, ``faceup``; ``hands8`` →
  ``rest`` (each seat's eight cards less its first five and the face-up card; together they
  must be the stock ``rest``); ``firstPlayer`` → a comment (the profile says who bids first);
- ``calls`` → ``bid`` lines (a round-2 Hokum with its suit); each call in ``refused`` (the
  engine's error for a call it rejected) → a comment line before the call that was accepted;
- ``contract`` → ``= contract`` (buyer, ``sun`` for an Ashkal too, trump, ``xN`` when
  raised); ``doubling`` → ``raise`` lines (``double``, ``triple``, ``four`` by ``stage``, or
  ``pass``); ``sunDoubleAllowed`` → a comment;
- ``declarations`` with ``projectsFound`` → ``declare`` lines: every project the engine found
  for a seat, of a type the seat declared, with its cards (``fourAces`` is ``four_hundred`` in
  Sun and a ``hundred`` in Hokum); ``projectsFound``, ``countedProjects`` and
  ``droppedProjects`` → comments;
- ``plays`` → ``= legal`` (the engine's legal cards for the seat) and ``play``; a card with
  ``illegal: true`` is played as logged (it is the foul) with its ``vtype`` as the line's
  comment; the ``baloot`` event → a ``baloot`` line after its card; ``violationRevealed`` → a
  comment after the card that proves a foul; each trick's ``trickHistory`` entry → ``= trick``
  (winner and card points);
- ``claims``: a Sawa → ``sawa`` before the trick it is said at and ``= sawa right|wrong`` (the
  engine's ``valid``); the tricks the engine fills in after a right Sawa (``trickHistory``
  past the cards played) → comments; ``remaining`` and ``solverSaid`` → the claim's comment.
  A Qayd → ``foul SEAT tT.pP TYPE`` after the ``cardsInTrick``-th card of its ``trick``, with
  ``= foul right|wrong`` (``verdict``). A Qayd names a foul *type*, not a card; its target is
  the engine's ``standingFoul`` card when one stands, else the last card played (a call with
  no foul standing is wrong whatever card it names). A Qayd said before the first card names
  none: ``foul SEAT - TYPE``;
- ``result``: ``pts`` → ``= abnat``; ``projQaid`` → ``= projectscore``; ``capotTeam`` →
  ``= kaboot``; ``buyerLost`` → ``= result``; ``qaid`` → ``= score``; ``totalsAfter`` →
  ``= total``; ``winnerTeam`` → ``= winner`` after the last hand of a match that is over.
  In a hand a claim ended (a Qayd or a wrong Sawa), ``pts``, ``trickWins`` and ``buyerLost``
  are the engine's placeholders (0, 0 and true whoever wins) and are comments, not claims;
- as comments: ``trickWins``, ``balootQaid``, ``qatClaim``, ``handResult``, each of the
  driver's ``fouls`` and the engine's ``pendingViolations``, the header's ``repo``,
  ``commit``, ``files``, ``options`` and ``driver``.

Left out on purpose, as repeats of what is placed: each call's, raise's, card's and claim's
``events`` (the engine's echo of the call, ``bidWon``, ``doubleOpen``, ``declareProjects``,
``round2``, ``trickEnd``, ``projectAnnounce``, ``projectReveal``, ``handEnd``, ``matchEnd``,
``sawaClaimed``, ``qatClaimed``; their types are checked), each round's ``index``,
``totalsBefore`` (the previous total), ``handsPlayed``, ``balootTeam`` and ``balootSeat``
(the ``baloot`` line), ``result.doubleLevel`` and ``result.safeSaved`` (false: safe mode is
off), ``result.sawa``, a claim's ``handsAtClaim``, ``latentFouls``, ``why`` and ``trick``
fields (the position of its line), the round's ``serialized`` state (the engine's
``serializeMatch`` at the hand's end, which repeats the round), and the log's ``final``,
``handsPlayed`` and ``seconds``.
"""

from __future__ import annotations

from typing import Any

from baloot_conformance.importers import (
    SEATS,
    SUIT_SYMBOLS,
    TEAMS,
    Deck,
    Node,
    comment_text,
    match,
    pair,
    shown,
    symbol_card,
)

_CALLS = {"pass": "pass", "hokum": "hokum", "sun": "sun", "ashkal": "ashkal"}
_STAGES = {"offer": "double", "redouble": "triple", "recoat": "four"}
_MODES = {"sun": "sun", "hokum": "hokum"}
_PROJECTS = {"sira": "sira", "fifty": "fifty", "hundred": "hundred", "fourAces": "fourAces"}
_FOULS = {"qatee": "qatee", "makabr": "makabr", "madaq": "madaq", "rubu": "rubu"}
_VERDICTS = {"right": "right", "wrong": "wrong"}
_CALL_EVENTS = ("bid", "bidWon", "doubleOpen", "declareProjects", "round2")
_RAISE_EVENTS = ("doubled", "doubleOpen", "doublingClosed")
_PLAY_EVENTS = (
    "trickEnd",
    "projectAnnounce",
    "projectReveal",
    "violationRevealed",
    "baloot",
    "handEnd",
    "matchEnd",
)
_CLAIM_EVENTS = ("sawaClaimed", "qatClaimed", "handEnd", "matchEnd")
_HEADER = ("repo", "commit", "files", "options", "driver")


def convert(log: Any, source: str) -> str:
    """BTN text for one bloot352 match log (see the module docstring)."""
    root = Node(log, source)
    header = [f"# bloot352 {name}: {_flat(root[name])}" for name in _HEADER]
    over = root["matchOver"].flag()
    winner = root.get("winnerTeam")
    team = winner.choice(dict(enumerate(TEAMS)), "team") if over and winner is not None else None
    return match(
        log,
        source,
        "bloot352@2",
        ("final", "handsPlayed", "seconds", "matchOver", "winnerTeam", *_HEADER),
        _round,
        comments=header,
        last_lines=[f"= winner {team}"] if team is not None else [],
    )


def _flat(node: Node) -> str:
    """A header value (a string, or an object of strings, booleans, numbers and lists of
    objects) as one line of text."""
    value = node.value
    if isinstance(value, str):
        return node.note()
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float) or value is None:
        return shown(value)
    if isinstance(value, list):
        return "[" + ", ".join(_flat(item) for item in node.items()) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key}: {_flat(node[key])}" for key in node.fields()) + "}"
    raise node.error(f"expected text, a number or an object, found {shown(value)}")


def _cards(node: Node, length: int | None = None, at_least: int = 0) -> list[str]:
    return [symbol_card(c) for c in node.items(length, at_least)]


def _seat(node: Node) -> str:
    return node.choice(dict(enumerate(SEATS)), "seat")


def _events(node: Node, known: tuple[str, ...]) -> list[Node]:
    """The engine's events of a call, card or claim: each of a type this importer knows."""
    events = list(node.items())
    for event in events:
        kind = event["type"]
        if kind.value not in known:
            raise kind.error(f"unknown event type {shown(kind.value)}", hint=f"known: {known}")
        event.ignore(*event.fields())
    return events


def _round(node: Node) -> list[str]:
    deck = Deck()
    node.ignore("index", "totalsBefore", "handsPlayed", "serialized", "balootTeam", "balootSeat")
    first5 = [[deck.give(c, n) for c, n in zip(_cards(s, 5), s.items(5), strict=True)]
              for s in node["first5"].items(4)]  # fmt: skip
    faceup = deck.give(symbol_card(node["topCard"]), node["topCard"])
    lines = [
        f"# bloot352 firstPlayer: {_seat(node['firstPlayer'])} (bids first and leads)",
        f"dealer {_seat(node['dealer'])}",
        *(f"deal {seat} {' '.join(cards)}" for seat, cards in zip(SEATS, first5, strict=True)),
        f"faceup {faceup}",
    ]
    lines += _calls(node["calls"])
    contract = node["contract"]
    mode = contract["mode"].choice(_MODES, "mode")
    lines += _rest(node["hands8"], node["rest"], first5, faceup, deck)
    lines += _raises(node["doubling"])
    allowed = node["sunDoubleAllowed"].flag()
    lines.append(f"# bloot352 sunDoubleAllowed: {'true' if allowed else 'false'}")
    lines.append(f"= contract {_contract(contract, mode)}")
    lines += _projects(node, mode)
    claims = list(node["claims"].items())
    if len(claims) > 1:
        raise node["claims"].error("more than one claim in a round: each ends the hand")
    claim = claims[0] if claims else None
    plays, filled = _plays(node["plays"], node["trickHistory"], claim, deck)
    lines += plays
    lines += _fouls(node["fouls"], node["pendingViolations"])
    penalty = claim is not None and (claim["kind"].value == "qayd" or not _sawa_right(claim))
    lines += filled
    lines += _result(node["result"], penalty)
    lines.append(f"# bloot352 handResult: {node['handResult'].note()}")
    totals = node["totalsAfter"]
    lines.append(f"= total {pair(*totals.pair(), totals)}")
    return lines


def _calls(calls: Node) -> list[str]:
    lines = []
    for call in calls.items():
        seat = _seat(call["seat"])
        refused = call.get("refused")
        for attempt in refused.items() if refused is not None else ():
            words = _call_words(attempt["action"])
            lines.append(f"# refused: bid {seat} {words} ({attempt['error'].note()})")
            attempt.done()
        round_ = call["round"].choice({1: "1", 2: "2"}, "bidding round")
        words = _call_words(call["action"])
        lines.append(f"bid {seat} {words}" + ("  # round 2" if round_ == "2" else ""))
        _events(call["events"], _CALL_EVENTS)
        call.done()
    return lines


def _call_words(action: Node) -> str:
    words = [action["type"].choice(_CALLS, "call")]
    suit = action.get("suit")
    if suit is not None:
        words.append(suit.choice(SUIT_SYMBOLS, "suit"))
    action.done()
    return " ".join(words)


def _rest(hands8: Node, stock: Node, first5: list[list[str]], faceup: str, deck: Deck) -> list[str]:
    """``rest`` lines: each seat's eight cards less its first five and the face-up card; the
    cards they list must be the stock the engine dealt them from."""
    lines = []
    given = []
    for seat, hand, five in zip(SEATS, hands8.items(4), first5, strict=True):
        eight = list(zip(_cards(hand, 8), hand.items(8), strict=True))
        missing = [c for c in five if c not in {card for card, _ in eight}]
        if missing:
            raise hand.error(f"the eight cards lack {' '.join(missing)} of the seat's first five")
        rest = [deck.give(c, at) for c, at in eight if c not in five and c != faceup]
        given += rest
        lines.append(f"rest {seat} {' '.join(rest)}")
    if sorted(given) != sorted(_cards(stock, 11)):
        raise stock.error("the stock is not the cards that complete the four hands")
    return lines


def _raises(doubling: Node) -> list[str]:
    lines = []
    for step in doubling.items():
        stage = step["stage"].choice(_STAGES, "doubling stage")
        action = step["action"]
        kind = action["type"].choice({"double": "double", "pass": "pass"}, "doubling action")
        action.done()
        lines.append(f"raise {_seat(step['seat'])} {stage if kind == 'double' else 'pass'}")
        _events(step["events"], _RAISE_EVENTS)
        step.done()
    return lines


def _contract(node: Node, mode: str) -> str:
    words = [_seat(node["buyer"]), mode]
    trump = node.get("trump")
    if (trump is None) != (mode == "sun"):
        raise node["trump"].error(f"a {mode} contract with trump {shown(node['trump'].value)}")
    if trump is not None:
        words.append(trump.choice(SUIT_SYMBOLS, "trump"))
    level = node["doubleLevel"].choice({1: "1", 2: "2", 3: "3", 4: "4"}, "double level")
    if level != "1":
        words.append(f"x{level}")
    ashkal = node["ashkal"].flag()
    node.ignore("doubleTeam")  # the last raiser's team: the raise lines say it
    node.done()
    return " ".join(words) + ("  # ashkal" if ashkal else "")


def _project(node: Node) -> tuple[str, str, list[str]]:
    seat = _seat(node["seat"])
    kind = node["type"].choice(_PROJECTS, "project type")
    cards = _cards(node["cards"], at_least=3)
    node.done()
    return seat, kind, cards


def _projects(node: Node, mode: str) -> list[str]:
    """The projects as comments, and ``declare`` lines for those the seats declared."""
    found = [(_project(p)) for p in node["projectsFound"].items()]
    lines = [
        f"# bloot352 {name}: "
        + ("; ".join(f"{s} {k} {' '.join(c)}" for s, k, c in projects) or "none")
        for name, projects in (
            ("projectsFound", found),
            ("countedProjects", [_project(p) for p in node["countedProjects"].items()]),
            ("droppedProjects", [_project(p) for p in node["droppedProjects"].items()]),
        )
    ]
    declarations = node["declarations"]
    declared: dict[str, set[str]] = {}
    for key in declarations.fields():
        if key not in ("0", "1", "2", "3"):
            raise declarations[key].error(f"unknown seat {key!r}", hint="known: 0 1 2 3")
        types = declarations[key].items()
        declared[SEATS[int(key)]] = {t.choice(_PROJECTS, "project type") for t in types}
    declarations.done()
    for seat, kind, cards in found:
        if kind in declared.get(seat, set()):
            word = {"fourAces": "four_hundred" if mode == "sun" else "hundred"}.get(kind, kind)
            lines.append(f"declare {seat} {word} {' '.join(cards)}")
    return lines


def _sawa_right(claim: Node) -> bool:
    return claim["solverSaid"].flag() if claim.has("solverSaid") else False


def _claim_at(claim: Node) -> int:
    """How many cards of the hand are down when the claim is said."""
    trick = claim["trick"].integer()
    within = claim["cardsInTrick"].integer() if claim.has("cardsInTrick") else 0
    if not 1 <= trick <= 8 or within > 3:
        raise claim["trick"].error(f"a claim at trick {trick}, card {within + 1}")
    return (trick - 1) * 4 + within


def _plays(
    plays: Node, history: Node, claim: Node | None, deck: Deck
) -> tuple[list[str], list[str]]:
    """The card lines with their legal sets, trick claims and the claim said among them; and
    the comments for the tricks the engine filled in after a right Sawa."""
    lines: list[str] = []
    played: list[tuple[str, str]] = []
    tricks = list(history.items())
    at = _claim_at(claim) if claim is not None else None
    for number, play in enumerate(plays.items()):
        if at == number and claim is not None:
            lines += _claim(claim, played)
            at = None
        seat = _seat(play["seat"])
        if play["trick"].integer() != number // 4 + 1:
            raise play["trick"].error(f"card {number + 1} of the hand is not in this trick")
        legal = " ".join(_cards(play["legal"], at_least=1))
        card = deck.play(symbol_card(play["card"]), play["card"])
        illegal = play.get("illegal")
        lines.append(f"= legal {seat} {legal}")
        if illegal is not None and illegal.flag():
            vtype = play["vtype"].choice(_FOULS, "foul type")
            lines.append(f"play {seat} {card}  # illegal ({vtype}): not in the legal set")
        else:
            play.ignore("vtype")
            lines.append(f"play {seat} {card}")
        played.append((seat, card))
        for event in _events(play["events"], _PLAY_EVENTS):
            kind = event.value["type"]
            if kind == "baloot":
                lines.append(f"baloot {_seat(event['seat'])}")
            elif kind == "violationRevealed":
                lines.append(f"# bloot352: {seat} {card} proves its earlier foul")
        play.done()
        if number % 4 == 3:
            lines.append(_trick(tricks, number // 4, played[-4:], plays))
    if claim is not None and at is not None:
        if at != len(played):
            raise claim["trick"].error(f"a claim at card {at + 1}, but {len(played)} were played")
        lines += _claim(claim, played)
    if len(played) % 4 and claim is None:
        raise plays.error(f"{len(played)} cards played, and no claim ended the hand")
    filled = []
    for index in range(len(played) // 4 + (1 if len(played) % 4 else 0), len(tricks)):
        trick = tricks[index]
        cards = [(_seat(p["seat"]), symbol_card(p["card"])) for p in trick["plays"].items()]
        for entry in trick["plays"].items():
            entry.ignore("seat", "card")
            entry.done()
        winner, points = _seat(trick["winner"]), trick["pts"].integer()
        text = ", ".join(f"{s} {c}" for s, c in cards)
        filled.append(
            f"# bloot352 trick {index + 1} filled in after the Sawa: {text}, "
            f"credited to {winner} {points}"
        )
        trick.done()
    if len(played) % 4 and len(tricks) > len(played) // 4:
        raise history.error("a trick is in the history that was not played to its end")
    return lines, filled


def _trick(tricks: list[Node], index: int, played: list[tuple[str, str]], at: Node) -> str:
    if index >= len(tricks):
        raise at.error(f"trick {index + 1} was played but is not in the trick history")
    trick = tricks[index]
    logged = []
    for entry in trick["plays"].items(4):
        logged.append((_seat(entry["seat"]), symbol_card(entry["card"])))
        entry.done()
    if logged != played:
        raise trick.error(f"trick {index + 1} lists other cards than 'plays': {logged}")
    winner, points = _seat(trick["winner"]), trick["pts"].integer()
    trick.done()
    return f"= trick {index + 1} {winner} {points}"


def _claim(claim: Node, played: list[tuple[str, str]]) -> list[str]:
    """The claim's line and the engine's verdict, said when ``played`` cards are down."""
    kind = claim["kind"].choice({"sawa": "sawa", "qayd": "qayd"}, "claim kind")
    seat = _seat(claim["seat"])
    claim.ignore("handsAtClaim", "trick")
    events = _events(claim["events"], _CLAIM_EVENTS)
    del events
    if kind == "sawa":
        remaining = claim["remaining"].integer()
        right = claim["solverSaid"].flag()
        verdict = "right" if right else "wrong"
        claim.done()
        return [
            f"sawa {seat}  # {remaining} tricks left; the engine's solver says {verdict}",
            f"= sawa {verdict}",
        ]
    claim.ignore("cardsInTrick", "why", "latentFouls")
    named = claim.get("claimType")
    words = named.choice(_FOULS, "foul type") if named is not None else ""
    verdict = claim["verdict"].choice(_VERDICTS, "verdict")
    standing = claim.get("standingFoul")
    target: int | None = None
    if standing is not None:
        card = symbol_card(standing["card"])
        offender = _seat(standing["seat"])
        if (offender, card) not in played:
            raise standing.error(f"the standing foul {offender} {card} was not played")
        target = played.index((offender, card))
        standing.ignore("trickIndex", "vtype", "provedBy")
        standing.done()
        why = "the engine's standing foul"
    elif played:
        target = len(played) - 1
        why = "no foul stands: the last card played"
    else:
        why = "before the first card: no card"
    claim.done()
    said = f"qayd by {seat}" + (f" naming {words}" if words else " naming no type")
    name = "-" if target is None else f"t{target // 4 + 1}.p{target % 4 + 1}"
    return [
        f"foul {seat} {name}{' ' + words if words else ''}  # {comment_text(said)}; target: {why}",
        f"= foul {verdict}",
    ]


def _fouls(fouls: Node, pending: Node) -> list[str]:
    """The driver's record of each illegal card and the engine's, as comments."""
    lines = []
    for foul in fouls.items():
        seat, card = _seat(foul["seat"]), symbol_card(foul["card"])
        vtype = foul["vtype"].choice(_FOULS, "foul type")
        escaped = " ".join(_cards(foul["escaped"], at_least=1))
        revealed = foul.get("revealed")
        if revealed is None:
            proof = "never proved"
        else:
            proof = (
                f"proved by {symbol_card(revealed['card'])} in trick {revealed['trick'].integer()} "
                f"(card {revealed['position'].integer()}, "
                f"{'standing' if revealed['standing'].flag() else 'not standing'} after it)"
            )
            revealed.done()
        turns = ", ".join(
            f"t{t['trick'].integer()} {_seat(t['seat'])} "
            + ("called" if t["called"].flag() else "silent")
            for t in foul["opponentTurns"].items()
        )
        for turn in foul["opponentTurns"].items():
            turn.ignore("trick", "seat", "called")
            turn.done()
        caller = foul.get("calledBy")
        lines.append(
            f"# bloot352 foul: {seat} {card} in trick {foul['trick'].integer()} ({vtype}, "
            f"kept back {escaped}), {proof}; opponents' turns: {turns or 'none'}; called by "
            f"{_seat(caller) if caller is not None else 'nobody'}: {foul['outcome'].note()}"
        )
        foul.done()
    for violation in pending.items():
        confirmed = violation.get("confirmed")
        lines.append(
            f"# bloot352 pendingViolation: {_seat(violation['seat'])} "
            f"{symbol_card(violation['card'])} trick {violation['trickIndex'].integer() + 1} "
            f"{violation['vtype'].choice(_FOULS, 'foul type')} escaped "
            f"{' '.join(_cards(violation['escaped'], at_least=1))}"
            + (" confirmed" if confirmed is not None and confirmed.flag() else "")
        )
        violation.done()
    return lines


def _result(node: Node, penalty: bool) -> list[str]:
    points, wins = node["pts"], node["trickWins"]
    baloot, projects = node["balootQaid"], node["projQaid"]
    lost = node["buyerLost"].flag()
    node.ignore("doubleLevel", "safeSaved", "sawa")
    lines = [
        f"# bloot352 trickWins: {pair(*wins.pair(), wins)}; balootQaid: "
        f"{pair(*baloot.pair(), baloot)}"
    ]
    claim = node.get("qatClaim")
    if claim is not None:
        lines.append(f"# bloot352 qatClaim: {_flat(claim)}")
    if penalty:
        lines.append(
            f"# bloot352 pts {pair(*points.pair(), points)}, buyerLost "
            f"{'true' if lost else 'false'}: placeholders of a hand a claim ended"
        )
    else:
        lines.append(f"= abnat {pair(*points.pair(), points)}")
    lines.append(f"= projectscore {pair(*projects.pair(), projects)}")
    capot = node.get("capotTeam")
    if capot is not None:
        lines.append(f"= kaboot {capot.choice(dict(enumerate(TEAMS)), 'team')}")
    if not penalty:
        lines.append(f"= result {'failed' if lost else 'made'}")
    score = node["qaid"]
    lines.append(f"= score {pair(*score.pair(), score)}")
    node.done()
    return lines
