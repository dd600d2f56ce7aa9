"""Bots and environment agents, each in the other's place (issue 36).

``BotAgent(make_bot("search"))`` plays a seat of ``tarot_v0`` as the bot plays it in ``tarot
arena``, so that an agent learns or is measured against the heuristic and the search bot. A bot's
move becomes the environment's ids (``ids_of``): an écart its cards one by one, a poignée its size
then its trumps, a card played where a poignée could be shown the refusal first.

``PolicyBot`` is the other way: an agent's policy (observation and mask in, an id out) as a bot,
so that ``tarot arena --candidate package.module:MyBot`` measures it in duplicate.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tarot.bots.base import Bot
from tarot.engine import Action, Bid, Call, Chelem, Ecart, Play, Poignee, View

from .observe import mask_vector, observe_view
from .spaces import (
    ACTIONS,
    BID_ID,
    CHELEM_NO,
    CHELEM_YES,
    POIGNEE_NO,
    POIGNEE_SIZES,
    Selection,
    ids_in,
    legal_mask_of_view,
    size_index,
    to_action,
)


def ids_of(action: Action, view: View, asked_poignee: bool) -> list[int]:
    """The environment's ids that make ``action`` at ``view``; ``asked_poignee``: the environment
    asks the seat whether it shows a poignée before its card."""
    if isinstance(action, Poignee):
        return [POIGNEE_SIZES[size_index(view.players, len(action.cards))], *(int(c) for c in action.cards)]
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


class PolicyBot(Bot):
    """An environment agent as a bot: subclass it and write ``policy(observation, action_mask)``,
    given exactly what ``tarot_v0`` would give the seat (the same vectors), returning a legal id.
    The écart and a poignée's trumps are asked card by card, as in the environment. This class's
    own policy draws a legal id at random (from the bot's seed)."""

    name = "policy"

    def policy(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(self.rng.choice(np.flatnonzero(action_mask).tolist()))

    def act(self, view: View) -> Action:
        selection: Selection | None = None
        declined = False
        while True:
            legal = legal_mask_of_view(view, selection, declined)
            choosing = selection is None and not declined and view.poignee_options is not None
            action_id = int(self.policy(observe_view(view, selection, choosing), mask_vector(legal)))
            if not 0 <= action_id < ACTIONS or not legal >> action_id & 1:
                raise ValueError(f"{type(self).__name__}: id {action_id} is not legal "
                                 f"(legal: {ids_in(legal)})")
            if action_id == POIGNEE_NO and selection is None:
                declined = True
                continue
            action, selection = to_action(view, action_id, selection)
            if action is not None:
                return action
