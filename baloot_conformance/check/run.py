"""Checking transcripts: hands that follow each other as games, and each hand's verdict.

:func:`check_transcript` reads a file and checks it under the ruleset its tag names (or the
one given); :func:`check_hands` checks hands that follow each other as one game or several
(running totals, the dealer's turn and the game's end carry over). Hands read from a reader
take the fast lane (:mod:`~baloot_conformance.check.fast_lane`), which passes the hands that
conform and hands every other to the reference path
(:mod:`~baloot_conformance.check.hand_check`): the same verdicts either way, chosen here.
:func:`replay_hands` gives each hand's checker too, and :func:`replay_to` the interpreter's
hand at any position, to ask what is legal there, and :func:`table_at` and
:func:`table_at_position` the table a picture draws.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
from collections.abc import Callable, Iterable, Iterator, Sequence

from baloot_conformance import btn
from baloot_conformance.check.events import (
    HandChecker,
    ReplayStop,
    talk_action,
    unlogged_auction,
)
from baloot_conformance.check.fast_lane import check_chunks
from baloot_conformance.check.hand_check import check_hand
from baloot_conformance.check.table import Table, table_of, talk_table
from baloot_conformance.check.verdicts import EngineId, HandVerdict
from baloot_conformance.engine.game import Game
from baloot_conformance.engine.hand import Hand
from baloot_conformance.engine.model import Seat
from baloot_conformance.engine.trace import Trace
from baloot_conformance.errors import BalootError, Location, UnreadableInputError
from baloot_conformance.rules.loading import load_shipped_ruleset
from baloot_conformance.rules.ruleset import Ruleset


@functools.lru_cache(maxsize=32)
def _shipped_ruleset(reference: str) -> Ruleset:
    """A ruleset named by a file's tag, loaded once per process (a run checks many files
    under the same few rulesets)."""
    return load_shipped_ruleset(reference)


def check_transcript(
    source: btn.Source,
    path: str,
    ruleset: Ruleset | None = None,
    required: frozenset[str] = frozenset(),
    pictures: bool = False,
    fast: bool = True,
) -> Iterator[HandVerdict]:
    """Replay every hand of a transcript, streaming one verdict per hand; ``pictures``: each
    root divergence carries the table at that point; ``fast``: see :func:`check_hands`.

    ``ruleset`` overrides the file's ``[Ruleset]`` tag. Hands follow each other as one game
    (see :func:`check_hands`).

    Raises:
        TranscriptSyntaxError: the file is not valid BTN (the hands before it are yielded).
        SpecError, UnreadableInputError: the file names a ruleset that cannot be loaded.
    """
    with btn.TranscriptReader(source, path) as reader:
        if ruleset is None:
            ruleset = ruleset_of(reader)
        yield from check_hands(reader, path, ruleset, required, pictures=pictures, fast=fast)


def ruleset_of(reader: btn.TranscriptReader) -> Ruleset:
    """The ruleset a transcript names in its ``[Ruleset]`` tag: a shipped id only.

    Raises:
        UnreadableInputError: the tag names no shipped ruleset (or a path, or a major version
            the kit does not have), located at the tag.
    """
    tag = next((t for t in reader.header if isinstance(t, btn.Tag) and t.name == "Ruleset"), None)
    try:
        return _shipped_ruleset(tag.value if tag else "")
    except BalootError as exc:
        if tag is None:
            raise
        raise UnreadableInputError(
            f"[Ruleset {tag.value!r}]: {exc.message}",
            location=Location(reader.path, tag.line, tag.column),
            hint=exc.hint,
        ) from None


def ruleset_tag(reader: btn.TranscriptReader) -> str:
    """The value of the transcript's ``[Ruleset]`` tag (empty when it has none)."""
    tags = {t.name: t.value for t in reader.header if isinstance(t, btn.Tag)}
    return tags.get("Ruleset", "")


def engine_of(header: Iterable[object]) -> EngineId | None:
    """The engine a transcript's header names: its ``[Engine]`` tag, with its
    ``[EngineVersion]`` tag when it has one; ``None`` without an ``[Engine]`` tag."""
    tags = {t.name: t.value for t in header if isinstance(t, btn.Tag)}
    name = tags.get("Engine")
    return None if name is None else EngineId(name, tags.get("EngineVersion") or None)


