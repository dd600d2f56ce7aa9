"""A fast playout policy for the search bot, on a full deal (a sampled world, so every hand is
known there): win cheaply when the trick can be won for sure, load points on a partner's sure
trick, give the least otherwise, and never keep the Excuse for the last trick.

It reads the engine's fields directly (masks), which keeps one decision to a few microseconds:
the search's strength is the number of playouts it can afford.

``start_play`` takes a world still in its bidding to its first card under a given contract,
with the heuristic's call, écart and poignée, so that a whole deal can be played out (the
bidding search); it sets the state directly instead of replaying checked actions.
"""

from __future__ import annotations

from functools import lru_cache

from tarot.engine import Contract, Deal, Phase
from tarot.engine.cards import (
    ABOVE,
    CARDS,
    EXCUSE_BIT,
    HALF_POINTS,
    PETIT_BIT,
    PLAIN,
    SUIT_MASKS,
    TRUMPS,
    cards_of,
)

from .evaluation import THRESHOLDS, call_choice, ecart_choice, hand_points

_PLAY = Phase.PLAY
_TRUMPS = TRUMPS
# Per card: a sort key for "worth least" (points, then rank); the Petit and Excuse weigh most.
_CHEAP_KEY = tuple(
    (HALF_POINTS[c] * 32 + (c % 14 if c < 56 else c - 40)) if c not in (56, 77) else 10_000
    for c in range(78)
)
_RICH_KEY = tuple((HALF_POINTS[c] * 128 + (c % 14)) if c < 56 else -1 for c in range(78))
_HIGHER_IN_SUIT = tuple(
    (SUIT_MASKS[c // 14] & ~((1 << (c + 1)) - 1)) if c < 56 else (ABOVE[c] if c < 77 else 0)
    for c in range(78)
)


def _cheapest(mask: int) -> int:
    best = -1
    key = 1 << 30
    while mask:
        low = mask & -mask
        c = low.bit_length() - 1
        k = _CHEAP_KEY[c]
        if k < key:
            best, key = c, k
        mask ^= low
    return best


def _richest_plain(mask: int) -> int:
    best = -1
    key = -2
    while mask:
        low = mask & -mask
        c = low.bit_length() - 1
        k = _RICH_KEY[c]
        if k > key:
            best, key = c, k
        mask ^= low
    return best


def choose(deal: Deal) -> int:
    """The policy's card for the seat to play."""
    legal = deal.legal_mask()
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    seat = deal.turn
    assert seat is not None
    n = deal.players
    hands = deal.hands
    side = deal.side
    me = side[seat]
    left = hands[seat].bit_count()
    # the Excuse before the last trick, where it would go to the trick's winner (R19); only an
    # attack that announced a chelem keeps it to lead that trick (a defence's is lost there)
    if legal & EXCUSE_BIT and left <= 2 and not (deal.chelem_announced and me == ATTACK):
        return 77
    legal_ex = legal & ~EXCUSE_BIT or legal
    trick: list[int] = deal.trick  # type: ignore[assignment]  # cards compare as ints
    if not trick:
        return _lead(deal, seat, legal_ex)
    lead = deal.lead_mask
    mask = deal.trick_mask
    trumps_in = mask & _TRUMPS
    best = (trumps_in or (mask & lead)).bit_length() - 1 if (trumps_in or mask & lead) else -1
    winner = (deal.leader + trick.index(best)) % n if best >= 0 else -1
    later = [(seat + j) % n for j in range(1, n - len(trick))]
    foes_later = [s for s in later if side[s] != me]
    if best >= 0 and side[winner] == me and not _beatable(hands, best, lead, foes_later):
        if legal & PETIT_BIT:
            return 56
        plain = legal_ex & PLAIN
        if plain:
            return _richest_plain(plain)
        trumps = legal_ex & _TRUMPS
        return (trumps & -trumps).bit_length() - 1 if trumps else _cheapest(legal_ex)
    if best < 0:
        winning = legal_ex
    elif best >= 56:
        winning = legal_ex & ABOVE[best]
    else:
        winning = legal_ex & (_HIGHER_IN_SUIT[best] | _TRUMPS) if legal_ex & lead else legal_ex & _TRUMPS
    if winning:
        sure = 0
        w = winning
        while w:
            low = w & -w
            c = low.bit_length() - 1
            if not _beatable(hands, c, lead or (_TRUMPS if c >= 56 else SUIT_MASKS[c // 14]), foes_later):
                sure |= low
            w ^= low
        if sure:
            plain = sure & PLAIN
            if plain:
                return plain.bit_length() - 1
            if sure & PETIT_BIT:
                return 56
            return (sure & -sure).bit_length() - 1
    cheap = _cheapest(legal & ~EXCUSE_BIT or legal)
    if legal & EXCUSE_BIT and HALF_POINTS[cheap] >= 5 and best >= 0 and side[winner] != me:
        return 77
    return cheap


def _beatable(hands: list[int], card: int, lead: int, foes: list[int]) -> bool:
    """Can one of ``foes`` (still to play) beat ``card``? Exact: the world is fully known."""
    if card >= 56:
        higher = ABOVE[card]
        return any(hands[s] & higher for s in foes)
    higher = _HIGHER_IN_SUIT[card]
    for s in foes:
        h = hands[s]
        if h & lead:
            if h & higher:
                return True
        elif h & _TRUMPS:
            return True
    return False


def _lead(deal: Deal, seat: int, legal: int) -> int:
    hands = deal.hands
    me = deal.side[seat]
    foes = [s for s in range(deal.players) if deal.side[s] != me]
    foe_trumps = 0
    for s in foes:
        foe_trumps |= hands[s] & _TRUMPS
    # A master plain card the foes must follow (or cannot trump): cash it.
    plain = legal & PLAIN
    m = plain
    while m:
        top = m.bit_length() - 1
        suit = SUIT_MASKS[top // 14]
        if HALF_POINTS[top] >= 5 and not any(hands[s] & _HIGHER_IN_SUIT[top] for s in foes) and all(
            hands[s] & suit or not hands[s] & _TRUMPS for s in foes
        ):
            return top
        m &= ~suit
    trumps = legal & _TRUMPS
    if trumps and foe_trumps:
        mine = trumps.bit_count()
        if mine >= foe_trumps.bit_count():
            top = trumps.bit_length() - 1
            if top > foe_trumps.bit_length() - 1:
                return top  # draw trumps with a master
    if plain:
        # A small card of the longest suit.
        best_suit = max(range(4), key=lambda s: (plain & SUIT_MASKS[s]).bit_count())
        cards = plain & SUIT_MASKS[best_suit]
        return (cards & -cards).bit_length() - 1
    if not foe_trumps and trumps & PETIT_BIT and trumps.bit_count() == 1:
        return 56
    rest = trumps & ~PETIT_BIT
    if rest:
        return (rest & -rest).bit_length() - 1
    return _cheapest(legal)


def play_out(deal: Deal) -> None:
    """Play the deal to its end with the policy."""
    play = deal.play
    while deal.phase is _PLAY:
        play(CARDS[choose(deal)])


ATTACK = 0  # the value of ``Deal.side[seat]`` for the attack
POIGNEE_MARGIN = 6  # HeuristicBot.poignee: the taker shows one with this much above its contract


@lru_cache(maxsize=512)  # prise and garde by the same taker in the same world: the same écart
def _heuristic_ecart(hand: int, size: int, allowed: int, trumps_needed: int) -> int:
    return ecart_choice(hand, size, allowed, trumps_needed)


def start_play(world: Deal, taker: int, contract: Contract, called: int | None = None,
               ecart: int | None = None) -> Deal:
    """A copy of ``world`` (a deal in its bidding) at its first card, as if the bidding had made
    ``taker`` take ``contract``, calling ``called`` and discarding ``ecart`` (the call and the écart
    searched by simulation, ``opening``); the call (5 players) and the écart where not given, and
    the poignée, are the heuristic bot's, and no chelem is announced (the heuristic announces one
    only when certain: rare)."""
    deal = world.copy()
    n = deal.players
    deal.high_bid = deal.contract = contract
    deal.taker = taker
    deal.side[taker] = ATTACK
    if deal.variant.calls_card:
        if called is None:
            called = call_choice(deal.hands[taker], cards_of(deal.callable_mask()))
        deal.called = CARDS[called]
        for seat in range(n):
            if seat != taker and deal.hands[seat] >> called & 1:
                deal.partner = seat
                deal.side[seat] = ATTACK
    if contract.chien_shown:
        deal.hands[taker] |= deal.chien
        if ecart is None:
            deal.phase = Phase.ECART
            options = deal.ecart_options()
            assert options is not None
            ecart = _heuristic_ecart(deal.hands[taker], options.size, options.allowed_mask,
                                     options.trumps_needed)
        deal.hands[taker] &= ~ecart
        deal.ecart = ecart
        deal.ecart_trumps = ecart & TRUMPS
    hand = deal.hands[taker]
    shown = (hand & (TRUMPS | EXCUSE_BIT) | deal.ecart_trumps).bit_count()
    sizes = [t for t in deal.variant.poignee_thresholds if t <= shown]
    if sizes and hand_points(hand) >= THRESHOLDS[n][min(contract, Contract.GARDE) - 1] + POIGNEE_MARGIN:
        deal.poignees[taker] = sum(1 << c for c in range(56, 56 + sizes[-1]))  # only the count scores
    deal.phase = Phase.PLAY
    deal.turn = deal.leader
    deal._legal = -1
    return deal
