"""What one seat may know (DESIGN principle 6). Built by ``Deal.view``; holds no hidden card."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .actions import Action, action_to_dict
from .cards import Card
from .options import EcartOptions, PoigneeOptions
from .rules import Contract
from .tricks import Trick, last_tricks_of


@dataclass(frozen=True, slots=True)
class View:
    seat: int  # the seat this view is for; -1 for a spectator
    players: int
    dealer: int
    phase: str  # a Phase value
    turn: int | None  # the seat expected to act, if any
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]  # cards left in each hand (public)
    bids: tuple[tuple[int, Contract | None], ...]  # (seat, contract or None for pass), in order
    taker: int | None
    contract: Contract | None
    called: Card | None
    partner: int | None  # once this seat knows it; the taker's own seat when known alone
    chien: tuple[Card, ...] | None  # only when shown (R10)
    ecart: tuple[Card, ...] | None  # the taker's own écart, to the taker only
    ecart_trumps: tuple[Card, ...]  # trumps put in the écart, shown to all (R11)
    chelem_announced: bool
    poignees: dict[int, tuple[Card, ...]]  # seat → cards shown (R14)
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
        return {
            "seat": self.seat,
            "hand": [str(c) for c in self.hand],
            "partner": self.partner,
            "ecart": _codes(self.ecart),
            "legal": [action_to_dict(a) for a in self.legal],
            "ecart_options": self.ecart_options.to_dict() if self.ecart_options else None,
            "poignee_options": self.poignee_options.to_dict() if self.poignee_options else None,
        }

    def public_dict(self, last_tricks: int | None = None) -> dict[str, Any]:
        """The fields of ``to_dict`` that every seat sees alike."""
        tricks = last_tricks_of(self.tricks, last_tricks)
        out = {
            "players": self.players,
            "dealer": self.dealer,
            "phase": self.phase,
            "turn": self.turn,
            "hand_sizes": list(self.hand_sizes),
            "bids": [{"seat": s, "bid": c.name_text if c else "pass"} for s, c in self.bids],
            "taker": self.taker,
            "contract": self.contract.name_text if self.contract else None,
            "called": str(self.called) if self.called is not None else None,
            "chien": _codes(self.chien),
            "ecart_trumps": _codes(self.ecart_trumps),
            "chelem_announced": self.chelem_announced,
            "poignees": {str(s): _codes(c) for s, c in self.poignees.items()},
            "tricks": [t.to_dict() for t in tricks],
            "trick_leader": self.trick_leader,
            "trick": _codes(self.trick),
            "annulled": self.annulled,
            "result": self.result,
        }
        if last_tricks is not None:
            out["tricks_done"] = len(self.tricks)
        return out


def _codes(cards: tuple[Card, ...] | None) -> list[str] | None:
    return None if cards is None else [str(c) for c in cards]
