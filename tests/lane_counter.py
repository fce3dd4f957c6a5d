"""Counting the hands a fast lane takes: Baloot's (``check/fast_lane.py``) and the trick
family's (``family/check/fast_lane.py``) each judge a hand by one function that returns
``None`` when it leaves the hand to the reference path."""

from __future__ import annotations

from typing import Any

import pytest


class Taken:
    """Counts the hands ``owner.name`` judged itself (``taken``) and those it left to the
    reference path (``left``: it returned ``None``), for as long as the test runs."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> None:
        self.taken = self.left = 0
        judge = getattr(owner, name)

        def counting(*args: object) -> object:
            judged = judge(*args)
            if judged is None:
                self.left += 1
            else:
                self.taken += 1
            return judged

        monkeypatch.setattr(owner, name, counting)
