"""A table's games: starting one, each action stored then sent, a deal's end (the next deal, the
pause between two deals, or the game's end) and what closes a game left in play. The table's
state stays on ``Table``; ``Table._handle`` brings the players' moves here."""

from __future__ import annotations

import asyncio
import logging
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tarot.engine import Action, Bid, Ecart, IllegalAction, Phase, action_from_dict, action_to_dict

from . import challenge, competition, event_results, events, players
from . import protocol as p
from .game import DealInfo, ServerGame
from .players import NotEnoughChips
from .render import public_action
from .seats import Client

if TYPE_CHECKING:
    from .store import Job
    from .table import Table

log = logging.getLogger("tarot.server")


@dataclass
class Intermission:
    """Between two deals while a person is seated: the result is on the felt; the next deal,
    dealt and stored, starts when every seated person present has asked for it, or at ``until``."""

    following: DealInfo
    until: float  # the clock's now()
    ready: set[int] = field(default_factory=set)
    ending: bool = False  # its time is up and its end is queued for the actor (``Resume``)


class GameFlow:
    def __init__(self, table: Table) -> None:
        self.table = table

    # --- a game's start ----------------------------------------------------------------

    async def maybe_start(self) -> None:
        t = self.table
        if t.status == "waiting" and not any(s.empty for s in t.seats):
            await self.start_game()

    async def start_game(self) -> None:
        t = self.table
        n = t.options.players
        etuis = t.imposed
        first = etuis[0].dealer if etuis else t.services.chance.randrange(n)
        game = ServerGame(n, t.options.deals, first_dealer=first, number=t.games_played + 1,
                          etuis=tuple(etuis or ()))
        info = game.new_deal(*(() if etuis else t.services.seed_and_salt()))
        store = t.services.store
        # The game, its first deal and the table now playing in one write: when many tables
        # start together, each waits for one transaction, not three in a row.
        rows = (t.table_row("playing"), (t.id, game.number, n, game.deals, game.first_dealer),
                (info.number, info.dealer, info.seed, info.salt, info.commitment))
        if not t.options.competitive:
            game.db_id, info.db_id = await store.write(store.begin_game, *rows)
            # who plays it (the players' history), in a write of its own: a practice game's
            # start keeps its place in the grouped writes of many tables starting together.
            # The game is under way: a history that cannot be written does not stop it.
            try:
                await store.write(competition.enter, game.db_id, self._entrants())
            except Exception:
                log.exception("table %s: who plays game %s not stored", t.id, game.db_id)
        else:
            game.competitive = True
            try:
                game.db_id, info.db_id = await store.write(
                    competition.begin, store, *rows, self._entrants(), t.options.stake, self.counts())
            except NotEnoughChips as e:
                name = next((s.name for s in t.seats if s.player_id == e.player_id), "?")
                for c in t.watchers:
                    c.send(p.error(f"{name} has not enough chips for the stake: the game cannot start",
                                   "not_enough_chips", name=name, stake=t.options.stake))
                return
        t.games_played = game.number  # only once stored: a start that failed counts no game
        t.game = game
        t.status = "playing"
        t.last_result = None
        t.seating.send_off_watchers()
        t.event({"kind": "game_start", "game": game.number, "deals": game.deals}, lobby=True)
        await self.deal_started(info)

    def _entrants(self) -> list[competition.Entrant]:
        think = self.table.services.settings.think
        return [competition.Entrant(s.player_id) if s.player_id is not None
                else competition.Entrant(None, players.bot_identity(s.bot or "heuristic", think))
                for s in self.table.seats]

    def counts(self) -> bool:
        """A competitive game counts unless two people seated share an address."""
        addresses = [s.address for s in self.table.seats if s.person]
        return len(addresses) == len(set(addresses))

    async def left_game(self, seat: int) -> None:
        """A person left the game in play (a bot plays on for the seat): in a competitive game,
        ranked last, whatever the totals."""
        game = self.table.game
        if game is not None and game.competitive and game.db_id is not None:
            await self.table.services.store.write(competition.mark_left, game.db_id, seat)

    async def deal_started(self, info: DealInfo) -> None:
        t = self.table
        assert t.game is not None
        t.game.current = info
        t.autoplay.new_position()
        t.event({"kind": "deal_start", "deal": info.number, "dealer": info.dealer,
                 "commitment": info.commitment})
        if info.deal.is_over:  # annulled at once (petit sec): end_deal redeals or ends the game
            await self.end_deal()
        else:
            await self.impose_bids()

    async def impose_bids(self) -> None:
        """At an event in the FFT's imposed-taker form, the bids are the table's: the imposed
        taker bids the imposed contract (``events.imposed_contract``), everybody else passes, at
        once (each bid stored and sent as any move, ``by`` "imposed")."""
        t = self.table
        deal = t.deal()
        if t.at_event is None or not t.at_event.imposed_taker or deal is None:
            return
        taker, contract = events.imposed_contract(deal)
        while deal.phase is Phase.BIDDING and deal.turn is not None:
            seat = deal.turn
            await self.apply(seat, Bid(seat, contract if seat == taker else None), "imposed")

    # --- actions -----------------------------------------------------------------------

    async def act(self, client: Client, msg: p.Act) -> None:
        """A player's action: checked against its seat, then applied (or refused, with why)."""
        t = self.table
        seat = t.seat_of(client)
        if seat is None:
            client.send(p.error("you do not sit at this table", "not_seated"))
            return
        if t.deal() is None:
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

    async def apply(self, seat: int, action: Action, by: str) -> None:
        t = self.table
        game = t.game
        assert game is not None and game.current is not None
        info = game.current
        info.deal.check(action)  # raises IllegalAction, nothing changed
        # Stored first: if the write fails the table is left exactly as it was (and nothing is sent).
        store = t.services.store
        assert info.db_id is not None
        whole = action_to_dict(action)
        await store.add_action(info.db_id, info.actions, t.version + 1, whole, by)
        game.apply(action)
        t.version += 1
        t.autoplay.new_position()  # a new position: the next move's clock starts
        event: dict[str, Any] = {"kind": "action", "seat": seat, "action": public_action(action, whole),
                                 "by": by}
        private = {seat: event | {"action": whole}} if isinstance(action, Ecart) else {}
        t.render.record(event, private, full=False)
        if info.deal.is_over:
            await t.services.slow_lane.turn()  # cards received meanwhile at other tables go first
            await self.end_deal()

    # --- a deal's end --------------------------------------------------------------------

    async def end_deal(self) -> None:
        """Close the finished deal; start the next or end the game.

        One store transaction for it all (the deal's record, and the next deal or the game's
        end): at a busy server, many tables end a deal at the same moment."""
        t = self.table
        game = t.game
        assert game is not None and game.current is not None
        info: DealInfo = game.current
        row, record_dict, result = game.close_deal()
        record = p.serialized(record_dict)  # stored, in the event and in ``last_result``: once
        store = t.services.store
        jobs: list[Job] = [(store.finish_deal, (info.db_id, record, result))]
        if t.at_event is not None:  # the event's results: who held each seat, and the scores
            ev = t.at_event
            jobs.append((event_results.record_deal,
                         (ev.id, ev.table - 1, info.etui, game.db_id, list(ev.seats), result)))
        following: DealInfo | None = None
        if game.is_over:
            jobs += self._game_end_jobs(game, result)
        else:
            following = game.new_deal(*(() if game.etuis else t.services.seed_and_salt()))
            jobs += [(store.game_totals, (game.db_id, list(game.totals))),
                     (store.start_deal, (game.db_id, following.number, following.dealer,
                                         following.seed, following.salt, following.commitment))]
        try:
            results = await store.write_all(jobs)
        except BaseException:  # not stored: the deal stays current and over, to be ended again
            game.reopen_deal(info)
            self._resume_later()
            raise
        t.last_result = {"deal": info.number, "result": result, "row": row.to_dict(),
                         "seed": info.seed, "salt": info.salt, "commitment": info.commitment,
                         "record": record}
        wait = t.services.settings.next_deal_wait
        if following is not None:
            following.db_id = results[-1]
            if wait > 0 and self.present():
                t.intermission = Intermission(following, t.services.clock.now() + wait)
        t.event({"kind": "deal_end", **t.last_result})
        await asyncio.sleep(0)  # in parts, so that cards arriving meanwhile wait for one part only
        if following is None:
            self._game_ended(game, results[-1] if game.competitive else None)
        elif t.intermission is None:
            await self.deal_started(following)

    def _game_end_jobs(self, game: ServerGame, last: dict[str, Any]) -> list[Job]:
        """The game's end; for a competitive game, its ratings, chips and XP last (in the same
        transaction: its result is the event's ``outcome``)."""
        t = self.table
        store = t.services.store
        jobs: list[Job] = [(store.finish_game, (game.db_id, list(game.totals))),
                           (store.set_table_status, (t.id, "finished", t.version))]
        if t.at_event is not None:  # the last table done ends the event
            jobs.append((event_results.table_done, (t.at_event.id,)))
        if t.challenge is not None:  # the seat's score, for the challenge's results
            jobs.append((challenge.finish, (t.id, game.db_id, game.totals[challenge.SEAT], last)))
        if game.competitive:
            # who went away and was still away at the end, past the grace (a bot played for them)
            # did not come back before the game's end: ranked last, as who left
            now, grace = t.services.clock.now(), t.services.settings.grace
            gone = tuple(i for i, s in enumerate(t.seats)
                         if s.person and s.away_since is not None and now - s.away_since >= grace)
            jobs.append((competition.finish, (game.db_id, game.deals, list(game.totals), last, gone)))
        return jobs

    def _game_ended(self, game: ServerGame, outcome: list[dict[str, Any]] | None) -> None:
        t = self.table
        t.status = "finished"
        t.voting.drop()
        game.outcome = outcome
        event = {"kind": "game_end", "totals": list(game.totals), "ranking": game.ranking()}
        if outcome is not None:
            event["outcome"] = outcome
        t.event(event, lobby=True)

    def abandon_jobs(self) -> list[Job]:
        """The writes that close this table, its game (if one is in play) abandoned."""
        t = self.table
        store = t.services.store
        game = t.game if t.status == "playing" else None
        abandoned: list[Job] = [(store.abandon_game, (game.db_id,))] if game is not None else []
        return [*abandoned, (store.set_table_status, (t.id, "closed", t.version))]

    # --- the pause between two deals -------------------------------------------------------

    async def next_deal(self, client: Client) -> None:
        t = self.table
        seat = t.seat_of(client)
        pause = t.intermission
        if seat is None or pause is None or seat in pause.ready:
            return  # (a late or repeated click: nothing to do, nothing to say)
        pause.ready.add(seat)
        t.event({"kind": "ready", "seat": seat})
        await self.maybe_next_deal()

    async def maybe_next_deal(self) -> None:
        """End the pause between two deals once every seated person present is ready, or its
        time is up."""
        t = self.table
        pause = t.intermission
        if pause is None:
            return
        if self.present() <= pause.ready or t.services.clock.now() >= pause.until:
            t.intermission = None
            await self.deal_started(pause.following)

    def present(self) -> set[int]:
        """The seats of the people seated and connected."""
        return {i for i, s in enumerate(self.table.seats) if s.person and s.away_since is None}

    def next_deal_state(self) -> dict[str, Any] | None:
        pause = self.table.intermission
        if pause is None:
            return None
        # whole seconds, rounded up: enough for a countdown, and the same in every run of a test
        left = math.ceil(max(0.0, pause.until - self.table.services.clock.now()))
        return {"ready": sorted(pause.ready), "time_left": left}

    async def resume(self) -> None:
        """A game whose current deal is over but whose end is not stored ends it; a pause whose
        time is up ends."""
        t = self.table
        if t.intermission is not None:
            await self.maybe_next_deal()
            return
        deal = t.deal()
        if deal is not None and deal.is_over:  # its last card was stored, its end was not
            await self.end_deal()
        else:
            await self.impose_bids()  # (a restart in the middle of the imposed bids)

    def _resume_later(self) -> None:
        """Try the current deal's end again in a while: no move can come to a deal that is over,
        so nothing else would (after a restart, ``Hub.recover`` resumes it at once)."""
        t = self.table
        t.services.clock.call_later(t.services.settings.retry, t.enqueue_resume)
