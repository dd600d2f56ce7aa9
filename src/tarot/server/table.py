"""A table: its state, changed by one message at a time, in order.

A connection's message is handled at once in that connection's task when the table is idle;
otherwise it is queued for the table's actor task, which also runs the timers (move clock, grace
period) and the automatic moves (``Table.deliver``, ``Table.run``).

Every applied action goes to the store before it is broadcast; every recipient gets its own
seat's view (spectators: seat -1) so a client never receives a card it may not see. Events carry
the table version; the last ``LOG_SIZE`` events are kept so a reconnecting client gets what it
missed, else a snapshot.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from tarot.bots import Bot, make_bot
from tarot.bots.stand_in import StandInBot
from tarot.engine import Action, Deal, Ecart, IllegalAction, Phase, action_from_dict, action_to_dict

from . import protocol as p
from .eventlog import EventLog
from .game import DealInfo, ServerGame
from .slowlane import SlowLane

if TYPE_CHECKING:
    from .store import Job, LoadedTable, Store

log = logging.getLogger("tarot.server")
# About two deals: enough to catch up a short disconnection; older gaps get a snapshot, which
# holds everything. Kept small because every table's log stays in memory (and in the GC's way).
LOG_SIZE = 200
LOBBY_PAGE = 50  # tables per lobby message and per page of /api/tables
OPEN_TABLES_PER_PLAYER = 3  # tables a player may host at once (waiting or playing)
CREATES_PER_MINUTE = 6  # tables a player may create in any minute
STAND_IN = StandInBot.name  # plays for a player out of time or away: never takes a contract for them
ECART_TIME_FACTOR = 3  # the écart (six cards to choose) has three times the time per move
RESTART_GAP = 1000  # versions skipped at a restart: far more than a table sends unstored (restore)


class Client(Protocol):
    """A connection as the table sees it."""

    player_id: str
    name: str

    def send(self, message: dict[str, Any]) -> None:
        """``message``'s values may be ``orjson.Fragment``: JSON serialized once for many."""

    def send_text(self, text: str) -> None:
        """A message already serialized (the same for several connections)."""


@dataclass
class Settings:
    grace: float = 30.0  # seconds away before a bot plays for a seated player
    bot_delay: float = 0.6  # pause before a bot's move, so people can follow
    trick_pause: float = 1.5  # a finished trick stays on the felt this long when a person is seated
    think: float = 0.5  # search bot budget per decision
    retry: float = 2.0  # seconds before a table tries again a deal's end the store refused
    empty_table_ttl: float = 180.0  # a table not in play with nobody there closes after this long
    sweep_every: float = 30.0  # how often the hub looks for such tables


@dataclass
class Seat:
    player_id: str | None = None
    name: str = ""
    bot: str | None = None  # heuristic, search, random: a bot sits here
    conns: set[Client] = field(default_factory=set)
    away_since: float | None = None  # a human with no connection, since (monotonic)

    @property
    def empty(self) -> bool:
        return self.player_id is None and self.bot is None

    def to_dict(self) -> dict[str, Any]:
        return {"player_id": self.player_id, "name": self.name, "bot": self.bot}


def public_action(action: Action, whole: dict[str, Any]) -> dict[str, Any]:
    """What everyone may see of an action (``whole``: its ``action_to_dict``): an écart is only
    its size (its trumps are in views)."""
    return whole | {"ecart": len(action.cards)} if isinstance(action, Ecart) else whole


# A player may look at the previous trick until the current one is gathered, not at the earlier
# ones (rules booklet: « consulter la teneur du pli précédent »): views sent to clients hold the
# last completed trick only, and ``tricks_done`` counts them all. The deal's record has the play.
LAST_TRICKS = 1
RESULT_EVENTS = ("deal_end", "game_start")  # the events that change a state's ``last_result``


