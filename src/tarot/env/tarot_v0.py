"""French Tarot as a PettingZoo AEC environment (issue 36; docs/research.md).

    from tarot.env import tarot_v0
    env = tarot_v0.env(players=4, deals=1)
    env.reset(seed=42)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

Agents ``player_0`` … ``player_{n-1}`` are the seats. Every decision of the FFT's rules is an
action of one fixed discrete space (``spaces``: cards, bids, the call, the écart card by card, the
chelem, the poignée and its trumps one by one); each observation is ``{"observation": int8 vector
(observe.SIZE), "action_mask": int8 vector (spaces.ACTIONS)}`` built from the seat's own view.
A deal's scores (R21–R24, zero-sum) are the rewards, given as it ends; an episode is ``deals``
counted deals (a deal annulled — everybody passed, a petit sec — is dealt again, as in a game).
``reset(seed=…)`` makes the episode reproducible. ``render_mode="ansi"``: the acting seat's view.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces as gym_spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from tarot.engine import Deal, Game, View

from .observe import SIZE, mask_vector, observe
from .spaces import ACTIONS, POIGNEE_NO, Selection, legal_mask, to_action

__all__ = ["env", "raw_env"]


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual checks (an illegal action ends the episode with
    −1 for whoever took it; out-of-range actions and calls out of order are refused)."""
    e: AECEnv = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class raw_env(AECEnv):  # type: ignore[misc]  # (PettingZoo's name for the unwrapped environment)
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "tarot_v0",
                                          "is_parallelizable": False}

    def __init__(self, players: int = 4, deals: int = 1, render_mode: str | None = None) -> None:
        super().__init__()
        if players not in (3, 4, 5):
            raise ValueError(f"players: 3, 4 or 5, not {players!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode: None or 'ansi', not {render_mode!r}")
        self.players = players
        self.deals = deals
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents: list[str] = []
        self._obs_space = gym_spaces.Dict({
            "observation": gym_spaces.Box(0, 127, (SIZE,), np.int8),
            "action_mask": gym_spaces.Box(0, 1, (ACTIONS,), np.int8)})
        self._act_space = gym_spaces.Discrete(ACTIONS)
        self._seed: int | None = None
        self.game: Game | None = None

    def observation_space(self, agent: str) -> gym_spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> gym_spaces.Space[Any]:
        return self._act_space

    # --- an episode ----------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seed = seed
            self._act_space.seed(seed)
        # a seed given once makes each later episode reproducible too (seed, seed + 1, …)
        episode_seed = None if self._seed is None else self._seed
        if self._seed is not None:
            self._seed += 1
        self.game = Game(self.players, self.deals, first_dealer=self.players - 1, seed=episode_seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._selection: Selection | None = None
        self._declined: set[int] = set()  # seats that chose to show no poignée this deal
        self._deal: Deal | None = None
        self._last_deal: Deal | None = None  # the last deal over (what is observed once the episode is)
        self._seen: tuple[Any, ...] | None = None  # the last legal ids worked out, and for what
        self._moved()

    def _moved(self) -> None:
        """After a move: whose turn it is, the deal's end (its rewards), the episode's end."""
        game = self.game
        assert game is not None
        if game.deal is not self._deal:
            self._deal = game.deal
            self._declined.clear()
        if game.is_over:
            for a in self.agents:
                self.terminations[a] = True
            return
        assert game.deal is not None and game.deal.turn is not None
        self.agent_selection = self.possible_agents[game.deal.turn]

    def _view(self, seat: int) -> View:
        assert self.game is not None and self.game.deal is not None
        return self.game.deal.view(seat)

    def _legal(self, deal: Deal, seat: int) -> int:
        """The acting seat's legal ids (a mask), worked out once for ``last()`` and ``step()``."""
        sel = self._selection
        key = (deal, len(deal.actions), seat, None if sel is None else sel.chosen, seat in self._declined)
        if self._seen is None or self._seen[0] != key:
            self._seen = (key, legal_mask(deal, sel, seat in self._declined))
        mask: int = self._seen[1]
        return mask

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        game = self.game
        if game is None or game.deal is None:  # over: the last deal as it ended (kept by ``step``)
            last = self._last_deal
            observation = np.zeros(SIZE, np.int8) if last is None else observe(last, seat)
            return {"observation": observation, "action_mask": np.zeros(ACTIONS, np.int8)}
        deal = game.deal
        if agent != self.agent_selection:
            return {"observation": observe(deal, seat), "action_mask": np.zeros(ACTIONS, np.int8)}
        mask = mask_vector(self._legal(deal, seat))
        selection = self._selection
        choosing = selection is None and seat not in self._declined and deal.poignee_options() is not None
        return {"observation": observe(deal, seat, selection, choosing), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None and game.deal is not None and action is not None
        seat = self.possible_agents.index(agent)
        deal = game.deal
        if not 0 <= int(action) < ACTIONS or not self._legal(deal, seat) >> int(action) & 1:
            raise ValueError(f"action {action} is not legal for {agent} now")
        self._cumulative_rewards[agent] = 0
        self.rewards = dict.fromkeys(self.agents, 0)
        if int(action) == POIGNEE_NO and self._selection is None:
            self._declined.add(seat)
            self._accumulate_rewards()
            return
        engine_action, self._selection = to_action(deal, int(action), self._selection)
        if engine_action is not None:
            game.apply(engine_action)
            if deal.is_over:  # its scores are the rewards (a deal annulled scores 0 each)
                self._last_deal = deal
                for i, a in enumerate(self.possible_agents):
                    self.rewards[a] = deal.result().scores[i]
            self._moved()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.game is None or self.game.deal is None:
            return None
        view = self._view(self.possible_agents.index(self.agent_selection))
        lines = [f"{self.agent_selection} ({view.phase}), deal {len(self.game.records) + 1}",
                 "hand: " + " ".join(str(c) for c in view.hand),
                 "bids: " + ", ".join(f"{s}:{'pass' if c is None else c.name_text}" for s, c in view.bids)]
        if view.contract is not None:
            lines.append(f"contract: {view.contract.name_text} by {view.taker}"
                         + (f", called {view.called}" if view.called is not None else ""))
        if view.trick:
            lines.append("trick: " + " ".join(str(c) for c in view.trick))
        return "\n".join(lines)

    def close(self) -> None:
        pass
