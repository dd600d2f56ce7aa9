# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The native DealCore: core.py's class with its masks as C 128-bit integers.

Same interface and semantics as ``tarot.engine.core.DealCore`` (the reference; the parity
test plays thousands of deals through both). Masks are converted to Python ints only at the
boundary (properties); ``hands``, ``won``, ``tricks_won`` and ``side`` are write-through
sequences over C arrays, so ``core.hands[seat] |= mask`` works as on a list.
"""

cimport cython
from cpython.long cimport PyLong_AsUnsignedLongLongMask
from cpython.object cimport PyObject_GenericSetAttr
from cpython.ref cimport PyObject, Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM

import random as _random
from dataclasses import fields as _dataclass_fields

from tarot.engine.cards import ABOVE as _PY_ABOVE, CARDS, EXCUSE_BIT as _PY_EXCUSE_BIT
from tarot.engine.cards import FOLLOW_MASK as _PY_FOLLOW, TRUMPS as _PY_TRUMPS, Card
from tarot.engine.cards import JACKS as _PY_JACKS, KINGS as _PY_KINGS, KNIGHTS as _PY_KNIGHTS
from tarot.engine.cards import OUDLERS as _PY_OUDLERS, PETIT_BIT as _PY_PETIT, QUEENS as _PY_QUEENS
from tarot.engine.core import DealCore as PureDealCore
from tarot.engine.core import (
    ATTACK, DEFENCE, PLAYS, Phase, coerce_card, count, rng_for, shuffled_masks,
    variant_and_dealer,
)
from tarot.engine.errors import IllegalAction
from tarot.engine.phases import Annulment
from tarot.engine.rules import Contract, Side
from tarot.engine.rules import (CHELEM as _CHELEM, CHELEM_ANNOUNCED as _CHELEM_ANNOUNCED,
                                CHELEM_FAILED as _CHELEM_FAILED, CONTRACT_BASE as _BASE,
                                PETIT_AU_BOUT as _PAB, TARGETS as _TARGETS)
from tarot.engine.scoring import DealResult, Score
from tarot.engine.tricks import Trick

cdef extern from *:
    """
    typedef unsigned __int128 tarot_u128;
    static PyObject* tarot_u128_to_py(tarot_u128 x) {
        unsigned long long hi = (unsigned long long)(x >> 64);
        if (!hi) return PyLong_FromUnsignedLongLong((unsigned long long)x);
    #if PY_LITTLE_ENDIAN
        return _PyLong_FromByteArray((const unsigned char*)&x, 16, 1, 0);
    #else
        unsigned char buf[16];
        for (int i = 0; i < 16; i++) { buf[i] = (unsigned char)(x >> (8 * i)); }
        return _PyLong_FromByteArray(buf, 16, 1, 0);
    #endif
    }
    static PyObject* tarot_new_like(PyObject* self) {  /* type(self).__new__(type(self)), minus the lookups */
        PyTypeObject* t = Py_TYPE(self);
        PyObject* args = PyTuple_New(0);
        if (!args) return NULL;
        PyObject* o = t->tp_new(t, args, NULL);
        Py_DECREF(args);
        return o;
    }
    static PyObject* tarot_new_tuple_of(PyObject* cls, PyObject* items) {  /* tuple.__new__(cls, items) */
        PyObject* args = PyTuple_Pack(1, items);
        if (!args) return NULL;
        PyObject* o = PyTuple_Type.tp_new((PyTypeObject*)cls, args, NULL);
        Py_DECREF(args);
        return o;
    }
    static inline int tarot_popcount(tarot_u128 x) {
        return __builtin_popcountll((unsigned long long)x) + __builtin_popcountll((unsigned long long)(x >> 64));
    }
    static inline int tarot_lowest(tarot_u128 x) {  /* index of the lowest set bit; x != 0 */
        unsigned long long lo = (unsigned long long)x;
        return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((unsigned long long)(x >> 64));
    }
    static inline int tarot_highest(tarot_u128 x) {  /* index of the highest set bit; x != 0 */
        unsigned long long hi = (unsigned long long)(x >> 64);
        return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((unsigned long long)x);
    }
    """
    # Cython sees an integer type; the C code uses the real 128-bit one.
    ctypedef unsigned long long u128 "tarot_u128"
    object u128_to_py "tarot_u128_to_py"(u128 x)
    object new_like "tarot_new_like"(object self)
    object new_tuple_of "tarot_new_tuple_of"(object cls, object items)
    int popcount "tarot_popcount"(u128 x) nogil
    int lowest "tarot_lowest"(u128 x) nogil
    int highest "tarot_highest"(u128 x) nogil

ctypedef unsigned long long u64


cdef u128 to_mask(object value) except? 0xFFFF:
    """A Python int (a card set) as a C mask."""
    cdef u128 lo = PyLong_AsUnsignedLongLongMask(value)
    cdef u128 hi = PyLong_AsUnsignedLongLongMask(value >> 64)
    return (hi << 64) | lo


cdef u128 ONE = 1
cdef u128 TRUMPS_M = to_mask(_PY_TRUMPS)
cdef u128 EXCUSE_M = to_mask(_PY_EXCUSE_BIT)
cdef u128 PETIT_M = to_mask(_PY_PETIT)
cdef u128 OUDLERS_M = to_mask(_PY_OUDLERS)
cdef u128 BIG_M = to_mask(_PY_KINGS | _PY_OUDLERS)
cdef u128 QUEENS_M = to_mask(_PY_QUEENS)
cdef u128 KNIGHTS_M = to_mask(_PY_KNIGHTS)
cdef u128 JACKS_M = to_mask(_PY_JACKS)
cdef u128 FOLLOW_M[78]
cdef u128 ABOVE_M[78]
cdef int _i
for _i in range(78):
    FOLLOW_M[_i] = to_mask(_PY_FOLLOW[_i])
    ABOVE_M[_i] = to_mask(_PY_ABOVE[_i])

cdef object _PLAY = Phase.PLAY
cdef object _DONE = Phase.DONE
cdef object _BIDDING = Phase.BIDDING
cdef object _CALL = Phase.CALL
cdef object _ECART = Phase.ECART
cdef object _ANNOUNCE = Phase.ANNOUNCE
cdef object _PETIT_SEC = Annulment.PETIT_SEC
cdef object _ALL_PASS = Annulment.ALL_PASS
cdef object _Contract = Contract
cdef tuple _SIDES = (Side.ATTACK, Side.DEFENCE)
cdef tuple _CARDS = tuple(CARDS)
cdef tuple _PLAYS = PLAYS
cdef object _Card = Card
cdef object _Trick = Trick
cdef object _new_trick = tuple.__new__
cdef object _Random = _random.Random

cdef class DealCore


# which array a _Seats view shows
cdef enum:
    HANDS = 0
    WON = 1
    TRICKS_WON = 2
    SIDE = 3


cdef class _Seats:
    """A write-through sequence over one of a core's C arrays (hands, won, tricks_won, side)."""

    cdef DealCore core
    cdef int which

    def __len__(self):
        return self.core.players if self.which in (HANDS, SIDE) else 2

    cdef object get(self, Py_ssize_t i):
        cdef DealCore c = self.core
        if self.which == HANDS:
            return u128_to_py(c.hands_m[i])
        if self.which == WON:
            return u128_to_py(c.won_m[i])
        if self.which == TRICKS_WON:
            return c.tricks_won_c[i]
        return c.side_c[i]

    cdef Py_ssize_t index(self, object key) except -1:
        cdef Py_ssize_t n = len(self)
        cdef Py_ssize_t i = key
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("seat index out of range")
        return i

    def __getitem__(self, key):
        if isinstance(key, slice):
            return [self.get(i) for i in range(*key.indices(len(self)))]
        return self.get(self.index(key))

    def __setitem__(self, key, value):
        cdef Py_ssize_t i = self.index(key)
        cdef DealCore c = self.core
        if self.which == HANDS:
            c.hands_m[i] = to_mask(value)
        elif self.which == WON:
            c.won_m[i] = to_mask(value)
        elif self.which == TRICKS_WON:
            c.tricks_won_c[i] = value
        else:
            c.side_c[i] = value

    def __iter__(self):
        return iter([self.get(i) for i in range(len(self))])

    def __eq__(self, other):
        try:
            return list(self) == list(other)
        except TypeError:
            return NotImplemented

    def copy(self):
        return list(self)

    def __repr__(self):
        return repr(list(self))


