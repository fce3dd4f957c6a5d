#!/usr/bin/env python3
"""An adapter for tazjel/baloot-ai's ``game_engine`` (Python, MIT): the engine adapter
protocol, version 1 (``docs/protocol.md``), on standard input and output.

Usage::

    python tazjel_adapter.py --engine-dir PATH/TO/baloot-ai

(or ``TAZJEL_ENGINE_DIR=PATH``). The engine is imported from that checkout; nothing of it is
copied here. It needs ``pydantic>=2``. Every request is answered by replaying the transcript's
events through the engine's own ``Game`` (``handle_bid``, ``play_card``,
``handle_declare_project``) and reading the engine's own answers: its refusals, its legal
calls (each candidate tried on a copy of the game), its ``is_valid_move``, its tricks and its
round record.

How BTN maps to the engine:

- seats ``N W S E`` are the engine's indices 0-3 (Bottom, Right, Top, Left; play passes from
  index i to i + 1); team ``NS`` is ``us``;
- cards ``TH`` are ``Card('♥', '10')``; calls are the engine's words in lower case
  (``HOKUM`` + suit is ``hokum`` in round 1, ``hokum S`` in round 2), raises ``double``,
  ``triple``, ``four``, ``gahwa`` (the engine's ``GAHWA``, level 100), the lock ``open`` /
  ``closed`` (the engine's variant, chosen by the buyer);
- the deal: the engine's own ``start_game`` deals from a pack stacked so that it gives each
  seat the transcript's first five cards, the face-up card and, at the close of the auction,
  the transcript's ``rest`` cards; the first dealer of a game is the transcript's;
- the engine's Gablak window (a Sun over an earlier seat's Hokum) stays open while the
  transcript's calls answer it, and lapses, through the engine's own timeout, at the first
  event that does not;
- ``declare`` lines are the engine's ``handle_declare_project`` (by project type), sent when
  the declaring seat's turn comes in trick 1, before its card;
- ``baloot X`` is accepted right after the first of X's King and Queen of trump when the
  engine found X holding both (it announces and scores Baloot by itself);
- ``foul`` lines are ignored.

One repair, on by default: the engine's ``Game`` never reaches its doubling window
(``BiddingEngine.is_bidding_complete`` is already true when the window opens, so the game goes
straight to the play); the adapter makes it true only when the bidding is finished, so that
the raises go through the engine's ``DoublingHandler``. ``--no-doubling-repair`` leaves the
engine as shipped (every raise is then refused). The handler has no turns: its ``PASS``, by
any seat, ends the window for everyone (the ``tazjel`` profile's ``doubling.window``
``first_pass``). So a ``raise X pass`` line is the engine's ``PASS``; a window the transcript
leaves open is closed with it when the transcript moves on (a lock choice, or the first card),
and a Hokum buyer who chose no lock is given ``OPEN`` (the engine always asks, raised or not).

Not supported: hands that log no auction (the engine cannot start a hand from a contract).
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import importlib
import json
import logging
import os
import shutil
import sys
import tempfile
import traceback
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

PROTOCOL = 1
ENGINE_COMMIT = "1c20390d3b21"
SEATS = "NWSE"
TEAMS = ("us", "them")  # index = team: NS, EW
POSITIONS = ("Bottom", "Right", "Top", "Left")
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_LETTERS = {symbol: letter for letter, symbol in SUITS.items()}
RANKS = {"7": "7", "8": "8", "9": "9", "T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}
RANK_LETTERS = {rank: letter for letter, rank in RANKS.items()}
PROJECTS = {"sira": "SIRA", "fifty": "FIFTY", "hundred": "HUNDRED", "four_hundred": "FOUR_HUNDRED"}
RAISES = {"pass": "PASS", "double": "DOUBLE", "triple": "TRIPLE", "four": "FOUR", "gahwa": "GAHWA"}
GAHWA_LEVEL = 100  # the engine's level for a Gahwa
GAHWA_MULTIPLIER = 4  # how the notation's contract claim writes it (the chain's last level)
LONG_WINDOW = 10**9  # seconds: a Gablak window lapses only when the adapter lets it


class Rejected(Exception):
    """The engine refuses an event: ``hand`` and ``index`` locate it in the transcript."""

    def __init__(self, hand: int, index: int, reason: str) -> None:
        super().__init__(reason)
        self.hand = hand
        self.index = index
        self.reason = reason


Reject = Callable[[str], Rejected]
"""Makes the :class:`Rejected` of the event being replayed."""


class Unsupported(Exception):
    """A transcript this adapter cannot give to the engine (the request is skipped)."""


# --- the engine --------------------------------------------------------------------------


class Engine:
    """The imported engine modules."""

    def __init__(self, engine_dir: Path, repair_doubling: bool) -> None:
        if not (engine_dir / "game_engine" / "logic" / "game.py").is_file():
            raise SystemExit(f"{engine_dir}: not a checkout of tazjel/baloot-ai (no game_engine)")
        sys.path.insert(0, str(engine_dir))
        logging.disable(logging.CRITICAL)
        load = importlib.import_module
        self.Game: Any = load("game_engine.logic.game").Game
        self.Card: Any = load("game_engine.models.card").Card
        self.Deck: Any = load("game_engine.models.deck").Deck
        self.lifecycle: Any = load("game_engine.logic.game_lifecycle")
        self.BidPhase: Any = load("game_engine.models.constants").BiddingPhase
        self.BiddingEngine: Any = load("game_engine.logic.bidding_engine").BiddingEngine
        self.find_projects: Any = load("game_engine.logic.rules.projects").check_project_eligibility
        if repair_doubling:
            finished = self.BidPhase.FINISHED
            self.BiddingEngine.is_bidding_complete = lambda engine: engine.phase == finished
        self.repaired = repair_doubling

    def card(self, code: str) -> Any:
        return self.Card(SUITS[code[1]], RANKS[code[0]])


def code_of(card: Any) -> str:
    """The notation's code of an engine card (or of the dict the engine keeps of one)."""
    if isinstance(card, dict):
        return RANK_LETTERS[card["rank"]] + SUIT_LETTERS[card["suit"]]
    return str(RANK_LETTERS[card.rank] + SUIT_LETTERS[card.suit])


