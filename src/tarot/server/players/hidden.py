"""What a viewer may not see yet of the games played: the one rule of every route that tells a
game's outcome (its replay and records, a player's games, the statistics; issue 34).

- A game of an event not over: other tables may still have its deals to play.
- A game that played a deal of today's daily challenge, to whoever has not played that deal (a
  guest, or no session): everyone sees it once the day is over.

A hidden game only ever becomes visible (the day ends, the event ends, the viewer plays the
deal), never the other way. Plain functions of a SQLAlchemy connection (``Store.query``)."""

from __future__ import annotations

from sqlalchemy import CompoundSelect, select, union_all
from sqlalchemy.engine import Connection
from sqlalchemy.orm import aliased

from ..store.schema import ChallengeEntryRow, EventDealRow, EventRow, GamePlayerRow, GameRow
from ..store.store import today
from .accounts import Accounts


def hidden_games(viewer: str | None, day: str) -> CompoundSelect[tuple[int | None]]:
    """The ids of the games whose outcome ``viewer`` (an account's id; None: no session) may
    not see yet on ``day`` (today, UTC), as a subquery (never a NULL in it: ``NOT IN`` stays right)."""
    # (an event with games is playing or finished: "not over" as the statuses' index reads it)
    at_events = (select(EventDealRow.game_id).join(EventRow, EventRow.id == EventDealRow.event_id)
                 .where(EventRow.status.in_(("registering", "playing")), EventDealRow.game_id.is_not(None)))
    entry = ChallengeEntryRow
    today = select(entry.game_id).where(entry.day >= day, entry.game_id.is_not(None))
    if viewer is not None:
        mine = aliased(ChallengeEntryRow)  # (``mine.day >= day`` too: PostgreSQL reads today's only)
        today = today.where(~select(mine.id).where(mine.day >= day, mine.day == entry.day,
                                                   mine.deal == entry.deal, mine.player_id == viewer,
                                                   mine.status == "done").exists())
    return union_all(at_events, today)


def of_player(conn: Connection, pid: str, viewer: str | None) -> list[int]:
    """Player ``pid``'s games whose outcome ``viewer`` may not see yet: a few at most (a day's
    challenge, the events under way), so a list to leave out rather than a subquery per game row
    (which PostgreSQL's planner may walk every game with)."""
    mine = select(GamePlayerRow.game_id).where(GamePlayerRow.player_id == pid)
    hidden = hidden_games(viewer, today(conn)).subquery()
    return list(conn.execute(select(hidden.c.game_id).where(hidden.c.game_id.in_(mine))).scalars())


def is_hidden(conn: Connection, gid: int, viewer: str | None) -> bool:
    """Game ``gid``'s outcome is not ``viewer``'s to see yet."""
    hidden = hidden_games(viewer, today(conn))
    found = conn.execute(select(GameRow.id).where(GameRow.id == gid, GameRow.id.in_(hidden))).first()
    return found is not None


async def viewer(accounts: Accounts, session: str | None) -> str | None:
    """Who looks: the session's account's id; None for a guest (or no session)."""
    account = await accounts.by_session(session)
    return None if account is None else account.id
