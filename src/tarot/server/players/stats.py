"""A player's statistics (``GET /api/players/{name}/stats``, docs/api.md): per player count, the
games and deals it played, its contracts and how they went, its average score, its petits au
bout, chelems and poignées, and its rating after each counted competitive game.

Read from the players' history (``game_players``: who played each game at each seat) and the
deals' stored results and records, finished games only: a game cancelled, abandoned or still
being played counts for nothing here, nor a game the viewer may not see yet (``hidden``).
``finished_seats`` and ``deals`` read (on the store's thread); ``done`` works out what a deal's
result leaves out and ``compute`` counts (pure functions, off it); ``stats_cache`` keeps what was
read, and reads only the games finished since.

What a deal's result does not say (the side that took the Petit au bout, a chelem) comes from its
score: given the contract, the points and the poignées shown, each way the primes could have gone
scores differently (the Petit au bout is worth at most 60, a chelem's primes are 200 apart), so
exactly one matches the stored scores. A deal where none or several would (none should) is
replayed from its record instead."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from tarot.engine import Contract, DealRecord, PoigneeSize, RecordError, Side, score_deal, variant

from ..store.schema import DealRow, GamePlayerRow, GameRow

COUNTS = (3, 4, 5)
CONTRACTS = tuple(c.name_text for c in Contract)  # prise, garde, garde_sans, garde_contre
SIZES = tuple(s.name_text for s in PoigneeSize)  # simple, double, triple
PETIT = "T1"


@dataclass(frozen=True)
class Seat:
    """One game the player finished, at one seat (a bot's account may hold several seats of a
    game: each counts)."""

    game: int
    seat: int
    players: int
    finished: float
    rated: bool  # competitive and counted: it moved the player's rating
    ordinal_after: float | None


@dataclass(frozen=True)
class DealDone:
    """A done deal, with what its result leaves out (``facts``; None for a deal not scored)."""

    game: int
    players: int
    result: dict[str, Any] | None
    facts: Facts | None


@dataclass
class Rows:
    """What ``compute`` needs: the player's seats, oldest first, and their games' deals."""

    name: str
    bot: bool
    seats: list[Seat] = field(default_factory=list)
    deals: list[DealDone] = field(default_factory=list)


@dataclass(frozen=True)
class Facts:
    """What a deal's result leaves out, for every seat: who played the Petit, the side that
    earned the Petit au bout's prime, the side that won every trick, who announced a chelem,
    each seat's poignée."""

    petit_seat: int | None
    petit_au_bout: Side | None
    chelem: Side | None
    announced: int | None
    poignees: dict[int, PoigneeSize]


def finished_seats(conn: Connection, pid: str, since: float | None) -> list[Seat]:
    """Player ``pid``'s seats in its finished games (those that finished at ``since`` or later,
    epoch seconds, if given), oldest first."""
    where = [GamePlayerRow.player_id == pid, GameRow.status == "finished"]
    if since is not None:
        where.append(GameRow.finished >= since)
    return [Seat(r.game_id, r.seat, r.players, r.finished or 0.0, bool(r.competitive and r.counted),
                 r.ordinal_after) for r in conn.execute(
                select(GamePlayerRow.game_id, GamePlayerRow.seat, GameRow.players, GameRow.finished,
                       GameRow.competitive, GameRow.counted, GamePlayerRow.ordinal_after)
                .join(GameRow, GameRow.id == GamePlayerRow.game_id).where(*where)
                .order_by(GameRow.finished, GameRow.id, GamePlayerRow.seat))]


Read = tuple[int, int, Any, Any]  # a done deal as read: its game, players, record and result


def deals(conn: Connection, gids: list[int]) -> list[Read]:
    """The done deals of the games ``gids``, in order."""
    return [(d.game_id, d.players, d.record, d.result) for d in conn.execute(
        select(DealRow.game_id, GameRow.players, DealRow.record, DealRow.result)
        .join(GameRow, GameRow.id == DealRow.game_id)
        .where(DealRow.game_id.in_(gids), DealRow.status == "done")
        .order_by(DealRow.game_id, DealRow.number))]


def done(reads: list[Read]) -> list[DealDone]:
    """Deals as ``compute`` counts them: the ``facts`` of each deal scored worked out once (the
    costly part)."""
    out = []
    for gid, players, record, result in reads:
        scored = result is not None and players in COUNTS and not result.get("annulled") \
            and result.get("taker") is not None
        out.append(DealDone(gid, players, result, facts(players, record or {}, result) if scored else None))
    return out


# --- one deal -----------------------------------------------------------------------------------

