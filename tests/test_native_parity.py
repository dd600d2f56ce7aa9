"""The native core (``_core.pyx``) against the pure one (``core.py``) and today's ``Deal``: seeded
random deals at 3, 4 and 5 players, every legal set, state, copy and count compared."""

from __future__ import annotations

import os
import pickle
import random
import subprocess
import sys
from typing import Any

import pytest

from tarot.engine import (
    CARDS,
    Annulment,
    Bid,
    Chelem,
    Contract,
    Deal,
    Ecart,
    IllegalAction,
    Phase,
    cards_of,
    core,
    scoring,
    variant,
)
from tarot.engine.cards import EXCUSE_BIT, PETIT_BIT, TRUMPS
from tarot.engine.rules import PoigneeSize, Side

native = pytest.importorskip("tarot.engine._core", reason="the native core is not built")

CORES = (core.DealCore, native.DealCore)
DEALS_PER_COUNT = 700


def _field(deal: Deal, name: str, old: str) -> Any:
    """A Deal field under its new name, or today's (``var``, ``high``, ``highest``)."""
    return getattr(deal, name) if hasattr(deal, name) else getattr(deal, old)


def core_from(deal: Deal, cls: type[core.DealCore]) -> core.DealCore:
    """A core in ``deal``'s card-play position (after the bidding, the call and the écart)."""
    c = cls.__new__(cls)
    c._setup(_field(deal, "variant", "var"), deal.dealer, list(deal.dealt), deal.chien)
    c.hands = list(deal.hands)
    c.phase = core.Phase(deal.phase.value)
    c.turn, c.leader = deal.turn, deal.leader
    c.side = list(deal.side)
    c.bids, c.high_bid = list(deal.bids), _field(deal, "high_bid", "highest")
    c.taker, c.contract, c.called, c.partner = deal.taker, deal.contract, deal.called, deal.partner
    c.ecart, c.ecart_trumps = deal.ecart, deal.ecart_trumps
    c.chelem_announced, c.poignees = deal.chelem_announced, dict(deal.poignees)
    c.actions = list(deal.actions)
    return c


def state(d: Any) -> tuple[Any, ...]:
    """Everything card play changes, comparable across Deal and both cores."""
    return (d.legal_mask(), list(d.hands), list(d.trick), list(d.tricks), list(d.won), list(d.tricks_won),
            d.turn, d.leader, list(d.actions), d.trick_mask, d.lead_mask,
            _field(d, "trick_high", "high"), d.excuse_adjust, d.phase.value, list(d.side), d.called)


def bid_and_discard(deal: Deal, rng: random.Random) -> None:
    """Random legal bids and call, a random legal écart, a chelem announced now and then."""
    while deal.phase not in (Phase.PLAY, Phase.DONE):
        if deal.phase is Phase.ECART:
            opts = deal.ecart_options()
            assert opts is not None
            allowed = cards_of(opts.allowed_mask)
            plain = [c for c in allowed if not c.is_trump]
            trumps = [c for c in allowed if c.is_trump]
            cards = (plain + rng.sample(trumps, opts.trumps_needed) if opts.trumps_needed
                     else rng.sample(allowed, opts.size))
            deal.apply(Ecart(opts.seat, cards))
        elif deal.phase is Phase.ANNOUNCE:
            deal.apply(Chelem(deal.taker, rng.random() < 0.1))  # type: ignore[arg-type]
        else:
            deal.apply(rng.choice(deal.legal_actions()))


def play_side_by_side(deal: Deal, rng: random.Random) -> None:
    pure, fast = (core_from(deal, cls) for cls in CORES)
    copy_at = rng.randrange(deal.players * 3)
    step = 0
    while deal.phase is Phase.PLAY:
        expected = state(deal)
        assert state(pure) == expected
        assert state(fast) == expected
        legal = cards_of(deal.legal_mask())
        if step == copy_at:
            check_copies(pure, fast, rng.choice(legal))
        illegal = [c for c in cards_of(deal.hands[deal.turn]) if c not in legal]  # type: ignore[index]
        if illegal:
            for c in (pure, fast):
                with pytest.raises(IllegalAction):
                    c.play(illegal[0])
        card = rng.choice(legal)
        deal.play(card)
        assert pure.play(card) == fast.play(card) == deal.actions[-1]
        step += 1
    assert state(pure) == state(fast) == state(deal)
    assert pure.attack_cards() == fast.attack_cards() == deal.attack_cards()
    count = pure.count()
    assert fast.count() == count
    assert pure.result() == fast.result() == deal.result()  # (the count and the score, both cores)
    score = deal.result().score
    assert score is not None
    assert (count.points, count.oudlers, count.petit_au_bout) == (score.points, score.oudlers,
                                                                  score.petit_au_bout)


