"""Hypothesis properties over random deals at 3, 4 and 5 players."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playing import random_action
from tarot.engine import (
    CARDS,
    Bid,
    Call,
    Card,
    Chelem,
    Contract,
    Deal,
    DealRecord,
    Ecart,
    IllegalAction,
    Phase,
    Play,
    Poignee,
    half_points,
    mask_of,
)
from tarot.engine.cards import FULL_DECK

deals = st.tuples(st.sampled_from([3, 4, 5]), st.integers(0, 4), st.integers(0, 2**32 - 1))


def play_checked(players: int, dealer: int, seed: int) -> Deal:
    """Play a random deal, checking at every step that the action was offered and that cards are kept."""
    deal = Deal.new(players, dealer % players, seed=seed)
    rng = random.Random(seed)
    while not deal.is_over:
        action = random_action(deal, rng)
        if isinstance(action, (Ecart, Poignee)):
            assert deal.is_legal(action)  # drawn from ecart_options()/poignee_options()
        else:
            assert action in deal.legal_actions()
        deal.apply(action)
        played = sum(1 << c for t in deal.tricks for c in t.cards) | mask_of(deal.trick)
        held = [h for h in deal.hands]
        aside = deal.ecart if deal.ecart else (0 if deal.contract and deal.contract.chien_shown
                                               and deal.phase is not Phase.CALL else deal.chien)
        parts = [*held, played, aside]
        assert sum(p.bit_count() for p in parts) == 78  # R1: 78 cards, none lost or doubled
        union = 0
        for p in parts:
            union |= p
        assert union == FULL_DECK
    return deal


def attack_points_by_hand(deal: Deal) -> float:
    """Count the attack's points from the tricks, written straight from R10, R12 and R17–R20."""
    attack = {deal.taker, deal.partner}
    half = 0
    last = len(deal.tricks) - 1
    for i, trick in enumerate(deal.tricks):
        winner_attack = trick.winner in attack
        for seat, card in trick.plays:
            if card.is_excuse and i != last:
                owner_attack = seat in attack
                half += 8 if owner_attack else 0  # EX counts 4 for its side…
                if owner_attack != winner_attack:
                    half += 1 if winner_attack else 0  # …and the winners get a 0.5 card from it
                elif winner_attack:
                    half += 1
            elif winner_attack:
                half += round(card.points * 2)
    assert deal.contract is not None
    if deal.contract.chien_shown:
        half += half_points(deal.ecart)
    elif deal.contract is Contract.GARDE_SANS:
        half += half_points(deal.chien)
    return half / 2


@settings(max_examples=150, deadline=None)
@given(deals)
def test_random_deals_keep_every_rule_invariant(params: tuple[int, int, int]) -> None:
    deal = play_checked(*params)
    result = deal.result()
    if result.annulled is not None:
        assert result.score is None
        return
    score = result.score
    assert score is not None
    assert sum(score.scores) == 0  # R24
    assert len(deal.tricks) == deal.variant.hand_size
    assert score.points == attack_points_by_hand(deal)
    defence = FULL_DECK & ~deal.attack_cards()
    assert half_points(deal.attack_cards()) + half_points(defence) == 182  # 91 points in all
    assert 0 <= score.points <= 91


@settings(max_examples=60, deadline=None)
@given(deals)
def test_replaying_the_written_record_gives_the_same_deal(params: tuple[int, int, int]) -> None:
    deal = play_checked(*params)
    text = DealRecord.from_deal(deal, game="g1", deal=3).to_json()
    again = DealRecord.from_json(text).replay()
    assert again.result() == deal.result()
    assert again.actions == [a for a in deal.actions]
    for seat in range(deal.players):
        assert again.view(seat) == deal.view(seat)
    assert DealRecord.from_json(text).to_json() == text


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([3, 4, 5]), st.integers(0, 2**64))
def test_same_seed_same_deal(players: int, seed: int) -> None:
    a, b = Deal.new(players, 0, seed=seed), Deal.new(players, 0, seed=seed)
    assert a.dealt == b.dealt and a.chien == b.chien
    c = Deal.new(players, 0, seed=seed + 1)
    assert (a.dealt, a.chien) != (c.dealt, c.chien)


@pytest.mark.parametrize("dealer", [-1, 4, 9, "0", True])
def test_new_refuses_a_dealer_who_is_not_a_seat(dealer: object) -> None:
    with pytest.raises(ValueError, match="R4: dealer"):
        Deal.new(4, dealer, seed=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="R4: dealer"):
        Deal(4, dealer, Deal.new(4, seed=1).dealt, Deal.new(4, seed=1).chien)  # type: ignore[arg-type]


def test_secure_deals_differ_and_are_complete() -> None:
    a, b = Deal.new(4), Deal.new(4)
    assert a.dealt != b.dealt
    assert sum(h.bit_count() for h in a.dealt) + a.chien.bit_count() == len(CARDS)


@settings(max_examples=60, deadline=None)
@given(deals)
def test_copy_is_independent(params: tuple[int, int, int]) -> None:
    players, dealer, seed = params
    deal = Deal.new(players, dealer % players, seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(0, 40)):
        if deal.is_over:
            break
        deal.apply(random_action(deal, rng))
    before = [deal.view(s) for s in range(players)]
    twin = deal.copy()
    while not twin.is_over:
        twin.apply(random_action(twin, rng))
    assert [deal.view(s) for s in range(players)] == before


