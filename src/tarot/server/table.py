"""A table: its state, changed by one message at a time, in order.

A connection's message is handled at once in that connection's task when the table is idle;
otherwise it is queued for the table's actor task, which also runs the timers (move clock, grace
period) and the automatic moves (``Table.deliver``, ``Table.run``). The table's messages are a
typed union (``TableMessage``): the clients' (``protocol``) and its own (``Gone``, ``Arm``,
``Resume``, ``autoplay.Auto``), dispatched by ``match``.

Every applied action goes to the store before it is broadcast (``render``: every recipient gets
its own seat's view). Events carry the table version; the last ``LOG_SIZE`` events are kept so a
reconnecting client gets what it missed, else a snapshot. Who sits and who decides is
``seating``'s; the games and deals are ``gameflow``'s; the automatic moves are ``autoplay``'s;
the hub (``hub``) creates, closes and restores tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from tarot.engine import Deal

from . import protocol as p
from . import table_policy
from .autoplay import Auto, Autoplay
from .cancelvote import CancelVoting
from .chat import Room
from .eventlog import EventLog
from .game import Etui, ServerGame
from .gameflow import GameFlow, Intermission
from .hints import Hints
from .render import Renderer
from .seating import Seating, new_invite
from .seats import Client, Seat
from .settings import TableServices
from .store import FENCE, Fenced

log = logging.getLogger("tarot.server")
# About two deals: enough to catch up a short disconnection; older gaps get a snapshot, which
# holds everything. Kept small because every table's log stays in memory (and in the GC's way).
LOG_SIZE = 200
# A table's versions come in epochs: each restore starts the next one (hub.restore_table), so a
# version sent before a restart, stored or not, is below every version sent after it.
EPOCH = 1 << 32


@dataclass(frozen=True)
class Gone:
    """Internal: a connection closed."""


@dataclass(frozen=True)
class Arm:
    """Internal: the actor must wait for a new, earlier deadline (``deliver`` armed a clock)."""


@dataclass(frozen=True)
class Resume:
    """Internal: a game whose current deal is over but whose end is not stored (after a restart,
    or after the store refused it) ends it, then starts its next deal or ends the game; a pause
    between two deals whose time is up ends (``Intermission``); for any other table, nothing."""


TableMessage = (p.Join | p.Sit | p.Leave | p.AddBot | p.RemoveBot | p.SetOptions | p.NewGame | p.NextDeal
                | p.Act | p.Ping | p.CancelGame | p.CancelVote | p.Chat | p.RemoveSpectator | p.InviteFriend
                | p.Hint | Gone | Arm | Resume | Auto)


class Table:
    def __init__(self, services: TableServices, tid: str, options: p.TableOptions, host: str | None) -> None:
        self.services = services
        self.id = tid
        self.options = options
        self.host = host
        self.invite = new_invite() if options.private else None  # (seating)
        self.invited: set[str] = set()  # players who came through the invite link (private tables)
        self.intermission: Intermission | None = None  # (gameflow)
        self.seats = [Seat() for _ in range(options.players)]
        self.version = 0
        self.status = "waiting"  # waiting, playing, finished
        self.game: ServerGame | None = None
        self.games_played = 0
        self.watchers: set[Client] = set()
        self.log = EventLog(LOG_SIZE)
        self.queue: asyncio.Queue[tuple[Client | None, TableMessage]] = asyncio.Queue()
        self.queued = 0  # items put in the queue and not yet handled
        self.busy = False  # a message is being handled (by the actor, or at once by ``deliver``)
        self.idle = asyncio.Event()  # set when ``deliver`` ends: the actor may wait for it
        self.task: asyncio.Task[None] | None = None
        self.wake_at: float | None = None  # when the actor last waited to act by itself (None: never)
        self.last_result: dict[str, Any] | None = None
        self.render = Renderer(self)
        self.autoplay = Autoplay(self, services)
        self.seating = Seating(self)
        self.flow = GameFlow(self)
        self.voting = CancelVoting(self)
        self.hints = Hints(self)
        self.chat = Room(services.chat, "table", tid)
        self.removed: set[str] = set()  # spectators the host sent away (``Seating.remove_spectator``)
        # A daily challenge's table (``challenge_tables``): its deal. A duplicate table's imposed
        # deals, in the order it plays them (a challenge's, an event's).
        self.challenge: p.ChallengeDeal | None = None
        self.at_event: p.EventTable | None = None  # a duplicate event's table (``event_tables``)
        self.imposed: list[Etui] | None = None
        # In a cluster, this node's claim of the table (its id, its owner epoch): every write of
        # the table is fenced with it (``Store.fence``). None: one process, no fence.
        self.fence: tuple[str, int] | None = None

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
                self._on_deadline()
                continue
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
        """When the table must act by itself: the end of the pause between two deals, else the
        automatic move's time (``Autoplay.arm``, which starts the move due now)."""
        pause = self.intermission
        due = (None if pause.ending else pause.until) if pause is not None else self.autoplay.arm()
        vote = self.voting.deadline()
        return vote if due is None or (vote is not None and vote < due) else due

    def _on_deadline(self) -> None:
        """Whatever is due now (each part checks its own time: the earliest woke the actor)."""
        self.voting.expire()
        pause = self.intermission
        if pause is None:
            self.autoplay.on_deadline()
        elif not pause.ending and self.services.clock.now() >= pause.until:
            # (its end needs the store: the actor handles it as a message)
            pause.ending = True
            self.enqueue(None, Resume())

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
                await self._handle(client, message)
        except Fenced:  # another node claimed the table: it steps down (``Relay.claimed``)
            log.warning("table %s: a write refused, another node owns the table now", self.id)
            if client is not None:
                client.send(p.error("this table moved to another server: joining it again", "moved"))
        except Exception:  # a bug must not kill the table
            log.exception("table %s: error handling %s", self.id, type(message).__name__)
            if client is not None:
                client.send(p.error("internal error", "internal"))

    async def _handle(self, client: Client | None, message: TableMessage) -> None:
        if client is None:  # the table's own messages
            match message:
                case Auto():
                    await self.autoplay.apply(message)
                case Resume():
                    await self.flow.resume()
                case _:  # Arm: nothing to handle; ``run`` then waits for the new deadline
                    pass
            return
        # Only a connection that joined speaks to the table: one whose join was refused, one sent
        # away or sent off at the start is answered as if at no table (its ping's pong has no
        # table's version: a private table's activity is not told by its id).
        if client not in self.watchers and not isinstance(message, p.Join | p.Leave | Gone):
            client.send(p.pong() if isinstance(message, p.Ping)
                        else p.error("join the table first", "not_joined"))
            return
        # what the table's kind refuses (a hint's refusal waits for its seat's: ``Hints.refusal``)
        refused = None if isinstance(message, p.Hint) else table_policy.refusal(self, type(message))
        if refused is not None:
            client.send(refused)
            return
        match message:
            case Gone():
                await self.seating.gone(client)
            case p.Join():
                await self.seating.join(client, message)
            case p.Sit():
                await self.seating.sit(client, message)
            case p.Leave():
                await self.seating.leave(client)
            case p.AddBot():
                await self.seating.add_bot(client, message)
            case p.RemoveBot():
                await self.seating.remove_bot(client, message)
            case p.SetOptions():
                await self.seating.set_options(client, message)
            case p.NewGame():
                await self.seating.new_game(client)
            case p.NextDeal():
                await self.flow.next_deal(client)
            case p.Act():
                await self.flow.act(client, message)
            case p.CancelGame():
                await self.voting.propose(client)
            case p.CancelVote():
                await self.voting.answer(client, message.accept)
            case p.Chat():
                await self._chat(client, message)
            case p.RemoveSpectator():
                self.seating.remove_spectator(client, message.player)
            case p.InviteFriend():
                await self.seating.invite_friend(client, message.player)
            case p.Hint():
                self.hints.ask(client)
            case p.Ping():
                client.send(p.pong(self.id, self.version))
            case _:
                client.send(p.error(f"{type(message).__name__} is not a table message", "bad_request"))

    def deal(self) -> Deal | None:
        """The deal under way, if a game is being played."""
        if self.status != "playing" or self.game is None or self.game.current is None:
            return None
        return self.game.current.deal

    async def _chat(self, client: Client, msg: p.Chat) -> None:
        """A message from a seated player or a spectator, to those who may see it."""
        seat = self.seat_for(client)
        audience = "spectators" if seat < 0 and self.options.spectator_chat == "spectators" else "all"
        game = self.game.db_id if self.game is not None else None
        readers = [(c, self.seat_of(c) is None) for c in self.watchers]
        await self.chat.post(client, msg, seat, audience, game, readers)

    # --- who sits where --------------------------------------------------------------

    def seat_of(self, client: Client) -> int | None:
        for i, s in enumerate(self.seats):
            if s.player_id is not None and s.player_id == client.player_id:
                return i
        return None

    def seat_for(self, client: Client) -> int:
        """``client``'s seat, or -1 for a spectator (``Renderer.state``'s view)."""
        seat = self.seat_of(client)
        return -1 if seat is None else seat

    # --- events ------------------------------------------------------------------------

    def event(self, event: dict[str, Any], lobby: bool = False) -> None:
        """A new version, sent and not stored (nothing in the table's row changed)."""
        self.version += 1
        self.render.record(event, {})
        if lobby:
            self.services.lobby_changed(self.id)

    async def changed(self, event: dict[str, Any]) -> None:
        """A new version of the table's row (seats, host, options): stored, then sent."""
        self.version += 1
        await self.save()
        self.render.record(event, {})
        self.services.lobby_changed(self.id)

    async def save(self) -> None:
        store = self.services.store
        await store.write(store.save_table, *self.table_row(self.status))

    def table_row(self, status: str) -> tuple[Any, ...]:
        """``Store.save_table``'s arguments for this table, with ``status``."""
        options = self.options.model_dump()
        # (kept with the options, never shown with them: ``hub.restore_table`` takes them back)
        if self.challenge is not None:
            options["challenge"] = self.challenge.model_dump()
        if self.at_event is not None:
            options["event"] = self.at_event.model_dump()
        if self.imposed is not None:
            options["imposed"] = [e.to_list() for e in self.imposed]
        return (self.id, self.host, options, [s.to_dict() for s in self.seats], status, self.version,
                self.invite)
