"""Bidding by simulation (the search bot's bids): worlds consistent with the view and the bids
already made, legal candidates only, sound judgement on clear hands, determinism, hidden cards."""

from __future__ import annotations

import random
import time

import pytest

from tarot.bots import bidding
from tarot.bots.bidding import bid_evidence, candidate_bids, choose_bid, estimate_bids, heuristic_bid
from tarot.bots.evaluation import call_choice, contract_for, ecart_choice, hand_points
from tarot.bots.heuristic import HeuristicBot
from tarot.bots.rollout import play_out, start_play
from tarot.bots.sampler import sample_before_play
from tarot.engine import Bid, Call, Chelem, Contract, Deal, Ecart, Phase, View
from tarot.engine.cards import EXCUSE_BIT, KINGS, OUDLERS, PETIT_BIT, TRUMPS, cards_of, mask_of
from tarot.engine.rules import variant

STRONG = "T21 T20 T19 T18 T17 T16 T15 T14 T1 EX KS KH KD QS 1C 2C 3C 4C"  # 3 oudlers, 10 trumps
HOPELESS = "1S 2S 3S 4S 5S 1H 2H 3H 4H 5H 1D 2D 3D 4D 5D 1C T2 T3"


def deal_with_hand(players: int, hand: str, seed: int = 0, seat: int = 0) -> Deal:
    """A deal where ``seat`` holds ``hand`` (the other cards dealt from ``seed``), dealer before
    seat 0 so that seat 0 speaks first."""
    wanted = mask_of(hand.split())
    rest = [c for c in range(78) if not wanted >> c & 1]
    random.Random(seed).shuffle(rest)
    size = len(hand.split())
    others = [sum(1 << c for c in rest[i * size:(i + 1) * size]) for i in range(players - 1)]
    hands = others[:seat] + [wanted] + others[seat:]
    chien = sum(1 << c for c in rest[(players - 1) * size:])
    return Deal(players, players - 1, hands, chien)


def bidding_views(players: int, count: int, seed: int) -> list[View]:
    """Views of the seat to bid, at every position of the bidding, after heuristic bids."""
    views = []
    bot = HeuristicBot(seed=0)
    for i in range(count):
        deal = Deal.new(players, i % players, seed=seed * 1000 + i)
        while deal.phase is Phase.BIDDING:
            assert deal.turn is not None
            view = deal.view(deal.turn)
            views.append(view)
            deal.apply(bot.act(view))
    return views


def bid_of(players: int, hand: str, playouts: int = 600) -> Contract | None:
    view = deal_with_hand(players, hand).view(0)
    action = choose_bid(view, random.Random(1), playouts, time.perf_counter() + 60)
    assert action is not None
    return action.contract


# --- judgement ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_three_oudlers_and_many_trumps_bid_at_least_garde(players: int) -> None:
    hand = " ".join(STRONG.split()[: variant(players).hand_size])  # 15 cards at 5 keep 3 oudlers
    if players == 3:
        hand = STRONG + " T13 T12 T11 T10 T9 T8"
    contract = bid_of(players, hand)
    assert contract is not None and contract >= Contract.GARDE


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_hopeless_hand_passes(players: int) -> None:
    hand = " ".join(HOPELESS.split()[: variant(players).hand_size])
    if players == 3:
        hand = HOPELESS + " 6S 6H 6D 2C 3C 4C"
    assert bid_of(players, hand) is None


# --- candidates and evidence -----------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_only_legal_bids_are_candidates(players: int) -> None:
    for view in bidding_views(players, 6, seed=players)[:12]:
        legal = [a.contract for a in view.legal if isinstance(a, Bid)]
        assert candidate_bids(view) == legal
        highest = max((c for _, c in view.bids if c is not None), default=None)
        assert candidate_bids(view)[0] is None
        assert all(c is None or highest is None or c > highest for c in candidate_bids(view))
        estimates = estimate_bids(view, random.Random(2), 40, time.perf_counter() + 60)
        assert list(estimates.means) == legal
        action = choose_bid(view, random.Random(2), 40, time.perf_counter() + 60)
        assert action is None or action in view.legal