def starts_game(hand: btn.Hand) -> bool:
    """Whether a hand begins a game of its own (it states its totals with a ``start`` line):
    such a hand owes nothing to the hands before it, so a file can be cut there."""
    first = next((i for i in hand.items if isinstance(i, btn.Event)), None)
    return isinstance(first, btn.Start)


def check_hands(
    hands: Iterable[btn.Hand],
    path: str,
    ruleset: Ruleset,
    required: frozenset[str] = frozenset(),
    trace: Trace | None = None,
    pictures: bool = False,
    fast: bool = True,
    engine: EngineId | None = None,
) -> Iterator[HandVerdict]:
    """Replay hands that follow each other as games: running totals, dealer rotation and the
    game's winner carry over; a new game starts after one ends and at every hand that
    :func:`starts_game`. Divergences quote their lines when ``hands`` is a
    :class:`~baloot_conformance.btn.TranscriptReader`. ``trace`` counts the rules that
    decided something (rule coverage).

    Hands read from a reader take the fast lane
    (:func:`~baloot_conformance.check.fast_lane.check_chunks`) unless ``fast`` is false or
    claims are ``required`` or rules traced; every other run takes the reference path alone.
    The verdicts are the same either way.

    Each verdict names ``engine``, by default the one the reader's header names
    (:func:`engine_of`; a run of hands cut from a file has no header: its caller gives it).
    """
    if engine is None and isinstance(hands, btn.TranscriptReader):
        engine = engine_of(hands.header)
    if fast and isinstance(hands, btn.TranscriptReader) and not required and trace is None:
        yield from check_chunks(hands, path, ruleset, pictures, engine)
    else:
        replayed = replay_hands(hands, path, ruleset, required, trace, pictures, engine_id=engine)
        yield from (verdict for verdict, _ in replayed)


def replay_hands(
    hands: Iterable[btn.Hand],
    path: str,
    ruleset: Ruleset,
    required: frozenset[str] | Callable[[btn.Hand], frozenset[str]] = frozenset(),
    trace: Trace | None = None,
    pictures: bool = False,
    source_lines: Callable[[int], str | None] | None = None,
    engine_id: EngineId | None = None,
) -> Iterator[tuple[HandVerdict, HandChecker]]:
    """:func:`check_hands` with each hand's checker, which holds the replayed hand as the
    transcript left it (for the adapter protocol's answers). ``required`` may depend on the
    hand. ``source_lines``: the transcript's lines by number, for hands that do not come
    straight from a reader (which gives its own)."""
    name = f"{ruleset.id}@{ruleset.version}"
    game: Game | None = None
    expected_dealer: Seat | None = None
    lines: Callable[[int], str | None] = source_lines or (
        hands.source_line if isinstance(hands, btn.TranscriptReader) else (lambda n: None)
    )
    for hand in hands:
        if game is None or game.is_over() or starts_game(hand):
            game = Game(ruleset, dealer=0, trace=trace)
            expected_dealer = None
        needed = required(hand) if callable(required) else required
        verdict, checker = check_hand(
            ruleset, hand, path, name, game, expected_dealer, needed, lines, pictures, engine_id
        )
        yield verdict, checker
        expected_dealer = checker.result.next_dealer if checker.result else None


class NoSuchMoment(ValueError):
    """The hand, trick or position asked for is not in the transcript, or its replay stopped
    before it."""


