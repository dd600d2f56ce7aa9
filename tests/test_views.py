"""Hidden information (DESIGN principle 6): a view never holds a card its seat may not see."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest

from playing import random_action
from tarot.engine import Bid, Card, Chelem, Contract, Deal, Ecart, IllegalAction, Phase, Play, mask_of
from tarot.engine.cards import cards_of, codes_of


def card_codes(obj: Any, skip: tuple[str, ...] = ("called", "call")) -> set[Card]:
    """Every card named anywhere in a JSON-like structure (names of called or callable cards are public)."""
    found: set[Card] = set()
    if isinstance(obj, dict):
        for key, value in obj.items():
            if key not in skip:
                found |= card_codes(value, skip)
    elif isinstance(obj, list):
        for item in obj:
            found |= card_codes(item, skip)
    elif isinstance(obj, str):
        with contextlib.suppress(ValueError):
            found.add(Card.parse(obj))
    return found


def public_cards(deal: Deal) -> int:
    """What everyone has seen: played cards, the chien when shown, écart trumps, poignées."""
    seen = sum(1 << c for t in deal.tricks for c in t.cards) | mask_of(deal.trick)
    if deal.contract is not None and deal.contract.chien_shown and deal.phase is not Phase.CALL:
        seen |= deal.chien
    seen |= deal.ecart_trumps
    for shown in deal.poignees.values():
        seen |= shown
    return seen


def assert_no_leak(deal: Deal) -> None:
    public = public_cards(deal)
    for seat in [*range(deal.players), -1]:
        allowed = public
        if seat >= 0:
            allowed |= deal.hands[seat]
            if seat == deal.taker:
                allowed |= deal.ecart
        view = deal.view(seat).to_dict()
        leaked = [c for c in card_codes(view) if not (1 << c) & allowed]
        assert not leaked, f"seat {seat} sees {leaked} in phase {deal.phase.value}"
        if seat >= 0:
            assert {str(c) for c in deal.hand(seat)} == set(view["hand"])


@pytest.mark.parametrize("players", [3, 4, 5])
def test_no_view_ever_shows_a_hidden_card(players: int) -> None:
    rng = random.Random(players)
    for k in range(60):
        deal = Deal.new(players, k % players, seed=1000 * players + k)
        assert_no_leak(deal)
        while not deal.is_over:
            deal.apply(random_action(deal, rng))
            assert_no_leak(deal)


def test_the_checker_sees_a_leak() -> None:
    deal = Deal.new(4, 0, seed=3)
    other = deal.hand(2)[0]
    assert Card.parse(str(other)) in card_codes({"x": [str(other)]})
    assert not (1 << other) & (public_cards(deal) | deal.hands[1])


def test_partner_is_known_only_once_the_called_card_falls() -> None:
    rng = random.Random(9)
    checked = 0
    for k in range(200):
        deal = Deal.new(5, 0, seed=k)
        while not deal.is_over and deal.phase is not Phase.PLAY:
            deal.apply(random_action(deal, rng))
        if deal.is_over or deal.partner is None or (deal.contract and deal.contract.chien_shown
                                                    and deal.chien & (1 << deal.called)):  # type: ignore[operator]
            continue
        outsiders = [s for s in range(5) if s not in (deal.taker, deal.partner)]
        assert deal.view(deal.partner).partner == deal.partner  # the partner knows (R8)
        while not deal.is_over:
            fell = any(deal.called in t.cards for t in deal.tricks) or deal.called in deal.trick
            for s in [*outsiders, deal.taker, -1]:  # -1: a spectator learns it with everyone
                assert deal.view(s).partner == (deal.partner if fell else None)
            deal.apply(random_action(deal, rng))
        checked += 1
    assert checked > 20


def test_views_offer_actions_only_to_the_seat_to_act() -> None:
    deal = Deal.new(4, 3, seed=11)
    assert deal.turn == 0
    assert deal.view(0).legal and not deal.view(1).legal
    assert all(not isinstance(a, Play) for a in deal.view(0).legal)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_view_dicts_equal_each_seats_own_view(players: int) -> None:
    """``view_dicts`` builds the shared part once; each seat's dict must still be exactly its view."""
    rng = random.Random(100 + players)
    seats = [*range(players), -1]
    cache: dict[object, object] = {}  # kept across positions and deals, as a server keeps it
    for k in range(25):
        deal = Deal.new(players, k % players, seed=f"dicts-{players}-{k}")
        while True:
            together = deal.view_dicts(seats)
            trimmed = deal.view_dicts(reversed(seats), last_tricks=1)
            public, own = deal.view_parts(seats, last_tricks=1)
            assert deal.view_parts(seats, 1, cache) == (public, own)  # the cache changes nothing
            for seat in seats:
                alone = deal.view(seat).to_dict()
                assert together[seat] == alone
                # a server serializes the shared part once and appends each seat's keys to it:
                # the two parts must not share a key, and must add up to the seat's view
                assert not public.keys() & own[seat].keys()
                reference = deal.view(seat).to_dict(1)  # built from the View, not from the parts
                assert list(public | own[seat]) == list(reference) and public | own[seat] == reference
                assert list(trimmed[seat]) == list(reference) and trimmed[seat] == reference
                for n in (2, 3):  # more than one, and more than are played early in the deal
                    assert deal.view_dicts([seat], last_tricks=n)[seat]["tricks"] == alone["tricks"][-n:]
                    assert deal.view(seat).to_dict(n)["tricks"] == alone["tricks"][-n:]
                assert trimmed[seat]["tricks_done"] == len(alone["tricks"])
                assert trimmed[seat]["tricks"] == alone["tricks"][-1:]
                assert {k: v for k, v in trimmed[seat].items() if k not in ("tricks", "tricks_done")} == \
                    {k: v for k, v in alone.items() if k != "tricks"}
            if deal.is_over:
                break
            deal.apply(random_action(deal, rng))
    with pytest.raises(ValueError, match="R4"):
        Deal.new(players, 0, seed=1).view_dicts([players])
    with pytest.raises(ValueError, match="R4"):
        Deal.new(players, 0, seed=1).view_parts([players], 1, {})


