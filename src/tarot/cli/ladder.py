"""``tarot ladder``: the bots rated on the site's ladder (openskill, Plackett–Luce, one rating per
player count) from games they play among themselves, offline.

Each game's seats are drawn at random from the listed bot kinds (a kind may hold several
seats). The games run over worker processes with the arena's pool (``run_in_order``) and are
rated in the order of their index, one transaction each, from the ratings the database holds:
the same ``--seed`` gives the same ratings whatever ``--jobs``, and runs accumulate.

A kind that holds several seats of a game: each seat is rated as a one-person team starting from
the kind's rating, then the kind gets the mean of its seats' new mu and sigma, and one game.

This module needs the server extra (SQLAlchemy, openskill): ``commands.py`` imports it inside
the command only, so that the other commands never load the server.
"""

from __future__ import annotations

import importlib.util
import json
import os
import secrets
import time
from collections.abc import Iterable, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text
from sqlalchemy import create_engine, select
from sqlalchemy.engine import Connection, Engine

from tarot.bots import build_bot
from tarot.bots.arena import run_in_order
from tarot.bots.arena_shards import parse_shard
from tarot.server.players.players import bot_account, bot_identity, ratings_of, save_ratings
from tarot.server.players.ratings import Rating, ranks, rate_seats
from tarot.server.store.schema import PlayerRow
from tarot.server.store.store import default_url, migrate, normalize_url

from .arena_ray import ray_in_order
from .arena_report import _fail, reported
from .files import read_text
from .i18n import Lang, default_lang, minus, text
from .ladder_games import GameOutcome, LadderConfig, parse_kinds, play_game


def identity(kind: str, think: float | None, playouts: int | None = None) -> tuple[str, str]:
    """The account key and ladder name of ``kind``: a search bot's is that of its actual budget
    (its own default when neither ``think`` nor ``playouts`` is given), as the site names it."""
    budget = getattr(build_bot(kind, 0, think, playouts), "think", think or 0.0)
    return bot_identity(kind, budget, playouts)


# --- the ratings ------------------------------------------------------------------------

def rate_game(current: Mapping[str, Rating], seats: Sequence[str],
              totals: Sequence[int]) -> dict[str, Rating]:
    """The new ratings of the players of one game, ``seats[i]`` the player at seat i, ranked by
    the totals (``ratings.rate_seats``: a player holding several seats gets the mean of its
    seats' new mu and sigma, and one game more)."""
    return rate_seats(current, seats, ranks(list(totals)))


def record_game(engine: Engine, pids: Mapping[str, str], players: int, outcome: GameOutcome) -> None:
    """Rate one game in its own transaction, from what the database holds now (so a run that is
    stopped keeps the games rated so far, and the site's own games are not overwritten)."""
    seats = [pids[kind] for kind in outcome.kinds]
    with engine.begin() as conn:
        ids = list(dict.fromkeys(seats))
        current = dict(zip(ids, ratings_of(conn, ids, players), strict=True))
        new = rate_game(current, seats, outcome.totals)
        save_ratings(conn, list(new), players, list(new.values()))


@dataclass(frozen=True)
class Standing:
    """One line of the ladder."""

    rank: int
    key: str  # the bot's account key (``bot_identity``): heuristic, search-0.5 …
    name: str
    rating: Rating

    def to_dict(self) -> dict[str, Any]:
        return {"rank": self.rank, "bot": self.key, "name": self.name, **self.rating.to_dict()}


def standings(conn: Connection, players: int) -> list[Standing]:
    """Every bot rated at ``players`` players (this run's and earlier ones'), best ordinal first."""
    bots = conn.execute(select(PlayerRow.id, PlayerRow.bot, PlayerRow.name)
                        .where(PlayerRow.bot.is_not(None))).all()
    ratings = ratings_of(conn, [b.id for b in bots], players)
    rated = sorted(((r, b) for b, r in zip(bots, ratings, strict=True) if r.games > 0),
                   key=lambda rb: (-rb[0].ordinal, rb[1].name))
    return [Standing(i + 1, str(b.bot), b.name, r) for i, (r, b) in enumerate(rated)]


