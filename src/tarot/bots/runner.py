"""Drive a deal with bots: each bot gets only its seat's view; timings and refusals are counted."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from tarot.engine import Action, Deal, IllegalAction

from .base import Bot
from .random_bot import RandomBot


@dataclass
class PlayStats:
    """What the runner saw: decision times (seconds) per seat, and refused actions."""

    decisions: list[list[float]] = field(default_factory=list)
    illegal: list[list[str]] = field(default_factory=list)  # per seat: the reasons

    def ensure(self, players: int) -> None:
        while len(self.decisions) < players:
            self.decisions.append([])
            self.illegal.append([])


def play_deal(deal: Deal, bots: Sequence[Bot], stats: PlayStats | None = None) -> Deal:
    """Play ``deal`` to its end, asking ``bots[seat]`` for each of its decisions.

    A bot whose action is refused (or that raises) is recorded in ``stats.illegal`` and a random
    legal action is played in its place, so one faulty plug-in cannot stop a match.

    A bot that has a ``see_deal`` method is a measuring stick, not a player (the ceiling of
    ``bench/baselines/ceiling.py``): it is handed a copy of the whole deal before each decision.
    Only the offline matches call this function (the arena); the site never does.
    """
    if len(bots) != deal.players:
        raise ValueError(f"{deal.players} players need {deal.players} bots, not {len(bots)}")
    stats = stats if stats is not None else PlayStats()
    stats.ensure(deal.players)
    fallback = RandomBot(seed=0)
    clock = time.perf_counter
    while not deal.is_over:
        seat = deal.turn
        assert seat is not None
        view = deal.view(seat)
        see_deal = getattr(bots[seat], "see_deal", None)
        if see_deal is not None:
            see_deal(deal.copy())
        start = clock()
        reason = "the bot returned no action"
        try:
            action = bots[seat].act(view)
        except Exception as exc:  # a plug-in bot's bug must not end the match
            action = None
            reason = f"{type(exc).__name__}: {exc}"
        stats.decisions[seat].append(clock() - start)
        try:
            if not isinstance(action, Action):
                raise IllegalAction("bot", reason if action is None else f"not an action: {action!r}")
            deal.apply(action)
        except (IllegalAction, TypeError, AttributeError) as exc:
            stats.illegal[seat].append(str(exc))
            action = fallback.act(view)
            deal.apply(action)
    return deal