cdef _Seats seats_view(DealCore core, int which):
    cdef _Seats view = _Seats.__new__(_Seats)
    view.core = core
    view.which = which
    return view


# Not tracked by the garbage collector (a copy is cheaper): a core refers to no object that
# could refer back to it (cards, actions, tricks, enums, contracts, the variant).
@cython.no_gc
cdef class DealCore:
    """A deal's state and its card play (``tarot.engine.core.DealCore``, compiled)."""

    # state in C
    cdef u128 hands_m[5]
    cdef u128 won_m[2]
    cdef u128 trick_mask_m, lead_mask_m, legal_m
    cdef bint legal_ok
    cdef int tricks_won_c[2]
    cdef unsigned char side_c[5]
    cdef unsigned char trick_c[5]
    cdef int trick_len, n, hand_size, turn_c, leader_c, high_c, called_c, excuse_c
    # state as Python objects
    cdef public object variant, dealer, dealt, chien, phase, annulled, petit_sec_seat
    cdef public object high_bid, taker, contract, partner, ecart, ecart_trumps
    cdef public object chelem_announced
    cdef public list bids, tricks, actions
    cdef public dict poignees

    def _setup(self, var, dealer, masks, chien_mask):
        """The state right after the deal (R5): bidding, from the seat after the dealer."""
        cdef int players = var.players
        cdef int seat
        self.variant = var
        self.n = players
        self.hand_size = var.hand_size
        self.dealer = dealer
        self.dealt = tuple(masks)
        self.chien = chien_mask
        for seat in range(players):
            self.hands_m[seat] = to_mask(masks[seat])
            self.side_c[seat] = DEFENCE
        self.annulled = None
        self.petit_sec_seat = None
        self.bids = []
        self.high_bid = None
        self.taker = None
        self.contract = None
        self.called_c = -1
        self.partner = None
        self.ecart = 0
        self.ecart_trumps = 0
        self.chelem_announced = False
        self.poignees = {}
        self.leader_c = (dealer + 1) % players
        self.trick_len = 0
        self.trick_mask_m = 0
        self.lead_mask_m = 0
        self.high_c = 0
        self.tricks = []
        self.won_m[0] = self.won_m[1] = 0
        self.tricks_won_c[0] = self.tricks_won_c[1] = 0
        self.excuse_c = 0
        self.actions = []
        self.legal_ok = False
        self.phase = _BIDDING
        self.turn_c = (dealer + 1) % players
        for seat in range(players):  # R6: the software detects a petit sec itself
            if (self.hands_m[seat] & (TRUMPS_M | EXCUSE_M)) == PETIT_M:
                self.petit_sec_seat = seat
                self._annul(_PETIT_SEC)
                break

    @classmethod
    def new(cls, players=4, dealer=0, seed=None, rng=None):
        """A random deal (R5): from ``rng``, else seeded by ``seed``, else from ``secrets``."""
        var = variant_and_dealer(players, dealer)
        rand = rng or rng_for(seed)
        if type(rand) is _Random:
            masks, chien = shuffle_words(players, var.hand_size, rand)
        else:
            masks, chien = shuffled_masks(players, var.hand_size, rand.random)
        deal = cls.__new__(cls)
        deal._setup(var, dealer, masks, chien)
        return deal

    # --- fields kept in C, as Python values ---------------------------------------------

    @property
    def players(self):
        return self.n

    @property
    def hands(self):
        return seats_view(self, HANDS)

    @hands.setter
    def hands(self, value):
        for seat in range(self.n):
            self.hands_m[seat] = to_mask(value[seat])

    @property
    def won(self):
        return seats_view(self, WON)

    @won.setter
    def won(self, value):
        self.won_m[0] = to_mask(value[0])
        self.won_m[1] = to_mask(value[1])

    @property
    def tricks_won(self):
        return seats_view(self, TRICKS_WON)

    @tricks_won.setter
    def tricks_won(self, value):
        self.tricks_won_c[0] = value[0]
        self.tricks_won_c[1] = value[1]

    @property
    def side(self):
        return seats_view(self, SIDE)

    @side.setter
    def side(self, value):
        for seat in range(self.n):
            self.side_c[seat] = value[seat]

    @property
    def turn(self):
        return None if self.turn_c < 0 else self.turn_c

    @turn.setter
    def turn(self, value):
        self.turn_c = -1 if value is None else value

    @property
    def leader(self):
        return self.leader_c

    @leader.setter
    def leader(self, value):
        self.leader_c = value

    @property
    def called(self):
        return None if self.called_c < 0 else _CARDS[self.called_c]

    @called.setter
    def called(self, value):
        self.called_c = -1 if value is None else value

    @property
    def trick(self):
        return [_CARDS[self.trick_c[i]] for i in range(self.trick_len)]

    @trick.setter
    def trick(self, value):
        if len(value) >= self.n:
            raise ValueError("a trick in progress holds fewer cards than players")
        self.trick_len = len(value)
        for i, card in enumerate(value):
            self.trick_c[i] = card

    @property
    def trick_mask(self):
        return u128_to_py(self.trick_mask_m)

    @trick_mask.setter
    def trick_mask(self, value):
        self.trick_mask_m = to_mask(value)

    @property
    def lead_mask(self):
        return u128_to_py(self.lead_mask_m)

    @lead_mask.setter
    def lead_mask(self, value):
        self.lead_mask_m = to_mask(value)

    @property
    def trick_high(self):
        return self.high_c

    @trick_high.setter
    def trick_high(self, value):
        self.high_c = value

    @property
    def excuse_adjust(self):
        return self.excuse_c

    @excuse_adjust.setter
    def excuse_adjust(self, value):
        self.excuse_c = value

    @property
    def _legal(self):
        return u128_to_py(self.legal_m) if self.legal_ok else -1

    @_legal.setter
    def _legal(self, value):
        self.legal_ok = value >= 0
        if self.legal_ok:
            self.legal_m = to_mask(value)

    # --- copy ------------------------------------------------------------------------

    def copy(self):
        """An independent copy, cheap enough for search (lists are copied, values shared)."""
        cdef DealCore c = <DealCore>new_like(self)
        c.hands_m = self.hands_m
        c.won_m = self.won_m
        c.trick_mask_m = self.trick_mask_m
        c.lead_mask_m = self.lead_mask_m
        c.legal_m = self.legal_m
        c.legal_ok = self.legal_ok
        c.tricks_won_c = self.tricks_won_c
        c.side_c = self.side_c
        c.trick_c = self.trick_c
        c.trick_len = self.trick_len
        c.n = self.n
        c.hand_size = self.hand_size
        c.turn_c = self.turn_c
        c.leader_c = self.leader_c
        c.high_c = self.high_c
        c.called_c = self.called_c
        c.excuse_c = self.excuse_c
        c.variant = self.variant
        c.dealer = self.dealer
        c.dealt = self.dealt
        c.chien = self.chien
        c.phase = self.phase
        c.annulled = self.annulled
        c.petit_sec_seat = self.petit_sec_seat
        c.high_bid = self.high_bid
        c.taker = self.taker
        c.contract = self.contract
        c.partner = self.partner
        c.ecart = self.ecart
        c.ecart_trumps = self.ecart_trumps
        c.chelem_announced = self.chelem_announced
        # the bids are final once the bidding is over (R7: each seat speaks once): shared then
        c.bids = self.bids[:] if self.phase is _BIDDING else self.bids
        c.tricks = self.tricks[:]
        c.actions = self.actions[:]
        c.poignees = self.poignees.copy()
        return c

    def __copy__(self):
        return self.copy()

    def __reduce__(self):
        # Cython's own pickling would take the masks for 64-bit integers: pickle the Python values.
        fields = {name: getattr(self, name) for name in _FIELDS}
        return _restore, (type(self), {k: list(v) if isinstance(v, _Seats) else v for k, v in fields.items()})

    # --- the bidding and the phase steps ----------------------------------------------

    def _bid(self, action):
        """R7: apply ``action`` if it is a legal bid now and say so (``core.DealCore._bid``)."""
        seat = action.seat
        contract = action.contract
        if self.phase is not _BIDDING or seat != self.turn:
            return False
        if contract is not None:
            high = self.high_bid
            if type(contract) is not _Contract or (high is not None and contract <= high):
                return False
            self.high_bid = contract
            self.taker = seat
        self.legal_ok = False
        self.actions.append(action)
        cdef list bids = self.bids
        bids.append(contract)
        if len(bids) < self.n:
            self.turn_c = (self.turn_c + 1) % self.n  # R7: each speaks once, in turn
        elif self.high_bid is None:
            self._annul(_ALL_PASS)
        else:
            self._start_contract()
        return True

    def _start_contract(self):
        """R7: the highest bid is the contract; at five the taker calls a card first (R8)."""
        self.contract = self.high_bid
        cdef int taker = self.taker
        self.side_c[taker] = ATTACK
        if self.variant.calls_card:
            self.phase = _CALL
            self.turn_c = taker
        else:
            self._start_chien()

    def _start_chien(self):
        """R10/R12: after a prise or a garde the taker takes the chien and discards."""
        cdef int taker = self.taker
        self.legal_ok = False
        if self.contract.chien_shown:
            self.hands_m[taker] |= to_mask(self.chien)
            self.phase = _ECART
            self.turn_c = taker
        else:
            self._start_announce()

    def _start_announce(self):
        """R13: the taker may announce a chelem before the first card."""
        self.phase = _ANNOUNCE
        self.turn_c = self.taker

    def _start_play(self):
        self.legal_ok = False
        self.phase = _PLAY
        self.turn_c = self.leader_c

    def _annul(self, why):
        """R6, R7: the deal ends without a score."""
        self.annulled = why
        self._end()

    def _end(self):
        self.phase = _DONE
        self.turn_c = -1

    # --- card play ---------------------------------------------------------------------

    cdef u128 legal(self):
        cdef u128 hand, lead, trumps, legal
        if self.legal_ok:
            return self.legal_m
        if self.phase is not _PLAY:
            legal = 0
        else:
            hand = self.hands_m[self.turn_c]
            lead = self.lead_mask_m
            if not lead:
                if self.trick_len or self.tricks or self.called_c < 0:
                    legal = hand
                else:
                    legal = self.first_lead(hand)
            elif lead != TRUMPS_M and hand & lead:
                legal = hand & (lead | EXCUSE_M)
            elif hand & TRUMPS_M:
                trumps = hand & TRUMPS_M
                legal = trumps & ABOVE_M[self.high_c]
                if not legal:
                    legal = trumps
                legal |= hand & EXCUSE_M
            else:
                legal = hand
        self.legal_m = legal
        self.legal_ok = True
        return legal

    cdef u128 first_lead(self, u128 hand):
        # R9: at 5 players the first lead may not be in the called suit, except the called card.
        cdef u128 allowed = (hand & ~FOLLOW_M[self.called_c]) | (hand & (ONE << self.called_c))
        return allowed if allowed else hand

    def legal_mask(self):
        """The cards the seat to play may play (R9, R15), as a mask. 0 outside the play phase."""
        return u128_to_py(self.legal())

    def _first_lead_mask(self, hand):
        return u128_to_py(self.first_lead(to_mask(hand)))

    def _check_play(self, seat, card):
        """Raise IllegalAction saying why ``seat`` may not play ``card`` (Deal cites the rule)."""
        raise IllegalAction("R15", f"seat {seat} cannot play {card} now")

    def play(self, card, seat=None):
        """Fast path: the seat to play plays ``card`` (checked against R9/R15); returns the action."""
        if type(card) is not _Card:
            card = coerce_card(card)
        cdef int c = card
        cdef int turn = self.turn_c
        cdef u128 bit = ONE << c
        if turn < 0 or not (bit & self.legal()) or (seat is not None and seat != turn):
            self._check_play(self.turn if seat is None else seat, card)
            raise IllegalAction("R15", f"{card} cannot be played now")
        self.legal_ok = False
        self.hands_m[turn] ^= bit
        action = (<tuple>_PLAYS[turn])[c]
        self.actions.append(action)
        self.trick_c[self.trick_len] = c
        self.trick_len += 1
        self.trick_mask_m |= bit
        if not self.lead_mask_m and c != 77:  # the Excuse leaves the lead to the next card (R15)
            self.lead_mask_m = FOLLOW_M[c]
        if c > self.high_c and bit & TRUMPS_M:
            self.high_c = c
        if self.trick_len == self.n:
            self.finish_trick()
        else:
            self.turn_c = (turn + 1) % self.n
        return action

    def _finish_trick(self):
        self.finish_trick()

    cdef int position(self, int card):
        cdef int i
        for i in range(self.trick_len):
            if self.trick_c[i] == card:
                return i
        return -1

    cdef void finish_trick(self) except *:
        cdef int n = self.n
        cdef int leader = self.leader_c
        cdef u128 mask = self.trick_mask_m
        cdef Py_ssize_t done = len(self.tricks)
        cdef bint last = done + 1 == self.hand_size
        cdef u128 best = mask & TRUMPS_M
        cdef int winner, ex_seat, owner, ws, i
        if not best:
            best = mask & self.lead_mask_m
        winner = (leader + self.position(highest(best))) % n
        if mask & EXCUSE_M:
            ex_seat = (leader + self.position(77)) % n
            if last:
                # R19: the Excuse led to the last trick by a side that won every trick wins it.
                if ex_seat == leader and self.tricks_won_c[self.side_c[leader]] == done:
                    winner = leader
                # R18: otherwise it goes with the last trick.
            else:
                owner = self.side_c[ex_seat]
                if owner != self.side_c[winner]:
                    # R17: the Excuse stays with its side, which gives the winners a 0.5 card.
                    self.won_m[owner] |= EXCUSE_M
                    mask ^= EXCUSE_M
                    self.excuse_c += 1 if owner == DEFENCE else -1
        ws = self.side_c[winner]
        self.won_m[ws] |= mask
        self.tricks_won_c[ws] += 1
        cards = PyTuple_New(self.trick_len)
        for i in range(self.trick_len):
            card = (<tuple>_CARDS)[self.trick_c[i]]
            Py_INCREF(card)
            PyTuple_SET_ITEM(cards, i, card)
        self.tricks.append(new_tuple_of(_Trick, (leader, cards, winner, n)))
        self.trick_len = 0
        self.trick_mask_m = self.lead_mask_m = 0
        self.high_c = 0
        self.leader_c = winner
        if last:
            self.phase = _DONE
            self.turn_c = -1
        else:
            self.turn_c = winner

    # --- the count -----------------------------------------------------------------------

    def attack_cards(self):
        """The attack's cards at the count (R10, R12, R20), as a mask; valid once over."""
        cdef u128 attack = self.won_m[ATTACK]
        contract = self.contract
        if contract is not None and contract.chien_shown:
            attack |= to_mask(self.ecart)
        elif contract is not None and contract.chien_to_attack:  # garde sans (R12)
            attack |= to_mask(self.chien)
        return u128_to_py(attack)

    def count(self):
        """What the score of a played deal depends on besides the contract (R20, R22, R23)."""
        return count(self)

    def result(self):
        """The outcome (R20–R24): ``core.DealCore.result``, its count (``core.count``) in C."""
        if self.phase is not _DONE:
            raise ValueError(f"the deal is not over (phase {self.phase.value})")
        if self.annulled is not None:
            return DealResult(self.annulled, None, self.petit_sec_seat, self.n)
        if not self.tricks:
            raise ValueError("the deal has no count: its cards are not all played")
        contract = self.contract
        cdef u128 attack = self.won_m[ATTACK]
        if contract.chien_shown:
            attack |= to_mask(self.ecart)
        elif contract.chien_to_attack:  # garde sans (R12)
            attack |= to_mask(self.chien)
        cdef int half = (popcount(attack) + 8 * popcount(attack & BIG_M) + 6 * popcount(attack & QUEENS_M)
                         + 4 * popcount(attack & KNIGHTS_M) + 2 * popcount(attack & JACKS_M))
        cdef double points = (half + self.excuse_c) / 2.0
        cdef list tricks = self.tricks
        cdef Py_ssize_t done = len(tricks)  # (no negative indices: the module has wraparound off)
        last = tricks[done - 1]
        pab = None
        if 56 in last.cards:
            pab = _SIDES[self.side_c[<int>last.winner]]
        elif last.cards[0] == 77 and last.winner == last.leader:
            # Last trick won under R19: T1 in the second-to-last trick counts as au bout too (R23).
            before = tricks[done - 2]
            if 56 in before.cards:
                pab = _SIDES[self.side_c[<int>before.winner]]
        chelem = None
        if self.tricks_won_c[ATTACK] == self.hand_size:
            chelem = Side.ATTACK
        elif self.tricks_won_c[DEFENCE] == self.hand_size:
            chelem = Side.DEFENCE
        var = self.variant
        poignees = []
        for m in self.poignees.values():
            p = var.poignee_size(m.bit_count())
            if p:
                poignees.append(p)
        score = score_played(var, self.taker, contract, popcount(attack & OUDLERS_M), points, self.partner,
                             pab, tuple(poignees), self.chelem_announced, chelem)
        return frozen(DealResult, RESULT_FIELDS, (None, score, None, 0))


