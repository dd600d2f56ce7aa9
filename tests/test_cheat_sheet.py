"""The cheat sheet's figures come from the engine's rules (issue 32): ``GET /api/rules`` gives
them for 3, 4 and 5 players, and the page's texts hold the words only, never a figure of the
rules copied by hand."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tarot.engine import score_deal
from tarot.engine.rules import TARGETS, Contract, PoigneeSize, Side, variant

STATIC = Path(__file__).resolve().parents[1] / "src" / "tarot" / "server" / "static"


def test_the_api_gives_the_engines_figures_for_each_player_count(client: Any) -> None:
    got = client.get("/api/rules").json()
    assert sorted(got) == ["3", "4", "5"]
    for n in (3, 4, 5):
        figures = got[str(n)]
        assert figures["targets"] == list(TARGETS) == [56, 51, 41, 36]  # R20
        assert figures["multipliers"] == {"prise": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}  # R7
        assert [p["trumps"] for p in figures["poignees"]] == list(variant(n).poignee_thresholds)  # R14
        assert [p["prime"] for p in figures["poignees"]] == [20, 30, 40]  # R23
        assert figures["card_values"] == {"oudler": 4.5, "king": 4.5, "queen": 3.5, "knight": 2.5,
                                          "jack": 1.5, "other": 0.5}  # R3
        assert figures["taker_share"] == n - 1  # R24
    assert [p["trumps"] for p in got["5"]["poignees"]] == [8, 10, 13]


def test_the_score_figures_are_those_the_scoring_uses() -> None:
    """The sheet's (25 + margin) × multiplier, Petit au bout and chelem primes, against the
    scoring itself: a garde made by 4 with the Petit au bout and a chelem announced and made."""
    from tarot.engine.rules import reference

    r = reference(4)
    score = score_deal(players=4, taker=0, contract=Contract.GARDE, oudlers=2, points=45,
                       petit_au_bout=Side.ATTACK, chelem=Side.ATTACK, chelem_announced=True,
                       poignees=[PoigneeSize.SIMPLE])
    per_defender = ((r["contract_base"] + 4) * 2 + r["petit_au_bout"] * 2 + r["poignees"][0]["prime"]
                    + r["chelem"]["announced"])
    assert score.per_defender == per_defender and score.scores[0] == r["taker_share"] * per_defender


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_pages_texts_hold_the_words_only(lang: str) -> None:
    texts = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    sheet = json.dumps(texts["help"], ensure_ascii=False) + texts["help_score"]
    sheet = sheet.replace("(21, ", "(")  # (the 21 is a card's name)
    assert not re.findall(r"\d", sheet), "a figure of the rules written in the page's texts"
    assert "{base}" in texts["help_score"] and "{announced}" in texts["help_score"]
