"""A table's state, and the one function that changes it.

``TableState`` holds everything a table is: its seats, options, host and invite, its status and
version, the game and the deal under way, the deal that follows (and the pause before it), the
cancel vote and the last result. Handlers read it; the table's actor alone changes it, through
``apply`` with an event (``events``). A test holds every other module to that.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field, replace
from typing import Any

from tarot.engine import Deal, action_from_dict

from .. import protocol as p
from ..store.loading import LoadedTable
from . import events as ev
from .game import DealInfo, Etui, ServerGame
from .seats import Seat

# A table's versions come in epochs: each restore starts the next one (``restored``), so a
# version sent before a restart, stored or not, is below every version sent after it.
EPOCH = 1 << 32


def new_invite() -> str:
    """A private table's secret: its invite link carries it, its address does not."""
    return secrets.token_urlsafe(12)


@dataclass(frozen=True)
class Intermission:
    """Between two deals while a person is seated: the result is on the felt; the next deal
    (``TableState.following``) starts when every seated person present has asked for it, or at
    ``until``."""

    until: float  # the clock's now()
    ready: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Vote:
    """A vote to cancel the game in play: every seated person must accept before ``until``."""

    proposer: int
    until: float  # the clock's now()
    accepted: frozenset[int] = frozenset()


@dataclass
class TableState:
    id: str
    options: p.TableOptions
    host: str | None
    seats: list[Seat]
    invite: str | None = None  # a private table's secret (``new_invite``)
    version: int = 0
    status: str = "waiting"  # waiting, playing, finished
    game: ServerGame | None = None
    games_played: int = 0
    following: DealInfo | None = None  # the next deal, dealt and stored, not started yet
    intermission: Intermission | None = None  # the pause before ``following`` starts
    vote: Vote | None = None
    last_result: dict[str, Any] | None = None
    invited: set[str] = field(default_factory=set)  # who came through the invite link (private tables)
    removed: set[str] = field(default_factory=set)  # spectators the host sent away
    # A daily challenge's table: its deal. A duplicate event's table. A duplicate table's imposed
    # deals, in the order it plays them (a challenge's, an event's). Set at the table's creation.
    challenge: p.ChallengeDeal | None = None
    at_event: p.EventTable | None = None
    imposed: list[Etui] | None = None
    # A done deal played again from a position (issue 35): the moves made for everyone first.
    rehearsal: p.Rehearsal | None = None

    @classmethod
    def new(cls, tid: str, options: p.TableOptions, host: str | None, seats: list[Seat] | None = None,
            **rest: Any) -> TableState:
        """A table just created: empty seats unless given, an invite if it is private."""
        seats = list(seats or ())
        seats += [Seat() for _ in range(options.players - len(seats))]
        return cls(tid, options, host, seats, new_invite() if options.private else None, **rest)

    # --- what handlers read -------------------------------------------------------------

    def deal(self) -> Deal | None:
        """The deal under way, if a game is being played."""
        if self.status != "playing" or self.game is None or self.game.current is None:
            return None
        return self.game.current.deal

    def seat_of(self, player_id: str) -> int | None:
        for i, s in enumerate(self.seats):
            if s.player_id is not None and s.player_id == player_id:
                return i
        return None

    def voters(self) -> set[int]:
        """The seats of the people seated (connected or away): each must accept a cancel."""
        return {i for i, s in enumerate(self.seats) if s.person}

    def present(self) -> set[int]:
        """The seats of the people seated and connected."""
        return {i for i, s in enumerate(self.seats) if s.person and s.away_since is None}

    def row(self, status: str | None = None) -> tuple[Any, ...]:
        """``Store.save_table``'s arguments for this table (with ``status``, else its own)."""
        options = self.options.model_dump()
        # (kept with the options, never shown with them: ``restored`` takes them back)
        if self.challenge is not None:
            options["challenge"] = self.challenge.model_dump()
        if self.at_event is not None:
            options["event"] = self.at_event.model_dump()
        if self.imposed is not None:
            options["imposed"] = [e.to_list() for e in self.imposed]
        if self.rehearsal is not None:
            options["rehearsal"] = self.rehearsal.model_dump()
        return (self.id, self.host, options, [s.to_dict() for s in self.seats], status or self.status,
                self.version, self.invite)

    def row_fields(self) -> tuple[Any, ...]:
        """What a row event changes, to put back if its row could not be stored (``restore``)."""
        return self.options, self.host, list(self.seats), self.invite, self.status, self.version

    # --- the actor's ------------------------------------------------------------------------

    def restore(self, fields: tuple[Any, ...]) -> None:
        self.options, self.host, self.seats, self.invite, self.status, self.version = fields

    def apply(self, event: ev.TableEvent, now: float, stored: Any = None) -> None:
        """Change the state by ``event`` (``stored``: what its write gave back, ``writes``).
        Only the table's actor calls this."""
        if event.sent:
            self.version += 1
        match event:
            case ev.ActionPlayed(action=action):  # (first: nearly every event is a move)
                assert self.game is not None
                self.game.apply(action)
            case ev.Sat(seat=seat):
                self.seats[seat] = Seat(event.player_id, event.name, account=event.account,
                                        address=event.address)
                if self.host is None:
                    self.host = event.player_id
            case ev.Left(seat=seat):
                s = self.seats[seat]
                robot = Seat(name=s.name, bot="heuristic", account=s.account)  # (under the player's name)
                self.seats[seat] = robot if event.robot else Seat()
                self.host = event.host
            case ev.BotAdded(seat=seat, bot=bot):
                self.seats[seat] = Seat(bot=bot, name=f"{bot.capitalize()} {seat + 1}")
            case ev.BotRemoved(seat=seat):
                self.seats[seat] = Seat()
            case ev.OptionsSet(options=options):
                n = options.players
                self.seats = self.seats[:n] + [Seat() for _ in range(n - len(self.seats))]
                self.options, self.invite = options, event.invite
                self.status = "waiting" if self.status == "finished" else self.status
            case ev.PresenceChanged(seat=seat):
                s = self.seats[seat]
                self.seats[seat] = replace(s, away_since=event.at if event.away else None,
                                           address=event.address or s.address)
            case ev.Invited(player=player):
                self.invited.add(player)
            case ev.SpectatorRemoved(player=player):
                self.removed.add(player)
            case ev.GameStarted(game=game):
                game.db_id, event.first.db_id = stored
                self.games_played = game.number
                self.game, self.following, self.status, self.last_result = game, event.first, "playing", None
            case ev.DealStarted(info=info):
                assert self.game is not None
                self.game.current = info
                self.following = self.intermission = None
            case ev.DealEnded():
                self._end_deal(event, now, stored)
            case ev.Ready(seat=seat):
                assert self.intermission is not None
                self.intermission = replace(self.intermission, ready=self.intermission.ready | {seat})
            case ev.GameEnded():
                self.status, self.vote = "finished", None
            case ev.CancelProposed(seat=seat, until=until):
                self.vote = Vote(seat, until, frozenset({seat}))
            case ev.CancelAccepted(seat=seat):
                assert self.vote is not None
                self.vote = replace(self.vote, accepted=self.vote.accepted | {seat})
            case ev.CancelRefused() | ev.CancelExpired():
                self.vote = None
            case ev.GameCancelled():
                assert self.game is not None
                self.game.cancelled = True
                self.status, self.vote, self.intermission, self.following = "finished", None, None, None
            case _:
                raise TypeError(f"not a table event: {event!r}")

    def _end_deal(self, event: ev.DealEnded, now: float, stored: Any) -> None:
        game = self.game
        assert game is not None
        game.end_with(event.sheet_row)  # (its record and result were made once, for the event)
        self.last_result = event.last_result
        if event.over:  # (the game's end was stored with the deal's: its outcome, if competitive)
            game.outcome = stored
        else:
            assert event.following is not None
            event.following.db_id = stored
            self.following = event.following
            self.intermission = None if event.pause_until is None else Intermission(event.pause_until)