cdef int MULTIPLIERS[5]
MULTIPLIERS[:] = [0, 1, 2, 4, 6]
cdef int TARGETS_C[4]
TARGETS_C[:] = [_TARGETS[0], _TARGETS[1], _TARGETS[2], _TARGETS[3]]
cdef int C_BASE = _BASE, C_PAB = _PAB, C_CHELEM = _CHELEM, C_CHELEM_ANNOUNCED = _CHELEM_ANNOUNCED
cdef int C_CHELEM_FAILED = _CHELEM_FAILED
cdef object _ATTACK_SIDE = Side.ATTACK
cdef object _DEFENCE_SIDE = Side.DEFENCE


def score_played(var, int taker, contract, int oudlers, double points, partner, petit_au_bout,
                 tuple poignees, chelem_announced, chelem):
    """``scoring.score_played`` (R21–R24, the reference) in C: the same ``Score``, field for field
    (tested on every input a deal can give)."""
    cdef int players = var.players
    cdef int mult = MULTIPLIERS[<int>contract]
    cdef int target = TARGETS_C[oudlers]
    cdef bint made = points >= target
    # R21: the half point goes to the side that wins.
    cdef int rounded = <int>points  # (floor: points are never negative)
    if made and points != rounded:
        rounded += 1  # (ceil)
    cdef int margin = rounded - target if rounded >= target else target - rounded
    cdef int sign = 1 if made else -1
    cdef int base = (C_BASE + margin) * mult * sign
    cdef int pab = 0
    if petit_au_bout is not None:
        pab = C_PAB * mult * (1 if petit_au_bout is _ATTACK_SIDE else -1)
    cdef int poignee = 0
    for p in poignees:
        poignee += <int>p
    poignee *= sign
    cdef int chelem_prime = 0
    if chelem is _ATTACK_SIDE:
        chelem_prime = C_CHELEM_ANNOUNCED if chelem_announced else C_CHELEM
    else:
        if chelem_announced:
            chelem_prime -= C_CHELEM_FAILED
        if chelem is _DEFENCE_SIDE:
            chelem_prime -= C_CHELEM
    cdef int s = base + pab + poignee + chelem_prime
    scores = [-s] * players
    if partner is None:
        scores[taker] = <int>var.taker_share * s  # R24: alone against all
    else:
        scores[taker] = 2 * s
        scores[<int>partner] = s
    return frozen(Score, SCORE_FIELDS, (players, taker, partner, contract, oudlers, points, target, made,
                                        margin, base, petit_au_bout, pab, poignees, poignee,
                                        chelem_announced, chelem, chelem_prime, s, tuple(scores)))


