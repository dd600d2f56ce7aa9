"""Limits that follow a player and an address, not a connection: the messages they send
(``FloodLimits``) and the tables they create (``TableQuota``). Two mechanisms: token buckets
(``Buckets``: a burst, a rate, and a cut-off once empty) and sliding windows (``Windows``: so
many in any span of time; also the invitations' limits, ``invitations``).

A limit kept per connection let a client cut off for flooding reconnect at once with a new full
burst; a guest identity is free, so the player's limit alone does not hold either. Every message
takes a token from its player's bucket and from its address's bucket (the address has more room:
a household or a club may share one); an empty bucket cuts its owner off for ``cooldown``
seconds: every connection of that player or from that address is refused until then, with the
time left (``retry_after``). In a cluster the buckets are each node's (a round trip to Redis per
message would cost more than the flood it stops), but a cut-off holds on every node
(``on_cut_off``, told to the others by ``Peers``).
"""

from __future__ import annotations

import contextlib
from collections import Counter, deque
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from typing import NamedTuple

from .clock import SYSTEM, Clock

MAX_KEYS = 50_000  # buckets kept at most: full ones (the same as a new one) go first, then the oldest
ADDRESS_FACTOR = 4  # an address may do what this many players may (guest identities are free)
OPEN_TABLES_PER_PLAYER = 3  # tables a player may have created and still open (waiting or playing)
CREATES_PER_MINUTE = 6  # tables a player may create in any minute


@dataclass
class _Bucket:
    tokens: float
    last: float
    blocked_until: float = 0.0