def test_a_garde_contre_leaves_only_pass() -> None:
    deal = deal_with_hand(4, STRONG, seat=1)
    deal.apply(Bid(0, Contract.GARDE_CONTRE))
    view = deal.view(1)
    assert choose_bid(view, random.Random(0), 100, time.perf_counter() + 60) == Bid(1, None)


def test_the_model_of_the_other_seats_is_the_club_scale() -> None:
    for view in bidding_views(4, 20, seed=7):
        highest = max((c for _, c in view.bids if c is not None), default=None)
        scale = contract_for(hand_points(view.hand.mask), 4)
        expected = scale if scale is not None and (highest is None or scale > highest) else None
        assert heuristic_bid(view.hand.mask, 4, highest) == expected


def test_earlier_bids_are_evidence() -> None:
    """Seat 0 bid garde, seat 1 passed: in every world the heuristic holding seat 0's hand
    bids garde, and seat 1's hand is too weak to outbid it."""
    deal = deal_with_hand(4, HOPELESS, seat=2)
    deal.apply(Bid(0, Contract.GARDE))
    deal.apply(Bid(1, None))
    view = deal.view(2)
    tests = bid_evidence(view)
    assert [seat for seat, _ in tests] == [0, 1]  # the bidder first: its test rejects the most
    rng = random.Random(4)
    for _ in range(30):
        dealt, drawn = sample_before_play(view, rng, tests, 100_000)
        assert dealt is not None and drawn >= 1
        assert heuristic_bid(dealt[0], 4, None) == Contract.GARDE
        assert heuristic_bid(dealt[1], 4, Contract.GARDE) is None


def test_too_few_consistent_worlds_fall_back_to_the_heuristic() -> None:
    """A garde sans the heuristic would bid once in 20,000 hands: no world is found in budget,
    so the search bot bids as the heuristic does."""
    from tarot.bots.search import SearchBot

    deal = deal_with_hand(4, STRONG, seat=1)
    deal.apply(Bid(0, Contract.GARDE_SANS))
    view = deal.view(1)
    assert choose_bid(view, random.Random(0), 300, time.perf_counter() + 60) is None
    assert SearchBot(seed=0, playouts=300, think=30).act(view) == HeuristicBot(seed=0).act(view)


# --- sampled worlds ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_sampled_worlds_respect_the_view(players: int) -> None:
    rules = variant(players)
    rng = random.Random(players)
    checked = 0
    for view in bidding_views(players, 8, seed=players + 10):
        tests = bid_evidence(view)
        for _ in range(5):
            dealt, _ = sample_before_play(view, rng, tests, 100_000)
            if dealt is None:
                continue
            hands, chien = dealt[:-1], dealt[-1]
            assert hands[view.seat] == view.hand.mask  # my hand as it is
            assert all(h.bit_count() == rules.hand_size for h in hands)
            assert chien.bit_count() == rules.chien_size
            union = 0
            for mask in dealt:
                assert not union & mask  # no card in two places
                union |= mask
            assert union == (1 << 78) - 1
            assert all(h & (TRUMPS | EXCUSE_BIT) != PETIT_BIT for h in hands)  # R6 would have annulled
            for seat, test in tests:
                assert test(hands[seat])
            Deal(players, view.dealer, hands, chien)  # the engine accepts it as a deal
            checked += 1
    assert checked >= 30


def test_worlds_vary_and_keep_my_hand() -> None:
    view = deal_with_hand(4, STRONG).view(0)
    rng = random.Random(0)
    worlds = [sample_before_play(view, rng)[0] for _ in range(20)]
    assert all(w is not None and w[0] == view.hand.mask for w in worlds)
    assert len({tuple(w) for w in worlds if w is not None}) == 20


