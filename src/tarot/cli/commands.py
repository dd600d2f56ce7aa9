"""The ``tarot`` command line: play, serve, arena, ladder, replay, review and score.

Results go to stdout (JSON lines with ``--json``, else rich tables); every problem is one line
on stderr naming the file (and deal, action or summary index), and the exit status is 1.
Set ``TAROT_DEBUG=1`` to get a traceback for an unexpected internal error.
"""

from __future__ import annotations

import io
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from tarot.bots import BOT_NAMES
from tarot.bots.review import DEFAULT_PLAYOUTS
from tarot.engine import DealRecord, DealResult, RecordError, Score, replay_result, score_summary

from .arena_report import RayOpt, arena_app
from .duplicate import duplicate_app
from .files import read_text
from .i18n import Lang, default_lang
from .review import PlayoutsOpt, ReviewSeedOpt, ReviewThinkOpt, SeatOpt, review_command
from .review import fail as review_fail
from .score_tables import deal_table, sheet_table
from .terminal import play

app = typer.Typer(
    name="tarot",
    help="French Tarot by the FFT rules (3, 4 and 5 players): play against bots in the terminal (play), "
         "play online in the browser (serve), measure bots (arena), rate them on the site's ladder (ladder), "
         "replay deal records (replay), review them with the expert (review), "
         "score deal summaries (score), deal and rank duplicate sessions for clubs (duplicate).",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)

