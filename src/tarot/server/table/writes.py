"""What each table event writes, before anyone hears of it (the table's actor calls ``write``
before it applies the event, and ``save_row`` after a row event; a write that fails leaves
the table as it was, and nothing is sent). What a kind of table writes besides (a competitive
game's stakes and ratings, a challenge's score, a tournament's results) is its kind's
(``kinds``).

One transaction per event: at a busy server many tables start games and end deals together,
so each waits for one write, not several in a row.
"""

from __future__ import annotations

from typing import Any

from ..settings import TableServices
from ..store.rows import Job
from . import events as ev
from .kinds import kind_of
from .state import TableState


async def write(services: TableServices, state: TableState, event: ev.TableEvent) -> Any:
    """Store ``event``'s part (what it gives back goes to ``TableState.apply``)."""
    store = services.store
    match event:
        case ev.ActionPlayed():  # (first: nearly every event is a move)
            current = state.game.current if state.game is not None else None
            assert current is not None and current.db_id is not None
            await store.add_action(current.db_id, current.actions, state.version + 1, event.whole, event.by)
        case ev.GameStarted(game=game, first=info):
            rows = (state.row("playing"),
                    (state.id, game.number, game.players, game.deals, game.first_dealer),
                    (info.number, info.dealer, info.seed, info.salt, info.commitment))
            return await kind_of(state).begin(services, state, rows)
        case ev.DealEnded():
            results = await store.write_all(_deal_end_jobs(services, state, event))
            assert state.game is not None
            if event.over:  # a competitive game's outcome, else nothing
                return results[-1] if state.game.competitive else None
            return results[-1]  # the next deal's id
        case ev.GameCancelled():
            await store.write_all([*kind_of(state).cancel_jobs(state),
                                   (store.set_table_status, (state.id, "finished", state.version))])
        case ev.Left(robot=True) if state.game is not None:
            jobs = kind_of(state).left_jobs(state, event.seat)
            if jobs:
                await store.write_all(jobs)
    return None


async def save_row(services: TableServices, state: TableState) -> None:
    """The table's row as it is now (after a row event: seats, host, options)."""
    store = services.store
    await store.write(store.save_table, *state.row())


def _deal_end_jobs(services: TableServices, state: TableState, event: ev.DealEnded) -> list[Job]:
    """The deal's record, what the table's kind writes, and the next deal or the game's end
    (for a competitive game its ratings, chips and XP last: its result is the outcome)."""
    game = state.game
    assert game is not None and game.current is not None
    store, kind = services.store, kind_of(state)
    info, result = game.current, event.last_result["result"]
    totals = list(event.last_result["row"]["totals"])
    jobs: list[Job] = [(store.finish_deal, (info.db_id, event.last_result["record"], result)),
                       *kind.deal_end_jobs(state, game, info, result)]
    if event.over:
        return jobs + [(store.finish_game, (game.db_id, totals)),
                       (store.set_table_status, (state.id, "finished", state.version)),
                       *kind.game_end_jobs(services, state, game, totals, result)]
    following = event.following
    assert following is not None
    return jobs + [(store.game_totals, (game.db_id, totals)),
                   (store.start_deal, (game.db_id, following.number, following.dealer,
                                       following.seed, following.salt, following.commitment))]


def abandon_jobs(services: TableServices, state: TableState) -> list[Job]:
    """The writes that close this table, its game (if one is in play) abandoned."""
    store = services.store
    game = state.game if state.status == "playing" else None
    abandoned: list[Job] = [(store.abandon_game, (game.db_id,))] if game is not None else []
    return [*abandoned, (store.set_table_status, (state.id, "closed", state.version))]
