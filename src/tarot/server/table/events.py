"""A table's events: every change of a table's state is one typed value.

Handlers (``seating``, ``flow``, ``cancelvote``, ``autoplay``) read the table's state and
return events; the table's actor alone applies them (``TableState.apply``), after storing what
they change (``writes``), then versions, logs and sends them (``Renderer.record``).

Each event says who sees what of it (``views``): everyone sees ``public()``, and the seats in
``private()`` see their own version instead (an écart: its taker sees the cards, the others
their number). Rendering and the missed-events replay (``EventLog``) both read that one rule.
A few events change the state without being sent (``sent = False``: who was invited, who was
sent away): they have no version.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from tarot.engine import Action, Ecart, action_to_dict

if TYPE_CHECKING:
    from tarot.engine import SheetRow

    from .. import protocol as p
    from .game import DealInfo, ServerGame


def public_action(action: Action, whole: dict[str, Any]) -> dict[str, Any]:
    """What everyone may see of an action (``whole``: its ``action_to_dict``): an écart is only
    its size (its trumps are in views)."""
    return whole | {"ecart": len(action.cards)} if isinstance(action, Ecart) else whole


@dataclass(frozen=True)
class TableEvent:
    kind: ClassVar[str] = ""
    sent: ClassVar[bool] = True  # a new version, sent to every watcher
    row: ClassVar[bool] = False  # changes the table's stored row (seats, host, options)
    lobby: ClassVar[bool] = False  # changes what the lobby shows of the table
    full: ClassVar[bool] = True  # sent with every key of the state (else only the view's)
    result: ClassVar[bool] = False  # sent with ``last_result`` (it changed)

    def fields(self) -> dict[str, Any]:
        return {}

    def public(self) -> dict[str, Any]:
        """The event as everyone may see it."""
        return {"kind": self.kind, **self.fields()}

    def private(self) -> dict[int, dict[str, Any]]:
        """What some seats see instead of ``public()``."""
        return {}


def views(event: TableEvent) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """Who sees what of ``event``: the public event, and the seats that see their own."""
    return event.public(), event.private()


# --- seats and options (stored with the table's row) ------------------------------------


@dataclass(frozen=True)
class Sat(TableEvent):
    kind: ClassVar[str] = "sit"
    row: ClassVar[bool] = True
    lobby: ClassVar[bool] = True
    seat: int
    player_id: str
    name: str
    account: bool
    address: str

    def fields(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name}


@dataclass(frozen=True)
class Left(TableEvent):
    """A person left its seat: a bot plays on under its name when a game is in play
    (``robot``); the next host is ``host``."""

    kind: ClassVar[str] = "leave"
    row: ClassVar[bool] = True
    lobby: ClassVar[bool] = True
    seat: int
    robot: bool
    host: str | None

    def fields(self) -> dict[str, Any]:
        return {"seat": self.seat}


@dataclass(frozen=True)
class BotAdded(TableEvent):
    kind: ClassVar[str] = "add_bot"
    row: ClassVar[bool] = True
    lobby: ClassVar[bool] = True
    seat: int
    bot: str

    def fields(self) -> dict[str, Any]:
        return {"seat": self.seat, "bot": self.bot}


@dataclass(frozen=True)
class BotRemoved(TableEvent):
    kind: ClassVar[str] = "remove_bot"
    row: ClassVar[bool] = True
    lobby: ClassVar[bool] = True
    seat: int

    def fields(self) -> dict[str, Any]:
        return {"seat": self.seat}


@dataclass(frozen=True)
class OptionsSet(TableEvent):
    """The host's new options; ``invite``: the table's invite (a new one when it became
    private)."""

    kind: ClassVar[str] = "options"
    row: ClassVar[bool] = True
    lobby: ClassVar[bool] = True
    options: p.TableOptions
    invite: str | None

    def fields(self) -> dict[str, Any]:
        return {"options": self.options.model_dump()}


@dataclass(frozen=True)
class PresenceChanged(TableEvent):
    """A seated person's connections: all gone (``away``, since ``at``), or one back (seen at
    ``address``)."""

    kind: ClassVar[str] = "presence"
    seat: int
    away: bool
    at: float | None = None
    address: str | None = None

    def fields(self) -> dict[str, Any]:
        return {"seat": self.seat, "away": self.away}


@dataclass(frozen=True)
class Invited(TableEvent):
    """``player`` may sit at this private table (its invite link, the host's friend, an
    invitation)."""

    sent: ClassVar[bool] = False
    player: str


@dataclass(frozen=True)
class SpectatorRemoved(TableEvent):
    """The host sent ``player`` away: it may not come back to watch."""

    sent: ClassVar[bool] = False
    player: str


# --- games and deals -------------------------------------------------------------------


@dataclass(frozen=True)
class GameStarted(TableEvent):
    """A game, stored with its first deal (``first``), which starts next."""

    kind: ClassVar[str] = "game_start"
    lobby: ClassVar[bool] = True
    result: ClassVar[bool] = True  # (the last game's result is gone)
    game: ServerGame
    first: DealInfo

    def fields(self) -> dict[str, Any]:
        return {"game": self.game.number, "deals": self.game.deals}


@dataclass(frozen=True)
class DealStarted(TableEvent):
    kind: ClassVar[str] = "deal_start"
    info: DealInfo

    def fields(self) -> dict[str, Any]:
        return {"deal": self.info.number, "dealer": self.info.dealer, "commitment": self.info.commitment}


@dataclass(frozen=True)
class ActionPlayed(TableEvent):
    """A move, by ``by``: player, bot, away, timeout or imposed."""

    kind: ClassVar[str] = "action"
    full: ClassVar[bool] = False  # (the table, the game and the last result did not change)
    seat: int
    action: Action
    by: str
    # the action as a record holds it, made once for the store, the event and the taker's écart
    # (a field set at creation: a cached_property takes a lock at each first read)
    whole: dict[str, Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "whole", action_to_dict(self.action))

    def fields(self) -> dict[str, Any]:
        return {"seat": self.seat, "action": public_action(self.action, self.whole), "by": self.by}

    def private(self) -> dict[int, dict[str, Any]]:
        if not isinstance(self.action, Ecart):
            return {}
        return {self.seat: self.public() | {"action": self.whole}}


@dataclass(frozen=True)
class DealEnded(TableEvent):
    """The current deal's end, stored with what follows: the next deal (``following``, which
    starts at once or after ``pause_until``) or the game's end (``over``)."""

    kind: ClassVar[str] = "deal_end"
    result: ClassVar[bool] = True
    last_result: dict[str, Any]  # deal, result, row, seed, salt, commitment, record
    sheet_row: SheetRow  # the deal's row of the score sheet (``last_result["row"]`` is its dict)
    following: DealInfo | None
    over: bool
    pause_until: float | None

    def fields(self) -> dict[str, Any]:
        return dict(self.last_result)


