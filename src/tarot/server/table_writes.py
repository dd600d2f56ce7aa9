"""What each table event writes, before anyone hears of it (the table's actor calls ``write``
before it applies the event, and ``save_row`` after a row event; a write that fails leaves
the table as it was, and nothing is sent).

One transaction per event: at a busy server many tables start games and end deals together,
so each waits for one write, not several in a row.
"""

from __future__ import annotations

import logging
from typing import Any

from . import challenge, competition, event_results, players
from . import protocol as p
from . import table_events as ev
from .game import ServerGame
from .players import NotEnoughChips
from .settings import TableServices
from .store import Job
from .table_state import TableState

log = logging.getLogger("tarot.server")


class Refused(Exception):
    """The store refused the event for a reason every watcher is told (``error``)."""

    def __init__(self, error: dict[str, Any]) -> None:
        super().__init__(error["reason"])
        self.error = error


async def write(services: TableServices, state: TableState, event: ev.TableEvent) -> Any:
    """Store ``event``'s part (what it gives back goes to ``TableState.apply``)."""
    store = services.store
    match event:
        case ev.GameStarted():
            return await _begin_game(services, state, event)
        case ev.ActionPlayed():
            info = state.game.current if state.game is not None else None
            assert info is not None and info.db_id is not None
            await store.add_action(info.db_id, info.actions, state.version + 1, event.whole(), event.by)
        case ev.DealEnded():
            results = await store.write_all(_deal_end_jobs(services, state, event))
            game = state.game
            assert game is not None
            if event.over:  # a competitive game's outcome, else nothing
                return results[-1] if game.competitive else None
            return results[-1]  # the next deal's id
        case ev.GameCancelled():
            assert state.game is not None
            await store.write_all([(competition.cancel, (state.game.db_id,)),
                                   (store.set_table_status, (state.id, "finished", state.version))])
        case ev.Left(robot=True):
            # in a competitive game, who leaves is ranked last, whatever the totals
            game = state.game
            if game is not None and game.competitive and game.db_id is not None:
                await store.write(competition.mark_left, game.db_id, event.seat)
    return None


async def save_row(services: TableServices, state: TableState) -> None:
    """The table's row as it is now (after a row event: seats, host, options)."""
    store = services.store
    await store.write(store.save_table, *state.row())


def entrants(services: TableServices, state: TableState) -> list[competition.Entrant]:
    think = services.settings.think
    return [competition.Entrant(s.player_id) if s.player_id is not None
            else competition.Entrant(None, players.bot_identity(s.bot or "heuristic", think))
            for s in state.seats]


def counts(state: TableState) -> bool:
    """A competitive game counts unless two people seated share an address."""
    addresses = [s.address for s in state.seats if s.person]
    return len(addresses) == len(set(addresses))


async def _begin_game(services: TableServices, state: TableState, event: ev.GameStarted) -> tuple[int, int]:
    """The game, its first deal and the table now playing, in one write; then who plays it."""
    game, info = event.game, event.first
    store = services.store
    rows = (state.row("playing"), (state.id, game.number, game.players, game.deals, game.first_dealer),
            (info.number, info.dealer, info.seed, info.salt, info.commitment))
    if not game.competitive:
        game_id, deal_id = await store.write(store.begin_game, *rows)
        # who plays it (the players' history), in a write of its own: a practice game's start
        # keeps its place in the grouped writes of many tables starting together. The game is
        # under way: a history that cannot be written does not stop it.
        try:
            await store.write(competition.enter, game_id, entrants(services, state))
        except Exception:
            log.exception("table %s: who plays game %s not stored", state.id, game_id)
        return game_id, deal_id
    try:
        game_id, deal_id = await store.write(competition.begin, store, *rows, entrants(services, state),
                                             state.options.stake, counts(state))
    except NotEnoughChips as e:
        name = next((s.name for s in state.seats if s.player_id == e.player_id), "?")
        raise Refused(p.error(f"{name} has not enough chips for the stake: the game cannot start",
                              "not_enough_chips", name=name, stake=state.options.stake)) from e
    return game_id, deal_id


def _deal_end_jobs(services: TableServices, state: TableState, event: ev.DealEnded) -> list[Job]:
    """The deal's record, and the next deal or the game's end (for a competitive game its
    ratings, chips and XP last: its result is the outcome)."""
    game = state.game
    assert game is not None and game.current is not None
    store = services.store
    info, result = game.current, event.last_result["result"]
    jobs: list[Job] = [(store.finish_deal, (info.db_id, event.last_result["record"], result))]
    if state.at_event is not None:  # the event's results: who held each seat, and the scores
        at = state.at_event
        jobs.append((event_results.record_deal,
                     (at.id, at.table - 1, info.etui, game.db_id, list(at.seats), result)))
    if event.over:
        return jobs + _game_end_jobs(services, state, game, event)
    following = event.following
    assert following is not None
    totals = list(event.last_result["row"]["totals"])
    return jobs + [(store.game_totals, (game.db_id, totals)),
                   (store.start_deal, (game.db_id, following.number, following.dealer,
                                       following.seed, following.salt, following.commitment))]


def _game_end_jobs(services: TableServices, state: TableState, game: ServerGame,
                   event: ev.DealEnded) -> list[Job]:
    store = services.store
    totals = list(event.last_result["row"]["totals"])
    last = event.last_result["result"]
    jobs: list[Job] = [(store.finish_game, (game.db_id, totals)),
                       (store.set_table_status, (state.id, "finished", state.version))]
    if state.at_event is not None:  # the last table done ends the event
        jobs.append((event_results.table_done, (state.at_event.id,)))
    if state.challenge is not None:  # the seat's score, for the challenge's results
        jobs.append((challenge.finish, (state.id, game.db_id, totals[challenge.SEAT], last)))
    if game.competitive:
        # who went away and was still away at the end, past the grace (a bot played for them)
        # did not come back before the game's end: ranked last, as who left
        now, grace = services.clock.now(), services.settings.grace
        gone = tuple(i for i, s in enumerate(state.seats)
                     if s.person and s.away_since is not None and now - s.away_since >= grace)
        jobs.append((competition.finish, (game.db_id, game.deals, totals, last, gone)))
    return jobs


def abandon_jobs(services: TableServices, state: TableState) -> list[Job]:
    """The writes that close this table, its game (if one is in play) abandoned."""
    store = services.store
    game = state.game if state.status == "playing" else None
    abandoned: list[Job] = [(store.abandon_game, (game.db_id,))] if game is not None else []
    return [*abandoned, (store.set_table_status, (state.id, "closed", state.version))]