def restored(loaded: LoadedTable, now: float) -> TableState:
    """A table as the store left it: its seats (the people away until they come back), its
    game and the deal under way replayed action by action."""
    row = loaded.row
    options = dict(row.options)
    deal = options.pop("challenge", None)
    imposed = None if (etuis := options.pop("imposed", None)) is None else [Etui(*e) for e in etuis]
    event = options.pop("event", None)
    rehearsal = options.pop("rehearsal", None)
    # nobody is connected yet: the grace period of every person seated starts now
    seats = [Seat(player_id=s.get("player_id"), name=s.get("name", ""), bot=s.get("bot"),
                  account=s.get("account", False), away_since=None if s.get("player_id") is None else now)
             for s in row.seats]
    g = loaded.game
    game, version = None, row.version
    if g is not None and g.status == "playing":
        game, version = _replayed(loaded, imposed, version)
    # Some events are sent without being stored (a seat's presence; a game's or a deal's start
    # before its first card; a deal's end), so clients may have seen versions past the stored
    # one. A restore starts the table's next epoch, above any of them; the hub stores it before
    # anyone hears from the table, so that the next restore starts the one after.
    return TableState(row.id, p.TableOptions.model_validate(options), row.host, seats, row.invite,
                       version=(version // EPOCH + 1) * EPOCH,
                       status="playing" if game is not None else row.status, game=game,
                       games_played=0 if g is None else g.number,
                       challenge=None if deal is None else p.ChallengeDeal.model_validate(deal),
                       imposed=imposed,
                       at_event=None if event is None else p.EventTable.model_validate(event),
                       rehearsal=None if rehearsal is None else p.Rehearsal.model_validate(rehearsal))


def _replayed(loaded: LoadedTable, imposed: list[Etui] | None, version: int) -> tuple[ServerGame, int]:
    """The game in play, its deals replayed action by action; the highest version stored."""
    g = loaded.game
    assert g is not None
    game = ServerGame(g.players, g.deals, first_dealer=g.first_dealer, number=g.number, db_id=g.id,
                      competitive=g.competitive, etuis=tuple(imposed or ()))
    for d, acts in loaded.deals:
        etui = game.etuis[d.number - 1].number if game.etuis else None
        info = DealInfo(d.number, d.dealer, d.seed, d.salt,
                        Deal.new(g.players, d.dealer, seed=d.seed), db_id=d.id, etui=etui)
        game.current = info
        for a in acts:
            action, _ = action_from_dict(a.action)
            game.apply(action)
            version = max(version, a.table_version)
        # A deal over but not stored as done stopped between its last card and its end: it
        # stays current, and the table ends it as usual once resumed (``flow.due``).
        if info.deal.is_over and d.status == "done":
            game.close_deal()
    if game.current is None:  # a deal's end is stored with the next deal's start, or the game's end
        raise ValueError(f"game {g.id} is playing but has no deal under way")
    return game, version
