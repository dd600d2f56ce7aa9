"""The client's messages (client → server): pydantic v2 models tagged on ``type``, parsed by
``parse_client``; with the table options and the duplicate tables' markers the server's
messages also hold. ``protocol`` is the facade; ``docs/protocol.md`` lists them (a test keeps
the lists equal)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    field_validator,
    model_validator,
)

from tarot.bots import BOT_NAMES

from ..community import text_policy

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
    """A duplicate event's table (``tournament_tables``): the event, the table's number, and who holds
    each seat for the whole event (a bot's seat by a name of its own). Set by the server only."""

    id: int
    table: int
    seats: list[str]
    imposed_taker: bool = False  # each deal's bids are played by the table (``GameFlow.impose_bids``)


# A player's id (made by the server): only its characters, so that no other text reaches a query.
PlayerId = Annotated[str, Field(pattern=text_policy.ID_PATTERN)]


class Hello(_Msg):
    """``name``: a guest's (``text_policy.name``'s rules, checked by the hello: ``bad_name``)."""

    type: Literal["hello"]
    name: str | None = Field(default=None, max_length=100)
    token: str | None = Field(default=None, max_length=100)


class Lobby(_Msg):
    type: Literal["lobby"]


class CreateTable(_Msg):
    type: Literal["create_table"]
    options: TableOptions = TableOptions()


class PlayNow(_Msg):
    """One tap to play: a seat at a table of ``players`` with robots ``bot`` in the other seats."""

    type: Literal["play_now"]
    players: Literal[3, 4, 5] = 4
    bot: str = "heuristic"  # a bot of the registry (tarot.bots.BOT_NAMES)

    @field_validator("bot")
    @classmethod
    def _known(cls, v: str) -> str:
        return _known_bot(v)


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
        return _known_bot(v)


def _known_bot(name: str) -> str:
    if name not in BOT_NAMES:
        raise ValueError(f"unknown bot {name!r}: one of {', '.join(BOT_NAMES)}")
    return name


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
    text (``text_policy.plain``: made one line, no control or invisible character), or a quick
    phrase's code (each reader sees it in its own language)."""

    type: Literal["chat"]
    where: Literal["table", "lobby"] = "table"
    text: str | None = Field(default=None, max_length=CHAT_MAX)
    phrase: Literal["hello", "well_played", "thanks", "good_game", "sorry", "bye"] | None = None

    @field_validator("text")
    @classmethod
    def _plain(cls, v: str | None) -> str | None:
        if v is None:
            return None
        return text_policy.plain(v, CHAT_MAX, "a chat message", breaks=True)

    @model_validator(mode="after")
    def _one(self) -> Chat:
        if (self.text is None) == (self.phrase is None):
            raise ValueError("a chat message has a text or a phrase")
        return self


class Mute(_Msg):
    """Stop (or start again) receiving another player's chat messages."""

    type: Literal["mute"]
    player: PlayerId
    mute: bool = True


class Friends(_Msg):
    """Ask for one's friends (a ``friends`` answer; ``friend_update`` messages follow)."""

    type: Literal["friends"]


class AddFriend(_Msg):
    """Add a player to one's friends: by id (from a table or the chat), or an account by name."""

    type: Literal["add_friend"]
    player: PlayerId | None = None
    name: Annotated[str, Field(max_length=100), AfterValidator(text_policy.typed)] | None = None

    @model_validator(mode="after")
    def _one(self) -> AddFriend:
        if (self.player is None) == (self.name is None):
            raise ValueError("add_friend takes a player id or an account's name")
        return self


class RemoveFriend(_Msg):
    type: Literal["remove_friend"]
    player: PlayerId


class InviteFriend(_Msg):
    """From the table one sits at (or hosts): invite a player to it (and to a seat if private)."""

    type: Literal["invite_friend"]
    player: PlayerId


class Challenge(_Msg):
    """Ask for today's challenge as this player sees it (a ``challenge`` answer)."""

    type: Literal["challenge"]


class ChallengePlay(_Msg):
    """Play (or go back to) a deal of today's challenge: a ``created`` answer with its table."""

    type: Literal["challenge_play"]
    deal: int = Field(ge=1, le=99)


class PracticeFrom(_Msg):
    """Play a done deal again at a practice table of one's own (issue 35): its cards dealt again
    (the same seed), its first ``step`` moves made for everyone, the player at ``seat`` and robots
    in the other seats: a ``created`` answer with its table."""

    type: Literal["practice_from"]
    game: int = Field(ge=1, le=2**31 - 1)
    deal: int = Field(ge=1, le=10_000)
    step: int = Field(default=0, ge=0, le=200)
    seat: int = Field(default=0, ge=0, le=4)


class Rehearsal(_Msg):
    """A practice table's deal played again (``PracticeFrom``): the game and deal it comes from,
    and the moves made for everyone at its start (``tarot-deal/1`` actions). Set by the server."""

    game: int
    deal: int
    step: int
    moves: list[dict[str, Any]]


class Hint(_Msg):
    """At a practice table, on one's turn: what the expert would do (a ``hint`` answer)."""

    type: Literal["hint"]


class RemoveSpectator(_Msg):
    """The host sends a spectator away from the table (it may not come back to it)."""

    type: Literal["remove_spectator"]
    player: PlayerId


# The client's messages by where they go: the site's own (the session, mutes, friends, the
# daily challenge), the lobby's, and a table's (the player's current table, whose actor takes
# ``ToTable``: ``table.actor.TableMessage``; ``web.app`` answers a ping outside a table and
# posts a chat line meant for the lobby there).
ToSite = Hello | Mute | Friends | AddFriend | RemoveFriend | Challenge | ChallengePlay
ToLobby = Lobby | CreateTable | PlayNow | PracticeFrom
ToTable = (Join | Sit | Leave | AddBot | RemoveBot | SetOptions | NewGame | NextDeal | Act | Ping | CancelGame
           | CancelVote | Chat | RemoveSpectator | InviteFriend | Hint)
ClientMessage = Annotated[ToSite | ToLobby | ToTable, Field(discriminator="type")]


def message_types(union: Any) -> tuple[str, ...]:
    """The ``type`` of each message of ``union`` (a union of models, or one ``Annotated``), in
    order: the one list of them (the docs, the browser's dispatch and the errors use it)."""
    members = get_args(union)
    if members and not isinstance(members[0], type):  # Annotated[Union, Field]: the union
        members = get_args(members[0])
    return tuple(get_args(m.model_fields["type"].annotation)[0] for m in members)


CLIENT_TYPES = message_types(ClientMessage)
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
