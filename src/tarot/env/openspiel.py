"""French Tarot as an OpenSpiel game (issue 36; docs/research.md): ``import tarot.env.openspiel``
registers the Python game ``python_french_tarot`` (parameter ``players``: 3, 4 or 5).

    import pyspiel
    import tarot.env.openspiel  # noqa: F401  (registers the game)
    game = pyspiel.load_game("python_french_tarot", {"players": 4})

One deal a game. The deal is dealt by chance nodes, a card at a time (each outcome one of the cards
not dealt yet, equally likely: every deal equally likely), to the seats in turn of hands and then
to the chien; the dealer is the last seat. A deal annulled at once (a petit sec, R6) or that
everybody passes ends the game with 0 for each. Then the same actions as the PettingZoo
environment (``spaces``: 89 ids) and the same observation (``observe``, as float32); the
information state's tensor is that observation too (it holds every card seen and every bid; not
the order of the tricks), its string adds the seat's own moves (perfect recall). Returns are the
deal's scores (zero-sum).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from tarot.engine import Deal, variant
from tarot.engine.cards import CARDS

from .observe import SIZE, observe
from .spaces import (
    ACTIONS,
    BIDS,
    CARD_IDS,
    CHELEM_YES,
    POIGNEE_NO,
    POIGNEE_SIZES,
    Selection,
    ids_in,
    legal_mask,
    to_action,
)

NAME = "python_french_tarot"
MAX_SCORE = 5000.0  # above any deal's score (a garde contre with every prime, at 3 players)
_TYPE = pyspiel.GameType(
    short_name=NAME,
    long_name="Python French Tarot (FFT rules)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 4},
)


class FrenchTarotGame(pyspiel.Game):  # type: ignore[misc]
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.get("players", 4))
        if players not in (3, 4, 5):
            raise ValueError(f"players: 3, 4 or 5, not {players}")
        # 78 cards dealt, then at most: the bids, the call, the écart a card at a time, the
        # chelem, each seat's poignée (its size and trumps), the 78 cards played
        length = CARD_IDS + players + 1 + 6 + 1 + players * 16 + CARD_IDS
        info = pyspiel.GameInfo(num_distinct_actions=ACTIONS, max_chance_outcomes=CARD_IDS,
                                num_players=players, min_utility=-MAX_SCORE, max_utility=MAX_SCORE,
                                utility_sum=0.0, max_game_length=length)
        super().__init__(_TYPE, info, {"players": players})
        self.players = players

    def new_initial_state(self) -> FrenchTarotState:
        return FrenchTarotState(self, self.players)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> TarotObserver:
        return TarotObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class FrenchTarotState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: FrenchTarotGame, players: int) -> None:
        super().__init__(game)
        self.players = players
        self.dealt: list[int] = []
        self.deal: Deal | None = None
        self.selection: Selection | None = None
        self.declined: set[int] = set()
        self.moves: list[list[int]] = [[] for _ in range(players)]  # each seat's own action ids
        self.over = False
        self.scores = [0.0] * players

    def current_player(self) -> int:
        if self.over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self.deal is None:
            return int(pyspiel.PlayerId.CHANCE)
        assert self.deal.turn is not None
        return self.deal.turn

    def _legal_actions(self, player: int) -> list[int]:
        assert self.deal is not None
        return ids_in(legal_mask(self.deal, self.selection, player in self.declined))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = sorted(set(range(CARD_IDS)) - set(self.dealt))
        return [(c, 1.0 / len(left)) for c in left]

    def _apply_action(self, action: int) -> None:
        if self.deal is None:
            self.dealt.append(action)
            if len(self.dealt) == CARD_IDS:
                self._start()
            return
        seat = self.deal.turn
        assert seat is not None
        self.moves[seat].append(action)
        if action == POIGNEE_NO and self.selection is None:
            self.declined.add(seat)
            return
        engine_action, self.selection = to_action(self.deal, action, self.selection)
        if engine_action is None:
            return
        self.deal.apply(engine_action)
        if self.deal.is_over:
            self.over = True
            self.scores = [float(x) for x in self.deal.result().scores]

    def _start(self) -> None:
        size = variant(self.players).hand_size
        def mask(cards: list[int]) -> int:
            return sum(1 << c for c in cards)

        hands = [mask(self.dealt[i * size:(i + 1) * size]) for i in range(self.players)]
        self.deal = Deal(self.players, self.players - 1, hands, mask(self.dealt[self.players * size:]))
        self.over = self.deal.is_over  # (a petit sec: annulled at once, 0 each)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Deal:{CARDS[action]}"
        if action < CARD_IDS:
            return str(CARDS[action])
        if action in BIDS:
            contract = BIDS[action]
            return "pass" if contract is None else contract.name_text
        if action == POIGNEE_NO:
            return "no poignée"
        if action in POIGNEE_SIZES:
            return ("simple", "double", "triple")[POIGNEE_SIZES.index(action)] + " poignée"
        return "chelem" if action == CHELEM_YES else "no chelem"

    def is_terminal(self) -> bool:
        return self.over

    def returns(self) -> list[float]:
        return list(self.scores)

    # --- what a seat observes (TarotObserver) ------------------------------------------------

    def observation_vector(self, player: int) -> np.ndarray:
        if self.deal is None:
            return np.zeros(SIZE, np.int8)
        if player != self.deal.turn:
            return observe(self.deal, player)
        choosing = self.selection is None and player not in self.declined \
            and self.deal.poignee_options() is not None
        return observe(self.deal, player, self.selection, choosing)

    def observation_text(self, player: int) -> str:
        if self.deal is None:
            return f"p{player} dealing"
        view = self.deal.view(player)
        trick = " ".join(str(c) for c in view.trick)
        bids = ",".join("pass" if c is None else c.name_text for _, c in view.bids)
        return (f"p{player} {view.phase} hand:{' '.join(str(c) for c in view.hand)} bids:{bids} "
                f"trick:{trick} tricks:{len(view.tricks)}")

    def __str__(self) -> str:
        if self.deal is None:
            return f"dealing {len(self.dealt)}/{CARD_IDS}"
        return " ".join(str(a) for a in self.deal.actions) or "dealt"


class TarotObserver:
    """OpenSpiel's observer of a Python game: the tensor (``observe``'s vector as float32) and
    its string; with perfect recall the string adds the seat's own moves."""

    def __init__(self, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"no observation parameters, not {params}")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor = np.zeros(SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: FrenchTarotState, player: int) -> None:
        self.tensor[:] = state.observation_vector(player)

    def string_from(self, state: FrenchTarotState, player: int) -> str:
        text = state.observation_text(player)
        if self.perfect_recall:
            text += " moves:" + ",".join(map(str, state.moves[player]))
        return text


pyspiel.register_game(_TYPE, FrenchTarotGame)
