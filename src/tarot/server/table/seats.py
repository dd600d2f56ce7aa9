"""Who sits at a table: its seats, and a connection as the table sees it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


class Client(Protocol):
    """A connection as the table sees it."""

    player_id: str
    name: str
    account: bool  # signed in: may sit at a competitive table

    @property
    def address(self) -> str:
        """The client's network address (two people at one address: a game counts for nothing)."""

    def send(self, message: dict[str, Any]) -> None:
        """``message``'s values may be ``orjson.Fragment``: JSON serialized once for many."""

    def send_text(self, text: str) -> None:
        """A message already serialized (the same for several connections)."""


@dataclass(frozen=True)
class Seat:
    """A seat as the table's state holds it (changed by replacing it: ``TableState.apply``)."""

    player_id: str | None = None
    name: str = ""
    bot: str | None = None  # heuristic, search, random: a bot sits here
    away_since: float | None = None  # a human with no connection, since (monotonic)
    account: bool = False  # the person is signed in (competitive tables seat only accounts)
    address: str = ""  # the person's network address, last seen (kept in memory only)

    @property
    def empty(self) -> bool:
        return self.player_id is None and self.bot is None

    @property
    def person(self) -> bool:
        """A person sits here (connected or away)."""
        return self.player_id is not None

    def to_dict(self) -> dict[str, Any]:
        return {"player_id": self.player_id, "name": self.name, "bot": self.bot, "account": self.account}
