"""Seeded random legal games written as BTN, with every claim filled in.

The games come from :mod:`baloot_conformance.engine.playout` (random but legal calls, raises,
declarations and plays under any ruleset); this module only writes them down in the canonical
notation, claims included, so that ``generate`` then ``check`` passes by construction. The
tests, the benchmarks and engine authors use it. Deterministic per seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from baloot_conformance.engine.actions import Announce, Bid, Declare, Lock, Play, Raise
from baloot_conformance.engine.game import Game
from baloot_conformance.engine.hand import Hand
from baloot_conformance.engine.model import SEAT_NAMES, TEAM_NAMES, CardSet, format_cards
from baloot_conformance.engine.playout import random_hand
from baloot_conformance.ruleset import Ruleset
from baloot_conformance.verdict import (
    PROJECT_WORDS,
    contract_words,
    result_word,
)


def generate_games(
    rules: Ruleset,
    seed: int,
    games: int = 1,
    hands: int | None = None,
    legal_claims: bool = False,
) -> Iterator[str]:
    """BTN text, chunk by chunk: one file holding ``games`` games (each to its end, or of
    ``hands`` hands when given), with every claim; ``legal_claims`` adds a ``= legal`` claim
    before every card."""
    rng = random.Random(seed)
    yield "%btn 1\n"
    yield f'[Ruleset "{rules.id}@{rules.major}"]\n'
    yield '[Engine "baloot-conformance generate"]\n'
    yield f'[Seed "{seed}"]\n'
    number = 0
    for _ in range(games):
        game = Game(rules, dealer=rng.randrange(4))
        first = True
        while not game.is_over() and (hands is None or len(game.results) < hands):
            number += 1
            totals = game.totals
            hand = random_hand(rules, rng, game.dealer, totals)
            game.record(hand.result())
            yield "\n" + "".join(_hand_lines(hand, number, totals, first, game, legal_claims))
            first = False


def _hand_lines(
    hand: Hand,
    number: int,
    totals: tuple[int, int],
    first: bool,
    game: Game,
    legal_claims: bool,
) -> Iterator[str]:
    yield f"hand {number}\n"
    if first:  # a new game: the totals start again
        yield f"start NS {totals[0]} EW {totals[1]}\n"
    yield f"dealer {SEAT_NAMES[hand.dealer]}\n"
    for seat in range(4):
        yield f"deal {SEAT_NAMES[seat]} {format_cards(hand.first_five[seat])}\n"
    yield f"faceup {hand.faceup}\n"
    replay = Hand(hand.rules, hand.dealer, hand.first_five, hand.faceup, hand.stock, totals)
    history = hand.history
    i = 0
    # The contract claim follows the last call it describes (raises included).
    last_call = max(i for i, a in enumerate(hand.history) if isinstance(a, (Bid, Raise, Lock)))
    rest_written = contract_claimed = False
    trick: list[str] = []
    plain = True  # the current trick can be written on one line
    while i < len(history):
        action = history[i]
        i += 1
        if not isinstance(action, Bid) and not rest_written:
            rest_written = True
            yield from _rest(replay)
        if i - 1 > last_call and not contract_claimed:
            contract_claimed = True
            yield f"= contract {contract_words(replay.contract)}\n"
        if isinstance(action, Bid):
            suit = f" {action.suit.value}" if action.suit else ""
            yield f"bid {SEAT_NAMES[action.seat]} {action.call}{suit}\n"
        elif isinstance(action, Raise):
            words = action.call
            following = history[i] if i < len(history) else None
            if isinstance(following, Lock) and following.seat == action.seat:
                words += " closed" if following.locked else " open"  # the raiser's lock choice
                replay.push(action)
                action = following
                i += 1
            yield f"raise {SEAT_NAMES[action.seat]} {words}\n"
        elif isinstance(action, Lock):
            yield f"raise {SEAT_NAMES[action.seat]} {'closed' if action.locked else 'open'}\n"
        elif isinstance(action, Declare):
            word = PROJECT_WORDS[action.name]
            yield f"declare {SEAT_NAMES[action.seat]} {word} {format_cards(action.cards)}\n"
        elif isinstance(action, Play):
            if not trick and (legal_claims or _has_announcement(history, i)):
                plain = False
            if legal_claims:
                yield f"= legal {SEAT_NAMES[action.seat]} {format_cards(replay.legal_cards())}\n"
            if plain:
                trick.append(f"{SEAT_NAMES[action.seat]} {action.card}")
            else:
                yield f"play {SEAT_NAMES[action.seat]} {action.card}\n"
        elif isinstance(action, Announce):
            yield f"baloot {SEAT_NAMES[action.seat]}\n"
        replay.push(action)
        if isinstance(action, Play) and not replay.trick:
            winner = SEAT_NAMES[replay.leader]
            if plain:
                yield f"trick {replay.tricks_done}: {', '.join(trick)} = {winner} "
                yield f"{replay.last_trick_points}\n"
            else:
                yield f"= trick {replay.tricks_done} {winner} {replay.last_trick_points}\n"
            trick = []
            plain = True
    if not contract_claimed:
        yield f"= contract {contract_words(replay.contract)}\n"
    yield from _result_lines(replay, totals, game)


def _has_announcement(history: Sequence[object], start: int) -> bool:
    """Whether an announcement sits among the next four cards (from ``history[start - 1]``)."""
    plays = 0
    for action in history[start - 1 :]:
        if isinstance(action, Announce):
            return True
        if isinstance(action, Play):
            plays += 1
            if plays > 4:
                return False
    return False


def _rest(hand: Hand) -> Iterator[str]:
    """The completion of the deal: the buyer's two cards besides the face-up card, three for
    everyone else."""
    contract = hand.contract
    assert contract is not None
    for seat in range(4):
        rest: CardSet = hand.initial[seat] & ~hand.first_five[seat]
        if seat == contract.receiver:
            rest &= ~(1 << hand.faceup.index)
        yield f"rest {SEAT_NAMES[seat]} {format_cards(rest)}\n"


def _result_lines(hand: Hand, totals: tuple[int, int], game: Game) -> Iterator[str]:
    result = hand.result()
    score = result.score
    if score is not None and result.contract is not None:
        yield f"= abnat NS {score.abnat[0]} EW {score.abnat[1]}\n"
        yield f"= aklat NS {score.aklat[0]} EW {score.aklat[1]}\n"
        yield f"= projects NS {score.projects[0]} EW {score.projects[1]}\n"
        cards, projects = score.card_scores, score.project_scores
        yield f"= cardscore NS {cards[0]} EW {cards[1]}\n"
        yield f"= projectscore NS {projects[0]} EW {projects[1]}\n"
        yield f"= result {result_word(result)}\n"
        if score.kaboot_team is not None:
            yield f"= kaboot {TEAM_NAMES[score.kaboot_team]}\n"
    points = result.game_points
    yield f"= score NS {points[0]} EW {points[1]}\n"
    yield f"= total NS {totals[0] + points[0]} EW {totals[1] + points[1]}\n"
    if game.is_over() and game.results[-1] is result and game.winner is not None:
        yield f"= winner {TEAM_NAMES[game.winner]}\n"
