"""Sampled worlds built directly from the view (``worlds.WorldBuilder``) against the replay
(``sampler.rebuild``, the reference, which re-checks every public action): on thousands of
draws at 3, 4 and 5 players the direct world is the replayed one (the same state, the same view
for the seat, the same playouts and outcomes on either board), and a draw is refused exactly
when the replay refuses it or would show the seat another view."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from tarot.bots import search
from tarot.bots.heuristic import HeuristicBot
from tarot.bots.knowledge import Knowledge, knowledge_of
from tarot.bots.playout import Board, PureBoard, score_args
from tarot.bots.sampler import HiddenCards, WorldSampler, deal_hidden, rebuild, sample_world
from tarot.bots.worlds import WorldBuilder
from tarot.engine import CARDS, Bid, Chelem, Contract, Deal, Ecart, IllegalAction, Phase, Poignee, View
from tarot.engine.cards import FULL_DECK, KINGS

WORLDS_PER_COUNT = 1500
STATE = ("hands", "dealt", "chien", "ecart", "ecart_trumps", "taker", "contract", "called", "partner",
         "side", "won", "tricks_won", "excuse_adjust", "tricks", "trick", "trick_mask", "lead_mask",
         "trick_high", "leader", "turn", "poignees", "chelem_announced", "bids", "phase")


def play_views(deal: Deal, seed: int, chelem_rate: float = 0.3) -> list[View]:
    """The view of the seat to play at every card of ``deal`` played by heuristic bots (now and
    then with a chelem announced: it changes who leads)."""
    rng = random.Random(seed)
    players = deal.players
    bots = [HeuristicBot(seed=seed * 10 + s) for s in range(players)]
    out: list[View] = []
    while deal.phase is not Phase.DONE:
        seat = deal.turn
        assert seat is not None
        view = deal.view(seat)
        if deal.phase is Phase.PLAY:
            out.append(view)
        action = bots[seat].act(view)
        if isinstance(action, Chelem) and rng.random() < chelem_rate:
            action = Chelem(seat, True)
        deal.apply(action)
    return out


def replayed(view: View, k: Knowledge, hidden: list[int]) -> tuple[Deal | None, str]:
    """The replay's world, or None and why it refused (or showed the seat another view)."""
    try:
        world = rebuild(view, k, hidden)
    except IllegalAction as refused:
        return None, refused.why
    except ValueError as refused:
        return None, str(refused).split(":")[0]
    if world.view(k.seat) != view:
        return None, "another view"
    return world, ""


def same_boards(a: Deal, b: Deal) -> int:
    """Both worlds on both boards: each legal card then a playout, and a playout from the
    position: the same cards and outcomes. The number of playouts compared."""
    n = 0
    for board in {PureBoard, Board}:
        x, y = board(a), board(b)
        legal = y.legal()
        assert x.legal() == legal
        for card in range(78):
            if legal >> card & 1:
                assert x.after(card) == y.after(card)
                assert x.trace() == y.trace()
                n += 1
        assert x.play_out() == y.play_out()
        assert x.trace() == y.trace()
    return n


def compare(view: View, k: Knowledge, builder: WorldBuilder, hidden: list[int]) -> str:
    """The direct world against the replayed one; '' when both accept, else why they refuse."""
    direct = builder.build(hidden)
    reference, why = replayed(view, k, hidden)
    assert (direct is None) == (reference is None), why
    if direct is None or reference is None:
        return why
    for name in STATE:
        assert getattr(direct, name) == getattr(reference, name), name
    assert score_args(direct) == score_args(reference)
    assert direct.view(k.seat) == view
    assert same_boards(direct, reference) >= 1
    return ""


@pytest.mark.parametrize("players", [3, 4, 5])
def test_direct_worlds_are_the_replayed_ones(players: int) -> None:
    rng = random.Random(players)
    seen: Counter[str] = Counter()
    seed = 0
    while seen["worlds"] < WORLDS_PER_COUNT:
        seed += 1
        deal = Deal.new(players, seed % players, seed=seed)
        for view in play_views(deal, seed)[seed % 2::2]:
            k = knowledge_of(view)
            hidden_cards = HiddenCards(k, view.hand_sizes)
            builder = WorldBuilder(view, k)
            for _ in range(2):
                hidden = hidden_cards.draw(rng)
                if hidden is None:
                    continue
                why = compare(view, k, builder, hidden)
                if why:  # both refuse it: a hand dealt a petit sec (R6), say
                    seen["refused: " + why] += 1
                    continue
                seen["worlds"] += 1
                played = k.played
                seen["excuse played"] += played >> 77 & 1
                seen["petit played"] += played >> 56 & 1
                seen["late (2 tricks or fewer left)"] += len(view.tricks) >= deal.variant.tricks - 2
                seen["chelem announced"] += view.chelem_announced
                seen["partner unknown"] += players == 5 and view.partner is None
                seen["trick in progress"] += bool(view.trick)
    for case in ("excuse played", "petit played", "late (2 tricks or fewer left)", "chelem announced",
                 "trick in progress") + (("partner unknown",) if players == 5 else ()):
        assert seen[case] >= 30, (case, seen)
    assert sum(n for why, n in seen.items() if why.startswith("refused")) < seen["worlds"] / 50, seen


