"""The core of a deal (R5–R7, R9, R15–R24's counting and scoring): the pure-Python reference.

``DealCore`` holds a deal's whole state and does what every deal, and the bots' search, spends
its time in: dealing (``new``, with R6's petit sec), the bidding (``_bid``, R7) and the phase
steps up to the call or the écart (``_start_*``), ``legal_mask``, ``play`` (which finishes a
trick), ``copy``, the count at the end (``attack_cards``, ``count``) and the ``result`` (its
score through ``scoring.score_played``). ``Deal`` (deal.py) subclasses it and adds the call, the
écart, the announces, every check and the views; it adds no state of its own, so ``copy``
copies everything. ``_core.pyx`` is the same class compiled with masks as C 128-bit integers
(and its count and score in C); ``engine.select`` picks which one the engine uses.

Fields: the core *owns* (sets in ``_setup``, changes while bids are made and cards played)
``variant``, ``players``, ``dealer``, ``dealt``, ``chien``, ``hands``, ``phase``,
``turn``, ``leader``, ``trick``, ``trick_mask``, ``lead_mask``, ``trick_high``,
``tricks``, ``won``, ``tricks_won``, ``excuse_adjust``, ``actions``, ``annulled``,
``petit_sec_seat``, ``bids``, ``high_bid``, ``taker``, ``contract``, ``side`` and the
``legal_mask`` cache ``_legal`` (-1: stale; whoever changes a hand or the phase sets it).
It *carries* (starts and copies, never decides) what the call and the écart decide:
``called``, ``partner``, ``ecart``, ``ecart_trumps``, ``chelem_announced``, ``poignees``.
Of those the hot path reads ``called`` (R9's first lead at five), and the count reads
``ecart``.

``hands``, ``won``, ``tricks_won`` and ``side`` are lists here; in the native core they are
write-through sequences (``core.hands[seat] |= mask`` works on both; compare with ``list()``;
each index converts a C mask, so a hot loop takes ``list(core.hands)`` once), and ``trick``
is a new list at each read there.

A subclass (``Deal``) declares ``__slots__ = ()``, builds through ``_setup``, sets
``_legal = -1`` after changing a hand or the phase, appends its own actions to ``actions``,
and may override ``_check_play`` to say which rule refuses a card (``play`` calls it before
raising); a bid ``_bid`` refuses (False, nothing changed) is for ``Deal.check`` to explain.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from typing import Any, Final, Self

from .actions import Action, Bid, Play
from .cards import (
    ABOVE,
    CARDS,
    EXCUSE,
    EXCUSE_BIT,
    FOLLOW_MASK,
    OUDLERS,
    PETIT_BIT,
    TRUMPS,
    Card,
    half_points,
)
from .errors import IllegalAction
from .phases import Annulment, Phase
from .rules import Contract, Side, Variant, variant
from .scoring import DealResult, score_played
from .tricks import Trick

# Enum attribute lookups cost ~60 ns each; the hot paths use these module constants.
_BIDDING = Phase.BIDDING
_CALL = Phase.CALL
_ECART = Phase.ECART
_ANNOUNCE = Phase.ANNOUNCE
_PLAY = Phase.PLAY
_DONE = Phase.DONE
ATTACK, DEFENCE = 0, 1  # the values of ``side[seat]`` and the indices of ``won``/``tricks_won``
_SIDES: Final = (Side.ATTACK, Side.DEFENCE)
# Interned Play actions: the hot path allocates nothing new.
PLAYS: Final = tuple(tuple(Play(s, CARDS[c]) for c in range(78)) for s in range(5))
_BITS: Final = tuple(1 << c for c in range(78))
_new_trick: Final = tuple.__new__  # skips NamedTuple's Python-level __new__ in the hot path


def variant_and_dealer(players: int, dealer: int) -> Variant:
    var = variant(players)
    if type(dealer) is not int or not 0 <= dealer < players:
        raise ValueError(f"R4: dealer must be a seat 0…{players - 1}, not {dealer!r}")
    return var


def rng_for(seed: int | str | bytes | None) -> random.Random:
    return secrets.SystemRandom() if seed is None else random.Random(seed)


def shuffled_masks(players: int, hand_size: int, rand: Any) -> tuple[list[int], int]:
    """R5: the hands and the chien of a uniform permutation drawn with ``rand()`` (78 calls)."""
    # Sorting by random keys beats shuffle(); records depend on this exact use of the stream.
    bits = sorted(_BITS, key=lambda _: rand())
    hands = [sum(bits[i * hand_size:(i + 1) * hand_size]) for i in range(players)]
    return hands, sum(bits[players * hand_size:])


def coerce_card(card: Any) -> Card:
    if isinstance(card, str):
        return Card.parse(card)
    if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < 78:
        return CARDS[card]
    raise IllegalAction("R1", f"not a card: {card!r}", "not_card")


class DealCore:
    """A deal's state and its card play. Build with :meth:`new`, or ``_setup`` on a bare instance."""

    __slots__ = (
        "_legal",
        "actions",
        "annulled",
        "bids",
        "called",
        "chelem_announced",
        "chien",
        "contract",
        "dealer",
        "dealt",
        "ecart",
        "ecart_trumps",
        "excuse_adjust",
        "hands",
        "high_bid",
        "lead_mask",
        "leader",
        "partner",
        "petit_sec_seat",
        "phase",
        "players",
        "poignees",
        "side",
        "taker",
        "trick",
        "trick_high",
        "trick_mask",
        "tricks",
        "tricks_won",
        "turn",
        "variant",
        "won",
    )

    variant: Variant
    players: int
    dealer: int
    dealt: tuple[int, ...]
    chien: int
    hands: list[int]
    phase: Phase
    turn: int | None
    annulled: Any  # deal.Annulment | None: the rules that annul a deal are Deal's
    petit_sec_seat: int | None
    bids: list[Contract | None]
    high_bid: Contract | None
    taker: int | None
    contract: Contract | None
    called: Card | None
    partner: int | None
    side: list[int]
    ecart: int
    ecart_trumps: int
    chelem_announced: bool
    poignees: dict[int, int]
    leader: int
    trick: list[Card]
    trick_mask: int
    lead_mask: int
    trick_high: int
    tricks: list[Trick]
    won: list[int]
    tricks_won: list[int]
    excuse_adjust: int
    actions: list[Action]  # every action applied, in order (play() appends its own)
    _legal: int  # legal_mask() cache; -1 when stale

    def _setup(self, var: Variant, dealer: int, masks: list[int], chien_mask: int) -> None:
        """The state right after the deal (R5): bidding, from the seat after the dealer."""
        players = var.players
        self.variant = var
        self.players = players
        self.dealer = dealer
        self.dealt = tuple(masks)
        self.chien = chien_mask
        self.hands = list(masks)
        self.annulled = None
        self.petit_sec_seat = None
        self.bids = []
        self.high_bid = None
        self.taker = None
        self.contract = None
        self.called = None
        self.partner = None
        self.side = [DEFENCE] * players
        self.ecart = 0
        self.ecart_trumps = 0
        self.chelem_announced = False
        self.poignees = {}
        self.leader = (dealer + 1) % players
        self.trick = []
        self.trick_mask = 0
        self.lead_mask = 0
        self.trick_high = 0
        self.tricks = []
        self.won = [0, 0]
        self.tricks_won = [0, 0]
        self.excuse_adjust = 0
        self.actions = []
        self._legal = -1
        self.phase = _BIDDING
        self.turn = (dealer + 1) % players
        for seat, m in enumerate(masks):  # R6: the software detects a petit sec itself
            if m & (TRUMPS | EXCUSE_BIT) == PETIT_BIT:
                self.petit_sec_seat = seat
                self._annul(Annulment.PETIT_SEC)
                break

    @classmethod
    def new(cls, players: int = 4, dealer: int = 0, seed: int | str | bytes | None = None,
            rng: random.Random | None = None) -> Self:
        """A random deal (R5): from ``rng``, else seeded by ``seed``, else from ``secrets``."""
        var = variant_and_dealer(players, dealer)
        masks, chien = shuffled_masks(players, var.hand_size, (rng or rng_for(seed)).random)
        deal = cls.__new__(cls)  # a fresh permutation needs no checking
        deal._setup(var, dealer, masks, chien)
        return deal

    def copy(self) -> Self:
        """An independent copy, cheap enough for search (lists are copied, values shared)."""
        cls = self.__class__
        c = cls.__new__(cls)
        c.variant = self.variant
        c.players = self.players
        c.dealer = self.dealer
        c.dealt = self.dealt
        c.chien = self.chien
        c.hands = self.hands[:]
        c.phase = self.phase
        c.turn = self.turn
        c.annulled = self.annulled
        c.petit_sec_seat = self.petit_sec_seat
        c.bids = self.bids[:]
        c.high_bid = self.high_bid
        c.taker = self.taker
        c.contract = self.contract
        c.called = self.called
        c.partner = self.partner
        c.side = self.side[:]
        c.ecart = self.ecart
        c.ecart_trumps = self.ecart_trumps
        c.chelem_announced = self.chelem_announced
        c.poignees = self.poignees.copy()
        c.leader = self.leader
        c.trick = self.trick[:]
        c.trick_mask = self.trick_mask
        c.lead_mask = self.lead_mask
        c.trick_high = self.trick_high
        c.tricks = self.tricks[:]
        c.won = self.won[:]
        c.tricks_won = self.tricks_won[:]
        c.excuse_adjust = self.excuse_adjust
        c.actions = self.actions[:]
        c._legal = self._legal
        return c

    __copy__ = copy

    # --- the bidding and the phase steps -------------------------------------------------

    def _bid(self, action: Bid) -> bool:
        """R7: apply ``action`` if it is a legal bid now (the seat to speak, a pass or a higher
        contract), appended to ``actions``, and say so; False, changing nothing, otherwise
        (``Deal.check`` then says why)."""
        seat = action.seat
        contract = action.contract
        if self.phase is not _BIDDING or seat != self.turn:
            return False
        if contract is not None:
            high = self.high_bid
            if contract.__class__ is not Contract or (high is not None and contract <= high):
                return False
            self.high_bid = contract
            self.taker = seat
        self._legal = -1
        self.actions.append(action)
        bids = self.bids
        bids.append(contract)
        if len(bids) < self.players:
            self.turn = (seat + 1) % self.players  # R7: each speaks once, in turn
        elif self.high_bid is None:
            self._annul(Annulment.ALL_PASS)
        else:
            self._start_contract()
        return True

    def _start_contract(self) -> None:
        """R7: the highest bid is the contract; at five the taker calls a card first (R8)."""
        self.contract = self.high_bid
        self.side[self.taker] = ATTACK  # type: ignore[index]
        if self.variant.calls_card:
            self.phase = _CALL
            self.turn = self.taker
        else:
            self._start_chien()

    def _start_chien(self) -> None:
        """R10/R12: after a prise or a garde the taker takes the chien and discards; after a
        garde sans or contre nobody sees it."""
        assert self.contract is not None
        self._legal = -1
        if self.contract.chien_shown:
            self.hands[self.taker] |= self.chien  # type: ignore[index]
            self.phase = _ECART
            self.turn = self.taker
        else:
            self._start_announce()

    def _start_announce(self) -> None:
        """R13: the taker may announce a chelem before the first card."""
        self.phase = _ANNOUNCE
        self.turn = self.taker

    def _start_play(self) -> None:
        self._legal = -1
        self.phase = _PLAY
        self.turn = self.leader

    def _annul(self, why: Annulment) -> None:
        """R6, R7: the deal ends without a score."""
        self.annulled = why
        self._end()

    def _end(self) -> None:
        self.phase = _DONE
        self.turn = None

    # --- card play -----------------------------------------------------------------

    def legal_mask(self) -> int:
        """The cards the seat to play may play (R9, R15), as a mask. 0 outside the play phase."""
        legal = self._legal
        if legal >= 0:
            return legal
        if self.phase is not _PLAY:
            legal = 0
        else:
            hand = self.hands[self.turn]  # type: ignore[index]
            lead = self.lead_mask
            if not lead:
                if self.trick or self.tricks or self.called is None:
                    legal = hand
                else:
                    legal = self._first_lead_mask(hand)
            elif lead != TRUMPS and hand & lead:
                legal = hand & (lead | EXCUSE_BIT)
            elif hand & TRUMPS:
                trumps = hand & TRUMPS
                legal = (trumps & ABOVE[self.trick_high] or trumps) | (hand & EXCUSE_BIT)
            else:
                legal = hand
        self._legal = legal
        return legal

    def _first_lead_mask(self, hand: int) -> int:
        # R9: at 5 players the first lead may not be in the called suit, except the called card.
        called = self.called
        assert called is not None
        allowed = hand & ~FOLLOW_MASK[called] | (hand & (1 << called))
        return allowed or hand

    def _check_play(self, seat: int, card: Card) -> None:
        """Raise IllegalAction saying why ``seat`` may not play ``card`` (Deal cites the rule)."""
        raise IllegalAction("R15", f"seat {seat} cannot play {card} now", "no_play")

    def play(self, card: Card | int | str, seat: int | None = None) -> Play:
        """Fast path: the seat to play plays ``card`` (checked against R9/R15); returns the action."""
        if card.__class__ is not Card:
            card = coerce_card(card)
        turn = self.turn
        bit = 1 << card
        legal = self._legal
        if legal < 0:
            legal = self.legal_mask()
        if not bit & legal or (seat is not None and seat != turn):
            self._check_play(turn if seat is None else seat, card)  # type: ignore[arg-type]
            raise IllegalAction("R15", f"{card} cannot be played now", "no_play")  # pragma: no cover
        self._legal = -1
        self.hands[turn] ^= bit  # type: ignore[index]
        action = PLAYS[turn][card]  # type: ignore[index]
        self.actions.append(action)
        trick = self.trick
        trick.append(card)
        self.trick_mask |= bit
        if not self.lead_mask and card != 77:  # the Excuse leaves the lead to the next card (R15)
            self.lead_mask = FOLLOW_MASK[card]
        if card > self.trick_high and bit & TRUMPS:
            self.trick_high = card
        if len(trick) == self.players:
            self._finish_trick()
        else:
            self.turn = (turn + 1) % self.players  # type: ignore[operator]
        return action

    def _finish_trick(self) -> None:
        trick: list[int] = self.trick  # type: ignore[assignment]  # Cards compare as ints
        n = self.players
        leader = self.leader
        mask = self.trick_mask
        tricks = self.tricks
        last = len(tricks) + 1 == self.variant.hand_size
        side = self.side
        best = mask & TRUMPS or mask & self.lead_mask
        winner = (leader + trick.index(best.bit_length() - 1)) % n
        if mask & EXCUSE_BIT:
            ex_seat = (leader + trick.index(77)) % n
            if last:
                # R19: the Excuse led to the last trick by a side that won every trick wins it.
                if ex_seat == leader and self.tricks_won[side[leader]] == len(tricks):
                    winner = leader
                # R18: otherwise it goes with the last trick.
            else:
                owner = side[ex_seat]
                if owner != side[winner]:
                    # R17: the Excuse stays with its side, which gives the winners a 0.5 card
                    # (now, or at the count if it never wins one): EX counts 4 for its side.
                    self.won[owner] |= EXCUSE_BIT
                    mask ^= EXCUSE_BIT
                    self.excuse_adjust += 1 if owner == DEFENCE else -1
        ws = side[winner]
        self.won[ws] |= mask
        self.tricks_won[ws] += 1
        tricks.append(_new_trick(Trick, (leader, tuple(trick), winner, n)))
        self.trick = []
        self.trick_mask = self.lead_mask = self.trick_high = 0
        self.leader = winner
        if last:
            self.phase = _DONE
            self.turn = None
        else:
            self.turn = winner

    # --- the count -------------------------------------------------------------------

    def attack_cards(self) -> int:
        """The attack's cards at the count (R10, R12, R20), as a mask; valid once over."""
        return attack_cards(self)

    def count(self) -> Count:
        """What the score of a played deal depends on besides the contract (R20, R22, R23)."""
        return count(self)

    def result(self) -> DealResult:
        """The outcome (R20–R24); raises ValueError while the deal is not over."""
        if self.phase is not _DONE:
            raise ValueError(f"the deal is not over (phase {self.phase.value})")
        if self.annulled is not None:
            return DealResult(self.annulled, None, self.petit_sec_seat, self.players)
        assert self.taker is not None and self.contract is not None
        counted = self.count()  # (R17–R20, R23's petit au bout, the chelem)
        var = self.variant
        poignees = tuple(p for m in self.poignees.values() if (p := var.poignee_size(m.bit_count())))
        return DealResult(None, score_played(
            var, self.taker, self.contract, counted.oudlers, counted.points, self.partner,
            counted.petit_au_bout, poignees, self.chelem_announced, counted.chelem))