class _StackedDeck:
    """What the engine's lifecycle takes for a fresh pack: the engine's own ``Deck`` with its
    cards in the order the transcript needs."""

    def __init__(self, engine: Engine, cards: list[str]) -> None:
        self.engine = engine
        self.cards = cards

    def __call__(self) -> Any:
        deck = self.engine.Deck()
        deck.cards = [self.engine.card(code) for code in self.cards]
        return deck


class _FixedDealer:
    """Stands for the ``random`` module the lifecycle draws the first dealer with."""

    def __init__(self, dealer: int) -> None:
        self.dealer = dealer

    def randint(self, low: int, high: int) -> int:
        return self.dealer


# --- one game, replayed ---------------------------------------------------------------------


@dataclass
class Table:
    """The engine's game (a class, so that the cache can copy it whole)."""

    game: Any

    @property
    def dealer_drawn(self) -> bool:
        """The engine draws the next dealer at random: no hand of its game is scored yet."""
        return not self.game.past_round_results


@dataclass
class HandState:
    """The events of the current hand that the engine has not been given yet."""

    number: int
    items: list[dict[str, Any]]
    dealer: int | None = None
    five: dict[int, list[str]] = field(default_factory=dict)
    holds: dict[int, list[str]] = field(default_factory=dict)
    faceup: str | None = None
    started: bool = False
    pending_declarations: list[tuple[int, int, str, list[str]]] = field(default_factory=list)
    """Declarations waiting for their seat's turn in trick 1: (index, seat, type, cards)."""
    first_rest: int | None = None
    receiver: int | None = None
    """The seat that receives the face-up card, as the transcript tells it."""


