"""The websocket's messages, both ways (pydantic v2 models, tagged on ``type``).

Client messages are parsed into their models (``parse_client``). Server messages are written by
the builders next to their models (``welcome``, ``snapshot``, …; ``render`` puts events together
from JSON pieces, in the ``Event`` shape): the models say what each holds, ``server_message``
checks a message against them (the tests check every golden transcript), and
``docs/protocol.md`` lists both unions (a test keeps them equal).
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal, get_args

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator, model_validator

from tarot.bots import BOT_NAMES

MAX_MESSAGE_BYTES = 8192  # a client message over this gets ``too_large`` (the connection kept)
# A frame over this is refused from its header by the websocket layer (close 1009), before its
# bytes are read into memory: what uvicorn's ``ws_max_size`` is set to (app.UVICORN_OPTIONS).
MAX_FRAME_BYTES = 2 * MAX_MESSAGE_BYTES


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TableOptions(_Msg):
    players: Literal[3, 4, 5] = 4
    deals: int = Field(default=4, ge=1, le=40)
    move_time: int | None = Field(default=None, ge=5, le=600)  # seconds per move; None: off
    private: bool = False
    spectators: bool = True
    # A competitive table's games count (ratings, chips, XP) and only accounts sit there; a
    # practice table's count for nothing. The stake: chips per game and per person.
    competitive: bool = False
    stake: int = Field(default=0, ge=0, le=100_000)
    # the host may keep the spectators' chat among spectators (the players do not see it)
    spectator_chat: Literal["all", "spectators"] = "all"

    @model_validator(mode="after")
    def _stake_if_competitive(self) -> TableOptions:
        if self.stake and not self.competitive:
            raise ValueError("a stake is only for a competitive table")
        return self


class ChallengeDeal(_Msg):
    """The daily challenge's deal a table plays (``challenge_tables``): set by the server only."""

    day: str = Field(pattern=r"^\d{4}-\d{2}-\d{2}$")
    deal: int = Field(ge=1, le=99)


class EventTable(_Msg):
    """A duplicate event's table (``event_tables``): the event, the table's number, and who holds
    each seat for the whole event (a bot's seat by a name of its own). Set by the server only."""

    id: int
    table: int
    seats: list[str]
    imposed_taker: bool = False  # each deal's bids are played by the table (``GameFlow.impose_bids``)


class Hello(_Msg):
    type: Literal["hello"]
    name: str | None = Field(default=None, max_length=40)
    token: str | None = Field(default=None, max_length=100)

    @field_validator("name")
    @classmethod
    def _clean(cls, v: str | None) -> str | None:
        if v is None:
            return None
        v = " ".join(v.split())
        if not v:
            raise ValueError("a display name cannot be empty")
        return v


class Lobby(_Msg):
    type: Literal["lobby"]


class CreateTable(_Msg):
    type: Literal["create_table"]
    options: TableOptions = TableOptions()


class Join(_Msg):
    type: Literal["join"]
    table: str = Field(max_length=32)
    since: int | None = Field(default=None, ge=0)  # last table version this client saw
    invite: str | None = Field(default=None, max_length=64)  # a private table's secret, from its link


class Sit(_Msg):
    type: Literal["sit"]
    seat: int = Field(ge=0, le=4)


class Leave(_Msg):
    type: Literal["leave"]


class AddBot(_Msg):
    type: Literal["add_bot"]
    seat: int = Field(ge=0, le=4)
    bot: str = "heuristic"  # a bot of the registry (tarot.bots.BOT_NAMES)

    @field_validator("bot")
    @classmethod
    def _known(cls, v: str) -> str:
        if v not in BOT_NAMES:
            raise ValueError(f"unknown bot {v!r}: one of {', '.join(BOT_NAMES)}")
        return v


class RemoveBot(_Msg):
    type: Literal["remove_bot"]
    seat: int = Field(ge=0, le=4)


class SetOptions(_Msg):
    type: Literal["set_options"]
    options: TableOptions


class NewGame(_Msg):
    type: Literal["new_game"]


class NextDeal(_Msg):
    """A seated player has seen the deal's result: the next deal may start (when all have)."""

    type: Literal["next_deal"]


class Act(_Msg):
    type: Literal["act"]
    action: dict[str, Any]  # a tarot-deal/1 action; "seat" may be left out (it is the sender's)


class Ping(_Msg):
    type: Literal["ping"]


class CancelGame(_Msg):
    """A seated person proposes to cancel the game in play (every seated person must accept)."""

    type: Literal["cancel_game"]


class CancelVote(_Msg):
    """A seated person's answer to the proposal to cancel."""

    type: Literal["cancel_vote"]
    accept: bool


CHAT_MAX = 300  # characters of a chat message
PHRASES = ("hello", "well_played", "thanks", "good_game", "sorry", "bye")  # quick phrases, by code


