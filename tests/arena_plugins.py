"""Plug-in bots for tests/test_arena.py, loaded by import path (``arena_plugins:Class``)."""

from __future__ import annotations

from typing import Any

from tarot.bots import Bot
from tarot.engine import Action, Bid, View


class FirstLegalBot(Bot):
    """Always the first legal action: deterministic, and unlike the random bot (it never bids)."""

    name = "first-legal"

    def act(self, view: View) -> Action:
        return view.legal[0]


class JunkBot(Bot):
    """Every faulty answer a plug-in can give, in turn: None, a raise, a string, another seat's bid."""

    name = "junk"

    def __init__(self, seed: int | None = None, **options: Any) -> None:
        super().__init__(seed, **options)
        self.calls = 0

    def act(self, view: View) -> Action:
        self.calls += 1
        kind = self.calls % 4
        if kind == 1:
            return None  # type: ignore[return-value]
        if kind == 2:
            raise RuntimeError("plug-in bug")
        if kind == 3:
            return "junk"  # type: ignore[return-value]
        return Bid((view.seat + 1) % view.players, None)


class BrokenBot(Bot):
    """A plug-in whose constructor fails."""

    def __init__(self, seed: int | None = None, **options: Any) -> None:
        raise RuntimeError("no model file")


NOT_A_BOT = ("a", "tuple")  # named like a bot class, but it is not a class


class Duck:
    """Has ``act`` but is no ``Bot``: no name, and no constructor that takes a seed."""

    def act(self, view: View) -> Action:
        return view.legal[0]
