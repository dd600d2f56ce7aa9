"""The deal state machine (R4–R24).

One mutable ``Deal`` per deal: ``legal_actions()``, ``apply(action)``, ``view(seat)``,
``result()``, and a cheap ``copy()`` for search. Every refusal raises ``IllegalAction``
before anything changes. Card play has a fast path (``legal_mask()`` / ``play(card)``)
because bots spend their time there.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from .actions import Action, Bid, Call, Chelem, Ecart, Play, Poignee, action_to_dict
from .cards import (
    ABOVE,
    CARDS,
    EXCUSE,
    EXCUSE_BIT,
    FOLLOW_MASK,
    JACKS,
    KINGS,
    KNIGHTS,
    OUDLERS,
    QUEENS,
    TRUMPS,
    Card,
    Suit,
    cards_of,
    codes_of,
    half_points,
    mask_of,
)
from .errors import IllegalAction
from .options import EcartOptions, PoigneeOptions
from .rules import Contract, PoigneeSize, Side, Variant, variant
from .scoring import Score, score_deal
from .tricks import Trick, last_tricks_of
from .view import View


class Phase(Enum):
    BIDDING = "bidding"
    CALL = "call"  # 5 players: the taker calls a card (R8)
    ECART = "ecart"  # prise/garde: the taker discards (R10, R11)
    ANNOUNCE = "announce"  # the taker may announce a chelem (R13)
    PLAY = "play"  # poignées are shown in this phase, before a seat's first card (R14)
    DONE = "done"


class Annulment(Enum):
    PETIT_SEC = "petit_sec"  # R6
    ALL_PASS = "all_pass"  # R7


# Enum attribute lookups cost ~60 ns each; the hot paths use these module constants.
_BIDDING = Phase.BIDDING
_CALL = Phase.CALL
_ECART = Phase.ECART
_ANNOUNCE = Phase.ANNOUNCE
_PLAY = Phase.PLAY
_DONE = Phase.DONE
PETIT_BIT: Final = 1 << 56
_ATTACK, _DEFENCE = 0, 1
_SIDES: Final = (Side.ATTACK, Side.DEFENCE)
_CONTRACTS: Final = tuple(Contract)
# Interned Play actions: legal_actions() in the hot path allocates nothing new.
_PLAYS: Final = tuple(tuple(Play(s, CARDS[c]) for c in range(78)) for s in range(5))
_BIDS: Final = tuple((Bid(s, None),) + tuple(Bid(s, c) for c in _CONTRACTS) for s in range(5))
_BITS: Final = tuple(1 << c for c in range(78))
_new_trick: Final = tuple.__new__  # skips NamedTuple's Python-level __new__ in the hot path
_SUIT_NAMES: Final = {Suit.SPADES: "spades", Suit.HEARTS: "hearts", Suit.DIAMONDS: "diamonds",
                      Suit.CLUBS: "clubs"}


@dataclass(frozen=True, slots=True)
class DealResult:
    """The outcome of a finished deal: annulled, or scored."""

    annulled: Annulment | None
    score: Score | None
    petit_sec_seat: int | None = None

    @property
    def scores(self) -> tuple[int, ...]:
        return self.score.scores if self.score else ()

    def to_dict(self) -> dict[str, Any]:
        """The replay result shape of DESIGN.md (without ``legal``)."""
        s = self.score
        if s is None:
            return {"annulled": self.annulled.value if self.annulled else None, "taker": None,
                    "partner": None, "contract": None, "oudlers": None, "points": None,
                    "made": None, "scores": None}
        return {"annulled": None, "taker": s.taker, "partner": s.partner,
                "contract": s.contract.name_text, "oudlers": s.oudlers, "points": s.points,
                "made": s.made, "scores": list(s.scores)}


def _coerce_card(card: Any) -> Card:
    if isinstance(card, str):
        return Card.parse(card)
    if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < 78:
        return CARDS[card]
    raise IllegalAction("R1", f"not a card: {card!r}")


def _variant_and_dealer(players: int, dealer: int) -> Variant:
    var = variant(players)
    if type(dealer) is not int or not 0 <= dealer < players:
        raise ValueError(f"R4: dealer must be a seat 0…{players - 1}, not {dealer!r}")
    return var


def _rng_for(seed: int | str | bytes | None) -> random.Random:
    return secrets.SystemRandom() if seed is None else random.Random(seed)


class Deal:
    """The state of one deal. Build with :meth:`new` (random) or the constructor (given cards)."""

    __slots__ = (
        "_legal",
        "_log",
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
        "high",
        "highest",
        "lead_mask",
        "leader",
        "n",
        "partner",
        "petit_sec_seat",
        "phase",
        "poignees",
        "side",
        "taker",
        "trick",
        "trick_mask",
        "tricks",
        "tricks_won",
        "turn",
        "var",
        "won",
    )

    var: Variant
    n: int
    dealer: int
    dealt: tuple[int, ...]
    chien: int
    hands: list[int]
    phase: Phase
    turn: int | None
    annulled: Annulment | None
    petit_sec_seat: int | None
    bids: list[Contract | None]
    highest: Contract | None
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
    high: int
    tricks: list[Trick]
    won: list[int]
    tricks_won: list[int]
    excuse_adjust: int
    _log: list[tuple[int, Action]]  # non-play actions, each with the number of cards played before it
    _legal: int  # legal_mask() cache; -1 when stale

    def __init__(self, players: int, dealer: int, hands: Sequence[int | Iterable[Card | str]],
                 chien: int | Iterable[Card | str]) -> None:
        var = _variant_and_dealer(players, dealer)
        if len(hands) != players:
            raise ValueError(f"R5: {players} players need {players} hands, not {len(hands)}")
        masks = [h if isinstance(h, int) else mask_of(h) for h in hands]
        chien_mask = chien if isinstance(chien, int) else mask_of(chien)
        seen = 0
        for seat, m in enumerate(masks):
            if m.bit_count() != var.hand_size or m >> 78 or m < 0:
                raise ValueError(f"R5: seat {seat} must hold {var.hand_size} cards, not {m.bit_count()}")
            if seen & m:
                raise ValueError(f"R1: card {cards_of(seen & m)[0]} is dealt twice")
            seen |= m
        if chien_mask.bit_count() != var.chien_size or chien_mask >> 78 or chien_mask < 0:
            raise ValueError(f"R5: the chien must hold {var.chien_size} cards, not {chien_mask.bit_count()}")
        if seen & chien_mask:
            raise ValueError(f"R1: card {cards_of(seen & chien_mask)[0]} is dealt twice")
        self._setup(var, dealer, masks, chien_mask)

    def _setup(self, var: Variant, dealer: int, masks: list[int], chien_mask: int) -> None:
        players = var.players
        self.var = var
        self.n = players
        self.dealer = dealer
        self.dealt = tuple(masks)
        self.chien = chien_mask
        self.hands = list(masks)
        self.annulled = None
        self.petit_sec_seat = None
        self.bids = []
        self.highest = None
        self.taker = None
        self.contract = None
        self.called = None
        self.partner = None
        self.side = [_DEFENCE] * players
        self.ecart = 0
        self.ecart_trumps = 0
        self.chelem_announced = False
        self.poignees = {}
        self.leader = (dealer + 1) % players
        self.trick = []
        self.trick_mask = 0
        self.lead_mask = 0
        self.high = 0
        self.tricks = []
        self.won = [0, 0]
        self.tricks_won = [0, 0]
        self.excuse_adjust = 0
        self._log = []
        self._legal = -1
        self.phase = _BIDDING
        self.turn = (dealer + 1) % players
        for seat, m in enumerate(masks):  # R6: the software detects a petit sec itself
            if m & (TRUMPS | EXCUSE_BIT) == PETIT_BIT:
                self.annulled = Annulment.PETIT_SEC
                self.petit_sec_seat = seat
                self.phase = _DONE
                self.turn = None
                break

    @classmethod
    def new(cls, players: int = 4, dealer: int = 0, seed: int | str | bytes | None = None,
            rng: random.Random | None = None) -> Deal:
        """A random deal (R5): from ``rng``, else seeded by ``seed``, else from ``secrets``."""
        var = _variant_and_dealer(players, dealer)
        rand = (rng or _rng_for(seed)).random
        # A uniform permutation of the cards' bits: sorting by random keys beats shuffle().
        bits = sorted(_BITS, key=lambda _: rand())
        h = var.hand_size
        deal = cls.__new__(cls)  # a fresh permutation needs no checking
        deal._setup(var, dealer, [sum(bits[i * h:(i + 1) * h]) for i in range(players)],
                    sum(bits[players * h:]))
        return deal

    # --- state queries ---------------------------------------------------------

    @property
    def players(self) -> int:
        return self.n

    @property
    def is_over(self) -> bool:
        return self.phase is _DONE

    @property
    def actions(self) -> list[Action]:
        """Every action applied so far, in order (plays are rebuilt from the tricks: the hot
        path does not log them)."""
        plays: list[Action] = [_PLAYS[seat][card] for t in self.tricks for seat, card in t.plays]
        plays += [_PLAYS[(self.leader + i) % self.n][c] for i, c in enumerate(self.trick)]
        out: list[Action] = []
        done = 0
        for before, action in self._log:
            out += plays[done:before]
            done = before
            out.append(action)
        out += plays[done:]
        return out

    def hand(self, seat: int) -> list[Card]:
        return cards_of(self.hands[seat])

    def copy(self) -> Deal:
        """An independent copy, cheap enough for search (lists are copied, values shared)."""
        c = Deal.__new__(Deal)
        c.var = self.var
        c.n = self.n
        c.dealer = self.dealer
        c.dealt = self.dealt
        c.chien = self.chien
        c.hands = self.hands[:]
        c.phase = self.phase
        c.turn = self.turn
        c.annulled = self.annulled
        c.petit_sec_seat = self.petit_sec_seat
        c.bids = self.bids[:]
        c.highest = self.highest
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
        c.high = self.high
        c.tricks = self.tricks[:]
        c.won = self.won[:]
        c.tricks_won = self.tricks_won[:]
        c.excuse_adjust = self.excuse_adjust
        c._log = self._log[:]
        c._legal = self._legal
        return c

    __copy__ = copy

    # --- legal actions -----------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """The enumerable legal actions of the seat to act.

        In the écart phase the choice is combinatorial: this list is empty and
        :meth:`ecart_options` describes it. In the play phase a seat that may show a
        poignée has :meth:`poignee_options` besides the cards listed here.
        """
        phase = self.phase
        turn = self.turn
        if phase is _PLAY:
            plays = _PLAYS[turn]  # type: ignore[index]
            mask = self.legal_mask()
            out: list[Action] = []
            while mask:
                low = mask & -mask
                out.append(plays[low.bit_length() - 1])
                mask ^= low
            return out
        if turn is None:
            return []
        if phase is _BIDDING:
            bids = _BIDS[turn]
            lowest = self.highest.value + 1 if self.highest else 1
            return [bids[0], *bids[lowest:]]
        if phase is _CALL:
            return [Call(turn, c) for c in cards_of(self.callable_mask())]
        if phase is _ANNOUNCE:
            return [Chelem(turn, True), Chelem(turn, False)]
        return []

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
                legal = (trumps & ABOVE[self.high] or trumps) | (hand & EXCUSE_BIT)
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

    def legal_plays(self) -> list[Card]:
        return cards_of(self.legal_mask())

    def callable_mask(self) -> int:
        """R8: kings; queens only with all four kings; knights with all kings and queens; jacks…"""
        hand = self.hands[self.taker] if self.taker is not None else 0
        mask = KINGS
        held = KINGS
        for rank in (QUEENS, KNIGHTS, JACKS):
            if hand & held != held:
                break
            mask |= rank
            held |= rank
        return mask

    def ecart_options(self) -> EcartOptions | None:
        """R10/R11: the écart choice, when it is the taker's to make."""
        if self.phase is not _ECART or self.taker is None:
            return None
        hand = self.hands[self.taker]
        size = self.var.chien_size
        plain = hand & ~(TRUMPS | KINGS | OUDLERS)
        if self.called is not None:
            plain &= ~(1 << self.called)
        need = max(0, size - plain.bit_count())
        allowed = plain | (hand & TRUMPS & ~OUDLERS if need else 0)
        return EcartOptions(self.taker, size, allowed, need)

    def poignee_options(self) -> PoigneeOptions | None:
        """R14: the poignée the seat to play may show now (before its first card), if any."""
        seat = self.turn
        if self.phase is not _PLAY or seat is None or self.tricks or seat in self.poignees:
            return None
        hand = self.hands[seat]
        avail = hand & (TRUMPS | EXCUSE_BIT)
        if seat == self.taker:
            avail |= self.ecart_trumps
        count = avail.bit_count()
        sizes = tuple((size, n) for size, n in zip(PoigneeSize, self.var.poignee_thresholds, strict=True)
                      if n <= count)
        if not sizes:
            return None
        return PoigneeOptions(seat, sizes, avail, hand & TRUMPS)

    def is_legal(self, action: Action) -> bool:
        try:
            self.check(action)
        except IllegalAction:
            return False
        return True

    # --- checking ----------------------------------------------------------------

    def check(self, action: Action) -> None:
        """Raise IllegalAction (citing the rule) if ``action`` may not be applied now."""
        if self.phase is _DONE:
            raise self._over_error()
        if not isinstance(action, Action):
            raise IllegalAction("R4", f"not an action: {action!r}")
        if not isinstance(action.seat, int) or not 0 <= action.seat < self.n:
            raise IllegalAction("R4", f"there is no seat {action.seat!r} at {self.n} players")
        if isinstance(action, Play):
            self._check_play(action.seat, action.card)
        elif isinstance(action, Bid):
            self._check_bid(action)
        elif isinstance(action, Poignee):
            self._check_poignee(action)
        elif isinstance(action, Ecart):
            self._check_ecart(action)
        elif isinstance(action, Call):
            self._check_call(action)
        elif isinstance(action, Chelem):
            self._check_chelem(action)

    def _over_error(self) -> IllegalAction:
        if self.annulled is not None:
            return IllegalAction("R6" if self.annulled is Annulment.PETIT_SEC else "R7",
                                 f"the deal was annulled ({self.annulled.value}): no more actions")
        return IllegalAction("R16", "the deal is over: every trick has been played")

    def _turn_error(self, rule: str, what: str, seat: int) -> IllegalAction:
        return IllegalAction(rule, f"it is seat {self.turn}'s turn to {what}, not seat {seat}'s")

    def _check_bid(self, action: Bid) -> None:
        if self.phase is not _BIDDING:
            raise IllegalAction("R7", "bidding is over: each player speaks exactly once")
        if action.seat != self.turn:
            raise self._turn_error("R7", "bid", action.seat)
        c = action.contract
        if c is not None:
            if not isinstance(c, Contract):
                raise IllegalAction("R7", f"unknown contract {c!r}")
            if self.highest is not None and c <= self.highest:
                raise IllegalAction("R7", f"a bid must be higher than {self.highest.name_text}, "
                                          f"not {c.name_text}")

    def _check_call(self, action: Call) -> None:
        if self.phase is not _CALL:
            raise IllegalAction("R8", "a card is called only at 5 players, right after bidding")
        if action.seat != self.taker:
            raise IllegalAction("R8", f"only the taker (seat {self.taker}) calls a card")
        card = action.card
        if not isinstance(card, Card) or not (1 << card) & self.callable_mask():
            if isinstance(card, Card) and card.rank in (11, 12, 13) and card < 56:
                needs = {13: "all four kings", 12: "all four kings and queens",
                         11: "all four kings, queens and knights"}[card.rank]
                raise IllegalAction("R8", f"{card} may be called only when holding {needs}")
            raise IllegalAction("R8", f"{card} cannot be called: call a king (or a queen, knight, jack "
                                      "when holding every card of the ranks above)")

    def _check_ecart(self, action: Ecart) -> None:
        opts = self.ecart_options()
        if opts is None:
            raise IllegalAction("R10", "there is no écart to make now")
        if action.seat != opts.seat:
            raise IllegalAction("R10", f"only the taker (seat {opts.seat}) makes the écart")
        mask = action.mask
        if len(action.cards) != opts.size:
            raise IllegalAction("R10", f"the écart has exactly {opts.size} cards, not {len(action.cards)}")
        hand = self.hands[opts.seat]
        if mask & ~hand:
            raise IllegalAction("R10", f"{cards_of(mask & ~hand)[0]} is not in the taker's hand")
        if mask & KINGS:
            raise IllegalAction("R11", f"no king in the écart ({cards_of(mask & KINGS)[0]})")
        if mask & OUDLERS:
            raise IllegalAction("R11", f"no oudler in the écart ({cards_of(mask & OUDLERS)[0]})")
        if self.called is not None and mask & (1 << self.called):
            raise IllegalAction("R11", f"the called card {self.called} may not be discarded")
        trumps = (mask & TRUMPS).bit_count()
        if trumps > opts.trumps_needed:
            if opts.trumps_needed == 0:
                raise IllegalAction("R11", "trumps may go in the écart only when it cannot be completed "
                                           "otherwise")
            raise IllegalAction("R11", f"only as many trumps as needed: {opts.trumps_needed}, not {trumps}")

    def _check_chelem(self, action: Chelem) -> None:
        if self.phase is not _ANNOUNCE:
            raise IllegalAction("R13", "a chelem is announced by the taker after the écart (or the "
                                       "bidding), before the first card")
        if action.seat != self.taker:
            raise IllegalAction("R13", f"only the taker (seat {self.taker}) may announce a chelem")

    def _check_poignee(self, action: Poignee) -> None:
        seat = action.seat
        if self.phase is not _PLAY:
            raise IllegalAction("R14", "a poignée is shown just before the player's first card")
        if seat != self.turn:
            raise IllegalAction("R14", f"a poignée is shown just before playing: it is seat {self.turn}'s "
                                       "turn")
        if seat in self.poignees:
            raise IllegalAction("R14", "each player shows at most one poignée")
        if self.tricks:
            raise IllegalAction("R14", "a poignée is shown before the player's first card, not later")
        mask = action.mask
        opts = self.poignee_options()
        avail = opts.allowed_mask if opts else self.hands[seat] & (TRUMPS | EXCUSE_BIT)
        if mask & ~avail:
            raise IllegalAction("R14", f"{cards_of(mask & ~avail)[0]} cannot be shown: a poignée is "
                                       "trumps (or the Excuse) from the player's hand")
        if self.var.poignee_size(len(action.cards)) is None:
            counts = ", ".join(str(t) for t in self.var.poignee_thresholds)
            raise IllegalAction("R14", f"a poignée has exactly {counts} trumps at {self.n} players, "
                                       f"not {len(action.cards)}")
        missing = opts.must_with_excuse & ~mask if opts else 0
        if mask & EXCUSE_BIT and missing:
            raise IllegalAction("R14", f"a poignée with the Excuse must show every trump of the hand "
                                       f"({cards_of(missing)[0]} is missing)")

    def _check_play(self, seat: int, card: Card) -> None:
        if self.phase is _DONE:
            raise self._over_error()
        if self.phase is not _PLAY:
            raise IllegalAction("R15", "cards are played after the bidding and écart "
                                       f"(phase: {self.phase.value})")
        if seat != self.turn:
            raise self._turn_error("R4", "play", seat)
        if not isinstance(card, Card):
            raise IllegalAction("R1", f"not a card: {card!r}")
        bit = 1 << card
        hand = self.hands[seat]
        if not bit & hand:
            raise IllegalAction("R15", f"{card} is not in seat {seat}'s hand")
        if bit & self.legal_mask():
            return
        lead = self.lead_mask
        if not lead:
            raise IllegalAction("R9", f"the first lead may not be in the called suit ({self.called}), "
                                      "except the called card itself")
        if lead != TRUMPS and hand & lead:
            raise IllegalAction("R15", f"must follow suit ({_SUIT_NAMES[Suit(lead.bit_length() // 14 - 1)]})")
        if self.high and hand & ABOVE[self.high]:
            raise IllegalAction("R15", f"must play a trump higher than {CARDS[self.high]}")
        raise IllegalAction("R15", "must play a trump")

    # --- applying ----------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply a legal action, or raise IllegalAction and change nothing."""
        if type(action) is Play:
            self.play(action.card, action.seat)
            return
        self.check(action)
        self._legal = -1
        if isinstance(action, Bid):
            self._apply_bid(action)
        elif isinstance(action, Call):
            self._apply_call(action)
        elif isinstance(action, Ecart):
            self._apply_ecart(action)
        elif isinstance(action, Chelem):
            self._apply_chelem(action)
        elif isinstance(action, Poignee):
            self.poignees[action.seat] = action.mask
        self._log.append((len(self.tricks) * self.n + len(self.trick), action))

    def play(self, card: Card | int | str, seat: int | None = None) -> None:
        """Fast path: the seat to play plays ``card`` (checked against R9/R15)."""
        if card.__class__ is not Card:
            card = _coerce_card(card)
        turn = self.turn
        bit = 1 << card
        legal = self._legal
        if legal < 0:
            legal = self.legal_mask()
        if not bit & legal or (seat is not None and seat != turn):
            self._check_play(turn if seat is None else seat, card)  # type: ignore[arg-type]
            raise IllegalAction("R15", f"{card} cannot be played now")  # pragma: no cover
        self._legal = -1
        self.hands[turn] ^= bit  # type: ignore[index]
        trick = self.trick
        trick.append(card)
        self.trick_mask |= bit
        if not self.lead_mask and card != 77:  # the Excuse leaves the lead to the next card (R15)
            self.lead_mask = FOLLOW_MASK[card]
        if card > self.high and bit & TRUMPS:
            self.high = card
        if len(trick) == self.n:
            self._finish_trick()
        else:
            self.turn = (turn + 1) % self.n  # type: ignore[operator]

    def _apply_bid(self, action: Bid) -> None:
        self.bids.append(action.contract)
        if action.contract is not None:
            self.highest = action.contract
            self.taker = action.seat
        if len(self.bids) < self.n:
            self.turn = (action.seat + 1) % self.n
            return
        if self.highest is None:  # R7: all passed
            self.annulled = Annulment.ALL_PASS
            self.phase = _DONE
            self.turn = None
            return
        self.contract = self.highest
        self.side[self.taker] = _ATTACK  # type: ignore[index]
        if self.var.calls_card:
            self.phase = _CALL
            self.turn = self.taker
        else:
            self._after_call()

    def _apply_call(self, action: Call) -> None:
        self.called = action.card
        taker = self.taker
        assert taker is not None
        bit = 1 << action.card
        for seat, hand in enumerate(self.hands):
            if hand & bit and seat != taker:
                self.partner = seat
                self.side[seat] = _ATTACK
        self._after_call()

    def _after_call(self) -> None:
        taker = self.taker
        assert taker is not None and self.contract is not None
        self.turn = taker
        if self.contract.chien_shown:
            self.hands[taker] |= self.chien
            self.phase = _ECART
        else:
            self.phase = _ANNOUNCE

    def _apply_ecart(self, action: Ecart) -> None:
        taker = self.taker
        assert taker is not None
        mask = action.mask
        self.hands[taker] &= ~mask
        self.ecart = mask
        self.ecart_trumps = mask & TRUMPS  # R11: shown to all
        self.phase = _ANNOUNCE

    def _apply_chelem(self, action: Chelem) -> None:
        self.chelem_announced = action.announce
        if action.announce:
            self.leader = action.seat  # R13: the announcer leads
        self.phase = _PLAY
        self.turn = self.leader

    def _finish_trick(self) -> None:
        trick: list[int] = self.trick  # type: ignore[assignment]  # Cards compare as ints
        n = self.n
        leader = self.leader
        mask = self.trick_mask
        tricks = self.tricks
        last = len(tricks) + 1 == self.var.hand_size
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
                    self.excuse_adjust += 1 if owner == _DEFENCE else -1
        ws = side[winner]
        self.won[ws] |= mask
        self.tricks_won[ws] += 1
        tricks.append(_new_trick(Trick, (leader, tuple(trick), winner, n)))
        self.trick = []
        self.trick_mask = self.lead_mask = self.high = 0
        self.leader = winner
        if last:
            self.phase = _DONE
            self.turn = None
        else:
            self.turn = winner

    # --- result ------------------------------------------------------------------

    def attack_cards(self) -> int:
        """The attack's cards at the count (R10, R12, R20), as a mask; valid once over."""
        attack = self.won[_ATTACK]
        contract = self.contract
        if contract is not None and contract.chien_shown:
            attack |= self.ecart
        elif contract is not None and contract.chien_to_attack:  # garde sans (R12)
            attack |= self.chien
        return attack

    def result(self) -> DealResult:
        """The outcome; raises ValueError while the deal is not over."""
        if self.phase is not _DONE:
            raise ValueError(f"the deal is not over (phase {self.phase.value})")
        if self.annulled is not None:
            return DealResult(self.annulled, None, self.petit_sec_seat)
        assert self.taker is not None and self.contract is not None
        attack = self.attack_cards()
        points = (half_points(attack) + self.excuse_adjust) / 2
        tricks = self.tricks
        last = tricks[-1]
        pab: Side | None = None
        if 56 in last.cards:
            pab = _SIDES[self.side[last.winner]]
        elif last.cards[0] == EXCUSE and last.winner == last.leader:
            # Last trick won under R19: T1 in the second-to-last trick counts as au bout too (R23).
            before = tricks[-2]
            if 56 in before.cards:
                pab = _SIDES[self.side[before.winner]]
        total = self.var.tricks
        chelem = (Side.ATTACK if self.tricks_won[_ATTACK] == total
                  else Side.DEFENCE if self.tricks_won[_DEFENCE] == total else None)
        score = score_deal(
            players=self.n, taker=self.taker, contract=self.contract,
            oudlers=(attack & OUDLERS).bit_count(), points=points, partner=self.partner,
            petit_au_bout=pab,
            poignees=[p for m in self.poignees.values() if (p := self.var.poignee_size(m.bit_count()))],
            chelem_announced=self.chelem_announced, chelem=chelem,
        )
        return DealResult(None, score)

    # --- views -------------------------------------------------------------------

    def partner_public(self) -> bool:
        """R8: everyone knows the partner once the called card is played, or shown in the chien."""
        called = self.called
        if called is None:
            return False
        if self.contract is not None and self.contract.chien_shown and self.chien & (1 << called):
            return True
        played = self.won[0] | self.won[1] | self.trick_mask  # every card of the tricks so far
        return played >> called & 1 == 1

    def partner_known_to(self, seat: int) -> int | None:
        """The partner as ``seat`` (-1: a spectator) knows it (R8): the taker's seat when known
        to play alone."""
        if not self.var.calls_card or self.called is None:
            return None
        known = (self.partner_public() or seat == self.partner
                 or (seat == self.taker and self.dealt[seat] & (1 << self.called) != 0))
        if not known:
            return None
        return self.taker if self.partner is None else self.partner

    def view(self, seat: int) -> View:
        """Exactly what ``seat`` may know now (-1: a spectator, who sees no hand)."""
        private = self._private_view_fields(seat)
        return View(**self._public_view_fields(), **private)

    def view_dicts(self, seats: Iterable[int], last_tricks: int | None = None) -> dict[int, dict[str, Any]]:
        """``{seat: view(seat).to_dict(last_tricks)}`` for several seats, built straight from the
        deal's masks (a server sends each seat its view after every card): the part every seat
        sees alike once, then each seat's own fields. The seats' dicts share that part's lists:
        do not mutate them. A test holds it equal to ``View.to_dict`` at every position."""
        public, private = self.view_parts(seats, last_tricks)
        return {seat: public | mine for seat, mine in private.items()}

    def view_parts(self, seats: Iterable[int], last_tricks: int | None = None,
                   cache: dict[Any, Any] | None = None) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
        """``view_dicts`` in two parts: the keys every seat sees alike, and each seat's own keys
        (a seat's view is the first followed by its own: a server can serialize the first once).

        ``cache``: a dict the caller keeps from one call to the next (for this deal or another).
        A seat whose own keys cannot have changed since the last call (not its turn, same hand,
        same partner known, same écart) gets the very same dict again, not a new one: a server
        after each card rebuilds only the seats that it concerns; and from the first card on, the
        public keys the bidding and the écart decided are built once. Do not mutate what is
        returned.
        """
        if cache is None:
            return self._public_dict(last_tricks, {}), {seat: self._private_dict(seat) for seat in seats}
        if cache.get("deal") is not self:
            cache.clear()
            cache["deal"] = self
        own: dict[int, dict[str, Any]] = {}
        for seat in seats:
            if seat == self.turn or not -1 <= seat < self.n:
                own[seat] = self._private_dict(seat)  # (an unknown seat raises there)
                continue
            # everything a seat's own keys hold when it is not its turn (``_private_dict``)
            key = (self.hands[seat] if seat >= 0 else 0, self.partner_known_to(seat),
                   self.ecart if seat == self.taker else 0)
            kept = cache.get(seat)
            if kept is None or kept[0] != key:
                kept = cache[seat] = (key, self._private_dict(seat))
            own[seat] = kept[1]
        return self._public_dict(last_tricks, cache), own

    def _public_dict(self, last_tricks: int | None, cache: dict[Any, Any]) -> dict[str, Any]:
        """``View.public_dict``, without building the view (``cache``: ``view_parts``'s)."""
        phase = self.phase
        tricks = last_tricks_of(self.tricks, last_tricks)
        out: dict[str, Any] = {
            "players": self.n, "dealer": self.dealer, "phase": phase.value, "turn": self.turn,
            "hand_sizes": [h.bit_count() for h in self.hands],
        }
        settled = cache.get("settled")
        if settled is None:
            settled = self._bidding_dict()
            if phase is _PLAY:  # from the first card on, what the bidding and the écart decided stays
                cache["settled"] = settled
        out.update(settled)
        out |= {
            "poignees": {str(s): codes_of(m) for s, m in self.poignees.items()},
            "tricks": [t.to_dict() for t in tricks],
            "trick_leader": self.leader if phase is _PLAY else None,
            "trick": [str(c) for c in self.trick],
            "annulled": self.annulled.value if self.annulled else None,
            "result": self.result().to_dict() if phase is _DONE else None,
        }
        if last_tricks is not None:
            out["tricks_done"] = len(self.tricks)
        return out

    def _bid_seats(self) -> list[int]:
        """Who made each bid so far, in order (R7: from the seat after the dealer)."""
        return [(self.dealer + 1 + i) % self.n for i in range(len(self.bids))]

    def _chien_shown(self) -> bool:
        """R10: the chien is shown after a prise or a garde (at five, once the king is called);
        R12: never after a garde sans or a garde contre."""
        return self.contract is not None and self.contract.chien_shown and self.phase is not _CALL

    def _bidding_dict(self) -> dict[str, Any]:
        """The keys of ``_public_dict`` that the bidding, the call and the écart decide."""
        contract = self.contract
        return {
            "bids": [{"seat": s, "bid": c.name_text if c else "pass"}
                     for s, c in zip(self._bid_seats(), self.bids, strict=True)],
            "taker": self.taker,
            "contract": contract.name_text if contract is not None else None,
            "called": str(self.called) if self.called is not None else None,
            "chien": codes_of(self.chien) if self._chien_shown() else None,
            "ecart_trumps": codes_of(self.ecart_trumps),
            "chelem_announced": self.chelem_announced,
        }

    def _private_dict(self, seat: int) -> dict[str, Any]:
        """``View.private_dict``, without building the view."""
        spectator = seat == -1
        if not spectator and not 0 <= seat < self.n:
            raise ValueError(f"R4: there is no seat {seat} at {self.n} players")
        mine = not spectator and seat == self.turn
        legal: list[dict[str, Any]] = []
        ecart_options = poignee_options = None
        if mine:
            if self.phase is _PLAY:
                legal = [{"seat": seat, "play": code} for code in codes_of(self.legal_mask())]
            else:
                legal = [action_to_dict(a) for a in self.legal_actions()]
            ecart = self.ecart_options()
            ecart_options = ecart.to_dict() if ecart else None
            poignee = self.poignee_options()
            poignee_options = poignee.to_dict() if poignee else None
        return {
            "seat": seat,
            "hand": [] if spectator else codes_of(self.hands[seat]),
            "partner": self.partner_known_to(seat),
            "ecart": codes_of(self.ecart) if seat == self.taker and self.ecart else None,
            "legal": legal,
            "ecart_options": ecart_options,
            "poignee_options": poignee_options,
        }

    def _public_view_fields(self) -> dict[str, Any]:
        return {
            "players": self.n, "dealer": self.dealer, "phase": self.phase.value, "turn": self.turn,
            "hand_sizes": tuple(h.bit_count() for h in self.hands),
            "bids": tuple(zip(self._bid_seats(), self.bids, strict=True)),
            "taker": self.taker, "contract": self.contract, "called": self.called,
            "chien": tuple(cards_of(self.chien)) if self._chien_shown() else None,
            "ecart_trumps": tuple(cards_of(self.ecart_trumps)),
            "chelem_announced": self.chelem_announced,
            "poignees": {s: tuple(cards_of(m)) for s, m in self.poignees.items()},
            "tricks": tuple(self.tricks), "trick_leader": self.leader if self.phase is _PLAY else None,
            "trick": tuple(self.trick), "annulled": self.annulled.value if self.annulled else None,
            "result": self.result().to_dict() if self.phase is _DONE else None,
        }

    def _private_view_fields(self, seat: int) -> dict[str, Any]:
        """The fields of ``seat``'s view that differ from one seat to another (``View.private_dict``)."""
        spectator = seat == -1
        if not spectator and not 0 <= seat < self.n:
            raise ValueError(f"R4: there is no seat {seat} at {self.n} players")
        mine = not spectator and seat == self.turn
        return {
            "seat": seat,
            "hand": () if spectator else tuple(cards_of(self.hands[seat])),
            "partner": self.partner_known_to(seat),
            "ecart": tuple(cards_of(self.ecart)) if seat == self.taker and self.ecart else None,
            "legal": tuple(self.legal_actions()) if mine else (),
            "ecart_options": self.ecart_options() if mine else None,
            "poignee_options": self.poignee_options() if mine else None,
        }

    def __repr__(self) -> str:
        return f"<Deal {self.n}p dealer={self.dealer} phase={self.phase.value} turn={self.turn}>"
