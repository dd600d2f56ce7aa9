"""The friendly cancel vote: a seated person proposes to cancel the game in play; every seated
person must accept within ``VOTE_TIME`` seconds (bots and stand-ins do not vote); one refusal, or
the time running out, ends the vote and the game goes on. A cancelled game scores nothing, counts
for nothing, and gives every stake back except to a person who abandoned it
(``competition.cancel``). Handlers of the vote's messages, and what the vote makes due."""

from __future__ import annotations

import math
from typing import Any

from .. import protocol as p
from . import events as ev
from .outcome import Outcome, refused
from .seats import Client
from .state import TableState

VOTE_TIME = 30.0


def propose(state: TableState, client: Client, now: float) -> Outcome:
    seat = state.seat_of(client.player_id)
    if seat is None:
        return refused(p.Error.build("only a seated player may propose to cancel", "not_seated"))
    if state.status != "playing" or state.game is None:
        return refused(p.Error.build("no game is being played", "no_game"))
    if state.vote is not None:
        return refused(p.Error.build("a vote to cancel is under way", "vote_running"))
    return Outcome(events=(ev.CancelProposed(seat, now + VOTE_TIME),))


def answer(state: TableState, client: Client, accept: bool) -> Outcome:
    seat = state.seat_of(client.player_id)
    if state.vote is None or seat is None or seat not in state.voters():
        return refused(p.Error.build("no vote to cancel is under way for you", "no_vote"))
    return Outcome(events=(ev.CancelAccepted(seat) if accept else ev.CancelRefused(seat),))


def due(state: TableState, now: float) -> ev.TableEvent | None:
    """Every voter accepted: the game is cancelled; the time is up: the game goes on."""
    vote = state.vote
    if vote is None:
        return None
    if state.voters() <= vote.accepted:
        return ev.GameCancelled()
    if now >= vote.until:
        return ev.CancelExpired()
    return None


def vote_state(state: TableState, now: float) -> dict[str, Any] | None:
    vote = state.vote
    if vote is None:
        return None
    left = math.ceil(max(0.0, vote.until - now))
    return {"proposer": vote.proposer, "accepted": sorted(vote.accepted), "voters": sorted(state.voters()),
            "time_left": left}
