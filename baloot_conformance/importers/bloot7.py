"""The bloot7 importer: a match log of 7oossam/bloot's ``src/engine`` to BTN.

The log is ``{engine, repo, commit, files, seed, options, matchOver, winner, qahwa, final,
seconds, sawaSolverSeconds, rounds}``: one engine ``Round`` per hand, driven by the match loop
of the game's controller (dealer rotation, totals, the Gahwa's end of the match, Sawa). Seats
0-3 play in that order (counter-clockwise, "the dealer's right bids first"): N W S E; team
``"0"`` (seats 0 and 2) is NS. Cards are the engine's ids, suit letter then rank (``SJ``,
``H10``).

Placed as:

- the log's ``repo``, ``commit``, ``files`` (the commit of each engine file) and ``options``
  → comment lines of the header; ``engine`` and ``seed`` → the ``Engine`` and ``Seed`` tags;
- ``dealer`` → ``dealer``; ``initial.hands`` → ``deal`` lines; ``initial.stock[0]`` (the
  ground card, repeated as ``groundCard``) → ``faceup``; ``hands`` (the eight cards after
  the buy) → ``rest`` lines (each seat's eight less its first five and the face-up card);
  a redealt round's ``stock`` → a comment (nobody receives it);
- ``bids`` → ``bid`` lines (a round-1 Hokum, in the face-up card's suit, written as the
  notation writes it, without the suit; a round-2 Hokum with its suit); ``doubling.calls`` →
  ``raise`` lines (``qahwa`` spelled ``gahwa``, a logged ``closed`` as ``closed``/``open``);
- the ``legal`` calls of each bid and raise → the call's comment. BTN has no text claim for
  legal calls (``suite`` checks them from an engine's answers, not from a transcript), so
  they are not checked; ``tests/test_bloot7_logs.py`` compares them with the kit's;
- ``contract`` with ``doubling.level`` and ``doubling.closed`` → ``= contract`` (the buyer,
  the mode, the trump, ``xN`` for the engine's level, ``closed``/``open`` in a raised
  Hokum). The engine's level 5 (قهوة) multiplies by 4 (``doubling.ts doubleMultiplier``),
  which is the notation's ``x4``; the Ashkal's ``signalSuits`` (a convention telling the
  partner what to lead, no rule) → the contract's comment;
- ``plays`` → ``= legal`` (the engine's ``legalMovesFor``) then ``play``, ``by: sawaMove``
  as the card's comment; ``trickWinner`` → ``= trick N W``; ``balootAt`` → ``baloot`` after
  that card (a comment when it is the hand's last card: the notation takes no announcement
  after it, and the Baloot is scored from the cards held);
- ``projects.declared`` → a comment per project (the engine declares every seat's projects
  itself, so there are no ``declare`` lines); ``projects.points`` → ``= projectscore``;
- ``result.rawPoints`` → ``= abnat``; ``result.sheet.cards`` → ``= aklat``; the sheet's
  ``outcome`` of its ``judgedTeam`` → ``= result`` (the buyer made it when the judged side
  is the buyer's and won, or is the other side and lost; ``tie`` as ``tie``); the sheet's
  ``kaboot`` → ``= kaboot``; ``gained`` (what the match banks) → ``= score``;
  ``totalsAfter`` → ``= total``; the log's ``winner``, when ``matchOver``, → ``= winner``
  after the last hand; a round dealt again after an all-pass (``redealt``) → its calls,
  ``= contract none`` and its ``= total``;
- as comments, because no claim means the same: the sheet's ``abnat`` (cards, the last trick
  and the raw projects and Baloot of each side: what the contract is decided on), its
  ``projects`` (the projects that count and the Baloot, listed under their owner whoever
  the outcome gives them to) and ``result.projectPoints`` (their game points after the
  outcome, Baloot included).

**Sawa.** The controller offers السوا to seat 0 only; ``sawa`` → a ``sawa`` line of its
``seat`` where it claimed (before the first card of trick ``sawa.trick``) and ``sawa.ok`` (the
engine's ``sawaHolds``) → ``= sawa right|wrong``. In the kit a Sawa ends the hand, while the engine
plays it out: after a right claim the claimant's side plays the engine's ``sawaMove`` line
and takes every trick left, after a wrong one every seat plays on and the controller then
gives the claimant's opponents the whole hand (``gained``, ``sheetAfterWrongSawa``). So the
cards played after the claim are comment lines (with their legal sets and the tricks'
winners: what the engine did, not checked), and the hand's claims are those that mean the
same for a hand the claim ended:

- a right Sawa: every claim as above. The claimed tricks, their card points and the last
  trick go to the claimant's side, as the engine's line gives them;
- a wrong Sawa: ``= score`` (``gained``), ``= result`` (from ``sheetAfterWrongSawa``: the
  claimant's side lost), ``= total`` and ``= winner``. The Round's figures of the played-out
  hand (``result``, its sheet, ``projects.points``) and the rewritten sheet's cards, ground,
  abnat, projects and Kaboot are comments: in the kit a hand a penalty ends has the card
  points of the tricks taken before the claim, no projects and no Kaboot.

Left out on purpose, as repeats of what is placed: each round's ``index`` (its position),
``matchScoreBefore`` (the previous total), ``groundCard``; each bid's
``answer`` (the next call's seat, the pending Hokum and its challengers, the contract or the
redeal follow from the calls; ``= contract`` checks them) and each raise's ``answer``; the
contract's ``declarerTeam``, ``ashkal.caller`` (the buyer) and ``ashkal.groundTo`` (the
partner, who takes the face-up card); ``doubling.offered``, ``doubler``, ``raiserTeam`` and
``lockedPlay`` (they follow from the raises); each play's ``trick``; ``tricks`` (the plays
again, checked to agree); ``balootHolder``, ``balootDeclared`` and ``result.baloot``;
``projects.winner``; ``result.mode``, ``trumpSuit``, ``declarerTeam``, ``scoredPoints`` (the
raw points times the mode's display factor), ``gamePoints`` (``gained``, unless a wrong Sawa),
``tricksWon``; the sheet's ``ground``, ``result``, ``winner``, ``double`` and ``judgedTeam``
beside its outcome; the driver's ``handResult``, ``kabootTeam``, ``buyerMade`` and
``qahwaEndsMatch``; the Sawa's ``cardsLeft`` and ``handsAtClaim`` (the cards not yet played);
the log's ``qahwa`` and ``final`` (the last hand's claims), ``seconds`` and
``sawaSolverSeconds``.
"""

