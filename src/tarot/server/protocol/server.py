"""The server's messages (server → client). Each model says what a message holds; the function
after it builds one (a dict, serialized by ``encode``; the table's hot path sends them as they
are, without validating; ``render`` puts events together from JSON pieces, in the ``Event``
shape); ``server_message`` checks a message against them (the tests check every golden
transcript). ``protocol`` is the facade."""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from .client import ChallengeDeal, TableOptions, message_types


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Player(_Out):
    id: str
    name: str
    account: bool  # signed in (its session cookie), not a guest


class Welcome(_Out):
    type: Literal["welcome"]
    player: Player
    token: str | None  # a guest's, for its browser to keep; None for an account


def welcome(pid: str, name: str, token: str | None, account: bool = False) -> dict[str, Any]:
    """``token``: a guest's, for its browser to keep; None for an account (its session cookie)."""
    return {"type": "welcome", "player": {"id": pid, "name": name, "account": account}, "token": token}


class SeatSummary(_Out):
    name: str | None
    bot: str | None
    taken: bool
    host: bool
    away: bool
    account: bool  # a signed-in person sits here (a guest's name is not an account's)


class EventAt(_Out):
    id: int
    table: int  # 1-based


class TableSummary(_Out):
    id: str
    options: TableOptions
    host: str | None
    status: Literal["waiting", "playing", "finished"]
    seats: list[SeatSummary]
    challenge: ChallengeDeal | None = None  # only at a challenge's table
    event: EventAt | None = None  # only at an event's table


class LobbyList(_Out):
    type: Literal["lobby"]
    tables: list[TableSummary]
    total: int
    offset: int


def lobby(tables: list[dict[str, Any]], total: int, offset: int) -> dict[str, Any]:
    return {"type": "lobby", "tables": tables, "total": total, "offset": offset}


class LobbyUpdate(_Out):
    """After the first ``lobby`` page, only what changed: the tables added or changed, the ones
    gone (finished, closed, made private), and the new count."""

    type: Literal["lobby_update"]
    changed: list[TableSummary]
    removed: list[str]
    total: int


def lobby_update(changed: list[dict[str, Any]], removed: list[str], total: int) -> dict[str, Any]:
    return {"type": "lobby_update", "changed": changed, "removed": removed, "total": total}


class Created(_Out):
    type: Literal["created"]
    table: str


def created(table: str) -> dict[str, Any]:
    return {"type": "created", "table": table}


class Invite(_Out):
    """To a seated player of a private table: the secret its invite link carries."""

    type: Literal["invite"]
    table: str
    code: str


def invite(table: str, code: str) -> dict[str, Any]:
    return {"type": "invite", "table": table, "code": code}


EventKind = Literal["sit", "leave", "add_bot", "remove_bot", "options", "presence", "game_start",
                    "deal_start", "action", "deal_end", "ready", "game_end", "cancel_proposed",
                    "cancel_accepted", "cancel_refused", "cancel_expired", "game_cancelled"]
EVENT_KINDS: tuple[str, ...] = get_args(EventKind)


class Event(BaseModel):
    """A change of the table (``docs/protocol.md`` lists each kind's fields)."""

    model_config = ConfigDict(extra="allow")
    kind: EventKind


class State(BaseModel):
    """What one recipient may know (an event's may hold only the keys that changed)."""

    model_config = ConfigDict(extra="forbid")
    table: TableSummary | None = None
    you: int
    version: int
    game: dict[str, Any] | None = None
    view: dict[str, Any] | None = None
    time_left: float | None = None
    next_deal: dict[str, Any] | None = None
    last_result: dict[str, Any] | None = None
    cancel: dict[str, Any] | None = None  # a vote to cancel under way
    counts: bool | None = None  # a competitive game here counts (no two people share an address)


class Snapshot(_Out):
    type: Literal["snapshot"]
    table: str
    version: int
    state: State


def snapshot(table: str, version: int, state: dict[str, Any]) -> dict[str, Any]:
    return {"type": "snapshot", "table": table, "version": version, "state": state}


class TableEvent(_Out):
    type: Literal["event"]
    table: str
    version: int
    event: Event
    state: State


class Missed(_Out):
    type: Literal["missed"]
    table: str
    since: int
    events: list[dict[str, Any]]


def missed(table: str, since: int, events: list[Any]) -> dict[str, Any]:
    return {"type": "missed", "table": table, "since": since, "events": events}


class Error(BaseModel):
    model_config = ConfigDict(extra="allow")  # some carry more: table, rule, retry_after
    type: Literal["error"]
    code: str
    reason: str


def error(reason: str, code: str = "bad_request", **extra: Any) -> dict[str, Any]:
    return {"type": "error", "code": code, "reason": reason, **extra}


class Pong(_Out):
    type: Literal["pong"]
    table: str | None = None
    version: int | None = None


