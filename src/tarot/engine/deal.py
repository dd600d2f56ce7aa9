"""The deal state machine (R4–R24).

One mutable ``Deal`` per deal: ``legal_actions()``, ``apply(action)`` (which returns the action
and appends it to ``actions``), ``view(seat)``, ``result()``, and a cheap ``copy()`` for search.
Every refusal raises ``IllegalAction`` before anything changes. Each kind of action has its check
and its effect in one table (``_RULES``); each phase is entered by a named step (``_start_*``,
the core's). The core (``core.py`` or its native twin) does what every deal goes through: the
dealing, the bidding, card play (``legal_mask()`` / ``play(card)``), the count and the score.
What a seat may see is ``view.Observer``'s.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Final

from .actions import Action, Bid, Call, Chelem, Ecart, Play, Poignee
from .cards import (
    ABOVE,
    CARDS,
    EXCUSE_BIT,
    JACKS,
    KINGS,
    KNIGHTS,
    OUDLERS,
    QUEENS,
    TRUMPS,
    Card,
    Suit,
    cards_of,
    mask_of,
)
from .core import ATTACK, PLAYS, variant_and_dealer
from .errors import IllegalAction
from .options import EcartOptions, PoigneeOptions
from .phases import Annulment, Phase
from .rules import Contract, PoigneeSize
from .scoring import DealResult
from .view import Observer, View

if TYPE_CHECKING:  # mypy checks against the pure core; the native one has the same interface
    from .core import DealCore
else:
    from ._select import DealCore

__all__ = ["Annulment", "Deal", "DealResult", "Phase"]


# Enum attribute lookups cost ~60 ns each; the hot paths use these module constants.
_BIDDING = Phase.BIDDING
_CALL = Phase.CALL
_ECART = Phase.ECART
_ANNOUNCE = Phase.ANNOUNCE
_PLAY = Phase.PLAY
_DONE = Phase.DONE
_CONTRACTS: Final = tuple(Contract)
# Interned actions: legal_actions() in the hot path allocates nothing new.
_BIDS: Final = tuple((Bid(s, None),) + tuple(Bid(s, c) for c in _CONTRACTS) for s in range(5))
_SUIT_NAMES: Final = {Suit.SPADES: "spades", Suit.HEARTS: "hearts", Suit.DIAMONDS: "diamonds",
                      Suit.CLUBS: "clubs"}


class Deal(DealCore):
    """The state of one deal. Build with :meth:`new` (random) or the constructor (given cards).

    The state and the card play are ``DealCore``'s (``core.py``, or its native twin); this class
    adds the bidding, the call, the écart, the announcements, the checks and the views.
    """

    __slots__ = ()

    def __init__(self, players: int, dealer: int, hands: Sequence[int | Iterable[Card | str]],
                 chien: int | Iterable[Card | str]) -> None:
        rules = variant_and_dealer(players, dealer)
        if len(hands) != players:
            raise ValueError(f"R5: {players} players need {players} hands, not {len(hands)}")
        masks = [h if isinstance(h, int) else mask_of(h) for h in hands]
        chien_mask = chien if isinstance(chien, int) else mask_of(chien)
        seen = 0
        for seat, m in enumerate(masks):
            if m.bit_count() != rules.hand_size or m >> 78 or m < 0:
                raise ValueError(f"R5: seat {seat} must hold {rules.hand_size} cards, not {m.bit_count()}")
            if seen & m:
                raise ValueError(f"R1: card {cards_of(seen & m)[0]} is dealt twice")
            seen |= m
        if chien_mask.bit_count() != rules.chien_size or chien_mask >> 78 or chien_mask < 0:
            raise ValueError(f"R5: the chien must hold {rules.chien_size} cards, "
                             f"not {chien_mask.bit_count()}")
        if seen & chien_mask:
            raise ValueError(f"R1: card {cards_of(seen & chien_mask)[0]} is dealt twice")
        self._setup(rules, dealer, masks, chien_mask)  # (R6: a petit sec annuls the deal at once)

    # --- state queries ---------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase is _DONE

    def hand(self, seat: int) -> list[Card]:
        return cards_of(self.hands[seat])

    # --- legal actions -----------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """The enumerable legal actions of the seat to act.

        In the écart phase the choice is combinatorial: this list is empty and
        :meth:`ecart_options` describes it. In the play phase a seat that may show a
        poignée has :meth:`poignee_options` besides the cards listed here.

        >>> deal = Deal.new(4, dealer=3, seed=42)
        >>> [str(a) for a in deal.legal_actions()]   # the seat after the dealer bids first (R4)
        ['0: bid pass', '0: bid prise', '0: bid garde', '0: bid garde_sans', '0: bid garde_contre']
        >>> _ = deal.apply(Bid(0, Contract.GARDE))
        >>> [str(a) for a in deal.legal_actions()]   # only higher bids now (R7)
        ['1: bid pass', '1: bid garde_sans', '1: bid garde_contre']
        """
        phase = self.phase
        turn = self.turn
        if phase is _PLAY:
            plays = PLAYS[turn]  # type: ignore[index]
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
            lowest = self.high_bid.value + 1 if self.high_bid else 1
            return [bids[0], *bids[lowest:]]
        if phase is _CALL:
            return [Call(turn, c) for c in cards_of(self.callable_mask())]
        if phase is _ANNOUNCE:
            return [Chelem(turn, True), Chelem(turn, False)]
        return []

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
        """R10/R11: the écart choice, when it is the taker's to make.

        >>> deal = Deal.new(4, dealer=3, seed=42)
        >>> for bid in (Bid(0, Contract.GARDE), Bid(1, None), Bid(2, None), Bid(3, None)):
        ...     _ = deal.apply(bid)
        >>> options = deal.ecart_options()
        >>> options.size, options.trumps_needed   # six cards, no trump needed: no king, no trump
        (6, 0)
        >>> "KS" in options.allowed, "T21" in options.allowed
        (False, False)
        >>> [str(c) for c in options.choose()]     # a legal choice: the weakest allowed cards
        ['2S', '8S', '10S', 'JS', 'QS', '6H']
        """
        if self.phase is not _ECART or self.taker is None:
            return None
        hand = self.hands[self.taker]
        size = self.variant.chien_size
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
        sizes = tuple((size, n) for size, n in zip(PoigneeSize, self.variant.poignee_thresholds, strict=True)
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
            raise IllegalAction("R4", f"not an action: {action!r}", "not_action")
        if not isinstance(action.seat, int) or not 0 <= action.seat < self.players:
            raise IllegalAction("R4", f"there is no seat {action.seat!r} at {self.players} players",
                                "no_seat")
        _RULES[type(action)][0](self, action)

    def _over_error(self) -> IllegalAction:
        if self.annulled is not None:
            return IllegalAction("R6" if self.annulled is Annulment.PETIT_SEC else "R7",
                                 f"the deal was annulled ({self.annulled.value}): no more actions",
                                 "annulled")
        return IllegalAction("R16", "the deal is over: every trick has been played", "deal_over")

    def _turn_error(self, rule: str, what: str, seat: int) -> IllegalAction:
        return IllegalAction(rule, f"it is seat {self.turn}'s turn to {what}, not seat {seat}'s",
                             "not_your_turn")

    def _check_play_action(self, action: Play) -> None:
        self._check_play(action.seat, action.card)

    def _check_bid(self, action: Bid) -> None:
        if self.phase is not _BIDDING:
            raise IllegalAction("R7", "bidding is over: each player speaks exactly once", "bidding_over")
        if action.seat != self.turn:
            raise self._turn_error("R7", "bid", action.seat)
        c = action.contract
        if c is not None:
            if not isinstance(c, Contract):
                raise IllegalAction("R7", f"unknown contract {c!r}", "not_action")
            if self.high_bid is not None and c <= self.high_bid:
                raise IllegalAction("R7", f"a bid must be higher than {self.high_bid.name_text}, "
                                          f"not {c.name_text}",
                                          "bid_too_low", {"bid": self.high_bid.name_text})

    def _check_call(self, action: Call) -> None:
        if self.phase is not _CALL:
            raise IllegalAction("R8", "a card is called only at 5 players, right after bidding", "no_call")
        if action.seat != self.taker:
            raise IllegalAction("R8", f"only the taker (seat {self.taker}) calls a card", "not_taker")
        card = action.card
        if not isinstance(card, Card) or not (1 << card) & self.callable_mask():
            if isinstance(card, Card) and card.rank in (11, 12, 13) and card < 56:
                needs = {13: "all four kings", 12: "all four kings and queens",
                         11: "all four kings, queens and knights"}[card.rank]
                raise IllegalAction("R8", f"{card} may be called only when holding {needs}", "bad_call")
            raise IllegalAction("R8", f"{card} cannot be called: call a king (or a queen, knight, jack "
                                      "when holding every card of the ranks above)", "bad_call")

    def _check_ecart(self, action: Ecart) -> None:
        opts = self.ecart_options()
        if opts is None:
            raise IllegalAction("R10", "there is no écart to make now", "no_ecart")
        if action.seat != opts.seat:
            raise IllegalAction("R10", f"only the taker (seat {opts.seat}) makes the écart", "not_taker")
        mask = action.mask
        if len(action.cards) != opts.size:
            raise IllegalAction("R10", f"the écart has exactly {opts.size} cards, not {len(action.cards)}",
                                "ecart_size", {"count": str(opts.size)})
        hand = self.hands[opts.seat]
        if mask & ~hand:
            card = cards_of(mask & ~hand)[0]
            raise IllegalAction("R10", f"{card} is not in the taker's hand", "not_in_hand",
                                {"card": str(card)})
        if mask & KINGS:
            card = cards_of(mask & KINGS)[0]
            raise IllegalAction("R11", f"no king in the écart ({card})", "ecart_king", {"card": str(card)})
        if mask & OUDLERS:
            card = cards_of(mask & OUDLERS)[0]
            raise IllegalAction("R11", f"no oudler in the écart ({card})", "ecart_oudler",
                                {"card": str(card)})
        if self.called is not None and mask & (1 << self.called):
            raise IllegalAction("R11", f"the called card {self.called} may not be discarded", "ecart_called",
                                {"card": str(self.called)})
        trumps = (mask & TRUMPS).bit_count()
        if trumps > opts.trumps_needed:
            if opts.trumps_needed == 0:
                raise IllegalAction("R11", "trumps may go in the écart only when it cannot be completed "
                                           "otherwise", "ecart_trumps")
            raise IllegalAction("R11", f"only as many trumps as needed: {opts.trumps_needed}, not {trumps}",
                                "ecart_trump_count", {"count": str(opts.trumps_needed)})

    def _check_chelem(self, action: Chelem) -> None:
        if self.phase is not _ANNOUNCE:
            raise IllegalAction("R13", "a chelem is announced by the taker after the écart (or the "
                                       "bidding), before the first card", "no_chelem")
        if action.seat != self.taker:
            raise IllegalAction("R13", f"only the taker (seat {self.taker}) may announce a chelem",
                                "not_taker")

    def _check_poignee(self, action: Poignee) -> None:
        seat = action.seat
        if self.phase is not _PLAY:
            raise IllegalAction("R14", "a poignée is shown just before the player's first card",
                                "poignee_late")
        if seat != self.turn:
            raise IllegalAction("R14", f"a poignée is shown just before playing: it is seat {self.turn}'s "
                                       "turn", "not_your_turn")
        if seat in self.poignees:
            raise IllegalAction("R14", "each player shows at most one poignée", "poignee_once")
        if self.tricks:
            raise IllegalAction("R14", "a poignée is shown before the player's first card, not later",
                                "poignee_late")
        mask = action.mask
        opts = self.poignee_options()
        avail = opts.allowed_mask if opts else self.hands[seat] & (TRUMPS | EXCUSE_BIT)
        if mask & ~avail:
            card = cards_of(mask & ~avail)[0]
            raise IllegalAction("R14", f"{card} cannot be shown: a poignée is trumps (or the Excuse) from "
                                       "the player's hand", "poignee_card", {"card": str(card)})
        if self.variant.poignee_size(len(action.cards)) is None:
            counts = ", ".join(str(t) for t in self.variant.poignee_thresholds)
            raise IllegalAction("R14", f"a poignée has exactly {counts} trumps at {self.players} players, "
                                       f"not {len(action.cards)}", "poignee_size", {"counts": counts})
        missing = opts.must_with_excuse & ~mask if opts else 0
        if mask & EXCUSE_BIT and missing:
            raise IllegalAction("R14", f"a poignée with the Excuse must show every trump of the hand "
                                       f"({cards_of(missing)[0]} is missing)", "poignee_excuse")

    def _check_play(self, seat: int, card: Card) -> None:
        if self.phase is _DONE:
            raise self._over_error()
        if self.phase is not _PLAY:
            raise IllegalAction("R15", "cards are played after the bidding and écart "
                                       f"(phase: {self.phase.value})", "no_play")
        if seat != self.turn:
            raise self._turn_error("R4", "play", seat)
        if not isinstance(card, Card):
            raise IllegalAction("R1", f"not a card: {card!r}", "not_card")
        bit = 1 << card
        hand = self.hands[seat]
        if not bit & hand:
            raise IllegalAction("R15", f"{card} is not in seat {seat}'s hand",
                                "not_in_hand", {"card": str(card)})
        if bit & self.legal_mask():
            return
        lead = self.lead_mask
        if not lead:
            raise IllegalAction("R9", f"the first lead may not be in the called suit ({self.called}), "
                                      "except the called card itself",
                                      "called_suit_lead", {"card": str(self.called)})
        if lead != TRUMPS and hand & lead:
            suit = Suit(lead.bit_length() // 14 - 1)
            raise IllegalAction("R15", f"must follow suit ({_SUIT_NAMES[suit]})",
                                "must_follow", {"suit": suit.letter})
        if self.trick_high and hand & ABOVE[self.trick_high]:
            raise IllegalAction("R15", f"must play a trump higher than {CARDS[self.trick_high]}",
                                "must_overtrump", {"card": str(CARDS[self.trick_high])})
        raise IllegalAction("R15", "must play a trump", "must_trump")

    # --- applying ----------------------------------------------------------------

    def apply(self, action: Action) -> Action:
        """Apply a legal action and return it (appended to ``actions``), or raise IllegalAction
        and change nothing.

        >>> deal = Deal.new(4, dealer=3, seed=42)
        >>> deal.apply(Bid(0, Contract.PRISE))
        Bid(seat=0, contract=<Contract.PRISE: 1>)
        >>> deal.apply(Bid(1, Contract.PRISE))
        Traceback (most recent call last):
        ...
        tarot.engine.errors.IllegalAction: R7: a bid must be higher than prise, not prise
        >>> [str(a) for a in deal.actions]         # the refused bid changed nothing
        ['0: bid prise']
        """
        if type(action) is Play:
            return self.play(action.card, action.seat)
        if type(action) is Bid:  # (R7, in the core: the bidding is on every deal's path)
            if not self._bid(action):
                self.check(action)  # says which rule refuses it
                raise IllegalAction("R7", f"{action} is not legal now", "bid_too_low")  # pragma: no cover
            return action
        self.check(action)
        self._legal = -1
        _RULES[type(action)][1](self, action)
        self.actions.append(action)
        return action

    def _apply_bid(self, action: Bid) -> None:  # pragma: no cover  # apply() bids through _bid
        raise AssertionError("a bid is applied by DealCore._bid")

    def _apply_call(self, action: Call) -> None:
        self.called = action.card
        bit = 1 << action.card
        for seat, hand in enumerate(self.hands):
            if hand & bit and seat != self.taker:  # R8: whoever holds it plays with the taker
                self.partner = seat
                self.side[seat] = ATTACK
        self._start_chien()

    def _apply_ecart(self, action: Ecart) -> None:
        mask = action.mask
        self.hands[self.taker] &= ~mask  # type: ignore[index]
        self.ecart = mask
        self.ecart_trumps = mask & TRUMPS  # R11: shown to all
        self._start_announce()

    def _apply_chelem(self, action: Chelem) -> None:
        self.chelem_announced = action.announce
        if action.announce:
            self.leader = action.seat  # R13: the announcer leads
        self._start_play()

    def _apply_poignee(self, action: Poignee) -> None:
        self.poignees[action.seat] = action.mask

    def _apply_play_action(self, action: Play) -> None:  # pragma: no cover  # apply() plays directly
        self.play(action.card, action.seat)

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
        if not self.variant.calls_card or self.called is None:
            return None
        known = (self.partner_public() or seat == self.partner
                 or (seat == self.taker and self.dealt[seat] & (1 << self.called) != 0))
        if not known:
            return None
        return self.taker if self.partner is None else self.partner

    def view(self, seat: int) -> View:
        """Exactly what ``seat`` may know now (-1: a spectator, who sees no hand)."""
        return Observer(self).view(seat)

    def view_dicts(self, seats: Iterable[int], last_tricks: int | None = None) -> dict[int, dict[str, Any]]:
        """``{seat: view(seat).to_dict(last_tricks)}`` for several seats, built straight from the
        deal (a server sends each seat its view after every card): the part every seat sees alike
        once, then each seat's own fields. The seats' dicts share that part's lists: do not mutate
        them. A test holds it equal to ``View.to_dict`` at every position."""
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
        return Observer(self).parts(seats, last_tricks, cache)

    def __repr__(self) -> str:
        return f"<Deal {self.players}p dealer={self.dealer} phase={self.phase.value} turn={self.turn}>"


# Each kind of action: its check (raises IllegalAction, changes nothing) and its effect.
_RULES: Final[dict[type, tuple[Callable[[Deal, Any], None], Callable[[Deal, Any], None]]]] = {
    Bid: (Deal._check_bid, Deal._apply_bid),
    Call: (Deal._check_call, Deal._apply_call),
    Ecart: (Deal._check_ecart, Deal._apply_ecart),
    Chelem: (Deal._check_chelem, Deal._apply_chelem),
    Poignee: (Deal._check_poignee, Deal._apply_poignee),
    Play: (Deal._check_play_action, Deal._apply_play_action),
}
