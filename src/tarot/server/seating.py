"""Who is at a table and who decides there: joining and watching, sitting and leaving, bots
added and removed, the host and its options, a private table's invite. The table's state stays
on ``Table``; its messages about seats come here (``Table._handle``)."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from . import protocol as p
from .seats import Client, Seat
from .table_policy import refuse_competitor, refuse_options

if TYPE_CHECKING:
    from .table import Table


def new_invite() -> str:
    """A private table's secret: its invite link carries it, its address does not."""
    return secrets.token_urlsafe(12)


class Seating:
    def __init__(self, table: Table) -> None:
        self.table = table

    # --- coming and going ------------------------------------------------------------

    async def join(self, client: Client, msg: p.Join) -> None:
        t = self.table
        seat = t.seat_of(client)
        if client.player_id in t.removed and seat is None:
            client.send(p.error("the host sent you away from this table", "removed", table=t.id))
            return
        if t.invite is not None and msg.invite == t.invite:
            t.invited.add(client.player_id)
        elif (t.invite is not None and t.host is not None and client.player_id not in t.invited
              and await t.services.presence.is_friend(t.host, client.player_id)):
            t.invited.add(client.player_id)  # the host's friends may sit at its private table
        if seat is None and not self.may_sit(client):  # whatever the spectators setting
            client.send(p.error("this private table is open only to those who have its invite link",
                                "invite_only", table=t.id))
            return
        if seat is None and client.player_id != t.host and not t.options.spectators and t.status == "playing":
            client.send(p.error("this table does not allow spectators", "no_spectators", table=t.id))
            return
        t.watchers.add(client)
        self.send_invite(client)
        if seat is not None:
            s = t.seats[seat]
            s.conns.add(client)
            s.address = client.address
            if s.away_since is not None:
                s.away_since = None
                t.event({"kind": "presence", "seat": seat, "away": False}, lobby=False)
        self._catch_up(client, msg.since)

    def _catch_up(self, client: Client, since: int | None) -> None:
        t = self.table
        seat = t.seat_for(client)
        if since is not None and since <= t.version:
            missed = [] if since == t.version else t.log.since(since, seat)
            if missed is not None:
                client.send(p.missed(t.id, since, missed))
        client.send(p.snapshot(t.id, t.version, t.render.state(seat)))
        client.send(t.chat.log_for(client, seat < 0))

    async def gone(self, client: Client) -> None:
        """A connection closed: its seat, if it had one, is away (the grace period starts)."""
        t = self.table
        t.watchers.discard(client)
        seat = t.seat_of(client)
        if seat is None:
            return
        s = t.seats[seat]
        s.conns.discard(client)
        if not s.conns and s.away_since is None:
            s.away_since = t.services.clock.now()
            t.event({"kind": "presence", "seat": seat, "away": True}, lobby=False)
            await t.flow.maybe_next_deal()

    def send_invite(self, client: Client) -> None:
        """A private table's invite to its host and seated players (never to spectators)."""
        t = self.table
        if t.invite is not None and (client.player_id == t.host or t.seat_of(client) is not None):
            client.send(p.invite(t.id, t.invite))

    def may_sit(self, client: Client) -> bool:
        """A private table seats (and shows itself to) only its host, those who came through its
        invite link once and those invited to it; its id alone opens nothing."""
        t = self.table
        return t.invite is None or client.player_id == t.host or client.player_id in t.invited

    def send_off_watchers(self) -> None:
        """At a table without spectators, who looked at it waiting (to sit) and did not sit goes
        back to the lobby when the game starts (as a join during the game is refused); the host
        may always watch its own table."""
        t = self.table
        if t.options.spectators:
            return
        for client in [c for c in t.watchers if t.seat_of(c) is None and c.player_id != t.host]:
            t.watchers.discard(client)
            client.send(p.error("the game has started, and this table does not allow spectators",
                                "no_spectators", table=t.id))

    async def invite_friend(self, client: Client, player: str) -> None:
        """A seated player (or the host) invites another to this table: the invitation reaches
        its lobby, and at a private table it may sit; within the limits of ``invitations``, and
        never from a player it muted (the sender is answered as if it had been sent)."""
        t = self.table
        presence = t.services.presence
        if t.seat_of(client) is None and client.player_id != t.host:
            client.send(p.error("only a seated player may invite", "not_seated"))
            return
        if not presence.online(player):
            client.send(p.error("this player is not online", "not_online"))
            return
        muted = await t.services.chat.mutes.muted_anywhere(player, client.player_id)
        wait = presence.invitations.take(client.player_id, player, t.id, delivered=not muted)
        if wait:
            client.send(p.error(f"too many invitations: wait {int(wait) + 1} s", "too_many_invitations",
                                retry_after=round(wait, 1)))
            return
        if muted:
            return
        t.invited.add(player)
        sender = {"id": client.player_id, "name": client.name, "account": client.account}
        presence.tell(player, p.invitation(t.id, sender, t.invite))

    def remove_spectator(self, client: Client, player: str) -> None:
        """The host sends a spectator away: it leaves the table and may not come back to watch."""
        t = self.table
        if client.player_id != t.host:
            client.send(p.error("only the host may do this", "not_host"))
            return
        gone = [c for c in t.watchers if c.player_id == player and t.seat_of(c) is None]
        if not gone:
            client.send(p.error("no such spectator at this table", "no_spectator"))
            return
        t.removed.add(player)
        for c in gone:
            t.watchers.discard(c)
            c.send(p.error("the host sent you away from this table", "removed", table=t.id))

    # --- seats -----------------------------------------------------------------------

    async def sit(self, client: Client, msg: p.Sit) -> None:
        t = self.table
        if not self.may_sit(client):
            client.send(p.error("this private table seats only those who have its invite link",
                                "invite_only"))
            return
        if t.seat_of(client) is not None:
            client.send(p.error("you already sit at this table", "seated"))
            return
        if msg.seat >= len(t.seats) or not t.seats[msg.seat].empty:
            client.send(p.error(f"seat {msg.seat} is not free", "seat_taken"))
            return
        refused = await refuse_competitor(t.services, t.options, client)
        if refused is not None:
            client.send(refused)
            return
        s = t.seats[msg.seat]
        s.player_id, s.name, s.bot, s.away_since = client.player_id, client.name, None, None
        s.account, s.address = client.account, client.address
        s.conns = {client}
        if t.host is None:
            t.host = client.player_id
        self.send_invite(client)
        await t.changed({"kind": "sit", "seat": msg.seat, "name": client.name})
        await t.flow.maybe_start()

    async def leave(self, client: Client) -> None:
        t = self.table
        seat = t.seat_of(client)
        t.watchers.discard(client)
        if seat is None:
            return
        s = t.seats[seat]
        if t.status == "playing":  # the game goes on: a bot takes the seat, under the player's name
            s.player_id, s.bot, s.conns, s.away_since = None, "heuristic", set(), None
            await t.flow.left_game(seat)
        else:
            t.seats[seat] = Seat()
        if client.player_id == t.host:
            self._pass_host(seat)
        await t.changed({"kind": "leave", "seat": seat})
        await t.flow.maybe_next_deal()

    def _pass_host(self, seat: int) -> None:
        """The host left: the next seated person (in the order of play) hosts; with nobody else
        seated, the host stays (it may come back to watch its bots, or sit again)."""
        t = self.table
        n = len(t.seats)
        after = [t.seats[(seat + k) % n] for k in range(1, n)]
        t.host = next((s.player_id for s in after if s.player_id is not None), t.host)

    # --- the host's controls ---------------------------------------------------------

    async def add_bot(self, client: Client, msg: p.AddBot) -> None:
        t = self.table
        if client.player_id != t.host:
            client.send(p.error("only the host may do this", "not_host"))
            return
        if msg.seat >= len(t.seats) or not t.seats[msg.seat].empty:
            client.send(p.error(f"seat {msg.seat} is not free", "seat_taken"))
            return
        t.seats[msg.seat] = Seat(bot=msg.bot, name=f"{msg.bot.capitalize()} {msg.seat + 1}")
        await t.changed({"kind": "add_bot", "seat": msg.seat, "bot": msg.bot})
        await t.flow.maybe_start()

    async def remove_bot(self, client: Client, msg: p.RemoveBot) -> None:
        t = self.table
        if not self._host_between_games(client):
            return
        if msg.seat >= len(t.seats) or t.seats[msg.seat].bot is None:
            client.send(p.error(f"no bot at seat {msg.seat}", "no_bot"))
            return
        t.seats[msg.seat] = Seat()
        await t.changed({"kind": "remove_bot", "seat": msg.seat})

    def _host_between_games(self, client: Client) -> bool:
        t = self.table
        if client.player_id != t.host:
            client.send(p.error("only the host may do this", "not_host"))
            return False
        if t.status == "playing":
            client.send(p.error("only between games", "game_running"))
            return False
        return True

    async def set_options(self, client: Client, msg: p.SetOptions) -> None:
        t = self.table
        if not self._host_between_games(client):
            return
        refused = refuse_options(msg.options, t.seats)
        if refused is not None:
            client.send(refused)
            return
        n = msg.options.players
        if n < len(t.seats):
            for seat in t.seats[n:]:
                for c in seat.conns:
                    c.send(p.error("the host made the table smaller: your seat is gone", "seat_removed"))
            t.seats = t.seats[:n]
        else:
            t.seats += [Seat() for _ in range(n - len(t.seats))]
        t.options = msg.options
        if t.options.private and t.invite is None:
            t.invite = new_invite()
            for c in t.watchers:
                self.send_invite(c)
        t.status = "waiting" if t.status == "finished" else t.status
        await t.changed({"kind": "options", "options": t.options.model_dump()})

    async def new_game(self, client: Client) -> None:
        """The host, or after a game any seated player (a rematch, the same seats)."""
        t = self.table
        if t.status == "playing":
            client.send(p.error("only between games", "game_running"))
            return
        rematch = t.status == "finished" and t.seat_of(client) is not None
        if not rematch and client.player_id != t.host:
            client.send(p.error("only the host may do this", "not_host"))
            return
        if any(s.empty for s in t.seats):
            client.send(p.error("every seat must be taken", "seats_free"))
            return
        await t.flow.start_game()