def loose(k: Knowledge) -> Knowledge:
    """The seat's knowledge without what the play and the écart's rules revealed: its draws
    break them often (voids, trump ceilings, kings or trumps in the écart, chien cards elsewhere)."""
    return dataclasses.replace(k, voids=[0] * k.players, pile_allowed=FULL_DECK, taker_or_pile=0)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_direct_worlds_refuse_what_the_replay_refuses(players: int) -> None:
    rng = random.Random(100 + players)
    reasons: Counter[str] = Counter()
    for seed in range(1, 40):
        deal = Deal.new(players, seed % players, seed=seed)
        for view in play_views(deal, seed)[::3]:
            k = knowledge_of(view)
            draws = HiddenCards(loose(k), view.hand_sizes)
            builder = WorldBuilder(view, k)
            for _ in range(3):
                hidden = draws.draw(rng)
                if hidden is not None:
                    reasons[compare(view, k, builder, hidden)] += 1
    assert reasons[""] >= 50, reasons  # accepted
    for why in ("must_follow", "must_trump", "must_overtrump"):
        assert reasons[why] >= 5, reasons
    if players in (3, 4):  # the seed range deals prises and gardes: an écart, and the chien shown
        assert reasons["R5"] >= 5, reasons  # a card of the shown chien in another hand
        assert sum(n for why, n in reasons.items() if why.startswith("ecart")) >= 5, reasons


def kings_to(deal: Deal, seat: int) -> Deal:
    """``deal`` with the four kings and the top trumps swapped into ``seat``'s hand."""
    strong = KINGS | sum(1 << c for c in range(70, 78))
    hands = list(deal.hands)
    chien = deal.chien
    for s in range(deal.players):
        if s == seat:
            continue
        for c in range(78):
            bit = 1 << c
            if hands[s] & bit and strong & bit:
                give = next(x for x in range(78) if hands[seat] >> x & 1 and not strong >> x & 1)
                hands[s] ^= bit | 1 << give
                hands[seat] ^= bit | 1 << give
    if chien & strong:
        for c in range(78):
            if chien >> c & 1 and strong >> c & 1:
                give = next(x for x in range(78) if hands[seat] >> x & 1 and not strong >> x & 1)
                chien ^= 1 << c | 1 << give
                hands[seat] ^= 1 << c | 1 << give
    return Deal(deal.players, deal.dealer, hands, chien)


def test_a_queen_called_means_the_taker_held_the_four_kings() -> None:
    """R8 at 5 players: a world where a king the seat cannot see lies elsewhere is refused."""
    refused = accepted = 0
    rng = random.Random(5)
    for seed in range(1, 13):
        deal = kings_to(Deal.new(5, 4, seed=seed), 0)
        views = play_views(deal, seed, chelem_rate=0)
        assert deal.called is not None and not 1 << deal.called & KINGS  # a queen
        for view in views[:12:2]:
            if view.seat == deal.taker:
                continue
            k = knowledge_of(view)
            builder = WorldBuilder(view, k)
            draws = HiddenCards(loose(k), view.hand_sizes)
            for _ in range(6):
                hidden = draws.draw(rng)
                if hidden is None:
                    continue
                why = compare(view, k, builder, hidden)
                refused += why == "bad_call"
                accepted += why == ""
    assert refused >= 10 and accepted >= 1


def test_hidden_draws_are_unchanged() -> None:
    """Setting the draw up once per view keeps the very draws (and random stream) of one call."""
    for players in (3, 5):
        deal = Deal.new(players, 1, seed=players)
        for view in play_views(deal, 3)[::4]:
            k = knowledge_of(view)
            once = HiddenCards(k, view.hand_sizes)
            a, b = random.Random(9), random.Random(9)
            for _ in range(5):
                assert once.draw(a) == deal_hidden(k, view.hand_sizes, b)


def test_the_search_means_are_those_of_replayed_worlds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Same seed and counts: the search's card means with direct worlds are those it had with
    the replay (the worlds are the same ones)."""
    for players in (4, 5):
        deal = Deal.new(players, 0, seed=21)
        for view in play_views(deal, 21)[1::7]:
            if len(view.legal) < 2:
                continue
            legal = sum(1 << int(a.card) for a in view.legal)  # type: ignore[attr-defined]
            direct = search.SearchBot(seed=2, playouts=150).card_means(view, knowledge_of(view), legal)
            monkeypatch.setattr("tarot.bots.sampler.WorldBuilder", lambda view, k: None)
            sampler = WorldSampler(view, knowledge_of(view))
            assert sampler.builder is None  # the replay draws
            replay = search.SearchBot(seed=2, playouts=150).card_means(view, knowledge_of(view), legal)
            monkeypatch.undo()
            assert direct == replay


def test_trumps_of_the_ecart_shown_in_a_poignee_are_not_in_the_hand() -> None:
    """The taker's poignée may show the trumps it had to put in the écart (R11, R14): those lie in
    the écart, not in its hand, and the defenders' draws still find worlds."""
    hand = KINGS | sum(1 << c for c in range(57, 71))
    chien = sum(1 << c for c in range(71, 76)) | 1 << 0
    rest = [c for c in range(78) if not (hand | chien) >> c & 1]
    hands = [hand] + [sum(1 << c for c in rest[i * 18:(i + 1) * 18]) for i in range(3)]
    deal = Deal(4, 3, hands, chien)
    for seat, contract in enumerate((Contract.GARDE, None, None, None)):
        deal.apply(Bid(seat, contract))
    ecart = [CARDS[0]] + [CARDS[c] for c in range(57, 62)]  # no other plain card: 5 trumps (R11)
    deal.apply(Ecart(0, ecart))
    deal.apply(Chelem(0, False))
    deal.apply(Poignee(0, [CARDS[c] for c in range(57, 72)]))  # 15 trumps, 5 of them in the écart
    deal.play(CARDS[75])
    view = deal.view(1)
    k = knowledge_of(view)
    assert not k.held[0] & k.pile_known
    rng = random.Random(1)
    worlds = [w for w in (sample_world(view, k, rng) for _ in range(20)) if w is not None]
    assert len(worlds) >= 5  # none before: the taker's hand looked 5 cards too full
    assert all(w.view(1) == view for w in worlds)
