"""French Tarot as an OpenSpiel game (issue 36, ``tarot.env.openspiel``): OpenSpiel's own random
simulation test (states cloned and serialized, legal actions empty at the end) at 3, 4 and 5
players; random games end with returns summing to 0; tensors of one size."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

import tarot.env.openspiel  # noqa: E402, F401  (registers the game)
from tarot.env.observe import SIZE  # noqa: E402


@pytest.mark.parametrize("players", [3, 4, 5])
def test_openspiel_random_simulations(players: int) -> None:
    game = pyspiel.load_game("python_french_tarot", {"players": players})
    assert game.num_players() == players and game.num_distinct_actions() == 89
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_games_are_zero_sum_with_tensors_of_one_size(players: int) -> None:
    game = pyspiel.load_game("python_french_tarot", {"players": players})
    rng = random.Random(players)
    for _ in range(4):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert len({p for _, p in outcomes}) == 1  # every card left equally likely
                state.apply_action(rng.choice(outcomes)[0])
                continue
            seat = state.current_player()
            assert len(state.observation_tensor(seat)) == len(state.information_state_tensor(seat)) == SIZE
            state.apply_action(rng.choice(state.legal_actions()))
        assert sum(state.returns()) == 0 and state.legal_actions() == []