class Replayer:
    """Feeds a transcript's events to the engine, hand by hand."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.cache: OrderedDict[str, Table] = OrderedDict()

    # games

    def new_table(self, totals: tuple[int, int] = (0, 0)) -> Table:
        game = self.engine.Game(room_id="conformance")
        for index in range(4):
            game.add_player(f"seat{index}", SEATS[index])
        game.match_scores = {"us": totals[0], "them": totals[1]}
        return Table(game)

    def replay(self, hands: list[dict[str, Any]], upto: int | None = None) -> Table:
        """The table after the transcript's hands (the last one possibly unfinished); raises
        :class:`Rejected` at the first event the engine refuses."""
        key = ""
        table: Table | None = None
        start = 0
        keys = []
        for hand in hands:
            text = json.dumps(hand, sort_keys=True, separators=(",", ":"))
            key = hashlib.sha256((key + text).encode()).hexdigest()
            keys.append(key)
        for i in range(len(hands) - 1, -1, -1):
            cached = self.cache.get(keys[i])
            if cached is not None:
                self.cache.move_to_end(keys[i])
                table = copy.deepcopy(cached)
                start = i + 1
                break
        if table is None:
            table = self.new_table()
        for i in range(start, len(hands)):
            table = self.play_hand(table, hands[i])
            if i < len(hands) - 1:
                self.cache[keys[i]] = copy.deepcopy(table)
                while len(self.cache) > 32:
                    self.cache.popitem(last=False)
        return table

    # one hand

    def play_hand(self, table: Table, hand: dict[str, Any]) -> Table:
        number = int(hand["hand"])
        items = list(hand["items"])
        if any(item.get("claim") == "contract" for item in items):
            raise Unsupported(
                f"hand {number} logs no auction: the engine cannot start a hand from a contract"
            )
        if table.game.phase == "GAMEOVER":
            table = self.new_table()  # the engine's match is over: the next hand starts one
        state = HandState(number, items)
        for index, item in enumerate(items):
            if "event" in item:
                table = self.event(table, state, index, item)
        if not state.started and state.dealer is not None and state.faceup is not None:
            self.start_hand(table, state, lambda reason: Rejected(number, len(items), reason))
        return table

    def event(self, table: Table, state: HandState, index: int, item: dict[str, Any]) -> Table:
        kind = item["event"]

        def reject(reason: str) -> Rejected:
            return Rejected(state.number, index, reason)

        if kind == "start":
            if state.started or state.dealer is not None:
                raise reject("'start' comes first in a hand")
            return self.new_table((int(item.get("NS", 0)), int(item.get("EW", 0))))
        if kind == "dealer":
            seat = SEATS.index(item["seat"])
            expected = None if table.dealer_drawn else int(table.game.dealer_index)
            if expected is not None and seat != expected:
                raise reject(
                    f"the engine deals this hand from {SEATS[expected]} "
                    f"({POSITIONS[expected]}), not {item['seat']}"
                )
            state.dealer = seat
            return table
        if kind == "deal":
            state.five[SEATS.index(item["seat"])] = list(item["cards"])
            return table
        if kind == "hold":
            state.holds[SEATS.index(item["seat"])] = list(item["cards"])
            return table
        if kind == "faceup":
            state.faceup = str(item["card"])
            return table
        if not state.started:
            self.start_hand(table, state, reject)
        if kind == "bid":
            self.bid(table, item, reject)
        elif kind == "rest":
            self.rest(table, state, index, reject)
        elif kind == "raise":
            self.raise_(table, item, reject)
        elif kind == "declare":
            self.declare(table, state, index, item, reject)
        elif kind == "baloot":
            self.baloot(table, item, reject)
        elif kind == "play":
            self.play(table, state, item, reject)
        elif kind == "foul":
            pass  # recorded, not judged
        else:
            raise reject(f"the engine has no counterpart for a '{kind}' line")
        return table

    # the deal

    def start_hand(self, table: Table, state: HandState, reject: Reject) -> None:
        """Deal the hand through the engine's own ``start_game``, from a stacked pack (the
        first five cards of each seat by index, the face-up card, then the completion: the
        receiver's two cards first, then three for each other seat by index)."""
        if state.dealer is None or state.faceup is None:
            raise reject("the hand needs its 'dealer' and 'faceup' lines before the auction")
        five, rest, receiver = self._cards(state)
        order = [*five[0], *five[1], *five[2], *five[3], state.faceup]
        if receiver is not None:
            order += rest[receiver]
        order += [card for seat in range(4) if seat != receiver for card in rest[seat]]
        game = table.game
        lifecycle = self.engine.lifecycle
        saved = lifecycle.Deck, lifecycle.random
        lifecycle.Deck = _StackedDeck(self.engine, order)
        lifecycle.random = _FixedDealer(state.dealer)  # read only when the engine draws one
        try:
            if not game.start_game():
                raise reject("the engine cannot start the hand")
        finally:
            lifecycle.Deck, lifecycle.random = saved
        if int(game.dealer_index) != state.dealer:
            raise reject(
                f"the engine deals from {SEATS[int(game.dealer_index)]}, not {SEATS[state.dealer]}"
            )
        game.bidding_engine.GABLAK_DURATION = LONG_WINDOW
        state.started = True
        state.receiver = receiver

    def _cards(self, state: HandState) -> tuple[list[list[str]], list[list[str]], int | None]:
        """Each seat's first five cards, the cards that complete its hand and the seat that
        receives the face-up card, from the ``deal`` and ``rest`` lines, the ``hold`` lines,
        or the cards each seat played. Cards the transcript does not tell (a hand cut short
        without ``rest`` lines) are made up from those left."""
        faceup = state.faceup
        assert faceup is not None
        rest: list[list[str]] = [[], [], [], []]
        receiver: int | None = None
        if state.holds:
            if len(state.holds) != 4:
                raise Unsupported("the deal is incomplete (four 'hold' lines are needed)")
            five = []
            for seat in range(4):
                cards = [c for c in state.holds[seat] if c != faceup]
                if faceup in state.holds[seat]:
                    receiver = seat
                five.append(cards[:5])
                rest[seat] = cards[5:]
        else:
            if len(state.five) != 4:
                raise Unsupported("the deal is incomplete (four 'deal' lines are needed)")
            five = [list(state.five[seat]) for seat in range(4)]
            lines = [item for item in state.items if item.get("event") == "rest"]
            for item in lines:
                rest[SEATS.index(item["seat"])] = list(item["cards"])
            if lines:
                receiver = next((s for s in range(4) if len(rest[s]) == 2), None)
            else:  # read the completion from the play
                for item in state.items:
                    if item.get("event") != "play":
                        continue
                    seat, card = SEATS.index(item["seat"]), str(item["card"])
                    if card == faceup:
                        receiver = seat
                    elif card not in five[seat]:
                        rest[seat].append(card)
        known = {c for cards in five for c in cards} | {c for cards in rest for c in cards}
        spare = [c for c in _all_cards() if c not in known and c != faceup]
        for seat in range(4):
            wanted = 2 if seat == receiver else 3
            while len(rest[seat]) < wanted and spare:
                rest[seat].append(spare.pop(0))
        return five, rest, receiver

    # the auction

    def bid(self, table: Table, item: dict[str, Any], reject: Reject) -> None:
        game = table.game
        seat = SEATS.index(item["seat"])
        action, suit = self._bid_action(item, game)
        if action is None:
            raise reject(f"the engine has no call {item['call']!r}")
        if game.phase != "BIDDING":
            raise reject(f"the auction is over (the engine is in its {game.phase} phase)")
        phases = self.engine.BidPhase
        engine = game.bidding_engine
        if engine.phase == phases.GABLAK_WINDOW:
            trial = copy.deepcopy(game)
            if not trial.handle_bid(seat, action, suit).get("success"):
                self.lapse(game)  # not an answer to the window: it lapsed before this call
                engine = game.bidding_engine
        if game.phase != "BIDDING" or engine.phase not in (
            phases.ROUND_1,
            phases.ROUND_2,
            phases.GABLAK_WINDOW,
        ):
            raise reject("the auction is over (the engine is in its doubling window)")
        result = game.handle_bid(seat, action, suit)
        if not result.get("success"):
            raise reject(f"the engine refuses it: {result.get('error', result)}")
        if game.bidding_engine is not None:  # a fresh one after an all-pass redeal
            game.bidding_engine.GABLAK_DURATION = LONG_WINDOW

    @staticmethod
    def _bid_action(item: dict[str, Any], game: Any) -> tuple[str | None, str | None]:
        call = str(item["call"])
        args = list(item.get("args", []))
        if call == "hokum":
            if args:
                return "HOKUM", SUITS.get(args[0])
            floor = game.floor_card
            return "HOKUM", floor.suit if floor is not None else None
        if call in ("pass", "sun", "ashkal") and not args:
            return call.upper(), None
        return None, None

    def lapse(self, game: Any) -> None:
        """Let an open Gablak window lapse, through the engine's own timeout (a call that
        comes after it is not taken, as in the engine's logs)."""
        engine = game.bidding_engine
        if engine is None or engine.phase != self.engine.BidPhase.GABLAK_WINDOW:
            return
        engine.GABLAK_DURATION = -1
        bidder = engine.tentative_bid["bidder"] if engine.tentative_bid else 0
        game.handle_bid(bidder, "PASS")
        if game.bidding_engine is not None:
            game.bidding_engine.GABLAK_DURATION = LONG_WINDOW

    def rest(self, table: Table, state: HandState, index: int, reject: Reject) -> None:
        game = table.game
        self.lapse(game)
        phases = self.engine.BidPhase
        engine = game.bidding_engine
        if game.phase == "BIDDING" and engine.phase in (phases.ROUND_1, phases.ROUND_2):
            raise reject(
                f"the auction is not over: it is {SEATS[int(engine.get_current_actor())]}'s call"
            )
        if state.first_rest is None:
            state.first_rest = index
            bidder = self._bidder(game)
            if bidder is None:
                raise reject("the engine has no contract")
            if state.receiver is not None and state.receiver != bidder:
                raise reject(
                    f"the engine gives the face-up card to its buyer {SEATS[bidder]}, "
                    f"not {SEATS[state.receiver]}"
                )

    @staticmethod
    def _bidder(game: Any) -> int | None:
        engine = game.bidding_engine
        if engine is not None and engine.contract.type is not None:
            return int(engine.contract.bidder_idx)
        return None

    # the raises

    def raise_(self, table: Table, item: dict[str, Any], reject: Reject) -> None:
        """A raise or a pass is the engine's call of that name (its pass ends the window for
        everyone); a lock choice closes the window if it is open (the engine's ``PASS``) and
        is the buyer's variant, which a pass may carry (``raise W pass open``)."""
        game = table.game
        self.lapse(game)
        seat = SEATS.index(item["seat"])
        call = str(item["call"])
        args = [str(arg) for arg in item.get("args", [])]
        phases = self.engine.BidPhase
        engine = game.bidding_engine
        if call in ("open", "closed") and not args:
            self.lock(game, seat, call, reject)
            return
        if game.phase != "BIDDING" or engine is None or engine.phase != phases.DOUBLING:
            where = game.phase if game.phase != "BIDDING" else engine.phase.value
            raise reject(f"the engine's doubling window is not open (it is in {where})")
        if call not in RAISES:
            raise reject(f"the engine has no raise {call!r}")
        if "closed" in args:
            raise reject("the engine lets the buyer alone choose the lock, after the raises")
        result = game.handle_bid(seat, RAISES[call])
        if not result.get("success"):
            raise reject(f"the engine refuses it: {result.get('error', result)}")
        if call == "pass" and "open" in args:
            self.lock(game, seat, "open", reject)

    def lock(self, game: Any, seat: int, word: str, reject: Reject) -> None:
        phases = self.engine.BidPhase
        engine = game.bidding_engine
        if game.phase != "BIDDING" or engine is None:
            raise reject("the engine has no lock to choose now (the auction is over)")
        if engine.phase == phases.DOUBLING:
            game.handle_bid(int(engine.current_turn), "PASS")  # closes the window
        engine = game.bidding_engine
        if game.phase == "BIDDING" and engine.phase == phases.VARIANT_SELECTION:
            result = game.handle_bid(seat, word.upper())
            if not result.get("success"):
                raise reject(f"the engine refuses it: {result.get('error', result)}")
        elif word == "closed":
            raise reject("the engine has no lock to choose for this contract")

    def close_window(self, game: Any) -> None:
        """Close the doubling window as the engine's table does when nobody raises: a
        ``PASS``, then ``OPEN`` for the buyer of a Hokum (whom the engine always asks)."""
        phases = self.engine.BidPhase
        self.lapse(game)
        engine = game.bidding_engine
        if game.phase != "BIDDING" or engine is None:
            return
        if engine.phase == phases.DOUBLING:
            game.handle_bid(int(engine.current_turn), "PASS")
        engine = game.bidding_engine
        if game.phase == "BIDDING" and engine.phase == phases.VARIANT_SELECTION:
            game.handle_bid(int(engine.contract.bidder_idx), "OPEN")

    # the play

    def declare(
        self, table: Table, state: HandState, index: int, item: dict[str, Any], reject: Reject
    ) -> None:
        seat = SEATS.index(item["seat"])
        word = str(item["project"])
        kind = PROJECTS.get(word)
        if kind is None:
            raise reject(f"the engine has no project {word!r}")
        state.pending_declarations.append((index, seat, kind, list(item.get("cards", []))))
        game = table.game
        played = {POSITIONS.index(c["playedBy"]) for c in game.table_cards}
        if game.phase == "PLAYING" and (
            int(game.current_turn) == seat or game.round_history or seat in played
        ):
            self.flush_declarations(game, state, seat)  # now, as the engine takes it

    def flush_declarations(self, game: Any, state: HandState, seat: int) -> None:
        """Give the engine the declarations waiting for ``seat`` (whose turn it is)."""
        waiting = [d for d in state.pending_declarations if d[1] == seat]
        state.pending_declarations = [d for d in state.pending_declarations if d[1] != seat]
        for index, _, kind, cards in waiting:
            player = game.players[seat]
            found = list(self.engine.find_projects(player.hand, game.game_mode))
            if cards and not any(
                p["type"] == kind and set(cards) <= {code_of(c) for c in p["cards"]} for p in found
            ):
                raise Rejected(
                    state.number,
                    index,
                    f"the engine finds no {kind} of {' '.join(cards)} in {SEATS[seat]}'s hand",
                )
            result = game.handle_declare_project(seat, kind)
            if not result.get("success"):
                raise Rejected(
                    state.number, index, f"the engine refuses it: {result.get('error', result)}"
                )

    def baloot(self, table: Table, item: dict[str, Any], reject: Reject) -> None:
        """Accepted when the engine found the seat holding the King and Queen of trump at
        the deal, right after the first of them (the engine announces it on that card, and
        scores it unless a declared hundred blocks it), or after the last trick."""
        game = table.game
        seat = SEATS.index(item["seat"])
        position = POSITIONS[seat]
        manager = game.baloot_manager
        if position not in manager._holders:
            raise reject(f"the engine finds no King and Queen of trump in {item['seat']}'s hand")
        if game.phase in ("FINISHED", "GAMEOVER"):
            return  # a Baloot logged after the last trick
        if game.table_cards:
            last = game.table_cards[-1]
        elif game.round_history:
            trick = game.round_history[-1]
            last = {"card": trick["cards"][-1]["card"], "playedBy": trick["playedBy"][-1]}
        else:
            raise reject("no card has been played")
        card = code_of(last["card"])
        trump = SUIT_LETTERS[game.trump_suit]
        royals = {"K" + trump, "Q" + trump}
        held = {code_of(c) for c in game.players[seat].hand}
        if last["playedBy"] != position or card not in royals or not royals - {card} <= held:
            raise reject("the engine announces Baloot with the first of its King and Queen")

    def play(self, table: Table, state: HandState, item: dict[str, Any], reject: Reject) -> None:
        game = table.game
        if game.phase == "BIDDING":
            self.close_window(game)
        if game.phase != "PLAYING":
            if game.phase == "BIDDING" and game.bidding_engine is not None:
                actor = SEATS[int(game.bidding_engine.get_current_actor())]
                raise reject(f"the auction is not over (the engine waits for {actor}'s call)")
            raise reject(f"no card may be played now (the engine is in its {game.phase} phase)")
        seat = SEATS.index(item["seat"])
        card = str(item["card"])
        if int(game.current_turn) != seat:
            raise reject(f"it is {SEATS[int(game.current_turn)]}'s turn, not {item['seat']}'s")
        if not game.round_history:
            self.flush_declarations(game, state, seat)
        hand = game.players[seat].hand
        codes = [code_of(c) for c in hand]
        if card not in codes:
            raise reject(f"{item['seat']} does not hold {card} (holds {' '.join(codes)})")
        position = codes.index(card)
        if not game.is_valid_move(hand[position], hand):
            legal = [code_of(c) for c in hand if game.is_valid_move(c, hand)]
            raise reject(f"the engine does not allow {card}: it allows {' '.join(legal)}")
        result = game.play_card(seat, position, {})
        if not result.get("success"):
            raise reject(f"the engine refuses it: {result.get('error', result)}")


