"""The stage library's mechanisms: what each stage kind prefers, and the sentence it says.

Each stage kind of :mod:`..rules.play` is a function from the candidates (the cards still
allowed), the hand and the trick as :func:`read` sees it (the flags of the conditions that
hold, the place of the winning card) to an outcome and the cards it prefers: :data:`NARROW`
(those cards), :data:`UNABLE` (it prefers cards the candidates do not hold), :data:`FREE`
(every card of the hand), :data:`SKIP` (the stage does not apply under this reading) or
:data:`UNKNOWN` (it needs a hand that is not known). :func:`compile_node` binds a stage rule's
parameters to the pack's masks once per contract, so that a decision is a few integer
operations per node; :func:`sentence` words a broken stage in the kit's voice, from the
trick's :class:`Situation` (made only for a sentence).

A new game adds a stage kind here and in :mod:`..rules.play`, with its sentence: never an
expression language.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from baloot_conformance.family.engine.deck import Ring
from baloot_conformance.family.engine.tricks import TrickTable
from baloot_conformance.family.rules.play import (
    Beat,
    Cinch,
    Exempt,
    FirstTrickBan,
    ForcedLead,
    LeadBan,
    Overruff,
    Ruff,
    StageRule,
    Underruff,
)

NARROW, UNABLE, FREE, SKIP, UNKNOWN = range(5)

LEADING = 1
FOLLOWING = 2
TRUMP_LED = 4
PLAIN_LED = 8
PARTNER_WINNING = 16
OPPONENT_WINNING = 32
TRUMP_WINNING = 64
LAST = 128
#: The flag of each condition a guard may test while playing.
FLAGS = {
    "leading": LEADING,
    "following": FOLLOWING,
    "trump_led": TRUMP_LED,
    "plain_led": PLAIN_LED,
    "partner_winning": PARTNER_WINNING,
    "opponent_winning": OPPONENT_WINNING,
    "trump_winning": TRUMP_WINNING,
    "last": LAST,
}

_SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


class Context(NamedTuple):
    """What the stages need to know beyond the hand and the trick's cards (a named tuple: one
    is made for every card checked)."""

    seats: tuple[int, ...]
    """The seat of each card of the trick, in order, then the player's seat."""
    ring: Ring
    active: int | None = None
    """The seats still in the hand (a mask, bit ``i`` for seat ``i``); ``None``: every seat."""
    hands: tuple[int | None, ...] | None = None
    """Every seat's cards where known (the referee's view); ``None`` or a ``None`` entry: not
    known (a partial transcript)."""
    gone: int = 0
    """The cards played in the tricks before this one."""
    won: int = 0
    """How many tricks the player has taken so far."""

    @property
    def player(self) -> int:
        return self.seats[-1]


class Situation:
    """What the guards and stages read of the trick so far."""

    __slots__ = ("flags", "led", "place", "seats", "trick", "winning")

    def __init__(
        self, flags: int, trick: tuple[int, ...], seats: tuple[int, ...], place: int
    ) -> None:
        self.flags = flags
        self.trick = trick
        self.seats = seats
        self.place = place
        """The place in the trick of the card winning it (-1 when leading)."""
        self.led = trick[0] if trick else -1
        self.winning = trick[place] if trick else -1


def situation(
    tricks: TrickTable,
    trick: tuple[int, ...],
    seats: tuple[int, ...],
    ring: Ring,
    active: int | None,
) -> Situation:
    """The :class:`Situation` of ``trick`` (card indices; ``seats``: who played each, then the
    player) at a table whose seats still in the hand are ``active``."""
    flags, place = read(tricks, trick, seats, ring, active)
    return Situation(flags, trick, seats, place)