@pytest.mark.parametrize("players", [3, 4, 5])
def test_start_play_matches_the_engine(players: int) -> None:
    """The world set up directly at its first card is the one the engine reaches through checked
    actions with the heuristic's call and écart, and plays out to the same score."""
    for seed in range(6):
        world = Deal.new(players, 0, seed=seed)
        if world.is_over:
            continue
        taker = seed % players
        contract = Contract(seed % 4 + 1)
        fast = start_play(world, taker, contract)
        slow = world.copy()
        for i in range(players):
            seat = (1 + i) % players
            slow.apply(Bid(seat, contract if seat == taker else None))
        if slow.phase is Phase.CALL:
            slow.apply(Call(taker, call_choice(slow.hands[taker], cards_of(slow.callable_mask()))))
        if slow.phase is Phase.ECART:
            opts = slow.ecart_options()
            assert opts is not None
            ecart = ecart_choice(slow.hands[taker], opts.size, opts.allowed_mask, opts.trumps_needed)
            assert not ecart & (KINGS | OUDLERS)
            slow.apply(Ecart(taker, cards_of(ecart)))
        slow.apply(Chelem(taker, False))
        assert list(fast.hands) == list(slow.hands)
        assert list(fast.side) == list(slow.side)
        assert (fast.partner, fast.called, fast.ecart, fast.contract) == (
            slow.partner, slow.called, slow.ecart, slow.contract)
        assert (fast.phase, fast.turn, fast.legal_mask()) == (slow.phase, slow.turn, slow.legal_mask())
        play_out(fast)
        play_out(slow)
        if not fast.poignees:  # the heuristic's poignée is scored in the fast world only
            assert fast.result().scores == slow.result().scores


# --- determinism, budget, hidden cards ---------------------------------------------------------


def test_the_same_seed_gives_the_same_bid() -> None:
    for view in bidding_views(4, 5, seed=3):
        first = estimate_bids(view, random.Random(9), 200, time.perf_counter() + 60)
        second = estimate_bids(view, random.Random(9), 200, time.perf_counter() + 60)
        assert first == second
        assert first.worlds >= bidding.MIN_WORLDS


def test_the_bid_sees_only_the_view() -> None:
    """Two deals that look the same from the seat (its hand, the bids so far) but hide
    different cards get the same bid from the same seed: nothing but the view reaches it."""
    from tarot.bots.search import SearchBot

    for seed in range(4):
        a = deal_with_hand(4, STRONG.replace("T1 ", "T2 "), seed=seed, seat=1)
        b = deal_with_hand(4, STRONG.replace("T1 ", "T2 "), seed=seed + 100, seat=1)
        assert a.hands[1] == b.hands[1] and a.hands[0] != b.hands[0]
        a.apply(Bid(0, None))
        b.apply(Bid(0, None))
        assert a.view(1) == b.view(1)
        bid_a = SearchBot(seed=5, playouts=300, think=30).act(a.view(1))
        bid_b = SearchBot(seed=5, playouts=300, think=30).act(b.view(1))
        assert bid_a == bid_b


def test_the_search_bot_bids_by_simulation(monkeypatch: pytest.MonkeyPatch) -> None:
    from tarot.bots import search

    seen: list[object] = []

    def spy(view: View, rng: random.Random, budget: float, deadline: float, costs: object) -> Bid:
        seen.append(view)
        return Bid(view.seat, Contract.GARDE_SANS)

    monkeypatch.setattr(search, "choose_bid", spy)
    view = deal_with_hand(4, HOPELESS).view(0)
    assert search.SearchBot(seed=0, playouts=100, think=30).act(view) == Bid(0, Contract.GARDE_SANS)
    assert len(seen) == 1 and isinstance(seen[0], View)  # the view, never the deal
    assert HeuristicBot(seed=0).act(view) == Bid(0, None)  # the heuristic bot is unchanged