def _all_cards() -> Iterator[str]:
    for suit in "SHDC":
        for rank in "789TJQKA":
            yield rank + suit


# --- the requests ------------------------------------------------------------------------


class Adapter:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.replayer = Replayer(engine)

    def started(self) -> dict[str, Any]:
        return {
            "protocol": PROTOCOL,
            "engine": {
                "name": "tazjel/baloot-ai game_engine",
                "version": ENGINE_COMMIT,
                "language": "Python",
                "homepage": "https://github.com/tazjel/baloot-ai",
            },
            "rulesets": ["tazjel"],
            "capabilities": ["replay", "legal", "claims"],
        }

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        command = request["cmd"]
        seq = request["seq"]
        hands = list(request["transcript"].get("hands", []))
        try:
            if command == "replay":
                try:
                    self.replayer.replay(hands)
                except Rejected as exc:
                    return {
                        "seq": seq,
                        "accepted": False,
                        "hand": exc.hand,
                        "event": exc.index,
                        "reason": exc.reason,
                    }
                return {"seq": seq, "accepted": True}
            if command == "legal":
                return {"seq": seq, **self.legal(hands, str(request["seat"]))}
            if command == "claims":
                return {"seq": seq, "claims": self.claims(hands)}
        except Unsupported as exc:
            return {"seq": seq, "skip": str(exc)}
        except Rejected:  # the engine refuses an event before the point asked about
            if command == "claims":
                return {"seq": seq, "claims": []}
            return {"seq": seq, "calls": [], "cards": []}
        return {"seq": seq, "error": f"unknown command {command!r}"}

    # legal

    def legal(self, hands: list[dict[str, Any]], seat_name: str) -> dict[str, Any]:
        table = self.replayer.replay(hands)
        game = table.game
        seat = SEATS.index(seat_name)
        calls = self._calls(game, seat)
        settled = copy.deepcopy(game)
        if settled.phase == "BIDDING":
            self.replayer.close_window(settled)
        cards: list[str] = []
        if settled.phase == "PLAYING" and int(settled.current_turn) == seat:
            hand = settled.players[seat].hand
            cards = [code_of(c) for c in hand if settled.is_valid_move(c, hand)]
        return {"calls": calls, "cards": cards}

    def _calls(self, game: Any, seat: int) -> list[str]:
        if game.phase != "BIDDING" or game.bidding_engine is None:
            return []
        phases = self.engine.BidPhase
        engine = game.bidding_engine
        candidates: list[tuple[str, str, str | None]]
        if engine.phase in (phases.ROUND_1, phases.ROUND_2, phases.GABLAK_WINDOW):
            round2 = engine.phase == phases.ROUND_2 or (
                engine.phase == phases.GABLAK_WINDOW and engine.pre_gablak_phase == phases.ROUND_2
            )
            floor = engine.floor_card.suit
            candidates = [("pass", "PASS", None), ("sun", "SUN", None), ("ashkal", "ASHKAL", None)]
            for letter, symbol in SUITS.items():
                word = "hokum" if symbol == floor and not round2 else f"hokum {letter}"
                candidates.append((word, "HOKUM", symbol))
        elif engine.phase == phases.DOUBLING:
            candidates = [(word, action, None) for word, action in RAISES.items()]
        elif engine.phase == phases.VARIANT_SELECTION and engine.contract.level >= 2:
            # the lock of a raised Hokum (an unraised one is given OPEN: no rule asks it)
            candidates = [("closed", "CLOSED", None), ("open", "OPEN", None)]
        else:
            return []
        legal = []
        for word, action, suit in candidates:
            trial = copy.deepcopy(game)
            if trial.handle_bid(seat, action, suit).get("success"):
                legal.append(word)
        return legal

    # claims

    def claims(self, hands: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if not hands:
            return []
        table = self.replayer.replay(hands)
        game = table.game
        last = hands[-1]
        plays = sum(1 for item in last["items"] if item.get("event") == "play")
        totals = {"claim": "total", "NS": game.match_scores["us"], "EW": game.match_scores["them"]}
        if plays == 0:  # every seat passed: the engine deals again, no score
            return [
                {"claim": "contract", "buyer": None},
                {"claim": "score", "NS": 0, "EW": 0},
                totals,
            ]
        if game.phase not in ("FINISHED", "GAMEOVER") or not game.full_match_history:
            raise Unsupported("the last hand is not played out")
        record = game.full_match_history[-1]
        bid = record["bid"]
        claims: list[dict[str, Any]] = []
        kind = str(bid["type"]).lower()
        contract: dict[str, Any] = {
            "claim": "contract",
            "buyer": SEATS[POSITIONS.index(bid["bidder"])],
            "kind": kind,
        }
        if kind == "hokum":
            contract["trump"] = SUIT_LETTERS[bid["suit"]]
        level = int(bid.get("level") or 1)
        if level > 1:
            contract["multiplier"] = GAHWA_MULTIPLIER if level >= GAHWA_LEVEL else level
            if kind == "hokum" and bid.get("variant"):
                contract["lock"] = str(bid["variant"]).lower()
        claims.append(contract)
        for number, trick in enumerate(record["tricks"], start=1):
            claims.append(
                {
                    "claim": "trick",
                    "trick": number,
                    "winner": SEATS[POSITIONS.index(trick["winner"])],
                    "points": int(trick["points"]),
                }
            )
        scores = record["scores"]
        us, them = scores["us"], scores["them"]
        claims.append({"claim": "aklat", "NS": us["aklat"], "EW": them["aklat"]})
        claims.append(
            {"claim": "abnat", "NS": us["aklat"] + us["ardh"], "EW": them["aklat"] + them["ardh"]}
        )
        bidder_team = TEAMS[POSITIONS.index(bid["bidder"]) % 2]
        converted = game.scoring_engine.calculate_game_points_with_tiebreak(
            us["aklat"], them["aklat"], us["ardh"], them["ardh"], bidder_team
        )["game_points"]
        claims.append({"claim": "cardscore", "NS": converted["us"], "EW": converted["them"]})
        for team, side in zip(("NS", "EW"), (us, them), strict=True):
            if side.get("isKaboot"):
                claims.append({"claim": "kaboot", "team": team})
        claims.append({"claim": "score", "NS": us["result"], "EW": them["result"]})
        claims.append(totals)
        return claims


# --- the loop ----------------------------------------------------------------------------


def serve(adapter: Adapter, source: IO[str], out: IO[str]) -> None:
    for line in source:
        if not line.strip():
            continue
        request = json.loads(line)
        command = request.get("cmd")
        if command == "stop":
            return
        if command == "start":
            answer = adapter.started()
        else:
            try:
                answer = adapter.answer(request)
            except Exception:  # the engine's own failure: reported, the session goes on
                text = traceback.format_exc()
                print(text, file=sys.stderr)
                answer = {"seq": request.get("seq", 0), "error": text[-20000:]}
        out.write(json.dumps(answer, ensure_ascii=False) + "\n")
        out.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--engine-dir",
        default=os.environ.get("TAZJEL_ENGINE_DIR"),
        help="a checkout of tazjel/baloot-ai (default: $TAZJEL_ENGINE_DIR)",
    )
    parser.add_argument(
        "--no-doubling-repair",
        action="store_true",
        help="leave the engine's Game as shipped (it skips its doubling window)",
    )
    args = parser.parse_args(argv)
    if not args.engine_dir:
        parser.error("--engine-dir (or TAZJEL_ENGINE_DIR) is required")
    engine_dir = Path(args.engine_dir).resolve()
    out = sys.stdout
    sys.stdout = sys.stderr  # whatever the engine prints goes to standard error
    scratch = tempfile.mkdtemp(prefix="tazjel-adapter-")
    os.chdir(scratch)  # the engine's logging writes logs/ in the current folder
    try:
        engine = Engine(engine_dir, repair_doubling=not args.no_doubling_repair)
        serve(Adapter(engine), sys.stdin, out)
    finally:
        logging.shutdown()
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
