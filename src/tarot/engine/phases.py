"""The phases of a deal and the ways it can be annulled (R6–R16)."""

from __future__ import annotations

from enum import Enum


class Phase(Enum):
    BIDDING = "bidding"
    CALL = "call"  # 5 players: the taker calls a card (R8)
    ECART = "ecart"  # prise/garde: the taker discards (R10, R11)
    ANNOUNCE = "announce"  # the taker may announce a chelem (R13)
    PLAY = "play"  # poignées are shown in this phase, before a seat's first card (R14)
    DONE = "done"


class Annulment(Enum):
    PETIT_SEC = "petit_sec"  # R6
    ALL_PASS = "all_pass"  # R7
