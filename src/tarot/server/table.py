"""A table: its state, changed by one message at a time, in order.

A connection's message is handled at once in that connection's task when the table is idle;
otherwise it is queued for the table's actor task, which also runs the timers (move clock, grace
period) and the automatic moves (``Table.deliver``, ``Table.run``). The table's messages are a
typed union (``TableMessage``): the clients' (``protocol``) and its own (``Gone``, ``Arm``,
``Resume``, ``autoplay.Auto``), dispatched by ``match``.

Every applied action goes to the store before it is broadcast (``render``: every recipient gets
its own seat's view). Events carry the table version; the last ``LOG_SIZE`` events are kept so a
reconnecting client gets what it missed, else a snapshot. The automatic moves are ``autoplay``'s;
the hub (``hub``) creates, closes and restores tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tarot.engine import Action, Deal, Ecart, IllegalAction, action_from_dict, action_to_dict

from . import protocol as p
from .autoplay import Auto, Autoplay
from .eventlog import EventLog
from .game import DealInfo, ServerGame
from .render import Renderer, public_action
from .seats import Client, Seat
from .settings import TableServices

if TYPE_CHECKING:
    from .store import Job

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


@dataclass
class Intermission:
    """Between two deals while a person is seated: the result is on the felt; the next deal,
    dealt and stored, starts when every seated person present has asked for it, or at ``until``."""

    following: DealInfo
    until: float  # time.monotonic()
    ready: set[int] = field(default_factory=set)
    ending: bool = False  # its time is up and its end is queued for the actor (``Resume``)


TableMessage = (p.Join | p.Sit | p.Leave | p.AddBot | p.RemoveBot | p.SetOptions | p.NewGame | p.NextDeal
                | p.Act | p.Ping | Gone | Arm | Resume | Auto)


def new_invite() -> str:
    """A private table's secret: its invite link carries it, its address does not."""
    return secrets.token_urlsafe(12)