def random_junk(rng: random.Random, players: int) -> object:
    """An action of any kind, mostly illegal: wrong seats, foreign cards, bad sizes, junk values."""
    seat = rng.choice([*range(players), -1, players, 7])
    card = rng.choice([*CARDS, 99, -1, "ZZ", None])
    some = rng.sample(CARDS, rng.choice([0, 1, 3, 6, 8, 10, 13]))
    return rng.choice([
        lambda: Bid(seat, rng.choice([None, *Contract, "garde"])),
        lambda: Call(seat, card),
        lambda: Ecart(seat, some),
        lambda: Chelem(seat, rng.random() < 0.5),
        lambda: Poignee(seat, some),
        lambda: Play(seat, card),
        lambda: "play KH",
    ])()


@settings(max_examples=80, deadline=None)
@given(deals)
def test_bad_actions_are_refused_and_change_nothing(params: tuple[int, int, int]) -> None:
    players, dealer, seed = params
    deal = Deal.new(players, dealer % players, seed=seed)
    rng = random.Random(seed)
    while not deal.is_over:
        for _ in range(5):
            try:
                junk = random_junk(rng, players)
            except ValueError:
                continue  # refused already when built (an unknown card code)
            legal = deal.legal_actions()
            expected_ok = junk in legal or (isinstance(junk, (Ecart, Poignee)) and deal.is_legal(junk))
            if expected_ok:
                continue
            before = (deal.view(-1), [deal.view(s) for s in range(players)], list(deal.actions))
            try:
                deal.apply(junk)  # type: ignore[arg-type]
            except ValueError as e:
                assert re.match(r"R\d+: ", str(e)), e  # every refusal names its rule
                # ... and its reason as a code a client can say in its language (issue 16)
                assert isinstance(e, IllegalAction) and e.why, e
                assert all(isinstance(v, str) for v in e.args_.values()), e.args_
            else:
                raise AssertionError(f"{junk!r} was applied but not offered")
            assert (deal.view(-1), [deal.view(s) for s in range(players)], list(deal.actions)) == before
        deal.apply(random_action(deal, rng))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_refused_card_says_why_in_a_code(players: int) -> None:
    """Every card a player may not play is refused with the reason's code and particulars:
    follow (with the suit), overtrump (with the card to beat), trump, the called suit (R9)."""
    seen: dict[str, dict[str, str]] = {}
    for seed in range(30):
        deal = Deal.new(players, 0, seed=seed)
        rng = random.Random(seed)
        while not deal.is_over:
            if deal.phase is Phase.PLAY:
                seat = deal.turn
                assert seat is not None
                legal = deal.legal_mask()
                for card in deal.hand(seat):
                    if not legal >> card & 1:
                        with pytest.raises(IllegalAction) as refused:
                            deal.apply(Play(seat, card))
                        seen[refused.value.why] = refused.value.args_
                other = deal.hand((seat + 1) % players)
                if other:
                    with pytest.raises(IllegalAction) as out_of_turn:
                        deal.apply(Play((seat + 1) % players, other[0]))
                    seen[out_of_turn.value.why] = out_of_turn.value.args_
            deal.apply(random_action(deal, rng))
    assert seen["must_follow"]["suit"] in "SHDC"
    assert Card.parse(seen["must_overtrump"]["card"]).is_trump
    assert "must_trump" in seen and "not_your_turn" in seen
    if players == 5:
        assert Card.parse(seen["called_suit_lead"]["card"]).rank >= 11


def _refused(deal: Deal, action: object) -> tuple[str, str, dict[str, str]]:
    with pytest.raises(IllegalAction) as refused:
        deal.apply(action)  # type: ignore[arg-type]
    return refused.value.rule, refused.value.why, refused.value.args_


def test_bidding_ecart_and_poignee_refusals_say_why_in_a_code() -> None:
    """R7 (a bid beats the one before), R10 (the écart's size), R11 (no king, no oudler in the
    écart), R14 (a poignée's sizes): each refusal carries its rule, its code and its particulars
    as a client shows them in its language (docs/protocol.md)."""
    for seed in range(500):  # a deal whose first bidder holds a king and an oudler after the chien
        deal = Deal.new(4, 0, seed=seed)
        first = deal.turn
        assert first is not None
        deal.apply(Bid(first, Contract.GARDE))
        assert _refused(deal, Bid(deal.turn, Contract.PRISE)) == ("R7", "bid_too_low", {"bid": "garde"})
        while deal.phase is Phase.BIDDING:
            deal.apply(Bid(deal.turn, None))
        hand = deal.hand(first)
        kings = [c for c in hand if c.rank == 14 and not c.is_trump]
        oudlers = [c for c in hand if str(c) in ("T1", "T21", "EX")]
        plain = [c for c in hand if not c.is_trump and c.rank != 14 and str(c) != "EX"]
        if kings and oudlers and len(plain) >= 6:
            break
    else:
        raise AssertionError("no such deal")
    size = deal.ecart_options().size  # type: ignore[union-attr]
    assert _refused(deal, Ecart(first, plain[:size - 1])) == ("R10", "ecart_size", {"count": str(size)})
    assert _refused(deal, Ecart(first, [kings[0], *plain[:size - 1]])) == (
        "R11", "ecart_king", {"card": str(kings[0])})
    assert _refused(deal, Ecart(first, [oudlers[0], *plain[:size - 1]])) == (
        "R11", "ecart_oudler", {"card": str(oudlers[0])})
    deal.apply(Ecart(first, plain[:size]))
    while deal.phase is not Phase.PLAY:
        deal.apply(deal.legal_actions()[0])
    seat = deal.turn
    assert seat is not None
    trumps = [c for c in deal.hand(seat) if c.is_trump][:3]
    if trumps:
        assert _refused(deal, Poignee(seat, trumps)) == ("R14", "poignee_size", {"counts": "10, 13, 15"})
