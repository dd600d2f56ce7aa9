"""Our bots as agents inside the research environment (issue 36): ``BotAgent(make_bot("search"))``
plays a seat of ``tarot_v0`` as the bot plays it in ``tarot arena``, so that an agent learns or is
measured against the heuristic and the search bot. A bot's move becomes the environment's ids
(``ids_of``): an écart its cards one by one, a poignée its size then its trumps, a card played
where a poignée could be shown the refusal first."""

from __future__ import annotations

from typing import Any

from tarot.bots.base import Bot
from tarot.engine import Action, Bid, Call, Chelem, Ecart, Play, Poignee, View

from .spaces import BID_ID, CHELEM_NO, CHELEM_YES, POIGNEE_NO, POIGNEE_SIZES, size_index


def ids_of(action: Action, view: View, asked_poignee: bool) -> list[int]:
    """The environment's ids that make ``action`` at ``view``; ``asked_poignee``: the environment
    asks the seat whether it shows a poignée before its card."""
    if isinstance(action, Poignee):
        return [POIGNEE_SIZES[size_index(view, len(action.cards))], *(int(c) for c in action.cards)]
    if isinstance(action, Play):
        return [POIGNEE_NO, int(action.card)] if asked_poignee else [int(action.card)]
    if isinstance(action, Ecart):
        return [int(c) for c in action.cards]
    if isinstance(action, Bid):
        return [BID_ID[action.contract]]
    if isinstance(action, Chelem):
        return [CHELEM_YES if action.announce else CHELEM_NO]
    assert isinstance(action, Call)
    return [int(action.card)]


class BotAgent:
    """A bot at one seat: ``act(env)`` is its next id whenever ``env.agent_selection`` is its seat."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self._queue: list[int] = []

    def act(self, env: Any) -> int:
        raw = env.unwrapped
        if not self._queue:
            seat = raw.possible_agents.index(raw.agent_selection)
            view = raw.game.deal.view(seat)
            asked = view.poignee_options is not None and seat not in raw._declined
            self._queue = ids_of(self.bot.act(view), view, asked)
        return self._queue.pop(0)