def read(
    tricks: TrickTable,
    trick: tuple[int, ...],
    seats: tuple[int, ...],
    ring: Ring,
    active: int | None,
) -> tuple[int, int]:
    """The flags of the conditions that hold, and the place of the card winning the trick
    (-1 when leading): what a decision reads, without a :class:`Situation` (one is made only
    for a sentence)."""
    n = len(trick)
    playing = len(ring.names) if active is None else active.bit_count()
    last = LAST if n == playing - 1 else 0
    if not n:
        return LEADING | last, -1
    # tricks.winner, inline: this runs for every card decided.
    strength = tricks.strength
    suit_of = tricks.pack.suit_of
    base = tricks.trump_base
    led_suit = suit_of[trick[0]]
    best = strength[trick[0]]
    place = 0
    for i in range(1, n):
        card = trick[i]
        if strength[card] > best and (strength[card] >= base or suit_of[card] == led_suit):
            best = strength[card]
            place = i
    trumps = tricks.trumps
    flags = FOLLOWING | last | (TRUMP_LED if trumps >> trick[0] & 1 else PLAIN_LED)
    if ring.teams and (seats[place] - seats[n]) % 2 == 0:
        flags |= PARTNER_WINNING
    else:
        flags |= OPPONENT_WINNING
    if trumps >> trick[place] & 1:
        flags |= TRUMP_WINNING
    return flags, place


#: A stage's mechanism: (node, candidates, hand, flags, trick, place of the winning card,
#: context) -> (outcome, preferred cards).
Apply = Callable[["CompiledNode", int, int, int, tuple[int, ...], int, Context], tuple[int, int]]


class CompiledNode:
    """A node of the tree bound to one contract's tables."""

    __slots__ = (
        "apply",
        "guard",
        "index",
        "kind",
        "need",
        "otherwise",
        "param",
        "rule",
        "t",
        "then",
    )

    def __init__(
        self, index: int, rule: StageRule, guard: tuple[str, ...], need: int, t: TrickTable
    ) -> None:
        self.index = index
        self.rule = rule
        self.kind = rule.stage
        self.guard = guard
        """The node's ``when``, the contract's conditions (met) included."""
        self.need = need
        """The flags its guard requires while playing."""
        self.t = t
        self.apply: Apply = _APPLY[rule.stage]
        self.param: Any = None
        """The stage's parameters as the mechanism uses them (a mask, a flag, a tuple)."""
        self.then: tuple[CompiledNode, ...] = ()
        self.otherwise: tuple[CompiledNode, ...] = ()


def compile_node(
    index: int, rule: StageRule, when: tuple[str, ...], t: TrickTable, raised: bool
) -> CompiledNode:
    """Bind a stage rule to a contract: its guard as flags, its parameters as masks."""
    need = 0
    for condition in when:
        need |= FLAGS.get(condition, 0)  # locked, raised: met, or the node was left out
    node = CompiledNode(index, rule, when, need, t)
    pack = t.pack
    if isinstance(rule, Beat):
        node.param = (
            rule.target == "winning",
            rule.opponent_winning == "must_beat",
            rule.partner_winning == "must_beat",
        )
    elif isinstance(rule, Ruff | Overruff):
        node.param = rule.option == "required"
    elif isinstance(rule, Underruff):
        node.param = rule.option == "forced"
    elif isinstance(rule, Exempt):
        tops = 0
        if "plain_top" in rule.certain_tops:
            for suit in range(len(pack.suits)):
                if suit != t.trump:
                    cards = [i for i in range(pack.size) if pack.suit_of[i] == suit]
                    tops |= 1 << max(cards, key=lambda i: t.strength[i])
        node.param = (rule.option, tops, raised)
    elif isinstance(rule, LeadBan):
        banned = pack.matching_any(rule.cards)
        for name in rule.suits:
            if name == "trump":
                banned |= t.trumps
            elif name in pack.suits:
                banned |= pack.suit_masks[pack.suits.index(name)]
        node.param = (
            banned,
            pack.matching_any(rule.broken_by),
            rule.option == "binding",
            pack.matching_any(rule.unless_only),
        )
    elif isinstance(rule, ForcedLead):
        card = pack.index[rule.card]
        node.param = pack.suit_masks[pack.suit_of[card]] if rule.option == "suit" else 1 << card
    elif isinstance(rule, FirstTrickBan):
        node.param = (pack.matching_any(rule.cards), rule.option == "binding")
    elif isinstance(rule, Cinch):
        order = sorted(
            (i for i in range(pack.size) if t.trumps >> i & 1), key=lambda i: -t.strength[i]
        )
        node.param = (rule.definition == "sure_tricks", frozenset(rule.effects), tuple(order))
    return node


