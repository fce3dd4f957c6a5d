"""Legal cards over any pack: a ruleset's obligation tree, compiled for one contract.

:func:`play_table` compiles a :class:`~..rules.play.PlaySection` for one contract (its name,
trump suit, ``locked`` and ``raised`` flags: :class:`ContractKey`) into a :class:`PlayTable`,
once per section, pack and contract key: the per-card tables of :mod:`.tricks` (strength, the
cards that beat each card, the trump mask), the stage parameters turned into masks, and the
tree with the nodes this contract cannot reach left out. :meth:`PlayTable.decide` walks the
tree in one call and returns the legal cards ORed with the code of the rule that chose them,
above bit :data:`~.deck.MAX_CARDS` (as ``engine/play.py`` keeps its codes above the 32 card
bits): :meth:`PlayTable.rule_of` names it, :meth:`PlayTable.check` raises
:class:`IllegalAction` with that rule's ID and a sentence naming the stage's cards:
``P5 played 4S but must head P1's QS with KS (holds KS 4S 9D)``.

The tree's semantics is :mod:`..rules.play`'s ("prefer X if able"; the last stage that
narrowed is cited; an exemption frees). A stage that needs what the :class:`Context` does not
hold (the cinch by ``sure_tricks`` needs every active hand) leaves the candidates as they are
and sets the *unknown* flag of the decision (:meth:`PlayTable.unknown`): a checker lists the
card as unchecked rather than judging it. The stage mechanisms are in :mod:`.stages`.
"""

from __future__ import annotations

from dataclasses import dataclass

from baloot_conformance.family.engine import stages
from baloot_conformance.family.engine.deck import MAX_CARDS, Pack
from baloot_conformance.family.engine.stages import (
    FREE,
    NARROW,
    SKIP,
    UNABLE,
    UNKNOWN,
    CompiledNode,
    Context,
    Situation,
)
from baloot_conformance.family.engine.tricks import TrickTable, memo, trick_table
from baloot_conformance.family.rules.play import CONTRACT_CONDITIONS, Node, PlaySection

__all__ = ["Context", "ContractKey", "IllegalAction", "PlayTable", "play_table"]

_CARD_BITS = (1 << MAX_CARDS) - 1
_UNKNOWN_BIT = 1 << MAX_CARDS
_CODE_SHIFT = MAX_CARDS + 1


class IllegalAction(ValueError):
    """An action the trick ruleset does not allow (a card the obligations refuse, a phase rule
    broken): ``rule_id`` names the rule, ``reason`` says why in a sentence naming the seats and
    cards. The family's one error class, the shape of Baloot's ``engine.model.IllegalAction``."""

    def __init__(self, rule_id: str, message: str) -> None:
        super().__init__(f"{rule_id}: {message}")
        self.rule_id = rule_id
        self.reason = message


@dataclass(frozen=True, slots=True)
class ContractKey:
    """What the obligations depend on in a contract: its name, trump suit and flags."""

    name: str
    trump: int | None = None
    """The trump suit's index in the pack's suits; ``None``: no trump."""
    locked: bool = False
    raised: bool = False


def play_table(section: PlaySection, pack: Pack, contract: ContractKey) -> PlayTable:
    """The :class:`PlayTable` of a contract, built once per section, pack and contract key."""
    table: PlayTable = memo(
        (section, pack), ("play", contract), lambda: PlayTable(section, pack, contract)
    )
    return table


