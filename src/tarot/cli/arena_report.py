"""The ``tarot arena`` command: its options, a progress bar on stderr, the results table or JSON.

Kept apart from :mod:`tarot.arena` (the data) so that the match can be run from Python, a
notebook or a test without any of this.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import IO, Annotated

import typer
from rich import box
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from tarot.bots.arena import ArenaConfig, ArenaResult, run_arena
from tarot.bots.arena_shards import merge, parse_shard, results_json, run_shard

from .arena_ray import run_arena_ray
from .files import read_text


def _signed(x: float) -> str:
    return f"{x:+.2f}"


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _ms(x: float | None) -> str:
    return "–" if x is None else f"{x:.2f} ms"


def arena_table(result: ArenaResult) -> Table:
    """The results table: gain with its 95% CI, taking and contracts, decision time, illegal actions."""
    c = result.config
    think = "" if c.think is None else f", think {c.think:g} s"
    think += "" if c.playouts is None else f", {c.playouts:,} playouts"
    table = Table(title=f"{c.candidate} vs {c.baseline}: {c.players} players, seed {c.seed}{think}",
                  box=box.SIMPLE_HEAVY, show_header=True)
    table.add_column("measure")
    table.add_column("value", justify="right")
    ci = result.ci95
    ci_text = "–" if ci is None else f"[{_signed(ci[0])}, {_signed(ci[1])}]"
    gain_style = "" if ci is None or ci[0] <= 0 <= ci[1] else ("green" if ci[0] > 0 else "red")
    table.add_row("mean gain per deal", f"[{gain_style}]{_signed(result.mean_gain)}[/]" if gain_style
                  else _signed(result.mean_gain))
    table.add_row("95% confidence interval", ci_text)
    table.add_row("deals", str(result.deals))
    table.add_row("candidate placements", str(result.placements))
    table.add_row("taking rate", f"{_pct(result.taking_rate)} ({result.taken})")
    for name, stats in result.contracts.items():
        made = "" if stats.made_rate is None else f", {_pct(stats.made_rate)} made"
        table.add_row(f"  {name.replace('_', ' ')}", f"{stats.taken} taken{made}")
    table.add_row("decision time, median", _ms(result.decision_ms(0.5)))
    table.add_row("decision time, 99th percentile", _ms(result.decision_ms(0.99)))
    for who, count in (("candidate", result.illegal_candidate), ("baseline", result.illegal_baseline)):
        table.add_row(f"illegal actions, {who}", f"[red]{count}[/]" if count else "0")
    table.add_row("wall time", f"{result.seconds:.1f} s (jobs {c.jobs})")
    return table


class _ProgressBar:
    """A rich progress bar on stderr, started on the first report (after the workers exist)."""

    def __init__(self, console: Console, what: str = "deals") -> None:
        self.what = what  # what is counted: deals here, games for ``tarot ladder``
        self.progress = Progress(
            TextColumn(what), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            TextColumn("left"), TimeRemainingColumn(), console=console, transient=True,
        )
        self.task: TaskID | None = None

    def __call__(self, done: int, total: int) -> None:
        if self.task is None:
            self.progress.start()
            self.task = self.progress.add_task(self.what, total=total)
        self.progress.update(self.task, completed=done)

    def close(self) -> None:
        self.progress.stop()


def _fail(reason: str, status: int = 1) -> typer.Exit:
    print(f"error: {reason}".replace("\r", " ").replace("\n", " "), file=sys.stderr, flush=True)
    return typer.Exit(status)


@contextmanager
def reported(what: str = "deals", kept: Callable[[], str] = str) -> Iterator[_ProgressBar | None]:
    """Long work (matches, games): a progress bar of ``what`` on a terminal (None elsewhere), and
    an interruption or any failure as one line on stderr, ``kept()`` after it (what was kept:
    " (12 games rated and kept)"); ``TAROT_DEBUG`` lets the failure through."""
    stderr = Console(stderr=True)
    bar = _ProgressBar(stderr, what) if stderr.is_terminal else None
    try:
        yield bar
    except KeyboardInterrupt:
        raise _fail(f"interrupted{kept()}", 130) from None
    except typer.Exit:
        raise
    except Exception as exc:
        if os.environ.get("TAROT_DEBUG"):
            raise
        raise _fail(f"internal error: {type(exc).__name__}: {exc}{kept()}") from None
    finally:
        if bar is not None:
            bar.close()


CandidateOpt = Annotated[str, typer.Option(help="Bot to measure: short name or package.module:Class.")]
BaselineOpt = Annotated[str, typer.Option(help="Bot in the other seats (in all seats for the reference).")]
ThinkOpt = Annotated[float | None, typer.Option(
    help="Seconds per decision of the search bot (default: its own).")]
PlayoutsOpt = Annotated[int | None, typer.Option(
    help="A fixed budget of the search bot instead (playouts a decision, the clock ignored): "
                "the same seed gives the same match on any machine.")]
OutOpt = Annotated[Path | None, typer.Option(help="Save every deal played as a game record (JSON list).")]


ShardOpt = Annotated[str | None, typer.Option(
    help="Play only shard I/N of the match (every N-th deal from the I-th), for batch systems: "
         "save it with --out-results, then tarot arena merge.")]
OutResultsOpt = Annotated[Path | None, typer.Option(
    "--out-results", help="Save each deal's outcome (for tarot arena merge).")]

RayOpt = Annotated[str | None, typer.Option(
    "--ray", help="Play the deals as Ray tasks: 'local' (a local cluster of --jobs CPUs) or a "
                  "cluster's address.")]

arena_app = typer.Typer(
    help="Duplicate match: the candidate's mean gain per deal over the baseline, with a 95% CI. "
         "'tarot arena merge FILES' puts shards (--shard, --out-results) together.",
    invoke_without_command=True, no_args_is_help=False, add_completion=False)


@arena_app.command("merge")
def merge_command(
    files: Annotated[list[str], typer.Argument(metavar="FILE", help="Results files of the shards.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """The match that shards' results files make (the same figures as one run)."""
    loaded = []
    for name in files:
        try:
            loaded.append((name, json.loads(read_text(name))))
        except (ValueError, OSError) as exc:
            raise _fail(f"{name}: {exc}".splitlines()[0]) from None
    try:
        result = merge(loaded)
    except (ValueError, KeyError, TypeError) as exc:
        raise _fail(str(exc) if isinstance(exc, ValueError) else f"not a results file: {exc}") from None
    if as_json:
        print(json.dumps(result.to_json_dict()), flush=True)
    else:
        Console(highlight=False).print(arena_table(result))


