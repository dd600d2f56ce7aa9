"""Chat: one room per table and one for the lobby.

A message is plain text (at most ``protocol.CHAT_MAX`` characters, on one line) or a quick
phrase's code, which each reader's page says in its own language. It is stored (with its table
and game), then sent to those who may see it: a spectator's message at a table whose host keeps
the spectators among themselves (``spectator_chat``) reaches only the spectators; nobody receives
the messages of a player they muted. Each player may send ``CHAT_BURST`` messages at once and
one every two seconds after that (``Buckets``): over that, a clear error, and every message of
the next ``CHAT_COOLDOWN`` seconds is refused too (docs/protocol.md says the same numbers)."""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, insert, select
from sqlalchemy.engine import Connection

from .. import protocol as p
from ..limits import Buckets
from ..store.schema import ChatRow, MuteRow
from ..table.seats import Client

if TYPE_CHECKING:
    from ..store.store import Store

KEEP = 50  # recent messages a room keeps to show who comes in
CHAT_RATE, CHAT_BURST, CHAT_COOLDOWN = 0.5, 5.0, 10.0


@dataclass(frozen=True)
class Line:
    id: int
    where: str  # table, lobby
    table: str | None
    sender: str  # player id
    name: str
    seat: int  # -1: a spectator, or the lobby
    text: str | None
    phrase: str | None
    audience: str  # all, spectators
    at: float
    account: bool = False  # the sender is signed in (a guest's name is not an account's)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "where": self.where, "table": self.table,
                "from": {"id": self.sender, "name": self.name, "seat": self.seat, "account": self.account},
                "text": self.text, "phrase": self.phrase, "audience": self.audience, "at": self.at}


class Mutes:
    """Who mutes whom, kept in the database and, for the players connected, in memory."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._of: dict[str, set[str]] = {}

    async def load(self, player: str) -> None:
        self._of[player] = set(await self.store.query(_muted_by, player))

    def muted(self, viewer: str, sender: str) -> bool:
        return sender in self._of.get(viewer, ())

    async def muted_anywhere(self, viewer: str, sender: str) -> bool:
        """``muted`` for a viewer that may be connected to another process (not loaded here)."""
        if viewer in self._of:
            return self.muted(viewer, sender)
        return sender in await self.store.query(_muted_by, viewer)

    async def set(self, player: str, other: str, mute: bool) -> None:
        await self.store.write(_set_mute, player, other, mute)
        mine = self._of.setdefault(player, set())
        if mute:
            mine.add(other)
        else:
            mine.discard(other)


def _muted_by(conn: Connection, player: str) -> list[str]:
    return [m for (m,) in conn.execute(select(MuteRow.muted_id).where(MuteRow.player_id == player))]


def _set_mute(conn: Connection, player: str, other: str, mute: bool) -> None:
    conn.execute(delete(MuteRow).where(MuteRow.player_id == player, MuteRow.muted_id == other))
    if mute:
        conn.execute(insert(MuteRow).values(player_id=player, muted_id=other))


def _store_line(conn: Connection, line: Line, game: int | None) -> int:
    row = conn.execute(insert(ChatRow).values(
        table_id=line.table, game_id=game, player_id=line.sender, name=line.name, seat=line.seat,
        audience=line.audience, text=line.text, phrase=line.phrase, created=line.at).returning(ChatRow.id))
    return int(row.scalar_one())


class ChatServices:
    """What every room shares: the store, the mutes and the players' sending limits."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.mutes = Mutes(store)
        self.limits = Buckets(CHAT_RATE, CHAT_BURST, CHAT_COOLDOWN)
        self.clock = store.clock


class Room:
    def __init__(self, services: ChatServices, where: str, table: str | None = None) -> None:
        self.services = services
        self.where = where
        self.table = table
        self.lines: deque[Line] = deque(maxlen=KEEP)

    def may_see(self, line: Line, viewer: Client, spectator: bool) -> bool:
        if line.audience == "spectators" and not spectator:
            return False
        return not self.services.mutes.muted(viewer.player_id, line.sender)

    async def post(self, client: Client, msg: p.Chat, seat: int, audience: str, game: int | None,
                   readers: Iterable[tuple[Client, bool]]) -> Line | None:
        """``readers``: who is in the room, each with whether it is a spectator (its seat -1).
        The line said, or None if it was refused."""
        wait = self.services.limits.take(client.player_id, self.services.clock.now())
        if wait:
            client.send(p.Error.build(f"too many chat messages: wait {int(wait) + 1} s", "chat_flood",
                                retry_after=round(wait, 1)))
            return None
        line = Line(0, self.where, self.table, client.player_id, client.name, seat, msg.text, msg.phrase,
                    audience, round(self.services.clock.wall(), 3), client.account)
        line = dataclasses.replace(line, id=await self.services.store.write(_store_line, line, game))
        self.lines.append(line)
        out = p.ChatMessage.build(line.to_dict())
        for reader, spectator in readers:
            if self.may_see(line, reader, spectator):
                reader.send(out)
        return line

    def log_for(self, client: Client, spectator: bool) -> dict[str, Any]:
        return p.ChatLog.build(self.where, self.table,
                          [line.to_dict() for line in self.lines if self.may_see(line, client, spectator)])
