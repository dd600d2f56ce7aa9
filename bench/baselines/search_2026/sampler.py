"""Determinization: deal the cards a seat cannot see, consistently with everything it knows.

The sample respects the hand sizes, the voids and trump ceilings revealed by the play, the
poignées shown, the chien when it was shown (its cards are with the taker or in the écart), the
écart's rules (R11: no king, no oudler, trumps only those shown) and the seat's own écart. In
the card play the world is then built directly from the hidden cards and the view
(``worlds.WorldBuilder``), which refuses what the rules would not allow (a player who could
have followed, say) and so draws again; ``rebuild``, the reference it is tested against, gets
there by replaying the public actions through the engine, which re-checks every one.

Before the play (``sample_before_play``, for the bidding) only the seat's own hand is known, plus
whatever the caller infers from the bids, given as tests on the other hands.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from tarot.engine import Bid, Call, Chelem, Deal, Ecart, IllegalAction, Poignee, View
from tarot.engine.cards import CARDS, EXCUSE_BIT, PETIT_BIT, TRUMPS, cards_of

from .knowledge import Knowledge
from .worlds import WorldBuilder

ATTEMPTS = 30  # draws tried before giving up on one world


class HiddenCards:
    """The draws of the cards a seat cannot see: where each may lie is worked out once per view,
    then ``draw(rng)`` deals them (what the search does many times a decision)."""

    def __init__(self, k: Knowledge, hand_sizes: tuple[int, ...]) -> None:
        n = k.players
        pile = n
        room = [0] * (n + 1)
        for s in range(n):
            if s != k.seat:
                room[s] = hand_sizes[s] - k.held.get(s, 0).bit_count()
        room[pile] = k.pile_size - k.pile_known.bit_count()
        self.room = room
        self.places: list[tuple[int, tuple[int, ...], int]] | None = None  # None: no deal fits
        cards: list[int] = cards_of(k.unseen)  # type: ignore[assignment]
        if sum(room) != len(cards) or min(room) < 0:
            return
        places = []
        for c in cards:
            bit = 1 << c
            if bit & k.taker_or_pile and k.taker is not None:
                options = [p for p in (k.taker, pile) if room[p] and (p == pile or not k.voids[p] & bit)]
            else:
                options = [s for s in range(n) if s != k.seat and room[s] and not k.voids[s] & bit]
                if room[pile] and bit & k.pile_allowed:
                    options.append(pile)
            if not options:
                return
            places.append((c, tuple(options), len(options)))
        self.places = places

    def draw(self, rng: random.Random) -> list[int] | None:
        """Masks for each seat's hidden cards plus, last, the set-aside pile; None if a draw fails.

        Cards with the fewest possible places go first; each goes to a place drawn with a weight
        of its free room, which keeps the draw close to uniform among consistent deals.
        """
        if self.places is None:
            return None
        rand = rng.random
        room = self.room[:]
        out = [0] * len(room)
        for c, options, count in sorted(self.places, key=lambda item: (item[2], rand())):
            if count == 1:  # one place: no choice, but the random stream is the same
                place = options[0]
                if not room[place]:
                    return None
                rand()
                room[place] -= 1
                out[place] |= 1 << c
                continue
            total = 0
            for p in options:
                total += room[p]
            if not total:
                return None
            pick = rand() * total
            place = -1
            for p in options:
                free = room[p]
                if free:
                    place = p
                    pick -= free
                    if pick < 0:
                        break
            room[place] -= 1
            out[place] |= 1 << c
        return out


def deal_hidden(k: Knowledge, hand_sizes: tuple[int, ...], rng: random.Random) -> list[int] | None:
    """One ``HiddenCards`` draw."""
    return HiddenCards(k, hand_sizes).draw(rng)


def rebuild(view: View, k: Knowledge, hidden: list[int]) -> Deal:
    """The world where the hidden cards are ``hidden``: a deal replayed to the view's position.
    Raises IllegalAction (or ValueError) when the sample contradicts the public play."""
    n = k.players
    now = [k.hand if s == k.seat else hidden[s] | k.held.get(s, 0) for s in range(n)]
    pile = hidden[n] | k.pile_known
    dealt = [now[s] | k.played_by[s] for s in range(n)]
    contract = view.contract
    taker = view.taker
    ecart = 0
    if taker is not None and contract is not None and contract.chien_shown and view.chien is not None:
        chien = view.chien.mask
        ecart = pile
        dealt[taker] = (dealt[taker] | pile) & ~chien
    else:
        chien = pile
    deal = Deal(n, view.dealer, dealt, chien)
    for seat, bid in view.bids:
        deal.apply(Bid(seat, bid))
    if view.called is not None and taker is not None:
        deal.apply(Call(taker, view.called))
    if ecart and taker is not None:
        deal.apply(Ecart(taker, cards_of(ecart)))
    if taker is not None and view.phase in ("play", "done"):
        deal.apply(Chelem(taker, view.chelem_announced))
    tricks = [(t.leader, t.cards) for t in view.tricks]
    if view.trick:
        assert view.trick_leader is not None
        tricks.append((view.trick_leader, view.trick))
    first = True
    for leader, cards in tricks:
        for i, card in enumerate(cards):
            seat = (leader + i) % n
            if first and seat in view.poignees:
                deal.apply(Poignee(seat, view.poignees[seat]))
            deal.play(CARDS[card], seat)
        first = False
    for seat, shown in view.poignees.items():  # shown by the seat to play, before its card
        if seat not in deal.poignees:
            deal.apply(Poignee(seat, shown))
    return deal


class WorldSampler:
    """Consistent worlds at one view's position: the hidden cards drawn (``HiddenCards``), then
    the world built from them directly in the card play (``worlds.WorldBuilder``), else by the
    replay (``rebuild``). Set up once per decision, it draws as many worlds as the search needs."""

    def __init__(self, view: View, k: Knowledge) -> None:
        self.view = view
        self.k = k
        self.hidden = HiddenCards(k, view.hand_sizes)
        self.builder = WorldBuilder(view, k) if view.phase == "play" else None

    def draw(self, rng: random.Random, attempts: int = ATTEMPTS) -> tuple[Deal | None, int]:
        """A consistent world and the number of draws it took (what the search's budget
        charges), or ``(None, attempts)`` when every draw failed."""
        builder = self.builder
        for draws in range(1, attempts + 1):
            hidden = self.hidden.draw(rng)
            if hidden is None:
                continue
            if builder is not None:
                world = builder.build(hidden)
                if world is not None:
                    return world, draws
                continue
            try:
                return rebuild(self.view, self.k, hidden), draws
            except (IllegalAction, ValueError):
                continue
        return None, attempts


def sample_world(view: View, k: Knowledge, rng: random.Random, attempts: int = ATTEMPTS) -> Deal | None:
    """A consistent world at the view's position, or None when ``attempts`` draws all fail."""
    return draw_world(view, k, rng, attempts)[0]