from __future__ import annotations

from typing import Any

from baloot_conformance.importers import (
    RANKS,
    SEATS,
    TEAMS,
    Deck,
    Node,
    comment_text,
    match,
    pair,
    shown,
)

_SUITS = {"S": "S", "H": "H", "D": "D", "C": "C"}
_CALLS = {"pass": "pass", "hokum": "hokum", "sun": "sun", "ashkal": "ashkal"}
_RAISES = {"pass": "pass", "double": "double", "triple": "triple", "four": "four", "qahwa": "gahwa"}
_MODES = {"sun": "sun", "hokum": "hokum"}
#: The engine's doubling levels (1 none ... 5 قهوة) as the notation's multipliers
#: (doubling.ts doubleMultiplier: the Gahwa multiplies by 4).
_LEVELS = {1: "1", 2: "2", 3: "3", 4: "4", 5: "4"}
_PROJECTS = {"sira": "sira", "khamsin": "fifty", "miya": "hundred", "arbaamiya": "four_hundred"}
_OUTCOMES = {"won": "won", "lost": "lost", "tie": "tie"}
_TEAM_KEYS = ("0", "1")
_HEADER = ("repo", "commit", "files", "options")
_IGNORED = ("matchOver", "winner", "qahwa", "final", "seconds", "sawaSolverSeconds", *_HEADER)


def convert(log: Any, source: str) -> str:
    """BTN text for one bloot7 match log (see the module docstring)."""
    root = Node(log, source)
    winner = _match_winner(root)
    return match(
        log,
        source,
        "bloot7@1",
        _IGNORED,
        _round,
        comments=_header(root),
        last_lines=[f"= winner {winner}"] if winner is not None else [],
    )


