"""Flood limits that follow a player and an address, not a connection.

A limit kept per connection let a client cut off for flooding reconnect at once with a new full
burst; a guest identity is free, so the player's limit alone does not hold either. Every message
takes a token from its player's bucket and from its address's bucket (the address has more room:
a household or a club may share one); an empty bucket cuts its owner off for ``cooldown``
seconds: every connection of that player or from that address is refused until then, with the
time left (``retry_after``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

MAX_KEYS = 50_000  # buckets kept at most; full ones (the same as a new one) are dropped first


@dataclass
class _Bucket:
    tokens: float
    last: float
    blocked_until: float = 0.0


class Buckets:
    """Token buckets by key: ``rate`` tokens a second, at most ``burst``."""

    def __init__(self, rate: float, burst: float, cooldown: float) -> None:
        self.rate = rate
        self.burst = burst
        self.cooldown = cooldown
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
            return self.cooldown
        b.tokens -= 1
        return 0.0

    def _prune(self, now: float) -> None:
        for key, b in list(self._buckets.items()):
            if b.blocked_until <= now and b.tokens + (now - b.last) * self.rate >= self.burst:
                del self._buckets[key]


class FloodLimits:
    """One bucket per player and one per address (``address_factor`` times the room)."""

    def __init__(self, rate: float, burst: float, cooldown: float, address_factor: float = 4.0) -> None:
        self.players = Buckets(rate, burst, cooldown)
        self.addresses = Buckets(rate * address_factor, burst * address_factor, cooldown)

    def refused(self, player: str, address: str) -> float:
        """Seconds before ``player`` (empty before its hello) or ``address`` may send again;
        0 while neither is cut off. Does not take a token."""
        now = time.monotonic()
        return max(self.addresses.wait(address, now), self.players.wait(player, now) if player else 0.0)

    def take(self, player: str, address: str) -> float:
        """A message from ``player`` at ``address``: 0 if allowed, else the seconds it is cut off for."""
        now = time.monotonic()
        wait = self.addresses.take(address, now)
        if not wait and player:
            wait = self.players.take(player, now)
        return wait
