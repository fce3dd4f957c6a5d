"""The yardstick for ``check``'s speed: a bare judge of generated saudi games in plain Python.

It only splits lines on spaces and judges what a plain reader must: every card's legality
(follow suit; in Hokum ruff, over-ruff and under-ruff unless the partner is winning; a trump
lead beaten when an opponent is winning), each trick's winner and card points against the
trick line's claim, and the undoubled card scores against ``= cardscore``. It keeps no
positions, makes no structural check, writes no report and knows nothing but saudi; the
contract is read from the ``= contract`` claim. It is written for speed, as a competent
author of a one-off audit script would write it, so that ``check`` can be compared with the
least a judge must do (``bench/run.py`` measures both in one run).

``python bench/bare_judge.py FILE`` prints hands, mismatches and hands/s. Not part of the
kit: its rules are a copy made for timing, checked only by agreeing with ``check`` on
generated games (no mismatch).
"""

from __future__ import annotations

import sys
import time

SUITS = "SHDC"
RANKS = "789TJQKA"
CARD = {r + s: si * 8 + ri for si, s in enumerate(SUITS) for ri, r in enumerate(RANKS)}
SEAT = {"N": 0, "W": 1, "S": 2, "E": 3}  # counter-clockwise, as the kit numbers seats
# Strength within a suit (higher wins), by rank index 7 8 9 T J Q K A.
PLAIN_ORDER = (0, 1, 2, 6, 3, 4, 5, 7)
TRUMP_ORDER = (0, 1, 6, 4, 7, 2, 3, 5)
PLAIN_POINTS = (0, 0, 0, 10, 2, 3, 4, 11)
TRUMP_POINTS = (0, 0, 14, 10, 20, 3, 4, 11)
SUIT_MASK = tuple(0xFF << (8 * s) for s in range(4))


def tables(trump: int) -> tuple[list[int], list[int]]:
    """Strength (trump above every plain card) and points of each card index."""
    strength, points = [0] * 32, [0] * 32
    for i in range(32):
        s, r = divmod(i, 8)
        if s == trump:
            strength[i], points[i] = 100 + TRUMP_ORDER[r], TRUMP_POINTS[r]
        else:
            strength[i], points[i] = PLAIN_ORDER[r], PLAIN_POINTS[r]
    return strength, points


TABLES = {t: tables(t) for t in (-1, 0, 1, 2, 3)}


def winner_place(trick: list[int], strength: list[int]) -> int:
    led = trick[0] >> 3
    best, place = strength[trick[0]], 0
    for i in range(1, len(trick)):
        c = trick[i]
        s = strength[c]
        if s > best and (s >= 100 or c >> 3 == led):
            best, place = s, i
    return place


def beating(cards: int, card: int, strength: list[int]) -> int:
    """The cards of ``cards`` stronger than ``card``."""
    return sum(1 << c for c in range(32) if cards >> c & 1 and strength[c] > strength[card])


def legal(hand: int, trick: list[int], trump: int, strength: list[int]) -> int:
    if not trick:
        return hand
    led = trick[0] >> 3
    follow = hand & SUIT_MASK[led]
    if trump < 0:
        return follow or hand
    tmask = SUIT_MASK[trump]
    place = winner_place(trick, strength)
    win = trick[place]
    partner = place == len(trick) - 2
    if led == trump:
        if not follow:
            return hand
        if not partner:
            higher = sum(
                1 << c for c in range(32) if follow >> c & 1 and strength[c] > strength[win]
            )
            return higher or follow
        return follow
    if follow:
        return follow
    trumps = hand & tmask
    if not trumps or partner:
        return hand
    if strength[win] >= 100:
        return beating(trumps, win, strength) or trumps
    return trumps


def sun_score(raw: int) -> int:
    q, r = divmod(raw, 5)
    return q + (1 if q % 2 == 1 and r > 0 else 0)


def hokum_score(raw: int, other: int) -> int:
    a, b = raw % 10, other % 10
    give_back = a >= 6 and b >= 6 and (a > b or (a == b and raw > other))
    return raw // 10 + (a >= 6) - give_back


def judge(path: str) -> tuple[int, int]:
    """Hands read and mismatches found (illegal cards, wrong winners, points or scores)."""
    hands_read = mismatches = 0
    held = [0, 0, 0, 0]
    trick: list[int] = []
    trump, leader, first = -1, 0, 0
    strength, points = TABLES[-1]
    taken = [0, 0]
    last = 0
    with open(path, encoding="utf-8") as source:
        for line in source:
            w = line.split()
            if not w:
                continue
            head = w[0]
            if head == "trick":
                seat_at = leader
                for k in range(2, 10, 2):
                    seat = SEAT[w[k]]
                    card = CARD[w[k + 1][:2]]
                    if seat != seat_at or not legal(held[seat], trick, trump, strength) >> card & 1:
                        mismatches += 1
                    held[seat] &= ~(1 << card)
                    trick.append(card)
                    seat_at = (seat_at + 1) % 4
                place = winner_place(trick, strength)
                won = (leader + place) % 4
                pts = points[trick[0]] + points[trick[1]] + points[trick[2]] + points[trick[3]]
                if SEAT[w[11]] != won or int(w[12]) != pts:
                    mismatches += 1
                taken[won & 1] += pts
                last = won & 1
                leader = won
                trick = []
            elif head == "play":
                seat, card = SEAT[w[1]], CARD[w[2]]
                if seat != (leader + len(trick)) % 4 or not (
                    legal(held[seat], trick, trump, strength) >> card & 1
                ):
                    mismatches += 1
                held[seat] &= ~(1 << card)
                trick.append(card)
                if len(trick) == 4:
                    place = winner_place(trick, strength)
                    leader = (leader + place) % 4
                    taken[leader & 1] += sum(points[c] for c in trick)
                    last = leader & 1
                    trick = []
            elif head in ("deal", "rest"):
                seat = SEAT[w[1]]
                for code in w[2:]:
                    held[seat] |= 1 << CARD[code]
            elif head == "faceup":
                faceup = CARD[w[1]]
            elif head == "dealer":
                first = (SEAT[w[1]] + 1) % 4
            elif head == "hand":
                hands_read += 1
                held, trick, taken, leader = [0, 0, 0, 0], [], [0, 0], 0
            elif head == "=":
                kind = w[1]
                if kind == "contract" and w[2] != "none":
                    for seat in range(4):  # the face-up card completes its receiver's eight
                        if held[seat].bit_count() == 7:
                            held[seat] |= 1 << faceup
                    trump = SUITS.index(w[4]) if w[3] == "hokum" else -1
                    strength, points = TABLES[trump]
                    leader = first
                elif kind == "cardscore":
                    raw = [taken[0], taken[1]]
                    raw[last] += 10
                    if trump < 0:
                        mine = sun_score(raw[0]), sun_score(raw[1])
                    else:
                        mine = hokum_score(raw[0], raw[1]), hokum_score(raw[1], raw[0])
                    if mine != (int(w[3]), int(w[5])) and taken[0] and taken[1]:
                        mismatches += 1  # a sweep (Kaboot) is scored otherwise: not judged
    return hands_read, mismatches


def main() -> None:
    start = time.perf_counter()
    hands, mismatches = judge(sys.argv[1])
    seconds = time.perf_counter() - start
    print(f"{hands:,} hands, {mismatches} mismatches, {hands / seconds:,.0f} hands/s")


if __name__ == "__main__":
    main()