def draw_world(view: View, k: Knowledge, rng: random.Random,
               attempts: int = ATTEMPTS) -> tuple[Deal | None, int]:
    """One ``WorldSampler`` draw (a search sets its sampler up once instead)."""
    return WorldSampler(view, k).draw(rng, attempts)


HandTest = Callable[[int], bool]


def sample_before_play(view: View, rng: random.Random, tests: Sequence[tuple[int, HandTest]] = (),
                       draws: int = 1000, chien: int = 0) -> tuple[list[int] | None, int]:
    """Every hand as dealt and the chien while nothing but the seat's own hand is known (the
    bidding), or that and the chien (``chien``: shown to the taker at the écart, which holds it):
    ``(hands + [chien], hands drawn)``, or ``(None, hands drawn)`` when ``draws`` run out.

    The other cards are dealt uniformly among those consistent with the seat's view: no hand is
    a petit sec (R6 would have annulled the deal) and each ``(seat, test)`` of ``tests`` holds
    for that seat's hand. This is rejection sampling, so exact; it is cheap because the tested
    seats are drawn first, in the order given (put the most selective first), and a draw stops
    at the first hand that fails. No replay: nothing has been played yet.
    """
    n = view.players
    mine = view.hand.mask & ~chien  # the seat's hand as dealt
    size = mine.bit_count()
    pool = [c for c in range(78) if not (mine | chien) >> c & 1]
    tested = [seat for seat, _ in tests]
    untested = [s for s in range(n) if s != view.seat and s not in tested]
    used = 0
    while used < draws:
        hands = [0] * n
        hands[view.seat] = mine
        rest = pool
        for seat, test in tests:
            used += 1
            cards = rng.sample(rest, size)
            hand = sum(1 << c for c in cards)
            if _petit_sec(hand) or not test(hand):
                break
            hands[seat] = hand
            rest = [c for c in rest if not hand >> c & 1]
        else:
            used += 1
            rest = rest[:]
            rng.shuffle(rest)
            for i, seat in enumerate(untested):
                hands[seat] = sum(1 << c for c in rest[i * size:(i + 1) * size])
            if any(_petit_sec(hands[s]) for s in untested):
                continue
            return hands + [chien or sum(1 << c for c in rest[len(untested) * size:])], used
    return None, used


def _petit_sec(hand: int) -> bool:
    return hand & (TRUMPS | EXCUSE_BIT) == PETIT_BIT