def check_copies(pure: core.DealCore, fast: core.DealCore, card: int) -> None:
    """A copy equals its original, and playing on it leaves the original as it was."""
    for c in (pure, fast):
        before = state(c)
        twin = c.copy()
        assert type(twin) is type(c)
        assert state(twin) == before
        twin.play(card)
        assert state(c) == before
        assert state(twin) != before


@pytest.mark.parametrize("players", [3, 4, 5])
def test_native_and_pure_cores_play_every_deal_alike(players: int) -> None:
    played = 0
    for seed in range(DEALS_PER_COUNT):
        rng = random.Random(seed)
        deal = Deal.new(players, seed % players, rng=rng)
        bid_and_discard(deal, rng)
        if deal.phase is Phase.PLAY:
            play_side_by_side(deal, rng)
            played += 1
    assert played > DEALS_PER_COUNT // 2


@pytest.mark.parametrize("players", [3, 4, 5])
def test_both_cores_deal_the_cards_of_todays_deal(players: int) -> None:
    for seed in range(200):
        today = Deal.new(players, seed % players, seed=seed)
        for cls in CORES:
            dealt = cls.new(players, seed % players, seed=seed)
            assert (list(dealt.hands), dealt.chien, dealt.dealt) == (today.hands, today.chien, today.dealt)
            assert dealt.phase is core.Phase.BIDDING and dealt.turn == (seed % players + 1) % players
        # from a generator: the same cards, and the generator left in the same state
        rngs = [random.Random(seed) for _ in range(3)]
        hands = [Deal.new(players, 0, rng=rngs[0]).hands] + [list(cls.new(players, 0, rng=r).hands)
                                                            for cls, r in zip(CORES, rngs[1:], strict=True)]
        assert hands[0] == hands[1] == hands[2]
        assert len({r.random() for r in rngs}) == 1


def test_a_generator_other_than_random_random_deals_through_its_own_random() -> None:
    class Counting(random.Random):
        calls = 0

        def random(self) -> float:
            Counting.calls += 1
            return super().random()

    a, b = Counting(7), random.Random(7)
    assert list(native.DealCore.new(4, 0, rng=a).hands) == core.DealCore.new(4, 0, rng=b).hands
    assert Counting.calls == 78


def test_a_python_subclass_of_the_native_core_writes_through_its_sequences() -> None:
    class Sub(native.DealCore):  # type: ignore[misc, name-defined]
        __slots__ = ()

        def __init__(self, players: int, dealer: int, hands: list[int], chien: int) -> None:
            self._setup(variant(players), dealer, hands, chien)  # as Deal's constructor does

    deal = Sub.new(5, 2, seed=3)
    assert Sub(5, 2, list(deal.hands), deal.chien).hands == deal.hands
    assert isinstance(deal, Sub) and isinstance(deal.copy(), Sub)
    chien = deal.chien
    deal.hands[-1] |= chien
    deal.side[1] = core.ATTACK
    assert deal.hands[4] == deal.dealt[4] | chien and deal.hands[4] & chien == chien
    assert deal.side == [1, 0, 1, 1, 1] and deal.side[1:3] == [0, 1]
    assert deal.copy().hands == deal.hands
    with pytest.raises(IndexError):
        deal.hands[5]
    assert deal.legal_mask() == 0  # bidding: no card to play
    with pytest.raises(IllegalAction):
        deal.play(CARDS[0])