class Chat(_Msg):
    """A chat message: at the table one watches (``table``) or in the lobby (``lobby``); plain
    text, or a quick phrase's code (each reader sees it in its own language)."""

    type: Literal["chat"]
    where: Literal["table", "lobby"] = "table"
    text: str | None = Field(default=None, max_length=CHAT_MAX)
    phrase: Literal["hello", "well_played", "thanks", "good_game", "sorry", "bye"] | None = None

    @field_validator("text")
    @classmethod
    def _plain(cls, v: str | None) -> str | None:
        if v is None:
            return None
        # plain text on one line: control characters (line breaks included) become spaces
        v = " ".join("".join(" " if unicodedata.category(ch)[0] == "C" else ch for ch in v).split())
        if not v:
            raise ValueError("a chat message cannot be empty")
        return v

    @model_validator(mode="after")
    def _one(self) -> Chat:
        if (self.text is None) == (self.phrase is None):
            raise ValueError("a chat message has a text or a phrase")
        return self


class Mute(_Msg):
    """Stop (or start again) receiving another player's chat messages."""

    type: Literal["mute"]
    player: str = Field(max_length=32)
    mute: bool = True


class Friends(_Msg):
    """Ask for one's friends (a ``friends`` answer; ``friend_update`` messages follow)."""

    type: Literal["friends"]


class AddFriend(_Msg):
    """Add a player to one's friends: by id (from a table or the chat), or an account by name."""

    type: Literal["add_friend"]
    player: str | None = Field(default=None, max_length=32)
    name: str | None = Field(default=None, max_length=100)

    @model_validator(mode="after")
    def _one(self) -> AddFriend:
        if (self.player is None) == (self.name is None):
            raise ValueError("add_friend takes a player id or an account's name")
        return self


class RemoveFriend(_Msg):
    type: Literal["remove_friend"]
    player: str = Field(max_length=32)


class InviteFriend(_Msg):
    """From the table one sits at (or hosts): invite a player to it (and to a seat if private)."""

    type: Literal["invite_friend"]
    player: str = Field(max_length=32)


class Challenge(_Msg):
    """Ask for today's challenge as this player sees it (a ``challenge`` answer)."""

    type: Literal["challenge"]


class ChallengePlay(_Msg):
    """Play (or go back to) a deal of today's challenge: a ``created`` answer with its table."""

    type: Literal["challenge_play"]
    deal: int = Field(ge=1, le=99)


class Hint(_Msg):
    """At a practice table, on one's turn: what the expert would do (a ``hint`` answer)."""

    type: Literal["hint"]


class RemoveSpectator(_Msg):
    """The host sends a spectator away from the table (it may not come back to it)."""

    type: Literal["remove_spectator"]
    player: str = Field(max_length=32)


ClientMessage = Annotated[
    Hello | Lobby | CreateTable | Join | Sit | Leave | AddBot | RemoveBot | SetOptions | NewGame | NextDeal
    | Act | Ping | CancelGame | CancelVote | Chat | Mute | RemoveSpectator | Friends | AddFriend
    | RemoveFriend | InviteFriend | Challenge | ChallengePlay | Hint,
    Field(discriminator="type"),
]
CLIENT_TYPES = ("hello", "lobby", "create_table", "join", "sit", "leave", "add_bot", "remove_bot",
                "set_options", "new_game", "next_deal", "act", "ping", "cancel_game", "cancel_vote", "chat",
                "mute", "remove_spectator", "friends", "add_friend", "remove_friend", "invite_friend",
                "challenge", "challenge_play", "hint")
client_message: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


def parse_client(text: str | bytes) -> ClientMessage:
    """Parse one client message; ValueError with a short reason if it is not one."""
    from pydantic import ValidationError

    try:
        return client_message.validate_json(text)
    except ValidationError as e:
        err = e.errors(include_url=False)[0]
        where = ".".join(str(p) for p in err.get("loc", ()))
        if err.get("type") == "json_invalid":
            raise ValueError("malformed JSON") from None
        if err.get("type") == "union_tag_invalid":
            raise ValueError(f"unknown message type; known: {', '.join(CLIENT_TYPES)}") from None
        if err.get("type") == "union_tag_not_found":
            raise ValueError("a message is a JSON object with a \"type\"") from None
        if err.get("type") == "model_attributes_type":
            raise ValueError("a message is a JSON object with a \"type\"") from None
        raise ValueError(f"{where}: {err.get('msg')}" if where else str(err.get("msg"))) from None


# --- server → client -------------------------------------------------------------------
# Each model says what a message holds; the function after it builds one (a dict, serialized by
# ``encode``; the table's hot path sends them as they are, without validating).


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
SERVER_TYPES = ("welcome", "lobby", "lobby_update", "created", "invite", "snapshot", "event", "missed",
                "error", "pong", "chat", "chat_log", "muted", "friends", "friend_update", "invitation",
                "challenge", "event_start", "hint")
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
