"""The daily challenge: asynchronous duplicate (R26). Every day the same deals for everyone, each
played at one's own pace at a table of one's own, in seat 0 against the same bots; each result
is compared with everyone's who held the same cards (``challenge_ranking``).

A day's deals come from a secret drawn from ``secrets`` when the day's first player asks for
them and kept hidden until the day is over. Each deal's seed and its commitment's salt are
HMACs of that secret, so the seed and salt a player sees at the end of one deal tell nothing of
the others; everybody sees the same commitment at a deal's start, and once the day is over the
secret lets anyone check every deal (docs/duplicate.md).

A deal is begun once per player: whatever happens, it is never dealt to them again. Who leaves
in the middle finds the table where they left it (a robot plays for them after the grace
period, as at any table); its end stores the seat's score with the game's end."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection

from ..store.schema import ChallengeDayRow, ChallengeEntryRow, PlayerRow
from ..store.store import stamp, today
from ..table.game import Etui, etui

PLAYERS = 4
DEALS = 8
BOT = "heuristic"  # the same level for everyone ("club"): it plays the same cards the same way
SEAT = 0  # the player's seat in every deal; the dealer turns, so the first to bid changes


@dataclass(frozen=True)
class Day:
    day: str
    players: int
    deals: int
    secret: str
    as_of: str  # the day it was read on (UTC, as every challenge's day): over once that is later

    def etui(self, number: int) -> Etui:
        return etui(self.secret, self.players, number)

    @property
    def over(self) -> bool:
        return self.day < self.as_of

    def public(self) -> dict[str, Any]:
        """What anybody may know of the day: each deal's dealer and commitment; the secret once
        the day is over."""
        deals = [{"deal": e.number, "dealer": e.dealer, "commitment": e.commitment}
                 for e in map(self.etui, range(1, self.deals + 1))]
        return {"day": self.day, "players": self.players, "bots": BOT, "seat": SEAT, "deals": deals,
                "over": self.over, "secret": self.secret if self.over else None}


def _day_row(conn: Connection, day: str) -> Day | None:
    row = conn.execute(select(ChallengeDayRow).where(ChallengeDayRow.day == day)).first()
    return None if row is None else Day(row.day, row.players, row.deals, row.secret, today(conn))


def get_day(conn: Connection, day: str) -> Day | None:
    """A day already dealt (None: nobody has asked for it)."""
    return _day_row(conn, day)


def open_day(conn: Connection, day: str, deals: int = DEALS) -> Day:
    """The day's challenge, dealt now if nobody asked for it yet (a write: two processes asking
    at once meet on the primary key; the loser's transaction fails and asks again)."""
    found = _day_row(conn, day)
    if found is not None:
        return found
    secret = secrets.token_hex(32)
    conn.execute(insert(ChallengeDayRow).values(day=day, players=PLAYERS, deals=deals, secret=secret,
                                                created=stamp(conn)))
    return Day(day, PLAYERS, deals, secret, today(conn))


@dataclass(frozen=True)
class Entry:
    day: str
    deal: int
    player_id: str
    name: str
    account: bool
    table_id: str
    game_id: int | None
    status: str  # playing, done
    score: int | None
    side: str | None  # attack, defence, none (everybody passed)
    contract: str | None


def _entries(conn: Connection, *where: Any) -> list[Entry]:
    e = ChallengeEntryRow
    rows = conn.execute(
        select(e.day, e.deal, e.player_id, PlayerRow.name, PlayerRow.password_hash.is_not(None), e.table_id,
               e.game_id, e.status, e.score, e.side, e.contract)
        .join(PlayerRow, PlayerRow.id == e.player_id).where(*where).order_by(e.day, e.deal, e.id))
    return [Entry(*row) for row in rows]


def entries_of(conn: Connection, day: str, player: str) -> list[Entry]:
    return _entries(conn, ChallengeEntryRow.day == day, ChallengeEntryRow.player_id == player)


def entry_of(conn: Connection, day: str, deal: int, player: str) -> Entry | None:
    """``player``'s entry for deal ``deal`` of ``day``; None if it has not begun it."""
    found = _entries(conn, ChallengeEntryRow.day == day, ChallengeEntryRow.deal == deal,
                     ChallengeEntryRow.player_id == player)
    return found[0] if found else None


def results_of_day(conn: Connection, day: str) -> list[Entry]:
    """Every finished deal of the day, by every player."""
    return _entries(conn, ChallengeEntryRow.day == day, ChallengeEntryRow.status == "done")


def results_of_month(conn: Connection, month: str) -> list[Entry]:
    return _entries(conn, ChallengeEntryRow.day.like(f"{month}-%"), ChallengeEntryRow.status == "done")


def begin(conn: Connection, day: str, deal: int, player: str, table_id: str) -> Entry | None:
    """Begin ``player``'s deal at table ``table_id``; None if done: its earlier entry
    otherwise (the unique key refuses a second one begun at the same moment)."""
    found = entry_of(conn, day, deal, player)
    if found is not None:
        return found
    conn.execute(insert(ChallengeEntryRow).values(day=day, deal=deal, player_id=player, table_id=table_id,
                                                  status="playing", created=stamp(conn)))
    return None


def finish(conn: Connection, table_id: str, game_id: int | None, score: int, result: dict[str, Any]) -> None:
    """The deal played at ``table_id`` is over: the seat's score, its side and the contract (in
    the transaction of the game's end)."""
    if result.get("annulled"):
        side, contract = "none", "pass"
    else:
        attack = SEAT in (result.get("taker"), result.get("partner"))
        side, contract = ("attack" if attack else "defence"), str(result.get("contract"))
    conn.execute(update(ChallengeEntryRow).where(ChallengeEntryRow.table_id == table_id)
                 .values(status="done", game_id=game_id, score=score, side=side, contract=contract,
                         finished=stamp(conn)))