def pong(table: str | None = None, version: int | None = None) -> dict[str, Any]:
    return {"type": "pong"} if table is None else {"type": "pong", "table": table, "version": version}


class ChatFrom(_Out):
    id: str
    name: str
    seat: int  # -1: a spectator (or the lobby)
    account: bool  # said by a signed-in person, not a guest


class ChatLine(_Out):
    id: int
    where: Literal["table", "lobby"]
    table: str | None
    sender: ChatFrom = Field(alias="from")
    text: str | None
    phrase: str | None
    audience: Literal["all", "spectators"]
    at: float


class ChatMessage(_Out):
    type: Literal["chat"]
    message: ChatLine


class ChatLog(_Out):
    """The recent messages one may see, on joining a table or the lobby."""

    type: Literal["chat_log"]
    where: Literal["table", "lobby"]
    table: str | None
    messages: list[ChatLine]


class Muted(_Out):
    """The answer to ``mute``."""

    type: Literal["muted"]
    player: str
    mute: bool


class Friend(_Out):
    id: str
    name: str
    online: bool
    table: str | None  # the public table it is at, if any


class FriendList(_Out):
    type: Literal["friends"]
    friends: list[Friend]


class FriendUpdate(_Out):
    """A friend added, changed (online, at a table) or removed (``removed``)."""

    type: Literal["friend_update"]
    friend: Friend
    removed: bool


class Invitation(_Out):
    """A player invites this one to its table (``code``: a private table's invite secret)."""

    type: Literal["invitation"]
    table: str
    sender: Player = Field(alias="from")
    code: str | None


class ChallengeState(_Out):
    """Today's daily challenge as one player sees it (``challenge_tables.state``): each deal with
    its dealer and commitment, and once played its score, mark and the accounts' results."""

    type: Literal["challenge"]
    day: str
    players: int
    bots: str
    seat: int
    deals: list[dict[str, Any]]
    percentage: float | None
    ranking: list[dict[str, Any]]


class HintAnswer(_Out):
    """The expert's advice to the seat that asked (``hints``), for the table's ``version``."""

    type: Literal["hint"]
    table: str
    version: int
    advice: dict[str, Any]  # {action, why, worlds, mean, next, next_mean} (tarot.bots.advice)


def hint(table: str, version: int, advice: dict[str, Any]) -> dict[str, Any]:
    return {"type": "hint", "table": table, "version": version, "advice": advice}


class EventStart(_Out):
    """A duplicate event one is registered for has started: the table where one sits."""

    type: Literal["event_start"]
    event: int
    table: str


def event_start(event: int, table: str) -> dict[str, Any]:
    return {"type": "event_start", "event": event, "table": table}


def friends(listed: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": "friends", "friends": listed}


def friend_update(friend: dict[str, Any], removed: bool = False) -> dict[str, Any]:
    return {"type": "friend_update", "friend": friend, "removed": removed}


def invitation(table: str, sender: dict[str, Any], code: str | None) -> dict[str, Any]:
    return {"type": "invitation", "table": table, "from": sender, "code": code}


def muted(player: str, mute: bool) -> dict[str, Any]:
    return {"type": "muted", "player": player, "mute": mute}


def chat(line: dict[str, Any]) -> dict[str, Any]:
    return {"type": "chat", "message": line}


def chat_log(where: str, table: str | None, lines: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": "chat_log", "where": where, "table": table, "messages": lines}


ServerMessage = Annotated[
    Welcome | LobbyList | LobbyUpdate | Created | Invite | Snapshot | TableEvent | Missed | Error | Pong
    | ChatMessage | ChatLog | Muted | FriendList | FriendUpdate | Invitation | ChallengeState | EventStart
    | HintAnswer,
    Field(discriminator="type"),
]
SERVER_TYPES = message_types(ServerMessage)
server_message: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)


def encode(message: Any) -> bytes:
    """A server message as JSON (orjson; ``Fragment`` values go in as they are)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)


def serialized(value: Any) -> orjson.Fragment:
    """``value`` serialized once, to go unchanged into the messages of several recipients."""
    return orjson.Fragment(encode(value))


def object_head(value: dict[str, Any]) -> bytes:
    """A non-empty object's JSON, open for more keys: ``object_head(a) + object_tail(b)`` is the
    JSON of ``a | b`` when no key is in both, with ``a`` serialized once for many ``b``."""
    return encode(value)[:-1] + b","


def object_tail(value: dict[str, Any]) -> bytes:
    """A non-empty object's JSON without its opening brace, to close an ``object_head``."""
    return encode(value)[1:]


def merge_state(state: dict[str, Any] | None, msg: dict[str, Any]) -> dict[str, Any]:
    """What a client knows after ``msg`` (an ``event`` or a ``snapshot``): a snapshot's state is
    whole; an event's holds only the keys that changed, to merge into the last state."""
    update: dict[str, Any] = msg["state"]
    if msg["type"] == "snapshot" or state is None:
        return dict(update)
    return state | update
