"""The friendly cancel vote: a seated person proposes to cancel the game in play; every seated
person must accept within ``VOTE_TIME`` seconds (bots and stand-ins do not vote); one refusal, or
the time running out, ends the vote and the game goes on. A cancelled game scores nothing, counts
for nothing, and gives every stake back except to a person who abandoned it
(``competition.cancel``)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import competition
from . import protocol as p
from .seats import Client

if TYPE_CHECKING:
    from .store import Job
    from .table import Table

VOTE_TIME = 30.0


@dataclass
class Vote:
    proposer: int
    until: float  # the clock's now()
    accepted: set[int] = field(default_factory=set)


class CancelVoting:
    def __init__(self, table: Table) -> None:
        self.table = table
        self.vote: Vote | None = None

    def voters(self) -> set[int]:
        """The seats of the people seated (connected or away): each must accept."""
        return {i for i, s in enumerate(self.table.seats) if s.person}

    def deadline(self) -> float | None:
        return None if self.vote is None else self.vote.until

    def state(self) -> dict[str, Any] | None:
        vote = self.vote
        if vote is None:
            return None
        left = math.ceil(max(0.0, vote.until - self.table.services.clock.now()))
        return {"proposer": vote.proposer, "accepted": sorted(vote.accepted), "voters": sorted(self.voters()),
                "time_left": left}

    async def propose(self, client: Client) -> None:
        t = self.table
        seat = t.seat_of(client)
        if seat is None:
            client.send(p.error("only a seated player may propose to cancel", "not_seated"))
            return
        if t.status != "playing" or t.game is None:
            client.send(p.error("no game is being played", "no_game"))
            return
        if self.vote is not None:
            client.send(p.error("a vote to cancel is under way", "vote_running"))
            return
        self.vote = Vote(seat, t.services.clock.now() + VOTE_TIME, {seat})
        t.event({"kind": "cancel_proposed", "seat": seat})
        await self._maybe_cancel()

    async def answer(self, client: Client, accept: bool) -> None:
        t = self.table
        seat = t.seat_of(client)
        vote = self.vote
        if vote is None or seat is None or seat not in self.voters():
            client.send(p.error("no vote to cancel is under way for you", "no_vote"))
            return
        if not accept:
            self.vote = None
            t.event({"kind": "cancel_refused", "seat": seat})
            return
        vote.accepted.add(seat)
        t.event({"kind": "cancel_accepted", "seat": seat})
        await self._maybe_cancel()

    def expire(self) -> None:
        """The time is up (the table's actor): the game goes on."""
        if self.vote is not None and self.table.services.clock.now() >= self.vote.until:
            self.vote = None
            self.table.event({"kind": "cancel_expired"})

    def drop(self) -> None:
        """The game ended (or the table closes): no vote any more."""
        self.vote = None

    async def _maybe_cancel(self) -> None:
        vote = self.vote
        if vote is None or not self.voters() <= vote.accepted:
            return
        t = self.table
        game = t.game
        assert game is not None
        store = t.services.store
        jobs: list[Job] = [(competition.cancel, (game.db_id,)),
                           (store.set_table_status, (t.id, "finished", t.version))]
        await store.write_all(jobs)
        self.vote = None
        game.cancelled = True
        t.status = "finished"
        t.intermission = None
        t.event({"kind": "game_cancelled"}, lobby=True)
