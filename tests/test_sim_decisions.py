"""The search bot's decisions before the first card by simulation (issue 19): the écart, the
5-player call, the chelem and the poignée. Each is legal, the same for the same seed, and sees
only the seat's view (hidden cards moved between other seats, the view unchanged: the same
choice); and each does what the heuristic would not where the playouts clearly say so."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from tarot.bots.announce_search import POIGNEE_WORLDS, poignee_gain
from tarot.bots.ecart_search import ecart_candidates
from tarot.bots.evaluation import ecart_choice
from tarot.bots.heuristic import HeuristicBot
from tarot.bots.opening import Estimates, sample_opening
from tarot.bots.search import SearchBot
from tarot.engine import Action, Bid, Call, Card, Chelem, Contract, Deal, Ecart, Poignee, View
from tarot.engine.cards import KINGS, OUDLERS, TRUMPS, mask_of
from tarot.engine.rules import variant


def cards(text: str) -> int:
    return mask_of(text.split())


def deal_of(players: int, seed: int, hand: str | None = None, seat: int = 0) -> Deal:
    """A deal dealt from ``seed``, seat 0 speaking first (``seat`` holding ``hand`` if given)."""
    size = variant(players).hand_size
    wanted = mask_of(hand.split()) if hand else 0
    cards = [c for c in range(78) if not wanted >> c & 1]
    random.Random(seed).shuffle(cards)
    hands = []
    for s in range(players):
        if hand and s == seat:
            hands.append(wanted)
            continue
        hands.append(sum(1 << c for c in cards[:size]))
        cards = cards[size:]
    return Deal(players, players - 1, hands, sum(1 << c for c in cards))


def reshuffled(deal: Deal, seats: list[int], with_chien: bool, seed: int) -> Deal:
    """The same deal with the cards of ``seats`` (and the chien) dealt again among them."""
    pool = [c for s in seats for c in range(78) if deal.dealt[s] >> c & 1]
    if with_chien:
        pool += [c for c in range(78) if deal.chien >> c & 1]
    random.Random(seed).shuffle(pool)
    hands = list(deal.dealt)
    for s in seats:
        n = deal.dealt[s].bit_count()
        hands[s], pool = sum(1 << c for c in pool[:n]), pool[n:]
    chien = sum(1 << c for c in pool) if with_chien else deal.chien
    return Deal(deal.players, deal.dealer, hands, chien)


Prelude = Callable[[Deal], None]


def heuristic_call(deal: Deal) -> Action:
    action = HeuristicBot(seed=0).act(deal.view(0))
    assert isinstance(action, Call)
    return action


def take(contract: Contract) -> Prelude:
    """Seat 0 bids ``contract``, the others pass."""
    def prelude(deal: Deal) -> None:
        deal.apply(Bid(0, contract))
        for seat in range(1, deal.players):
            deal.apply(Bid(seat, None))
    return prelude


def heuristic_until(phase_done: Callable[[Deal], bool]) -> Prelude:
    """The heuristic bot's actions (after seat 0's garde) until ``phase_done``."""
    def prelude(deal: Deal) -> None:
        take(Contract.GARDE)(deal)
        bot = HeuristicBot(seed=0)
        while not phase_done(deal):
            assert deal.turn is not None
            deal.apply(bot.act(deal.view(deal.turn)))
    return prelude


def bot(playouts: int = 300) -> SearchBot:
    """A search bot making every decision before the first card by simulation."""
    search = SearchBot(seed=7, playouts=playouts, think=30.0)
    search.simulated = ALL
    return search


ALL = frozenset({"ecart", "call", "poignee", "chelem"})


def test_the_search_bot_keeps_what_the_arena_measured_a_gain_for() -> None:
    assert SearchBot.simulated == {"ecart", "poignee"}
    deal = deal_of(4, 2, CHELEM_HAND[4])
    take(Contract.GARDE_SANS)(deal)
    plain = SearchBot(seed=7, playouts=300, think=30.0)
    assert plain.act(deal.view(0)) == Chelem(0, False)  # the heuristic's: not certain


def check_view_only(deal: Deal, prelude: Prelude, seat: int, others: list[int], with_chien: bool,
                    seed: int) -> Action:
    """The seat's action after ``prelude`` is the same when ``others`` hold other cards that the
    seat's view cannot tell apart; returns it."""
    twin = reshuffled(deal, others, with_chien, seed)
    prelude(deal)
    prelude(twin)
    assert deal.turn == twin.turn == seat
    view = deal.view(seat)
    assert view == twin.view(seat)
    assert [deal.hands[s] for s in others] != [twin.hands[s] for s in others]
    action = bot().act(view)
    assert bot().act(twin.view(seat)) == action
    return action


