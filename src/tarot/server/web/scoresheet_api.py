"""``POST /api/score``: the score sheet of a game played with real cards (issue 33, docs/api.md).

The client sends the table's size and the facts of each deal (taker, contract, partner, oudlers,
points, poignées, Petit au bout, chelem); the engine scores each one as ``tarot score`` scores a
deal summary (``tarot.engine.score_summary``: the same checks, the same reasons) and puts it on a
``ScoreSheet`` for the running totals and the ranking (R25). Stateless: nothing is stored, read or
remembered; the page keeps the whole sheet in its link (static/js/scoresheet/)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt

from tarot.engine import DealResult, RecordError, ScoreSheet, score_summary

from .api import _Route

MAX_DEALS = 200  # a long evening is 30 to 50 deals; the body stays under api.BODY_LIMITS

SideText = Literal["attack", "defence"]
SizeText = Literal["simple", "double", "triple"]


class Poignee(BaseModel):
    """A poignée shown, and by which side (R23: its prime goes to the side that wins the deal,
    whoever showed it, so the side is checked but does not change the score)."""

    model_config = ConfigDict(extra="forbid")
    size: SizeText
    side: SideText


class DealFacts(BaseModel):
    """One deal as the table saw it: a deal summary of docs/records.md without ``players``."""

    model_config = ConfigDict(extra="forbid")
    taker: StrictInt
    contract: Annotated[str, Field(max_length=20)]
    partner: StrictInt | None = None  # at 5 players; the taker's own seat (or null): alone
    oudlers: StrictInt
    points: StrictInt | StrictFloat  # the attack's card points, 0…91 in steps of 0.5
    poignees: Annotated[list[Poignee | SizeText], Field(max_length=5)] = []
    petit_au_bout: SideText | None = None
    chelem_announced: StrictBool = False
    chelem: SideText | None = None  # the side that won every trick, if one did


class Sheet(BaseModel):
    model_config = ConfigDict(extra="forbid")
    players: Annotated[StrictInt, Field(ge=3, le=5)]
    deals: Annotated[list[DealFacts], Field(max_length=MAX_DEALS)]


def summary(players: int, deal: DealFacts) -> dict[str, Any]:
    """``deal`` as the deal summary ``tarot score`` reads (docs/records.md)."""
    facts = deal.model_dump()
    facts["poignees"] = [p if isinstance(p, str) else p.size for p in deal.poignees]
    return {"players": players, **facts}


class BadDeal(ValueError):
    """Deal ``number`` (from 1) of a sheet cannot be scored: the engine's ``reason``."""

    def __init__(self, number: int, reason: str) -> None:
        super().__init__(f"deal {number}: {reason}")
        self.number = number


def score_sheet(sheet: Sheet) -> dict[str, Any]:
    """Each deal scored by the engine, with running totals, the totals and the ranking (R25);
    BadDeal for the first deal the engine refuses."""
    scored = ScoreSheet(sheet.players)
    for number, deal in enumerate(sheet.deals, 1):
        try:
            score = score_summary(summary(sheet.players, deal))
        except RecordError as e:
            raise BadDeal(number, e.reason) from None
        scored.add(DealResult(None, score), scored.next_dealer)
    rows = [{k: v for k, v in row.items() if k not in ("dealer", "annulled")} for row in scored.to_dicts()]
    return {"players": sheet.players, "deals": rows, "totals": list(scored.totals),
            "ranking": [p.to_dict() for p in scored.ranking()]}


def router() -> APIRouter:
    api = APIRouter(prefix="/api", route_class=_Route)

    @api.post("/score")
    async def score(body: Sheet) -> Any:
        """Score a sheet of deals played with real cards; stores nothing."""
        try:
            return score_sheet(body)
        except BadDeal as e:
            return JSONResponse({"error": str(e), "code": "bad_deal", "deal": e.number}, 422)

    return api
