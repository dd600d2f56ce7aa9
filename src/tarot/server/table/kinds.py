"""The kinds of table, each an object with its own policy: what it refuses (with which error,
docs/protocol.md), how its game starts, what its deal's end and its game's end write, and the
bids it imposes. The game flow and the table's writes ask the table's kind (``kind_of``) and
import none of the competitions.

- A practice table refuses nothing for being one.
- A competitive table seats signed-in accounts only, who have the stake, and gives no hints;
  its game's start takes the stakes, its end brings ratings, chips and XP, and who leaves its
  game is ranked last (``competition``).
- A daily challenge's table plays its one deal as it is (seats, options and game cannot
  change, no hints); its end scores the player's deal (``challenge``).
- A duplicate tournament's table (an "event" in the public API) plays its deals as they are;
  each deal's end goes to the tournament's results, and the last table done ends it
  (``tournament_results``); in the FFT's imposed-taker form it bids for its seats (``tournaments``).
"""

from __future__ import annotations

import logging
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar

from tarot.engine import Action, Bid, Phase, action_from_dict

from .. import protocol as p
from ..competitions import challenge, tournament_results, tournaments
from ..players import competition, players
from ..players.players import NotEnoughChips
from ..settings import TableServices
from ..store.rows import Job
from .seats import Client, Seat

if TYPE_CHECKING:
    from .game import DealInfo, ServerGame
    from .state import TableState

log = logging.getLogger("tarot.server")


class Kind(StrEnum):
    PRACTICE = "practice"
    COMPETITIVE = "competitive"
    CHALLENGE = "challenge"
    EVENT = "event"
    REHEARSAL = "rehearsal"


class StartRefused(Exception):
    """The game cannot start, for a reason every watcher is told (``error``)."""

    def __init__(self, error: dict[str, Any]) -> None:
        super().__init__(error["reason"])
        self.error = error


_FIXED = ("a duplicate table (a challenge's, an event's) plays its deals as they are: seats, options and "
          "game cannot change", "challenge_table")
_NO_HINTS = ("hints are for practice tables only", "no_hints")
_REPLAYED = ("a deal played again keeps its seats, options and game: start another from the replay",
             "challenge_table")


class Practice:
    kind: ClassVar[Kind] = Kind.PRACTICE
    refused: ClassVar[dict[type, tuple[str, str]]] = {}  # each refused message: (reason, code)

    def refusal(self, message: type) -> dict[str, Any] | None:
        """The error this kind answers ``message`` with, or None."""
        found = self.refused.get(message)
        return None if found is None else p.Error.build(*found)

    async def begin(self, services: TableServices, state: TableState,
                    rows: tuple[Any, ...]) -> tuple[int, int]:
        """Store a game's start (``rows``: the table's row, the game's, its first deal's): the
        ids of the game and of its first deal."""
        store = services.store
        game_id, deal_id = await store.write(store.begin_game, *rows)
        # who plays it (the players' history), in a write of its own: a practice game's start
        # keeps its place in the grouped writes of many tables starting together. The game is
        # under way: a history that cannot be written does not stop it.
        try:
            await store.write(competition.enter, game_id, entrants(services, state))
        except Exception:
            log.exception("table %s: who plays game %s not stored", state.id, game_id)
        return game_id, deal_id

    def deal_end_jobs(self, state: TableState, game: ServerGame, info: DealInfo,
                      result: dict[str, Any]) -> list[Job]:
        """What a deal's end writes for this kind, beside the deal's record."""
        return []

    def game_end_jobs(self, services: TableServices, state: TableState, game: ServerGame, totals: list[int],
                      last: dict[str, Any]) -> list[Job]:
        """What a game's end writes for this kind, beside the game's totals (in the same
        transaction)."""
        return []

    def left_jobs(self, state: TableState, seat: int) -> list[Job]:
        """What a person leaving the game in play writes (a bot plays on for the seat)."""
        return []

    def cancel_jobs(self, state: TableState) -> list[Job]:
        """What the game's cancel by agreement writes: it counts for nothing, and every stake
        goes back but a deserter's (``competition.cancel``)."""
        assert state.game is not None
        return [(competition.cancel, (state.game.db_id,))]

    def imposed_bid(self, state: TableState) -> Action | None:
        """The bid the table makes for the seat to bid, if it imposes the bids."""
        return None


class Competitive(Practice):
    kind: ClassVar[Kind] = Kind.COMPETITIVE
    refused: ClassVar[dict[type, tuple[str, str]]] = {p.Hint: _NO_HINTS}

    async def begin(self, services: TableServices, state: TableState,
                    rows: tuple[Any, ...]) -> tuple[int, int]:
        """The game, its first deal, the table playing, who plays it and their stakes, in one
        write; refused when a player has not enough chips for the stake."""
        store, seated = services.store, entrants(services, state)
        try:
            ids: tuple[int, int] = await store.write(competition.begin, store, *rows, seated,
                                                     state.options.stake, counts(state))
        except NotEnoughChips as e:
            name = next((s.name for s in state.seats if s.player_id == e.player_id), "?")
            raise StartRefused(p.Error.build(
                f"{name} has not enough chips for the stake: the game cannot start",
                                       "not_enough_chips", name=name, stake=state.options.stake)) from e
        return ids

    def game_end_jobs(self, services: TableServices, state: TableState, game: ServerGame, totals: list[int],
                      last: dict[str, Any]) -> list[Job]:
        # who went away and was still away at the end, past the grace (a bot played for them)
        # did not come back before the game's end: ranked last, as who left
        now, grace = services.clock.now(), services.settings.grace
        gone = tuple(i for i, s in enumerate(state.seats)
                     if s.person and s.away_since is not None and now - s.away_since >= grace)
        return [(competition.finish, (game.db_id, game.deals, totals, last, gone))]

    def left_jobs(self, state: TableState, seat: int) -> list[Job]:
        # in a competitive game, who leaves is ranked last, whatever the totals
        game = state.game
        if game is None or game.db_id is None:
            return []
        return [(competition.mark_left, (game.db_id, seat))]