def _header(root: Node) -> list[str]:
    """The header's comment lines: the engine's repository, commit, files and options."""
    lines = [
        f"# {root['repo'].note()} at commit {root['commit'].note()}; the files the match ran, "
        "each at its commit:"
    ]
    files = root["files"]
    for name in files.fields():
        lines.append(f"#   {comment_text(Node(name, root.source).note())}: {files[name].note()}")
    files.done()
    options = root["options"]
    doubling = options["doubling"]
    sun_limit = doubling["sunLimit"].integer()
    doubling.done()
    lines.append(
        f"# options: Sun doubling limit {sun_limit}, match target "
        f"{options['matchTarget'].integer()}, Sawa offered to seat "
        f"{_seat(options['sawaSeat'])} only"
    )
    options.done()
    return lines


def _match_winner(root: Node) -> str | None:
    """The team that won the match, claimed after the last hand; ``None`` if unfinished."""
    if not root["matchOver"].flag():
        return None
    return _team(root["winner"])


def _card(node: Node) -> str:
    """A card written ``SJ``, ``H10``."""
    text = node.text()
    suit, rank = text[:1], text[1:]
    if suit not in _SUITS or rank not in RANKS:
        raise node.error(f"expected a card like 'SJ' or 'H10', found {shown(text)}")
    return RANKS[rank] + suit


def _seat(node: Node) -> str:
    return node.choice(dict(enumerate(SEATS)), "seat")


def _team(node: Node) -> str:
    return node.choice({0: "NS", 1: "EW", "0": "NS", "1": "EW"}, "team")


def _teams(node: Node) -> tuple[int, int]:
    """A per-team object ``{"0": NS, "1": EW}``."""
    ns, ew = node["0"].integer(), node["1"].integer()
    node.done()
    return ns, ew


def _team_pair(node: Node) -> str:
    return pair(*_teams(node), node)


def _by_seat(node: Node) -> list[Node]:
    """The four entries of an object keyed by seat ``"0"`` to ``"3"``."""
    entries = [node[key] for key in "0123"]
    node.done()
    return entries


def _round(node: Node) -> list[str]:
    deck = Deck()
    node.ignore("index", "matchScoreBefore")
    initial = node["initial"]
    five = [
        [deck.give(_card(c), c) for c in cards.items(5)] for cards in _by_seat(initial["hands"])
    ]
    stock = initial["stock"]
    cards = [_card(c) for c in stock.items(12)]
    faceup = deck.give(cards[0], next(iter(stock.items())))
    initial.done()
    if _card(node["groundCard"]) != faceup:
        raise node["groundCard"].error(f"the ground card is not the stock's first card {faceup}")
    lines = [f"dealer {_seat(node['dealer'])}"]
    lines += [f"deal {seat} {' '.join(cards)}" for seat, cards in zip(SEATS, five, strict=True)]
    lines.append(f"faceup {faceup}")
    lines += _bids(node["bids"], faceup)
    if node.has("redealt") and node["redealt"].flag():
        lines.append(f"# stock, dealt to nobody: {' '.join(cards[1:])}")
        return [*lines, "= contract none", f"= total {_team_pair(node['totalsAfter'])}"]
    node.ignore("redealt")
    lines += _rest(node["hands"], five, faceup, deck)
    doubling = node["doubling"]
    raises = _raises(doubling["calls"])
    lines += raises
    lines.append(_contract(node["contract"], doubling))
    doubling.ignore("offered", "doubler", "raiserTeam", "lockedPlay")
    doubling.done()
    lines += _projects(node["projects"])[0]
    sawa = node.get("sawa")
    claim = _Claim(sawa) if sawa is not None else None
    lines += _plays(node, deck, claim)
    node.ignore("balootHolder", "balootDeclared")
    lines += _outcome(node, claim)
    return lines


