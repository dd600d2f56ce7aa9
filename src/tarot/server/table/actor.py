"""A table's actor: the one owner of its state, changed by one message at a time, in order.

A connection's message is handled at once in that connection's task when the table is idle;
otherwise it is queued for the table's actor task, which also runs the timers (move clock, grace
period, the pause between deals, the cancel vote) and the automatic moves (``Table.deliver``,
``Table.run``). The table's messages are a typed union (``TableMessage``): the clients'
(``protocol``) and its own (``Gone``, ``Arm``, ``Resume``, ``autoplay.Auto``).

Handlers read the state and return an ``Outcome`` (``seating``, ``flow``, ``cancelvote``,
``autoplay``); the actor alone applies its events (``commit``): each is stored before anyone
hears of it (``writes``), applied (``TableState.apply``), versioned, logged and sent
(``render``: every recipient gets its own seat's view). Then it applies what the table does by
itself (``flow.due``). The last ``LOG_SIZE`` events are kept so a reconnecting client gets
what it missed, else a snapshot. The hub (``hub``) creates, closes and restores tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from tarot.engine import Deal

from .. import protocol as p
from ..community.chat import Room
from ..settings import TableServices
from ..store.ownership import FENCE, Fenced
from . import autoplay, cancelvote, flow, kinds, seating, writes
from . import events as ev
from .autoplay import Auto, Autoplay
from .eventlog import EventLog
from .game import Etui, ServerGame
from .hints import Hints
from .outcome import NOTHING, Context, Outcome
from .render import Renderer
from .seats import Client, Seat
from .state import Intermission, TableState

log = logging.getLogger("tarot.server")
# About two deals: enough to catch up a short disconnection; older gaps get a snapshot, which
# holds everything. Kept small because every table's log stays in memory (and in the GC's way).
LOG_SIZE = 200


@dataclass(frozen=True)
class Gone:
    """Internal: a connection closed."""


@dataclass(frozen=True)
class Arm:
    """Internal: the actor must wait for a new, earlier deadline (``deliver`` armed a clock)."""


@dataclass(frozen=True)
class Resume:
    """Internal: the table does what is due by itself (``flow.due``): a game whose current
    deal is over but whose end is not stored (after a restart, or after the store refused it) ends
    it, a pause between two deals or a cancel vote whose time is up ends; else nothing."""


TableMessage = p.ToTable | Gone | Arm | Resume | Auto  # the clients' (``protocol.ToTable``) and its own


class Table:
    def __init__(self, services: TableServices, state: TableState) -> None:
        self.services = services
        self.state = state  # changed here only (``commit``)
        self.watchers: set[Client] = set()
        self.log = EventLog(LOG_SIZE)
        self.queue: asyncio.Queue[tuple[Client | None, TableMessage]] = asyncio.Queue()
        self.queued = 0  # items put in the queue and not yet handled
        self.busy = False  # a message is being handled (by the actor, or at once by ``deliver``)
        self.idle = asyncio.Event()  # set when ``deliver`` ends: the actor may wait for it
        self.task: asyncio.Task[None] | None = None
        self.wake_at: float | None = None  # when the actor last waited to act by itself (None: never)
        self.autoplay = Autoplay(state, self.watchers, self.enqueue, services)
        self.render = Renderer(state, self.watchers, self.log, services.clock, self.autoplay.time_left)
        self.hints = Hints(state, services)
        self.chat = Room(services.chat, "table", state.id)
        # In a cluster, this node's claim of the table (its id, its owner epoch): every write of
        # the table is fenced with it (``Store.fence``). None: one process, no fence.
        self.fence: tuple[str, int] | None = None

    # --- the state, read (tests and the hub read these) ----------------------------------

    @property
    def id(self) -> str:
        return self.state.id

    @property
    def options(self) -> p.TableOptions:
        return self.state.options

    @property
    def host(self) -> str | None:
        return self.state.host

    @property
    def invite(self) -> str | None:
        return self.state.invite

    @property
    def seats(self) -> list[Seat]:
        return self.state.seats

    @property
    def version(self) -> int:
        return self.state.version

    @property
    def status(self) -> str:
        return self.state.status

    @property
    def game(self) -> ServerGame | None:
        return self.state.game

    @property
    def games_played(self) -> int:
        return self.state.games_played

    @property
    def intermission(self) -> Intermission | None:
        return self.state.intermission

    @property
    def last_result(self) -> dict[str, Any] | None:
        return self.state.last_result

    @property
    def challenge(self) -> p.ChallengeDeal | None:
        return self.state.challenge

    @property
    def at_event(self) -> p.EventTable | None:
        return self.state.at_event

    @property
    def imposed(self) -> list[Etui] | None:
        return self.state.imposed

    def deal(self) -> Deal | None:
        """The deal under way, if a game is being played."""
        return self.state.deal()

    def seat_of(self, client: Client) -> int | None:
        return self.state.seat_of(client.player_id)

    def seat_for(self, client: Client) -> int:
        """``client``'s seat, or -1 for a spectator (``Renderer.state``'s view)."""
        seat = self.seat_of(client)
        return -1 if seat is None else seat

    # --- public entry points (called from connections) ---------------------------------

    def start(self) -> None:
        self.task = asyncio.create_task(self.run(), name=f"table-{self.id}")

    def submit(self, client: Client | None, message: TableMessage) -> None:
        self.enqueue(client, message)

    def gone(self, client: Client) -> None:
        self.enqueue(client, Gone())

    def enqueue_resume(self) -> None:
        self.enqueue(None, Resume())

    def enqueue(self, client: Client | None, message: TableMessage) -> None:
        self.queued += 1
        self.queue.put_nowait((client, message))

    async def deliver(self, client: Client, message: TableMessage) -> None:
        """A connection's message, handled at once in the connection's task when the table is
        idle with nothing queued (the usual case: no queue and no task switch per card); else
        queued for the actor, behind what is already there."""
        if self.busy or self.queued:
            self.submit(client, message)
            return
        self.busy = True
        try:
            await self._step(client, message)
        finally:
            self.busy = False
            self.idle.set()
        due = self._wake_at()  # (starts a bot's move) or when the table must act by itself
        if due is not None and (self.wake_at is None or due < self.wake_at):
            # the actor waits for nothing, or for later: wake it to wait for this. A later moment
            # needs no wake: woken early, the actor finds nothing due and waits again.
            self.enqueue(None, Arm())

    async def stop(self) -> None:
        self.autoplay.stop()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def start_game(self) -> None:
        """A game at a table nobody reaches yet (a challenge's, an event's): started at once."""
        with self.fenced():
            await self._run(None, Outcome(events=(flow.start(self.state, self._context()),)))
            await self._settle()

    # --- the actor -----------------------------------------------------------------

    async def run(self) -> None:
        while True:
            deadline = self.wake_at = self._wake_at()
            try:
                if deadline is None:
                    client, message = await self.queue.get()
                else:
                    client, message = await self.services.clock.wait_until(self.queue.get(), deadline)
            except TimeoutError:
                self.autoplay.on_deadline()  # (starts a move in a task: nothing to wait for)
                # what else is due (the pause's end, the vote's) is handled as a message
                client, message = None, Resume()
                self.queued += 1
            while self.busy:  # a connection's message being handled at once (``deliver``)
                self.idle.clear()
                await self.idle.wait()
            self.busy = True
            try:
                await self._step(client, message)
            finally:
                self.busy = False
                self.queued -= 1

    def _wake_at(self) -> float | None:
        """When the table must act by itself: the end of the pause between two deals or of the
        cancel vote, else the automatic move's time (``Autoplay.arm``, which starts the move
        due now)."""
        times = [t for t in (flow.wake_at(self.state), self.autoplay.arm()) if t is not None]
        return min(times) if times else None

    @contextlib.contextmanager
    def fenced(self) -> Iterator[None]:
        """The writes made meanwhile are this owner's, fenced (``Store.fence``) in a cluster."""
        if self.fence is None:
            yield
            return
        token = FENCE.set(self.fence)
        try:
            yield
        finally:
            FENCE.reset(token)

    async def _step(self, client: Client | None, message: TableMessage) -> None:
        try:
            with self.fenced():
                await self._run(client, await self._handle(client, message))
                await self._settle()
        except Fenced:  # another node claimed the table: it steps down (``Relay.claimed``)
            log.warning("table %s: a write refused, another node owns the table now", self.id)
            if client is not None:
                client.send(p.Error.build("this table moved to another server: joining it again", "moved"))
        except Exception:  # a bug must not kill the table
            log.exception("table %s: error handling %s", self.id, type(message).__name__)
            if client is not None:
                client.send(p.Error.build("internal error", "internal"))

    def _context(self) -> Context:
        return Context(self.services, self.services.clock.now(), self.watchers)

    async def _handle(self, client: Client | None, message: TableMessage) -> Outcome:
        """The handler's outcome for ``message`` (changing nothing: ``_run`` applies it)."""
        state = self.state
        if client is None:  # the table's own messages (Resume, Arm: only what is due, ``_settle``)
            return autoplay.play(state, message) if isinstance(message, Auto) else NOTHING
        if isinstance(message, Gone):
            self.watchers.discard(client)
            return seating.gone(state, client, self._context())
        # Only a connection that joined speaks to the table: one whose join was refused, one sent
        # away or sent off at the start is answered as if at no table (its ping's pong has no
        # table's version: a private table's activity is not told by its id).
        if client not in self.watchers and not isinstance(message, p.Join | p.Leave):
            return Outcome(reply=(p.Pong.build() if isinstance(message, p.Ping)
                                  else p.Error.build("join the table first", "not_joined"),))
        if isinstance(message, p.Act):  # (first: nearly every message is a move, which no kind refuses)
            return flow.act(state, client, message)
        # what the table's kind refuses (a hint's refusal waits for its seat's: ``Hints.refusal``)
        refused = None if isinstance(message, p.Hint) else kinds.refusal(state, type(message))
        if refused is not None:
            return Outcome(reply=(refused,))
        ctx = self._context
        match message:
            case p.Join():
                return await seating.join(state, client, message, ctx())
            case p.Sit():
                return await seating.sit(state, client, message, ctx())
            case p.Leave():
                return seating.leave(state, client)
            case p.AddBot():
                return seating.add_bot(state, client, message, ctx())
            case p.RemoveBot():
                return seating.remove_bot(state, client, message)
            case p.SetOptions():
                return seating.set_options(state, client, message, ctx())
            case p.NewGame():
                return seating.new_game(state, client, ctx())
            case p.NextDeal():
                return flow.next_deal(state, client)
            case p.CancelGame():
                return cancelvote.propose(state, client, ctx().now)
            case p.CancelVote():
                return cancelvote.answer(state, client, message.accept)
            case p.Chat():
                await self._chat(client, message)
            case p.RemoveSpectator():
                return seating.remove_spectator(state, client, message.player, ctx())
            case p.InviteFriend():
                return await seating.invite_friend(state, client, message.player, ctx())
            case p.Hint():
                self.hints.ask(client)
            case p.Ping():
                client.send(p.Pong.build(self.id, self.version))
            case _:
                client.send(p.Error.build(f"{type(message).__name__} is not a table message", "bad_request"))
        return NOTHING

    # --- applying: the only place the state changes ----------------------------------------

    async def _run(self, client: Client | None, outcome: Outcome) -> None:
        """Send the outcome's messages, then commit its events, then take its next step."""
        if client is not None:
            for message in outcome.reply:
                client.send(message)
        for c, message in outcome.notices:
            c.send(message)
        for c, why in outcome.drop:
            self.watchers.discard(c)
            if why is not None:
                c.send(why)
        if outcome.watch and client is not None:
            self._watch(client)
        for event in outcome.events:
            if not await self.commit(event):
                return
        if outcome.watch and client is not None:
            self._catch_up(client, outcome.since)
        if outcome.then is not None:
            await self._run(client, outcome.then())

    async def _settle(self) -> None:
        """Apply what the table does by itself now, one event at a time, until nothing is due."""
        ctx = self._context()
        while (event := flow.due(self.state, ctx)) is not None:
            if isinstance(event, ev.DealEnded):
                await self.services.slow_lane.turn()  # cards received meanwhile at other tables go first
                try:
                    committed = await self.commit(event)
                except BaseException:  # not stored: the deal stays current and over, ended again later
                    self.services.clock.call_later(self.services.settings.retry, self.enqueue_resume)
                    raise
                await asyncio.sleep(0)  # in parts, so that cards arriving meanwhile wait for one part only
            else:
                committed = await self.commit(event)
            if not committed:
                return
            ctx.now = self.services.clock.now()

    async def commit(self, event: ev.TableEvent) -> bool:
        """Store, apply, version, log and send ``event``; False if the store refused it (every
        watcher is told why, and nothing changed)."""
        state, now = self.state, self.services.clock.now()
        if event.row:  # the row as the event leaves it is stored, or the state is put back
            before = state.row_fields()
            await writes.write(self.services, state, event)
            state.apply(event, now)
            try:
                await writes.save_row(self.services, state)
            except BaseException:
                state.restore(before)
                raise
        else:
            try:
                stored = await writes.write(self.services, state, event)
            except kinds.StartRefused as e:
                for c in self.watchers:
                    c.send(e.error)
                return False
            state.apply(event, now, stored)
        if isinstance(event, ev.ActionPlayed | ev.DealStarted):
            self.autoplay.new_position()  # a new position: the next move's clock starts
        if event.sent:
            self.render.record(event)
            if event.lobby:
                self.services.lobby_changed(self.id)
        if isinstance(event, ev.GameStarted):
            self._send_off_watchers()
        return True

    # --- connections -------------------------------------------------------------------

    def _watch(self, client: Client) -> None:
        """A connection the table accepted: it watches (``_catch_up`` then sends what it
        missed)."""
        self.watchers.add(client)
        invite = seating.invite_for(self.state, client)
        if invite is not None:
            client.send(invite)

    def _catch_up(self, client: Client, since: int | None) -> None:
        seat = self.seat_for(client)
        if since is not None and since <= self.version:
            missed = [] if since == self.version else self.log.since(since, seat)
            if missed is not None:
                client.send(p.Missed.build(self.id, since, missed))
        client.send(p.Snapshot.build(self.id, self.version, self.render.state(seat)))
        client.send(self.chat.log_for(client, seat < 0))

    def _send_off_watchers(self) -> None:
        why = p.Error.build("the game has started, and this table does not allow spectators", "no_spectators",
                      table=self.id)
        for client in seating.sent_off(self.state, self.watchers):
            self.watchers.discard(client)
            client.send(why)

    async def _chat(self, client: Client, msg: p.Chat) -> None:
        """A message from a seated player or a spectator, to those who may see it."""
        seat = self.seat_for(client)
        audience = "spectators" if seat < 0 and self.options.spectator_chat == "spectators" else "all"
        game = self.game.db_id if self.game is not None else None
        readers = [(c, self.seat_of(c) is None) for c in self.watchers]
        await self.chat.post(client, msg, seat, audience, game, readers)

    async def save(self) -> None:
        """The table's row as it is (a new table, before anyone reaches it)."""
        await writes.save_row(self.services, self.state)
