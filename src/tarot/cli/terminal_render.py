"""Rich drawing for ``tarot play``: cards with suit symbols and colours, hands grouped by suit,
tricks, numbered choices and the final ranking.

Cards are shown as ``K♥``, ``10♠``, ``T21`` (trumps keep their number) and ``★`` (the Excuse); in
French with the site's rank letters, R, D, C, V for roi, dame, cavalier, valet (``R♥``, ``D♠``).
The player types the ASCII codes of R1 (docs/rules.md) (``KH``, ``10S``, ``T21``, ``EX``) or a
number, whatever the language: the display is translated, the codes are not.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from rich import box
from rich.columns import Columns
from rich.console import Group
from rich.table import Table
from rich.text import Text

from tarot.engine import Card, Placing, Suit, Trick, sort_for_display

from .i18n import Lang, plural, signed, text

SUIT_SYMBOLS: Final = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
EXCUSE_SYMBOL: Final = "★"
_NUMBERS: Final = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10")
# The rank as printed, per language: the site's court letters (static/js/cards/cards.js, COURT).
RANKS: Final[dict[Lang, tuple[str, ...]]] = {
    Lang.EN: (*_NUMBERS, "J", "N", "Q", "K"),
    Lang.FR: (*_NUMBERS, "V", "C", "D", "R"),
}
# Cards in words, as the site names them (cards.js, cardName): "roi de cœur", "king of hearts".
SUIT_NAMES: Final[dict[Lang, dict[Suit, str]]] = {
    Lang.EN: {Suit.SPADES: "spades", Suit.HEARTS: "hearts", Suit.DIAMONDS: "diamonds", Suit.CLUBS: "clubs"},
    Lang.FR: {Suit.SPADES: "pique", Suit.HEARTS: "cœur", Suit.DIAMONDS: "carreau", Suit.CLUBS: "trèfle"},
}
_RANK_NAMES: Final[dict[Lang, dict[int, str]]] = {
    Lang.EN: {1: "ace", 11: "jack", 12: "knight", 13: "queen", 14: "king"},
    Lang.FR: {1: "as", 11: "valet", 12: "cavalier", 13: "dame", 14: "roi"},
}
_RED: Final = "bold red"
_BLACK: Final = "bold"
_TRUMP: Final = "bold yellow"
_EXCUSE: Final = "bold magenta"


def card_label(card: Card, lang: Lang = Lang.EN) -> str:
    """The card as printed, without style: ``K♥`` (``R♥`` in French), ``T21``, ``★``."""
    if card.is_excuse:
        return EXCUSE_SYMBOL
    if card.is_trump:
        return f"T{card.rank}"
    suit = card.suit
    assert suit is not None
    return RANKS[lang][card.rank - 1] + SUIT_SYMBOLS[suit]


def card_name(card: Card, lang: Lang) -> str:
    """The card in words: ``roi de cœur``, ``atout 21``, ``Petit (atout 1)``, ``Excuse``."""
    fr = lang is Lang.FR
    if card.is_excuse:
        return "Excuse"
    if card.is_trump:
        trump = f"{'atout' if fr else 'trump'} {card.rank}"
        return f"Petit ({trump})" if card.rank == 1 else trump
    suit = card.suit
    assert suit is not None
    rank = _RANK_NAMES[lang].get(card.rank, str(card.rank))
    return f"{rank} {'de' if fr else 'of'} {SUIT_NAMES[lang][suit]}"


def card_words(card: Card, lang: Lang) -> str:
    """The card as shown, then named: ``R♥ (roi de cœur)``, ``T21 (atout 21)``, ``★ (Excuse)``."""
    return f"{card_label(card, lang)} ({card_name(card, lang)})"


def card_style(card: Card) -> str:
    if card.is_excuse:
        return _EXCUSE
    if card.is_trump:
        return _TRUMP
    return _RED if card.suit in (Suit.HEARTS, Suit.DIAMONDS) else _BLACK


def card_text(lang: Lang, card: Card) -> Text:
    return Text(card_label(card, lang), style=card_style(card))


def cards_text(lang: Lang, cards: Iterable[Card], sort: bool = True) -> Text:
    """Cards separated by spaces, in display order unless ``sort`` is False."""
    items = sort_for_display(cards) if sort else list(cards)
    if not items:
        return Text("—", style="dim")
    return Text(" ").join(card_text(lang, c) for c in items)


def seat_name(lang: Lang, seat: int, me: int = 0) -> str:
    """``You`` for the human's seat, else ``Seat 2``."""
    return text(lang, "you") if seat == me else text(lang, "seat", seat=seat)


def hand_table(lang: Lang, cards_held: Iterable[Card]) -> Group:
    """The hand under a title, one line per group: trumps (with the Excuse), then each suit held."""
    hand = list(cards_held)
    table = Table(box=None, show_header=False, padding=(0, 1))
    table.add_column(no_wrap=True, style="dim")
    table.add_column()
    trumps = [c for c in hand if c.suit is None]
    if trumps:
        table.add_row(text(lang, "trumps"), cards_text(lang, trumps))
    for suit in Suit:
        cards = [c for c in hand if c.suit is suit]
        if cards:
            table.add_row(SUIT_SYMBOLS[suit], cards_text(lang, cards))
    if not hand:
        table.add_row("", Text("—", style="dim"))
    title = text(lang, "your_hand" if plural(lang, len(hand)) else "your_hand_one", n=len(hand))
    return Group(Text(title, style="bold"), table)


def choices_text(labels: Sequence[Text | str]) -> Columns:
    """``1) K♥   2) 10♠   3) ★`` (``1) R♥`` in French): the numbered choices of a prompt (never
    split across lines)."""
    items = []
    for i, label in enumerate(labels, 1):
        item = Text(f"{i}) ", style="cyan")
        item.append_text(label if isinstance(label, Text) else Text(label))
        items.append(item)
    return Columns(items, padding=(0, 3))


def plays_text(lang: Lang, plays: Iterable[tuple[int, Card]], winner: int | None = None) -> Text:
    """``Seat 1 K♥ · You 3♥ · …`` (``Joueur 1 R♥ · Vous 3♥``), the winner's card underlined."""
    out = Text()
    for i, (seat, card) in enumerate(plays):
        if i:
            out.append(" · ", style="dim")
        out.append(seat_name(lang, seat) + " ")
        style = card_style(card) + (" underline" if seat == winner else "")
        out.append(card_label(card, lang), style=style)
    return out


def trick_text(lang: Lang, trick: Trick) -> Text:
    """A completed trick and who won it."""
    out = plays_text(lang, trick.plays, trick.winner)
    out.append("  → " + wins_text(lang, trick.winner))
    return out


def wins_text(lang: Lang, seat: int) -> str:
    return text(lang, "you_win_trick") if seat == 0 else text(lang, "wins_trick", who=seat_name(lang, seat))


def ranking_table(lang: Lang, ranking: Sequence[Placing]) -> Table:
    """The final ranking: place, seat, total (equal totals share a place)."""
    table = Table(box=box.SIMPLE_HEAD, title=Text(text(lang, "final_ranking"), style="bold"))
    table.add_column("#", justify="right")
    table.add_column(text(lang, "player"))
    table.add_column(text(lang, "total"), justify="right")
    for p in ranking:
        style = "bold" if p.seat == 0 else ""
        table.add_row(str(p.rank), seat_name(lang, p.seat), signed(p.total, lang), style=style)
    return table
