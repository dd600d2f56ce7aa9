"""The printable sheets of a duplicate set (``tarot duplicate deals``): one A4 page per étui.

One self-contained HTML file (inline style, no script, no external resource): each page shows
the étui number, the dealer, the seed, every seat's cards sorted by suit then rank (spades,
hearts, diamonds, clubs, kings first; then the trumps, 21 first, and the Excuse) and the chien.
Each card is an element with its R1 code in ``data-card`` (what a program reads back).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from tarot.engine import Card, DealRecord

from .i18n import Lang, text

_SUITS = (("♠", "spades", False), ("♥", "hearts", True), ("♦", "diamonds", True), ("♣", "clubs", False))

_NONE = '<span class="none">—</span>'

_STYLE = """
@page { size: A4 portrait; margin: 12mm; }
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", Arial, Helvetica, sans-serif; color: #000; margin: 0; }
.etui { page-break-after: always; break-after: page; }
.etui:last-child { page-break-after: auto; break-after: auto; }
h1 { font-size: 20pt; margin: 0 0 2mm 0; }
.meta { font-size: 11pt; margin: 0 0 5mm 0; }
.hands { display: grid; grid-template-columns: 1fr 1fr; gap: 4mm; }
.box { border: 0.4mm solid #000; border-radius: 2mm; padding: 2mm 3mm; break-inside: avoid;
       page-break-inside: avoid; }
.box h2 { font-size: 13pt; margin: 0 0 1.5mm 0; }
.box h2 small { font-weight: normal; font-size: 10pt; }
.row { font-size: 13pt; line-height: 1.5; white-space: nowrap; }
.sym { display: inline-block; width: 7mm; font-weight: bold; }
.red { color: #c00; }
.label { display: inline-block; width: 17mm; font-size: 10pt; }
.c { margin-right: 1.6mm; }
.none { color: #777; }
.chien { margin-top: 4mm; }
footer { font-size: 8pt; color: #555; margin-top: 4mm; }
@media screen { .etui { max-width: 186mm; margin: 8mm auto; padding-bottom: 8mm;
                        border-bottom: 1px dashed #999; } }
"""


def _card_span(card: Card, shown: str, red: bool = False) -> str:
    cls = "c red" if red else "c"
    return f'<span class="{cls}" data-card="{card.code}">{escape(shown)}</span>'


def _rank_text(card: Card, letters: Sequence[str]) -> str:
    rank = card.rank
    return letters[rank - 11] if rank >= 11 else str(rank)


def card_rows(lang: Lang, cards: Sequence[Card]) -> list[str]:
    """The HTML rows of a set of cards: one per suit (strongest first), then trumps and Excuse."""
    letters = text(lang, "dup_rank_letters").split()
    rows = []
    for index, (symbol, _name, red) in enumerate(_SUITS):
        suit = sorted((c for c in cards if c.suit is not None and c.suit == index), reverse=True)
        sym_cls = "sym red" if red else "sym"
        spans = " ".join(_card_span(c, _rank_text(c, letters), red) for c in suit) or _NONE
        rows.append(f'<div class="row"><span class="{sym_cls}">{symbol}</span>{spans}</div>')
    trumps = sorted((c for c in cards if c.is_trump), reverse=True)
    items = [_card_span(c, str(c.rank)) for c in trumps]
    items += [_card_span(c, text(lang, "dup_excuse")) for c in cards if c.is_excuse]
    spans = " ".join(items) or _NONE
    rows.append(f'<div class="row"><span class="label">{escape(text(lang, "trumps"))}</span>{spans}</div>')
    return rows


def _box(title: str, note: str, rows: list[str], attrs: str, extra_class: str = "") -> str:
    head = f"<h2>{escape(title)} <small>{escape(note)}</small></h2>"
    return f'<section class="box{extra_class}" {attrs}>{head}{"".join(rows)}</section>'


def etui_page(lang: Lang, number: int, record: DealRecord, seed: str, set_seed: str, total: int) -> str:
    """One étui's page."""
    players = record.players
    meta = " · ".join([
        text(lang, "dup_dealer", seat=record.dealer),
        text(lang, "dup_first", seat=(record.dealer + 1) % players),
        text(lang, "dup_seed", seed=seed),
    ])
    seats = []
    for seat, hand in enumerate(record.hands):
        title = text(lang, "dup_seat", seat=seat)
        if seat == record.dealer:
            title += " ★"
        seats.append(_box(title, text(lang, "dup_cards", n=len(hand)), card_rows(lang, hand),
                          f'data-seat="{seat}"'))
    chien = _box(text(lang, "dup_chien"), text(lang, "dup_cards", n=len(record.chien)),
                 card_rows(lang, record.chien), 'data-chien=""', " chien")
    footer = text(lang, "dup_set", seed=set_seed, players=players, deals=total)
    return (f'<article class="etui" id="etui-{number}" data-etui="{number}">'
            f'<h1>{escape(text(lang, "dup_etui", n=number))}</h1>'
            f'<p class="meta">{escape(meta)}</p>'
            f'<div class="hands">{"".join(seats)}</div>{chien}'
            f'<footer>{escape(footer)}</footer></article>')


def sheets_html(lang: Lang, set_seed: str, pages: Sequence[tuple[int, DealRecord, str]]) -> str:
    """The whole set: ``pages`` are (étui number, record, étui seed), one A4 page each."""
    players = pages[0][1].players if pages else 0
    title = text(lang, "dup_set", seed=set_seed, players=players, deals=len(pages))
    body = "\n".join(etui_page(lang, n, record, seed, set_seed, len(pages)) for n, record, seed in pages)
    return (f'<!DOCTYPE html>\n<html lang="{lang.value}">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n{body}\n"
            "</body>\n</html>\n")