@pytest.mark.parametrize(("env", "expected"), [("0", "False"), ("1", "True")])
def test_tarot_native_chooses_the_core(env: str, expected: str) -> None:
    out = subprocess.run([sys.executable, "-c", "import tarot.engine as e; print(e.NATIVE)"],
                         env={**os.environ, "TAROT_NATIVE": env}, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == expected


@pytest.mark.parametrize("cls", CORES)
def test_a_core_in_play_pickles_whole(cls: type[core.DealCore]) -> None:
    """The native core pickles its masks as Python ints (Cython's own pickling would cut them)."""
    rng = random.Random(11)
    deal = Deal.new(5, 0, rng=rng)
    bid_and_discard(deal, rng)
    c = core_from(deal, cls)
    for _ in range(23):
        card = rng.choice(cards_of(deal.legal_mask()))
        deal.play(card)
        c.play(card)
    twin = pickle.loads(pickle.dumps(c))
    assert type(twin) is cls and state(twin) == state(c) == state(deal)
    assert (twin.chien, twin.dealt, twin.contract) == (deal.chien, deal.dealt, deal.contract)


def bidding_state(d: Any) -> tuple[Any, ...]:
    return (d.phase.value, d.turn, list(d.bids), d.high_bid, d.taker, d.contract, list(d.side), list(d.hands),
            d.annulled, d.petit_sec_seat, list(d.actions), d.legal_mask())


@pytest.mark.parametrize("players", [3, 4, 5])
def test_both_cores_bid_as_the_deal_does(players: int) -> None:
    """The bidding (R7), the all-pass and petit-sec annulments (R6) and the phase steps up to the
    call or the écart are the core's: both cores, bare, end each seeded deal's bidding as ``Deal``
    does, and refuse the same bids (changing nothing)."""
    outcomes = set()
    for seed in range(400):
        rng = random.Random(seed)
        deal = Deal.new(players, seed % players, seed=seed)
        cores = [cls.new(players, seed % players, seed=seed) for cls in CORES]
        while deal.phase is Phase.BIDDING:
            wrong = Bid(deal.turn + 1, None) if rng.random() < 0.3 else None  # type: ignore[operator]
            if wrong is not None or deal.high_bid is not None:
                bad = wrong or Bid(deal.turn, deal.high_bid)  # (not higher than the highest)
                before = [bidding_state(c) for c in cores]
                assert [c._bid(bad) for c in cores] == [False, False]
                assert [bidding_state(c) for c in cores] == before
            legal = deal.legal_actions()
            bid = legal[0] if rng.random() < 0.6 else rng.choice(legal)  # (a pass, often: all-pass deals)
            deal.apply(bid)
            assert [c._bid(bid) for c in cores] == [True, True]
        assert bidding_state(cores[0]) == bidding_state(cores[1]) == bidding_state(deal)
        outcomes.add(deal.annulled.value if deal.annulled else deal.phase.value)
        if deal.is_over:
            assert cores[0].result() == cores[1].result() == deal.result()
    # (at five the bidding ends with the call, R8; else with the écart or, garde sans or contre, the chelem)
    assert outcomes >= ({"all_pass", "call"} if players == 5 else {"all_pass", "ecart", "announce"})


def test_a_petit_sec_is_annulled_as_it_is_dealt() -> None:
    """R6: a hand whose only trump is the Petit (no Excuse) ends the deal at once, in both cores."""
    found = 0
    for seed in range(3000):
        deals = [cls.new(4, 0, seed=seed) for cls in CORES]
        sec = [s for s, h in enumerate(deals[0].hands) if h & (TRUMPS | EXCUSE_BIT) == PETIT_BIT]
        for d in deals:
            assert (d.petit_sec_seat, d.annulled) == ((sec[0], Annulment.PETIT_SEC) if sec else (None, None))
            assert d.phase is (Phase.DONE if sec else Phase.BIDDING)
        if sec:
            assert deals[0].result() == deals[1].result()
            assert deals[0].result().petit_sec_seat == sec[0]
            found += 1
    assert found > 0


def test_the_native_scoring_is_the_references() -> None:
    """``_core.score_played`` (R21–R24 in C) gives the very ``Score`` of ``scoring.score_played``,
    field for field and type for type, on every input a played deal can give."""
    rng = random.Random(5)
    checked = 0
    for players in (3, 4, 5):
        var = variant(players)
        for contract in Contract:
            for oudlers in range(4):
                for half in range(183):
                    points = half / 2
                    if points != int(points) and not var.half_points:
                        continue
                    taker = rng.randrange(players)
                    others = [s for s in range(players) if s != taker]
                    partner = rng.choice(others) if players == 5 and rng.random() < 0.7 else None
                    args = (var, taker, contract, oudlers, points, partner,
                            rng.choice([None, Side.ATTACK, Side.DEFENCE]),
                            tuple(rng.sample(list(PoigneeSize) * 2, rng.randrange(3))), rng.random() < 0.2,
                            rng.choice([None, None, Side.ATTACK, Side.DEFENCE]))
                    pure, fast = scoring.score_played(*args), native.score_played(*args)
                    assert fast == pure
                    assert [type(getattr(fast, f)) for f in pure.__slots__] == \
                        [type(getattr(pure, f)) for f in pure.__slots__]
                    checked += 1
    assert checked > 7000
