"""Where the command line meets the trick family (Bourré, BTN 2): imported only when a run
needs it, so that a Baloot run never loads the family's modules.

The two paths part at two points: a ruleset reference whose file says ``format:
trick-ruleset/1`` (:func:`load`), and a transcript whose version line is ``%btn 2`` (the
Baloot reader raises :class:`~baloot_conformance.btn.reader.UnknownVersion` at its first line,
before any verdict, and :func:`verdicts` takes the file over).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

from baloot_conformance.btn.sources import open_source
from baloot_conformance.check.verdicts import HandVerdict
from baloot_conformance.errors import BalootError, UnreadableInputError
from baloot_conformance.family.check.run import check_btn2, is_btn2
from baloot_conformance.family.rules.loading import load_trick_ruleset
from baloot_conformance.family.rules.model import TrickRuleset
from baloot_conformance.rules import loading

#: The most a BTN 2 file may hold: it is read whole (Bourré sessions are small).
MAX_BTN2_BYTES = 64 << 20


def names_trick_ruleset(reference: str) -> bool:
    """Whether ``reference`` (a shipped id, ``id@major`` or a path) is a trick ruleset."""
    return loading.names_trick_ruleset(reference)


def load(reference: str) -> TrickRuleset:
    return load_trick_ruleset(reference)


def stdin_is_btn2() -> bool:
    """Whether standard input starts with BTN 2's version line (peeked, not consumed)."""
    stdin: Any = getattr(sys.stdin, "buffer", None)
    peek = getattr(stdin, "peek", None)
    return peek is not None and is_btn2(peek(16)[:16])


def is_btn2_file(path: str) -> bool:
    """Whether a file starts with BTN 2's version line."""
    try:
        with open_source(path) as stream:
            return is_btn2(stream.read(16))
    except BalootError:
        return False


def verdicts(
    path: str, ruleset: object | None, pictures: bool = False, fast: bool = True
) -> Iterator[HandVerdict]:
    """The verdicts of a BTN 2 file (or standard input), under ``ruleset`` when one was given
    on the command line (a Baloot one is refused: a BTN 2 file is a trick family's);
    ``pictures``: each root divergence carries the table where it happens; ``fast``: hands
    that pass go through the fast lane (``--reference-replay`` turns it off)."""
    if ruleset is not None and not isinstance(ruleset, TrickRuleset):
        raise UnreadableInputError(
            f"{path} is a BTN 2 transcript (the trick family); --ruleset "
            f"{getattr(ruleset, 'id', ruleset)} is a Baloot ruleset",
            hint="leave --ruleset out (the file's [Ruleset] tag names its ruleset), or name a "
            "trick ruleset: " + ", ".join(loading.shipped_files(loading.TRICK_FORMAT)),
        )
    yield from check_btn2(_read(path), path, ruleset, pictures, fast=fast)


def read(path: str) -> bytes:
    """A BTN 2 file's bytes, as ``check`` reads them (``show`` draws from them)."""
    return _read(path)


def _read(path: str) -> bytes:
    with open_source(path) as stream:
        data = stream.read(MAX_BTN2_BYTES + 1)
    if len(data) > MAX_BTN2_BYTES:
        raise UnreadableInputError(
            f"{path}: a BTN 2 file of more than {MAX_BTN2_BYTES >> 20} MiB",
            hint="split the session into files of whole hands (each starting with 'start')",
        )
    return data


def refuse_baloot_file(path: str, ruleset: TrickRuleset) -> UnreadableInputError:
    """The error for a BTN 1 file checked under a trick ruleset."""
    return UnreadableInputError(
        f"{path} is a BTN 1 transcript (Baloot); --ruleset {ruleset.id} is a trick ruleset",
        hint="leave --ruleset out, or name a Baloot ruleset (baloot-conformance spec list)",
    )
