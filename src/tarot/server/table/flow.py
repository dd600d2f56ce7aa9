"""A table's games, as handlers that read the state and return events: a game's start, a
player's move, the pause between two deals, and what the table does by itself (``due``): a
deal's end, the next deal, the game's end, the cancel vote's end, an event's imposed bids."""

from __future__ import annotations

import math
from typing import Any

from tarot.engine import IllegalAction, action_from_dict

from .. import protocol as p
from . import cancelvote
from . import events as ev
from .game import ServerGame
from .kinds import kind_of
from .outcome import NOTHING, Context, Outcome, refused
from .seats import Client
from .state import TableState

# --- a game's start --------------------------------------------------------------------


def maybe_start(state: TableState, ctx: Context) -> Outcome:
    """A game starts once every seat of a waiting table is taken."""
    if state.status == "waiting" and not any(s.empty for s in state.seats):
        return Outcome(events=(start(state, ctx),))
    return NOTHING


def start(state: TableState, ctx: Context) -> ev.GameStarted:
    """A new game and its first deal (dealt: the event's write stores them)."""
    n = state.options.players
    etuis = state.imposed
    chance = ctx.services.chance
    first = etuis[0].dealer if etuis else chance.randrange(n)
    game = ServerGame(n, state.options.deals, first_dealer=first, number=state.games_played + 1,
                      etuis=tuple(etuis or ()), competitive=state.options.competitive)
    return ev.GameStarted(game, game.new_deal(*(() if etuis else ctx.services.seed_and_salt())))


# --- a player's move -------------------------------------------------------------------


def act(state: TableState, client: Client, msg: p.Act) -> Outcome:
    """A player's action: checked against its seat and the rules (or refused, with why)."""
    seat = state.seat_of(client.player_id)
    if seat is None:
        return refused(p.Error.build("you do not sit at this table", "not_seated"))
    deal = state.deal()
    if deal is None:
        return refused(p.Error.build("no deal is being played", "no_deal"))
    obj = dict(msg.action)
    obj.setdefault("seat", seat)
    try:
        action, extra = action_from_dict(obj)
    except ValueError as e:
        return refused(p.Error.build(str(e), "bad_action"))
    if extra:
        return refused(p.Error.build(f"unknown action keys: {', '.join(sorted(extra))}", "bad_action"))
    if action.seat != seat:
        return refused(p.Error.build(f"you sit at seat {seat}, not {action.seat}", "wrong_seat"))
    try:
        deal.check(action)
    except IllegalAction as e:
        return refused(p.Error.build(str(e), "illegal", rule=e.rule, why=e.why, args=e.args_))
    return Outcome(events=(ev.ActionPlayed(seat, action, "player"),))


# --- the pause between two deals -------------------------------------------------------


def next_deal(state: TableState, client: Client) -> Outcome:
    seat = state.seat_of(client.player_id)
    pause = state.intermission
    if seat is None or pause is None or seat in pause.ready:
        return NOTHING  # (a late or repeated click: nothing to do, nothing to say)
    return Outcome(events=(ev.Ready(seat),))


def next_deal_state(state: TableState, now: float) -> dict[str, Any] | None:
    pause = state.intermission
    if pause is None:
        return None
    # whole seconds, rounded up: enough for a countdown, and the same in every run of a test
    return {"ready": sorted(pause.ready), "time_left": math.ceil(max(0.0, pause.until - now))}


# --- what the table does by itself -----------------------------------------------------


def due(state: TableState, ctx: Context) -> ev.TableEvent | None:
    """The next thing the table does by itself now, if any (the actor applies it, then asks
    again): each changes the state so that it is not due again."""
    game = state.game
    if state.vote is None and state.following is None and game is not None and game.current is not None \
            and not game.current.deal.is_over and state.imposed is None and state.status == "playing":
        return None  # (the usual case, after every move: a deal under way, nothing else)
    vote = cancelvote.due(state, ctx.now)
    if vote is not None:
        return vote
    if state.status != "playing" or game is None:
        return None
    deal = state.deal()
    if deal is not None and deal.is_over:
        return _deal_end(state, game, ctx)
    following, pause = state.following, state.intermission
    if following is not None:
        if pause is None or state.present() <= pause.ready or ctx.now >= pause.until:
            return ev.DealStarted(following)
        return None
    if game.current is None and game.is_over:
        outcome = None if game.outcome is None else tuple(game.outcome)
        return ev.GameEnded(tuple(game.totals), tuple(game.ranking()), outcome)
    return _imposed_bid(state)


def wake_at(state: TableState) -> float | None:
    """When the table must look again at what is due: the end of the pause between two deals,
    or of the cancel vote."""
    times = [t.until for t in (state.intermission, state.vote) if t is not None]
    return min(times) if times else None


def _deal_end(state: TableState, game: ServerGame, ctx: Context) -> ev.DealEnded:
    info = game.current
    assert info is not None
    result = info.deal.result()  # (scored once: the row, the event and the store read it)
    row = game.closing_row(result)
    over = game.over_with(row)
    record = p.serialized(game.record())  # stored, in the event and in ``last_result``: once
    last = {"deal": info.number, "result": result.to_dict(), "row": row.to_dict(),
            "seed": info.seed, "salt": info.salt, "commitment": info.commitment, "record": record}
    following = None
    if not over:  # (the next deal is dealt as if the row were on the sheet: its dealer follows)
        seed, salt = (None, None) if game.etuis else ctx.services.seed_and_salt()
        following = game.new_deal(seed, salt, after=1)
    wait = ctx.services.settings.next_deal_wait
    pause = ctx.now + wait if following is not None and wait > 0 and state.present() else None
    return ev.DealEnded(last, row, following, over, pause)


def _imposed_bid(state: TableState) -> ev.TableEvent | None:
    """A table that imposes the bids (a tournament's, in the FFT's imposed-taker form) makes
    them at once, each stored and sent as any move (``by`` "imposed")."""
    bid = kind_of(state).imposed_bid(state)
    return None if bid is None else ev.ActionPlayed(bid.seat, bid, "imposed")
