"""The rules engine: standard library only. Everything public is importable from here."""

from ._select import NATIVE
from .actions import Action, Bid, Call, Chelem, Ecart, Play, Poignee, action_to_dict
from .cards import (
    CARDS,
    EXCUSE,
    PETIT,
    T21,
    Card,
    Suit,
    cards_of,
    codes_of,
    format_cards,
    half_points,
    iter_cards,
    mask_of,
    parse_cards,
    sort_for_display,
)
from .deal import Annulment, Deal, DealResult, Phase
from .duplicate import defender_mark, match_points, overall_percentage, rank_marks
from .errors import IllegalAction, RecordError
from .game import Game, SheetRow
from .options import EcartOptions, PoigneeOptions
from .records import FORMAT, DealRecord, action_from_dict, dump_game, load, replay_result
from .rules import TARGETS, VARIANTS, Contract, PoigneeSize, Side, Variant, variant
from .scoring import Score, score_deal
from .summary import score_summary
from .tricks import Trick
from .view import View

__all__ = [
    "CARDS",
    "EXCUSE",
    "FORMAT",
    "NATIVE",
    "PETIT",
    "T21",
    "TARGETS",
    "VARIANTS",
    "Action",
    "Annulment",
    "Bid",
    "Call",
    "Card",
    "Chelem",
    "Contract",
    "Deal",
    "DealRecord",
    "DealResult",
    "Ecart",
    "EcartOptions",
    "Game",
    "IllegalAction",
    "Phase",
    "Play",
    "Poignee",
    "PoigneeOptions",
    "PoigneeSize",
    "RecordError",
    "Score",
    "SheetRow",
    "Side",
    "Suit",
    "Trick",
    "Variant",
    "View",
    "action_from_dict",
    "action_to_dict",
    "cards_of",
    "codes_of",
    "defender_mark",
    "dump_game",
    "format_cards",
    "half_points",
    "iter_cards",
    "load",
    "mask_of",
    "match_points",
    "overall_percentage",
    "parse_cards",
    "rank_marks",
    "replay_result",
    "score_deal",
    "score_summary",
    "sort_for_display",
    "variant",
]