FilesArg = Annotated[list[str], typer.Argument(metavar="FILE", help="JSON files ('-' reads stdin).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="One compact JSON object per line.")]
LangOpt = Annotated[
    Lang | None,
    typer.Option("--lang", case_sensitive=False, help="Table language (default: from the locale)."),
]


class Problem(Exception):
    """A one-line reason why a file (or part of it) cannot be used."""

    def __init__(self, reason: str, *, deal: int | None = None, action: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.deal = deal
        self.action = action

    def where(self) -> str:
        deal = f"deal {self.deal}: " if self.deal is not None else ""
        action = f"action {self.action}: " if self.action is not None else ""
        return deal + action + self.reason


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def read_json(name: str) -> Any:
    """The JSON value in file ``name`` (``-``: stdin); raises Problem with a one-line reason."""
    try:
        text = read_text(name)
    except ValueError as e:
        raise Problem(str(e)) from None
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        raise Problem(f"not valid JSON: {e.msg} (line {e.lineno}, column {e.colno})") from None
    except (ValueError, RecursionError) as e:
        raise Problem(f"not valid JSON: {e}") from None


def _record(obj: Any, deal: int | None = None) -> DealRecord:
    if isinstance(obj, dict) and "format" not in obj and "taker" in obj:
        raise Problem("this looks like a deal summary, not a deal record: use `tarot score`", deal=deal)
    try:
        return DealRecord.from_dict(obj)
    except RecordError as e:
        raise Problem(e.reason, deal=deal, action=e.action) from None


def _replay(record: DealRecord, deal: int | None = None) -> DealResult:
    try:
        return record.replay().result()
    except RecordError as e:
        raise Problem(e.reason, deal=deal, action=e.action) from None


def _game_records(obj: list[Any]) -> list[DealRecord]:
    if not obj:
        raise Problem("a game record is a list of at least one deal record")
    records = [_record(item, k) for k, item in enumerate(obj)]
    for k, record in enumerate(records):
        if record.players != records[0].players:
            raise Problem(f"{record.players} players, but deal 0 has {records[0].players}", deal=k)
    return records


def _totals(scores: list[list[int] | None], players: int) -> list[int]:
    totals = [0] * players
    for deal_scores in scores:
        totals = [t + s for t, s in zip(totals, deal_scores or [0] * players, strict=True)]
    return totals


def replay_json(obj: Any) -> dict[str, Any]:
    """The ``--json`` line of one file: replay_result's object, or the game object."""
    if not isinstance(obj, list):
        return replay_result(_record(obj))
    records = _game_records(obj)
    deals = []
    for k, record in enumerate(records):
        result = replay_result(record)
        if not result["legal"]:
            raise Problem(result["error"]["reason"], deal=k, action=result["error"]["action"])
        deals.append(result)
    return {"legal": True, "deals": deals,
            "totals": _totals([d["scores"] for d in deals], records[0].players)}


def _error_json(problem: Problem, game: bool) -> dict[str, Any]:
    error: dict[str, Any] = {"deal": problem.deal} if game else {}
    error.update(action=problem.action, reason=problem.reason)
    return {"legal": False, "error": error}


class Output:
    """Where results and problems go; remembers whether anything failed."""

    def __init__(self, lang: Lang | None) -> None:
        self.lang = lang or default_lang()
        self.console = Console(highlight=False)
        self.failed = False

    def table(self, name: str, table: Table) -> None:
        """A table under its file's name (printed as is: no markup, no wrapping)."""
        self.console.print(Text(name, style="bold"), soft_wrap=True)
        self.console.print(table)

    def problem(self, name: str, where: str) -> None:
        self.failed = True
        line = f"error: {name}: {where}".replace("\r", " ").replace("\n", " ")
        print(line, file=sys.stderr, flush=True)

    def json(self, obj: dict[str, Any]) -> None:
        print(json.dumps(obj), flush=True)

    def finish(self) -> None:
        if self.failed:
            raise typer.Exit(1)


class _Guard:
    """Turns an unexpected exception while handling a file into a one-line problem."""

    def __init__(self, out: Output, name: str) -> None:
        self.out, self.name = out, name

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: object) -> bool:
        if isinstance(exc, BrokenPipeError):  # the reader went away (``tarot … | head``): stop quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise typer.Exit(1)
        if exc is None or not isinstance(exc, Exception) or os.environ.get("TAROT_DEBUG"):
            return False
        self.out.problem(self.name, f"internal error: {type(exc).__name__}: {exc}")
        return True


def _each_file(files: list[str], lang: Lang | None, as_json: bool,
               handle: Callable[[Output, str, bool], None]) -> None:
    """Run ``handle`` on every file in order, each guarded; exit 1 if any had a problem."""
    out = Output(lang)
    for name in files:
        with _Guard(out, name):
            handle(out, name, as_json)
    out.finish()


def _replay_file(out: Output, name: str, as_json: bool) -> None:
    game = False
    try:
        obj = read_json(name)
        game = isinstance(obj, list)
        if as_json:
            result = replay_json(obj)
            out.json(result)
            if not result["legal"]:
                error = result["error"]
                out.problem(name, Problem(error["reason"], action=error["action"]).where())
        elif game:
            records = _game_records(obj)
            rows = [(str(k), _replay(r, k)) for k, r in enumerate(records)]
            out.table(name, sheet_table(out.lang, rows, records[0].players))
        else:
            out.table(name, deal_table(out.lang, _replay(_record(obj))))
    except Problem as p:
        if as_json:
            out.json(_error_json(p, game))
        out.problem(name, p.where())


@app.command()
def replay(files: FilesArg, as_json: JsonOpt = False, lang: LangOpt = None) -> None:
    """Replay deal records (or game records: JSON lists of deal records), checking every action."""
    _each_file(files, lang, as_json, _replay_file)


def _summary(obj: Any, index: int | None) -> Score:
    where = "" if index is None else f"summary {index}: "
    if isinstance(obj, dict) and "format" in obj and "actions" in obj:
        raise Problem(f"{where}this looks like a deal record, not a deal summary: use `tarot replay`")
    try:
        return score_summary(obj)
    except RecordError as e:
        raise Problem(where + e.reason) from None


def _score_file(out: Output, name: str, as_json: bool) -> None:
    try:
        obj = read_json(name)
    except Problem as p:
        out.problem(name, p.where())
        return
    sheet = isinstance(obj, list)
    items = obj if sheet else [obj]
    if not items:
        out.problem(name, "an empty list: a score sheet holds at least one deal summary")
        return
    rows: list[tuple[str, Score]] = []
    for i, item in enumerate(items):
        try:
            score = _summary(item, i if sheet else None)
            if rows and score.players != rows[0][1].players:
                raise Problem(f"summary {i}: {score.players} players, but summary {rows[0][0]} has "
                              f"{rows[0][1].players} (one score sheet, one table)")
        except Problem as p:
            out.problem(name, p.where())
            continue
        if as_json:
            out.json({"scores": list(score.scores)})
        rows.append((str(i), score))
    if as_json or not rows:
        return
    results = [(label, DealResult(None, score)) for label, score in rows]
    if sheet:
        out.table(name, sheet_table(out.lang, results, rows[0][1].players))
    else:
        out.table(name, deal_table(out.lang, results[0][1]))


@app.command()
def score(files: FilesArg, as_json: JsonOpt = False, lang: LangOpt = None) -> None:
    """Score deal summaries: each file holds one summary object or a list of them (a score sheet)."""
    _each_file(files, lang, as_json, _score_file)


app.add_typer(arena_app, name="arena")
app.add_typer(duplicate_app, name="duplicate")


app.command()(play)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[str | None, typer.Option(
        help="Database URL (sqlite:///file or postgresql://user@host/db); default: ./tarot.sqlite3")] = None,
    grace: Annotated[float, typer.Option(help="Seconds away before a bot plays for a player.")] = 30.0,
    bot_delay: Annotated[float, typer.Option(
        help="Seconds before a bot's move, so that people can follow (0: at once).")] = 0.6,
    trick_pause: Annotated[float, typer.Option(
        help="Seconds a finished trick stays on the felt when a person is seated.")] = 1.5,
    api_docs: Annotated[bool, typer.Option(
        help="Also serve the generated API pages (/docs, /redoc, /openapi.json).")] = False,
    redis: Annotated[str | None, typer.Option(
        help="Redis URL (redis://host:6379/0): this process is one of several serving one site, "
             "sharing a PostgreSQL --db (docs/scaling.md).")] = None,
    lease: Annotated[float, typer.Option(
        help="With --redis: seconds before another process takes over a stopped one's tables.")] = 3.0,
    redis_prefix: Annotated[str, typer.Option(
        help="With --redis: the prefix of the site's Redis keys and channels (another site, or a "
             "benchmark, may share the Redis under its own).")] = "tarot:",
    forwarded_allow_ips: Annotated[str | None, typer.Option(
        help="The reverse proxies whose X-Forwarded-For and X-Forwarded-Proto say the client's address "
             "and scheme: addresses or networks, comma-separated, or '*' (any). Default: none.")] = None,
) -> None:
    """Play online in the browser: start the site (creates and migrates the database)."""
    try:  # the server's dependencies load only for this command
        import uvicorn

        from tarot.server.settings import Settings
        from tarot.server.store.store import default_url, migrate
        from tarot.server.web.app import behind, create_app, tune_gc
    except ImportError as exc:
        typer.echo(f"error: tarot serve needs the server extra (pip install -e '.[server]'): {exc}", err=True)
        raise typer.Exit(1) from None

    url = db or default_url()
    if redis is not None and not url.startswith("postgresql"):
        typer.echo("error: --redis needs the processes to share a PostgreSQL database "
                   "(--db postgresql://user@host/db)", err=True)
        raise typer.Exit(1)
    if not (bot_delay >= 0 and trick_pause >= 0 and grace >= 0):
        typer.echo("error: --grace, --bot-delay and --trick-pause are seconds, 0 or more", err=True)
        raise typer.Exit(1)
    if redis is not None and not lease > 0:
        typer.echo("error: --lease must be a number of seconds above 0", err=True)
        raise typer.Exit(1)
    if not redis_prefix.strip() or any(c.isspace() or c in "*?[]" for c in redis_prefix):
        typer.echo("error: --redis-prefix must be a non-empty name, without spaces or * ? [ ]", err=True)
        raise typer.Exit(1)
    if redis is not None:
        try:
            from redis import Redis

            Redis.from_url(redis, socket_connect_timeout=5).ping()
        except Exception as exc:  # a bad URL or an unreachable Redis: one line, no traceback
            where = redis.split("@")[-1]
            typer.echo(f"error: cannot reach Redis at {where}: {exc}".splitlines()[0], err=True)
            raise typer.Exit(1) from None
    try:
        migrate(url)  # here, so that a bad URL or an unreachable database is one clear line
        site = create_app(url, Settings(grace=grace, bot_delay=bot_delay, trick_pause=trick_pause),
                          run_migrations=False, api_docs=api_docs,
                          redis_url=redis, lease=lease, redis_prefix=redis_prefix)
    except Exception as exc:  # a bad URL or an unreachable database: one line, no traceback
        if os.environ.get("TAROT_DEBUG"):
            raise
        typer.echo(f"error: cannot open the database {url.split('@')[-1]}: {exc}".splitlines()[0], err=True)
        raise typer.Exit(1) from None
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    typer.echo(f"Database: {url.split('@')[-1]}")
    if redis is not None:
        typer.echo(f"Redis: {redis.split('@')[-1]} (one of several processes; lease {lease:g} s)")
    typer.echo(f"Open http://{shown}:{port}/ in your browser")
    tune_gc()
    uvicorn.run(site, host=host, port=port, log_level="warning", **behind(forwarded_allow_ips))


@app.command(help=(
    "Review deal or game records with the expert: for every decision of every seat, the move played and "
    "the best move in expected points for that seat (from its own view), the loss and a grade; per seat the "
    "mean loss; and the deal's par with every card seen. --playouts gives the same review for the same file "
    "(docs/review.md)."))
def review(
    files: FilesArg,
    as_json: JsonOpt = False,
    playouts: PlayoutsOpt = DEFAULT_PLAYOUTS,
    think: ReviewThinkOpt = None,
    seat: SeatOpt = None,
    seed: ReviewSeedOpt = 0,
    lang: LangOpt = None,
) -> None:
    records: list[DealRecord] = []
    for name in files:
        try:
            obj = read_json(name)
            found = _game_records(obj) if isinstance(obj, list) else [_record(obj)]
            for k, record in enumerate(found):
                _replay(record, k if isinstance(obj, list) else None)  # a bad one: one line, at once
        except Problem as e:
            raise review_fail(f"{name}: {e.where()}") from None
        if seat is not None and seat >= found[0].players:
            players = found[0].players
            raise review_fail(f"{name}: --seat {seat}: the deals have {players} players "
                              f"(seats 0 to {players - 1})")
        records += found
    for obj in review_command(records, as_json, playouts, think, seat, seed, lang):
        print(json.dumps(obj, ensure_ascii=False), flush=True)


ladder_app = typer.Typer(
    help=("Rate the bots on the site's ladder (openskill) from bot-only games, and print it.\n\n"
          "Games are rated in the order of their seeds from the ratings the database holds, so runs add up "
          "and a --seed gives the same ratings whatever --jobs. A kind holding several seats of a game: each "
          "seat is rated alone from the kind's rating, then the kind gets the mean of its seats' new mu and "
          "sigma, and counts one game. 'tarot ladder merge FILES' rates shards (--shard, --out-results)."),
    invoke_without_command=True, no_args_is_help=False, add_completion=False)
app.add_typer(ladder_app, name="ladder")
DbOpt = Annotated[str | None, typer.Option(
    help="Database URL (sqlite:///file or postgresql://user@host/db); default: ./tarot.sqlite3")]


def _needs_server(exc: ImportError) -> typer.Exit:
    """``ladder.py`` (its ratings and database are the server's, loaded inside the ladder's
    commands only) did not load: one line, status 1."""
    typer.echo(f"error: tarot ladder needs the server extra (pip install -e '.[server]'): {exc}", err=True)
    return typer.Exit(1)


@ladder_app.callback()
def ladder(
    ctx: typer.Context,
    players: Annotated[int, typer.Option("--players", "-p", help="3, 4 or 5 (one ladder per count).")] = 4,
    games: Annotated[int, typer.Option("--games", "-g", help="Games to play and rate.")] = 100,
    deals: Annotated[int, typer.Option("--deals", "-n", help="Deals per game.")] = 4,
    bots: Annotated[str, typer.Option(
        help="Bot kinds, comma-separated; each seat of a game is drawn from them.")] = ",".join(BOT_NAMES),
    think: Annotated[float | None, typer.Option(
        help="Seconds per decision of the search bot (default: its own); each is rated apart.")] = None,
    playouts: Annotated[int | None, typer.Option(
        help="A fixed budget of the search bot instead (playouts a decision, the clock "
                    "ignored: the same seed gives the same games on any machine).")] = None,
    seed: Annotated[int | None, typer.Option(
        help="Run seed: every game derives from it (default: a random one, printed).")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Worker processes.")] = 1,
    db: DbOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    lang: LangOpt = None,
    ray: RayOpt = None,
    shard: Annotated[str | None, typer.Option(
        help="Play only shard I/N of the run (every N-th game from the I-th), for batch systems: "
             "save it with --out-results, then rate the shards with tarot ladder merge.")] = None,
    out_results: Annotated[Path | None, typer.Option(
        "--out-results", help="Save the shard's games (for tarot ladder merge).")] = None,
) -> None:
    """``tarot ladder`` (its help is above); the work is in ``ladder.py``, which needs the server extra."""
    if ctx.invoked_subcommand is not None:
        return
    try:
        from .ladder import ladder_command
    except ImportError as exc:
        raise _needs_server(exc) from None
    ladder_command(players=players, games=games, deals=deals, bots=bots, seed=seed, jobs=jobs, think=think,
                   db=db, as_json=as_json, lang=lang, ray=ray, shard=shard, out_results=out_results,
                   playouts=playouts)


@ladder_app.command("merge")
def ladder_merge(
    files: Annotated[list[str], typer.Argument(metavar="FILE", help="Results files of the shards.")],
    db: DbOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    lang: LangOpt = None,
) -> None:
    """Rate the shards' games (tarot ladder --shard I/N --out-results FILE) in their order, as one
    run of the same seed rates them, and print the ladder."""
    try:
        from .ladder import ladder_merge_command
    except ImportError as exc:
        raise _needs_server(exc) from None
    ladder_merge_command(files=files, db=db, jobs=1, as_json=as_json, lang=lang)


@app.callback()
def main() -> None:
    """French Tarot by the FFT rules (3, 4 and 5 players)."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")


if __name__ == "__main__":
    app()
