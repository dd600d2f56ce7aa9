"""Loading tables back from the store (a start, an adoption in a cluster): each with its game
in play, that game's deals and their actions."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import select, update

from .schema import ActionRow, DealRow, GameRow, TableRow

if TYPE_CHECKING:
    from sqlalchemy.orm import Session, sessionmaker


@dataclass
class LoadedTable:
    row: TableRow
    game: GameRow | None
    deals: list[tuple[DealRow, list[ActionRow]]]


class TableLoading:
    """``Store``'s loading of tables (its ``sessions``, on the caller's thread)."""

    sessions: sessionmaker[Session]
    read_sessions: sessionmaker[Session]  # (``load_table`` only reads)

    def load_open_tables(self) -> list[LoadedTable]:
        """The tables to bring back at a start, with their game in progress (if any), its deals
        and their actions: those in play, and those waiting with a person seated. The others
        not closed (finished, or waiting with nobody or only bots) are closed here: nobody is
        waiting for them, and thousands of them would only slow the start and fill the lobby."""
        out: list[LoadedTable] = []
        for tid in self.restorable_tables():
            loaded = self.load_table(tid)
            if loaded is not None:
                out.append(loaded)
        return out

    def restorable_tables(self) -> list[str]:
        """The ids of the tables ``load_open_tables`` brings back; closes the others not closed."""
        keep: list[str] = []
        with self.sessions() as s:
            stale: list[str] = []
            for row in s.scalars(select(TableRow).where(TableRow.status != "closed")):
                seated = any(seat.get("player_id") for seat in row.seats)
                if row.status == "finished" or (row.status == "waiting" and not seated):
                    stale.append(row.id)
                else:
                    keep.append(row.id)
            if stale:
                s.execute(update(TableRow).where(TableRow.id.in_(stale)).values(status="closed"))
                s.commit()
        return keep

    def load_table(self, tid: str) -> LoadedTable | None:
        """Table ``tid`` as stored, with its latest game, that game's deals and their actions;
        None if there is no such table or it is closed or finished."""
        with self.read_sessions() as s:
            row = s.get(TableRow, tid)
            if row is None or row.status in ("closed", "finished"):
                return None
            game = s.scalar(select(GameRow).where(GameRow.table_id == row.id)
                            .order_by(GameRow.number.desc()).limit(1))
            deals: list[tuple[DealRow, list[ActionRow]]] = []
            if game is not None:
                for d in s.scalars(select(DealRow).where(DealRow.game_id == game.id)
                                   .order_by(DealRow.number)):
                    acts = list(s.scalars(select(ActionRow).where(ActionRow.deal_id == d.id)
                                          .order_by(ActionRow.index)))
                    deals.append((d, acts))
            return LoadedTable(row, game, deals)