# --- the écart -------------------------------------------------------------------------------

def ecart_view(players: int, seed: int) -> tuple[Deal, View]:
    deal = deal_of(players, seed)
    take(Contract.GARDE)(deal)
    if deal.variant.calls_card:
        deal.apply(heuristic_call(deal))
    return deal, deal.view(0)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_ecart_candidates_are_legal_and_distinct(players: int) -> None:
    for seed in range(6):
        _, view = ecart_view(players, seed)
        o = view.ecart_options
        assert o is not None
        candidates = ecart_candidates(view.hand.mask, o.size, o.allowed_mask, o.trumps_needed)
        assert candidates[0] == ecart_choice(view.hand.mask, o.size, o.allowed_mask, o.trumps_needed)
        assert len(set(candidates)) == len(candidates) >= 2
        for ecart in candidates:
            assert ecart & ~o.allowed_mask == 0 and ecart.bit_count() == o.size
            assert not ecart & (KINGS | OUDLERS)
            assert (ecart & TRUMPS).bit_count() == o.trumps_needed


def test_forced_trumps_vary_only_the_trumps_shown() -> None:
    # 4 players: 24 cards, 2 plain allowed, 4 trumps needed
    hand = cards("T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 T17 T18 T19 T20 T21 EX T1 "
                 "KS KH KD KC 2S 3S")
    allowed = cards("2S 3S") | (hand & TRUMPS & ~OUDLERS)
    candidates = ecart_candidates(hand, 6, allowed, 4)
    assert candidates[0] == cards("2S 3S T2 T3 T4 T5")
    assert cards("2S 3S T17 T18 T19 T20") in candidates


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_simulated_ecart_is_legal_and_seeded(players: int) -> None:
    for seed in range(3):
        deal, view = ecart_view(players, seed)
        action = bot().act(view)
        assert isinstance(action, Ecart)
        assert bot().act(view) == action
        deal.apply(action)  # the engine accepts it (R10, R11)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_ecart_sees_only_the_view(players: int) -> None:
    def prelude(deal: Deal) -> None:
        take(Contract.GARDE)(deal)
        if deal.variant.calls_card:
            deal.apply(heuristic_call(deal))
    for seed in range(2):
        action = check_view_only(deal_of(players, seed), prelude, 0, list(range(1, players)), False, seed)
        assert isinstance(action, Ecart)


def test_sampled_opening_worlds_fit_the_view() -> None:
    _, view = ecart_view(4, 3)
    assert view.chien is not None
    rng = random.Random(1)
    for _ in range(20):
        dealt, _ = sample_opening(view, rng)
        assert dealt is not None
        assert dealt[0] == view.hand.mask & ~view.chien.mask and dealt[-1] == view.chien.mask
        union = 0
        for mask in dealt:
            assert not union & mask
            union |= mask
        assert union == (1 << 78) - 1


def test_a_better_ecart_must_beat_the_heuristics_clearly() -> None:
    noisy = Estimates({1: [0, 10, -10, 0], 2: [5, 0, 0, 5]})
    assert noisy.best_over(1, z=1.0) == 1  # +2.5 with a standard error of 4.3: keep
    clear = Estimates({1: [0, 10, -10, 0], 2: [10, 20, 1, 10]})
    assert clear.best_over(1, z=1.0) == 2


def test_the_search_bot_discards_by_simulation() -> None:
    """Somewhere the playouts prefer another écart than the heuristic's; the bot follows them."""
    differs = 0
    for seed in range(12):
        _, view = ecart_view(4, seed)
        o = view.ecart_options
        assert o is not None
        action = bot().act(view)
        assert isinstance(action, Ecart)
        differs += action.mask != ecart_choice(view.hand.mask, o.size, o.allowed_mask, o.trumps_needed)
    assert differs >= 1


# --- the call (5 players) ----------------------------------------------------------------------

def test_the_simulated_call_is_legal_seeded_and_sees_only_the_view() -> None:
    calls = set()
    for seed in range(4):
        deal = deal_of(5, seed)
        action = check_view_only(deal, take(Contract.GARDE), 0, [1, 2, 3, 4], True, seed)
        assert isinstance(action, Call) and action in deal.view(0).legal
        calls.add(action.card)
    assert len(calls) >= 2


