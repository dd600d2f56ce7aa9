"""Rich tables for the command line: one deal's score, and a score sheet (R25)."""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.table import Table

from tarot.engine import DealResult, Score, Side

from .i18n import Lang, minus, number, plural, signed, text


def _side(lang: Lang, side: Side | None, prime: int) -> str:
    return text(lang, "none") if side is None else f"{text(lang, side.value)} {signed(prime, lang)}"


def _seat(lang: Lang, seat: int | None) -> str:
    return text(lang, "none") if seat is None else text(lang, "seat", seat=seat)


def _partner(lang: Lang, score: Score) -> str:
    if score.players != 5:
        return text(lang, "none")
    return text(lang, "alone") if score.partner is None else _seat(lang, score.partner)


def _result(lang: Lang, score: Score) -> str:
    return text(lang, "made_by" if score.made else "lost_by", margin=score.margin)


def _poignees(lang: Lang, score: Score) -> str:
    if not score.poignees:
        return text(lang, "none")
    sizes = ", ".join(text(lang, p.name_text) for p in score.poignees)
    return f"{sizes} {signed(score.poignee_prime, lang)}"


def _chelem(lang: Lang, score: Score) -> str:
    if score.chelem is Side.ATTACK:
        key = "chelem_announced_made" if score.chelem_announced else "chelem_made"
    elif score.chelem is Side.DEFENCE:
        key = "chelem_defence"
    elif score.chelem_announced:
        key = "chelem_announced_lost"
    else:
        return text(lang, "none")
    return f"{text(lang, key)} {signed(score.chelem_prime, lang)}"


def _role(lang: Lang, score: Score, seat: int) -> str:
    if seat == score.taker:
        return text(lang, "role_taker")
    return text(lang, "role_partner" if seat == score.partner else "role_defender")


def annulled_text(lang: Lang, result: DealResult) -> str:
    """``Deal annulled: petit sec (seat 2)`` for an annulled deal."""
    assert result.annulled is not None
    why = (text(lang, "petit_sec", seat=result.petit_sec_seat) if result.annulled.value == "petit_sec"
           else text(lang, "all_pass"))
    return text(lang, "annulled", why=why)


def deal_table(lang: Lang, result: DealResult) -> Table:
    """Every figure of one deal, then each seat's score."""
    table = Table(show_header=False)
    table.add_column(style="bold")
    table.add_column(justify="right")
    score = result.score
    if score is None:
        table.add_row(annulled_text(lang, result), "")
        return table
    rows = [
        ("taker", _seat(lang, score.taker)),
        ("contract", text(lang, score.contract.name_text)),
        ("partner", _partner(lang, score)),
        ("oudlers", str(score.oudlers)),
        ("points", number(score.points, lang)),
        ("target", str(score.target)),
        ("result", _result(lang, score)),
        ("base", signed(score.base, lang)),
        ("petit_au_bout", _side(lang, score.petit_au_bout, score.petit_au_bout_prime)),
        ("poignee", _poignees(lang, score)),
        ("chelem", _chelem(lang, score)),
        ("per_defender", minus(str(score.per_defender), lang)),  # negative when the attack loses
    ]
    for key, value in rows:
        table.add_row(text(lang, key), value)
    table.add_section()
    for seat, points in enumerate(score.scores):
        table.add_row(f"{_seat(lang, seat)} ({_role(lang, score, seat)})", signed(points, lang))
    return table


def sheet_line(lang: Lang, score: Score) -> str:
    """One deal of a score sheet in words: ``Garde by seat 1, 2 oudlers, 49 points, made by 8``."""
    partner = ""
    if score.players == 5:
        partner = text(lang, "sheet_alone") if score.partner is None else text(
            lang, "sheet_partner", seat=score.partner)
    oudlers = text(lang, "sheet_oudlers" if plural(lang, score.oudlers) else "sheet_oudler", n=score.oudlers)
    line = text(lang, "sheet_line", contract=text(lang, score.contract.name_text), taker=score.taker,
                partner=partner, oudlers=oudlers, points=number(score.points, lang),
                result=_result(lang, score))
    primes = [(key, value) for key, value in (
        ("petit_au_bout", _side(lang, score.petit_au_bout, score.petit_au_bout_prime)),
        ("poignee", _poignees(lang, score)), ("chelem", _chelem(lang, score)),
    ) if value != text(lang, "none")]
    joint = " ; " if lang is Lang.FR else "; "  # French puts a space before the semicolon
    return joint.join([line, *(f"{text(lang, key).lower()} {value}" for key, value in primes)])


def sheet_table(lang: Lang, rows: Sequence[tuple[str, DealResult]], players: int) -> Table:
    """A score sheet (R25): one row per deal (labelled), a column per seat, and a total row."""
    table = Table(box=box.SIMPLE_HEAD)
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column(text(lang, "deal"), ratio=1, min_width=20)
    for seat in range(players):
        table.add_column(_seat(lang, seat), justify="right", min_width=6)
    totals = [0] * players
    for label, result in rows:
        score = result.score
        if score is None:
            table.add_row(label, annulled_text(lang, result), *["0"] * players)
            continue
        totals = [t + v for t, v in zip(totals, score.scores, strict=True)]
        table.add_row(label, sheet_line(lang, score), *[signed(v, lang) for v in score.scores])
    table.add_section()
    table.add_row(text(lang, "total"), "", *[signed(t, lang) for t in totals], style="bold")
    return table