class Table:
    def __init__(self, services: TableServices, tid: str, options: p.TableOptions, host: str | None) -> None:
        self.services = services
        self.id = tid
        self.options = options
        self.host = host
        self.invite = new_invite() if options.private else None
        self.invited: set[str] = set()  # players who came through the invite link (private tables)
        self.intermission: Intermission | None = None
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

    # --- public entry points (called from connections) ---------------------------------

    def start(self) -> None:
        self.task = asyncio.create_task(self.run(), name=f"table-{self.id}")

    def submit(self, client: Client | None, message: TableMessage) -> None:
        self.enqueue(client, message)

    def gone(self, client: Client) -> None:
        self.enqueue(client, Gone())

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
                    timeout = max(0.0, deadline - time.monotonic())
                    client, message = await asyncio.wait_for(self.queue.get(), timeout)
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
        if pause is not None:
            return None if pause.ending else pause.until
        return self.autoplay.arm()

    def _on_deadline(self) -> None:
        pause = self.intermission
        if pause is None:
            self.autoplay.on_deadline()
        elif not pause.ending:  # (its end needs the store: the actor handles it as a message)
            pause.ending = True
            self.enqueue(None, Resume())

    async def _step(self, client: Client | None, message: TableMessage) -> None:
        try:
            await self._handle(client, message)
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
                    await self._resume()
                case _:  # Arm: nothing to handle; ``run`` then waits for the new deadline
                    pass
            return
        match message:
            case Gone():
                await self._gone(client)
            case p.Join():
                self._on_join(client, message)
            case p.Sit():
                await self._on_sit(client, message)
            case p.Leave():
                await self._on_leave(client)
            case p.AddBot():
                await self._on_add_bot(client, message)
            case p.RemoveBot():
                await self._on_remove_bot(client, message)
            case p.SetOptions():
                await self._on_set_options(client, message)
            case p.NewGame():
                await self._on_new_game(client)
            case p.NextDeal():
                await self._on_next_deal(client)
            case p.Act():
                await self._on_act(client, message)
            case p.Ping():
                client.send(p.pong(self.id, self.version))
            case _:
                client.send(p.error(f"{type(message).__name__} is not a table message", "bad_request"))

    def deal(self) -> Deal | None:
        """The deal under way, if a game is being played."""
        if self.status != "playing" or self.game is None or self.game.current is None:
            return None
        return self.game.current.deal

    # --- messages ------------------------------------------------------------------

    def seat_of(self, client: Client) -> int | None:
        for i, s in enumerate(self.seats):
            if s.player_id is not None and s.player_id == client.player_id:
                return i
        return None

    def _on_join(self, client: Client, msg: p.Join) -> None:
        seat = self.seat_of(client)
        if self.invite is not None and msg.invite == self.invite:
            self.invited.add(client.player_id)
        if seat is None and client.player_id != self.host and not self.options.spectators and (
                self.status == "playing" or not self.may_sit(client)):
            client.send(p.error("this table does not allow spectators", "no_spectators", table=self.id))
            return
        self.watchers.add(client)
        self._send_invite(client)
        if seat is not None:
            s = self.seats[seat]
            s.conns.add(client)
            if s.away_since is not None:
                s.away_since = None
                self._event({"kind": "presence", "seat": seat, "away": False}, lobby=False)
        self._catch_up(client, msg.since)

    def _catch_up(self, client: Client, since: int | None) -> None:
        seat = self._seat_for(client)
        if since is not None and since <= self.version:
            missed = [] if since == self.version else self.log.since(since, seat)
            if missed is not None:
                client.send(p.missed(self.id, since, missed))
        client.send(p.snapshot(self.id, self.version, self.render.state(seat)))

    def _seat_for(self, client: Client) -> int:
        seat = self.seat_of(client)
        return -1 if seat is None else seat

    def _send_invite(self, client: Client) -> None:
        """A private table's invite to its host and seated players (never to spectators)."""
        if self.invite is not None and (client.player_id == self.host or self.seat_of(client) is not None):
            client.send(p.invite(self.id, self.invite))

    def may_sit(self, client: Client) -> bool:
        """A private table seats only its host and those who came through its invite link."""
        return self.invite is None or client.player_id == self.host or client.player_id in self.invited

    async def _on_sit(self, client: Client, msg: p.Sit) -> None:
        if client not in self.watchers:
            client.send(p.error("join the table first", "not_joined"))
            return
        if not self.may_sit(client):
            client.send(p.error("this private table seats only those who have its invite link",
                                "invite_only"))
            return
        if self.seat_of(client) is not None:
            client.send(p.error("you already sit at this table", "seated"))
            return
        if msg.seat >= len(self.seats) or not self.seats[msg.seat].empty:
            client.send(p.error(f"seat {msg.seat} is not free", "seat_taken"))
            return
        s = self.seats[msg.seat]
        s.player_id, s.name, s.bot, s.away_since = client.player_id, client.name, None, None
        s.conns = {client}
        if self.host is None:
            self.host = client.player_id
        self._send_invite(client)
        await self._changed({"kind": "sit", "seat": msg.seat, "name": client.name})
        await self._maybe_start()

    async def _on_leave(self, client: Client) -> None:
        seat = self.seat_of(client)
        self.watchers.discard(client)
        if seat is None:
            return
        s = self.seats[seat]
        if self.status == "playing":  # the game goes on: a bot takes the seat, under the player's name
            s.player_id, s.bot, s.conns, s.away_since = None, "heuristic", set(), None
        else:
            self.seats[seat] = Seat()
        if client.player_id == self.host:
            self._pass_host(seat)
        await self._changed({"kind": "leave", "seat": seat})
        await self._maybe_next_deal()

    def _pass_host(self, seat: int) -> None:
        """The host left: the next seated person (in the order of play) hosts; with nobody else
        seated, the host stays (it may come back to watch its bots, or sit again)."""
        n = len(self.seats)
        after = [self.seats[(seat + k) % n] for k in range(1, n)]
        self.host = next((s.player_id for s in after if s.player_id is not None), self.host)

    async def _on_add_bot(self, client: Client, msg: p.AddBot) -> None:
        if client.player_id != self.host:
            client.send(p.error("only the host may do this", "not_host"))
            return
        if msg.seat >= len(self.seats) or not self.seats[msg.seat].empty:
            client.send(p.error(f"seat {msg.seat} is not free", "seat_taken"))
            return
        self.seats[msg.seat] = Seat(bot=msg.bot, name=f"{msg.bot.capitalize()} {msg.seat + 1}")
        await self._changed({"kind": "add_bot", "seat": msg.seat, "bot": msg.bot})
        await self._maybe_start()

    async def _on_remove_bot(self, client: Client, msg: p.RemoveBot) -> None:
        if not self._host_between_games(client):
            return
        if msg.seat >= len(self.seats) or self.seats[msg.seat].bot is None:
            client.send(p.error(f"no bot at seat {msg.seat}", "no_bot"))
            return
        self.seats[msg.seat] = Seat()
        await self._changed({"kind": "remove_bot", "seat": msg.seat})

    def _host_between_games(self, client: Client) -> bool:
        if client.player_id != self.host:
            client.send(p.error("only the host may do this", "not_host"))
            return False
        if self.status == "playing":
            client.send(p.error("only between games", "game_running"))
            return False
        return True

    async def _on_set_options(self, client: Client, msg: p.SetOptions) -> None:
        if not self._host_between_games(client):
            return
        n = msg.options.players
        if n < len(self.seats):
            for seat in self.seats[n:]:
                for c in seat.conns:
                    c.send(p.error("the host made the table smaller: your seat is gone", "seat_removed"))
            self.seats = self.seats[:n]
        else:
            self.seats += [Seat() for _ in range(n - len(self.seats))]
        self.options = msg.options
        if self.options.private and self.invite is None:
            self.invite = new_invite()
            for c in self.watchers:
                self._send_invite(c)
        self.status = "waiting" if self.status == "finished" else self.status
        await self._changed({"kind": "options", "options": self.options.model_dump()})

    async def _on_new_game(self, client: Client) -> None:
        """The host, or after a game any seated player (a rematch, the same seats)."""
        if self.status == "playing":
            client.send(p.error("only between games", "game_running"))
            return
        rematch = self.status == "finished" and self.seat_of(client) is not None
        if not rematch and client.player_id != self.host:
            client.send(p.error("only the host may do this", "not_host"))
            return
        if any(s.empty for s in self.seats):
            client.send(p.error("every seat must be taken", "seats_free"))
            return
        await self._start_game()

    async def _on_act(self, client: Client, msg: p.Act) -> None:
        seat = self.seat_of(client)
        if seat is None:
            client.send(p.error("you do not sit at this table", "not_seated"))
            return
        deal = self.deal()
        if deal is None:
            client.send(p.error("no deal is being played", "no_deal"))
            return
        obj = dict(msg.action)
        obj.setdefault("seat", seat)
        try:
            action, extra = action_from_dict(obj)
        except ValueError as e:
            client.send(p.error(str(e), "bad_action"))
            return
        if extra:
            client.send(p.error(f"unknown action keys: {', '.join(sorted(extra))}", "bad_action"))
            return
        if action.seat != seat:
            client.send(p.error(f"you sit at seat {seat}, not {action.seat}", "wrong_seat"))
            return
        try:
            await self.apply(seat, action, "player")
        except IllegalAction as e:
            client.send(p.error(str(e), "illegal", rule=e.rule, why=e.why, args=e.args_))

    async def _on_next_deal(self, client: Client) -> None:
        seat = self.seat_of(client)
        pause = self.intermission
        if seat is None or pause is None or seat in pause.ready:
            return  # (a late or repeated click: nothing to do, nothing to say)
        pause.ready.add(seat)
        self._event({"kind": "ready", "seat": seat})
        await self._maybe_next_deal()

    async def _maybe_next_deal(self) -> None:
        """End the pause between two deals once every seated person present is ready, or its
        time is up."""
        pause = self.intermission
        if pause is None:
            return
        if self._present() <= pause.ready or time.monotonic() >= pause.until:
            self.intermission = None
            await self._deal_started(pause.following)

    def _present(self) -> set[int]:
        """The seats of the people seated and connected."""
        return {i for i, s in enumerate(self.seats) if s.person and s.away_since is None}

    def next_deal_state(self) -> dict[str, Any] | None:
        pause = self.intermission
        if pause is None:
            return None
        # whole seconds, rounded up: enough for a countdown, and the same in every run of a test
        left = math.ceil(max(0.0, pause.until - time.monotonic()))
        return {"ready": sorted(pause.ready), "time_left": left}

    async def _resume(self) -> None:
        if self.intermission is not None:
            await self._maybe_next_deal()
            return
        deal = self.deal()
        if deal is not None and deal.is_over:  # its last card was stored, its end was not
            await self._end_deal()

    def _resume_later(self) -> None:
        """Try the current deal's end again in a while: no move can come to a deal that is over,
        so nothing else would (after a restart, ``Hub.recover`` resumes it at once)."""
        asyncio.get_running_loop().call_later(self.services.settings.retry, self.enqueue, None, Resume())

    async def _gone(self, client: Client) -> None:
        self.watchers.discard(client)
        seat = self.seat_of(client)
        if seat is None:
            return
        s = self.seats[seat]
        s.conns.discard(client)
        if not s.conns and s.away_since is None:
            s.away_since = time.monotonic()
            self._event({"kind": "presence", "seat": seat, "away": True}, lobby=False)
            await self._maybe_next_deal()

    # --- the game ------------------------------------------------------------------

    async def _maybe_start(self) -> None:
        if self.status == "waiting" and not any(s.empty for s in self.seats):
            await self._start_game()

    async def _start_game(self) -> None:
        n = self.options.players
        game = ServerGame(n, self.options.deals, first_dealer=self.services.chance.randrange(n),
                          number=self.games_played + 1)
        info = game.new_deal(*self.services.seed_and_salt())
        store = self.services.store
        # The game, its first deal and the table now playing in one write: when many tables
        # start together, each waits for one transaction, not three in a row.
        game.db_id, info.db_id = await store.write(
            store.begin_game, self._table_row("playing"),
            (self.id, game.number, n, game.deals, game.first_dealer),
            (info.number, info.dealer, info.seed, info.salt, info.commitment))
        self.games_played = game.number  # only once stored: a start that failed counts no game
        self.game = game
        self.status = "playing"
        self.last_result = None
        self._send_off_watchers()
        self._event({"kind": "game_start", "game": game.number, "deals": game.deals}, lobby=True)
        await self._deal_started(info)

    def _send_off_watchers(self) -> None:
        """At a table without spectators, who looked at it waiting (to sit) and did not sit goes
        back to the lobby when the game starts (as a join during the game is refused); the host
        may always watch its own table."""
        if self.options.spectators:
            return
        for client in [c for c in self.watchers if self.seat_of(c) is None and c.player_id != self.host]:
            self.watchers.discard(client)
            client.send(p.error("the game has started, and this table does not allow spectators",
                                "no_spectators", table=self.id))

    async def _deal_started(self, info: DealInfo) -> None:
        assert self.game is not None
        self.game.current = info
        self.autoplay.new_position()
        self._event({"kind": "deal_start", "deal": info.number, "dealer": info.dealer,
                     "commitment": info.commitment})
        if info.deal.is_over:  # annulled at once (petit sec): _end_deal redeals or ends the game
            await self._end_deal()

    async def apply(self, seat: int, action: Action, by: str) -> None:
        game = self.game
        assert game is not None and game.current is not None
        info = game.current
        info.deal.check(action)  # raises IllegalAction, nothing changed
        # Stored first: if the write fails the table is left exactly as it was (and nothing is sent).
        store = self.services.store
        assert info.db_id is not None
        whole = action_to_dict(action)
        await store.add_action(info.db_id, info.actions, self.version + 1, whole, by)
        game.apply(action)
        self.version += 1
        self.autoplay.new_position()  # a new position: the next move's clock starts
        event: dict[str, Any] = {"kind": "action", "seat": seat, "action": public_action(action, whole),
                                 "by": by}
        private = {seat: event | {"action": whole}} if isinstance(action, Ecart) else {}
        self.render.record(event, private, full=False)
        if info.deal.is_over:
            await self.services.slow_lane.turn()  # cards received meanwhile at other tables go first
            await self._end_deal()

    async def _end_deal(self) -> None:
        """Close the finished deal; start the next or end the game.

        One store transaction for it all (the deal's record, and the next deal or the game's
        end): at a busy server, many tables end a deal at the same moment."""
        game = self.game
        assert game is not None and game.current is not None
        info: DealInfo = game.current
        row, record_dict, result = game.close_deal()
        record = p.serialized(record_dict)  # stored, in the event and in ``last_result``: once
        store = self.services.store
        jobs: list[Job] = [(store.finish_deal, (info.db_id, record, result))]
        following: DealInfo | None = None
        if game.is_over:
            jobs += self._game_end_jobs(game)
        else:
            following = game.new_deal(*self.services.seed_and_salt())
            jobs += [(store.game_totals, (game.db_id, list(game.totals))),
                     (store.start_deal, (game.db_id, following.number, following.dealer,
                                         following.seed, following.salt, following.commitment))]
        try:
            results = await store.write_all(jobs)
        except BaseException:  # not stored: the deal stays current and over, to be ended again
            game.reopen_deal(info)
            self._resume_later()
            raise
        self.last_result = {"deal": info.number, "result": result, "row": row.to_dict(),
                            "seed": info.seed, "salt": info.salt, "commitment": info.commitment,
                            "record": record}
        wait = self.services.settings.next_deal_wait
        if following is not None:
            following.db_id = results[-1]
            if wait > 0 and self._present():
                self.intermission = Intermission(following, time.monotonic() + wait)
        self._event({"kind": "deal_end", **self.last_result})
        await asyncio.sleep(0)  # in parts, so that cards arriving meanwhile wait for one part only
        if following is None:
            self._game_ended(game)
        elif self.intermission is None:
            await self._deal_started(following)

    def _game_end_jobs(self, game: ServerGame) -> list[Job]:
        store = self.services.store
        return [(store.finish_game, (game.db_id, list(game.totals))),
                (store.set_table_status, (self.id, "finished", self.version))]

    def abandon_jobs(self) -> list[Job]:
        """The writes that close this table, its game (if one is in play) abandoned."""
        store = self.services.store
        game = self.game if self.status == "playing" else None
        abandoned: list[Job] = [(store.abandon_game, (game.db_id,))] if game is not None else []
        return [*abandoned, (store.set_table_status, (self.id, "closed", self.version))]

    def _game_ended(self, game: ServerGame) -> None:
        self.status = "finished"
        self._event({"kind": "game_end", "totals": list(game.totals), "ranking": game.ranking()}, lobby=True)

    # --- events ------------------------------------------------------------------------

    def _event(self, event: dict[str, Any], lobby: bool = False) -> None:
        self.version += 1
        self.render.record(event, {})
        if lobby:
            self.services.lobby_changed(self.id)

    async def _changed(self, event: dict[str, Any]) -> None:
        self.version += 1
        await self.save()
        self.render.record(event, {})
        self.services.lobby_changed(self.id)

    async def save(self) -> None:
        store = self.services.store
        await store.write(store.save_table, *self._table_row(self.status))

    def _table_row(self, status: str) -> tuple[Any, ...]:
        """``Store.save_table``'s arguments for this table, with ``status``."""
        return (self.id, self.host, self.options.model_dump(), [s.to_dict() for s in self.seats],
                status, self.version, self.invite)