# --- the command --------------------------------------------------------------------------

@dataclass(frozen=True)
class LadderRun:
    """A finished run, for printing."""

    config: LadderConfig
    database: str  # the URL without user and password
    seconds: float
    ladder: list[Standing]

    def to_json_dict(self) -> dict[str, Any]:
        c = self.config
        return {"players": c.players, "games": c.games, "deals": c.deals, "bots": list(c.kinds),
                "seed": c.seed, "jobs": c.jobs, "think": c.think, "playouts": c.playouts,
                "database": self.database,
                "seconds": round(self.seconds, 3), "ladder": [s.to_dict() for s in self.ladder]}


def _figure(value: float, lang: Lang) -> str:
    return minus(f"{value:.2f}", lang)  # (in French: "−1,49", a decimal comma and a true minus)


def ladder_table(run: LadderRun, lang: Lang) -> Table:
    """rank, bot, mu, sigma, ordinal, games; the same figures as the JSON, to two decimals."""
    table = Table(box=box.SIMPLE_HEAVY)
    table.add_column(text(lang, "ladder_rank"), justify="right")
    table.add_column(text(lang, "ladder_bot"))
    for name in ("μ", "σ", text(lang, "ladder_ordinal"), text(lang, "ladder_games")):
        table.add_column(name, justify="right")
    for s in run.ladder:
        r = s.rating
        figures = [_figure(x, lang) for x in (r.mu, r.sigma, r.ordinal)]
        table.add_row(str(s.rank), s.name, *figures, str(r.games))
    return table


def print_ladder(console: Console, run: LadderRun, lang: Lang) -> None:
    """The run's line (in full, not wrapped to the table's width), the table, where and how long."""
    c = run.config
    title = text(lang, "ladder_title", players=c.players, games=c.games, deals=c.deals, seed=c.seed)
    console.print(Text(title, style="bold"), soft_wrap=True)
    console.print(ladder_table(run, lang))
    seconds = minus(f"{run.seconds:.1f}", lang)
    console.print(Text(text(lang, "ladder_caption", db=run.database, seconds=seconds, jobs=c.jobs),
                       style="dim"), soft_wrap=True)


def _open(url: str, config: LadderConfig) -> tuple[Engine, dict[str, str]]:
    """The migrated database and each kind's account id; a bad URL or an unreachable database is
    one line on stderr."""
    try:
        migrate(url)
        engine = create_engine(normalize_url(url))
        with engine.begin() as conn:
            pids = {kind: bot_account(conn, *identity(kind, config.think, config.playouts))
                    for kind in config.kinds}
    except Exception as exc:
        if os.environ.get("TAROT_DEBUG"):
            raise
        raise _fail(f"cannot open the database {url.split('@')[-1]}: {exc}".splitlines()[0]) from None
    engine.dispose()  # no connection held open while the games play (nor across the workers' fork)
    return engine, pids


def _play_and_rate(engine: Engine, pids: Mapping[str, str], config: LadderConfig, ray: str | None,
                   played: Iterable[GameOutcome] | None = None) -> None:
    """Play the games over the workers (or on Ray, ``ray``: "local" or a cluster's address) and
    rate each as soon as it and those before it are done; or rate the games ``played`` already
    (merged shards), in their order."""
    rated = 0
    with reported("games", lambda: f" ({rated} games rated and kept)") as bar:
        task = partial(play_game, config)
        games = ((outcome for outcome in played) if played is not None
                 else run_in_order(task, config.games, config.jobs, bar) if ray is None
                 else ray_in_order(task, config.games, ray, config.jobs, bar))
        with closing(games) as outcomes:
            for outcome in outcomes:
                record_game(engine, pids, config.players, outcome)
                rated += 1


