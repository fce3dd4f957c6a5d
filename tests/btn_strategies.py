"""Hypothesis strategies for BTN transcripts: structurally valid text in canonical form, the
same text in the other spellings the grammar accepts, and mutated text for fuzzing."""

from __future__ import annotations

import re

from hypothesis import strategies as st

SEATS = ("N", "W", "S", "E")
CARDS = tuple(r + s for s in "SHDC" for r in "789TJQKA")
WORDS = ("pass", "hokum", "sun", "ashkal", "double", "triple", "four", "gahwa", "confirm_sun")
SUITS = ("S", "H", "D", "C")
CLOSING: tuple[str, ...] = ("abnat", "aklat", "projects", "cardscore", "projectscore")
CLOSING += ("result", "kaboot", "score", "total", "winner")

seats = st.sampled_from(SEATS)
verdicts = st.sampled_from(("right", "wrong"))
teams = st.sampled_from(("NS", "EW"))
points = st.integers(min_value=0, max_value=400)
comment_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\x00"),
    max_size=12,
).map(lambda t: (" " + t).rstrip(" \t"))


def _team_values(draw: st.DrawFn) -> str:
    which = draw(st.sampled_from(("both", "NS", "EW")))
    if which == "both":
        return f"NS {draw(points)} EW {draw(points)}"
    return f"{which} {draw(points)}"


@st.composite
def hand_lines(draw: st.DrawFn, number: int) -> list[str]:
    """The lines of one structurally valid hand (random cards: legality is not the point)."""
    deck = draw(st.permutations(CARDS))
    lines = [f"hand {number}"]
    if draw(st.booleans()):
        lines.append(f"start {_team_values(draw)}")
    lines.append(f"dealer {draw(seats)}")
    style = draw(st.sampled_from(("deal", "hold", "none")))
    if style == "deal":
        for k, seat in enumerate(draw(st.permutations(SEATS))):
            lines.append(f"deal {seat} {' '.join(deck[k * 5 : k * 5 + 5])}")
        lines.append(f"faceup {deck[20]}")
    elif style == "hold":
        for k, seat in enumerate(SEATS):
            lines.append(f"hold {seat} {' '.join(deck[k * 8 : k * 8 + 8])}")
    if draw(st.integers(min_value=0, max_value=3)) == 0:
        lines.append(f"kawesh {draw(seats)}")
    for _ in range(draw(st.integers(min_value=0, max_value=6))):
        phase = draw(st.sampled_from(("bid", "raise")))
        args = draw(st.lists(st.sampled_from((*SUITS, "open", "closed")), max_size=2))
        lines.append(" ".join([phase, draw(seats), draw(st.sampled_from(WORDS)), *args]))
    if draw(st.booleans()):
        if draw(st.booleans()):
            lines.append("= contract none")
        else:
            parts = ["= contract", draw(seats), draw(st.sampled_from(("hokum", "sun")))]
            if draw(st.booleans()):
                parts.append(draw(st.sampled_from(SUITS)))
            if draw(st.booleans()):
                parts.append(f"x{draw(st.integers(min_value=1, max_value=4))}")
            if draw(st.booleans()):
                parts.append(draw(st.sampled_from(("open", "closed"))))
            lines.append(" ".join(parts))
    if style == "deal" and draw(st.booleans()):
        buyer = draw(seats)
        pos = 21
        for seat in SEATS:
            n = 2 if seat == buyer else 3
            lines.append(f"rest {seat} {' '.join(deck[pos : pos + n])}")
            pos += n
    for _ in range(draw(st.integers(min_value=0, max_value=2))):
        cards = draw(st.lists(st.sampled_from(CARDS), max_size=4))
        lines.append(" ".join(["declare", draw(seats), "sira", *cards]))
    play_deck = draw(st.permutations(CARDS))
    tricks = draw(st.integers(min_value=0, max_value=8))
    # A Sawa in a quarter of the hands, at a random moment before the 32nd card, with or
    # without its verdict claim.
    sawa = [draw(st.integers(min_value=0, max_value=3)) == 0]

    def maybe_sawa(last_card: bool) -> None:
        if sawa[0] and not last_card and draw(st.integers(min_value=0, max_value=3)) == 0:
            lines.append(f"sawa {draw(seats)}")
            if draw(st.booleans()):
                lines.append(f"= sawa {draw(verdicts)}")
            sawa[0] = False

    maybe_sawa(False)
    for t in range(1, tricks + 1):
        four = [(draw(seats), play_deck[(t - 1) * 4 + k]) for k in range(4)]
        winner = draw(st.one_of(st.none(), seats))
        pts = draw(st.one_of(st.none(), points))
        if draw(st.integers(min_value=0, max_value=3)):
            line = f"trick {t}: " + ", ".join(f"{s} {c}" for s, c in four)
            if winner is not None:
                line += f" = {winner}" + (f" {pts}" if pts is not None else "")
            lines.append(line)
            maybe_sawa(t == 8)
        else:
            for k, (seat, card) in enumerate(four, 1):
                if draw(st.booleans()):
                    lines.append(f"= legal {seat} {card}")
                if draw(st.booleans()):
                    lines.append(f"baloot {seat}")
                lines.append(f"play {seat} {card}")
                if draw(st.booleans()):
                    target = draw(st.sampled_from((f"t{t}.p{k}", "-")))  # "-": no card
                    lines.append(f"foul {draw(seats)} {target}")
                    if draw(st.booleans()):
                        lines.append(f"= foul {draw(verdicts)}")
                maybe_sawa(t == 8 and k == 4)
            if winner is not None:
                lines.append(f"= trick {t} {winner}" + (f" {pts}" if pts is not None else ""))
    closing = draw(
        st.lists(
            st.sampled_from(
                (
                    "abnat",
                    "aklat",
                    "projects",
                    "cardscore",
                    "projectscore",
                    "result",
                    "kaboot",
                    "score",
                    "total",
                    "winner",
                )
            ),
            unique=True,
        )
    )
    for name in closing:
        if name == "result":
            lines.append(f"= result {draw(st.sampled_from(('made', 'failed', 'tie')))}")
        elif name in ("kaboot", "winner"):
            lines.append(f"= {name} {draw(teams)}")
        else:
            lines.append(f"= {name} {_team_values(draw)}")
    # comments: whole-line ones anywhere after the hand line, end-of-line ones on statements
    out = [lines[0]]
    for line in lines[1:]:
        if draw(st.integers(min_value=0, max_value=9)) == 0:
            out.append("#" + draw(comment_text))
        if draw(st.integers(min_value=0, max_value=9)) == 0:
            line += "  #" + draw(comment_text)
        out.append(line)
    return out


