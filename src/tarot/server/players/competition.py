"""Competitive games: who enters (accounts, and bots under their own accounts), the stakes taken
at the start, and at the end the ranks, the ratings, the pot and the XP (the seed site's rules,
docs/api.md). Each step is a write in the transaction of the game's own (``Store.write_all``):
a game's end and its chips, XP and ratings are committed together or not at all.

A game "counts" unless two people seated share an address (decided at its start): a game that
does not count takes no stakes and changes no rating, chips or XP."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection

from ..store.schema import GamePlayerRow, GameRow
from . import players
from .ratings import ranks, rate_seats

if TYPE_CHECKING:
    from ..store.store import Store

BANK_PERCENT = 25  # the bank keeps this share of a pot


@dataclass(frozen=True)
class Entrant:
    """A seat at a game's start: a person's account, or a bot (kind and name on the
    ladder, ``players.bot_identity``)."""

    player_id: str | None
    bot: tuple[str, str] | None = None


def begin(conn: Connection, store: Store, table: tuple[Any, ...], game: tuple[Any, ...],
          deal: tuple[Any, ...], entrants: list[Entrant], stake: int, counted: bool) -> tuple[int, int]:
    """``Store.begin_game`` for a competitive game, with who plays at each seat and their stakes
    (``players.NotEnoughChips`` undoes it all); the game's and its first deal's ids."""
    gid, did = store.begin_games(conn, [(table, game, deal)])[0]
    conn.execute(update(GameRow).where(GameRow.id == gid)
                 .values(competitive=True, counted=counted, stake=stake))
    for seat, pid in enumerate(enter(conn, gid, entrants)):
        if counted and entrants[seat].bot is None:
            players.take_stake(conn, pid, gid, stake)
    return gid, did


def enter(conn: Connection, gid: int, entrants: list[Entrant]) -> list[str]:
    """Who plays game ``gid`` at each seat (every game's: its players' history); their ids."""
    pids = []
    for seat, e in enumerate(entrants):
        pid = e.player_id if e.bot is None else players.bot_account(conn, *e.bot)
        assert pid is not None
        conn.execute(insert(GamePlayerRow).values(game_id=gid, seat=seat, player_id=pid, left=False))
        pids.append(pid)
    return pids


def mark_left(conn: Connection, gid: int, seat: int) -> None:
    """The person at ``seat`` left the game before its end: ranked last, no pot, no XP."""
    conn.execute(update(GamePlayerRow).where(GamePlayerRow.game_id == gid, GamePlayerRow.seat == seat)
                 .values(left=True))


def _entries(conn: Connection, gid: int) -> list[GamePlayerRow]:
    rows = conn.execute(select(GamePlayerRow).where(GamePlayerRow.game_id == gid)
                        .order_by(GamePlayerRow.seat))
    return [GamePlayerRow(**r._mapping) for r in rows]


def pot_shares(stakes: list[int], ranking: list[int], persons: list[bool], left: set[int],
               one_deal: dict[str, Any] | None) -> list[int]:
    """The chips each seat gets back at the end (its stake was taken at the start).

    The winners (first, ties sharing) split the pot less the bank's 25%; a bot's share goes to
    the bank. A game of one deal: a taker who made it takes every stake; if the defence won,
    each defender gets its stake back and the taker's side's stakes go to the bank.

    >>> pot_shares([10, 10, 10, 10], [1, 2, 3, 4], [True] * 4, set(), None)
    [30, 0, 0, 0]
    >>> pot_shares([10, 10, 10, 10], [1, 1, 3, 4], [True, False, True, True], set(), None)
    [15, 0, 0, 0]
    >>> lost = {"taker": 2, "partner": None, "made": False}
    >>> pot_shares([10, 10, 10, 10], [2, 1, 3, 4], [True] * 4, set(), lost)
    [10, 10, 0, 10]
    """
    n = len(stakes)
    pot = sum(stakes)
    shares = [0] * n
    if one_deal is not None and one_deal.get("taker") is not None:
        taker, partner, made = one_deal["taker"], one_deal.get("partner"), one_deal["made"]
        if made:
            shares[taker] = pot if persons[taker] and taker not in left else 0
        else:
            for s in range(n):
                if s not in (taker, partner) and s not in left:
                    shares[s] = stakes[s]
        return shares
    winners = [s for s in range(n) if ranking[s] == 1 and s not in left]
    if winners:
        prize = (pot - pot * BANK_PERCENT // 100) // len(winners)
        for s in winners:
            shares[s] = prize if persons[s] else 0
    return shares


def xp_awards(ranking: list[int], persons: list[bool], left: set[int], deals: int) -> list[int]:
    """The winner 10 × the players, plus 10 a deal set beyond the first; each loser 5; a person
    who left and a bot nothing.

    >>> xp_awards([1, 2, 2, 4], [True] * 4, {3}, 3)
    [60, 5, 5, 0]
    """
    n = len(ranking)
    won = 10 * n + 10 * (deals - 1)
    return [0 if not persons[s] or s in left else won if ranking[s] == 1 else 5 for s in range(n)]


def finish(conn: Connection, gid: int, deals: int, totals: list[int], last: dict[str, Any] | None,
           gone: tuple[int, ...] = ()) -> list[dict[str, Any]]:
    """A competitive game's end: ranks, ratings, pot and XP (if it counts); each seat's outcome
    (``rank``, ``chips``, ``xp``, ``ordinal_before``, ``ordinal_after``). ``gone``: the seats of
    people who went away and had not come back at the end (left, as if they had said so)."""
    for seat in gone:
        mark_left(conn, gid, seat)
    game = conn.execute(select(GameRow.counted, GameRow.stake, GameRow.players)
                        .where(GameRow.id == gid)).one()
    entries = _entries(conn, gid)
    left = {e.seat for e in entries if e.left}
    ranking = ranks(totals, left)
    out: list[dict[str, Any]] = [
        {"seat": e.seat, "rank": ranking[e.seat], "left": e.left, "chips": 0, "xp": 0,
         "ordinal_before": None, "ordinal_after": None} for e in entries]
    if game.counted:
        pids = [e.player_id for e in entries]
        persons = [_person(conn, pid) for pid in pids]
        ids = list(dict.fromkeys(pids))  # (a bot kind may hold several seats)
        current = dict(zip(ids, players.ratings_of(conn, ids, game.players), strict=True))
        new = rate_seats(current, pids, ranking)
        players.save_ratings(conn, list(new), game.players, list(new.values()))
        before, after = [current[p] for p in pids], [new[p] for p in pids]
        stakes = [game.stake if p else 0 for p in persons]
        shares = pot_shares(stakes, ranking, persons, left, last if deals == 1 else None)
        xp = xp_awards(ranking, persons, left, deals)
        for s, pid in enumerate(pids):
            players.credit(conn, pid, gid, "pot", shares[s], 0)
            players.credit(conn, pid, gid, "xp", 0, xp[s])
            out[s].update(chips=shares[s] - stakes[s], xp=xp[s], ordinal_before=round(before[s].ordinal, 3),
                          ordinal_after=round(after[s].ordinal, 3))
    for o in out:
        conn.execute(update(GamePlayerRow)
                     .where(GamePlayerRow.game_id == gid, GamePlayerRow.seat == o["seat"])
                     .values(rank=o["rank"], chips=o["chips"], xp=o["xp"], ordinal_before=o["ordinal_before"],
                             ordinal_after=o["ordinal_after"]))
    return out


def _person(conn: Connection, pid: str) -> bool:
    row = players.by_id(conn, pid)
    return row is not None and row.bot is None


def cancel(conn: Connection, gid: int) -> None:
    """A game cancelled by agreement: it scores nothing, counts for nothing, and every stake goes
    back, except to a person who abandoned it."""
    game = conn.execute(select(GameRow.counted, GameRow.stake, GameRow.competitive)
                        .where(GameRow.id == gid)).one()
    conn.execute(update(GameRow).where(GameRow.id == gid).values(status="cancelled"))
    if not (game.competitive and game.counted and game.stake):
        return
    for e in _entries(conn, gid):
        if not e.left and _person(conn, e.player_id):
            players.credit(conn, e.player_id, gid, "refund", game.stake, 0)
