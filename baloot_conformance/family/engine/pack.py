"""The hand's view of the table: a ruleset's pack (built once), card sets, the seats' ring.

A card is an index of ``table.deck``'s pack, which runs suit by suit in the listed order, ranks
lowest first (``model.py``'s convention); a set of cards is an ``int`` bit mask. The seats are
``0 .. n-1`` in the order of play.

"""

from __future__ import annotations

from collections.abc import Iterable

from baloot_conformance.family.engine.deck import Pack, Ring, build_pack
from baloot_conformance.family.rules.model import TrickRuleset

_PACKS: dict[int, tuple[TrickRuleset, Pack]] = {}


def pack_of(rules: TrickRuleset) -> Pack:
    """The pack of a ruleset's table, built once per ruleset."""
    entry = _PACKS.get(id(rules))
    if entry is None or entry[0] is not rules:
        table = rules.table
        pack = build_pack(table.deck, table.order_plain, table.order_trump or table.order_plain)
        entry = _PACKS[id(rules)] = (rules, pack)
    return entry[1]


def mask_of(cards: Iterable[int]) -> int:
    """The set of these card indices."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


# --- the seats ------------------------------------------------------------------------------


def ring_of(ruleset: TrickRuleset, players: int) -> Ring:
    """The table's ring: ``table.seats``' names (or ``P1`` .. ``Pn``), ``table.direction``."""
    seats = ruleset.table.seats
    listed = seats.names or tuple(f"{seats.prefix}{k + 1}" for k in range(players))
    teams = ruleset.table.teams.option == "partners"
    return Ring.of_table(listed, ruleset.table.direction.option, teams)
