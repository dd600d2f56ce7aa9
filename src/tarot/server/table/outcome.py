"""What a table's handler is given and what it gives back to the table's actor.

A handler (``seating``, ``flow``, ``cancelvote``, ``autoplay``) reads the table's state and a
``Context`` (the services, the clock's now, who watches) and returns an ``Outcome``: messages
to send first, then events for the actor to apply, store, version and send, then perhaps a next
step to take on the state those events made. It changes nothing itself.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

from ..settings import TableServices
from .events import TableEvent
from .seats import Client


@dataclass(slots=True)
class Context:
    services: TableServices
    now: float  # the clock's now() when the message is handled
    watchers: AbstractSet[Client]  # the connections at the table (the actor's: read, never changed)


@dataclass(slots=True)
class Outcome:
    events: tuple[TableEvent, ...] = ()
    reply: tuple[dict[str, Any], ...] = ()  # to the sender, before the events
    notices: tuple[tuple[Client, dict[str, Any]], ...] = ()  # to other connections, before the events
    # connections that stop watching the table, each told why (None: nothing to tell)
    drop: tuple[tuple[Client, dict[str, Any] | None], ...] = ()
    watch: bool = False  # the sender joins the watchers (and is sent what it missed since ``since``)
    since: int | None = None
    then: Callable[[], Outcome] | None = None  # a next step, on the state the events made


NOTHING = Outcome()


def refused(error: dict[str, Any]) -> Outcome:
    """The sender is told why nothing happens."""
    return Outcome(reply=(error,))