class PlayTable:
    """The obligations of one contract under one ruleset: legal cards, checks, the winner."""

    __slots__ = ("_after", "_tree", "contract", "needs_hands", "nodes", "pack", "section", "tricks")

    def __init__(self, section: PlaySection, pack: Pack, contract: ContractKey) -> None:
        self.section = section
        self.pack = pack
        self.contract = contract
        self.tricks: TrickTable = trick_table(pack, contract.trump)
        self.nodes: list[CompiledNode] = []
        """Every node kept for this contract, by index (a decision's code is index + 1)."""
        self._tree = self._compile(section.obligations.tree)
        self._after = self._compile(section.obligations.after)
        self.needs_hands = any(node.kind == "cinch" for node in self.nodes)
        """Whether a stage reads the other hands or the tricks won (the cinch): a hand that
        needs none passes a lighter context."""

    def _compile(self, nodes: tuple[Node, ...]) -> tuple[CompiledNode, ...]:
        kept: list[CompiledNode] = []
        for node in nodes:
            if node.contracts and self.contract.name not in node.contracts:
                continue
            flags = {"locked": self.contract.locked, "raised": self.contract.raised}
            if not all(flags[c] for c in node.when if c in CONTRACT_CONDITIONS):
                continue
            rule = self.section.stages[node.rule]
            compiled = stages.compile_node(
                len(self.nodes),
                rule,
                node.when,
                self.tricks,
                self.contract.raised,
            )
            self.nodes.append(compiled)
            compiled.then = self._compile(node.then)
            compiled.otherwise = self._compile(node.otherwise)
            kept.append(compiled)
        return tuple(kept)

    # --- deciding ----------------------------------------------------------------------------

    def situation(self, trick: tuple[int, ...], context: Context) -> Situation:
        """What the guards and stages read of a trick: who leads, who is winning, and how."""
        return stages.situation(self.tricks, trick, context.seats, context.ring, context.active)

    def decide(self, hand: int, trick: tuple[int, ...], context: Context) -> int:
        """The legal cards of ``hand`` ORed with the decision's code (see the module's
        docstring): ``decide(...) >> card & 1`` says whether a card may be played next."""
        # _decide without its path, inline: this runs for every card of every hand checked.
        flags, place = stages.read(self.tricks, trick, context.seats, context.ring, context.active)
        cands, cited, evaluated, unknown = _run(
            self._tree, hand, hand, flags, trick, place, context, None
        )
        if cited < 0:
            cited = evaluated
        for node in self._after:
            cands, by, _, dark = _run((node,), cands, hand, flags, trick, place, context, None)
            unknown |= dark
            if by >= 0:
                cited = by
        return cands | ((cited + 1) << _CODE_SHIFT) | (_UNKNOWN_BIT if unknown else 0)

    def _decide(
        self,
        hand: int,
        trick: tuple[int, ...],
        context: Context,
        path: list[tuple[CompiledNode, int]] | None,
    ) -> int:
        """:meth:`decide`, recording each node evaluated and its outcome in ``path`` (for a
        sentence) unless it is ``None``."""
        flags, place = stages.read(self.tricks, trick, context.seats, context.ring, context.active)
        cands, cited, evaluated, unknown = _run(
            self._tree, hand, hand, flags, trick, place, context, path
        )
        if cited < 0:
            cited = evaluated
        for node in self._after:  # each "prefer X if able" among the cards the tree left
            cands, by, _, dark = _run((node,), cands, hand, flags, trick, place, context, path)
            unknown |= dark
            if by >= 0:
                cited = by
        return cands | ((cited + 1) << _CODE_SHIFT) | (_UNKNOWN_BIT if unknown else 0)

    def legal(self, hand: int, trick: tuple[int, ...], context: Context) -> int:
        """The cards of ``hand`` that may be played next (never empty when ``hand`` is not)."""
        return self.decide(hand, trick, context) & _CARD_BITS

    def rule_of(self, decided: int) -> str | None:
        """The ID of the rule behind a decision: the stage a wrong card breaks, or the one that
        left every card free; ``None`` when no stage had a say (a free lead)."""
        index = (decided >> _CODE_SHIFT) - 1
        return self.nodes[index].rule.id if index >= 0 else None

    @staticmethod
    def unknown(decided: int) -> bool:
        """Whether a stage could not be judged (a hand it needs is not known)."""
        return bool(decided & _UNKNOWN_BIT)

    def winner(self, trick: tuple[int, ...]) -> int:
        """The place in ``trick`` of the card winning it (rule ``play.trick_winner``)."""
        return self.tricks.winner(trick)

    # --- checking ----------------------------------------------------------------------------

    def check(self, hand: int, trick: tuple[int, ...], context: Context, card: int) -> bool:
        """Raise :class:`IllegalAction` when ``card`` may not be played next, naming the rule
        of the stage that narrowed the choice, its cards and the hand.

        Returns whether the card was judged in full: ``False`` when a stage could not be
        judged (the cinch by ``sure_tricks`` without every active hand), so that a checker
        lists the card as unchecked; a card the rest of the tree refuses is refused all the
        same.
        """
        if hand >> card & 1:
            decided = self.decide(hand, trick, context)
            if decided >> card & 1:
                return not decided & _UNKNOWN_BIT
        pack = self.pack
        holds = f"(holds {pack.format(hand, self.contract.trump)})"
        if not hand >> card & 1:
            raise IllegalAction(
                self._first_rule("follow_suit"),
                f"{context.ring.names[context.player]} played {pack.codes[card]}, which it does "
                f"not hold {holds}",
            )
        path: list[tuple[CompiledNode, int]] = []
        decided = self._decide(hand, trick, context, path)
        node = self.nodes[(decided >> _CODE_SHIFT) - 1]
        allowed = pack.format(decided & _CARD_BITS, self.contract.trump, " or ")
        sit = self.situation(trick, context)
        reason = stages.sentence(node, sit, context, card, allowed, path, self.tricks)
        raise IllegalAction(node.rule.id, f"{reason} {holds}")

    def _first_rule(self, kind: str) -> str:
        for key, rule in self.section.stages.items():
            if rule.stage == kind:
                return f"play.{key}"
        return self.section.obligations.id


def _run(
    nodes: tuple[CompiledNode, ...],
    cands: int,
    hand: int,
    flags: int,
    trick: tuple[int, ...],
    place: int,
    context: Context,
    path: list[tuple[CompiledNode, int]] | None,
) -> tuple[int, int, int, bool]:
    """Walk a node list from ``cands``: the cards left, the index of the last node that
    narrowed them (or freed the player; -1: none did), of the last node evaluated (-1: none),
    and whether a stage could not be judged."""
    cited = -1
    evaluated = -1
    unknown = False
    while nodes:
        for node in nodes:
            if node.need & ~flags:
                continue
            outcome, preferred = node.apply(node, cands, hand, flags, trick, place, context)
            if path is not None:
                path.append((node, outcome))
            if outcome == SKIP:
                continue
            if outcome == UNKNOWN:
                unknown = True
                continue
            evaluated = node.index
            if outcome == NARROW:
                cands = preferred
                cited = node.index
                nodes = node.then
            elif outcome == FREE:
                return hand, node.index, node.index, unknown
            else:  # UNABLE
                assert outcome == UNABLE
                nodes = node.otherwise
            break
        else:
            break
    return cands, cited, evaluated, unknown
