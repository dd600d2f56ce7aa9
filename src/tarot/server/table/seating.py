"""Who is at a table and who decides there: joining and watching, sitting and leaving, bots
added and removed, the host and its options, a private table's invite. Handlers of the table's
messages about seats (``Table._handle``): each reads the state and returns an ``Outcome``."""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from .. import protocol as p
from . import events as ev
from . import flow
from .kinds import refuse_competitor, refuse_options
from .outcome import NOTHING, Context, Outcome, refused
from .seats import Client
from .state import TableState, new_invite

# --- coming and going ------------------------------------------------------------------


async def join(state: TableState, client: Client, msg: p.Join, ctx: Context) -> Outcome:
    """A connection asks to watch the table (its seat's, if it sits there)."""
    pid = client.player_id
    seat = state.seat_of(pid)
    if pid in state.removed and seat is None:
        return refused(p.Error.build("the host sent you away from this table", "removed", table=state.id))
    invited = state.invite is not None and pid not in state.invited and (
        msg.invite == state.invite  # the invite link; or the host's friends, at its private table
        or (state.host is not None and await ctx.services.presence.is_friend(state.host, pid)))
    if seat is None and not invited and not may_sit(state, pid):  # whatever the spectators setting
        return refused(p.Error.build("this private table is open only to those who have its invite link",
                               "invite_only", table=state.id))
    if seat is None and pid != state.host and not state.options.spectators and state.status == "playing":
        return refused(p.Error.build("this table does not allow spectators", "no_spectators", table=state.id))
    events: list[ev.TableEvent] = [ev.Invited(pid)] if invited else []
    if seat is not None and state.seats[seat].away_since is not None:
        events.append(ev.PresenceChanged(seat, away=False, address=client.address))
    return Outcome(events=tuple(events), watch=True, since=msg.since)


def gone(state: TableState, client: Client, ctx: Context) -> Outcome:
    """A connection closed (the actor no longer counts it among the watchers): its seat, if it
    had one and no other connection, is away (the grace period starts)."""
    seat = state.seat_of(client.player_id)
    if seat is None or state.seats[seat].away_since is not None:
        return NOTHING
    if any(c.player_id == client.player_id for c in ctx.watchers):
        return NOTHING
    return Outcome(events=(ev.PresenceChanged(seat, away=True, at=ctx.now),))


def invite_for(state: TableState, client: Client) -> dict[str, object] | None:
    """A private table's invite, for its host and seated players (never for spectators)."""
    pid = client.player_id
    if state.invite is not None and (pid == state.host or state.seat_of(pid) is not None):
        return p.Invite.build(state.id, state.invite)
    return None


def may_sit(state: TableState, player_id: str) -> bool:
    """A private table seats (and shows itself to) only its host, those who came through its
    invite link once and those invited to it; its id alone opens nothing."""
    return state.invite is None or player_id == state.host or player_id in state.invited


def sent_off(state: TableState, watchers: AbstractSet[Client]) -> list[Client]:
    """At a table without spectators, who looked at it waiting (to sit) and did not sit goes
    back to the lobby when the game starts (as a join during the game is refused); the host
    may always watch its own table."""
    if state.options.spectators:
        return []
    return [c for c in watchers if state.seat_of(c.player_id) is None and c.player_id != state.host]


async def invite_friend(state: TableState, client: Client, player: str, ctx: Context) -> Outcome:
    """A seated player (or the host) invites another to this table: the invitation reaches
    its lobby, and at a private table it may sit; within the limits of ``invitations``, and
    never from a player it muted (the sender is answered as if it had been sent)."""
    presence = ctx.services.presence
    if state.seat_of(client.player_id) is None and client.player_id != state.host:
        return refused(p.Error.build("only a seated player may invite", "not_seated"))
    if not presence.online(player):
        return refused(p.Error.build("this player is not online", "not_online"))
    muted = await ctx.services.chat.mutes.muted_anywhere(player, client.player_id)
    wait = presence.invitations.take(client.player_id, player, state.id, delivered=not muted)
    if wait:
        return refused(p.Error.build(f"too many invitations: wait {int(wait) + 1} s", "too_many_invitations",
                               retry_after=round(wait, 1)))
    if muted:
        return NOTHING
    sender = {"id": client.player_id, "name": client.name, "account": client.account}
    invitation = p.Invitation.build(state.id, sender, state.invite)
    return Outcome(events=(ev.Invited(player),), then=lambda: _tell(ctx, player, invitation))


def _tell(ctx: Context, player: str, message: dict[str, object]) -> Outcome:
    ctx.services.presence.tell(player, message)
    return NOTHING


