"""A player's accuracy (issue 35, ``GET /api/players/{name}/accuracy``): from the expert's reviews
of the deals it played (``reviews``), its mean loss per decision by phase (the bidding, the
écart, the play) and overall, and its trend (each reviewed deal's mean loss, oldest first). A
robot's account has one too. Only the deals the viewer may see count (``hidden``).

A plain read function of a SQLAlchemy connection (``Store.query``)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from ..store.schema import DealRow, GamePlayerRow, GameRow, ReviewRow
from . import players
from .hidden import of_player

# the review's phases (docs/review.md) as the profile groups them
PHASE_OF = {"bid": "bidding", "call": "bidding", "ecart": "ecart", "chelem": "play", "poignee": "play",
            "card": "play"}
PHASES = ("bidding", "ecart", "play")
TREND = 30  # reviewed deals in the trend, the latest


def accuracy(conn: Connection, key: str, viewer: str | None) -> dict[str, Any] | None:
    """The accuracy of the account (or bot) whose folded name is ``key``; None if no such player."""
    row = players.by_name(conn, key)
    if row is None:
        return None
    hidden = of_player(conn, row.id, viewer)
    found = conn.execute(
        select(ReviewRow.review, GamePlayerRow.seat, DealRow.game_id, DealRow.number)
        .join(DealRow, DealRow.id == ReviewRow.deal_id)
        .join(GamePlayerRow, GamePlayerRow.game_id == DealRow.game_id)
        .join(GameRow, GameRow.id == DealRow.game_id)
        .where(ReviewRow.status == "done", GamePlayerRow.player_id == row.id, DealRow.game_id.not_in(hidden))
        .order_by(GameRow.started, DealRow.game_id, DealRow.number, GamePlayerRow.seat))
    totals = {phase: [0.0, 0] for phase in PHASES}
    trend = []
    for review, seat, gid, number in found:
        mine = [d for d in review["decisions"] if d["seat"] == seat and d["grade"] != "unrated"]
        for d in mine:
            total = totals[PHASE_OF[d["phase"]]]
            total[0] += d["loss"]
            total[1] += 1
        if mine:
            trend.append({"game": gid, "deal": number, "seat": seat, "decisions": len(mine),
                          "mean_loss": round(sum(d["loss"] for d in mine) / len(mine), 2)})
    count = sum(n for _, n in totals.values())
    return {"name": row.name, "bot": row.bot is not None, "deals": len(trend), "decisions": count,
            "mean_loss": round(sum(t for t, _ in totals.values()) / count, 2) if count else None,
            "phases": {phase: {"decisions": n, "mean_loss": round(t / n, 2) if n else None}
                       for phase, (t, n) in totals.items()},
            "trend": trend[-TREND:]}