def _legal_calls(node: Node, faceup_suit: str | None = None) -> str:
    """A call's legal calls as its comment, as the notation writes the calls: ``hokum:S`` as
    ``hokum S`` (as ``hokum`` in round 1, whose Hokum is in the face-up card's suit, given as
    ``faceup_suit``), ``double:closed`` as ``double closed``, ``qahwa:open`` as ``gahwa
    open``."""
    words = []
    for item in node.items(at_least=1):
        word, _, arg = item.text().partition(":")
        word = _RAISES.get(word, word) if word not in _CALLS else word
        if not word.isalpha() or arg not in ("", "open", "closed", *_SUITS):
            raise item.error(
                "expected a call like 'pass', 'hokum:S' or 'double:closed', "
                f"found {shown(item.value)}"
            )
        if word == "hokum" and arg == faceup_suit:
            arg = ""
        words.append(f"{word} {arg}" if arg else word)
    return f"  # legal: {', '.join(words)}"


def _bids(node: Node, faceup: str) -> list[str]:
    """The calls; a round-1 Hokum is written without its suit, the face-up card's."""
    lines = []
    for bid in node.items():
        first = bid["round"].choice({1: "1", 2: "2"}, "bidding round") == "1"
        face = faceup[-1] if first else None
        words = [bid["call"].choice(_CALLS, "call")]
        suit = bid.get("suit")
        if suit is not None and suit.choice(_SUITS, "suit") != face:
            words.append(suit.choice(_SUITS, "suit"))
        legal = _legal_calls(bid["legal"], face)
        lines.append(f"bid {_seat(bid['seat'])} {' '.join(words)}{legal}")
        bid.ignore("answer")
        bid.done()
    return lines


def _raises(node: Node) -> list[str]:
    lines = []
    for call in node.items():
        words = [call["call"].choice(_RAISES, "raise")]
        closed = call.get("closed")
        if closed is not None:
            words.append("closed" if closed.flag() else "open")
        legal = _legal_calls(call["legal"])
        lines.append(f"raise {_seat(call['seat'])} {' '.join(words)}{legal}")
        call.ignore("answer")
        call.done()
    return lines


def _rest(node: Node, five: list[list[str]], faceup: str, deck: Deck) -> list[str]:
    """``rest`` lines: each seat's eight cards less its first five and the face-up card."""
    lines = []
    for seat, (hand, first) in enumerate(zip(_by_seat(node), five, strict=True)):
        eight = [(_card(c), c) for c in hand.items(8)]
        missing = [c for c in first if c not in {card for card, _ in eight}]
        if missing:
            raise hand.error(f"the eight cards lack {' '.join(missing)} of the seat's first five")
        rest = [deck.give(c, at) for c, at in eight if c not in first and c != faceup]
        lines.append(f"rest {SEATS[seat]} {' '.join(rest)}")
    return lines


def _contract(node: Node, doubling: Node) -> str:
    mode = node["mode"].choice(_MODES, "mode")
    words = [_seat(node["declarer"]), mode]
    trump = node.get("trumpSuit")
    if trump is not None:
        words.append(trump.choice(_SUITS, "suit"))
    level = int(doubling["level"].choice(_LEVELS, "doubling level"))
    closed = doubling["closed"].flag()
    if level > 1:
        words.append(f"x{level}")
        if mode == "hokum":
            words.append("closed" if closed else "open")
    comment = ""
    ashkal = node.get("ashkal")
    if ashkal is not None:
        signal = " ".join(s.choice(_SUITS, "suit") for s in ashkal["signalSuits"].items())
        comment = f"  # Ashkal: the partner is asked to lead {signal}"
        ashkal.ignore("caller", "groundTo")
        ashkal.done()
    node.ignore("declarerTeam")
    node.done()
    return f"= contract {' '.join(words)}{comment}"


def _projects(node: Node) -> tuple[list[str], Node]:
    """The engine's projects as comments (it declares for every seat), and its game points
    per team (``points``, for ``= projectscore``)."""
    lines = []
    for project in node["declared"].items():
        kind = project["kind"].choice(_PROJECTS, "project")
        cards = " ".join(_card(c) for c in project["cards"].items(at_least=3))
        lines.append(f"# bloot7 project: {_seat(project['seat'])} {kind} {cards}")
        project.done()
    node.ignore("winner")
    points = node["points"]
    node.done()
    return lines, points


