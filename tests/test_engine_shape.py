"""The engine's shape (issue 20): ``apply`` returns the action and keeps one ``actions`` list,
card sets are values, the options produce legal choices, one action table."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from playing import random_action
from tarot.engine import (
    CARDS,
    FULL_DECK,
    PETIT_BIT,
    PLAIN,
    TRUMPS,
    Bid,
    Card,
    CardSet,
    Contract,
    Deal,
    Ecart,
    IllegalAction,
    Phase,
    Play,
    Poignee,
    cards_of,
    mask_of,
)

masks = st.integers(min_value=0, max_value=FULL_DECK)


def test_apply_and_play_return_the_action_and_log_it() -> None:
    deal = Deal.new(4, 0, seed=5)
    bid = Bid(1, None)
    assert deal.apply(bid) is bid and deal.actions == [bid]
    rng = random.Random(1)
    while deal.phase is not Phase.PLAY:
        deal.apply(random_action(deal, rng))
    copy = deal.copy()
    card = deal.legal_plays()[0]
    played = deal.play(card)
    assert played == Play(deal.actions[-1].seat, card) and deal.actions[-1] is played
    assert len(copy.actions) == len(deal.actions) - 1  # the copy has its own list
    again = copy.apply(Play(played.seat, card))
    assert again is played  # the same interned action
    assert copy.actions == deal.actions


def test_a_refused_action_is_not_logged() -> None:
    deal = Deal.new(4, 0, seed=5)
    with pytest.raises(IllegalAction):
        deal.apply(Bid(2, None))  # out of turn
    assert deal.actions == []


def test_every_action_of_a_random_deal_is_in_actions_in_order() -> None:
    rng = random.Random(9)
    for players in (3, 4, 5):
        deal = Deal.new(players, 0, seed=players)
        applied = []
        while not deal.is_over:
            applied.append(deal.apply(random_action(deal, rng)))
        assert deal.actions == applied


@given(masks, masks)
def test_card_sets_behave_as_sets_of_cards(a: int, b: int) -> None:
    x, y = CardSet(a), CardSet(b)
    assert set(x & y) == set(x) & set(y)
    assert set(x | y) == set(x) | set(y)
    assert set(x ^ y) == set(x) ^ set(y)
    assert set(x - y) == set(x) - set(y)
    assert set(~x) == set(CARDS) - set(x)
    assert len(x) == len(set(x)) == a.bit_count()
    assert list(x) == cards_of(a) and all(c in x for c in x) and all(str(c) in x for c in x)
    assert eval(repr(x)) == x and hash(eval(repr(x))) == hash(x)
    assert CardSet.parse(str(x)) == x and int(x) == x.mask == a
    assert bool(x) == (a != 0)


def test_card_sets_are_values() -> None:
    hand = CardSet.parse("KH T21 EX")
    with pytest.raises(AttributeError):
        hand.mask = 0  # type: ignore[misc]
    assert hand == (Card.parse("EX"), Card.parse("KH"), Card.parse("T21"))  # any order
    assert {hand: 1}[CardSet(mask_of(["T21", "EX", "KH"]))] == 1
    with pytest.raises(ValueError):
        CardSet(1 << 78)
    with pytest.raises(ValueError):
        CardSet.parse("KH KH")
    assert CardSet(PLAIN) == CardSet(FULL_DECK) - TRUMPS - CardSet.parse("EX")
    assert list(CardSet(PETIT_BIT)) == [Card.parse("T1")]


def test_views_hold_card_sets() -> None:
    deal = Deal.new(3, 0, seed=4)
    view = deal.view(1)
    assert isinstance(view.hand, CardSet) and view.hand.mask == deal.hands[1]
    assert len(view.hand) == 24


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_options_choices_are_legal(players: int) -> None:
    """``EcartOptions.choose`` (with and without a random source) and ``PoigneeOptions.choose``
    for every open size: the deal takes each one."""
    rng = random.Random(players)
    ecarts = poignees = 0
    for k in range(60):
        deal = Deal.new(players, k % players, seed=k)
        while not deal.is_over:
            if deal.phase is Phase.BIDDING:  # a prise, so that the chien is shown
                deal.apply(Bid(deal.turn, None if deal.taker is not None else Contract.PRISE))  # type: ignore[arg-type]
                continue
            opts = deal.ecart_options()
            if opts is not None:
                deal.copy().apply(Ecart(opts.seat, opts.choose()))
                deal.apply(Ecart(opts.seat, opts.choose(rng)))
                ecarts += 1
                continue
            shown = deal.poignee_options()
            if shown is not None:
                for _, count in shown.sizes:
                    cards = shown.choose(count)
                    assert cards is not None
                    deal.copy().apply(Poignee(shown.seat, cards))
                    poignees += 1
            deal.apply(random_action(deal, rng))
    assert ecarts > 50 and poignees > 0
