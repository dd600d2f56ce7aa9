"""Games played, for the players' history and the replays (issue 18, docs/api.md): a player's
games a page at a time, a game with its deals that are done, and their ``tarot-deal/1`` records.

Plain read functions of a SQLAlchemy connection (``Store.query``). A deal not done is never
read here: its hands are secret while it is played (its seed too: the cards follow from it)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from ..store.schema import DealRow, GamePlayerRow, GameRow, PlayerRow
from . import players
from .hidden import of_player

PAGE = 20  # games a page of a player's history
ENDED = ("finished", "abandoned", "cancelled")

Seat = tuple[str, dict[str, Any]]  # a player's id, and what is shown of the seat


def _seats(conn: Connection, gids: list[int]) -> dict[int, list[Seat]]:
    """Who played each game at each seat (by game id): the player's id, and what is shown: the
    name, a bot's, an account's (it has a profile), and for a competitive game its rank and its
    rating (ordinal) before and after."""
    out: dict[int, list[Seat]] = {gid: [] for gid in gids}
    if not gids:
        return out
    gp = GamePlayerRow
    rows = conn.execute(select(gp.game_id, gp.seat, gp.player_id, gp.left, gp.rank, gp.ordinal_before,
                               gp.ordinal_after, PlayerRow.name, PlayerRow.bot, PlayerRow.name_key)
                        .join(PlayerRow, PlayerRow.id == gp.player_id)
                        .where(gp.game_id.in_(gids)).order_by(gp.game_id, gp.seat))
    for r in rows:
        rating = None if r.ordinal_after is None else {"before": r.ordinal_before, "after": r.ordinal_after}
        out[r.game_id].append((r.player_id, {
            "seat": r.seat, "name": r.name, "bot": r.bot is not None, "account": r.name_key is not None,
            "left": bool(r.left), "rank": r.rank, "rating": rating}))
    return out


def _deals_done(conn: Connection, gids: list[int]) -> dict[int, int]:
    if not gids:
        return {}
    rows = conn.execute(select(DealRow.game_id, func.count()).where(DealRow.game_id.in_(gids),
                                                                    DealRow.status == "done")
                        .group_by(DealRow.game_id))
    return {int(gid): int(n) for gid, n in rows}


def _game(g: Any, seats: list[Seat], played: int) -> dict[str, Any]:
    return {"id": g.id, "date": g.finished if g.finished is not None else g.started, "started": g.started,
            "finished": g.finished, "status": g.status, "players": g.players, "deals": g.deals,
            "played": played, "totals": list(g.totals), "competitive": bool(g.competitive),
            "counted": bool(g.counted), "stake": g.stake, "seats": [shown for _, shown in seats]}


def player_games(conn: Connection, key: str, page: int, viewer: str | None) -> dict[str, Any] | None:
    """``GET /api/players/{name}/games``: the ended games of the account (or bot) whose folded
    name is ``key`` that ``viewer`` may see (``hidden``), newest first, page ``page`` (from 1)
    of ``PAGE``; None if no such player."""
    row = players.by_name(conn, key)
    if row is None:
        return None
    mine = select(GamePlayerRow.game_id).where(GamePlayerRow.player_id == row.id)
    hidden = of_player(conn, row.id, viewer)
    where = (GameRow.id.in_(mine), GameRow.status.in_(ENDED), GameRow.id.not_in(hidden))
    total = int(conn.execute(select(func.count()).select_from(GameRow).where(*where)).scalar_one())
    date = func.coalesce(GameRow.finished, GameRow.started)
    games = list(conn.execute(select(GameRow).where(*where).order_by(date.desc(), GameRow.id.desc())
                              .offset((page - 1) * PAGE).limit(PAGE)))
    gids = [g.id for g in games]
    seats, done = _seats(conn, gids), _deals_done(conn, gids)
    listed = []
    for g in games:
        at = seats[g.id]
        own = next((shown for pid, shown in at if pid == row.id), {})  # (a bot kind may hold several seats)
        listed.append({**_game(g, at, done.get(g.id, 0)),
                       "seat": own.get("seat"), "rank": own.get("rank"), "rating": own.get("rating")})
    return {"name": row.name, "bot": row.bot is not None, "page": page, "per_page": PAGE, "total": total,
            "more": page * PAGE < total, "games": listed}


def _done_deals(conn: Connection, gid: int) -> list[Any]:
    return list(conn.execute(select(DealRow).where(DealRow.game_id == gid, DealRow.status == "done")
                             .order_by(DealRow.number)))


def game(conn: Connection, gid: int) -> dict[str, Any] | None:
    """``GET /api/games/{id}``: a game and its deals that are done (a deal in play is left out:
    its hands are secret); None if there is no such game."""
    g = conn.execute(select(GameRow).where(GameRow.id == gid)).first()
    if g is None:
        return None
    deals = [{"number": d.number, "dealer": d.dealer, "commitment": d.commitment, "seed": d.seed,
              "salt": d.salt, "record": d.record, "result": d.result} for d in _done_deals(conn, gid)]
    return {**_game(g, _seats(conn, [gid])[gid], len(deals)), "deals_done": deals}


def records(conn: Connection, gid: int) -> list[dict[str, Any]] | None:
    """``GET /api/games/{id}/records``: the ``tarot-deal/1`` records of the game's deals that are
    done, in order (a game record, as ``tarot replay`` reads it); None if there is no such game."""
    if conn.execute(select(GameRow.id).where(GameRow.id == gid)).first() is None:
        return None
    return [d.record for d in _done_deals(conn, gid) if d.record is not None]