class _Claim:
    """The hand's Sawa: before which trick seat 0 claimed, and the engine's verdict."""

    __slots__ = ("right", "seat", "trick")

    def __init__(self, node: Node) -> None:
        self.seat = _seat(node["seat"])
        self.trick = node["trick"].integer()
        self.right = node["ok"].flag()
        if not 1 <= self.trick <= 8:
            raise node["trick"].error(f"a Sawa before trick {self.trick}: a hand has 8 tricks")
        node.ignore("cardsLeft", "handsAtClaim")
        node.done()


def _plays(node: Node, deck: Deck, claim: _Claim | None) -> list[str]:
    """The cards with their legal sets and the tricks' winners; from a Sawa on, comments."""
    baloot = node.get("balootAt")
    baloot_at = None
    if baloot is not None:
        baloot_at = (baloot["trick"].integer(), _seat(baloot["seat"]))
        baloot.done()
    lines: list[str] = []
    after: list[str] = []  # the cards of the trick being written as a comment
    plays = list(node["plays"].items())
    if len(plays) != 32:
        raise node["plays"].error(f"{len(plays)} cards played: a played hand has 32")
    for index, play in enumerate(plays):
        trick = index // 4 + 1
        if play["trick"].integer() != trick:
            raise play["trick"].error(f"card {index % 4 + 1} of trick {trick} is logged in another")
        seat = _seat(play["seat"])
        card = deck.play(_card(play["card"]), play["card"])
        legal = " ".join(_card(c) for c in play["legal"].items(at_least=1))
        by = play.get("by")
        how = by.choice({"sawaMove": "sawaMove"}, "play source") if by is not None else ""
        won = play.get("trickWinner")
        if (won is None) != (index % 4 != 3):
            raise play.error("a trick's winner is logged with its fourth card, and only there")
        if claim is not None and index == 4 * (claim.trick - 1):
            verdict = "right" if claim.right else "wrong"
            lines += [
                f"sawa {claim.seat}  # {claim.seat} leads trick {trick} and claims the rest",
                f"= sawa {verdict}",
                "# the engine plays the hand out; its cards after the claim (not checked):",
            ]
        announced = baloot_at == (trick, seat)  # Baloot, said with this card
        if announced:
            baloot_at = None
        if claim is not None and index >= 4 * (claim.trick - 1):
            note = f"{how}; " if how else ""
            said = "; baloot" if announced else ""
            after.append(f"{seat} {card} ({note}legal {legal}{said})")
            if won is not None:
                lines.append(f"# trick {trick}: {', '.join(after)} = {_seat(won)}")
                after = []
        else:
            lines += [
                f"= legal {seat} {legal}",
                f"play {seat} {card}" + (f"  # {how}" if how else ""),
            ]
            if announced and index == 31:  # no announcement comes after the hand's last card
                lines.append(f"# baloot {seat}: announced with the hand's last card")
            elif announced:
                lines.append(f"baloot {seat}  # with the second of its King and Queen of trump")
            if won is not None:
                lines.append(f"= trick {trick} {_seat(won)}")
        play.done()
    if baloot_at is not None:
        raise node["balootAt"].error("no card of that seat in that trick")
    _check_tricks(node["tricks"], plays)
    return lines


def _check_tricks(node: Node, plays: list[Node]) -> None:
    """The log's ``tricks`` repeat the plays: they must agree."""
    for number, trick in enumerate(node.items(8), start=1):
        cards = [_card(c) for c in trick["cards"].items(4)]
        order = [_seat(s) for s in trick["order"].items(4)]
        logged = [(_seat(p["seat"]), _card(p["card"])) for p in plays[4 * number - 4 : 4 * number]]
        winner = plays[4 * number - 1]["trickWinner"]
        if list(zip(order, cards, strict=True)) != logged or order[0] != _seat(trick["leader"]):
            raise trick.error(f"trick {number} lists other cards than 'plays': {logged}")
        if _seat(trick["winner"]) != _seat(winner):
            raise trick["winner"].error(f"trick {number}'s winner differs from 'plays'")
        trick.done()