def test_view_parts_cache_rebuilds_only_the_seats_a_card_concerns() -> None:
    deal = Deal.new(4, 3, seed=5)
    rng = random.Random(5)
    while deal.phase is not Phase.PLAY:
        deal.apply(random_action(deal, rng))
    cache: dict[object, object] = {}
    _, before = deal.view_parts(range(4), 1, cache)
    player = deal.turn
    assert player is not None
    deal.apply(Play(player, cards_of(deal.legal_mask())[0]))
    _, after = deal.view_parts(range(4), 1, cache)
    for seat in range(4):
        if seat in (player, deal.turn):  # its hand changed; its turn came
            assert after[seat] is not before[seat]
        else:
            assert after[seat] is before[seat]
    assert after[player]["hand"] != before[player]["hand"] and after[player]["legal"] == []
    assert after[deal.turn]["legal"] and not before[deal.turn]["legal"]
    # another deal in the same cache starts afresh
    other = Deal.new(4, 3, seed=6)
    _, fresh = other.view_parts(range(4), 1, cache)
    assert fresh == other.view_parts(range(4), 1)[1] and fresh[1] is not after[1]
    while other.phase is not Phase.PLAY:  # nor does what the first deal's bidding decided
        other.apply(random_action(other, rng))
    assert other.view_parts(range(4), 1, cache)[0] == other.view_parts(range(4), 1)[0]