# --- the mechanisms -------------------------------------------------------------------------


def _follow_suit(
    node: CompiledNode,
    cands: int,
    hand: int,
    flags: int,
    trick: tuple[int, ...],
    place: int,
    ctx: Context,
) -> tuple[int, int]:
    if not trick:
        return SKIP, 0
    t = node.t
    x = cands & t.pack.suit_masks[t.pack.suit_of[trick[0]]]
    return (NARROW, x) if x else (UNABLE, 0)


def _beat(
    node: CompiledNode,
    cands: int,
    hand: int,
    flags: int,
    trick: tuple[int, ...],
    place: int,
    ctx: Context,
) -> tuple[int, int]:
    if not trick:
        return SKIP, 0
    on_winning, opponent_must, partner_must = node.param
    if not (partner_must if flags & PARTNER_WINNING else opponent_must):
        return UNABLE, 0  # this reading prefers no card: the candidates stand
    x = cands & node.t.takes[trick[place] if on_winning else highest_led(node.t, trick)]
    return (NARROW, x) if x else (UNABLE, 0)


def highest_led(t: TrickTable, trick: tuple[int, ...]) -> int:
    """The highest card of the suit led in the trick so far."""
    suit_of = t.pack.suit_of
    led_suit = suit_of[trick[0]]
    return max((c for c in trick if suit_of[c] == led_suit), key=lambda c: t.strength[c])


def _ruff(
    node: CompiledNode,
    cands: int,
    hand: int,
    flags: int,
    trick: tuple[int, ...],
    place: int,
    ctx: Context,
) -> tuple[int, int]:
    if not trick or flags & TRUMP_LED:
        return SKIP, 0
    if not node.param:  # optional: any card, a trump or not
        return FREE, 0
    x = cands & node.t.trumps
    return (NARROW, x) if x else (UNABLE, 0)


def _exempt(
    node: CompiledNode,
    cands: int,
    hand: int,
    flags: int,
    trick: tuple[int, ...],
    place: int,
    ctx: Context,
) -> tuple[int, int]:
    if not flags & PARTNER_WINNING:
        return SKIP, 0
    option, tops, raised = node.param
    if option == "any_seat":
        return FREE, 0
    if option == "unraised_only":
        return (SKIP, 0) if raised else (FREE, 0)
    if option == "last_or_certain_top" and (flags & LAST or tops >> trick[0] & 1):
        return FREE, 0
    return UNABLE, 0


def _overruff(
    node: CompiledNode,
    cands: int,
    hand: int,
    flags: int,
    trick: tuple[int, ...],
    place: int,
    ctx: Context,
) -> tuple[int, int]:
    if not trick or not flags & TRUMP_WINNING or not node.param:
        return SKIP, 0
    x = cands & node.t.beats[trick[place]]
    return (NARROW, x) if x else (UNABLE, 0)


def _underruff(
    node: CompiledNode,
    cands: int,
    hand: int,
    flags: int,
    trick: tuple[int, ...],
    place: int,
    ctx: Context,
) -> tuple[int, int]:
    if not node.param:
        return FREE, 0
    x = cands & node.t.trumps
    return (NARROW, x) if x else (UNABLE, 0)


def _lead_ban(
    node: CompiledNode,
    cands: int,
    hand: int,
    flags: int,
    trick: tuple[int, ...],
    place: int,
    ctx: Context,
) -> tuple[int, int]:
    banned, broken_by, binding, unless_only = node.param
    if trick or not binding or ctx.gone & broken_by:
        return SKIP, 0
    x = cands & ~banned
    return (NARROW, x) if x & ~unless_only else (UNABLE, 0)


def _forced_lead(
    node: CompiledNode,
    cands: int,
    hand: int,
    flags: int,
    trick: tuple[int, ...],
    place: int,
    ctx: Context,
) -> tuple[int, int]:
    if trick or ctx.gone:
        return SKIP, 0
    x = cands & node.param
    return (NARROW, x) if x else (UNABLE, 0)