class Duplicate(Practice):
    """A table whose deals are imposed (the same cards at other tables)."""

    refused: ClassVar[dict[type, tuple[str, str]]] = {
        **{m: _FIXED for m in (p.AddBot, p.RemoveBot, p.SetOptions, p.NewGame, p.CancelGame, p.InviteFriend)},
        p.Hint: _NO_HINTS}


class DailyChallenge(Duplicate):
    kind: ClassVar[Kind] = Kind.CHALLENGE

    def game_end_jobs(self, services: TableServices, state: TableState, game: ServerGame, totals: list[int],
                      last: dict[str, Any]) -> list[Job]:
        return [(challenge.finish, (state.id, game.db_id, totals[challenge.SEAT], last))]  # the seat's score


class Tournament(Duplicate):
    kind: ClassVar[Kind] = Kind.EVENT

    def deal_end_jobs(self, state: TableState, game: ServerGame, info: DealInfo,
                      result: dict[str, Any]) -> list[Job]:
        at = state.at_event  # who held each seat, and the scores
        assert at is not None
        seats = list(at.seats)
        return [(tournament_results.record_deal, (at.id, at.table - 1, info.etui, game.db_id, seats, result))]

    def game_end_jobs(self, services: TableServices, state: TableState, game: ServerGame, totals: list[int],
                      last: dict[str, Any]) -> list[Job]:
        assert state.at_event is not None
        return [(tournament_results.table_done, (state.at_event.id,))]  # the last table done ends it

    def imposed_bid(self, state: TableState) -> Action | None:
        """In the FFT's imposed-taker form, the imposed taker bids the imposed contract
        (``tournaments.imposed_contract``), everybody else passes."""
        deal = state.deal()
        if state.at_event is None or not state.at_event.imposed_taker or deal is None:
            return None
        if deal.phase is not Phase.BIDDING or deal.turn is None:
            return None
        taker, contract = tournaments.imposed_contract(deal)
        seat = deal.turn
        return Bid(seat, contract if seat == taker else None)


class Rehearsal(Duplicate):
    """A done deal played again at a practice table (issue 35: "play from here", "replay this
    deal"): its cards dealt again from its seed, its first moves made for everyone at once (each
    stored and sent as any move, ``by`` "imposed"), then played as practice (hints allowed)."""

    kind: ClassVar[Kind] = Kind.REHEARSAL
    refused: ClassVar[dict[type, tuple[str, str]]] = {
        m: _REPLAYED for m in (p.AddBot, p.RemoveBot, p.SetOptions, p.NewGame, p.CancelGame, p.InviteFriend)}

    def imposed_bid(self, state: TableState) -> Action | None:
        """The next of the moves made for everyone, while some are left."""
        game, deal = state.game, state.deal()
        if state.rehearsal is None or game is None or game.current is None or deal is None or deal.is_over:
            return None
        done = game.current.actions
        moves = state.rehearsal.moves
        return action_from_dict(moves[done])[0] if done < len(moves) else None


KINDS = {k.kind: k for k in (Practice(), Competitive(), DailyChallenge(), Tournament(), Rehearsal())}


def kind_of(state: TableState) -> Practice:
    if state.rehearsal is not None:
        return KINDS[Kind.REHEARSAL]
    if state.imposed is not None:  # its deals are imposed: a duplicate table
        return KINDS[Kind.CHALLENGE if state.challenge is not None else Kind.EVENT]
    return KINDS[Kind.COMPETITIVE if state.options.competitive else Kind.PRACTICE]


def refusal(state: TableState, message: type) -> dict[str, Any] | None:
    """The error ``state``'s table answers a ``message`` with for its kind, or None."""
    return kind_of(state).refusal(message)


def entrants(services: TableServices, state: TableState) -> list[competition.Entrant]:
    think = services.settings.think
    return [competition.Entrant(s.player_id) if s.player_id is not None
            else competition.Entrant(None, players.bot_identity(s.bot or "heuristic", think))
            for s in state.seats]


def counts(state: TableState) -> bool:
    """A competitive game counts unless two people seated share an address."""
    addresses = [s.address for s in state.seats if s.person]
    return len(addresses) == len(set(addresses))


async def refuse_competitor(services: TableServices, options: p.TableOptions,
                            client: Client) -> dict[str, Any] | None:
    """The error that keeps ``client`` from a seat at a competitive table (a guest, or too few
    chips for the stake), or None."""
    if not options.competitive:
        return None
    if not client.account:
        return p.Error.build("only signed-in players sit at a competitive table", "account_only")
    if options.stake:
        row = await services.store.query(players.by_id, client.player_id)
        if row is None or row.chips < options.stake:
            return p.Error.build(
                f"the stake is {options.stake} chips: you have {0 if row is None else row.chips}",
                           "not_enough_chips", stake=options.stake)
    return None


def refuse_options(options: p.TableOptions, seats: list[Seat]) -> dict[str, Any] | None:
    """The error that keeps a table from becoming competitive while a guest sits, or None."""
    if options.competitive and any(s.person and not s.account for s in seats):
        return p.Error.build("only signed-in players sit at a competitive table: a guest is seated",
                             "account_only")
    return None