def test_the_bid_stops_at_the_deadline() -> None:
    from tarot.bots.search import SearchBot

    view = deal_with_hand(4, STRONG).view(0)
    bot = SearchBot(seed=0, think=0.05)
    bot.bid_budget = 1e12  # as if calibrated on a machine far faster than this one
    start = time.perf_counter()
    action = bot.act(view)
    # the decision ends at its think time; a world (a few deals played out) past it at most
    assert time.perf_counter() - start < 0.05 + 0.1
    assert action in view.legal



def test_the_seats_after_ours_bid_as_the_heuristic() -> None:
    """Pass is not worth 0: a strong hand after ours takes; it outbids a prise, not a garde contre."""
    mine, strong = mask_of(HOPELESS.split()), mask_of(STRONG.replace("1C", "5C").split())
    rest = [c for c in range(78) if not (mine | strong) >> c & 1]
    hands = [mine, sum(1 << c for c in rest[:18]), strong, sum(1 << c for c in rest[18:36])]
    view = Deal(4, 3, hands, sum(1 << c for c in rest[36:])).view(0)
    theirs = heuristic_bid(strong, 4, None)
    assert theirs is not None and Contract.PRISE < theirs < Contract.GARDE_CONTRE
    assert heuristic_bid(hands[1], 4, None) is None and heuristic_bid(hands[3], 4, theirs) is None
    assert bidding.bidding_outcome(hands, view, None) == (2, theirs)
    assert bidding.bidding_outcome(hands, view, Contract.PRISE) == (2, theirs)
    assert bidding.bidding_outcome(hands, view, Contract.GARDE_CONTRE) == (0, Contract.GARDE_CONTRE)


def test_the_attack_is_corrected_only_where_the_seat_itself_takes() -> None:
    """``ATTACK_CORRECTION`` (the playouts' understatement of a search taker, measured on
    outcomes) is added where the seat takes; where a later seat takes, the seat's score is the
    playout's own."""
    from tarot.bots.bidding import ATTACK_CORRECTION, _WorldScores, attack_correction
    from tarot.bots.playout import Board, score_args, score_of

    checked = set()
    for seed in range(200):
        deal = Deal.new(3, 2, seed=seed)
        if deal.phase is not Phase.BIDDING:
            continue
        view = deal.view(0)  # the first to speak: both later seats bid after it
        world = Deal.__new__(Deal)
        world._setup(variant(3), 2, list(deal.dealt), deal.chien)
        scores = _WorldScores(world, view, [*deal.dealt, deal.chien])
        for mine in (None, Contract.GARDE):
            taker, contract = bidding.bidding_outcome([*deal.dealt], view, mine)
            if taker is None or contract is None:
                continue
            played = start_play(world, taker, contract)
            packed = Board(played).play_out()
            correction = ATTACK_CORRECTION[3][contract] if taker == 0 else 0.0
            assert attack_correction(3, contract, taker, 0) == correction
            assert scores.of(mine) == score_of(packed, *score_args(played), correction)[0]
            checked.add(taker == 0)
    assert checked == {True, False}
    assert ATTACK_CORRECTION[3][Contract.GARDE] > 0


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_correction_scores_at_both_ends_of_the_count(players: int) -> None:
    """Each ``ATTACK_CORRECTION`` scores an outcome however few or many points the attack took:
    a negative one (the playouts overstating the attack) cannot make a count below 0, and none may
    make half points where R21 has none (4 players)."""
    from tarot.bots.bidding import ATTACK_CORRECTION
    from tarot.bots.playout import pack, score_of

    for contract, correction in ATTACK_CORRECTION[players].items():
        for half_points in (0, 1 if players != 4 else 2, 90, 181, 182):
            for oudlers in (0, 3):
                scores = score_of(pack(half_points, oudlers, -1, -1), players, 0, contract, None, (),
                                  False, correction)
                assert sum(scores) == 0