def facts(players: int, record: dict[str, Any], result: dict[str, Any]) -> Facts:
    """``Facts`` of a scored deal, from its record's actions and its result."""
    actions = [a for a in record.get("actions", ()) if isinstance(a, dict)]
    petit_seat = next((a["seat"] for a in actions if str(a.get("play", "")).upper() == PETIT), None)
    announced = next((a["seat"] for a in actions if a.get("chelem") is True), None)
    rules = variant(players)
    poignees = {a["seat"]: size for a in actions if isinstance(a.get("poignee"), list)
                and (size := rules.poignee_size(len(a["poignee"]))) is not None}
    primes = _primes(players, result, list(poignees.values()), announced is not None)
    if primes is None:
        primes = _replayed(record)
    return Facts(petit_seat, primes[0], primes[1], announced, poignees)


def _primes(players: int, result: dict[str, Any], poignees: Sequence[PoigneeSize],
            announced: bool) -> tuple[Side | None, Side | None] | None:
    """(Petit au bout, chelem): the one way of the nine that scores the stored scores."""
    scores = tuple(result.get("scores") or ())
    sides = (None, Side.ATTACK, Side.DEFENCE)
    found = []
    for pab in sides:
        for chelem in sides:
            try:
                score = score_deal(players=players, taker=result["taker"],
                                   contract=Contract.parse(result["contract"]), oudlers=result["oudlers"],
                                   points=result["points"], partner=result.get("partner"), petit_au_bout=pab,
                                   poignees=poignees, chelem_announced=announced, chelem=chelem)
            except (ValueError, KeyError, TypeError):
                continue
            if score.scores == scores:
                found.append((pab, chelem))
    return found[0] if len(found) == 1 else None


def _replayed(record: dict[str, Any]) -> tuple[Side | None, Side | None]:
    try:
        count = DealRecord.from_dict(record).replay().count()
    except (RecordError, ValueError):
        return None, None
    return count.petit_au_bout, count.chelem


# --- the figures --------------------------------------------------------------------------------

def _empty() -> dict[str, Any]:
    return {"games": 0, "deals": 0, "annulled": 0, "taken": 0, "average": None,
            "contracts": {c: {"taken": 0, "made": 0, "rate": None} for c in CONTRACTS},
            "petits_au_bout": {"made": 0, "lost": 0}, "chelems": {"announced": 0, "made": 0},
            "poignees": dict.fromkeys(SIZES, 0), "ratings": []}


def _date(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def compute(found: Rows) -> dict[str, Any]:
    """The answer of ``GET /api/players/{name}/stats`` (docs/api.md)."""
    per = {n: _empty() for n in COUNTS}
    totals = dict.fromkeys(COUNTS, 0)
    seats: dict[int, list[int]] = {}
    for s in found.seats:
        seats.setdefault(s.game, []).append(s.seat)
        st = per[s.players]
        st["games"] += 1
        history = st["ratings"]
        if s.rated and s.ordinal_after is not None and not (history and history[-1]["game"] == s.game):
            history.append({"game": s.game, "date": _date(s.finished), "ordinal": s.ordinal_after})
    for d in found.deals:
        if d.result is None or d.players not in per:
            continue
        st = per[d.players]
        if d.result.get("annulled") or d.result.get("taker") is None:
            st["annulled"] += len(seats.get(d.game, ()))
            continue
        known = d.facts
        assert known is not None  # (``done``: every deal scored has them)
        taker, partner = d.result["taker"], d.result.get("partner")
        for seat in seats.get(d.game, ()):
            st["deals"] += 1
            totals[d.players] += d.result["scores"][seat]
            side = Side.ATTACK if seat in (taker, partner) else Side.DEFENCE
            if seat == taker:
                st["taken"] += 1
                contract = st["contracts"][d.result["contract"]]
                contract["taken"] += 1
                contract["made"] += bool(d.result["made"])
            if seat == known.petit_seat and known.petit_au_bout is not None:
                st["petits_au_bout"]["made" if known.petit_au_bout is side else "lost"] += 1
            if seat == known.announced:
                st["chelems"]["announced"] += 1
            if known.chelem is side:
                st["chelems"]["made"] += 1
            if seat in known.poignees:
                st["poignees"][known.poignees[seat].name_text] += 1
    for n, st in per.items():
        if st["deals"]:
            st["average"] = round(totals[n] / st["deals"], 1)
        for c in st["contracts"].values():
            c["rate"] = round(c["made"] / c["taken"], 3) if c["taken"] else None
    return {"name": found.name, "bot": found.bot, "players": {str(n): per[n] for n in COUNTS}}