def remove_spectator(state: TableState, client: Client, player: str, ctx: Context) -> Outcome:
    """The host sends a spectator away: it leaves the table and may not come back to watch."""
    if client.player_id != state.host:
        return refused(p.Error.build("only the host may do this", "not_host"))
    gone = [c for c in ctx.watchers if c.player_id == player and state.seat_of(c.player_id) is None]
    if not gone:
        return refused(p.Error.build("no such spectator at this table", "no_spectator"))
    why = p.Error.build("the host sent you away from this table", "removed", table=state.id)
    return Outcome(events=(ev.SpectatorRemoved(player),), drop=tuple((c, why) for c in gone))


# --- seats -----------------------------------------------------------------------------


async def sit(state: TableState, client: Client, msg: p.Sit, ctx: Context) -> Outcome:
    if not may_sit(state, client.player_id):
        return refused(p.Error.build("this private table seats only those who have its invite link",
                                     "invite_only"))
    if state.seat_of(client.player_id) is not None:
        return refused(p.Error.build("you already sit at this table", "seated"))
    if msg.seat >= len(state.seats) or not state.seats[msg.seat].empty:
        return refused(p.Error.build(f"seat {msg.seat} is not free", "seat_taken"))
    refusal = await refuse_competitor(ctx.services, state.options, client)
    if refusal is not None:
        return refused(refusal)
    invite = () if state.invite is None else (p.Invite.build(state.id, state.invite),)
    sat = ev.Sat(msg.seat, client.player_id, client.name, client.account, client.address)
    return Outcome(reply=invite, events=(sat,), then=lambda: flow.maybe_start(state, ctx))


def leave(state: TableState, client: Client) -> Outcome:
    """The connection stops watching; its player, if seated, leaves the seat (a bot plays on
    for it when a game is in play)."""
    seat = state.seat_of(client.player_id)
    if seat is None:
        return Outcome(drop=((client, None),))
    host = _next_host(state, seat) if client.player_id == state.host else state.host
    return Outcome(drop=((client, None),), events=(ev.Left(seat, state.status == "playing", host),))


def _next_host(state: TableState, seat: int) -> str | None:
    """The host left: the next seated person (in the order of play) hosts; with nobody else
    seated, the host stays (it may come back to watch its bots, or sit again)."""
    n = len(state.seats)
    after = [state.seats[(seat + k) % n] for k in range(1, n)]
    return next((s.player_id for s in after if s.player_id is not None), state.host)


# --- the host's controls ---------------------------------------------------------------


def add_bot(state: TableState, client: Client, msg: p.AddBot, ctx: Context) -> Outcome:
    if client.player_id != state.host:
        return refused(p.Error.build("only the host may do this", "not_host"))
    if msg.seat >= len(state.seats) or not state.seats[msg.seat].empty:
        return refused(p.Error.build(f"seat {msg.seat} is not free", "seat_taken"))
    return Outcome(events=(ev.BotAdded(msg.seat, msg.bot),), then=lambda: flow.maybe_start(state, ctx))


def remove_bot(state: TableState, client: Client, msg: p.RemoveBot) -> Outcome:
    refusal = _host_between_games(state, client)
    if refusal is not None:
        return refused(refusal)
    if msg.seat >= len(state.seats) or state.seats[msg.seat].bot is None:
        return refused(p.Error.build(f"no bot at seat {msg.seat}", "no_bot"))
    return Outcome(events=(ev.BotRemoved(msg.seat),))


def _host_between_games(state: TableState, client: Client) -> dict[str, object] | None:
    if client.player_id != state.host:
        return p.Error.build("only the host may do this", "not_host")
    if state.status == "playing":
        return p.Error.build("only between games", "game_running")
    return None


def set_options(state: TableState, client: Client, msg: p.SetOptions, ctx: Context) -> Outcome:
    refusal = _host_between_games(state, client) or refuse_options(msg.options, state.seats)
    if refusal is not None:
        return refused(refusal)
    n = msg.options.players
    gone = p.Error.build("the host made the table smaller: your seat is gone", "seat_removed")
    lost = {s.player_id for s in state.seats[n:] if s.player_id is not None}
    notices = [(c, gone) for c in ctx.watchers if c.player_id in lost]
    invite = state.invite
    if msg.options.private and invite is None:
        invite = new_invite()
        told = p.Invite.build(state.id, invite)
        seated = {s.player_id for s in state.seats[:n] if s.player_id is not None}
        notices += [(c, told) for c in ctx.watchers if c.player_id == state.host or c.player_id in seated]
    return Outcome(notices=tuple(notices), events=(ev.OptionsSet(msg.options, invite),))


def new_game(state: TableState, client: Client, ctx: Context) -> Outcome:
    """The host, or after a game any seated player (a rematch, the same seats)."""
    if state.status == "playing":
        return refused(p.Error.build("only between games", "game_running"))
    rematch = state.status == "finished" and state.seat_of(client.player_id) is not None
    if not rematch and client.player_id != state.host:
        return refused(p.Error.build("only the host may do this", "not_host"))
    if any(s.empty for s in state.seats):
        return refused(p.Error.build("every seat must be taken", "seats_free"))
    return Outcome(events=(flow.start(state, ctx),))
