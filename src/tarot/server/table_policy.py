"""What a table refuses by its kind, and with which error (docs/protocol.md). A practice table
refuses nothing for being one. A competitive table seats signed-in accounts only, who have the
stake, and gives no hints. A duplicate table (a daily challenge's, an event's) plays its deals as
they are: its seats, options and game cannot change, and it gives no hints either.

The callers ask at their own moment: ``Table._handle`` before handling a message, ``Hints``
once it knows the seat (``not_seated`` comes first), ``seating`` and the lobby at a sit, a new
table or new options."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Any

from . import players
from . import protocol as p
from .seats import Client, Seat
from .settings import TableServices

if TYPE_CHECKING:
    from .table_state import TableState


class Kind(StrEnum):
    PRACTICE = "practice"
    COMPETITIVE = "competitive"
    CHALLENGE = "challenge"
    EVENT = "event"


def kind(table: TableState) -> Kind:
    if table.imposed is not None:  # its deals are imposed: a duplicate table
        return Kind.CHALLENGE if table.challenge is not None else Kind.EVENT
    return Kind.COMPETITIVE if table.options.competitive else Kind.PRACTICE


_FIXED = ("a duplicate table (a challenge's, an event's) plays its deals as they are: seats, options and "
          "game cannot change", "challenge_table")
_NO_HINTS = ("hints are for practice tables only", "no_hints")
_DUPLICATE: dict[type, tuple[str, str]] = {
    **{m: _FIXED for m in (p.AddBot, p.RemoveBot, p.SetOptions, p.NewGame, p.CancelGame, p.InviteFriend)},
    p.Hint: _NO_HINTS}

# Each kind's refused messages: (reason, code).
REFUSED: dict[Kind, dict[type, tuple[str, str]]] = {
    Kind.PRACTICE: {},
    Kind.COMPETITIVE: {p.Hint: _NO_HINTS},
    Kind.CHALLENGE: _DUPLICATE,
    Kind.EVENT: _DUPLICATE,
}


def refusal(table: TableState, message: type) -> dict[str, Any] | None:
    """The error ``table`` answers a ``message`` with for its kind, or None."""
    found = REFUSED[kind(table)].get(message)
    return None if found is None else p.error(*found)


async def refuse_competitor(services: TableServices, options: p.TableOptions,
                            client: Client) -> dict[str, Any] | None:
    """The error that keeps ``client`` from a seat at a competitive table (a guest, or too few
    chips for the stake), or None."""
    if not options.competitive:
        return None
    if not client.account:
        return p.error("only signed-in players sit at a competitive table", "account_only")
    if options.stake:
        row = await services.store.query(players.by_id, client.player_id)
        if row is None or row.chips < options.stake:
            return p.error(f"the stake is {options.stake} chips: you have {0 if row is None else row.chips}",
                           "not_enough_chips", stake=options.stake)
    return None


def refuse_options(options: p.TableOptions, seats: list[Seat]) -> dict[str, Any] | None:
    """The error that keeps a table from becoming competitive while a guest sits, or None."""
    if options.competitive and any(s.person and not s.account for s in seats):
        return p.error("only signed-in players sit at a competitive table: a guest is seated", "account_only")
    return None