@arena_app.callback()
def arena_command(
    ctx: typer.Context,
    players: Annotated[int, typer.Option("--players", "-p", help="3, 4 or 5.")] = 4,
    deals: Annotated[int, typer.Option("--deals", "-n", help="Number of seeded deals.")] = 100,
    candidate: CandidateOpt = "search",
    baseline: BaselineOpt = "heuristic",
    seed: Annotated[int, typer.Option(help="Match seed: every deal and bot seed derives from it.")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Worker processes.")] = 1,
    think: ThinkOpt = None,
    playouts: PlayoutsOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    out: OutOpt = None,
    shard: ShardOpt = None,
    out_results: OutResultsOpt = None,
    ray: RayOpt = None,
) -> None:
    """Duplicate match: the candidate's mean gain per deal over the baseline, with a 95% CI."""
    if ctx.invoked_subcommand is not None:
        return
    config = ArenaConfig(candidate=candidate, baseline=baseline, players=players, deals=deals, seed=seed,
                         jobs=jobs, think=think, keep_records=out is not None, playouts=playouts)
    try:
        config.check()
        part = None if shard is None else parse_shard(shard)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    if ray is not None and importlib.util.find_spec("ray") is None:
        raise _fail("--ray needs ray: pip install -e '.[research]'")
    if ray is not None and part is not None:
        raise _fail("--ray plays the whole match: give it --shard's deals, or merge shards instead")
    with ExitStack() as stack:
        out_file: IO[str] | None = None
        if out is not None:
            try:  # opened now: a bad path fails before the match, not after it
                out_file = stack.enter_context(out.open("w", encoding="utf-8"))
            except OSError as exc:
                raise _fail(f"{out}: cannot write: {exc.strerror or exc}") from None
        results_file: IO[str] | None = None
        if out_results is not None:
            try:
                results_file = stack.enter_context(out_results.open("w", encoding="utf-8"))
            except OSError as exc:
                raise _fail(f"{out_results}: cannot write: {exc.strerror or exc}") from None
        result = _run(config, part, ray)
        if out_file is not None:
            json.dump(result.records, out_file, ensure_ascii=False)
            out_file.write("\n")
        if results_file is not None:
            json.dump(results_json(result, part or (1, 1)), results_file)
            results_file.write("\n")
    if as_json:
        print(json.dumps(result.to_json_dict()), flush=True)
    else:
        Console(highlight=False).print(arena_table(result))


def _run(config: ArenaConfig, shard: tuple[int, int] | None = None, ray: str | None = None) -> ArenaResult:
    """run_arena (or a shard of it, or on Ray) with a progress bar on a terminal; any failure
    becomes one line on stderr."""
    with reported() as bar:
        if ray is not None:
            return run_arena_ray(config, ray, bar)
        return run_arena(config, bar) if shard is None else run_shard(config, shard, bar)
