"""The research environment (issue 36, ``tarot.env.tarot_v0``): PettingZoo's own API and seed
tests at 3, 4 and 5 players; random episodes whose records replay clean with the engine and whose
rewards are the deals' scores; an observation never holds a card its seat may not see."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import api_test, seed_test

from tarot.engine import Deal, Phase, Play
from tarot.engine.cards import SUIT_MASKS, cards_of, mask_of
from tarot.engine.planes import PHASES
from tarot.env import tarot_v0
from tarot.env.observe import SIZE, observe, observe_view
from tarot.env.spaces import ACTIONS, CHELEM_YES, POIGNEE_NO, POIGNEE_SIZES, ids_in, legal_mask_of_view

# (PettingZoo's classic games too observe a dict with the action mask, which its test warns of)
pytestmark = pytest.mark.filterwarnings("ignore:Observation space for each agent:UserWarning",
                                        "ignore:Observation is not a NumPy array:UserWarning")


@pytest.mark.parametrize("players", [3, 4, 5])
def test_pettingzoo_api(players: int) -> None:
    api_test(tarot_v0.env(players=players), num_cycles=400)


def test_pettingzoo_seeds() -> None:
    seed_test(lambda: tarot_v0.env(players=4), num_cycles=400)


def play_episode(env: Any, rng: random.Random) -> tuple[dict[str, int], list[int]]:
    """One episode of random legal actions: each agent's total reward, and the actions taken."""
    totals = dict.fromkeys(env.possible_agents, 0)
    taken = []
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        assert obs["observation"].shape == (SIZE,) and obs["action_mask"].shape == (ACTIONS,)
        action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        taken.append(action)
        env.step(action)
    return totals, taken


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_episodes_replay_clean_and_reward_the_scores(players: int) -> None:
    seen: set[int] = set()
    rng = random.Random(players)
    for deals, episodes in ((1, 334), (3, 10)):  # (1,002 one-deal episodes over the three counts)
        env = tarot_v0.raw_env(players=players, deals=deals)
        env.reset(seed=players)
        for _ in range(episodes):
            env.reset()
            totals, taken = play_episode(env, rng)
            seen.update(taken)
            check_episode(env, totals, deals)
    # every kind of decision was met: bids, the chelem, a poignée shown and declined, the cards
    assert {78, 79, 80, 81, 82, POIGNEE_NO, CHELEM_YES} <= seen and seen & set(POIGNEE_SIZES)


def check_episode(env: Any, totals: dict[str, int], deals: int) -> None:
    """Every deal's record replays clean with the engine, as many counted deals as asked, and
    each agent's rewards add up to its deals' scores (zero-sum)."""
    players = env.players
    records = env.game.records
    assert sum(1 for r in records if r.replay().result().annulled is None) == deals
    scores = [r.replay().result().scores for r in records]  # every record replays clean
    assert [totals[a] for a in env.possible_agents] == [sum(s[i] for s in scores) for i in range(players)]
    assert sum(totals.values()) == 0


def random_turns(env: Any, rng: random.Random) -> Iterator[tuple[str, Any]]:
    """Each turn of the episode under way (the agent and its observation); once the caller has
    looked, a random legal action is taken for it."""
    for agent in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        yield agent, obs
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))


def test_an_observation_holds_only_what_its_seat_sees() -> None:
    """Two deals the seat to act cannot tell apart (two cards of one suit, unplayed and never
    shown, exchanged between two other hands) give it the same observation, at every step."""
    env = tarot_v0.raw_env(players=4)
    rng = random.Random(1)
    checked = 0
    for seed in range(40):
        env.reset(seed=seed)
        for agent, obs in random_turns(env, rng):
            deal = env.game.deal
            if deal.phase is Phase.PLAY and len(deal.tricks) in (2, 9):
                twin = _unseen_swap(deal, deal.turn)
                if twin is not None:
                    env.game.deal, env._deal = twin, twin
                    again = env.observe(agent)
                    env.game.deal, env._deal = deal, deal
                    assert (again["observation"] == obs["observation"]).all()
                    assert (again["action_mask"] == obs["action_mask"]).all()
                    assert twin.hands != deal.hands
                    checked += 1
    assert checked >= 20


def _unseen_swap(deal: Deal, seat: int) -> Deal | None:
    seen = deal.chien | sum(deal.poignees.values()) | deal.ecart | (deal.hands[seat])
    if deal.partner is not None and deal.partner_known_to(seat) is not None and deal.called is not None:
        seen |= 1 << int(deal.called)
    others = [s for s in range(deal.players) if s != seat]
    for a in others:
        for b in others:
            for suit in SUIT_MASKS:
                if a < b and (x := deal.hands[a] & suit & ~seen) and (y := deal.hands[b] & suit & ~seen):
                    hands = list(deal.dealt)
                    cx, cy = cards_of(x)[0], cards_of(y)[0]
                    hands[a] ^= (1 << cx) | (1 << cy)
                    hands[b] ^= (1 << cx) | (1 << cy)
                    twin = Deal(deal.players, deal.dealer, hands, deal.chien)
                    for action in deal.actions:
                        twin.apply(action)
                    return twin
    return None


