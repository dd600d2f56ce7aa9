"""Deal records, format ``tarot-deal/1`` (docs/records.md): read, write, replay.

A record is the deal's parameters plus its action list; replaying it rebuilds the state
and re-checks every action. Unknown optional keys (top level and inside actions) are kept
on a round-trip. A game record is a JSON list of deal records.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from .actions import Action, Bid, Call, Chelem, Ecart, Play, Poignee, action_to_dict
from .cards import Card, cards_of
from .deal import Deal, Phase
from .errors import IllegalAction, RecordError
from .rules import Contract

FORMAT: Final = "tarot-deal/1"
_HEADER: Final = ("format", "players", "dealer", "hands", "chien", "actions")
_KINDS: Final = ("bid", "call", "ecart", "chelem", "poignee", "play")


def _card(value: Any, where: str) -> Card:
    if not isinstance(value, str):
        raise ValueError(f"{where}: a card is a string like \"KH\", not {value!r}")
    try:
        return Card.parse(value)
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None


def _card_list(value: Any, where: str) -> list[Card]:
    if not isinstance(value, list):
        raise ValueError(f"{where}: expected a list of cards, not {type(value).__name__}")
    return [_card(v, where) for v in value]


def action_from_dict(obj: Any) -> tuple[Action, dict[str, Any]]:
    """Read one record action; returns it and its unknown keys. Raises ValueError."""
    if not isinstance(obj, dict):
        raise ValueError(f"an action is a JSON object, not {type(obj).__name__}")
    seat = obj.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise ValueError(f"an action needs an integer \"seat\", not {seat!r}")
    kinds = [k for k in _KINDS if k in obj]
    if len(kinds) != 1:
        raise ValueError(f"an action has exactly one of {', '.join(_KINDS)} (found {kinds or 'none'})")
    kind = kinds[0]
    value = obj[kind]
    extra = {k: v for k, v in obj.items() if k not in ("seat", kind)}
    action: Action
    if kind == "play":
        action = Play(seat, _card(value, "play"))
    elif kind == "bid":
        if value == "pass":
            action = Bid(seat, None)
        else:
            if not isinstance(value, str):
                raise ValueError(f"R7: unknown bid {value!r}")
            action = Bid(seat, Contract.parse(value))
    elif kind == "call":
        action = Call(seat, _card(value, "call"))
    elif kind == "ecart":
        action = Ecart(seat, _card_list(value, "ecart"))
    elif kind == "poignee":
        action = Poignee(seat, _card_list(value, "poignee"))
    else:
        if not isinstance(value, bool):
            raise ValueError(f"\"chelem\" is true or false, not {value!r}")
        action = Chelem(seat, value)
    return action, extra


@dataclass
class DealRecord:
    """A ``tarot-deal/1`` record. ``extra`` keeps optional top-level keys in order."""

    players: int
    dealer: int
    hands: list[list[Card]]
    chien: list[Card]
    actions: list[Action] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    action_extra: list[dict[str, Any]] = field(default_factory=list)  # unknown keys per action

    @classmethod
    def from_deal(cls, deal: Deal, /, **extra: Any) -> DealRecord:
        """The record of a deal so far. A declined chelem is left out (absence means declined)."""
        actions = [a for a in deal.actions if not (isinstance(a, Chelem) and not a.announce)]
        return cls(deal.players, deal.dealer, [cards_of(h) for h in deal.dealt], cards_of(deal.chien),
                   actions, dict(extra))

    # --- writing -----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        actions = []
        for i, a in enumerate(self.actions):
            d = action_to_dict(a)
            if i < len(self.action_extra) and self.action_extra[i]:
                d.update(self.action_extra[i])
            actions.append(d)
        out: dict[str, Any] = {
            "format": FORMAT, "players": self.players, "dealer": self.dealer,
            "hands": [[str(c) for c in h] for h in self.hands],
            "chien": [str(c) for c in self.chien], "actions": actions,
        }
        out.update(self.extra)
        return out

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    # --- reading -----------------------------------------------------------------

    @classmethod
    def from_dict(cls, obj: Any) -> DealRecord:
        """Read a record object; raises RecordError naming the bad part."""
        if not isinstance(obj, dict):
            raise RecordError(f"a deal record is a JSON object, not {type(obj).__name__}")
        if obj.get("format") != FORMAT:
            raise RecordError(f"\"format\" must be \"{FORMAT}\", not {obj.get('format')!r}")
        players = obj.get("players")
        if type(players) is not int or players not in (3, 4, 5):
            raise RecordError(f"\"players\" must be 3, 4 or 5, not {players!r}")
        dealer = obj.get("dealer")
        if type(dealer) is not int or not 0 <= dealer < players:
            raise RecordError(f"\"dealer\" must be a seat 0…{players - 1}, not {dealer!r}")
        try:
            hands_raw = obj.get("hands")
            if not isinstance(hands_raw, list) or len(hands_raw) != players:
                raise ValueError(f"\"hands\" must be a list of {players} hands")
            hands = [_card_list(h, f"hands[{i}]") for i, h in enumerate(hands_raw)]
            chien = _card_list(obj.get("chien"), "chien")
        except ValueError as e:
            raise RecordError(str(e)) from None
        raw_actions = obj.get("actions")
        if not isinstance(raw_actions, list):
            raise RecordError("\"actions\" must be a list")
        actions: list[Action] = []
        action_extra: list[dict[str, Any]] = []
        for i, raw in enumerate(raw_actions):
            try:
                action, extra = action_from_dict(raw)
            except ValueError as e:
                raise RecordError(str(e), i) from None
            actions.append(action)
            action_extra.append(extra)
        extra_keys = {k: v for k, v in obj.items() if k not in _HEADER}
        return cls(players, dealer, hands, chien, actions, extra_keys, action_extra)

    @classmethod
    def from_json(cls, text: str) -> DealRecord:
        try:
            obj = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise RecordError(f"not valid JSON: {e}") from None
        return cls.from_dict(obj)

    # --- replay ------------------------------------------------------------------

    def start(self) -> Deal:
        """The deal as dealt, before any action (hands and chien checked)."""
        try:
            return Deal(self.players, self.dealer, self.hands, self.chien)
        except ValueError as e:
            raise RecordError(str(e)) from None

    def replay(self, complete: bool = True) -> Deal:
        """Rebuild the deal, re-checking every action. Raises RecordError at the first bad one.

        With ``complete`` (the default) a record that stops before the deal is over is an error.
        """
        deal = self.start()
        for i, action in enumerate(self.actions):
            try:
                if deal.phase is Phase.ANNOUNCE and not isinstance(action, Chelem):
                    deal.apply(Chelem(deal.taker, False))  # type: ignore[arg-type]
                deal.apply(action)
            except IllegalAction as e:
                raise RecordError(str(e), i) from None
        if complete and not deal.is_over:
            raise RecordError(f"the record ends before the deal is over (phase {deal.phase.value}, "
                              f"seat {deal.turn} to act)", len(self.actions))
        return deal


def replay_result(record: DealRecord) -> dict[str, Any]:
    """Replay and give the result object of docs/records.md (``legal`` false with the error if illegal)."""
    try:
        deal = record.replay()
    except RecordError as e:
        return {"legal": False, "error": {"action": e.action, "reason": e.reason}}
    return {"legal": True, **deal.result().to_dict()}


def load(text: str) -> DealRecord | list[DealRecord]:
    """Read a deal record, or a game record (a JSON list of deal records)."""
    try:
        obj = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise RecordError(f"not valid JSON: {e}") from None
    if isinstance(obj, list):
        records = []
        for i, item in enumerate(obj):
            try:
                records.append(DealRecord.from_dict(item))
            except RecordError as e:
                raise RecordError(f"deal {i}: {e.reason}", e.action) from None
        return records
    return DealRecord.from_dict(obj)


def dump_game(records: Iterable[DealRecord], indent: int | None = None) -> str:
    return json.dumps([r.to_dict() for r in records], indent=indent, ensure_ascii=False)
