"""The expert's reviews of done deals (issue 35) in the database: asked for (idempotent, a quota
per account), claimed by a process's review worker, its progress, the review kept.

Plain functions of a SQLAlchemy connection (``Store.query`` / ``Store.write``). A deal not done
is never reviewed: its hands are secret while it is played.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import and_, func, insert, or_, select, update
from sqlalchemy.engine import Connection

from ..store.schema import DealRow, ReviewRow

QUOTA = 30  # reviews an account may ask for a day (one already asked for by anyone is free)
QUOTA_WINDOW = 86_400.0
STALE = 120.0  # seconds without news from the worker of a running review before another takes it


def _deal(conn: Connection, gid: int, number: int) -> Any:
    return conn.execute(select(DealRow.id, DealRow.record).where(
        DealRow.game_id == gid, DealRow.number == number, DealRow.status == "done")).first()


def state(conn: Connection, gid: int, number: int) -> dict[str, Any] | None:
    """``GET …/review``: the deal's review, or where it stands (``status`` none: never asked for);
    None when the game has no such deal done."""
    deal = _deal(conn, gid, number)
    if deal is None or deal.record is None:
        return None
    row = conn.execute(select(ReviewRow.status, ReviewRow.done, ReviewRow.total, ReviewRow.review)
                       .where(ReviewRow.deal_id == deal.id)).first()
    if row is None:
        return {"status": "none", "done": 0, "total": 0, "review": None}
    return {"status": row.status, "done": row.done, "total": row.total, "review": row.review}


def request(conn: Connection, gid: int, number: int, player: str, now: float,
            quota: int = QUOTA) -> dict[str, Any] | Literal["no_deal", "quota"]:
    """``POST …/review`` by account ``player``: queue the deal's review unless it already is (then
    its state: asking again costs nothing; a failed one is queued again); "quota" when the
    account asked for ``quota`` new reviews within the day; "no_deal": no such deal done."""
    deal = _deal(conn, gid, number)
    if deal is None or deal.record is None:
        return "no_deal"
    row = conn.execute(select(ReviewRow.id, ReviewRow.status).where(ReviewRow.deal_id == deal.id)).first()
    if row is not None and row.status == "failed":  # asked again: it goes back in the queue
        conn.execute(update(ReviewRow).where(ReviewRow.id == row.id).values(status="queued", done=0, total=0))
    elif row is None:
        asked = conn.execute(select(func.count()).select_from(ReviewRow).where(
            ReviewRow.requested_by == player, ReviewRow.requested > now - QUOTA_WINDOW)).scalar_one()
        if asked >= quota:
            return "quota"
        conn.execute(insert(ReviewRow).values(
            deal_id=deal.id, requested_by=player, requested=now, status="queued", done=0, total=0))
    found = state(conn, gid, number)
    assert found is not None
    return found


@dataclass(frozen=True)
class Claimed:
    id: int
    record: dict[str, Any]


def claim(conn: Connection, now: float) -> Claimed | None:
    """The oldest review waiting (queued, or running without news for ``STALE`` seconds: its
    process stopped), now this process's; None when there is none."""
    waiting = or_(ReviewRow.status == "queued",
                  and_(ReviewRow.status == "running", ReviewRow.claimed < now - STALE))
    found = conn.execute(select(ReviewRow.id, DealRow.record).join(DealRow, DealRow.id == ReviewRow.deal_id)
                         .where(waiting).order_by(ReviewRow.requested, ReviewRow.id).limit(1)).first()
    if found is None:
        return None
    taken = conn.execute(update(ReviewRow).where(ReviewRow.id == found.id, waiting)
                         .values(status="running", claimed=now))
    return Claimed(found.id, found.record) if taken.rowcount == 1 else None  # another process's now


def progress(conn: Connection, rid: int, done: int, total: int, now: float) -> None:
    conn.execute(update(ReviewRow).where(ReviewRow.id == rid).values(done=done, total=total, claimed=now))


def finish(conn: Connection, rid: int, review: dict[str, Any] | None) -> None:
    """The review kept (done), or None: it could not be worked out (failed; asking again retries)."""
    status = "done" if review is not None else "failed"
    conn.execute(update(ReviewRow).where(ReviewRow.id == rid).values(status=status, review=review))