def test_a_taker_who_puts_back_the_chien_itself_is_shown_its_ecart() -> None:
    """The taker's hand after an écart of exactly the chien is its hand before the chien: the
    cached view must still change, to show the écart (``view_parts``' key holds the écart)."""
    for seed in range(200):
        deal = Deal.new(4, 3, seed=f"chien-back-{seed}")
        if deal.annulled:
            continue
        cache: dict[object, object] = {}
        bidding_hand = deal.view_parts(range(4), 1, cache)[1][1]["hand"]  # kept: not seat 1's turn
        for action in (Bid(0, None), Bid(1, Contract.PRISE), Bid(2, None), Bid(3, None)):
            deal.apply(action)
        back = Ecart(1, cards_of(deal.chien))
        try:
            deal.check(back)
        except IllegalAction:  # a king or a trump in the chien: not this seed
            continue
        deal.apply(back)
        while deal.turn == 1:  # (a chelem declined, if the taker is asked first)
            deal.apply(Chelem(1, False))
        _, own = deal.view_parts(range(4), 1, cache)
        assert own[1]["hand"] == bidding_hand  # the same hand, a different view
        assert own == deal.view_parts(range(4), 1)[1] and own[1]["ecart"] == codes_of(deal.chien)
        return
    pytest.fail("no seed with a chien that may go back as the écart")


@pytest.mark.parametrize("contract", [Contract.PRISE, Contract.GARDE, Contract.GARDE_SANS,
                                      Contract.GARDE_CONTRE])
def test_what_the_bidding_decided_is_shown_through_the_play(contract: Contract) -> None:
    """R10/R12: the chien is shown after a prise or a garde and stays public, never after a
    garde sans or a garde contre; R11: trumps put in the écart are shown; R13: an announced chelem is known.
    Checked through the server's path (``view_parts`` with its cache), card after card."""
    rng = random.Random(7)
    for seed in range(30):
        deal = Deal.new(4, 3, seed=f"settled-{contract.name}-{seed}")
        if deal.annulled:
            continue
        cache: dict[object, object] = {}  # from before the first bid: nothing may be kept too early
        for action in (Bid(0, contract), Bid(1, None), Bid(2, None), Bid(3, None)):
            assert deal.view_parts(range(4), 1, cache) == deal.view_parts(range(4), 1)
            deal.apply(action)
        chien = codes_of(deal.chien)
        if deal.phase is Phase.ECART:
            assert deal.view_parts(range(4), 1, cache) == deal.view_parts(range(4), 1)
            deal.apply(random_action(deal, rng))
        assert deal.view_parts(range(4), 1, cache) == deal.view_parts(range(4), 1)
        deal.apply(Chelem(0, True))
        positions = 0
        while not deal.is_over:
            positions += 1
            public, _ = deal.view_parts(range(4), 1, cache)
            assert public["contract"] == contract.name_text and public["taker"] == 0
            assert public["chien"] == (chien if contract.chien_shown else None)
            assert public["ecart_trumps"] == codes_of(deal.ecart_trumps)
            assert public["chelem_announced"] is True
            assert [b["bid"] for b in public["bids"]] == [contract.name_text, "pass", "pass", "pass"]
            assert [b["seat"] for b in public["bids"]] == [0, 1, 2, 3]  # R7: from the dealer's next
            deal.apply(random_action(deal, rng))
        assert positions >= 72  # every card of the deal (and any poignée) was looked at
        return
    pytest.fail("no deal without a petit sec")


def test_bids_are_shown_with_their_seats_from_the_seat_after_the_dealer() -> None:
    """R7: the first to speak sits after the dealer, whoever deals (here seat 1 of 5)."""
    deal = Deal.new(5, 1, seed="r7-seats")
    for _ in range(3):
        deal.apply(Bid(deal.turn, None) if deal.turn != 3 else Bid(3, Contract.GARDE))
    public, _ = deal.view_parts(range(5), 1, {})
    assert [(b["seat"], b["bid"]) for b in public["bids"]] == [(2, "pass"), (3, "garde"), (4, "pass")]
    assert [(b["seat"], b["bid"]) for b in deal.view(0).to_dict()["bids"]] == \
        [(2, "pass"), (3, "garde"), (4, "pass")]