cdef tuple SCORE_FIELDS = tuple(f.name for f in _dataclass_fields(Score))  # (in __init__'s order)
cdef tuple RESULT_FIELDS = tuple(f.name for f in _dataclass_fields(DealResult))


cdef object frozen(type cls, tuple names, tuple values):
    """An instance of the frozen dataclass ``cls`` from its fields' values, set as its generated
    ``__init__`` sets them (``object.__setattr__``), without a Python call for each."""
    obj = cls.__new__(cls)
    cdef Py_ssize_t i
    for i in range(len(names)):
        PyObject_GenericSetAttr(obj, names[i], values[i])
    return obj


_FIELDS = tuple(name for name in PureDealCore.__slots__ if name != "players")


def _restore(cls, fields):
    """A core from its pickled fields (``DealCore.__reduce__``)."""
    core = cls.__new__(cls)
    core._setup(fields["variant"], fields["dealer"], list(fields["dealt"]), fields["chien"])
    for name, value in fields.items():
        setattr(core, name, value)
    return core


cdef int SHELL_GAPS[4]
SHELL_GAPS[:] = [23, 10, 4, 1]


cdef tuple shuffle_words(int players, int hand_size, object rng):
    """``core.shuffled_masks`` for a ``random.Random``, with one call into it instead of 78.

    ``random()`` is ``((a >> 5) * 2**26 + (b >> 6)) / 2**53`` of two 32-bit draws a, b;
    ``getrandbits(32 * 156)`` returns the same 156 draws, first in the lowest bits: the
    sort keys, and the generator's state after, are exactly those of 78 ``random()`` calls.
    """
    cdef bytes raw = rng.getrandbits(32 * 156).to_bytes(624, "little")
    cdef const unsigned char* p = raw
    cdef u64 keys[78]
    cdef int order[78]
    cdef int i, j, card
    cdef u64 a, b, key
    for i in range(78):
        a = (<u64>p[8 * i] | (<u64>p[8 * i + 1] << 8) | (<u64>p[8 * i + 2] << 16)
             | (<u64>p[8 * i + 3] << 24))
        b = (<u64>p[8 * i + 4] | (<u64>p[8 * i + 5] << 8) | (<u64>p[8 * i + 6] << 16)
             | (<u64>p[8 * i + 7] << 24))
        keys[i] = ((a >> 5) << 26) | (b >> 6)
    # the cards by key, ties in card order, as sorted() does: a Shell sort of (key, card) as one
    # 60-bit number (53-bit key, 7-bit card: all distinct, so any sort is the stable one)
    cdef u64 pairs[78]
    cdef int gap, g
    cdef u64 v
    for i in range(78):
        pairs[i] = (keys[i] << 7) | i
    for g in range(4):
        gap = SHELL_GAPS[g]
        for i in range(gap, 78):
            v = pairs[i]
            j = i
            while j >= gap and pairs[j - gap] > v:
                pairs[j] = pairs[j - gap]
                j -= gap
            pairs[j] = v
    for i in range(78):
        order[i] = <int>(pairs[i] & 127)
    cdef u128 hand
    masks = []
    for i in range(players):
        hand = 0
        for j in range(i * hand_size, (i + 1) * hand_size):
            hand |= ONE << order[j]
        masks.append(u128_to_py(hand))
    hand = 0
    for j in range(players * hand_size, 78):
        hand |= ONE << order[j]
    return masks, u128_to_py(hand)
