"""BTN, the Baloot Transcript Notation: its items and its reader.

This package is the only part of the kit that parses BTN text. Reading goes up in layers, each
a module: lines (:mod:`~baloot_conformance.btn.lines`: bytes or text to numbered lines, with a
line-length limit and UTF-8 checks, the lines of the hand being read kept for quoting),
statements (:mod:`~baloot_conformance.btn.statements`: one tuple per line by a fast path, and
:mod:`~baloot_conformance.btn.grammar`: the normative Lark grammar ``grammar/btn.lark`` for the
lines the fast path leaves, and errors in plain words; then the layout of a file), hands
(:mod:`~baloot_conformance.btn.builder`: structural checks that need no rules, and stable
positions such as ``h2.t5.p3``) and the reader (:mod:`~baloot_conformance.btn.reader`). The
items they build are in :mod:`~baloot_conformance.btn.items`. Beside them: opening files,
compressed files, pipes and standard input, each read once
(:mod:`~baloot_conformance.btn.sources`), cutting a file into runs of whole games for a
parallel check (:mod:`~baloot_conformance.btn.runs`), the canonical writer
(:mod:`~baloot_conformance.btn.writer`) and the JSON form
(:mod:`~baloot_conformance.btn.json_form`).

The names below are the notation's vocabulary for the rest of the kit, which writes
``btn.Play`` and ``btn.TranscriptReader`` (the engine has a ``Play`` of its own).
"""

from baloot_conformance.btn.builder import HandBuilder
from baloot_conformance.btn.grammar import Stmt
from baloot_conformance.btn.items import (
    SEATS,
    TEAM_CLAIMS,
    TEAMS,
    Baloot,
    Call,
    CallVerdictClaim,
    Claim,
    Comment,
    ContractClaim,
    Deal,
    Dealer,
    Declare,
    Event,
    FaceUp,
    Foul,
    Hand,
    HandItem,
    Hold,
    Item,
    KabootClaim,
    Kawesh,
    LegalCallsClaim,
    LegalClaim,
    Play,
    Rest,
    ResultClaim,
    Sawa,
    Start,
    Tag,
    TeamClaim,
    Transcript,
    TrickClaim,
    WinnerClaim,
    play_target,
)
from baloot_conformance.btn.lines import MAX_HAND_LINES, MAX_LINE_BYTES, Source, decode_utf8
from baloot_conformance.btn.reader import (
    HandChunk,
    TranscriptReader,
    iter_hands,
    load_metadata,
    parse_transcript,
    read_transcript,
)
from baloot_conformance.btn.sources import COMPRESSED, STDIN, is_stream, open_source

__all__ = [
    "COMPRESSED",
    "MAX_HAND_LINES",
    "MAX_LINE_BYTES",
    "SEATS",
    "STDIN",
    "TEAMS",
    "TEAM_CLAIMS",
    "Baloot",
    "Call",
    "CallVerdictClaim",
    "Claim",
    "Comment",
    "ContractClaim",
    "Deal",
    "Dealer",
    "Declare",
    "Event",
    "FaceUp",
    "Foul",
    "Hand",
    "HandBuilder",
    "HandChunk",
    "HandItem",
    "Hold",
    "Item",
    "KabootClaim",
    "Kawesh",
    "LegalCallsClaim",
    "LegalClaim",
    "Play",
    "Rest",
    "ResultClaim",
    "Sawa",
    "Source",
    "Start",
    "Stmt",
    "Tag",
    "TeamClaim",
    "Transcript",
    "TranscriptReader",
    "TrickClaim",
    "WinnerClaim",
    "decode_utf8",
    "is_stream",
    "iter_hands",
    "load_metadata",
    "open_source",
    "parse_transcript",
    "play_target",
    "read_transcript",
]