@dataclass(frozen=True, slots=True)
class Count:
    """The count of a played deal: the attack's cards and points, petit au bout, chelem."""

    attack: int
    points: float
    petit_au_bout: Side | None
    chelem: Side | None

    @property
    def oudlers(self) -> int:
        return (self.attack & OUDLERS).bit_count()


# The count reads a handful of fields once per deal: one function serves both cores.

def attack_cards(core: Any) -> int:
    """``DealCore.attack_cards`` of either core."""
    attack: int = core.won[ATTACK]
    contract = core.contract
    if contract is not None and contract.chien_shown:
        attack |= core.ecart
    elif contract is not None and contract.chien_to_attack:  # garde sans (R12)
        attack |= core.chien
    return attack


def count(core: Any) -> Count:
    """``DealCore.count`` of either core: valid once every trick is played."""
    if core.phase is not _DONE or not core.tricks:
        raise ValueError("the deal has no count: its cards are not all played")
    attack: int = core.attack_cards()
    points = (half_points(attack) + core.excuse_adjust) / 2
    tricks = core.tricks
    side = core.side
    last = tricks[-1]
    pab: Side | None = None
    if 56 in last.cards:
        pab = _SIDES[side[last.winner]]
    elif last.cards[0] == EXCUSE and last.winner == last.leader:
        # Last trick won under R19: T1 in the second-to-last trick counts as au bout too (R23).
        before = tricks[-2]
        if 56 in before.cards:
            pab = _SIDES[side[before.winner]]
    total = core.variant.tricks
    won = core.tricks_won
    chelem = Side.ATTACK if won[ATTACK] == total else Side.DEFENCE if won[DEFENCE] == total else None
    return Count(attack, points, pab, chelem)
