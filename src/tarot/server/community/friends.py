"""Friends and presence: each player's friends (kept in the database), who is online and at
which table, told to the friends who are connected as it changes, and invitations to a table.

A friend is one way, as one adds a contact: Alice's friends are those Alice added. Alice sees
whether they are online and at which public table; a private table of Alice's lets her friends
sit (``seating.join``)."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy import delete, insert, select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from .. import protocol as p
from ..store.schema import FriendRow, PlayerRow
from ..store.store import stamp, token_hash
from ..table.seats import Client
from .invitations import InvitationLimits

if TYPE_CHECKING:
    from ..cluster.peers import Peers
    from ..store.store import Store


class _Session(Protocol):
    session: str | None  # the signed-in session it was opened with


class _At(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def options(self) -> p.TableOptions: ...


class Conn(Client, Protocol):
    """A connection as presence sees it (``connection.Connection``; a protocol, so that presence
    does not import the connections' side)."""

    @property
    def table(self) -> _At | None: ...

    @property
    def ws(self) -> _Session: ...

    def close(self) -> None: ...

MAX_FRIENDS = 500


def _friends_of(conn: Connection, player: str) -> list[tuple[str, str]]:
    return [(fid, name) for fid, name in conn.execute(
        select(FriendRow.friend_id, PlayerRow.name).join(PlayerRow, PlayerRow.id == FriendRow.friend_id)
        .where(FriendRow.player_id == player).order_by(PlayerRow.name))]


def _is_friend(conn: Connection, player: str, other: str) -> bool:
    return conn.execute(select(FriendRow.player_id).where(FriendRow.player_id == player,
                                                          FriendRow.friend_id == other)).first() is not None


def _add(conn: Connection, player: str, other: str) -> str | None:
    """The friend's name, or None if there is no such player."""
    name = conn.execute(select(PlayerRow.name).where(PlayerRow.id == other)).scalar_one_or_none()
    if name is None:
        return None
    conn.execute(delete(FriendRow).where(FriendRow.player_id == player, FriendRow.friend_id == other))
    conn.execute(insert(FriendRow).values(player_id=player, friend_id=other, created=stamp(conn)))
    return str(name)


def _remove(conn: Connection, player: str, other: str) -> None:
    conn.execute(delete(FriendRow).where(FriendRow.player_id == player, FriendRow.friend_id == other))


def _account_id(conn: Connection, key: str) -> str | None:
    found = conn.execute(select(PlayerRow.id).where(PlayerRow.name_key == key)).scalar_one_or_none()
    return None if found is None else str(found)


class Presence:
    """The connections of each player of this process, and the friends lists of those connected
    (with who lists whom, to tell them of a change). In a cluster, what the other nodes said of
    their players too (``Peers``): who is online there, and at which public table."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.conns: dict[str, set[Conn]] = defaultdict(set)
        self.names: dict[str, str] = {}
        self.friends: dict[str, dict[str, str]] = {}  # a connected player's friends: id → name
        self.listed_by: dict[str, set[str]] = defaultdict(set)  # a player → connected players listing it
        self.elsewhere: dict[str, dict[str, str | None]] = {}  # player → node → its public table there
        self.nodes: Counter[str] = Counter()  # a node → how many players ``elsewhere`` has there
        self.peers: Peers | None = None  # the other nodes (a cluster), told of every change here
        self.invitations = InvitationLimits(store.clock)  # how many a player may send and receive

    def online(self, player: str) -> bool:
        return bool(self.conns.get(player)) or bool(self.elsewhere.get(player))

    def where(self, player: str) -> str | None:
        """The public table a player is at (any of its connections), if any."""
        here = self.where_here(player)
        if here is not None:
            return here
        return next((t for t in self.elsewhere.get(player, {}).values() if t is not None), None)

    def where_here(self, player: str) -> str | None:
        for c in self.conns.get(player, ()):
            if c.table is not None and not c.table.options.private:
                return c.table.id
        return None

    def card(self, player: str, name: str) -> dict[str, Any]:
        return {"id": player, "name": name, "online": self.online(player), "table": self.where(player)}

    async def arrive(self, conn: Conn) -> None:
        pid = conn.player_id
        first = not self.conns[pid]
        self.conns[pid].add(conn)
        self.names[pid] = conn.name
        if first:
            listed = dict(await self.store.query(_friends_of, pid))
            self.friends[pid] = listed
            for f in listed:
                self.listed_by[f].add(pid)
        self.changed(pid)

    def leave(self, conn: Conn) -> None:
        pid = conn.player_id
        mine = self.conns.get(pid)
        if mine is None:
            return
        mine.discard(conn)
        if not mine:
            del self.conns[pid]
            for f in self.friends.pop(pid, {}):
                self.listed_by[f].discard(pid)
        self.changed(pid)

    def changed(self, player: str) -> None:
        """Tell the connected players who list ``player`` where it is now (and the other nodes'
        too, in a cluster)."""
        if self.peers is not None:
            self.peers.presence(player, self.names.get(player, ""), bool(self.conns.get(player)),
                                self.where_here(player))
        self._tell_watchers(player)

    def announce_all(self) -> None:
        """Tell the other nodes where every player connected here is (a node that starts asks)."""
        if self.peers is not None:
            for player in [pl for pl, conns in self.conns.items() if conns]:
                self.peers.presence(player, self.names.get(player, ""), True, self.where_here(player))

    def changed_elsewhere(self, node: str, player: str, name: str, online: bool, table: str | None) -> None:
        """Another node says where ``player`` is there."""
        there = self.elsewhere.setdefault(player, {})
        if online:
            self.nodes[node] += node not in there
            there[node] = table
        elif there.pop(node, False) is not False:
            self.nodes[node] -= 1
            if not self.nodes[node]:
                del self.nodes[node]
        if not there:
            del self.elsewhere[player]
        self.names.setdefault(player, name)
        self._tell_watchers(player)

    def forget_node(self, node: str) -> None:
        """A node died: its players are not online there any more."""
        for player in [pl for pl, there in self.elsewhere.items() if node in there]:
            self.changed_elsewhere(node, player, "", False, None)

    def _tell_watchers(self, player: str) -> None:
        card = self.card(player, self.names.get(player, ""))
        for watcher in self.listed_by.get(player, ()):
            card["name"] = self.friends.get(watcher, {}).get(player, card["name"])
            self.tell(watcher, p.FriendUpdate.build(dict(card)))

    def tell(self, player: str, message: dict[str, Any]) -> bool:
        """Send to every connection of ``player`` (on every node); False if it is not online."""
        if self.peers is not None and player in self.elsewhere:
            self.peers.tell(player, message)
        return self.tell_here(player, message) or player in self.elsewhere

    def tell_here(self, player: str, message: dict[str, Any]) -> bool:
        conns = self.conns.get(player)
        for c in conns or ():
            c.send(message)
        return bool(conns)

    def signed_out(self, player: str, session: str) -> None:
        """``player`` signed out of ``session``: the connections opened with it, which play as
        the account, are closed, on every node."""
        hashed = token_hash(session)
        if self.peers is not None:
            self.peers.signed_out(player, hashed)
        self.close_session_here(player, hashed)

    def close_session_here(self, player: str, session_hash: str) -> None:
        """Close this node's connections of ``player`` opened with the session of that hash
        (close code 1008, no message: the page that signed out is replacing its socket, and
        another page reconnects by itself, as a guest)."""
        for c in [c for c in self.conns.get(player, ())
                  if c.ws.session is not None and token_hash(c.ws.session) == session_hash]:
            c.close()

    def listing(self, player: str) -> dict[str, Any]:
        return p.FriendList.build([self.card(f, name) for f, name in self.friends.get(player, {}).items()])

    async def is_friend(self, player: str, other: str) -> bool:
        if player in self.friends:
            return other in self.friends[player]
        return bool(await self.store.query(_is_friend, player, other))

    async def handle(self, conn: Conn, msg: p.Friends | p.AddFriend | p.RemoveFriend) -> None:
        pid = conn.player_id
        match msg:
            case p.Friends():
                conn.send(self.listing(pid))
            case p.AddFriend():
                await self._add(conn, msg)
            case p.RemoveFriend():
                await self.store.write(_remove, pid, msg.player)
                name = self.friends.get(pid, {}).pop(msg.player, "")
                self.listed_by[msg.player].discard(pid)
                self.tell(pid, p.FriendUpdate.build(self.card(msg.player, name), removed=True))

    async def _add(self, conn: Conn, msg: p.AddFriend) -> None:
        from ..players.accounts import name_key

        pid = conn.player_id
        other = msg.player if msg.player is not None else await self.store.query(_account_id,
                                                                                  name_key(msg.name or ""))
        if other is None or other == pid:
            conn.send(p.Error.build("no such player to add", "no_player"))
            return
        if len(self.friends.get(pid, {})) >= MAX_FRIENDS:
            conn.send(p.Error.build(f"at most {MAX_FRIENDS} friends", "too_many_friends"))
            return
        try:
            name = await self.store.write(_add, pid, other)
        except IntegrityError:
            name = None
        if name is None:
            conn.send(p.Error.build("no such player to add", "no_player"))
            return
        self.friends.setdefault(pid, {})[other] = name
        self.listed_by[other].add(pid)
        self.tell(pid, p.FriendUpdate.build(self.card(other, name)))
