"""Bots: full deals at 3, 4 and 5 players with no refused action, determinism, hidden cards."""

from __future__ import annotations

import random

import pytest

from tarot.bots import Bot, PlayStats, RandomBot, bot_class, make_bot, play_deal
from tarot.bots.heuristic import HeuristicBot
from tarot.bots.knowledge import knowledge_of
from tarot.bots.sampler import sample_world
from tarot.bots.search import SearchBot
from tarot.engine import Action, Bid, Contract, Deal, Ecart, Phase, View
from tarot.engine.cards import KINGS, OUDLERS, SUIT_MASKS, TRUMPS, mask_of


def bots_for(spec: str, players: int, seed: int = 0) -> list[Bot]:
    options = {"playouts": 60, "think": 30.0} if spec == "search" else {}
    return [make_bot(spec, seed=seed * 10 + s, **options) for s in range(players)]


def play(spec: str, players: int, seed: int) -> tuple[Deal, PlayStats]:
    deal = Deal.new(players, seed % players, seed=seed)
    stats = PlayStats()
    play_deal(deal, bots_for(spec, players, seed), stats)
    return deal, stats


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize(("spec", "deals"), [("random", 40), ("heuristic", 40), ("search", 2)])
def test_full_deals_without_a_refused_action(spec: str, players: int, deals: int) -> None:
    took = 0
    for seed in range(deals):
        deal, stats = play(spec, players, seed)
        assert deal.is_over
        assert stats.illegal == [[] for _ in range(players)]
        assert sum(len(d) for d in stats.decisions) == len(deal.actions)
        took += deal.taker is not None
    if spec != "search":
        assert took > 0  # the bots do bid


@pytest.mark.parametrize("spec", ["random", "heuristic", "search"])
@pytest.mark.parametrize("players", [3, 5])
def test_same_seed_same_choices(spec: str, players: int) -> None:
    first, _ = play(spec, players, 11)
    second, _ = play(spec, players, 11)
    assert first.actions == second.actions


def test_different_seeds_give_random_bots_different_choices() -> None:
    assert play("random", 4, 3)[0].actions != Deal.new(4, 3, seed=3).actions
    deal_a = Deal.new(4, 0, seed=5)
    deal_b = Deal.new(4, 0, seed=5)
    play_deal(deal_a, [RandomBot(seed=s) for s in range(4)])
    play_deal(deal_b, [RandomBot(seed=s + 100) for s in range(4)])
    assert deal_a.actions != deal_b.actions


def positions(players: int, count: int, seed: int = 0) -> list[Deal]:
    """Deals stopped at random moments of the card play (heuristic bots)."""
    rng = random.Random(seed)
    out: list[Deal] = []
    s = 0
    while len(out) < count:
        s += 1
        deal = Deal.new(players, s % players, seed=seed * 1000 + s)
        bots = bots_for("heuristic", players, s)
        stop = rng.randrange(0, deal.variant.hand_size * players)
        played = 0
        while not deal.is_over and (deal.phase is not Phase.PLAY or played < stop):
            if deal.phase is Phase.PLAY:
                played += 1
            seat = deal.turn
            assert seat is not None
            deal.apply(bots[seat].act(deal.view(seat)))
        if not deal.is_over:
            out.append(deal)
    return out


@pytest.mark.parametrize("players", [3, 4, 5])
def test_sampled_worlds_agree_with_everything_the_seat_knows(players: int) -> None:
    """A world drawn for a seat gives that seat exactly the same view: same hand, same public
    history, voids respected (the engine re-checked every card), the chien and écart as known."""
    rng = random.Random(players)
    checked = 0
    for deal in positions(players, 25, seed=players):
        for seat in range(players):
            view = deal.view(seat)
            k = knowledge_of(view)
            for _ in range(3):
                world = sample_world(view, k, rng)
                assert world is not None
                assert world.view(seat) == view
                for other in range(players):
                    if other != seat:
                        # a seat known void in a suit holds none of it in any world
                        assert not world.hands[other] & k.voids[other]
                checked += 1
    assert checked == 25 * players * 3


def test_worlds_vary_the_hidden_cards_only() -> None:
    deal = positions(4, 1, seed=9)[0]
    view = deal.view(0)
    k = knowledge_of(view)
    rng = random.Random(1)
    worlds = [sample_world(view, k, rng) for _ in range(20)]
    assert all(w is not None and w.hands[0] == deal.hands[0] for w in worlds)
    assert len({tuple(w.hands) for w in worlds if w is not None}) > 1


def test_the_search_bot_decides_from_the_view_alone() -> None:
    """Two deals that look the same from a seat (hidden cards moved around consistently) get
    the same decision from the same seed: nothing but the view reaches the bot."""
    rng = random.Random(3)
    for deal in positions(4, 6, seed=4):
        seat = deal.turn
        assert seat is not None
        view = deal.view(seat)
        other = sample_world(view, knowledge_of(view), rng)
        assert other is not None and other.view(seat) == view
        bot_a = SearchBot(seed=1, playouts=40, think=30)
        bot_b = SearchBot(seed=1, playouts=40, think=30)
        assert bot_a.act(view) == bot_b.act(other.view(seat))