def replay_to(hands: Sequence[btn.Hand], rules: Ruleset, position: str) -> Hand:
    """The reference interpreter's hand just before the event or claim at ``position``
    (``h2.t5.p3``, ``h1.bid4``), the hands before it replayed as one game: ask it what may
    come there (:meth:`~baloot_conformance.engine.hand.Hand.legal_actions`,
    :meth:`~baloot_conformance.engine.hand.Hand.legal_cards`).

    Raises:
        NoSuchMoment: no item has that position, or the hand's replay stopped before it.
    """
    index, at, item = _find(hands, position)
    verdict, checker = _replayed_before(hands, index, at, rules)
    why = verdict.error
    if why is None and checker.engine is None:  # nothing needed the engine yet: start it here
        checker.partial = unlogged_auction(hands[index])  # the cut hand lacks what follows
        try:
            checker.engine_at(item)
        except ReplayStop as exc:
            why = str(exc)
    if why is not None or checker.engine is None:
        raise NoSuchMoment(f"the replay of {verdict.position} stops before {position}: {why}")
    return checker.engine


def _find(hands: Sequence[btn.Hand], position: str) -> tuple[int, int, btn.Item]:
    """The hand (its index), the item's index in it and the item at ``position``."""
    for index, hand in enumerate(hands):
        for at, item in enumerate(hand.items):
            if not isinstance(item, btn.Comment) and item.position == position:
                return index, at, item
    raise NoSuchMoment(f"no event or claim is at {position}")


def table_at_position(hands: Sequence[btn.Hand], rules: Ruleset, position: str) -> Table:
    """The table just before the event or claim at ``position`` (``h1.t5.p3``: the card
    shown as the one played, with what the ruleset allowed). At a Sawa or a foul call
    (``h4.sawa``, ``h2.foul1``), at its verdict (``h4.sawa.verdict``) and at anything after
    it in the hand, which it ends: the table at the call, with its verdict and line
    (:func:`~baloot_conformance.check.table.talk_table`).

    Raises:
        NoSuchMoment: no item has that position, or the hand's replay stops before it.
    """
    index, at, item = _find(hands, position)
    hand = hands[index]
    talk = next(
        (i for i in hand.items[: at + 1] if isinstance(i, (btn.Sawa, btn.Foul))),
        None,
    )
    if talk is not None:
        engine = replay_to(hands, rules, talk.position)
        return talk_table(engine, hand.number, talk_action(talk))
    engine = replay_to(hands, rules, position)
    return table_of(engine, hand.number, item.card if isinstance(item, btn.Play) else None)


def table_at(hands: Sequence[btn.Hand], rules: Ruleset, number: int, trick: int) -> Table:
    """The table of hand ``number`` at trick ``trick``: its first three cards on the table
    and its last one shown as the card played, with what the ruleset allowed there. When the
    replay stops inside that trick (at an illegal card), the table at the card it stops at.

    Raises:
        NoSuchMoment: no such hand, the hand has fewer tricks, or its replay stopped before
            that trick's last card (the table is never drawn from a replay that went wrong).
    """
    index = next((i for i, hand in enumerate(hands) if hand.number == number), None)
    if index is None:
        numbers = ", ".join(str(hand.number) for hand in hands) or "none"
        raise NoSuchMoment(f"there is no hand {number} (the hands are {numbers})")
    hand = hands[index]
    plays = [i for i, item in enumerate(hand.items) if isinstance(item, btn.Play)]
    if trick < 1:
        raise NoSuchMoment(f"tricks are numbered from 1, not {trick}")
    if len(plays) < 4 * trick:
        raise NoSuchMoment(f"hand {number} has {len(plays) // 4} complete tricks, not {trick}")
    cards = [hand.items[at] for at in plays[4 * trick - 4 : 4 * trick]]
    for card in reversed(cards[1:]):  # the last card the replay reaches, if it stops inside
        assert isinstance(card, btn.Play)
        with contextlib.suppress(NoSuchMoment):
            return table_of(replay_to(hands, rules, card.position), number, card.card)
    first = cards[0]
    assert isinstance(first, btn.Play)
    return table_of(replay_to(hands, rules, first.position), number, first.card)


def _replayed_before(
    hands: Sequence[btn.Hand], index: int, at: int, rules: Ruleset
) -> tuple[HandVerdict, HandChecker]:
    """The hands before ``hands[index]`` replayed as a game, then that hand up to its item
    ``at`` (left out): the cut hand's verdict and checker."""
    cut = dataclasses.replace(hands[index], items=hands[index].items[:at])
    *_, last = replay_hands([*hands[:index], cut], "", rules)
    return last
