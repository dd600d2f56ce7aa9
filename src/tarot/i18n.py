"""The command line's words in French and English: one dict per language, looked up by key.

``text(lang, key, **fields)`` formats a message; ``default_lang()`` reads the locale
(LC_ALL, then LC_MESSAGES, then LANG: a value starting with ``fr`` means French).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from enum import StrEnum
from typing import Final


class Lang(StrEnum):
    FR = "fr"
    EN = "en"


_EN: Final[dict[str, str]] = {
    # contracts (R7) and poignée sizes (R14)
    "prise": "Prise",
    "garde": "Garde",
    "garde_sans": "Garde sans",
    "garde_contre": "Garde contre",
    "simple": "simple",
    "double": "double",
    "triple": "triple",
    # sides and roles
    "attack": "attack",
    "defence": "defence",
    "role_taker": "taker",
    "role_partner": "partner",
    "role_defender": "defender",
    "alone": "alone",
    "none": "—",
    # deal table
    "deal": "Deal",
    "seat": "Seat {seat}",
    "taker": "Taker",
    "contract": "Contract",
    "partner": "Partner",
    "oudlers": "Oudlers",
    "points": "Points",
    "target": "Target",
    "result": "Result",
    "made_by": "made by {margin}",
    "lost_by": "lost by {margin}",
    "base": "Base",
    "petit_au_bout": "Petit au bout",
    "poignee": "Poignée",
    "chelem": "Chelem",
    "chelem_announced_made": "announced and made",
    "chelem_announced_lost": "announced, not made",
    "chelem_made": "made, not announced",
    "chelem_defence": "won by the defence",
    "per_defender": "Per defender (S)",
    "score": "Score",
    "total": "Total",
    "annulled": "Deal annulled: {why}",
    "petit_sec": "petit sec (seat {seat})",
    "all_pass": "everybody passed",
    "sheet_line": "{contract} by seat {taker}{partner}, {oudlers}, {points} points, {result}",
    "sheet_partner": " with seat {seat}",
    "sheet_alone": " alone",
    "sheet_oudler": "{n} oudler",
    "sheet_oudlers": "{n} oudlers",
}

_FR: Final[dict[str, str]] = {
    "prise": "Prise",
    "garde": "Garde",
    "garde_sans": "Garde sans",
    "garde_contre": "Garde contre",
    "simple": "simple",
    "double": "double",
    "triple": "triple",
    "attack": "attaque",
    "defence": "défense",
    "role_taker": "preneur",
    "role_partner": "partenaire",
    "role_defender": "défenseur",
    "alone": "seul",
    "none": "—",
    "deal": "Donne",
    "seat": "Joueur {seat}",
    "taker": "Preneur",
    "contract": "Contrat",
    "partner": "Partenaire",
    "oudlers": "Bouts",
    "points": "Points",
    "target": "À faire",
    "result": "Résultat",
    "made_by": "fait de {margin}",
    "lost_by": "chuté de {margin}",
    "base": "Base",
    "petit_au_bout": "Petit au bout",
    "poignee": "Poignée",
    "chelem": "Chelem",
    "chelem_announced_made": "annoncé et réussi",
    "chelem_announced_lost": "annoncé, non réussi",
    "chelem_made": "réussi, non annoncé",
    "chelem_defence": "réussi par la défense",
    "per_defender": "Par défenseur (S)",
    "score": "Score",
    "total": "Total",
    "annulled": "Donne annulée : {why}",
    "petit_sec": "petit sec (joueur {seat})",
    "all_pass": "tout le monde a passé",
    "sheet_line": "{contract} par le joueur {taker}{partner}, {oudlers}, {points} points, {result}",
    "sheet_partner": " avec le joueur {seat}",
    "sheet_alone": " seul",
    "sheet_oudler": "{n} bout",
    "sheet_oudlers": "{n} bouts",
}

MESSAGES: Final[Mapping[Lang, Mapping[str, str]]] = {Lang.EN: _EN, Lang.FR: _FR}


def text(lang: Lang, key: str, **fields: object) -> str:
    """The message ``key`` in ``lang``, with ``fields`` filled in."""
    return MESSAGES[lang][key].format(**fields)


def default_lang(environ: Mapping[str, str] | None = None) -> Lang:
    """French when the locale's messages are French, else English."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            return Lang.FR if value.lower().startswith("fr") else Lang.EN
    return Lang.EN


def number(value: float, lang: Lang) -> str:
    """Card points: ``49`` or ``40.5`` (``40,5`` in French)."""
    out = f"{value:g}" if value != int(value) else str(int(value))
    return out.replace(".", ",") if lang is Lang.FR else out


def plural(lang: Lang, count: int) -> bool:
    """Whether ``count`` takes the plural: French says "0 bout", English "0 oudlers"."""
    return count > 1 if lang is Lang.FR else count != 1


def signed(value: int) -> str:
    """A score with its sign: ``+318``, ``-106``, ``0``."""
    return f"{value:+d}" if value else "0"