def test_rendering_says_the_seats_view() -> None:
    env = tarot_v0.env(players=3, render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert text is not None and text.startswith(env.agent_selection)
    hand = text.splitlines()[1].split(": ")[1].split()
    view = env.unwrapped.game.deal.view(env.unwrapped.possible_agents.index(env.agent_selection))
    assert mask_of(hand) == view.hand.mask
    assert all(not isinstance(a, Play) for a in view.legal)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_our_bots_inside_the_environment_play_as_in_the_arena(players: int) -> None:
    """``BotAgent``s in every seat play each deal exactly as ``runner.play_deal`` has the same bots
    play it (the écart card by card, the poignée size then trumps, its refusal: same moves)."""
    from tarot.bots import build_bot
    from tarot.bots.runner import play_deal
    from tarot.engine import DealRecord
    from tarot.env.agents import BotAgent

    env = tarot_v0.env(players=players, deals=3)
    env.reset(seed=players * 11)
    agents = {a: BotAgent(build_bot("heuristic", i, None)) for i, a in enumerate(env.possible_agents)}
    for agent in env.agent_iter():
        _, _, termination, truncation, _ = env.last()
        env.step(None if termination or truncation else agents[agent].act(env))
    records = env.unwrapped.game.records
    assert len(records) >= 3
    for record in records:
        again = play_deal(record.start(), [build_bot("heuristic", i, None) for i in range(players)])
        assert DealRecord.from_deal(again).actions == record.actions


@pytest.mark.parametrize("players", [4, 5])
def test_the_observations_parts_say_what_the_seat_sees(players: int) -> None:
    """The observation's layout, part by part, read back against the seat's view: its hand, the
    cards each seat (counted from the observer) has played, the trick, the chien once shown, its
    own écart, the écart's trumps, the poignées, the called card, the choice under way, the bids,
    the contract, the taker, partner and leader, the dealer, the phase, the hands' sizes; until
    every part has been met filled."""
    n = players
    env = tarot_v0.raw_env(players=n)
    env.reset(seed=8)
    rng = random.Random(8)
    filled: set[int] = set()  # the card planes met not empty
    seen_phases: set[str] = set()
    for _ in range(400):  # (until every part has been met: some 20 to 100 deals)
        env.reset()
        for agent, obs in random_turns(env, rng):
            seat = env.possible_agents.index(agent)
            view = env.game.deal.view(seat)
            vector = obs["observation"]
            played = played_by_seat(view)
            by_rel = [played[(seat + r) % n] if r < n else 0 for r in range(5)]
            shown = sum((cards.mask for cards in view.poignees.values()), 0)
            chosen = env._selection.chosen if env._selection is not None else 0
            planes = [view.hand.mask, *by_rel, mask_of(view.trick),
                      view.chien.mask if view.chien is not None else 0,
                      view.ecart.mask if view.ecart is not None else 0, view.ecart_trumps.mask, shown,
                      0 if view.called is None else 1 << int(view.called), chosen]
            assert [sum(1 << c for c in range(78) if vector[78 * k + c]) for k in range(13)] == planes
            filled |= {k for k, mask in enumerate(planes) if mask}
            at = 78 * 13  # the bids (a mark at each seat's bid), the contract, who, the dealer, the phase
            last = {(s - seat) % n: 1 + (0 if c is None else int(c)) for s, c in view.bids}
            bids = vector[at:at + 30].reshape(5, 6)
            assert [list(np.flatnonzero(bids[r])) for r in range(5)] == [[last[r]] if r in last else []
                                                                          for r in range(5)]
            contract = vector[at + 30:at + 35]
            assert list(np.flatnonzero(contract)) == [0 if view.contract is None else int(view.contract)]
            who = vector[at + 35:at + 53].reshape(3, 6)
            for row, s in zip(who, (view.taker, view.partner, view.trick_leader), strict=True):
                assert list(np.flatnonzero(row)) == [0 if s is None else 1 + (s - seat) % n]
            assert list(np.flatnonzero(vector[at + 53:at + 58])) == [(view.dealer - seat) % n]
            phase = np.flatnonzero(vector[at + 63:at + 71])
            assert phase.size == 1
            seen_phases.add(PHASES[int(phase[0])])
            assert list(vector[-5:][:n]) == [view.hand_sizes[(seat + r) % n] for r in range(n)]
        if filled >= {0, 1, 2, 3, 4, 6, 7, 8, 10, 12} | ({5, 11} if n == 5 else set()):
            break
    # (the écart's trumps, plane 9, are rare: a taker forced to put trumps aside)
    assert filled >= {0, 1, 2, 3, 4, 6, 7, 8, 10, 12} | ({5, 11} if n == 5 else set()), sorted(filled)
    assert {"bidding", "ecart", "play"} <= seen_phases


def test_a_poignee_offers_the_excuse_only_to_make_up_its_count() -> None:
    """R14: the Excuse is shown in a poignée only when it shows every trump of the hand (it makes
    up the count): after a size is chosen, the Excuse is offered exactly then."""
    from tarot.engine import variant
    from tarot.engine.cards import EXCUSE_BIT, TRUMPS
    from tarot.engine.options import PoigneeOptions
    from tarot.engine.rules import PoigneeSize
    from tarot.env.spaces import Selection, selectable

    seen = {True: 0, False: 0}
    for seed in range(3000):
        deal = Deal.new(4, 0, seed=seed)
        if deal.is_over:
            continue
        for seat in range(4):
            hand = deal.hands[seat]
            if not hand & EXCUSE_BIT:
                continue
            trumps = (hand & TRUMPS).bit_count()
            for count in variant(4).poignee_thresholds:
                if trumps + 1 < count:
                    continue
                # the seat at its first card, asked for its poignée (a view with those options)
                size = PoigneeSize(list(variant(4).poignee_thresholds).index(count) * 10 + 20)
                opts = PoigneeOptions(seat, ((size, count),), hand & (TRUMPS | EXCUSE_BIT), hand & TRUMPS)
                offered = selectable(Selection("poignee", count), None, opts) >> 77 & 1 == 1
                assert offered == (trumps + 1 == count), (trumps, count)
                seen[offered] += 1
        if all(seen.values()):
            return
    raise AssertionError(f"not every case met: {seen}")


def test_observations_are_the_seats_views_at_every_step() -> None:
    """The engine's observation bits (read from the deal's masks, no view built) are, at every
    step and for every seat, the vector built from that seat's ``View`` (``Observer``'s: only what
    it may see), during a choice card by card too; the legal ids likewise; at 3, 4 and 5 players."""
    checked = 0
    for players in (3, 4, 5):
        env = tarot_v0.raw_env(players=players, deals=2)
        env.reset(seed=100 + players)
        rng = random.Random(players)
        for _ in range(12):
            env.reset()
            for agent, obs in random_turns(env, rng):
                deal = env.game.deal
                acting = env.possible_agents.index(agent)
                for seat in range(players):
                    mine = seat == acting
                    sel = env._selection if mine else None
                    view = deal.view(seat)
                    declined = seat in env._declined
                    choosing = mine and sel is None and view.poignee_options is not None and not declined
                    expected = observe_view(view, sel, choosing)
                    got = obs["observation"] if mine else observe(deal, seat)
                    assert (got == expected).all(), (players, seat, np.flatnonzero(got != expected))
                    if mine:
                        legal = ids_in(legal_mask_of_view(view, sel, declined))
                        assert list(np.flatnonzero(obs["action_mask"])) == legal
                    checked += 1
    assert checked > 5000


def test_a_policy_plays_as_a_bot_in_the_arena() -> None:
    """``PolicyBot``: a policy given the environment's observation and mask plays whole deals
    through the bot interface (``play_deal``, as ``tarot arena`` does), at 3, 4 and 5 players;
    it is asked the écart and a poignée's trumps card by card and sees the vectors the
    environment gives; an illegal id is refused with a clear error."""
    from tarot.bots.runner import PlayStats, play_deal
    from tarot.env.agents import PolicyBot

    asked: list[tuple[int, int]] = []  # (the phase marked in the observation, the id chosen)
    phase_at = 78 * 13 + 30 + 5 + 18 + 5 + 5

    class Recorder(PolicyBot):
        def policy(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
            assert observation.shape == (SIZE,) and action_mask.shape == (ACTIONS,)
            legal = np.flatnonzero(action_mask)
            # (a poignée is always shown, to be asked its trumps)
            choice = int(legal[-1]) if POIGNEE_NO in legal else super().policy(observation, action_mask)
            asked.append((int(np.flatnonzero(observation[phase_at:phase_at + 8])[0]), choice))
            return choice

    for players in (3, 4, 5):
        for k in range(40):
            deal = play_deal(Deal.new(players, 0, seed=k), [Recorder(seed=k * 5 + i) for i in range(players)])
            assert deal.is_over
    phases = {p for p, _ in asked}
    assert {0, 2, 4, 5, 6} <= phases  # bidding, the écart, the poignée and its trumps, the play
    assert sum(1 for p, _ in asked if p == 2) >= 12  # the écarts: one id a card

    class Wrong(PolicyBot):
        def policy(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
            return int(np.flatnonzero(action_mask == 0)[0])

    stats = PlayStats()  # (the arena's runner counts a refused move and plays a random one instead)
    play_deal(Deal.new(4, 0, seed=1), [Wrong(seed=i) for i in range(4)], stats)
    assert stats.illegal[0] and "ValueError: Wrong: id 0 is not legal" in stats.illegal[0][0]


def played_by_seat(view: Any) -> list[int]:
    """The cards each seat has played (masks by seat), from the tricks the view shows."""
    played = [0] * view.players
    for trick in view.tricks:
        for s, card in trick.plays:
            played[s] |= 1 << int(card)
    if view.trick_leader is not None:
        for i, card in enumerate(view.trick):
            played[(view.trick_leader + i) % view.players] |= 1 << int(card)
    return played
