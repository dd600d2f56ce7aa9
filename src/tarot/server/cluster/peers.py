"""What the nodes of a cluster tell each other about players (docs/scaling.md): where each one
is (friends see it online, at its table; a node that starts asks the others who is connected
to them), a message for a player wherever it is connected (an invitation, an event's start),
the lobby's chat lines, the players and addresses cut off for flooding, and the sessions signed
out (their connections are closed everywhere). Tables are ``relay``'s."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Protocol

import orjson

from .. import protocol as p
from ..community.chat import Line

if TYPE_CHECKING:
    from ..community.friends import Presence
    from ..limits import FloodLimits
    from ..lobby import Lobby
    from .node import Cluster, Listener


class Node(Protocol):
    """What the other nodes' news reach on this one (the ``Hub``'s parts)."""

    presence: Presence
    flood: FloodLimits
    lobby: Lobby  # who watches the lobby here, and its chat


class Peers:
    def __init__(self, hub: Node, cluster: Cluster) -> None:
        self.hub = hub
        self.cluster = cluster
        self.presence_channel = cluster.key("presence")
        self.tell_channel = cluster.key("tell")
        self.chat_channel = cluster.key("lobby-chat")
        self.cut_off_channel = cluster.key("cut-off")
        self.signed_out_channel = cluster.key("signed-out")

    def listeners(self) -> dict[str, Listener]:
        return {self.presence_channel: self._on_presence, self.tell_channel: self._on_tell,
                self.chat_channel: self._on_chat, self.cut_off_channel: self._on_cut_off,
                self.signed_out_channel: self._on_signed_out}

    def _send(self, channel: str, message: dict[str, Any]) -> None:
        self.cluster.publish(channel, orjson.dumps({"node": self.cluster.node} | message))

    def _theirs(self, data: bytes) -> dict[str, Any] | None:
        message: dict[str, Any] = orjson.loads(data)
        return None if message["node"] == self.cluster.node else message

    # --- what this node says ---------------------------------------------------------------

    def presence(self, player: str, name: str, online: bool, table: str | None) -> None:
        self._send(self.presence_channel, {"player": player, "name": name, "online": online, "table": table})

    def ask_presence(self) -> None:
        """This node starts: the others say who is connected to them, so that a friend already
        online elsewhere shows online here at once, not at its next change."""
        self._send(self.presence_channel, {"sync": True})

    def cut_off(self, kind: str, key: str, seconds: float) -> None:
        """A player or an address this node cut off for flooding (``FloodLimits``)."""
        self._send(self.cut_off_channel, {"kind": kind, "key": key, "seconds": seconds})

    def tell(self, player: str, message: dict[str, Any]) -> None:
        self._send(self.tell_channel, {"player": player, "message": message})

    def signed_out(self, player: str, session_hash: str) -> None:
        """A session signed out here: its connections to the other nodes are closed too."""
        self._send(self.signed_out_channel, {"player": player, "session": session_hash})

    def lobby_line(self, line: Line) -> None:
        self._send(self.chat_channel, {"line": dataclasses.asdict(line)})

    # --- what the others say -----------------------------------------------------------------

    def _on_presence(self, _channel: str, data: bytes) -> None:
        m = self._theirs(data)
        if m is None:
            return
        if m.get("sync"):
            self.hub.presence.announce_all()
            return
        self.hub.presence.changed_elsewhere(m["node"], m["player"], m["name"], m["online"], m["table"])

    def _on_cut_off(self, _channel: str, data: bytes) -> None:
        m = self._theirs(data)
        if m is not None:
            self.hub.flood.cut_off(m["kind"], m["key"], m["seconds"])

    def _on_tell(self, _channel: str, data: bytes) -> None:
        m = self._theirs(data)
        if m is not None:
            self.hub.presence.tell_here(m["player"], m["message"])

    def _on_signed_out(self, _channel: str, data: bytes) -> None:
        m = self._theirs(data)
        if m is not None:
            self.hub.presence.close_session_here(m["player"], m["session"])

    def _on_chat(self, _channel: str, data: bytes) -> None:
        """A line of the lobby's chat said on another node: kept in the room's log here too, and
        sent to this node's lobby (mutes as here)."""
        m = self._theirs(data)
        if m is None:
            return
        hub = self.hub
        line = Line(**m["line"])
        hub.lobby.room.lines.append(line)
        out = p.ChatMessage.build(line.to_dict())
        for reader in list(hub.lobby.watchers):
            if hub.lobby.room.may_see(line, reader, True):
                reader.send(out)
