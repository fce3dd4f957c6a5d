"""Benchmark: trick-family hands checked per second, one core.

Run ``python bench/bench_family_check.py [HANDS] [GAME ...]`` (games: ``bourre``, ``barbu``,
``hearts``; all three by default): it generates HANDS hands (500 by default) of each game,
Bourré as one session at five and at eight players, Barbu as games of 28 hands, Hearts as games
to 100 (``generate``'s text, closing claims and winners; ``= legal`` claims too in a second
file each), then prints hands per second for

- the BTN 2 reader alone (:func:`~baloot_conformance.family.btn.reader.read_btn2`);
- ``check_btn2`` in-process (the reader and the replay, every claim checked);
- ``check_btn2`` on the reference path alone (``fast=False``, ``check --reference-replay``);
- the command line in-process (``main(["check", FILE, "--jobs", "1"])``, the text report to
  a buffer);
- the command line as a process (``python -m baloot_conformance check FILE --jobs 1``, wall
  time, interpreter start-up included).

CPU time of this process for the in-process figures, wall time for the process; the best of
five rounds. Not a test: no figure here is asserted anywhere (the target is at least 1,000
hands per second in-process).
"""

from __future__ import annotations

import functools
import io
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from baloot_conformance.cli import main as cli_main
from baloot_conformance.family.btn.reader import read_btn2
from baloot_conformance.family.check.run import check_btn2
from baloot_conformance.family.corpus.generate import (
    generate_games,
    generate_session,
    whole_game,
)
from baloot_conformance.family.rules.loading import load_trick_ruleset
from baloot_conformance.family.rules.model import TrickRuleset

ROOT = Path(__file__).resolve().parent.parent


def best(
    run: Callable[[], object], rounds: int = 5, clock: Callable[[], float] = time.process_time
) -> float:
    """The least time of ``rounds`` runs, in seconds."""
    times = []
    for _ in range(rounds):
        start = clock()
        run()
        times.append(clock() - start)
    return min(times)


def _check(text: str, fast: bool = True) -> None:
    list(check_btn2(text, "b.btn", fast=fast))


def _cli(path: Path) -> None:
    argv = ["check", str(path), "--jobs", "1"]  # one core: no worker processes
    code = cli_main(argv, stdout=io.StringIO(), stderr=io.StringIO())
    assert code == 0


def _process(path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "baloot_conformance", "check", str(path), "--jobs", "1"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )


def game_text(game: str, hands: int, players: int = 4, seed: int = 1, legal: bool = False) -> str:
    """About ``hands`` generated hands of ``game``: a Bourré session at ``players``, else
    whole games at four (Barbu's 28 hands, Hearts' games to 100 of about a dozen hands)."""
    rules = load_trick_ruleset(game)
    if game == "bourre":
        return "".join(generate_session(rules, players, hands, seed, legal=legal))
    per_game = rules.game.kind.hands or 12  # a game of Hearts runs about a dozen hands
    games = max(1, hands // per_game)
    return "".join(generate_games(rules, 4, whole_game(rules), seed, games, legal=legal))


def _texts(game: str, hands: int, legal: bool) -> list[tuple[str, str]]:
    """(label, text) of about ``hands`` generated hands of ``game``."""
    tables = (5, 8) if game == "bourre" else (4,)
    return [(f"{n} players", game_text(game, hands, n, legal=legal)) for n in tables]


def main() -> None:
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    games = sys.argv[2:] or ["bourre", "barbu", "hearts"]

    def rules_for(reference: str, where: object) -> TrickRuleset:
        return load_trick_ruleset(reference.split("@")[0])

    folder = Path(tempfile.mkdtemp(prefix="bench-family-"))
    print(f"about {hands} hands a game, best of 5, one core")
    for game, legal in ((g, legal) for g in games for legal in (False, True)):
        for players, text in _texts(game, hands, legal):
            path = folder / f"{game}-{players[0]}{'-legal' if legal else ''}.btn"
            path.write_text(text, encoding="utf-8")
            verdicts = list(check_btn2(text, str(path)))
            assert all(v.status == "pass" for v in verdicts), "a generated session must pass"
            count = len(verdicts)

            figures = {
                "read_btn2": best(functools.partial(read_btn2, text, "b.btn", rules_for)),
                "check_btn2": best(functools.partial(_check, text)),
                "check_btn2, reference": best(functools.partial(_check, text, False)),
                "cli main (in-process)": best(functools.partial(_cli, path)),
                "cli (a process)": best(functools.partial(_process, path), clock=time.perf_counter),
            }
            label = f"{game}, {players}{', = legal' if legal else ''}"
            for name, seconds in figures.items():
                print(
                    f"{label:30} {name:22} {count / seconds:9,.0f} hands/s  "
                    f"{seconds / count * 1e6:8.1f} µs/hand"
                )


if __name__ == "__main__":
    main()