class Table:
    def __init__(self, hub: Hub, tid: str, options: p.TableOptions, host: str | None) -> None:
        self.hub = hub
        self.id = tid
        self.options = options
        self.host = host
        self.seats = [Seat() for _ in range(options.players)]
        self.version = 0
        self.status = "waiting"  # waiting, playing, finished
        self.game: ServerGame | None = None
        self.games_played = 0
        self.watchers: set[Client] = set()
        self.log = EventLog(LOG_SIZE)
        self.view_cache: dict[Any, Any] = {}  # Deal.view_parts's, from one event to the next
        self.own_json: dict[int, tuple[dict[str, Any], bytes]] = {}  # each seat's own view keys, serialized
        self.queue: asyncio.Queue[tuple[str, Any, Any]] = asyncio.Queue()
        self.queued = 0  # items put in the queue and not yet handled
        self.busy = False  # a message is being handled (by the actor, or at once by ``deliver``)
        self.idle = asyncio.Event()  # set when ``deliver`` ends: the actor may wait for it
        self.task: asyncio.Task[None] | None = None
        self.wake_at: float | None = None  # when the actor last waited to act by itself (None: never)
        self.bots: dict[tuple[int, str], Bot] = {}
        self.auto_tasks: set[asyncio.Task[None]] = set()
        self.turn_started = time.monotonic()  # when the current position began: the move clock
        self.auto_version = -1  # the version an automatic move was started for
        self.last_auto: dict[str, Any] | None = None
        self.last_result: dict[str, Any] | None = None

    # --- public entry points (called from connections) ---------------------------------

    def start(self) -> None:
        self.task = asyncio.create_task(self.run(), name=f"table-{self.id}")

    def submit(self, client: Client | None, message: Any) -> None:
        self._enqueue(("msg", client, message))

    def gone(self, client: Client) -> None:
        self._enqueue(("gone", client, None))

    def _enqueue(self, item: tuple[str, Any, Any]) -> None:
        self.queued += 1
        self.queue.put_nowait(item)

    async def deliver(self, client: Client, message: Any) -> None:
        """A connection's message, handled at once in the connection's task when the table is
        idle with nothing queued (the usual case: no queue and no task switch per card); else
        queued for the actor, behind what is already there."""
        if self.busy or self.queued:
            self.submit(client, message)
            return
        self.busy = True
        try:
            await self._step("msg", client, message)
        finally:
            self.busy = False
            self.idle.set()
        due = self._arm()  # (starts a bot's move) or when an automatic move falls due
        if due is not None and (self.wake_at is None or due < self.wake_at):
            # the actor waits for nothing, or for later: wake it to wait for this. A later moment
            # needs no wake: woken early, the actor finds nothing due and waits again.
            self._enqueue(("arm", None, None))

    async def stop(self) -> None:
        for t in list(self.auto_tasks):
            t.cancel()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    # --- the actor -----------------------------------------------------------------

    async def run(self) -> None:
        while True:
            deadline = self.wake_at = self._arm()
            try:
                if deadline is None:
                    kind, client, payload = await self.queue.get()
                else:
                    timeout = max(0.0, deadline - time.monotonic())
                    kind, client, payload = await asyncio.wait_for(self.queue.get(), timeout)
            except TimeoutError:
                self._on_deadline()
                continue
            while self.busy:  # a connection's message being handled at once (``deliver``)
                self.idle.clear()
                await self.idle.wait()
            self.busy = True
            try:
                await self._step(kind, client, payload)
            finally:
                self.busy = False
                self.queued -= 1

    async def _step(self, kind: str, client: Client | None, payload: Any) -> None:
        try:
            if kind == "msg":
                await self._handle(client, payload)  # type: ignore[arg-type]
            elif kind == "gone":
                await self._gone(client)  # type: ignore[arg-type]
            elif kind == "auto":
                await self._auto(*payload)
            # "arm" (from ``deliver``): nothing to handle; ``run`` then waits for the new deadline
        except Exception:  # a bug must not kill the table
            log.exception("table %s: error handling %s", self.id, kind)
            if client is not None:
                client.send(p.error("internal error", "internal"))

    # --- automatic moves: bots, players away, time out --------------------------------

    def _deal(self) -> Deal | None:
        if self.status != "playing" or self.game is None or self.game.current is None:
            return None
        return self.game.current.deal

    def _turn_owner(self) -> tuple[int, Seat] | None:
        deal = self._deal()
        if deal is None or deal.turn is None:
            return None
        return deal.turn, self.seats[deal.turn]

    def _arm(self) -> float | None:
        """Start the automatic move due now, or return when one will be due."""
        owner = self._turn_owner()
        if owner is None:
            return None
        seat_no, seat = owner
        if self.auto_version == self.version:
            return None
        if seat.bot is not None:
            self._start_auto(seat_no, seat.bot, "bot", self._bot_pause())
            return None
        now = time.monotonic()
        due: list[float] = []
        if seat.away_since is not None:
            at = seat.away_since + self.hub.settings.grace
            if at <= now:
                self._start_auto(seat_no, STAND_IN, "away", self.hub.settings.bot_delay)
                return None
            due.append(at)
        allowed = self._move_allowance()
        if allowed is not None:
            due.append(self.turn_started + allowed)
        return min(due) if due else None

    def _bot_pause(self) -> float:
        """Before a bot's move: ``bot_delay``, or ``trick_pause`` when it would gather a trick
        just finished (it leads the next one) and a person is seated to see it (bots alone don't
        wait)."""
        settings = self.hub.settings
        deal = self._deal()
        trick_done = deal is not None and deal.phase is Phase.PLAY and not deal.trick and bool(deal.tricks)
        if trick_done and any(s.player_id is not None for s in self.seats):
            return max(settings.bot_delay, settings.trick_pause)
        return settings.bot_delay

    def _move_allowance(self) -> float | None:
        """Seconds for the move under way: the table's time per move, the écart (six choices)
        ``ECART_TIME_FACTOR`` times as long; None without a clock."""
        deal = self._deal()
        if self.options.move_time is None or deal is None:
            return None
        factor = ECART_TIME_FACTOR if deal.phase is Phase.ECART else 1
        return float(self.options.move_time * factor)

    def _on_deadline(self) -> None:
        owner = self._turn_owner()
        if owner is None or self.auto_version == self.version:
            return
        seat_no, seat = owner
        now = time.monotonic()
        allowed = self._move_allowance()
        if seat.away_since is not None and seat.away_since + self.hub.settings.grace <= now:
            self._start_auto(seat_no, STAND_IN, "away", 0.0)
        elif allowed is not None and self.turn_started + allowed <= now + 0.001:
            self._start_auto(seat_no, STAND_IN, "timeout", 0.0)

    def _bot(self, seat_no: int, kind: str) -> Bot:
        bot = self.bots.get((seat_no, kind))
        if bot is None:
            opts: dict[str, Any] = {"think": self.hub.settings.think} if kind == "search" else {}
            seed = self.hub.chance.getrandbits(32)
            bot = StandInBot(seed) if kind == STAND_IN else make_bot(kind, seed=seed, **opts)
            self.bots[(seat_no, kind)] = bot
        return bot

    def _start_auto(self, seat_no: int, kind: str, why: str, delay: float) -> None:
        deal = self._deal()
        assert deal is not None
        self.auto_version = self.version
        version = self.version
        view = deal.view(seat_no)
        bot = self._bot(seat_no, kind)

        async def move() -> None:
            if delay:
                await asyncio.sleep(delay)
            try:
                action = await asyncio.to_thread(bot.act, view)
            except Exception:
                log.exception("table %s: bot %s failed; playing the first legal action", self.id, kind)
                action = view.legal[0] if view.legal else self._fallback(deal, seat_no)
            self._enqueue(("auto", None, (version, seat_no, action, why)))

        task = asyncio.create_task(move())
        self.auto_tasks.add(task)
        task.add_done_callback(self.auto_tasks.discard)

    @staticmethod
    def _fallback(deal: Deal, seat_no: int) -> Action:
        opts = deal.ecart_options()
        assert opts is not None
        return Ecart(seat_no, opts.choose())

    async def _auto(self, version: int, seat_no: int, action: Action, why: str) -> None:
        if version != self.version:
            return  # the position moved on (the player came back and played)
        try:
            await self._apply(seat_no, action, why)
        except IllegalAction:
            log.exception("table %s: automatic move refused", self.id)
            deal = self._deal()
            if deal is not None and deal.legal_actions():
                await self._apply(seat_no, deal.legal_actions()[0], why)

    # --- messages ------------------------------------------------------------------

    def seat_of(self, client: Client) -> int | None:
        for i, s in enumerate(self.seats):
            if s.player_id is not None and s.player_id == client.player_id:
                return i
        return None

    async def _handle(self, client: Client, msg: Any) -> None:
        handler: Callable[[Client, Any], Any] | None = getattr(self, f"_on_{msg.type}", None)
        if handler is None:
            client.send(p.error(f"{msg.type} is not a table message", "bad_request"))
            return
        result = handler(client, msg)
        if asyncio.iscoroutine(result):
            await result

    def _on_join(self, client: Client, msg: p.Join) -> None:
        seat = self.seat_of(client)
        if (seat is None and not self.options.spectators and self.status == "playing"
                and client.player_id != self.host):
            client.send(p.error("this table does not allow spectators", "no_spectators", table=self.id))
            return
        self.watchers.add(client)
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
                client.send({"type": "missed", "table": self.id, "since": since, "events": missed})
        client.send({"type": "snapshot", "table": self.id, "version": self.version,
                     "state": self.state(seat)})

    def _seat_for(self, client: Client) -> int:
        seat = self.seat_of(client)
        return -1 if seat is None else seat

    async def _on_sit(self, client: Client, msg: p.Sit) -> None:
        if client not in self.watchers:
            client.send(p.error("join the table first", "not_joined"))
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
        await self._changed({"kind": "sit", "seat": msg.seat, "name": client.name})
        await self._maybe_start()

    async def _on_leave(self, client: Client, _msg: p.Leave) -> None:
        seat = self.seat_of(client)
        self.watchers.discard(client)
        if seat is None:
            return
        s = self.seats[seat]
        if self.status == "playing":  # the game goes on: a bot takes the seat
            s.player_id, s.bot, s.conns, s.away_since = None, "heuristic", set(), None
            s.name = f"{s.name} (bot)"
        else:
            self.seats[seat] = Seat()
        await self._changed({"kind": "leave", "seat": seat})

    async def _on_add_bot(self, client: Client, msg: p.AddBot) -> None:
        if client not in self.watchers:
            client.send(p.error("join the table first", "not_joined"))
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
        self.status = "waiting" if self.status == "finished" else self.status
        await self._changed({"kind": "options", "options": self.options.model_dump()})

    async def _on_new_game(self, client: Client, _msg: p.NewGame) -> None:
        if not self._host_between_games(client):
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
        deal = self._deal()
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
            await self._apply(seat, action, "player")
        except IllegalAction as e:
            client.send(p.error(str(e), "illegal", rule=e.rule if hasattr(e, "rule") else None))

    async def _on_resume(self, _client: Client | None, _msg: Any) -> None:
        deal = self._deal()
        if deal is not None and deal.is_over:  # its last card was stored, its end was not
            await self._end_deal()

    def _resume_later(self) -> None:
        """Try the current deal's end again in a while: no move can come to a deal that is over,
        so nothing else would (after a restart, ``Hub.recover`` resumes it at once)."""
        asyncio.get_running_loop().call_later(self.hub.settings.retry, self.submit, None, _Resume())

    def _on_ping(self, client: Client, _msg: p.Ping) -> None:
        client.send({"type": "pong", "table": self.id, "version": self.version})

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

    # --- the game ------------------------------------------------------------------

    async def _maybe_start(self) -> None:
        if self.status == "waiting" and not any(s.empty for s in self.seats):
            await self._start_game()

    async def _start_game(self) -> None:
        n = self.options.players
        game = ServerGame(n, self.options.deals, first_dealer=self.hub.chance.randrange(n),
                          number=self.games_played + 1)
        info = game.new_deal(*self.hub.seed_and_salt())
        store = self.hub.store
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
        self._event({"kind": "game_start", "game": game.number, "deals": game.deals}, lobby=True)
        await self._deal_started(info)

    async def _deal_started(self, info: DealInfo) -> None:
        assert self.game is not None
        self.game.current = info
        self.turn_started = time.monotonic()
        self._event({"kind": "deal_start", "deal": info.number, "dealer": info.dealer,
                     "commitment": info.commitment})
        if info.deal.is_over:  # annulled at once (petit sec): _end_deal redeals or ends the game
            await self._end_deal()

    async def _apply(self, seat: int, action: Action, by: str) -> None:
        game = self.game
        assert game is not None and game.current is not None
        info = game.current
        info.deal.check(action)  # raises IllegalAction, nothing changed
        # Stored first: if the write fails the table is left exactly as it was (and nothing is sent).
        store = self.hub.store
        assert info.db_id is not None
        whole = action_to_dict(action)
        await store.add_action(info.db_id, info.actions, self.version + 1, whole, by)
        game.apply(action)
        self.version += 1
        self.turn_started = time.monotonic()  # a new position: the next move's clock starts
        event: dict[str, Any] = {"kind": "action", "seat": seat, "action": public_action(action, whole),
                                 "by": by}
        private = {seat: event | {"action": whole}} if isinstance(action, Ecart) else {}
        self._record(event, private, full=False)
        if info.deal.is_over:
            await self.hub.slow_lane.turn()  # cards received meanwhile at other tables go first
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
        store = self.hub.store
        jobs: list[Job] = [(store.finish_deal, (info.db_id, record, result))]
        following: DealInfo | None = None
        if game.is_over:
            jobs += self._game_end_jobs(game)
        else:
            following = game.new_deal(*self.hub.seed_and_salt())
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
        self._event({"kind": "deal_end", **self.last_result})
        await asyncio.sleep(0)  # in parts, so that cards arriving meanwhile wait for one part only
        if following is None:
            self._game_ended(game)
            return
        following.db_id = results[-1]
        await self._deal_started(following)

    def _game_end_jobs(self, game: ServerGame) -> list[Job]:
        store = self.hub.store
        return [(store.finish_game, (game.db_id, list(game.totals))),
                (store.set_table_status, (self.id, "finished", self.version))]

    def _game_ended(self, game: ServerGame) -> None:
        self.status = "finished"
        self._event({"kind": "game_end", "totals": list(game.totals), "ranking": game.ranking()}, lobby=True)

    # --- events and state ------------------------------------------------------------

    def _record(self, event: dict[str, Any], private: dict[int, dict[str, Any]], full: bool = True) -> None:
        """Log the event and send it to every watcher with its seat's state.

        ``full=False`` (a card, a bid: the table, the game and the last result did not change):
        the state holds only what changed, ``version``, ``you``, ``view`` and ``time_left``.
        Otherwise it holds every key but ``last_result`` (with the deal's whole record), which
        goes only with the events that change it.
        """
        public = p.encode(event)  # the same for every seat: serialized once, not once per seat
        self.log.append(self.version, public, private)
        seat_of = {s.player_id: i for i, s in enumerate(self.seats) if s.player_id is not None}
        watchers = [(c, seat_of.get(c.player_id, -1)) for c in self.watchers]
        deal = self._deal()
        views: dict[int, bytes] = {}
        if deal is not None:  # what every seat sees alike is serialized once, then each seat's own
            alike, own = deal.view_parts({seat for _, seat in watchers}, LAST_TRICKS, self.view_cache)
            head = p.object_head(alike)
            views = {seat: head + self._own_tail(seat, mine) for seat, mine in own.items()}
        # Each seat's message is put together from JSON pieces, once for all its connections:
        # {"type":"event","table":…,"version":…,"event":…,"state":{…shared…,"you":…,"view":…,
        #  "version":…,"time_left":…}}: view_state's keys (a test holds each message equal to
        # the table's state when it is sent).
        start = p.object_head({"type": "event", "table": self.id, "version": self.version}) + b'"event":'
        state = b',"state":{'
        if full:
            keep_result = event.get("kind") in RESULT_EVENTS
            state += p.object_tail(self._shared_state(keep_result))[:-1] + b","
        end = b"," + p.object_tail({"version": self.version, "time_left": self._time_left(deal)}) + b"}"
        texts: dict[int, str] = {}  # one message per seat, shared by its connections
        for c, seat in watchers:
            text = texts.get(seat)
            if text is None:
                mine = private.get(seat)
                text = texts[seat] = (
                    start + (public if mine is None else p.encode(mine)) + state
                    + b'"you":' + str(seat).encode() + b',"view":' + views.get(seat, b"null") + end).decode()
            c.send_text(text)

    def _own_tail(self, seat: int, mine: dict[str, Any]) -> bytes:
        """A seat's own view keys as JSON: serialized again only when the engine built them
        anew (``Deal.view_parts`` gives the same dict while they cannot have changed)."""
        kept = self.own_json.get(seat)
        if kept is None or kept[0] is not mine:
            kept = self.own_json[seat] = (mine, p.object_tail(mine))
        return kept[1]

    def _event(self, event: dict[str, Any], lobby: bool = False) -> None:
        self.version += 1
        self._record(event, {})
        if lobby:
            self.hub.lobby_changed()

    async def _changed(self, event: dict[str, Any]) -> None:
        self.version += 1
        await self._save_table()
        self._record(event, {})
        self.hub.lobby_changed()

    async def _save_table(self) -> None:
        store = self.hub.store
        await store.write(store.save_table, *self._table_row(self.status))

    def _table_row(self, status: str) -> tuple[Any, ...]:
        """``Store.save_table``'s arguments for this table, with ``status``."""
        return (self.id, self.host, self.options.model_dump(), [s.to_dict() for s in self.seats],
                status, self.version)

    def summary(self) -> dict[str, Any]:
        """The table as the lobby shows it."""
        return {"id": self.id, "options": self.options.model_dump(), "host": self.host,
                "status": self.status,
                "seats": [{"name": s.name or None, "bot": s.bot, "taken": not s.empty,
                           "host": s.player_id is not None and s.player_id == self.host,
                           "away": s.away_since is not None} for s in self.seats]}

    def _time_left(self, deal: Deal | None) -> float | None:
        allowed = self._move_allowance()
        if deal is None or deal.turn is None or allowed is None:
            return None
        return max(0.0, self.turn_started + allowed - time.monotonic())

    def view_state(self, seat: int) -> dict[str, Any]:
        """The part of ``state(seat)`` that a card or a bid changes (``_record`` sends the same,
        put together from JSON pieces)."""
        deal = self._deal()
        return {"you": seat, "version": self.version,
                "view": None if deal is None else deal.view_dicts([seat], LAST_TRICKS)[seat],
                "time_left": self._time_left(deal)}

    def state(self, seat: int) -> dict[str, Any]:
        """Everything ``seat`` (-1: a spectator) may know now."""
        return self._shared_state(with_result=True) | self.view_state(seat)

    def _shared_state(self, with_result: bool) -> dict[str, Any]:
        """The keys of ``state`` that every seat sees alike (``with_result=False``: without
        ``last_result``, for events that leave it unchanged); ``view_state`` has the others."""
        game = self.game
        out: dict[str, Any] = {
            "table": self.summary(),
            "game": None if game is None else {
                "number": game.number, "deals": game.deals, "played": game.played,
                "deal": game.current.number if game.current else None,
                "commitment": game.current.commitment if game.current else None,
                "dealer": game.current.dealer if game.current else None,
                "totals": list(game.totals), "sheet": game.sheet(),
                "ranking": game.ranking() if self.status == "finished" else None,
            },
        }
        if with_result:
            out["last_result"] = self.last_result
        return out

    # --- restart recovery ------------------------------------------------------------

    @classmethod
    def restore(cls, hub: Hub, loaded: LoadedTable) -> Table:
        row = loaded.row
        t = cls(hub, row.id, p.TableOptions.model_validate(row.options), row.host)
        t.seats = [Seat(player_id=s.get("player_id"), name=s.get("name", ""), bot=s.get("bot"))
                   for s in row.seats]
        now = time.monotonic()
        for s in t.seats:
            if s.player_id is not None:
                s.away_since = now  # nobody is connected yet: the grace period starts now
        t.version = row.version
        t.status = row.status
        g = loaded.game
        if g is not None:
            t.games_played = g.number
        if g is not None and g.status == "playing":
            game = ServerGame(g.players, g.deals, first_dealer=g.first_dealer, number=g.number, db_id=g.id)
            for d, acts in loaded.deals:
                info = DealInfo(d.number, d.dealer, d.seed, d.salt,
                                Deal.new(g.players, d.dealer, seed=d.seed), db_id=d.id)
                game.current = info
                for a in acts:
                    action, _ = action_from_dict(a.action)
                    game.apply(action)
                    t.version = max(t.version, a.table_version)
                # A deal over but not stored as done stopped between its last card and its end:
                # it stays current, and the table ends it as usual once resumed (``_on_resume``).
                if info.deal.is_over and d.status == "done":
                    game.close_deal()
            if game.current is None:  # a deal's end is stored with the next deal's start, or the game's end
                raise ValueError(f"game {g.id} is playing but has no deal under way")
            t.game = game
            t.status = "playing"
        # Some events are sent without being stored (a seat's presence; a game's or a deal's start
        # before its first card; a deal's end), so clients may have seen versions past the stored
        # one. The numbering jumps past them: a version seen before the restart is then older
        # than anything in the new log, and a client that comes back with it gets a snapshot, not
        # events of the new numbering taken for ones it has seen. A bound, not a proof: presence
        # is not counted (a thousand events unstored means five hundred reconnections between two
        # moves), and a snapshot always follows ``missed`` anyway.
        t.version += RESTART_GAP
        return t


