"""The hint button (issue 19): at a practice table, the seat to move asks what the expert would
do. The advice (``tarot.bots.advice``) is worked out in the bot pool from that seat's own view,
so it never rests on a card the seat may not see, and is sent to that seat alone. It is worked
out beside the table's actor (the table goes on meanwhile) and dropped if the position has moved
on; asked again for the same position, the same advice comes back at once."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from .. import protocol as p
from . import kinds
from .seats import Client

if TYPE_CHECKING:
    from ..settings import TableServices
    from .state import TableState


class Hints:
    def __init__(self, state: TableState, services: TableServices) -> None:
        self.state = state  # (read only: the table's actor changes it)
        self.services = services
        self.given: dict[tuple[int, int], dict[str, Any]] = {}  # (seat, version) → its advice
        self.working: set[asyncio.Task[None]] = set()

    def refusal(self, client: Client) -> dict[str, Any] | None:
        state = self.state
        seat = state.seat_of(client.player_id)
        if seat is None:
            return p.Error.build("you do not sit at this table", "not_seated")
        refused = kinds.refusal(state, p.Hint)
        if refused is not None:
            return refused
        deal = state.deal()
        if deal is None:
            return p.Error.build("no deal is being played", "no_deal")
        view = deal.view(seat)
        if not view.legal and view.ecart_options is None:
            return p.Error.build("it is not your turn", "not_your_turn")
        return None

    def ask(self, client: Client) -> None:
        refused = self.refusal(client)
        if refused is not None:
            client.send(refused)
            return
        state = self.state
        seat = state.seat_of(client.player_id)
        deal = state.deal()
        assert seat is not None and deal is not None
        key = (seat, state.version)
        if key in self.given:
            client.send(p.HintAnswer.build(state.id, state.version, self.given[key]))
            return
        services = self.services
        seed = services.chance.getrandbits(32)
        task = asyncio.create_task(self._work(client, key, deal.view(seat), seed, services.settings.think))
        self.working.add(task)
        task.add_done_callback(self.working.discard)

    async def _work(self, client: Client, key: tuple[int, int], view: Any, seed: int, think: float) -> None:
        try:
            advice = await self.services.bot_pool.advise(view, seed, think)
        except Exception:  # (a worker that died: the player may ask again)
            client.send(p.Error.build("no hint could be worked out: try again", "internal"))
            return
        if self.state.version != key[1]:
            return  # the position moved on: the advice is for a move already made
        self.given = {key: advice}
        client.send(p.HintAnswer.build(self.state.id, key[1], advice))