@st.composite
def transcripts(draw: st.DrawFn, max_hands: int = 3) -> str:
    """A whole canonical transcript as text."""
    lines = ["%btn 1"]
    if draw(st.booleans()):
        lines += [
            "---",
            "id: notation.example",
            f"description: {draw(st.sampled_from(('a', 'b')))}",
        ]
        lines.append("---")
    lines.append('[Ruleset "saudi@1"]')
    if draw(st.booleans()):
        lines.append('[Engine "gen \\"quoted\\" 1.0"]')
    if draw(st.booleans()):
        lines.append("#" + draw(comment_text))
    numbers = draw(
        st.lists(st.integers(min_value=1, max_value=99), unique=True, max_size=max_hands)
    )
    text = "\n".join(lines) + "\n"
    for number in numbers:
        text += "\n" + "\n".join(draw(hand_lines(number))) + "\n"
    return text


_CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])([789TJQKA])([SHDC])(?![A-Za-z0-9])")
_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


@st.composite
def respelled(draw: st.DrawFn, text: str) -> str:
    """``text`` with the accepted alternates: other spacing, indentation, CRLF, 10 and ♠♥♦♣."""
    out = []
    lines = text.split("\n")
    in_meta = False
    for i, line in enumerate(lines):
        if line == "---":
            in_meta = not in_meta
        plain = i > 0 and not in_meta and line and line[0] not in "#[-" and "#" not in line
        if plain and draw(st.booleans()):
            line = _CARD_TOKEN.sub(
                lambda m: (
                    ("10" if m.group(1) == "T" else m.group(1))
                    + (_SYMBOL[m.group(2)] if draw(st.booleans()) else m.group(2))
                ),
                line,
            )
        if plain and draw(st.booleans()):
            line = "".join(
                draw(st.sampled_from((" ", "  ", "\t", " \t"))) if ch == " " else ch for ch in line
            )
            if draw(st.booleans()):
                line = draw(st.sampled_from(("  ", "\t"))) + line
            if draw(st.booleans()):
                line += " \t"
        out.append(line)
    joined = "\n".join(out)
    if draw(st.booleans()):
        joined = joined.replace("\n", "\r\n")
    if draw(st.booleans()):
        joined = joined.rstrip("\r\n")  # no final newline
    return joined


_NOISE = st.sampled_from(
    [*list('NWSE=:,#[]"-%. \t\n\r01789TJQKASHDCx♠é'), "trick ", "hand 1\n", "---\n", "10", "\\"]
)


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """``text`` after a few random edits: deletions, insertions, swapped or repeated lines."""
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        kind = draw(st.sampled_from(("delete", "insert", "swap", "repeat", "cut")))
        if not text:
            text = draw(_NOISE)
            continue
        at = draw(st.integers(min_value=0, max_value=len(text) - 1))
        if kind == "delete":
            text = text[:at] + text[at + draw(st.integers(min_value=1, max_value=4)) :]
        elif kind == "insert":
            text = text[:at] + draw(_NOISE) + text[at:]
        elif kind == "cut":
            text = text[:at]
        else:
            lines = text.split("\n")
            i = draw(st.integers(min_value=0, max_value=len(lines) - 1))
            j = draw(st.integers(min_value=0, max_value=len(lines) - 1))
            if kind == "swap":
                lines[i], lines[j] = lines[j], lines[i]
            else:
                lines.insert(j, lines[i])
            text = "\n".join(lines)
    return text
