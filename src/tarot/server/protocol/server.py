"""The server's messages (server → client). Each is one model that says what the message holds
and builds it: ``Welcome.build(…)`` makes the message as a plain dict with the model's own
``type`` (serialized by ``encode``; the table's hot path sends them as they are, without
validating; ``render`` puts events together from JSON pieces, in the ``TableEvent`` shape).
``server_message`` checks a message against the union of them (the tests check every golden
transcript, and every ``build`` against its model). ``protocol`` is the facade."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal, get_args

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from .client import ChallengeDeal, TableOptions, message_types


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Message(_Out):
    """A server message: ``TYPE`` is the value of its ``type`` field, read from the model, and its
    ``build`` (each message's own arguments) returns the message as a dict."""

    TYPE: ClassVar[str]

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        (cls.TYPE,) = get_args(cls.model_fields["type"].annotation)

    @classmethod
    def _of(cls, **fields: Any) -> dict[str, Any]:
        return {"type": cls.TYPE, **fields}


class Player(_Out):
    id: str
    name: str
    account: bool  # signed in (its session cookie), not a guest


class Welcome(_Message):
    type: Literal["welcome"]
    player: Player
    token: str | None  # a guest's, for its browser to keep; None for an account

    @classmethod
    def build(cls, pid: str, name: str, token: str | None, account: bool = False) -> dict[str, Any]:
        return cls._of(player={"id": pid, "name": name, "account": account}, token=token)


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


class LobbyList(_Message):
    type: Literal["lobby"]
    tables: list[TableSummary]
    total: int
    offset: int

    @classmethod
    def build(cls, tables: list[dict[str, Any]], total: int, offset: int) -> dict[str, Any]:
        return cls._of(tables=tables, total=total, offset=offset)


class MyTables(_Message):
    """After ``lobby``, to that connection alone: the tables of this process, not finished, where
    its player holds a seat (private ones too), to go back to."""

    type: Literal["my_tables"]
    tables: list[TableSummary]

    @classmethod
    def build(cls, tables: list[dict[str, Any]]) -> dict[str, Any]:
        return cls._of(tables=tables)


class LobbyUpdate(_Message):
    """After the first ``lobby`` page, only what changed: the tables added or changed, the ones
    gone (finished, closed, made private), and the new count."""

    type: Literal["lobby_update"]
    changed: list[TableSummary]
    removed: list[str]
    total: int

    @classmethod
    def build(cls, changed: list[dict[str, Any]], removed: list[str], total: int) -> dict[str, Any]:
        return cls._of(changed=changed, removed=removed, total=total)


class Created(_Message):
    type: Literal["created"]
    table: str

    @classmethod
    def build(cls, table: str) -> dict[str, Any]:
        return cls._of(table=table)


class Invite(_Message):
    """To a seated player of a private table: the secret its invite link carries."""

    type: Literal["invite"]
    table: str
    code: str

    @classmethod
    def build(cls, table: str, code: str) -> dict[str, Any]:
        return cls._of(table=table, code=code)


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


class Snapshot(_Message):
    type: Literal["snapshot"]
    table: str
    version: int
    state: State

    @classmethod
    def build(cls, table: str, version: int, state: dict[str, Any]) -> dict[str, Any]:
        return cls._of(table=table, version=version, state=state)


class TableEvent(_Message):
    """A change of the table, to one recipient: the event and what that recipient's state
    became (``render`` sends it as JSON pieces, from ``head``)."""

    type: Literal["event"]
    table: str
    version: int
    event: Event
    state: State

    @classmethod
    def build(cls, table: str, version: int, event: dict[str, Any], state: dict[str, Any]) -> dict[str, Any]:
        return cls.head(table, version) | {"event": event, "state": state}

    @classmethod
    def head(cls, table: str, version: int) -> dict[str, Any]:
        return cls._of(table=table, version=version)


class Missed(_Message):
    type: Literal["missed"]
    table: str
    since: int
    events: list[dict[str, Any]]

    @classmethod
    def build(cls, table: str, since: int, events: list[Any]) -> dict[str, Any]:
        return cls._of(table=table, since=since, events=events)


class Error(_Message):
    model_config = ConfigDict(extra="allow")  # some carry more: table, rule, retry_after
    type: Literal["error"]
    code: str
    reason: str

    @classmethod
    def build(cls, reason: str, code: str = "bad_request", **extra: Any) -> dict[str, Any]:
        return cls._of(code=code, reason=reason, **extra)


class Pong(_Message):
    type: Literal["pong"]
    table: str | None = None
    version: int | None = None

    @classmethod
    def build(cls, table: str | None = None, version: int | None = None) -> dict[str, Any]:
        return cls._of() if table is None else cls._of(table=table, version=version)


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


class ChatMessage(_Message):
    type: Literal["chat"]
    message: ChatLine

    @classmethod
    def build(cls, line: dict[str, Any]) -> dict[str, Any]:
        return cls._of(message=line)


class ChatLog(_Message):
    """The recent messages one may see, on joining a table or the lobby."""

    type: Literal["chat_log"]
    where: Literal["table", "lobby"]
    table: str | None
    messages: list[ChatLine]

    @classmethod
    def build(cls, where: str, table: str | None, lines: list[dict[str, Any]]) -> dict[str, Any]:
        return cls._of(where=where, table=table, messages=lines)


class Muted(_Message):
    """The answer to ``mute``."""

    type: Literal["muted"]
    player: str
    mute: bool

    @classmethod
    def build(cls, player: str, mute: bool) -> dict[str, Any]:
        return cls._of(player=player, mute=mute)


class Friend(_Out):
    id: str
    name: str
    online: bool
    table: str | None  # the public table it is at, if any


class FriendList(_Message):
    type: Literal["friends"]
    friends: list[Friend]

    @classmethod
    def build(cls, listed: list[dict[str, Any]]) -> dict[str, Any]:
        return cls._of(friends=listed)


class FriendUpdate(_Message):
    """A friend added, changed (online, at a table) or removed (``removed``)."""

    type: Literal["friend_update"]
    friend: Friend
    removed: bool

    @classmethod
    def build(cls, friend: dict[str, Any], removed: bool = False) -> dict[str, Any]:
        return cls._of(friend=friend, removed=removed)


class Invitation(_Message):
    """A player invites this one to its table (``code``: a private table's invite secret)."""

    type: Literal["invitation"]
    table: str
    sender: Player = Field(alias="from")
    code: str | None

    @classmethod
    def build(cls, table: str, sender: dict[str, Any], code: str | None) -> dict[str, Any]:
        return cls._of(table=table, code=code, **{"from": sender})


class ChallengeState(_Message):
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

    @classmethod
    def build(cls, day: str, players: int, bots: str, seat: int, deals: list[dict[str, Any]],
              percentage: float | None, ranking: list[dict[str, Any]]) -> dict[str, Any]:
        return cls._of(day=day, players=players, bots=bots, seat=seat, deals=deals,
                       percentage=percentage, ranking=ranking)


class HintAnswer(_Message):
    """The expert's advice to the seat that asked (``hints``), for the table's ``version``."""

    type: Literal["hint"]
    table: str
    version: int
    advice: dict[str, Any]  # {action, why, worlds, mean, next, next_mean} (tarot.bots.advice)

    @classmethod
    def build(cls, table: str, version: int, advice: dict[str, Any]) -> dict[str, Any]:
        return cls._of(table=table, version=version, advice=advice)


class EventStart(_Message):
    """A duplicate event one is registered for has started: the table where one sits."""

    type: Literal["event_start"]
    event: int
    table: str

    @classmethod
    def build(cls, event: int, table: str) -> dict[str, Any]:
        return cls._of(event=event, table=table)


ServerMessage = Annotated[
    Welcome | LobbyList | MyTables | LobbyUpdate | Created | Invite | Snapshot | TableEvent | Missed | Error
    | Pong | ChatMessage | ChatLog | Muted | FriendList | FriendUpdate | Invitation | ChallengeState
    | EventStart | HintAnswer,
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