def _result_word(sheet: Node, buyer: str) -> str:
    """The sheet's outcome of its judged side, as the buyer's: made, failed or tie."""
    outcome = sheet["outcome"].choice(_OUTCOMES, "outcome")
    if outcome == "tie":
        return "tie"
    judged = _team(sheet["judgedTeam"])
    return "made" if (judged == buyer) == (outcome == "won") else "failed"


def _sheet_projects(node: Node) -> str:
    """The sheet's projects, per team, with their raw points and owners."""
    sides = []
    for name, side in zip(TEAMS, _by_team(node), strict=True):
        entries = []
        for project in side.items():
            entries.append(
                f"{project['name'].note()} {project['raw'].integer()} ({_seat(project['seat'])})"
            )
            project.done()
        sides.append(f"{name} {', '.join(entries) or 'none'}")
    return "; ".join(sides)


def _by_team(node: Node) -> list[Node]:
    entries = [node[key] for key in _TEAM_KEYS]
    node.done()
    return entries


def _outcome(node: Node, claim: _Claim | None) -> list[str]:
    """The hand's result claims (see the module docstring for a wrong Sawa's)."""
    result = node["result"]
    sheet = result["sheet"]
    buyer = _team(node["contract"]["declarerTeam"])
    points = node["projects"]["points"]
    wrong = claim is not None and not claim.right
    gained = node["gained"]
    lines = [
        f"# bloot7 sheet abnat (cards, last trick, projects, Baloot): {_team_pair(sheet['abnat'])}",
        f"# bloot7 sheet projects: {_sheet_projects(sheet['projects'])}",
        "# bloot7 projectPoints (projects and Baloot after the outcome): "
        f"{_team_pair(result['projectPoints'])}",
    ]
    kaboot = sheet.get("kaboot")
    if wrong:
        outcome = _result_word(sheet, buyer)
        lines = [
            "# bloot7 Round, the hand played out: "
            f"abnat {_team_pair(result['rawPoints'])}, aklat {_team_pair(sheet['cards'])}, "
            f"projectscore {_team_pair(points)}, result {outcome}"
            + (f", kaboot {_team(kaboot)}" if kaboot is not None else "")
            + f", score {_team_pair(result['gamePoints'])}",
            *lines,
        ]
        rewritten = node["sheetAfterWrongSawa"]
        after = rewritten.get("kaboot")
        lines.append(
            "# bloot7 sheet after the wrong Sawa: "
            f"cards {_team_pair(rewritten['cards'])}, ground {_team_pair(rewritten['ground'])}, "
            f"abnat {_team_pair(rewritten['abnat'])}, projects "
            f"{_sheet_projects(rewritten['projects'])}"
            + (f", kaboot {_team(after)}" if after is not None else "")
        )
        if _teams(rewritten["result"]) != _teams(gained):
            raise rewritten["result"].error("the rewritten sheet's result is not what was banked")
        lines.append(f"= result {_result_word(rewritten, buyer)}")
        rewritten.ignore("winner", "double")
        rewritten.done()
    else:
        lines += [
            f"= abnat {_team_pair(result['rawPoints'])}",
            f"= aklat {_team_pair(sheet['cards'])}",
            f"= projectscore {_team_pair(points)}",
            f"= result {_result_word(sheet, buyer)}",
        ]
        if kaboot is not None:
            lines.append(f"= kaboot {_team(kaboot)}")
        if _teams(result["gamePoints"]) != _teams(gained):
            raise gained.error("the points banked differ from the hand's, with no wrong Sawa")
    lines += [f"= score {_team_pair(gained)}", f"= total {_team_pair(node['totalsAfter'])}"]
    sheet.ignore("ground", "result", "winner", "double", "outcome", "judgedTeam")
    sheet.done()
    result.ignore("mode", "trumpSuit", "declarerTeam", "scoredPoints", "tricksWon", "baloot")
    result.ignore("gamePoints")
    result.done()
    node.ignore("handResult", "kabootTeam", "buyerMade", "qahwaEndsMatch", "sheetAfterWrongSawa")
    return lines