class Buckets:
    """Token buckets by key: ``rate`` tokens a second, at most ``burst``."""

    def __init__(self, rate: float, burst: float, cooldown: float,
                 on_block: Callable[[str, float], None] | None = None) -> None:
        self.rate = rate
        self.burst = burst
        self.cooldown = cooldown
        self.on_block = on_block  # told of each key it cuts off, and for how long
        self._buckets: dict[str, _Bucket] = {}

    def wait(self, key: str, now: float) -> float:
        """Seconds ``key`` is still cut off for (0: not cut off)."""
        b = self._buckets.get(key)
        return max(0.0, b.blocked_until - now) if b is not None else 0.0

    def take(self, key: str, now: float) -> float:
        """Take a token for ``key``: 0 if it had one, else the seconds it is now cut off for."""
        b = self._buckets.get(key)
        if b is None:
            if len(self._buckets) >= MAX_KEYS:
                self._prune(now)
            b = self._buckets[key] = _Bucket(self.burst, now)
        if b.blocked_until > now:
            return b.blocked_until - now
        b.tokens = min(self.burst, b.tokens + (now - b.last) * self.rate)
        b.last = now
        if b.tokens < 1:
            b.blocked_until = now + self.cooldown
            if self.on_block is not None:
                self.on_block(key, self.cooldown)
            return self.cooldown
        b.tokens -= 1
        return 0.0

    def block(self, key: str, seconds: float, now: float) -> None:
        """Cut ``key`` off for ``seconds`` (another node did)."""
        b = self._buckets.get(key)
        if b is None:
            if len(self._buckets) >= MAX_KEYS:
                self._prune(now)
            b = self._buckets[key] = _Bucket(self.burst, now)
        b.blocked_until = max(b.blocked_until, now + seconds)

    def _prune(self, now: float) -> None:
        """Room for new keys: the full buckets go, then the oldest down to nine tenths of the
        bound, so that the next prune is that many new keys away (not one scan per new key)."""
        for key, b in list(self._buckets.items()):
            if b.blocked_until <= now and b.tokens + (now - b.last) * self.rate >= self.burst:
                del self._buckets[key]
        for key in list(self._buckets)[:max(0, len(self._buckets) - MAX_KEYS * 9 // 10)]:
            del self._buckets[key]


class Windows:
    """Sliding windows by key: at most ``limit`` events in any ``span`` seconds."""

    def __init__(self, limit: int, span: float) -> None:
        self.limit = limit
        self.span = span
        self._seen: dict[str, deque[float]] = {}

    def wait(self, key: str, now: float) -> float:
        """Seconds before ``key`` may have another event (0: now): until the oldest counted
        leaves its window."""
        seen = self._seen.get(key)
        while seen and now - seen[0] >= self.span:
            seen.popleft()
        if not seen:
            self._seen.pop(key, None)
            return 0.0
        return self.span - (now - seen[0]) if len(seen) >= self.limit else 0.0

    def note(self, key: str, now: float) -> None:
        """An event of ``key`` at ``now``: it counts for ``span`` seconds."""
        if key not in self._seen and len(self._seen) >= MAX_KEYS:
            self._prune(now)
        self._seen.setdefault(key, deque()).append(now)

    def _prune(self, now: float) -> None:
        """Room for new keys, as ``Buckets._prune``: the windows with nothing left in them go,
        then the oldest down to nine tenths of the bound."""
        for key, seen in list(self._seen.items()):
            if now - seen[-1] >= self.span:
                del self._seen[key]
        for key in list(self._seen)[:max(0, len(self._seen) - MAX_KEYS * 9 // 10)]:
            del self._seen[key]


class FloodLimits:
    """One bucket per player and one per address (``ADDRESS_FACTOR`` times the room)."""

    def __init__(self, rate: float, burst: float, cooldown: float, clock: Clock = SYSTEM) -> None:
        self.clock = clock
        self.players = Buckets(rate, burst, cooldown, lambda key, s: self._blocked("player", key, s))
        self.addresses = Buckets(rate * ADDRESS_FACTOR, burst * ADDRESS_FACTOR, cooldown,
                                 lambda key, s: self._blocked("address", key, s))
        # In a cluster: told of every cut-off made here ("player" or "address", who, seconds).
        self.on_cut_off: Callable[[str, str, float], None] | None = None

    def _blocked(self, kind: str, key: str, seconds: float) -> None:
        if self.on_cut_off is not None:
            self.on_cut_off(kind, key, seconds)

    def cut_off(self, kind: str, key: str, seconds: float) -> None:
        """Another node cut this player or address off: it is cut off here too."""
        (self.players if kind == "player" else self.addresses).block(key, seconds, self.clock.now())

    def refused(self, player: str, address: str) -> float:
        """Seconds before ``player`` (empty before its hello) or ``address`` may send again;
        0 while neither is cut off. Does not take a token."""
        now = self.clock.now()
        return max(self.addresses.wait(address, now), self.players.wait(player, now) if player else 0.0)

    def take(self, player: str, address: str) -> float:
        """A message from ``player`` at ``address``: 0 if allowed, else the seconds it is cut off for."""
        now = self.clock.now()
        wait = self.addresses.take(address, now)
        if not wait and player:
            wait = self.players.take(player, now)
        return wait


class Refusal(NamedTuple):
    reason: str
    retry_after: float | None  # seconds before a new table may be created (None: close one first)


class TableQuota:
    """The tables a player may have created and still open, and create in any minute; an
    address ``ADDRESS_FACTOR`` times as many. Creations under way count: each awaits the store,
    and several at once must not all pass the same look."""

    def __init__(self, open_at_once: int = OPEN_TABLES_PER_PLAYER,
                 per_minute: int = CREATES_PER_MINUTE, clock: Clock = SYSTEM) -> None:
        self.clock = clock
        self.open_at_once = open_at_once
        self.per_minute = per_minute
        self._owners: dict[str, tuple[str, ...]] = {}  # table → the keys of who created it
        self._under_way: Counter[str] = Counter()
        # the creations of the last minute, a player's and an address's
        self._recent = {"p": Windows(per_minute, 60.0), "a": Windows(per_minute * ADDRESS_FACTOR, 60.0)}

    @staticmethod
    def _keys(player: str, address: str) -> tuple[str, ...]:
        return (f"p:{player}", f"a:{address}") if address else (f"p:{player}",)

    def refuse(self, player: str, address: str, open_tables: Collection[str]) -> Refusal | None:
        """Why ``player`` at ``address`` may not create a table now, or None; ``open_tables``:
        the ids of the tables not finished."""
        now = self.clock.now()
        for key in self._keys(player, address):
            factor = ADDRESS_FACTOR if key[0] == "a" else 1
            held = self._under_way[key] + sum(1 for tid in open_tables if key in self._owners.get(tid, ()))
            if held >= self.open_at_once * factor:
                return Refusal(f"you already host {held} open tables (at most {self.open_at_once})"
                               if factor == 1 else
                               f"{held} open tables were created from your address: close some first", None)
            wait = self._recent[key[0]].wait(key, now)
            if wait:
                return Refusal(f"at most {self.per_minute * factor} new tables a minute: wait a little",
                               round(wait, 1))
        return None

    @contextlib.contextmanager
    def creating(self, tid: str, player: str, address: str) -> Iterator[None]:
        """Around the creation of table ``tid``: it counts from now on, as under way, then as open."""
        keys = self._keys(player, address)
        now = self.clock.now()
        for key in keys:
            self._recent[key[0]].note(key, now)
        self._under_way.update(keys)
        try:
            yield
            self._owners[tid] = keys
        finally:
            self._under_way.subtract(keys)
            self._under_way = +self._under_way  # (no key left at zero)

    def forget(self, tid: str) -> None:
        """Table ``tid`` is closed: it no longer counts."""
        self._owners.pop(tid, None)


class LoginLimits:
    """Sign-in attempts, per name and per address: a name guessed at from many addresses and an
    address trying many names are both slowed down (``Buckets``), with the time to wait."""

    def __init__(self, per_name: float = 10, per_address: float = 30, cooldown: float = 60.0,
                 clock: Clock = SYSTEM) -> None:
        self.clock = clock
        self.names = Buckets(per_name / 300, per_name, cooldown)  # refilled in five minutes
        self.addresses = Buckets(per_address / 300, per_address, cooldown)

    def take(self, key: str, address: str) -> float:
        """0 if this attempt may go on, else the seconds to wait."""
        now = self.clock.now()
        wait = max(self.names.wait(key, now), self.addresses.wait(address, now))
        if wait:
            return wait
        return max(self.names.take(key, now), self.addresses.take(address, now))
