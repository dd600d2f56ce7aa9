"""What one seat may know of a deal (DESIGN principle 6), defined once.

``Observer`` reads a deal's state and says what a seat sees: the fields every seat sees alike
(``public_fields``) and each seat's own (``private_fields``), card sets as masks and the legal
cards as a mask. A ``View`` holds those fields as values (card sets as ``CardSet``, the legal
actions as actions: ``View.of``); ``encode_public``/``encode_private`` turn the same fields into
the JSON form that clients and records get. The server's fast path (``Observer.parts``) encodes
straight from the fields without building a ``View``, and keeps what cannot have changed.
Nothing here holds a card the seat may not see.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from .actions import Action, action_to_dict
from .cards import Card, CardSet, _card_set, codes_of
from .options import EcartOptions, PoigneeOptions
from .phases import Phase
from .rules import Contract
from .tricks import Trick, last_tricks_of

if TYPE_CHECKING:
    from .deal import Deal

_PLAY: Final = Phase.PLAY
_CALL: Final = Phase.CALL
_DONE: Final = Phase.DONE
SPECTATOR: Final = -1

# The fields, in the order of the JSON form: the moving head, what the bidding, the call and the
# écart settle (kept from the first card on), the moving tail; then each seat's own.
_HEAD: Final = ("players", "dealer", "phase", "turn", "hand_sizes")
_SETTLED: Final = ("bids", "taker", "contract", "called", "chien", "ecart_trumps", "chelem_announced")
_TAIL: Final = ("poignees", "tricks", "trick_leader", "trick", "annulled", "result")
PUBLIC_FIELDS: Final = _HEAD + _SETTLED + _TAIL
PRIVATE_FIELDS: Final = ("seat", "hand", "partner", "ecart", "legal", "ecart_options", "poignee_options")


@dataclass(frozen=True, slots=True)
class View:
    seat: int  # the seat this view is for; -1 for a spectator
    players: int
    dealer: int
    phase: str  # a Phase value
    turn: int | None  # the seat expected to act, if any
    hand: CardSet
    hand_sizes: tuple[int, ...]  # cards left in each hand (public)
    bids: tuple[tuple[int, Contract | None], ...]  # (seat, contract or None for pass), in order
    taker: int | None
    contract: Contract | None
    called: Card | None
    partner: int | None  # once this seat knows it; the taker's own seat when known alone
    chien: CardSet | None  # only when shown (R10)
    ecart: CardSet | None  # the taker's own écart, to the taker only
    ecart_trumps: CardSet  # trumps put in the écart, shown to all (R11)
    chelem_announced: bool
    poignees: dict[int, CardSet]  # seat → cards shown (R14)
    tricks: tuple[Trick, ...]  # completed tricks
    trick_leader: int | None
    trick: tuple[Card, ...]  # cards of the trick in progress, in play order from trick_leader
    annulled: str | None
    result: dict[str, Any] | None  # the replay result shape once the deal is over
    legal: tuple[Action, ...] = ()  # enumerable legal actions, when it is this seat's turn
    ecart_options: EcartOptions | None = None
    poignee_options: PoigneeOptions | None = None

    def to_dict(self, last_tricks: int | None = None) -> dict[str, Any]:
        """A JSON-ready form (cards as codes), for clients and tests.

        ``last_tricks``: keep only that many completed tricks (``tricks_done`` then counts them
        all), for clients that show the previous trick only.
        """
        return self.public_dict(last_tricks) | self.private_dict()

    def private_dict(self) -> dict[str, Any]:
        """The fields of ``to_dict`` that differ from one seat to another."""
        return encode_private({name: _raw(getattr(self, name)) for name in PRIVATE_FIELDS})

    def public_dict(self, last_tricks: int | None = None) -> dict[str, Any]:
        """The fields of ``to_dict`` that every seat sees alike."""
        fields = {name: _raw(getattr(self, name)) for name in PUBLIC_FIELDS}
        fields["poignees"] = {s: cards.mask for s, cards in self.poignees.items()}
        return encode_public(fields, encode_settled(fields), last_tricks)

    @classmethod
    def of(cls, public: dict[str, Any], private: dict[str, Any], deal: Deal) -> View:
        """The view of ``Observer``'s fields (masks become card sets, a legal mask the plays)."""
        chien, ecart, legal = public["chien"], private["ecart"], private["legal"]
        return cls(**public | private | {
            "hand": _card_set(private["hand"]),
            "chien": None if chien is None else _card_set(chien),
            "ecart": None if ecart is None else _card_set(ecart),
            "ecart_trumps": _card_set(public["ecart_trumps"]),
            "poignees": {s: _card_set(m) for s, m in public["poignees"].items()},
            "legal": tuple(deal.legal_actions()) if isinstance(legal, int) else legal,
        })