def ladder_command(*, players: int, games: int, deals: int, bots: str, seed: int | None, jobs: int,
                   think: float | None, db: str | None, as_json: bool, lang: Lang | None,
                   ray: str | None = None, shard: str | None = None, out_results: Path | None = None,
                   playouts: int | None = None) -> None:
    """``tarot ladder``: check, open the database, play and rate, print the ladder (or, with
    ``shard``, play that shard's games only and save them to ``out_results``)."""
    config = LadderConfig(players=players, games=games, deals=deals, kinds=parse_kinds(bots),
                          seed=secrets.randbits(32) if seed is None else seed, jobs=jobs, think=think,
                          playouts=playouts)
    try:
        config.check()
        part = None if shard is None else parse_shard(shard)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    if ray is not None and importlib.util.find_spec("ray") is None:
        raise _fail("--ray needs ray: pip install -e '.[research]'")
    if part is not None:
        _play_shard(config, part, out_results, ray, db, as_json, lang or default_lang())
        return
    if out_results is not None:
        raise _fail("--out-results saves a shard's games: give --shard I/N too")
    _rate_and_print(config, db, as_json, lang, ray)


def _rate_and_print(config: LadderConfig, db: str | None, as_json: bool, lang: Lang | None,
                    ray: str | None = None, played: Iterable[GameOutcome] | None = None) -> None:
    """Open the database, play (or take ``played``) and rate the games, print the ladder."""
    url = db or default_url()
    start = time.perf_counter()
    engine, pids = _open(url, config)
    try:
        _play_and_rate(engine, pids, config, ray, played)
        with engine.connect() as conn:
            ladder = standings(conn, config.players)
    finally:
        engine.dispose()
    run = LadderRun(config, url.split("@")[-1], time.perf_counter() - start, ladder)
    if as_json:
        print(json.dumps(run.to_json_dict(), ensure_ascii=False), flush=True)
    else:  # never empty: every kind of this run has played
        print_ladder(Console(highlight=False), run, lang or default_lang())


def _play_shard(config: LadderConfig, part: tuple[int, int], out_results: Path | None, ray: str | None,
                db: str | None, as_json: bool, lang: Lang) -> None:
    """``tarot ladder --shard I/N --out-results FILE``: that shard's games, saved (no database)."""
    from .ladder_shards import play_shard, results_json

    if out_results is None:
        raise _fail("--shard needs --out-results FILE (the shard's games, for tarot ladder merge)")
    if ray is not None:
        raise _fail("--ray plays the whole run: give it the games, or merge shards instead")
    if db is not None:
        raise _fail("--shard plays games only: give --db to tarot ladder merge")
    try:  # opened now: a bad path fails before the games, not after them
        out = out_results.open("w", encoding="utf-8")
    except OSError as exc:
        raise _fail(f"{out_results}: cannot write: {exc.strerror or exc}") from None
    with out:
        with reported("games", lambda: " (nothing saved)") as bar:
            outcomes, seconds = play_shard(config, part, bar)
        json.dump(results_json(config, part, outcomes, seconds), out)
        out.write("\n")
    if as_json:
        print(json.dumps({"shard": list(part), "games": [o.index for o in outcomes], "seed": config.seed,
                          "out": str(out_results), "seconds": round(seconds, 3)}), flush=True)
    else:
        print(text(lang, "ladder_shard_saved", shard=f"{part[0]}/{part[1]}", games=len(outcomes),
                   total=config.games, seed=config.seed, out=out_results), flush=True)


def ladder_merge_command(*, files: list[str], db: str | None, jobs: int, as_json: bool,
                         lang: Lang | None) -> None:
    """``tarot ladder merge FILES…``: the shards' games rated in their order, then the ladder."""
    from .ladder_shards import merge

    loaded = []
    for name in files:
        try:
            loaded.append((name, json.loads(read_text(name))))
        except (ValueError, OSError) as exc:
            raise _fail(f"{name}: {exc}".splitlines()[0]) from None
    try:
        config, outcomes = merge(loaded, jobs)
    except (ValueError, KeyError, TypeError) as exc:
        raise _fail(str(exc) if isinstance(exc, ValueError) else f"not a results file: {exc}") from None
    _rate_and_print(config, db, as_json, lang, played=outcomes)
