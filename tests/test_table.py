"""A table's own bookkeeping, in process (Hub, Table, SQLite store)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from tarot.server import protocol as p
from tarot.server.store import Store, migrate
from tarot.server.table import Hub


class Quiet:
    """A connection that keeps what it is sent."""

    def __init__(self, name: str) -> None:
        self.player_id = f"id-{name}"
        self.name = name
        self.got: list[str] = []

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(p.encode(message).decode())

    def send_text(self, text: str) -> None:
        self.got.append(text)


def test_a_game_whose_start_cannot_be_stored_is_not_counted(tmp_path: Path) -> None:
    """The store refuses the game's start: the table waits as before, with no game counted, and
    the next start is game 1."""

    async def main() -> None:
        url = f"sqlite:///{tmp_path / 'tarot.sqlite3'}"
        migrate(url)
        store = Store(url)
        hub = Hub(store)
        players = [Quiet(f"P{i}") for i in range(4)]
        table = await hub.create(players[0], p.TableOptions(players=4, deals=1))  # type: ignore[arg-type]
        for tab in players:
            await table.deliver(tab, p.Join(type="join", table=table.id))  # type: ignore[arg-type]
        for seat, tab in enumerate(players[:3]):
            await table.deliver(tab, p.Sit(type="sit", seat=seat))  # type: ignore[arg-type]
        begin_game = store.begin_game

        def refused(*_args: Any) -> Any:
            raise OSError("disk full")

        store.begin_game = refused  # type: ignore[method-assign]
        await table.deliver(players[3], p.Sit(type="sit", seat=3))  # type: ignore[arg-type]
        assert table.status == "waiting" and table.game is None and table.games_played == 0
        assert '"internal"' in players[3].got[-1]  # the player is told; the table goes on
        store.begin_game = begin_game  # type: ignore[method-assign]
        await table.deliver(players[3], p.Leave(type="leave"))  # type: ignore[arg-type]
        await table.deliver(players[3], p.Join(type="join", table=table.id))  # type: ignore[arg-type]
        await table.deliver(players[3], p.Sit(type="sit", seat=3))  # type: ignore[arg-type]
        assert table.status == "playing" and table.game is not None
        assert table.game.number == table.games_played == 1
        await hub.close()
        store.close()

    asyncio.run(main())
