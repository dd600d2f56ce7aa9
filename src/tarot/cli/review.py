"""``tarot review``: the expert's review of deal or game records (issue 35), as a readable
report in French or English (a progress bar on stderr) or as JSON lines (``--json``, one object a
deal: docs/review.md)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from tarot.bots.review import DealReview, Decision, ReviewSettings, review_deal
from tarot.engine import Action, Bid, Call, Chelem, DealRecord, Ecart, Play, Poignee

from .arena_report import _ProgressBar
from .i18n import Lang, default_lang, minus, text
from .terminal_render import card_label


def _w(lang: Lang, key: str, **fields: object) -> str:
    return text(lang, "review_" + key, **fields)


def action_label(action: Action | None, lang: Lang) -> str:
    """A move as the report writes it: ``Garde``, ``R♥``, ``appelle R♠``, ``pas de poignée``…"""
    if action is None:
        return _w(lang, "no_poignee")
    if isinstance(action, Bid):
        return text(lang, "pass") if action.contract is None else text(lang, action.contract.name_text)
    if isinstance(action, Play):
        return card_label(action.card, lang)
    if isinstance(action, Call):
        return _w(lang, "calls", card=card_label(action.card, lang))
    if isinstance(action, Ecart):
        return " ".join(card_label(c, lang) for c in action.cards)
    if isinstance(action, Chelem):
        return _w(lang, "chelem_yes" if action.announce else "chelem_no")
    assert isinstance(action, Poignee)
    return _w(lang, "poignee_of", n=len(action.cards))


def _points(value: float, lang: Lang) -> str:
    return minus(f"{value:.1f}", lang)


def _where(d: Decision, lang: Lang) -> str:
    return _w(lang, "trick", n=d.trick) if d.phase == "card" else _w(lang, d.phase)


def print_review(console: Console, review: DealReview, number: int, lang: Lang) -> None:
    s = review.settings
    thousands = " " if lang is Lang.FR else ","  # (a narrow no-break space: French typography)
    budget = (_w(lang, "budget_think", s=minus(f"{s.think:g}", lang)) if s.think
              else _w(lang, "budget_playouts", n=f"{s.playouts:,}".replace(",", thousands)))
    console.rule(_w(lang, "title", n=number, budget=budget))
    if not review.decisions:
        console.print(_w(lang, "none"))
    table = Table(show_edge=False)
    for key in ("seat", "decisions", "mean_loss", "best", "good", "inaccuracy", "mistake", "blunder"):
        table.add_column(_w(lang, key), justify="left" if key == "seat" else "right")
    for summary in review.seats:
        if not summary.decisions:
            continue
        table.add_row(str(summary.seat), str(summary.decisions), _points(summary.mean_loss, lang),
                      *(str(summary.grades[g]) for g in ("best", "good", "inaccuracy", "mistake", "blunder")))
    console.print(table)
    console.print(f"[dim]{_w(lang, 'legend')}[/]")
    worst = sorted((d for d in review.decisions if d.grade in ("mistake", "blunder", "inaccuracy")),
                   key=lambda d: -d.loss)[:5]
    if worst:
        console.print(f"[bold]{_w(lang, 'worst')}[/]")
        for d in worst:
            console.print("  " + _w(lang, "line", seat=d.seat, where=_where(d, lang),
                                    played=action_label(d.played, lang), best=action_label(d.best, lang),
                                    loss=_points(d.loss, lang)))
    par = review.par
    if par is None:
        console.print(_w(lang, "nobody"))
        return
    parts = ", ".join(f"{text(lang, c.name_text)} {minus(f'{sc[par.taker]:+d}', lang)}"
                      for c, sc in par.by_contract.items())
    console.print(_w(lang, "par", taker=par.taker, parts=parts,
                     actual=minus(f"{par.actual[par.taker]:+d}", lang)))


def review_records(records: list[DealRecord], settings: ReviewSettings, seat: int | None,
                   progress: Callable[[int, int], None] | None) -> list[DealReview]:
    """Each record's review, the progress counted in decisions over all of them."""
    out: list[DealReview] = []
    done = 0
    for record in records:
        def step(n: int, total: int, base: int = done) -> None:
            if progress is not None:
                progress(base + n, base + total)
        review = review_deal(record, settings, step, seats=None if seat is None else (seat,))
        done += len(review.decisions)
        out.append(review)
    return out


def review_command(records: list[DealRecord], as_json: bool, playouts: int, think: float | None,
                   seat: int | None, seed: int, lang: Lang | None) -> list[dict[str, Any]]:
    settings = ReviewSettings(playouts=playouts, think=think, seed=seed)
    err = Console(stderr=True)
    bar = _ProgressBar(err, "decisions") if err.is_terminal else None
    try:
        reviews = review_records(records, settings, seat, bar)
    finally:
        if bar is not None:
            bar.close()
    if as_json:
        return [r.to_dict() for r in reviews]
    console = Console(highlight=False)
    for n, review in enumerate(reviews, 1):
        print_review(console, review, n, lang or default_lang())
    return []


PlayoutsOpt = Annotated[int, typer.Option(
    "--playouts", min=1,
    help="Playouts a decision (reproducible: the same file and settings, the same review).")]
ReviewThinkOpt = Annotated[float | None, typer.Option(
    "--think", min=0.001, help="Seconds a decision instead of --playouts (not reproducible).")]
SeatOpt = Annotated[int | None, typer.Option(
    "--seat", min=0, max=4, help="Review this seat's decisions only.")]
ReviewSeedOpt = Annotated[int, typer.Option("--seed", help="Varies the sampled deals (default 0).")]


def fail(reason: str) -> typer.Exit:
    print(f"error: {reason}", file=sys.stderr, flush=True)
    return typer.Exit(1)
