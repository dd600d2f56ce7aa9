"""How many invitations to a table a player may send and receive (``invite_friend``).

An invitation shows on top of the receiver's lobby and carries a private table's secret, so a
hostile player could bury someone under them. A sender may send ``PER_SENDER`` in any minute,
and invite the same player to the same table again only ``REPEAT_AFTER`` seconds later; a
receiver gets at most ``PER_RECEIVER`` in any minute from everyone together. Over a limit, the
seconds until the oldest invitation counted leaves its window (``retry_after``). The windows are
this process's: in a cluster each node counts those sent from it. The clock is injectable, so
that tests move it instead of waiting."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

PER_SENDER = 5  # invitations a player may send in any minute
PER_RECEIVER = 10  # invitations a player may receive in any minute, from everyone
REPEAT_AFTER = 300.0  # seconds before the same player is invited to the same table again
MAX_KEYS = 50_000  # windows kept before the stale ones are swept


class Windows:
    """Sliding windows by key: at most ``limit`` events in any ``span`` seconds."""

    def __init__(self, limit: int, span: float) -> None:
        self.limit = limit
        self.span = span
        self._seen: dict[str, deque[float]] = {}

    def wait(self, key: str, now: float) -> float:
        """Seconds before ``key`` may have another event (0: now)."""
        seen = self._seen.get(key)
        while seen and now - seen[0] >= self.span:
            seen.popleft()
        if not seen:
            self._seen.pop(key, None)
            return 0.0
        return self.span - (now - seen[0]) if len(seen) >= self.limit else 0.0

    def note(self, key: str, now: float) -> None:
        if len(self._seen) >= MAX_KEYS:
            for stale in [k for k, seen in self._seen.items() if now - seen[-1] >= self.span]:
                del self._seen[stale]
        self._seen.setdefault(key, deque()).append(now)


class InvitationLimits:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.senders = Windows(PER_SENDER, 60.0)
        self.receivers = Windows(PER_RECEIVER, 60.0)
        self.repeats = Windows(1, REPEAT_AFTER)

    def take(self, sender: str, receiver: str, table: str, delivered: bool = True) -> float:
        """0 if ``sender`` may invite ``receiver`` to ``table`` now (it then counts), else the
        seconds to wait. One not ``delivered`` (the receiver muted the sender) is refused and
        counted for the sender alike, so that it cannot tell; it takes nothing of the receiver's
        room, which a muted player must not use up for the others."""
        now = self.clock()
        mine = ((self.senders, sender), (self.repeats, f"{sender} {receiver} {table}"))
        wait = max(self.receivers.wait(receiver, now), *(w.wait(key, now) for w, key in mine))
        if not wait:
            for windows, key in mine:
                windows.note(key, now)
            if delivered:
                self.receivers.note(receiver, now)
        return wait
