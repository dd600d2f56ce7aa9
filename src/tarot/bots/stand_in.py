"""The stand-in: what the server plays for a player whose time ran out or who went away.

It never commits the player to anything they did not choose: it passes at the bidding,
announces no chelem and shows no poignée; the moves a player cannot decline (the call, the
écart, a card) are the heuristic's.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tarot.engine import Action, Bid, Chelem, View

from .base import Bot
from .heuristic import HeuristicBot


class StandInBot(Bot):
    name = "stand_in"

    def __init__(self, seed: int | None = None, **options: Any) -> None:
        super().__init__(seed, **options)
        self.heuristic = HeuristicBot(seed)

    def act(self, view: View) -> Action:
        if view.phase == "bidding":
            return Bid(view.seat, None)  # R7: pass, never a contract
        if view.phase == "announce":
            return Chelem(view.seat, False)
        if view.ecart_options is not None or view.phase != "play":
            return self.heuristic.act(view)  # the call (R8) and the écart (R10) must be made
        return self.heuristic.act(_without_poignee(view))


def _without_poignee(view: View) -> View:
    """The view as if no poignée were open: a stand-in plays a card, never shows trumps."""
    return view if view.poignee_options is None else replace(view, poignee_options=None)
