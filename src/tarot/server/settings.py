"""What every table is handed by its hub: the settings, the store, the slow lane, the source of
chance and a way to tell the lobby (``TableServices``), instead of reaching through the hub."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from .table.botpool import BotPool
from .table.slowlane import SlowLane

if TYPE_CHECKING:
    from .clock import Clock
    from .community.chat import ChatServices
    from .community.invitations import InvitationLimits
    from .store.store import Store


class Presence(Protocol):
    """What a table asks of who is connected (``friends.Presence``; a protocol, so that the
    tables do not import the connections' side)."""

    invitations: InvitationLimits  # how many invitations a player may send and receive

    def online(self, player: str) -> bool: ...

    def tell(self, player: str, message: dict[str, Any]) -> bool:
        """Send ``message`` to ``player``'s connections, wherever they are."""

    async def is_friend(self, player: str, other: str) -> bool: ...


@dataclass
class Settings:
    grace: float = 30.0  # seconds away before a bot plays for a seated player
    bot_delay: float = 0.6  # pause before a bot's move, so people can follow
    trick_pause: float = 1.5  # a finished trick stays on the felt this long when a person is seated
    next_deal_wait: float = 20.0  # seconds the result stays up unless every seated person clicks on
    think: float = 0.5  # search bot budget per decision
    search_workers: int | None = None  # processes for search bots (None: the cores but one)
    # the expert's reviews (issue 35): playouts a decision, worker processes (0: a thread), and
    # the reviews an account may ask for a day
    review_playouts: int = 100_000
    review_workers: int = 1
    review_quota: int = 30
    retry: float = 2.0  # seconds before a table tries again a deal's end the store refused
    empty_table_ttl: float = 180.0  # a table not in play with nobody there closes after this long
    # A game nobody is connected to (seated or watching) waits, its bots idle; it is abandoned
    # after this long, or ``bots_only_ttl`` when no person is seated at all.
    deserted_game_ttl: float = 600.0
    bots_only_ttl: float = 60.0
    sweep_every: float = 30.0  # how often the hub looks for such tables
    flood_rate: float = 50.0  # a player's messages per second, sustained (limits.FloodLimits)
    flood_burst: float = 200.0  # … and at once
    flood_cooldown: float = 10.0  # seconds a player or an address that went over is cut off
    read_rate: float = 20.0  # an address's reads of the API per second, sustained (read_limit)
    read_burst: float = 120.0  # … and at once
    challenge_deals: int = 8  # deals of each new day's challenge
    hello_timeout: float = 10.0  # seconds a new websocket has to say hello before it is closed


@dataclass
class TableServices:
    settings: Settings
    store: Store
    slow_lane: SlowLane  # deal ends start one table per loop iteration
    # Every draw of the tables (ids, deals, who deals first, bots' seeds) comes from here: the
    # operating system's secure source; a seeded one only in tests (golden transcripts).
    chance: random.Random
    lobby_changed: Callable[[str], None]  # this table's summary may have changed
    bot_pool: BotPool  # where search bots think, shared by every table
    chat: ChatServices  # mutes and chat limits, shared by every room
    presence: Presence  # who is connected, their friends, invitations
    clock: Clock  # every timer and pause of the tables (``clock``)

    def seed_and_salt(self) -> tuple[str, str]:
        """A deal's seed and its commitment's salt (128 bits each)."""
        return f"{self.chance.getrandbits(128):032x}", f"{self.chance.getrandbits(128):032x}"