class Hub:
    """All tables of this process, the store, and the lobby's watchers."""

    def __init__(self, store: Store, settings: Settings | None = None,
                 chance: random.Random | None = None) -> None:
        self.store = store
        self.settings = settings or Settings()
        # Every draw of the tables (ids, deals, who deals first, bots' seeds) comes from here:
        # the operating system's secure source; a seeded one only in tests (golden transcripts).
        self.chance = chance or secrets.SystemRandom()
        self.tables: dict[str, Table] = {}
        self.lobby: set[Client] = set()
        self._lobby_pending = False
        self.slow_lane = SlowLane()  # deal ends start one table per loop iteration
        self._created: dict[str, list[float]] = {}  # player → when it created tables, last minute
        self._empty_since: dict[str, float] = {}  # table → since when nobody is there (not in play)
        self._sweeper: asyncio.Task[None] | None = None

    async def recover(self) -> None:
        self._sweeper = asyncio.create_task(self._sweep_forever(), name="hub-sweeper")
        for loaded in await self.store.run(self.store.load_open_tables):
            try:
                table = Table.restore(self, loaded)
            except Exception:
                log.exception("cannot restore table %s", loaded.row.id)
                continue
            self.tables[table.id] = table
            table.start()
            table.submit(None, _Resume())  # ends a deal whose last card was stored but not its end

    def seed_and_salt(self) -> tuple[str, str]:
        """A deal's seed and its commitment's salt (128 bits each)."""
        return f"{self.chance.getrandbits(128):032x}", f"{self.chance.getrandbits(128):032x}"

    def refuse_create(self, player: str) -> dict[str, Any] | None:
        """The error that refuses ``player`` a new table (too many open, or too many lately)."""
        hosting = sum(1 for t in self.tables.values() if t.host == player and t.status != "finished")
        if hosting >= OPEN_TABLES_PER_PLAYER:
            return p.error(f"you already host {hosting} open tables (at most {OPEN_TABLES_PER_PLAYER})",
                           "too_many_tables")
        now = time.monotonic()
        recent = [t for t in self._created.get(player, ()) if now - t < 60]
        self._created[player] = recent
        if len(recent) >= CREATES_PER_MINUTE:
            return p.error(f"at most {CREATES_PER_MINUTE} new tables a minute: wait a little",
                           "too_many_tables", retry_after=round(60 - (now - recent[0]), 1))
        return None

    async def create(self, client: Client, options: p.TableOptions) -> Table:
        self._created.setdefault(client.player_id, []).append(time.monotonic())
        tid = f"{self.chance.getrandbits(48):012x}"
        table = Table(self, tid, options, client.player_id)
        await table._save_table()
        self.tables[tid] = table
        table.start()
        self.lobby_changed()
        return table

    def lobby_state(self, offset: int = 0, limit: int = LOBBY_PAGE) -> dict[str, Any]:
        """The public tables not finished, waiting ones first (they have seats), a page of them."""
        listed = [t for t in self.tables.values() if not t.options.private and t.status != "finished"]
        listed.sort(key=lambda t: t.status != "waiting")
        page = [t.summary() for t in listed[offset:offset + limit]]
        return {"type": "lobby", "tables": page, "total": len(listed), "offset": offset}

    def lobby_changed(self) -> None:
        if self._lobby_pending or not self.lobby:
            return
        self._lobby_pending = True

        def flush() -> None:
            self._lobby_pending = False
            msg = self.lobby_state()
            for c in list(self.lobby):
                c.send(msg)

        asyncio.get_running_loop().call_later(0.05, flush)

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        for t in self.tables.values():
            await t.stop()

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sweep_every)
            try:
                await self.sweep()
            except Exception:  # a store that refuses now may accept at the next sweep
                log.exception("sweeping empty tables failed")

    async def sweep(self) -> list[str]:
        """Close the tables not in play (waiting, or finished) where nobody has been for
        ``empty_table_ttl`` seconds: no person connected to a seat, nobody watching. Closed
        tables leave the lobby and are not reloaded at a restart. Returns their ids."""
        now = time.monotonic()
        closing = []
        for tid, table in list(self.tables.items()):
            deserted = table.status != "playing" and not table.watchers and not any(
                s.conns for s in table.seats)
            if not deserted:
                self._empty_since.pop(tid, None)
            elif now - self._empty_since.setdefault(tid, now) >= self.settings.empty_table_ttl:
                closing.append(table)
        for table in closing:
            await self.store.write_all([(self.store.set_table_status, (table.id, "closed", table.version))])
            await table.stop()
            del self.tables[table.id]
            self._empty_since.pop(table.id, None)
        if closing:
            self.lobby_changed()
        return [t.id for t in closing]


class _Resume:
    """Internal: a game whose current deal is over but whose end is not stored (after a restart,
    or after the store refused it) ends it, then starts its next deal or ends the game
    (``_end_deal``); for any other table, nothing."""

    type = "resume"