def _first_trick_ban(
    node: CompiledNode,
    cands: int,
    hand: int,
    flags: int,
    trick: tuple[int, ...],
    place: int,
    ctx: Context,
) -> tuple[int, int]:
    banned, binding = node.param
    if not binding or ctx.gone:
        return SKIP, 0
    x = cands & ~banned
    return (NARROW, x) if x else (UNABLE, 0)


def _free(
    node: CompiledNode,
    cands: int,
    hand: int,
    flags: int,
    trick: tuple[int, ...],
    place: int,
    ctx: Context,
) -> tuple[int, int]:
    return FREE, 0


def _cinch(
    node: CompiledNode,
    cands: int,
    hand: int,
    flags: int,
    trick: tuple[int, ...],
    place: int,
    ctx: Context,
) -> tuple[int, int]:
    rule = node.rule
    assert isinstance(rule, Cinch)
    sure_tricks, effects, order = node.param
    effect = cinch_effect(flags, trick, effects)
    if effect is None:
        return SKIP, 0
    t = node.t
    played = ctx.gone
    for card in trick:
        played |= 1 << card
    if ctx.won + (hand & t.trumps).bit_count() < rule.tricks:
        return SKIP, 0  # not even every trump held winning would make the sure tricks
    if sure_tricks:
        hands = ctx.hands
        if hands is None:
            return UNKNOWN, 0
        against = 0
        player, active = ctx.player, ctx.active
        for seat, other in enumerate(hands):  # the other active hands, in any order
            if seat == player or (active is not None and not active >> seat & 1):
                continue
            if other is None:
                return UNKNOWN, 0
            against |= other
        against &= t.trumps
    else:
        against = t.trumps & ~hand & ~played
    if ctx.won + sure_count(t, hand, against) < rule.tricks:
        return SKIP, 0
    if effect == "win_if_last":
        x = cands & t.takes[trick[place]]
    else:
        x = cands & top_trumps(order, hand, played, rule.touching_equivalent)
    return (NARROW, x) if x else (UNABLE, 0)


def cinch_effect(flags: int, trick: tuple[int, ...], effects: frozenset[str]) -> str | None:
    """The cinch's effect in this situation, if the ruleset has it."""
    if not trick:
        return "lead_top_trump" if "lead_top_trump" in effects else None
    if flags & LAST and "win_if_last" in effects:
        return "win_if_last"
    return "play_top_trump" if "play_top_trump" in effects else None


def sure_count(t: TrickTable, hand: int, against: int) -> int:
    """The trumps of ``hand`` stronger than every trump of ``against``."""
    strength = t.strength
    best = max((strength[c] for c in _cards(against)), default=-1)
    return sum(1 for c in _cards(hand & t.trumps) if strength[c] > best)


def top_trumps(order: tuple[int, ...], hand: int, played: int, touching: bool) -> int:
    """The hand's top trump, and with ``touching`` the lower trumps touching it (every trump
    between them held or already played)."""
    top = 0
    for card in order:
        if hand >> card & 1:
            top |= 1 << card
            if not touching:
                break
        elif top and not played >> card & 1:
            break
    return top


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


_APPLY: dict[str, Apply] = {
    "follow_suit": _follow_suit,
    "beat": _beat,
    "ruff": _ruff,
    "exempt": _exempt,
    "overruff": _overruff,
    "underruff": _underruff,
    "lead_ban": _lead_ban,
    "forced_lead": _forced_lead,
    "first_trick_ban": _first_trick_ban,
    "free": _free,
    "cinch": _cinch,
}


# --- sentences ------------------------------------------------------------------------------