def _raw(value: Any) -> Any:
    """A field of a View as Observer gives it (card sets as masks)."""
    return value.mask if isinstance(value, CardSet) else value


# --- the JSON form of the fields -----------------------------------------------------------


def _codes(mask: int | None) -> list[str] | None:
    return None if mask is None else codes_of(mask)


def encode_settled(f: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON form of what the bidding, the call and the écart settle."""
    contract = f["contract"]
    called = f["called"]
    return {
        "bids": [{"seat": s, "bid": c.name_text if c else "pass"} for s, c in f["bids"]],
        "taker": f["taker"],
        "contract": contract.name_text if contract is not None else None,
        "called": str(called) if called is not None else None,
        "chien": _codes(f["chien"]),
        "ecart_trumps": codes_of(f["ecart_trumps"]),
        "chelem_announced": f["chelem_announced"],
    }


def encode_public(f: Mapping[str, Any], settled: dict[str, Any], last_tricks: int | None) -> dict[str, Any]:
    """The JSON form of the public fields, ``settled`` being ``encode_settled``'s."""
    tricks = f["tricks"]
    out: dict[str, Any] = {
        "players": f["players"], "dealer": f["dealer"], "phase": f["phase"], "turn": f["turn"],
        "hand_sizes": list(f["hand_sizes"]),
    }
    out.update(settled)
    out |= {
        "poignees": {str(s): codes_of(mask) for s, mask in f["poignees"].items()},
        "tricks": [t.to_dict() for t in last_tricks_of(tricks, last_tricks)],
        "trick_leader": f["trick_leader"],
        "trick": [str(c) for c in f["trick"]],
        "annulled": f["annulled"],
        "result": f["result"],
    }
    if last_tricks is not None:
        out["tricks_done"] = len(tricks)
    return out


def encode_legal(seat: int, legal: int | tuple[Action, ...]) -> list[dict[str, Any]]:
    """The JSON form of the legal actions (a mask of cards, or actions)."""
    if isinstance(legal, int):
        return [{"seat": seat, "play": code} for code in codes_of(legal)]
    return [action_to_dict(a) for a in legal]


def encode_private(f: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON form of a seat's own fields."""
    ecart_options = f["ecart_options"]
    poignee_options = f["poignee_options"]
    return {
        "seat": f["seat"],
        "hand": codes_of(f["hand"]),
        "partner": f["partner"],
        "ecart": _codes(f["ecart"]),
        "legal": encode_legal(f["seat"], f["legal"]),
        "ecart_options": ecart_options.to_dict() if ecart_options else None,
        "poignee_options": poignee_options.to_dict() if poignee_options else None,
    }


# --- the observer --------------------------------------------------------------------------


def chien_shown(deal: Deal) -> bool:
    """R10, R12: the chien is shown to all after a prise or a garde (at five, once the card is
    called), never after a garde sans or contre."""
    contract = deal.contract
    return contract is not None and contract.chien_shown and deal.phase is not _CALL



class Observer:
    """What each seat (or a spectator, -1) may know of ``deal`` now."""

    __slots__ = ("deal",)

    def __init__(self, deal: Deal) -> None:
        self.deal = deal

    def settled_fields(self) -> dict[str, Any]:
        """R7, R8, R10–R13: the bids, the contract, the called card, the chien once shown (never
        after a garde sans or contre, and at five only once the card is called), the trumps of
        the écart, the chelem announced."""
        d = self.deal
        contract = d.contract
        return {
            "bids": tuple(((d.dealer + 1 + i) % d.players, c) for i, c in enumerate(d.bids)),
            "taker": d.taker, "contract": contract, "called": d.called,
            "chien": d.chien if chien_shown(d) else None,
            "ecart_trumps": d.ecart_trumps,
            "chelem_announced": d.chelem_announced,
        }

    def moving_fields(self) -> dict[str, Any]:
        """The public fields that change during the play: how many cards each hand holds, the
        poignées shown (R14), the tricks, the result once over."""
        d = self.deal
        phase = d.phase
        return {
            "players": d.players, "dealer": d.dealer, "phase": phase.value, "turn": d.turn,
            "hand_sizes": tuple(h.bit_count() for h in d.hands),
            "poignees": d.poignees.copy(),
            "tricks": tuple(d.tricks), "trick_leader": d.leader if phase is _PLAY else None,
            "trick": tuple(d.trick), "annulled": d.annulled.value if d.annulled else None,
            "result": d.result().to_dict() if phase is _DONE else None,
        }

    def public_fields(self) -> dict[str, Any]:
        """What every seat sees alike."""
        return self.moving_fields() | self.settled_fields()

    def private_fields(self, seat: int) -> dict[str, Any]:
        """What only ``seat`` sees: its hand, the partner once it knows it (R8), its écart if it
        is the taker, and, on its turn, what it may do."""
        d = self.deal
        spectator = seat == SPECTATOR
        if not spectator and not 0 <= seat < d.players:
            raise ValueError(f"R4: there is no seat {seat} at {d.players} players")
        mine = not spectator and seat == d.turn
        return {
            "seat": seat,
            "hand": 0 if spectator else d.hands[seat],
            "partner": d.partner_known_to(seat),
            "ecart": d.ecart if seat == d.taker and d.ecart else None,
            "legal": (d.legal_mask() if d.phase is _PLAY else tuple(d.legal_actions())) if mine else (),
            "ecart_options": d.ecart_options() if mine else None,
            "poignee_options": d.poignee_options() if mine else None,
        }

    def view(self, seat: int) -> View:
        return View.of(self.public_fields(), self.private_fields(seat), self.deal)

    def parts(self, seats: Iterable[int], last_tricks: int | None = None,
              cache: dict[Any, Any] | None = None) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
        """The JSON form in two parts: the keys every seat sees alike, and each seat's own keys
        (``Deal.view_parts`` says how ``cache`` is used)."""
        d = self.deal
        if cache is None:
            fields = self.public_fields()
            public = encode_public(fields, encode_settled(fields), last_tricks)
            return public, {seat: encode_private(self.private_fields(seat)) for seat in seats}
        if cache.get("deal") is not d:
            cache.clear()
            cache["deal"] = d
        own: dict[int, dict[str, Any]] = {}
        for seat in seats:
            if seat == d.turn or not SPECTATOR <= seat < d.players:
                own[seat] = encode_private(self.private_fields(seat))  # (an unknown seat raises there)
                continue
            # everything a seat's own keys hold when it is not its turn
            key = (d.hands[seat] if seat >= 0 else 0, d.partner_known_to(seat),
                   d.ecart if seat == d.taker else 0)
            kept = cache.get(seat)
            if kept is None or kept[0] != key:
                kept = cache[seat] = (key, encode_private(self.private_fields(seat)))
            own[seat] = kept[1]
        fields = self.moving_fields()
        settled = cache.get("settled")
        if settled is None:
            settled = encode_settled(self.settled_fields())
            if d.phase is _PLAY:  # from the first card on, what the bidding and the écart decided stays
                cache["settled"] = settled
        return encode_public(fields, settled, last_tricks), own