class SpyBot(Bot):
    """Records every view it gets and plays like the search bot."""

    name = "spy"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.inner = SearchBot(seed=seed, playouts=20, think=30)
        self.views: list[View] = []

    def act(self, view: View) -> Action:
        self.views.append(view)
        return self.inner.act(view)


@pytest.mark.parametrize("players", [3, 5])
def test_bots_receive_only_their_own_cards(players: int) -> None:
    deal = Deal.new(players, 0, seed=21)
    spies = [SpyBot(seed=s) for s in range(players)]
    play_deal(deal, spies)
    for seat, spy in enumerate(spies):
        assert spy.views
        for view in spy.views:
            assert view.seat == seat
            mine = view.hand.mask
            assert mine & ~deal.dealt[seat] & ~deal.chien == 0
            if view.chien is None:
                assert not (mine & deal.chien) or seat == deal.taker


# --- the heuristic's judgement ------------------------------------------------------


def view_with_hand(players: int, hand: str, seed: int = 0) -> View:
    """The first bidder's view when its hand is ``hand`` (the other cards dealt from ``seed``)."""
    wanted = mask_of(hand.split())
    rest = [c for c in range(78) if not wanted >> c & 1]
    random.Random(seed).shuffle(rest)
    size = len(hand.split())
    hands = [wanted] + [sum(1 << c for c in rest[i * size:(i + 1) * size]) for i in range(players - 1)]
    chien = sum(1 << c for c in rest[(players - 1) * size:])
    return Deal(players, players - 1, hands, chien).view(0)


def test_heuristic_bids_by_hand_strength() -> None:
    weak = "1S 2S 3S 4S 5S 1H 2H 3H 4H 5H 1D 2D 3D 4D 5D 1C T2 T3"
    strong = "T21 T20 T19 T18 T17 T16 T15 T14 T1 EX KS KH KD QS 1C 2C 3C 4C"
    assert HeuristicBot(seed=0).act(view_with_hand(4, weak)) == Bid(0, None)
    action = HeuristicBot(seed=0).act(view_with_hand(4, strong))
    assert isinstance(action, Bid) and action.contract is not None and action.contract >= Contract.GARDE


def test_heuristic_ecart_is_legal_and_makes_voids() -> None:
    for seed in range(40):
        deal = Deal.new(4, 0, seed=seed)
        deal.apply(Bid(1, Contract.GARDE))
        for seat in (2, 3, 0):
            deal.apply(Bid(seat, None))
        view = deal.view(1)
        action = HeuristicBot(seed=0).act(view)
        assert isinstance(action, Ecart)
        assert deal.is_legal(action)
        mask = action.mask
        assert not mask & (KINGS | OUDLERS)
        opts = deal.ecart_options()
        assert opts is not None
        if not opts.trumps_needed:
            assert not mask & TRUMPS
            before = sum(1 for s in range(4) if not deal.hands[1] & SUIT_MASKS[s])
            after = sum(1 for s in range(4) if not deal.hands[1] & ~mask & SUIT_MASKS[s])
            kingless = [(deal.hands[1] & SUIT_MASKS[s]).bit_count() for s in range(4)
                        if deal.hands[1] & SUIT_MASKS[s] and not deal.hands[1] & SUIT_MASKS[s] & KINGS]
            if kingless and min(kingless) <= 2:  # a suit short enough to discard entirely does get voided
                assert after > before


def test_bot_registry() -> None:
    assert bot_class("heuristic") is HeuristicBot
    assert bot_class("tarot.bots.search:SearchBot") is SearchBot
    assert isinstance(make_bot("search", seed=1, think=0.2), SearchBot)
    with pytest.raises(ValueError, match="unknown bot"):
        bot_class("nobody")
    with pytest.raises(ValueError, match="cannot import"):
        bot_class("no.such.module:Bot")
    with pytest.raises(ValueError, match="not a bot class"):
        bot_class("tarot.engine:PETIT")
    with pytest.raises(TypeError, match="no option"):
        make_bot("heuristic", seed=1, think=0.1)
    with pytest.raises(ValueError, match="think"):
        SearchBot(think=0)


def test_a_faulty_bot_cannot_stop_a_deal() -> None:
    class Broken(Bot):
        def act(self, view: View) -> Action:
            raise RuntimeError("boom")

    deal = Deal.new(4, 0, seed=2)
    stats = PlayStats()
    play_deal(deal, [Broken(), *bots_for("heuristic", 4)[1:]], stats)
    assert deal.is_over
    assert stats.illegal[0] and all("boom" in r for r in stats.illegal[0])
    assert not any(stats.illegal[1:])


def test_the_levels_name_the_bots_a_player_chooses_from() -> None:
    """Beginner, club and expert (issue 19; in French débutant too) are the random, heuristic and
    search bots, whatever the case; an unknown word names the levels in its error."""
    from tarot.bots.heuristic import HeuristicBot
    from tarot.bots.search import SearchBot

    assert type(make_bot("beginner", seed=1)) is RandomBot
    assert type(make_bot("Débutant", seed=1)) is RandomBot
    assert type(make_bot("club", seed=1)) is HeuristicBot
    assert type(make_bot("EXPERT", seed=1, think=0.01)) is SearchBot
    with pytest.raises(ValueError, match="beginner, club, expert"):
        make_bot("grandmaster")