def test_the_simulated_call_avoids_playing_alone_with_a_weak_hand() -> None:
    """Calling KS, which the taker holds, means playing alone: the playouts say not to."""
    deal = deal_of(5, 1, "KS 2S 3S 4H 5H 6D 7D 8C T3 T5 T8 T11 T14 T16 T19")
    take(Contract.PRISE)(deal)
    action = bot().act(deal.view(0))
    assert isinstance(action, Call) and str(action.card) != "KS"


# --- the chelem ----------------------------------------------------------------------------------

# 10 master trumps against 11 out: the heuristic is not certain, but trumps drawn, the rest wins.
CHELEM_HAND = {
    3: "T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 EX KS QS NS JS KH QH NH JH KD QD ND KC QC",
    4: "T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 EX KS QS NS KH QH KD KC",
    5: "T21 T20 T19 T18 T17 T16 T15 T14 T13 EX KS QS KH KD KC",
}


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_likely_chelem_is_announced(players: int) -> None:
    deal = deal_of(players, 2, CHELEM_HAND[players])
    take(Contract.GARDE_SANS)(deal)
    if deal.variant.calls_card:
        deal.apply(Call(0, Card.parse("QS")))  # all four kings held: a queen
    view = deal.view(0)
    assert view.phase == "announce"
    assert HeuristicBot(seed=0).act(view) == Chelem(0, False)
    assert bot().act(view) == Chelem(0, True)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_chelem_is_seeded_and_sees_only_the_view(players: int) -> None:
    def prelude(deal: Deal) -> None:
        take(Contract.GARDE_SANS)(deal)
        if deal.variant.calls_card:
            deal.apply(heuristic_call(deal))
    for seed in range(2):
        deal = deal_of(players, seed, CHELEM_HAND[players] if seed else None)
        action = check_view_only(deal, prelude, 0, list(range(1, players)), True, seed)
        assert isinstance(action, Chelem)
        assert action.announce == bool(seed)


# --- the poignée -----------------------------------------------------------------------------------

TRUMP_RICH = {  # a defender (seat 1) with a poignée: the defence wins against a weak prise
    3: "T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 KS KH QS 1D 2D 3D 4D 5D 6D 7D 8D",
    4: "T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T21 KS KH QS 1D 2D 3D 4D",
    5: "T2 T3 T4 T5 T6 T7 T8 T9 T21 KS KH QS 1D 2D 3D",
}


def first_card_of(seat: int) -> Callable[[Deal], bool]:
    return lambda deal: deal.phase.value == "play" and deal.turn == seat


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_defender_shows_a_poignee_the_defence_will_win(players: int) -> None:
    """The heuristic shows none as a defender; the playouts say the defence wins: show it."""
    deal = deal_of(players, 4, TRUMP_RICH[players], seat=1)
    heuristic_until(first_card_of(1))(deal)
    view = deal.view(1)
    assert view.poignee_options is not None
    assert HeuristicBot(seed=0).poignee(view) is None
    assert isinstance(bot().act(view), Poignee)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_poignee_is_legal_seeded_and_sees_only_the_view(players: int) -> None:
    """The taker's poignée, the defenders' cards moved around."""
    hand = {3: CHELEM_HAND[3], 4: "T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 KS QS KH 2D 3D 4C 5C 6C",
            5: "T21 T20 T19 T18 T17 T16 T15 T14 KS QS KH 2D 3D 4C 5C"}[players]
    for seed in range(2):
        deal = deal_of(players, seed, hand)
        action = check_view_only(deal, heuristic_until(first_card_of(0)), 0, list(range(1, players)),
                                 False, seed)
        if isinstance(action, Poignee):
            deal.apply(action)  # the engine accepts it (R14)


def test_the_prime_follows_the_side_that_wins() -> None:
    """The poignée's gain is the prime's sign for the side: a hand that loses shows none."""
    deal = deal_of(4, 5, "T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 1S 2S 3S 1H 2H 3H 1D 2D")
    heuristic_until(first_card_of(0))(deal)
    view = deal.view(0)
    assert view.poignee_options is not None
    from tarot.bots.announce_search import CardBudget

    gain, worlds = poignee_gain(view, 10, random.Random(1), CardBudget(100, 0.0, float("inf")))
    assert worlds >= 50 and gain < 0
    _, worlds = poignee_gain(view, 10, random.Random(1), CardBudget(10_000, 0.0, float("inf")))
    assert worlds == POIGNEE_WORLDS  # a sign needs no more: the decision stays within its time
    assert not isinstance(bot().act(view), Poignee)
