# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The native playout kernel: ``rollout.choose`` and the engine's card play, in C over 128-bit masks.

A ``Board`` copies a deal's card-play position once (a sampled world); ``after(card)`` plays that
card and then the policy to the end on a copy, and returns the packed outcome
(``playout.pack``). It must play exactly the cards the pure path plays (``rollout.play_out`` on
a ``Deal``): the parity test compares both on thousands of worlds. Every choice below mirrors a
line of rollout.py, ties included (the lowest card, the first suit).
"""

from tarot.engine.cards import (
    ABOVE as _ABOVE, FOLLOW_MASK as _FOLLOW, HALF_POINTS as _HALF, SUIT_MASKS as _SUITS,
    TRUMPS as _TRUMPS, OUDLERS as _OUDLERS,
)
from tarot.engine import Phase

cdef extern from *:
    """
    typedef unsigned __int128 kern_u128;
    static inline int kern_popcount(kern_u128 x) {
        return __builtin_popcountll((unsigned long long)x) + __builtin_popcountll((unsigned long long)(x >> 64));
    }
    static inline int kern_lowest(kern_u128 x) {  /* x != 0 */
        unsigned long long lo = (unsigned long long)x;
        return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((unsigned long long)(x >> 64));
    }
    static inline int kern_highest(kern_u128 x) {  /* x != 0 */
        unsigned long long hi = (unsigned long long)(x >> 64);
        return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((unsigned long long)x);
    }
    """
    ctypedef unsigned long long u128 "kern_u128"
    int popcount "kern_popcount"(u128 x) nogil
    int lowest "kern_lowest"(u128 x) nogil
    int highest "kern_highest"(u128 x) nogil

from cpython.long cimport PyLong_AsUnsignedLongLongMask


cdef u128 to_mask(object value) except? 0xFFFF:
    cdef u128 lo = PyLong_AsUnsignedLongLongMask(value)
    cdef u128 hi = PyLong_AsUnsignedLongLongMask(value >> 64)
    return (hi << 64) | lo


cdef u128 ONE = 1
cdef u128 TRUMPS = to_mask(_TRUMPS)
cdef u128 OUDLERS = to_mask(_OUDLERS)
cdef u128 PLAIN = (ONE << 56) - 1
cdef u128 EX = ONE << 77
cdef u128 PETIT = ONE << 56
cdef u128 ABOVE[78]
cdef u128 FOLLOW[78]
cdef u128 HIGHER[78]  # rollout._HIGHER_IN_SUIT
cdef u128 SUIT[4]
cdef int CHEAP_KEY[78]  # rollout._CHEAP_KEY
cdef int RICH_KEY[78]  # rollout._RICH_KEY
cdef int HALF[78]
cdef int _c
for _c in range(4):
    SUIT[_c] = to_mask(_SUITS[_c])
for _c in range(78):
    ABOVE[_c] = to_mask(_ABOVE[_c])
    FOLLOW[_c] = to_mask(_FOLLOW[_c])
    HALF[_c] = _HALF[_c]
    if _c < 56:
        HIGHER[_c] = SUIT[_c // 14] & ~((ONE << (_c + 1)) - 1)
        RICH_KEY[_c] = _HALF[_c] * 128 + _c % 14
    else:
        HIGHER[_c] = ABOVE[_c] if _c < 77 else 0
        RICH_KEY[_c] = -1
    if _c == 56 or _c == 77:
        CHEAP_KEY[_c] = 10000
    else:
        CHEAP_KEY[_c] = _HALF[_c] * 32 + (_c % 14 if _c < 56 else _c - 40)

cdef object _PLAY = Phase.PLAY


cdef struct State:
    u128 hands[5]
    u128 won[2]
    u128 trick_mask
    u128 lead_mask
    int side[5]
    int tricks_won[2]
    int trick[5]
    int n, total, done, trick_len, leader, turn, high, called, chelem_announced, excuse_adjust
    int petit_trick, petit_side  # the trick where the Petit fell (-1: none yet) and its winners
    int last_leader, last_first, last_winner  # the last trick finished
    int over


cdef inline u128 legal_mask(State* s) noexcept nogil:
    cdef u128 hand = s.hands[s.turn]
    cdef u128 lead = s.lead_mask
    cdef u128 trumps, allowed
    if not lead:
        if s.trick_len or s.done or s.called < 0:
            return hand
        # R9: at 5 players the first lead may not be in the called suit, but for the called card
        allowed = (hand & ~FOLLOW[s.called]) | (hand & (ONE << s.called))
        return allowed if allowed else hand
    if lead != TRUMPS and hand & lead:
        return hand & (lead | EX)
    if hand & TRUMPS:
        trumps = hand & TRUMPS
        return (trumps & ABOVE[s.high] if trumps & ABOVE[s.high] else trumps) | (hand & EX)
    return hand


cdef inline void finish_trick(State* s) noexcept nogil:
    cdef int n = s.n
    cdef int leader = s.leader
    cdef u128 mask = s.trick_mask
    cdef bint last = s.done + 1 == s.total
    cdef u128 best = mask & TRUMPS if mask & TRUMPS else mask & s.lead_mask
    cdef int top = highest(best)
    cdef int i, winner = leader, ex_seat = -1, owner, ws
    for i in range(n):
        if s.trick[i] == top:
            winner = (leader + i) % n
        if s.trick[i] == 77:
            ex_seat = (leader + i) % n
    if ex_seat >= 0:
        if last:
            # R19: the Excuse led to the last trick by a side that won every trick wins it
            if ex_seat == leader and s.tricks_won[s.side[leader]] == s.done:
                winner = leader
        else:
            owner = s.side[ex_seat]
            if owner != s.side[winner]:  # R17: the Excuse stays with its side
                s.won[owner] |= EX
                mask ^= EX
                s.excuse_adjust += 1 if owner == 1 else -1
    ws = s.side[winner]
    s.won[ws] |= mask
    s.tricks_won[ws] += 1
    if s.trick_mask & PETIT:
        s.petit_trick = s.done
        s.petit_side = ws
    s.last_leader = leader
    s.last_first = s.trick[0]
    s.last_winner = winner
    s.done += 1
    s.trick_len = 0
    s.trick_mask = 0
    s.lead_mask = 0
    s.high = 0
    s.leader = winner
    if last:
        s.over = 1
    else:
        s.turn = winner


cdef inline void play(State* s, int card) noexcept nogil:
    cdef u128 bit = ONE << card
    s.hands[s.turn] ^= bit
    s.trick[s.trick_len] = card
    s.trick_len += 1
    s.trick_mask |= bit
    if not s.lead_mask and card != 77:
        s.lead_mask = FOLLOW[card]
    if card > s.high and bit & TRUMPS:
        s.high = card
    if s.trick_len == s.n:
        finish_trick(s)
    else:
        s.turn = (s.turn + 1) % s.n


cdef inline int cheapest(u128 mask) noexcept nogil:
    cdef int best = -1, key = 1 << 30, c
    while mask:
        c = lowest(mask)
        if CHEAP_KEY[c] < key:
            best = c
            key = CHEAP_KEY[c]
        mask &= mask - 1
    return best


cdef inline int richest_plain(u128 mask) noexcept nogil:
    cdef int best = -1, key = -2, c
    while mask:
        c = lowest(mask)
        if RICH_KEY[c] > key:
            best = c
            key = RICH_KEY[c]
        mask &= mask - 1
    return best


cdef inline bint beatable(State* s, int card, u128 lead, int* foes, int nfoes) noexcept nogil:
    """rollout._beatable: can one of the foes still to play beat ``card``?"""
    cdef int i
    cdef u128 h, higher
    if card >= 56:
        higher = ABOVE[card]
        for i in range(nfoes):
            if s.hands[foes[i]] & higher:
                return True
        return False
    higher = HIGHER[card]
    for i in range(nfoes):
        h = s.hands[foes[i]]
        if h & lead:
            if h & higher:
                return True
        elif h & TRUMPS:
            return True
    return False


cdef int lead_card(State* s, int seat, u128 legal) noexcept nogil:
    """rollout._lead."""
    cdef int foes[5]
    cdef int nfoes = 0, i, top, best_suit, best_count, k
    cdef int me = s.side[seat]
    cdef u128 foe_trumps = 0, plain, m, suit, h, trumps, rest, cards
    cdef bint ok
    for i in range(s.n):
        if s.side[i] != me:
            foes[nfoes] = i
            nfoes += 1
            foe_trumps |= s.hands[i] & TRUMPS
    plain = legal & PLAIN
    m = plain
    while m:
        top = highest(m)
        suit = SUIT[top // 14]
        if HALF[top] >= 5:
            ok = True
            for i in range(nfoes):
                if s.hands[foes[i]] & HIGHER[top]:
                    ok = False
                    break
            if ok:
                for i in range(nfoes):
                    h = s.hands[foes[i]]
                    if not (h & suit) and (h & TRUMPS):
                        ok = False
                        break
            if ok:
                return top
        m &= ~suit
    trumps = legal & TRUMPS
    if trumps and foe_trumps:
        if popcount(trumps) >= popcount(foe_trumps):
            top = highest(trumps)
            if top > highest(foe_trumps):
                return top
    if plain:
        best_suit = 0
        best_count = -1
        for i in range(4):
            k = popcount(plain & SUIT[i])
            if k > best_count:
                best_suit = i
                best_count = k
        cards = plain & SUIT[best_suit]
        return lowest(cards)
    if not foe_trumps and trumps & PETIT and popcount(trumps) == 1:
        return 56
    rest = trumps & ~PETIT
    if rest:
        return lowest(rest)
    return cheapest(legal)


cdef int choose(State* s) noexcept nogil:
    """rollout.choose: the policy's card for the seat to play."""
    cdef u128 legal = legal_mask(s)
    cdef u128 legal_ex, lead, mask, trumps_in, top_set, plain, trumps, winning, sure, w, low
    cdef int seat, me, best, winner, i, j, c, cheap, nfoes
    cdef int foes[5]
    if not (legal & (legal - 1)):
        return lowest(legal)
    seat = s.turn
    me = s.side[seat]
    if legal & EX and popcount(s.hands[seat]) <= 2 and not (s.chelem_announced and me == 0):
        return 77
    legal_ex = legal & ~EX
    if not legal_ex:
        legal_ex = legal
    if s.trick_len == 0:
        return lead_card(s, seat, legal_ex)
    lead = s.lead_mask
    mask = s.trick_mask
    trumps_in = mask & TRUMPS
    top_set = trumps_in if trumps_in else mask & lead
    best = highest(top_set) if top_set else -1
    winner = -1
    if best >= 0:
        for i in range(s.trick_len):
            if s.trick[i] == best:
                winner = (s.leader + i) % s.n
                break
    nfoes = 0
    for j in range(1, s.n - s.trick_len):
        i = (seat + j) % s.n
        if s.side[i] != me:
            foes[nfoes] = i
            nfoes += 1
    if best >= 0 and s.side[winner] == me and not beatable(s, best, lead, foes, nfoes):
        if legal & PETIT:
            return 56
        plain = legal_ex & PLAIN
        if plain:
            return richest_plain(plain)
        trumps = legal_ex & TRUMPS
        return lowest(trumps) if trumps else cheapest(legal_ex)
    if best < 0:
        winning = legal_ex
    elif best >= 56:
        winning = legal_ex & ABOVE[best]
    elif legal_ex & lead:
        winning = legal_ex & (HIGHER[best] | TRUMPS)
    else:
        winning = legal_ex & TRUMPS
    if winning:
        sure = 0
        w = winning
        while w:
            c = lowest(w)
            low = ONE << c
            if lead:
                if not beatable(s, c, lead, foes, nfoes):
                    sure |= low
            elif not beatable(s, c, TRUMPS if c >= 56 else SUIT[c // 14], foes, nfoes):
                sure |= low
            w &= w - 1
        if sure:
            plain = sure & PLAIN
            if plain:
                return highest(plain)
            if sure & PETIT:
                return 56
            return lowest(sure)
    w = legal & ~EX
    cheap = cheapest(w if w else legal)
    if legal & EX and HALF[cheap] >= 5 and best >= 0 and s.side[winner] != me:
        return 77
    return cheap


cdef class Board:
    """A deal's card-play position (a sampled world) held in C; playouts run on copies of it."""

    cdef State start
    cdef u128 extra  # cards the attack counts besides its tricks: the écart, or the chien (R12)
    cdef int played[80]
    cdef int nplayed

    def __init__(self, deal):
        cdef State* s = &self.start
        cdef int i
        if deal.phase is not _PLAY:
            raise ValueError("a board starts in the play phase")
        s.n = deal.players
        s.total = deal.variant.tricks
        hands = list(deal.hands)
        side = list(deal.side)
        won = list(deal.won)
        tricks_won = list(deal.tricks_won)
        for i in range(s.n):
            s.hands[i] = to_mask(hands[i])
            s.side[i] = side[i]
        for i in range(2):
            s.won[i] = to_mask(won[i])
            s.tricks_won[i] = tricks_won[i]
        trick = list(deal.trick)
        s.trick_len = len(trick)
        for i in range(s.trick_len):
            s.trick[i] = trick[i]
        s.trick_mask = to_mask(deal.trick_mask)
        s.lead_mask = to_mask(deal.lead_mask)
        s.high = deal.trick_high
        s.leader = deal.leader
        s.turn = deal.turn
        s.called = -1 if deal.called is None else int(deal.called)
        s.chelem_announced = 1 if deal.chelem_announced else 0
        s.excuse_adjust = deal.excuse_adjust
        tricks = deal.tricks
        s.done = len(tricks)
        s.petit_trick = -1
        s.petit_side = -1
        s.last_leader = s.last_first = s.last_winner = -1
        for i, t in enumerate(tricks):
            if 56 in t.cards:
                s.petit_trick = i
                s.petit_side = side[t.winner]
        if tricks:
            t = tricks[s.done - 1]  # wraparound is off: no negative index
            s.last_leader, s.last_first, s.last_winner = t.leader, t.cards[0], t.winner
        s.over = 0
        contract = deal.contract
        self.extra = 0
        if contract is not None and contract.chien_shown:
            self.extra = to_mask(deal.ecart)
        elif contract is not None and contract.chien_to_attack:
            self.extra = to_mask(deal.chien)
        self.nplayed = 0

    cdef int run(self, State* s) noexcept nogil:
        cdef int card
        while not s.over:
            card = choose(s)
            self.played[self.nplayed] = card
            self.nplayed += 1
            play(s, card)
        return self.outcome(s)

    cdef int outcome(self, State* s) noexcept nogil:
        """``playout.pack`` of the count (R20, R23) once the deal is over."""
        cdef u128 attack = s.won[0] | self.extra
        cdef u128 m = attack
        cdef int half = s.excuse_adjust, pab = -1, chelem = -1
        while m:
            half += HALF[lowest(m)]
            m &= m - 1
        if s.petit_trick == s.total - 1:
            pab = s.petit_side
        elif s.last_first == 77 and s.last_winner == s.last_leader and s.petit_trick == s.total - 2:
            pab = s.petit_side  # the last trick won under R19: T1 in the one before is au bout
        if s.tricks_won[0] == s.total:
            chelem = 0
        elif s.tricks_won[1] == s.total:
            chelem = 1
        return half | popcount(attack & OUDLERS) << 8 | (pab + 1) << 10 | (chelem + 1) << 12

    def legal(self):
        """The legal cards at the position, as a mask."""
        cdef u128 m = legal_mask(&self.start)
        return (int(<unsigned long long>(m >> 64)) << 64) | int(<unsigned long long>m)

    def after(self, int card):
        """Play ``card`` (it must be legal) and then the policy to the end, on a copy; the
        packed outcome."""
        cdef State s = self.start
        if card < 0 or card > 77 or not (legal_mask(&s) >> card) & 1:
            raise ValueError(f"card {card} is not legal here")
        self.played[0] = card
        self.nplayed = 1
        play(&s, card)
        return self.run(&s)

    def play_out(self):
        """The policy from the position to the end, on a copy; the packed outcome."""
        cdef State s = self.start
        self.nplayed = 0
        return self.run(&s)

    def trace(self):
        """The cards of the last playout, in the order played."""
        return [self.played[i] for i in range(self.nplayed)]
