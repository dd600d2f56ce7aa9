"""What each recipient of a table is sent: events with their seat's state, snapshots, the
lobby's summary. Every recipient gets its own seat's view (spectators: seat -1), so a client
never receives a card it may not see; what every seat sees alike is serialized once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import protocol as p
from .cancelvote import vote_state
from .events import TableEvent, views
from .flow import next_deal_state
from .kinds import counts

if TYPE_CHECKING:
    from collections.abc import Callable

    from tarot.engine import Deal

    from ..clock import Clock
    from .eventlog import EventLog
    from .seats import Client
    from .state import TableState

# A player may look at the previous trick until the current one is gathered, not at the earlier
# ones (rules booklet: « consulter la teneur du pli précédent »): views sent to clients hold the
# last completed trick only, and ``tricks_done`` counts them all. The deal's record has the play.
LAST_TRICKS = 1


class Renderer:
    def __init__(self, state: TableState, watchers: set[Client], log: EventLog, clock: Clock,
                 time_left: Callable[[Deal | None], float | None]) -> None:
        self.table = state  # (read only: the table's actor changes it)
        self.watchers = watchers
        self.log = log
        self.clock = clock
        self.time_left = time_left  # the move clock's (``Autoplay.time_left``)
        self.view_cache: dict[Any, Any] = {}  # Deal.view_parts's, from one event to the next
        self.own_json: dict[int, tuple[dict[str, Any], bytes]] = {}  # each seat's own view keys, serialized

    def record(self, event: TableEvent) -> None:
        """Log the event and send it to every watcher with its seat's state (each seat sees of
        the event what ``events.views`` says).

        An event that is not ``full`` (a card, a bid: the table, the game and the last result did
        not change) is sent with a state of only what changed, ``version``, ``you``, ``view`` and
        ``time_left``. Otherwise the state holds every key but ``last_result`` (with the deal's
        whole record), which goes only with the events that change it (``result``).
        """
        state_ = self.table
        shown, private = views(event)
        public = p.encode(shown)  # the same for every seat: serialized once, not once per seat
        self.log.append(state_.version, public, private)
        seat_of = {s.player_id: i for i, s in enumerate(state_.seats) if s.player_id is not None}
        watchers = [(c, seat_of.get(c.player_id, -1)) for c in self.watchers]
        deal = state_.deal()
        seat_views: dict[int, bytes] = {}
        if deal is not None:  # what every seat sees alike is serialized once, then each seat's own
            alike, own = deal.view_parts({seat for _, seat in watchers}, LAST_TRICKS, self.view_cache)
            head = p.object_head(alike)
            seat_views = {seat: head + self._own_tail(seat, mine) for seat, mine in own.items()}
        # Each seat's message is put together from JSON pieces, once for all its connections:
        # {"type":"event","table":…,"version":…,"event":…,"state":{…shared…,"you":…,"view":…,
        #  "version":…,"time_left":…}}: view_state's keys (a test holds each message equal to
        # the table's state when it is sent).
        start = p.object_head(p.TableEvent.head(state_.id, state_.version)) + b'"event":'
        state = b',"state":{'
        if event.full:
            state += p.object_tail(self.shared_state(event.result))[:-1] + b","
        end = b"," + p.object_tail({"version": state_.version,
                                     "time_left": self.time_left(deal)}) + b"}"
        texts: dict[int, str] = {}  # one message per seat, shared by its connections
        for c, seat in watchers:
            text = texts.get(seat)
            if text is None:
                mine = private.get(seat)
                view = seat_views.get(seat, b"null")
                text = texts[seat] = (
                    start + (public if mine is None else p.encode(mine)) + state
                    + b'"you":' + str(seat).encode() + b',"view":' + view + end).decode()
            c.send_text(text)

    def _own_tail(self, seat: int, mine: dict[str, Any]) -> bytes:
        """A seat's own view keys as JSON: serialized again only when the engine built them
        anew (``Deal.view_parts`` gives the same dict while they cannot have changed)."""
        kept = self.own_json.get(seat)
        if kept is None or kept[0] is not mine:
            kept = self.own_json[seat] = (mine, p.object_tail(mine))
        return kept[1]

    def summary(self) -> dict[str, Any]:
        """The table as the lobby shows it."""
        table = self.table
        out = {"id": table.id, "options": table.options.model_dump(), "host": table.host,
               "status": table.status,
               "seats": [{"name": s.name or None, "bot": s.bot, "taken": not s.empty,
                          "host": s.player_id is not None and s.player_id == table.host,
                          "away": s.away_since is not None, "account": s.account} for s in table.seats]}
        if table.challenge is not None:
            out["challenge"] = table.challenge.model_dump()
        if table.at_event is not None:
            out["event"] = {"id": table.at_event.id, "table": table.at_event.table}
        if table.rehearsal is not None:  # a done deal played again: where it comes from
            r = table.rehearsal
            out["rehearsal"] = {"game": r.game, "deal": r.deal, "step": r.step}
        return out

    def view_state(self, seat: int) -> dict[str, Any]:
        """The part of ``state(seat)`` that a card or a bid changes (``record`` sends the same,
        put together from JSON pieces)."""
        deal = self.table.deal()
        return {"you": seat, "version": self.table.version,
                "view": None if deal is None else deal.view_dicts([seat], LAST_TRICKS)[seat],
                "time_left": self.time_left(deal)}

    def state(self, seat: int) -> dict[str, Any]:
        """Everything ``seat`` (-1: a spectator) may know now."""
        return self.shared_state(with_result=True) | self.view_state(seat)

    def shared_state(self, with_result: bool) -> dict[str, Any]:
        """The keys of ``state`` that every seat sees alike (``with_result=False``: without
        ``last_result``, for events that leave it unchanged); ``view_state`` has the others."""
        table = self.table
        now = self.clock.now()
        game = table.game
        out: dict[str, Any] = {
            "table": self.summary(),
            "game": None if game is None else {
                "number": game.number, "deals": game.deals, "played": game.played,
                "deal": game.current.number if game.current else None,
                "commitment": game.current.commitment if game.current else None,
                "dealer": game.current.dealer if game.current else None,
                "totals": list(game.totals), "sheet": game.sheet(),
                "ranking": game.ranking() if table.status == "finished" and not game.cancelled else None,
                "outcome": game.outcome, "cancelled": game.cancelled,
            },
            "next_deal": next_deal_state(table, now),
            "cancel": vote_state(table, now),
            # a competitive table says before its game starts when it will count for nothing
            "counts": table.options.competitive and counts(table),
        }
        if with_result:
            out["last_result"] = table.last_result
        return out