def sentence(
    node: CompiledNode,
    sit: Situation,
    ctx: Context,
    card: int,
    allowed: str,
    path: list[tuple[CompiledNode, int]],
    t: TrickTable,
) -> str:
    """Why ``card`` breaks the stage ``node``, naming the cards that obliged the player (the
    hand is added by the caller): ``P5 played 4S but must head P1's QS with KS``."""
    names = ctx.ring.names
    codes = t.pack.codes
    player = names[ctx.player]
    played = codes[card]
    kind = node.kind
    if kind == "lead_ban":
        locked = " (the contract is locked)" if "locked" in node.guard else ""
        if node.param[1]:
            locked = " before they are broken"
        return (
            f"{player} led {played} but may not lead {_banned(node, t)}{locked} while holding "
            f"other cards: lead {allowed}"
        )
    if kind == "forced_lead":
        return f"{player} led {played} but the first lead of the hand must be {allowed}"
    if kind == "first_trick_ban":
        assert isinstance(node.rule, FirstTrickBan)
        banned = " or ".join(_SUIT_NAMES.get(p, p) for p in node.rule.cards)
        return (
            f"{player} played {played} but may not play {banned} on the first trick while "
            f"holding other cards: play {allowed}"
        )
    if kind == "cinch":
        effect = cinch_effect(sit.flags, sit.trick, node.param[1])
        assert isinstance(node.rule, Cinch)
        tricks = node.rule.tricks
        if effect == "win_if_last":
            return (
                f"{player} played {played} but, holding a cinch ({tricks} sure tricks) and last "
                f"to play, must win the trick with {allowed}"
            )
        verb = "lead" if sit.led < 0 else "play"
        return (
            f"{player} {'led' if sit.led < 0 else 'played'} {played} but, holding a cinch "
            f"({tricks} sure tricks), must {verb} the top trump: {allowed}"
        )
    led = codes[sit.led]
    led_by = names[sit.seats[0]]
    winning = codes[sit.winning]
    winner = names[sit.seats[sit.place]]
    if kind == "follow_suit":
        return f"{player} played {played} but must follow {led_by}'s {led} with {allowed}"
    if kind == "beat":
        on_winning = node.param[0]
        target = sit.winning if on_winning else highest_led(t, sit.trick)
        owner = names[sit.seats[sit.trick.index(target)]]
        if sit.flags & TRUMP_LED:
            who = "partner" if sit.flags & PARTNER_WINNING else "opponent"
            return (
                f"{player} played {played} but must beat {owner}'s {codes[target]} with "
                f"{allowed}: trump was led and the {who} is winning"
            )
        return f"{player} played {played} but must head {owner}'s {codes[target]} with {allowed}"
    if kind == "overruff":
        return f"{player} played {played} but must over-ruff {winner}'s {winning} with {allowed}"
    if kind == "underruff":
        return (
            f"{player} played {played} but, unable to over-ruff {winner}'s {winning}, must still "
            f"play a trump: {allowed}"
        )
    if kind == "ruff":
        suit = t.pack.suits[t.pack.suit_of[sit.led]]
        void = _SUIT_NAMES.get(suit, suit)
        reason = f"{player} played {played} but, void in {void}, must ruff with {allowed}"
        refused = [n for n, outcome in path if n.kind == "exempt" and outcome == UNABLE]
        if refused:
            reason += f"; partner {winner} is winning with {winning}, " + _no_exemption(
                refused[0], sit, ctx
            )
        return reason
    return f"{player} played {played}, which {node.rule.id} does not allow: {allowed}"


def _no_exemption(node: CompiledNode, sit: Situation, ctx: Context) -> str:
    """Why the partner-winning exemption did not free the player."""
    rule = node.rule
    assert isinstance(rule, Exempt)
    if rule.option == "never":
        return f"but this ruleset has no partner-winning exemption ({rule.id}: never)"
    tops = ", ".join(rule.certain_tops) or "none"
    names = ctx.ring.names
    return (
        f"but the exemption ({rule.id}) frees only the last to play, or a player after a "
        f"certain top was led ({tops}); {names[ctx.player]} is hand {len(sit.trick) + 1} and "
        f"{names[sit.seats[0]]}'s lead {node.t.pack.codes[sit.led]} is not a certain top"
    )


def _banned(node: CompiledNode, t: TrickTable) -> str:
    rule = node.rule
    assert isinstance(rule, LeadBan)
    names = ["trump" if s == "trump" else _SUIT_NAMES.get(s, s) for s in rule.suits]
    return " or ".join([*names, *rule.cards])