@dataclass(frozen=True)
class Ready(TableEvent):
    """A seated person asks for the next deal (the pause between two deals)."""

    kind: ClassVar[str] = "ready"
    seat: int

    def fields(self) -> dict[str, Any]:
        return {"seat": self.seat}


@dataclass(frozen=True)
class GameEnded(TableEvent):
    kind: ClassVar[str] = "game_end"
    lobby: ClassVar[bool] = True
    totals: tuple[int, ...]
    ranking: tuple[dict[str, int], ...]
    outcome: tuple[dict[str, Any], ...] | None

    def fields(self) -> dict[str, Any]:
        out: dict[str, Any] = {"totals": list(self.totals), "ranking": list(self.ranking)}
        if self.outcome is not None:
            out["outcome"] = list(self.outcome)
        return out


# --- the cancel vote -------------------------------------------------------------------


@dataclass(frozen=True)
class CancelProposed(TableEvent):
    kind: ClassVar[str] = "cancel_proposed"
    seat: int
    until: float  # the clock's now()

    def fields(self) -> dict[str, Any]:
        return {"seat": self.seat}


@dataclass(frozen=True)
class CancelAccepted(TableEvent):
    kind: ClassVar[str] = "cancel_accepted"
    seat: int

    def fields(self) -> dict[str, Any]:
        return {"seat": self.seat}


@dataclass(frozen=True)
class CancelRefused(TableEvent):
    kind: ClassVar[str] = "cancel_refused"
    seat: int

    def fields(self) -> dict[str, Any]:
        return {"seat": self.seat}


@dataclass(frozen=True)
class CancelExpired(TableEvent):
    kind: ClassVar[str] = "cancel_expired"


@dataclass(frozen=True)
class GameCancelled(TableEvent):
    kind: ClassVar[str] = "game_cancelled"
    lobby: ClassVar[bool] = True


KINDS: tuple[type[TableEvent], ...] = (
    Sat, Left, BotAdded, BotRemoved, OptionsSet, PresenceChanged, GameStarted, DealStarted, ActionPlayed,
    DealEnded, Ready, GameEnded, CancelProposed, CancelAccepted, CancelRefused, CancelExpired, GameCancelled)
