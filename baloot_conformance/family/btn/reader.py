"""Reading BTN 2: text to typed events and claims, checked against the ruleset's table.

:class:`Btn2Reader` reads the version line (``%btn 2``), the metadata block and the header
tags at once, asks for the ruleset the ``[Ruleset "..."]`` tag names (``ruleset_for``: the
caller's loader, so this package reads no YAML), takes the table from it (the pack, the seats,
the size of a hand, the number of tricks) and from ``[Seats]``, then yields one
:class:`~.items.Hand` at a time. The lines are BTN 1's (:mod:`baloot_conformance.btn.lines`:
UTF-8, no NUL, a line at most 16,384 bytes, a hand at most 1,000 lines), and so are the
errors: a :class:`~baloot_conformance.errors.TranscriptSyntaxError` with ``file:line:col``, the
line with a caret under the problem, what was expected and a hint; whatever the
ruleset's loader raises (a :class:`~baloot_conformance.errors.BalootError`) passes through.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator
from typing import Any

from baloot_conformance.btn.lines import MAX_HAND_LINES, decode_utf8
from baloot_conformance.btn.reader import load_metadata
from baloot_conformance.errors import Location, TranscriptSyntaxError, caret_excerpt
from baloot_conformance.family.btn.builder import HandBuilder
from baloot_conformance.family.btn.grammar import SUIT_LETTER, Stmt
from baloot_conformance.family.btn.items import Comment, Hand, Table, Tag, Transcript
from baloot_conformance.family.btn.lines import Errors, split_lines
from baloot_conformance.family.btn.statements import layout_error, statements
from baloot_conformance.family.rules.model import TrickRuleset

#: The major version of BTN this reader knows.
KNOWN_MAJOR = 2

#: Gives the ruleset a ``[Ruleset "..."]`` tag names (its value, and where it is written), or
#: raises a :class:`~baloot_conformance.errors.BalootError` saying why it cannot.
RulesetFor = Callable[[str, Location], TrickRuleset]

_SEAT = re.compile(r"[A-Z][A-Z0-9]{0,2}")
_HEADER_ONLY = frozenset({"version", "meta", "tag"})


def table_of(ruleset: TrickRuleset, reference: str, seats: Tag | None, errors: Errors) -> Table:
    """The table of a transcript: the ruleset's pack, hand size and tricks, and its seats
    (``[Seats]`` where the ruleset numbers them, else its fixed names)."""
    deck = ruleset.table.deck
    pack = tuple(rank + suit for suit in deck.suits for rank in deck.ranks)
    rule = ruleset.table.seats
    numbered = not rule.names
    names: tuple[str, ...] = tuple(rule.names)
    if seats is None and numbered:
        example = " ".join(f"{rule.prefix}{i}" for i in range(1, rule.min + 1))
        raise errors.at(
            f'the header has no [Seats "..."] tag: {reference} numbers its seats '
            f"({rule.min} to {rule.max})",
            1,
            1,
            hint=f'list the seats clockwise around the table, e.g. [Seats "{example}"]',
        )
    if seats is not None:
        line, column = seats.location.line, seats.location.column
        listed = tuple(seats.value.split(" "))
        for name in listed:
            if not _SEAT.fullmatch(name):
                raise errors.at(
                    f"[Seats] lists {name!r}, which is not a seat name",
                    line,
                    column,
                    hint="seats are separated by one space; a seat is a capital and up to "
                    "two capitals or digits (P1, N)",
                    token=name or None,
                )
        for i, name in enumerate(listed):
            if name in listed[:i]:
                raise errors.at(f"[Seats] lists {name} twice", line, column, token=name)
        if numbered:
            if not rule.min <= len(listed) <= rule.max:
                raise errors.at(
                    f"[Seats] lists {len(listed)} seats: {reference} is played by "
                    f"{rule.min} to {rule.max}",
                    line,
                    column,
                )
            expected = {f"{rule.prefix}{i}" for i in range(1, len(listed) + 1)}
            for name in listed:
                if name not in expected:
                    raise errors.at(
                        f"[Seats] lists {name}: {reference}'s {len(listed)} seats are "
                        f"{rule.prefix}1 to {rule.prefix}{len(listed)}",
                        line,
                        column,
                        hint="the seats are numbered from 1, listed clockwise",
                        token=name,
                    )
            names = listed
        elif listed != names:
            raise errors.at(
                f"[Seats] lists {seats.value!r}: {reference}'s seats are {' '.join(names)}",
                line,
                column,
                hint="leave the tag out, or list the ruleset's seats in its order",
            )
    return Table(
        ruleset=reference,
        seats=names,
        pack=pack,
        hand_size=ruleset.phases.deal.cards,
        tricks=ruleset.phases.tricks.count,
        numbered=numbered,
        passing=ruleset.phases.pass_cards is not None,
        points=ruleset.scoring.outcome.option == "points",
    )


class Btn2Reader:
    """A BTN 2 transcript: its header at once, then one hand at a time.

    ``source`` is the text (or its UTF-8 bytes), ``path`` names it in errors and
    ``ruleset_for`` gives the ruleset the ``[Ruleset]`` tag names. After construction
    ``version``, ``header``, ``tags``, ``metadata``, ``ruleset`` and ``table`` are known.
    """

    def __init__(self, source: str | bytes, path: str, ruleset_for: RulesetFor) -> None:
        if isinstance(source, bytes):
            source = decode_utf8(source, path)
        self.path = path
        self._errors = Errors(path)
        self._lines = split_lines(source, self._errors)
        self._stmts = statements(enumerate(self._lines, 1), self._errors)
        self._pending: Stmt | None = None
        self.metadata: dict[str, Any] | None = None
        self.metadata_text: str | None = None
        try:
            self._read_header(ruleset_for)
        except TranscriptSyntaxError as exc:
            raise self._with_excerpt(exc) from None

    def _next(self) -> Stmt | None:
        return next(self._stmts, None)

    def _read_header(self, ruleset_for: RulesetFor) -> None:
        errors = self._errors
        first = self._next()
        if first is None:
            raise errors.at(
                "empty file: expected the version line '%btn 2'",
                1,
                1,
                hint="a BTN 2 file starts with the line '%btn 2'",
            )
        version = first[1][0]
        if int(version.split(".")[0]) != KNOWN_MAJOR:
            raise errors.at(
                f"unknown BTN version {version}: this reader knows version {KNOWN_MAJOR}",
                1,
                first[3] + 5,
                hint="a transcript of the trick family starts with '%btn 2'; BTN 1 is "
                "Baloot's notation, read by its own reader",
            )
        self.version = version
        header: list[Tag | Comment] = []
        tags: dict[str, Tag] = {}
        after_version = True
        while True:
            stmt = self._next()
            if stmt is None:
                break
            kind, v, number, column, comment = stmt
            if number > MAX_HAND_LINES and kind != "hand":
                raise errors.at(
                    f"the header runs past {MAX_HAND_LINES:,} lines: the most one part of a "
                    "file may span",
                    MAX_HAND_LINES + 1,
                    1,
                )
            if kind == "hand":
                self._pending = stmt
                break
            if kind == "meta" and after_version:
                self.metadata_text = v[0]
                self.metadata = load_metadata(v[0], number + 1, self.path)
            elif kind == "tag":
                if v[0] in tags:
                    raise errors.at(
                        f"a second [{v[0]} ...] tag (the first is on line "
                        f"{tags[v[0]].location.line})",
                        number,
                        column,
                    )
                tag = Tag(
                    name=v[0],
                    value=v[1],
                    comment=comment,
                    location=Location(self.path, number, column),
                )
                tags[v[0]] = tag
                header.append(tag)
            elif kind == "comment":
                header.append(Comment(text=v[0], location=Location(self.path, number, column)))
            else:
                raise layout_error(stmt, errors)
            after_version = False
        self.header = tuple(header)
        reference = tags.get("Ruleset")
        if reference is None:
            raise errors.at(
                'the header has no [Ruleset "..."] tag',
                self._pending[2] if self._pending else 1,
                1,
                hint='name the rules the game was played under, e.g. [Ruleset "bourre@1"]',
            )
        where = reference.location
        at = dataclasses.replace(where, column=where.column + len('[Ruleset "'))
        self.ruleset = ruleset_for(reference.value, at)
        self.table = table_of(self.ruleset, reference.value, tags.get("Seats"), errors)

    @property
    def tags(self) -> dict[str, str]:
        return {t.name: t.value for t in self.header if isinstance(t, Tag)}

    def head(self) -> Transcript:
        """The transcript without its hands."""
        return Transcript(
            version=self.version,
            header=self.header,
            hands=(),
            table=self.table,
            metadata=self.metadata,
            metadata_text=self.metadata_text,
        )

    def _with_excerpt(self, exc: TranscriptSyntaxError) -> TranscriptSyntaxError:
        """Add the source line to an error, the caret under the word it is about."""
        location = exc.location
        if exc.excerpt is not None or location is None or location.line < 1:
            return exc
        if location.line > len(self._lines):
            return exc
        line = self._lines[location.line - 1]
        if exc.token is not None:
            code = line.split("#", 1)[0]
            for spelling in _spellings(exc.token):
                at = _word_at(code, spelling, location.column - 1)
                if at >= 0:
                    location = exc.location = dataclasses.replace(location, column=at + 1)
                    break
        exc.excerpt = caret_excerpt(line, location.column, location.line)
        return exc

    def __iter__(self) -> Iterator[Hand]:
        for chunk in self.chunks():
            yield self.build(chunk)

    def chunks(self) -> Iterator[HandChunk]:
        """Each hand's statements, unbuilt (:meth:`build` makes the hand): ``check``'s fast
        lane builds a hand a second time, with its plays as items, when it gives the hand up.
        A chunk that ends at an error is the last."""
        errors = self._errors
        seen: set[int] = set()
        while self._pending is not None:
            head = self._pending
            _, v, number, column, _comment = head
            self._pending = None
            stmts: list[Stmt] = []
            error: TranscriptSyntaxError | None = None
            if v[0] in seen:
                error = errors.at(
                    f"a second 'hand {v[0]}'",
                    number,
                    column,
                    hint="hand numbers are unique in a file",
                )
            elif v[0] < 1:
                error = errors.at("hand numbers start at 1", number, column)
            seen.add(v[0])
            last = number + MAX_HAND_LINES - 1
            try:
                for stmt in self._stmts if error is None else ():
                    if stmt[2] > last:
                        error = errors.at(
                            f"hand {v[0]} (from line {number}) runs past {MAX_HAND_LINES:,} "
                            "lines: the most one part of a file may span",
                            number + MAX_HAND_LINES,
                            1,
                        )
                        break
                    if stmt[0] == "hand":
                        self._pending = stmt
                        break
                    if stmt[0] in _HEADER_ONLY:
                        error = layout_error(stmt, errors)
                        break
                    stmts.append(stmt)
            except TranscriptSyntaxError as exc:  # a line no statement reads
                error = exc
            yield HandChunk(head, stmts, error)
            if error is not None:
                return

    def build(self, chunk: HandChunk, lane: bool = False) -> Hand:
        """The hand of a chunk (``lane``: each trick line's cards as one
        :class:`~.items.CardRun`, for ``check``'s fast lane), or the first error in it, the
        same either way."""
        _, v, number, column, comment = chunk.head
        try:
            builder = HandBuilder(
                self.table, v[0], Location(self.path, number, column), comment, self._errors, lane
            )
            for stmt in chunk.stmts:
                builder.add(stmt)
            if chunk.error is not None:
                raise chunk.error
            return builder.finish()
        except TranscriptSyntaxError as exc:
            raise self._with_excerpt(exc) from None


@dataclasses.dataclass(frozen=True, slots=True)
class HandChunk:
    """One hand's statements as :meth:`Btn2Reader.chunks` splits them: the ``hand`` line,
    the statements after it, and the error that ends them (raised by :meth:`Btn2Reader.build`
    after the statements before it, so that the first error in the file is the one told)."""

    head: Stmt
    stmts: list[Stmt]
    error: TranscriptSyntaxError | None


def _spellings(code: str) -> list[str]:
    """The ways a token may be written: a card ``TH`` as ``TH``, ``10H``, ``T♥``, ``10♥``."""
    if len(code) == 2 and code[1] in "SHDC":
        ranks = [code[0], "10"] if code[0] == "T" else [code[0]]
        suits = [s for s, letter in SUIT_LETTER.items() if letter == code[1]]
        return [r + s for r in ranks for s in suits]
    return [code]


def _word_at(text: str, word: str, start: int) -> int:
    """Where ``word`` stands as a whole token in ``text`` at or after ``start`` (its last
    use, as BTN 1 places it: a card listed twice is wrong the second time), or -1."""
    found = -1
    for m in re.finditer(re.escape(word) + r'(?![^ \t,:"])', text):
        if m.start() >= start and (m.start() == 0 or text[m.start() - 1] in ' \t,:"'):
            found = m.start()
    return found


class _Named(Exception):
    """The reference a ``[Ruleset]`` tag holds, carried out of the reader's header."""


def ruleset_reference(text: str | bytes, path: str) -> str | None:
    """The value of a BTN 2 file's ``[Ruleset "..."]`` tag (``bourre@1``) as this reader's own
    header reads it, without loading the ruleset; ``None`` when the head of the file is not
    valid BTN 2 or names none."""

    def named(reference: str, where: Location) -> TrickRuleset:
        raise _Named(reference)

    try:
        Btn2Reader(text, path, named)
    except _Named as found:
        return str(found.args[0])
    except TranscriptSyntaxError:
        return None
    raise AssertionError("a BTN 2 header without a [Ruleset] tag is an error")  # pragma: no cover


def read_btn2(text: str | bytes, path: str, ruleset_for: RulesetFor) -> Transcript:
    """A whole BTN 2 transcript held in memory, checked against its ruleset's table."""
    reader = Btn2Reader(text, path, ruleset_for)
    hands = tuple(reader)
    return dataclasses.replace(reader.head(), hands=hands)
