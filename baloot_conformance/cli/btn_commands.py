"""``fmt`` and ``convert``: the BTN transcript commands (added with the BTN parser)."""

from __future__ import annotations

import argparse
from typing import Any


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the transcript commands to the CLI."""
