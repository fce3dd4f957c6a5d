"""Legal cards and trick resolution: the ``play`` section of a ruleset, for one contract.

:class:`PlayRules` is built once per hand from the typed ruleset and the contract. Its
constructor turns the card orders and point tables into per-card tables (strength, points,
the mask of the same-suit cards that beat each card), so that :meth:`PlayRules.legal` is a
handful of integer operations on :mod:`~baloot_conformance.engine.model` bit masks: the search
and the random-game generator call it millions of times.

Every obligation is decided in one place, :meth:`PlayRules.decide`, which returns the legal
mask together with the code of the obligation that produced it; :meth:`PlayRules.legal` keeps
the mask and :meth:`PlayRules.check` turns the code into the rule ID and a sentence naming
the cards. The rule IDs implemented here:

- ``play.follow_suit``: follow the suit led if able (both contracts);
- ``play.sun.void``: Sun, void in the suit led: any card;
- ``play.hokum.locked_lead``: locked Hokum: no trump lead while holding another suit;
- ``play.hokum.trump_lead``: trump led: follow with trump, beating the winning trump as the
  options say (``opponent_winning``, ``partner_winning``);
- ``play.hokum.partner_winning``: the exemption from trumping when the partner is winning
  (``any_seat``, ``fourth_or_certain_top`` with ``certain_tops``, ``never``, and
  ``unraised_only``: any seat in an unraised Hokum; in a raised one the partner's winning
  card binds as an opponent's: ruff, over-ruff and under-ruff as the options say);
- ``play.hokum.ruff``: void in a plain suit led: trump if able (``required``), or any card
  (``optional``: then no over-ruff or under-ruff obligation either);
- ``play.hokum.overruff``: over an opponent's trump: a higher trump if held (``required``,
  ``not_required``);
- ``play.hokum.underruff``: bound to over-ruff but unable: a lower trump (``forced``) or any
  card (``free``);
- ``play.trick_winner``: the highest trump, else the highest card of the suit led.

When several obligations overlap, a violation cites the narrowest one that applied: holding a
higher trump over an opponent's ruff, a discard breaks ``play.hokum.overruff`` (not
``play.hokum.ruff``); holding a trump on a trump lead, a discard breaks ``play.follow_suit``.
"""

from __future__ import annotations

from baloot_conformance.cards import CARDS, Card, Rank, Suit
from baloot_conformance.engine.model import (
    SEAT_NAMES,
    SUIT_MASKS,
    CardSet,
    Contract,
    IllegalAction,
    Seat,
    per_ruleset,
)
from baloot_conformance.rules.ruleset import Ruleset

_CARD_BITS = (1 << 32) - 1
#: Strengths of trump cards start here, above every plain card (plain strengths are 0-7).
_TRUMP_BASE = 8

# The rule behind a legal mask, stored above the 32 card bits by ``decide``: an obligation
# (the first six), or a rule that left every card free (the rest); none for a free lead.
_SHIFT = 32
_FOLLOW = 1 << _SHIFT
_LOCKED = 2 << _SHIFT
_BEAT = 3 << _SHIFT
_RUFF = 4 << _SHIFT
_OVERRUFF = 5 << _SHIFT
_UNDERRUFF = 6 << _SHIFT
_RUFF_NOT_EXEMPT = 7 << _SHIFT  # _RUFF, the partner winning but not exempting
_RUFF_NO_OVERRUFF = 8 << _SHIFT  # _RUFF over an opponent's trump, over-ruffing not required
_SUN_VOID = 9 << _SHIFT
_TRUMP_VOID = 10 << _SHIFT
_RUFF_FREE = 11 << _SHIFT  # void in the suit led: no trump to ruff with, or ruffing optional
_EXEMPT = 12 << _SHIFT
_UNDERRUFF_FREE = 13 << _SHIFT
_LEAD_UNLOCKED = 14 << _SHIFT  # a locked Hokum's lead, the hand all trumps or without any

