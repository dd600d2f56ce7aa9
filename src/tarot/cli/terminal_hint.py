"""The terminal game's ``hint`` command (issue 19): what the expert (the search bot) would do
at the player's turn, and why, in one line, from the player's own view only (as the site's hint
button, ``tarot.bots.advice``)."""

from __future__ import annotations

from rich.text import Text

from tarot.bots.advice import Advice
from tarot.engine import Action, Bid, Call, Chelem, Ecart, Play, Poignee

from .i18n import Lang, signed, text
from .terminal_render import card_text, cards_text

HINT_THINK = 0.5  # seconds: the site's default think time for its hints


def action_text(lang: Lang, action: Action) -> Text:
    """The advised move as the terminal names it: a card, a bid, an écart's cards, …"""
    if isinstance(action, Play):
        return card_text(lang, action.card)
    if isinstance(action, Bid):
        return Text(text(lang, "pass") if action.contract is None else text(lang, action.contract.name_text))
    if isinstance(action, Call):
        return Text(text(lang, "hint_call") + " ").append_text(card_text(lang, action.card))
    if isinstance(action, Ecart):
        return Text(text(lang, "hint_ecart_move") + " ").append_text(cards_text(lang, action.cards))
    if isinstance(action, Chelem):
        return Text(text(lang, "hint_chelem" if action.announce else "hint_no_chelem"))
    assert isinstance(action, Poignee)
    return Text(text(lang, "hint_poignee_move", n=len(action.cards)))


def hint_text(lang: Lang, advice: Advice) -> Text:
    """The advice in one line: the move, then why (over how many deals, the means), in ``lang``."""
    hide = advice.why == "search_hide_poignee"
    why = "search" if hide else advice.why
    line = Text(text(lang, "hint_expert"), style="bold").append_text(action_text(lang, advice.action))
    figures = {"n": advice.worlds, "mean": "" if advice.mean is None else signed(round(advice.mean), lang)}
    line.append(text(lang, "hint_why_" + why, **figures))
    if advice.runner_up is not None and advice.runner_up_mean is not None and why in ("search", "bidding"):
        line.append(text(lang, "hint_next"))
        line.append_text(action_text(lang, advice.runner_up))
        line.append(text(lang, "hint_next_mean", mean=signed(round(advice.runner_up_mean), lang)))
    line.append(".")
    if hide:
        line.append(" " + text(lang, "hint_hide_poignee"))
    return line
