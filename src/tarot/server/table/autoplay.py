"""A table's automatic moves: bots, players away too long, the move clock, and the stand-in.

The table's actor tells ``Autoplay`` when a new position starts (``new_position``); ``arm``
starts the move due now (a bot's, or the stand-in's for a player away or out of time) or says
when one will be due, and the actor calls ``on_deadline`` then. A move is chosen in a thread and
comes back to the table as an ``Auto`` message, which ``play`` turns into the move's event if the
position has not moved on. ``Autoplay`` keeps its own bookkeeping (the bots, the move clock, the
moves under way) and only reads the table's state.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tarot.bots import Bot, bot_options, make_bot
from tarot.bots.stand_in import StandInBot
from tarot.engine import Action, Deal, Ecart, IllegalAction, Phase, View

from ..settings import TableServices
from . import events as ev
from .botpool import POOLED
from .outcome import NOTHING, Outcome
from .state import TableState

if TYPE_CHECKING:
    from .seats import Client

log = logging.getLogger("tarot.server")
STAND_IN = StandInBot.name  # plays for a player out of time or away: never takes a contract for them
ECART_TIME_FACTOR = 3  # the écart (six cards to choose) has three times the time per move


@dataclass(frozen=True)
class Auto:
    """Internal table message: an automatic move chosen for ``seat`` at ``version``."""

    version: int
    seat: int
    action: Action
    why: str  # bot, away, timeout


class Autoplay:
    def __init__(self, state: TableState, watchers: set[Client], enqueue: Callable[[None, Auto], None],
                 services: TableServices) -> None:
        self.state = state  # (read only: the table's actor changes it)
        self.watchers = watchers
        self.enqueue = enqueue  # the table's queue, where a chosen move goes
        self.services = services
        self.bots: dict[tuple[int, str], Bot] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.turn_started = services.clock.now()  # when the current position began: the move clock
        self.started_for = -1  # the table version an automatic move was started for
        self.paused = False  # nobody is at the table: no automatic move until someone comes

    def new_position(self) -> None:
        """A new position: the next move's clock starts."""
        self.turn_started = self.services.clock.now()

    def stop(self) -> None:
        for t in list(self.tasks):
            t.cancel()

    def attended(self) -> bool:
        """Someone is there for the moves to be played; an event's table always plays on (the
        event's other tables and its results wait for it: robots play for who is away)."""
        return bool(self.watchers) or self.state.at_event is not None

    def arm(self) -> float | None:
        """Start the automatic move due now, or return when one will be due."""
        owner = self._turn_owner()
        if owner is None:
            return None
        if not self.attended():
            # Nobody connected, seated or watching: bots would play for nobody (a guest could
            # fill tables with search bots and leave). The game waits; the hub abandons it if
            # nobody comes back (``Hub.sweep``).
            self.paused = True
            return None
        if self.paused:  # someone is back: the clock starts again for whoever is to move
            self.paused = False
            self.new_position()
        seat_no, seat = owner
        if self.started_for == self.state.version:
            return None
        settings = self.services.settings
        if seat.bot is not None:
            self._start(seat_no, seat.bot, "bot", self._bot_pause())
            return None
        now = self.services.clock.now()
        due: list[float] = []
        if seat.away_since is not None:
            at = seat.away_since + settings.grace
            if at <= now:
                self._start(seat_no, STAND_IN, "away", settings.bot_delay)
                return None
            due.append(at)
        allowed = self.move_allowance()
        if allowed is not None:
            due.append(self.turn_started + allowed)
        return min(due) if due else None

    def on_deadline(self) -> None:
        owner = self._turn_owner()
        if owner is None or self.started_for == self.state.version or not self.attended():
            return
        seat_no, seat = owner
        now = self.services.clock.now()
        allowed = self.move_allowance()
        if seat.away_since is not None and seat.away_since + self.services.settings.grace <= now:
            self._start(seat_no, STAND_IN, "away", 0.0)
        elif allowed is not None and self.turn_started + allowed <= now + 0.001:
            self._start(seat_no, STAND_IN, "timeout", 0.0)

    def move_allowance(self) -> float | None:
        """Seconds for the move under way: the table's time per move, the écart (six choices)
        ``ECART_TIME_FACTOR`` times as long; None without a clock."""
        deal = self.state.deal()
        move_time = self.state.options.move_time
        if move_time is None or deal is None:
            return None
        factor = ECART_TIME_FACTOR if deal.phase is Phase.ECART else 1
        return float(move_time * factor)

    def time_left(self, deal: Deal | None) -> float | None:
        allowed = self.move_allowance()
        if deal is None or deal.turn is None or allowed is None:
            return None
        return max(0.0, self.turn_started + allowed - self.services.clock.now())

    # --- inside ------------------------------------------------------------------------

    def _turn_owner(self) -> tuple[int, Any] | None:
        deal = self.state.deal()
        if deal is None or deal.turn is None:
            return None
        return deal.turn, self.state.seats[deal.turn]

    def _bot_pause(self) -> float:
        """Before a bot's move: ``bot_delay``, or ``trick_pause`` when it would gather a trick
        just finished (it leads the next one) and a person is seated to see it (bots alone don't
        wait)."""
        settings = self.services.settings
        deal = self.state.deal()
        trick_done = deal is not None and deal.phase is Phase.PLAY and not deal.trick and bool(deal.tricks)
        if trick_done and any(s.person for s in self.state.seats):
            return max(settings.bot_delay, settings.trick_pause)
        return settings.bot_delay

    def _bot(self, seat_no: int, kind: str) -> Bot:
        """The seat's bot of ``kind``, kept for the table's life (its own stream of chance)."""
        bot = self.bots.get((seat_no, kind))
        if bot is None:
            seed = self.services.chance.getrandbits(32)
            options = {} if kind == STAND_IN else bot_options(kind, self.services.settings.think)
            bot = StandInBot(seed) if kind == STAND_IN else make_bot(kind, seed=seed, **options)
            self.bots[(seat_no, kind)] = bot
        return bot

    def _chooser(self, seat_no: int, kind: str, view: View) -> Callable[[], Awaitable[Action]]:
        """How the bot's move is chosen: a search bot's in the pool, its turn among every
        table's (a bot built for the move, seeded from the table's chance); a quick bot's in a
        thread. (The seed is drawn now, in the table's order of events.)"""
        if kind in POOLED:
            pool, seed = self.services.bot_pool, self.services.chance.getrandbits(32)
            options = bot_options(kind, self.services.settings.think)
            return lambda: pool.act(kind, seed, options, view)
        bot = self._bot(seat_no, kind)
        return lambda: asyncio.to_thread(bot.act, view)

    def _start(self, seat_no: int, kind: str, why: str, delay: float) -> None:
        deal = self.state.deal()
        assert deal is not None
        self.started_for = version = self.state.version
        view = deal.view(seat_no)
        choose = self._chooser(seat_no, kind, view)

        async def move() -> None:
            # the bot thinks during its pause (issue 33): the move comes after the longer of the
            # two, not after both
            chosen = asyncio.ensure_future(choose())
            try:
                if delay:
                    await self.services.clock.sleep(delay)
                action = await chosen
            except asyncio.CancelledError:
                chosen.cancel()
                raise
            except Exception:
                log.exception("table %s: bot %s failed; playing the first legal action", self.state.id, kind)
                action = view.legal[0] if view.legal else _fallback(deal, seat_no)
            self.enqueue(None, Auto(version, seat_no, action, why))

        task = asyncio.create_task(move())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)


def _fallback(deal: Deal, seat_no: int) -> Action:
    """The écart when a bot failed (the only choice without a listed legal action)."""
    opts = deal.ecart_options()
    assert opts is not None
    return Ecart(seat_no, opts.choose())


def play(state: TableState, move: Auto) -> Outcome:
    """An automatic move back at the table: its event if the position is the one it was chosen
    for (the player may have come back and played)."""
    deal = state.deal()
    if move.version != state.version or deal is None:
        return NOTHING
    action = move.action
    try:
        deal.check(action)
    except IllegalAction:
        log.exception("table %s: automatic move refused", state.id)
        legal = deal.legal_actions()
        if not legal:
            return NOTHING
        action = legal[0]
    return Outcome(events=(ev.ActionPlayed(move.seat, action, move.why),))