#: The rules each code of ``decide`` stands for (index: the code >> 32), for a trace.
DECIDED_BY: tuple[tuple[str, ...], ...] = (
    (),
    ("play.follow_suit",),
    ("play.hokum.locked_lead",),
    ("play.hokum.trump_lead",),
    ("play.hokum.ruff",),
    ("play.hokum.overruff", "play.hokum.ruff"),
    ("play.hokum.underruff", "play.hokum.overruff"),
    ("play.hokum.ruff", "play.hokum.partner_winning"),
    ("play.hokum.ruff", "play.hokum.overruff"),
    ("play.sun.void",),
    ("play.hokum.trump_lead",),
    ("play.hokum.ruff",),
    ("play.hokum.partner_winning",),
    ("play.hokum.underruff", "play.hokum.overruff"),
    ("play.hokum.locked_lead",),
)


def play_rules(ruleset: Ruleset, contract: Contract) -> PlayRules:
    """The :class:`PlayRules` of a contract, built once per ruleset and kind of contract."""
    key = ("play", contract.kind, contract.trump, contract.locked, contract.level > 1)
    return per_ruleset(ruleset, key, lambda: PlayRules(ruleset, contract))


class PlayRules:
    """Legal cards and trick resolution for one contract under one ruleset (built once per hand)."""

    __slots__ = (
        "_beats",
        "_certain_tops",
        "_display",
        "_exempt_any",
        "_exempt_fourth",
        "_hokum",
        "_locked",
        "_opponent_beat",
        "_overruff",
        "_partner_as_opponent",
        "_partner_beat",
        "_plain",
        "_ruff",
        "_ruleset",
        "_strength",
        "_suit_mask",
        "_trump_mask",
        "_underruff_forced",
        "card_points",
    )

    def __init__(self, ruleset: Ruleset, contract: Contract) -> None:
        trump = contract.trump_index
        if contract.kind == "hokum" and trump is None:
            raise ValueError("a Hokum contract needs a trump suit")
        self._ruleset = ruleset
        self._hokum = contract.kind == "hokum"
        cards_rules = ruleset.cards
        plain_rank = {r: 7 - i for i, r in enumerate(cards_rules.order_plain.order)}
        trump_rank = {r: 7 - i for i, r in enumerate(cards_rules.order_trump.order)}
        plain_points = cards_rules.points_plain.points
        trump_points = cards_rules.points_trump.points

        strength: list[int] = []
        points: list[int] = []
        for card in CARDS:
            if self._hokum and card.index >> 3 == trump:
                strength.append(_TRUMP_BASE + trump_rank[card.rank])
                points.append(trump_points[card.rank])
            else:
                strength.append(plain_rank[card.rank])
                points.append(plain_points[card.rank])
        self._strength: tuple[int, ...] = tuple(strength)
        self.card_points: tuple[int, ...] = tuple(points)
        """Each card's points under the contract, by card index (see :meth:`points`)."""
        self._suit_mask: tuple[CardSet, ...] = tuple(SUIT_MASKS[c.index >> 3] for c in CARDS)
        # For each card, the cards of its suit that beat it.
        self._beats: tuple[CardSet, ...] = tuple(
            sum(
                1 << other
                for other in range(32)
                if other >> 3 == c.index >> 3 and strength[other] > strength[c.index]
            )
            for c in CARDS
        )
        self._trump_mask: CardSet = SUIT_MASKS[trump] if self._hokum and trump is not None else 0
        self._plain: CardSet = _CARD_BITS & ~self._trump_mask
        self._locked = self._hokum and contract.locked
        # Cards listed in messages by suit, strongest first, as a player sorts a hand.
        self._display: tuple[int, ...] = tuple(
            sorted(range(32), key=lambda i: (i >> 3, -strength[i]))
        )

        play = ruleset.play
        self._opponent_beat = play.hokum_trump_lead.opponent_winning == "must_beat"
        self._partner_beat = play.hokum_trump_lead.partner_winning == "must_beat"
        exemption = play.hokum_partner_winning.option
        self._exempt_any = exemption == "any_seat" or (
            exemption == "unraised_only" and contract.level == 1
        )
        # unraised_only, raised: the partner's winning card binds as an opponent's does.
        self._partner_as_opponent = exemption == "unraised_only" and contract.level > 1
        self._exempt_fourth = play.hokum_partner_winning.option == "fourth_or_certain_top"
        tops = 0
        for top in play.hokum_partner_winning.certain_tops:
            if top == "plain_ace":
                tops |= sum(1 << c.index for c in CARDS if c.rank is Rank.ACE) & self._plain
            else:  # trump_jack
                tops |= sum(1 << c.index for c in CARDS if c.rank is Rank.JACK) & self._trump_mask
        # A led Jack of trump never reaches the exemption: a trump lead is followed with trump,
        # and a player void in trump may play anything. It is kept for completeness.
        self._certain_tops: CardSet = tops
        self._ruff = play.hokum_ruff.option == "required"
        self._overruff = play.hokum_overruff.option == "required"
        self._underruff_forced = play.hokum_underruff.option == "forced"

    # --- the rules ---------------------------------------------------------------------------

    def winner(self, trick: tuple[int, ...]) -> int:
        """The place (0-3) in ``trick`` of the card winning it so far (rule play.trick_winner).

        The highest trump if any was played, else the highest card of the suit led; a card of
        another plain suit never wins. ``trick`` must not be empty.
        """
        strength = self._strength
        led_suit = trick[0] >> 3
        best = strength[trick[0]]
        place = 0
        for i in range(1, len(trick)):
            card = trick[i]
            s = strength[card]
            if s > best and (s >= _TRUMP_BASE or card >> 3 == led_suit):
                best = s
                place = i
        return place

    def points(self, card_index: int) -> int:
        """Card points of a card under the contract (cards.points.plain / points.trump)."""
        return self.card_points[card_index]

    def decide(self, hand: CardSet, trick: tuple[int, ...]) -> int:
        """The legal cards of ``hand``, ORed with the code of the rule that chose them (above
        the 32 card bits, see :data:`DECIDED_BY`): ``decide(hand, trick) >> card.index & 1``
        tells in one call whether a card may be played next, which is what replay asks for
        every card."""
        n = len(trick)
        if n == 0:
            if self._locked:  # play.hokum.locked_lead
                plain = hand & self._plain
                if plain and plain != hand:
                    return plain | _LOCKED
                return hand | _LEAD_UNLOCKED
            return hand
        led = trick[0]
        follow = hand & self._suit_mask[led]
        if not self._hokum:
            # play.follow_suit, else play.sun.void: any card.
            return follow | _FOLLOW if follow else hand | _SUN_VOID
        trump_led = (1 << led) & self._trump_mask
        if trump_led:  # play.hokum.trump_lead: void in trump, any card
            if not follow:
                return hand | _TRUMP_VOID
        elif follow:  # play.follow_suit
            return follow | _FOLLOW
        trumps = hand & self._trump_mask
        if not trump_led and (not trumps or not self._ruff):  # play.hokum.ruff: optional
            return hand | _RUFF_FREE
        # Only now does it matter who is winning the trick.
        place = self.winner(trick)
        winning = trick[place]
        partner_winning = place == n - 2
        if trump_led:  # play.hokum.trump_lead: follow with trump, beating as the options say
            if self._partner_beat if partner_winning else self._opponent_beat:
                higher = follow & self._beats[winning]
                if higher:
                    return higher | _BEAT
            return follow | _FOLLOW
        if partner_winning and not self._partner_as_opponent:
            # play.hokum.partner_winning, else play.hokum.ruff (any trump)
            if self._exempt_any or (
                self._exempt_fourth and (n == 3 or (1 << led) & self._certain_tops)
            ):
                return hand | _EXEMPT
            return trumps | _RUFF_NOT_EXEMPT
        if self._strength[winning] >= _TRUMP_BASE:
            if not self._overruff:  # play.hokum.overruff: not required
                return trumps | _RUFF_NO_OVERRUFF
            higher = trumps & self._beats[winning]
            if higher:
                return higher | _OVERRUFF
            # play.hokum.underruff
            return trumps | _UNDERRUFF if self._underruff_forced else hand | _UNDERRUFF_FREE
        # play.hokum.ruff (over a partner's plain card: play.hokum.partner_winning, raised)
        return trumps | (_RUFF_NOT_EXEMPT if partner_winning else _RUFF)

    def legal(self, hand: CardSet, trick: tuple[int, ...], leader: Seat) -> CardSet:
        """The cards of ``hand`` that may be played next.

        ``trick`` holds the card indices already played in this trick, in order; ``leader`` is
        the seat that led it (``trick[i]`` was played by ``(leader + i) % 4``); the player is
        ``(leader + len(trick)) % 4``. Never empty when ``hand`` is not.
        """
        return self.decide(hand, trick) & _CARD_BITS

    def check(self, hand: CardSet, trick: tuple[int, ...], leader: Seat, card: Card) -> None:
        """Raise :class:`IllegalAction` when ``card`` may not be played next.

        The rule ID is the rule whose obligation was broken; the reason names the player, the
        cards that obliged them and the hand, e.g. ``W played 8S but must over-ruff E's 9S
        with JS (holds JS 8S 7H)``.
        """
        player = SEAT_NAMES[(leader + len(trick)) % 4]
        bit = 1 << card.index
        if not hand & bit:
            # No rule of its own; reported as a revoke, as the hand does.
            raise IllegalAction(
                self._ruleset.play.follow_suit.id,
                f"{player} played {card}, which it does not hold (holds {self._fmt(hand)})",
            )
        decided = self.decide(hand, trick)
        if decided & bit:
            return
        allowed = self._fmt(decided & _CARD_BITS, " or ")
        holds = f"(holds {self._fmt(hand)})"
        code = decided & ~_CARD_BITS
        play = self._ruleset.play
        if code == _LOCKED:
            raise IllegalAction(
                play.hokum_locked_lead.id,
                f"{player} led {card}, a trump, but the Hokum is locked and {player} holds "
                f"other suits: lead {allowed} {holds}",
            )
        led = trick[0]
        led_by = SEAT_NAMES[leader]
        place = self.winner(trick)
        winning = CARDS[trick[place]]
        winner_seat = SEAT_NAMES[(leader + place) % 4]
        if code == _FOLLOW:
            raise IllegalAction(
                play.follow_suit.id,
                f"{player} played {card} but must follow {led_by}'s {CARDS[led]} "
                f"with {allowed} {holds}",
            )
        if code == _BEAT:
            who = "partner" if place == len(trick) - 2 else "opponent"
            raise IllegalAction(
                play.hokum_trump_lead.id,
                f"{player} played {card} but must beat {winner_seat}'s {winning} with {allowed}: "
                f"trump was led and the {who} is winning {holds}",
            )
        if code == _OVERRUFF:
            raise IllegalAction(
                play.hokum_overruff.id,
                f"{player} played {card} but must over-ruff {winner_seat}'s {winning} "
                f"with {allowed} {holds}",
            )
        if code == _UNDERRUFF:
            raise IllegalAction(
                play.hokum_underruff.id,
                f"{player} played {card} but, unable to over-ruff {winner_seat}'s {winning}, "
                f"must still play a trump: {allowed} {holds}",
            )
        # _RUFF, _RUFF_NOT_EXEMPT, _RUFF_NO_OVERRUFF
        void = _suit_name(CARDS[led].suit)
        reason = f"{player} played {card} but, void in {void}, must ruff with {allowed}"
        if place == len(trick) - 2:
            reason += f"; partner {winner_seat} is winning with {winning}, " + self._no_exemption(
                player, led_by, CARDS[led], len(trick)
            )
        raise IllegalAction(play.hokum_ruff.id, f"{reason} {holds}")

    # --- messages ----------------------------------------------------------------------------

    def _no_exemption(self, player: str, led_by: str, led: Card, n: int) -> str:
        """Why the partner-winning exemption did not free the player."""
        rule = self._ruleset.play.hokum_partner_winning
        if rule.option == "never":
            return f"but this ruleset has no partner-winning exemption ({rule.id}: never)"
        if rule.option == "unraised_only":
            return f"but the exemption ({rule.id}) holds only in an unraised Hokum"
        tops = ", ".join(rule.certain_tops) or "none"
        return (
            f"but the exemption ({rule.id}) frees only the 4th hand, or the 3rd hand after the "
            f"partner led a certain top ({tops}); {player} is hand {n + 1} and {led_by}'s "
            f"lead {led} is not a certain top"
        )

    def _fmt(self, mask: CardSet, sep: str = " ") -> str:
        """The cards of ``mask`` by suit, strongest first: ``JS 8S 7H``."""
        return sep.join(CARDS[i].code for i in self._display if mask >> i & 1)


def _suit_name(suit: Suit) -> str:
    return suit.name.lower()
