"""How many invitations to a table a player may send and receive (``invite_friend``).

An invitation shows on top of the receiver's lobby and carries a private table's secret, so a
hostile player could bury someone under them. A sender may send ``PER_SENDER`` in any minute,
and invite the same player to the same table again only ``REPEAT_AFTER`` seconds later; a
receiver gets at most ``PER_RECEIVER`` in any minute from everyone together. Over a limit, the
seconds until the oldest invitation counted leaves its window (``retry_after``). The windows are
this process's: in a cluster each node counts those sent from it. They read the server's clock
(``clock``), so that tests move it instead of waiting."""

from __future__ import annotations

from ..clock import SYSTEM, Clock
from ..limits import Windows

PER_SENDER = 5  # invitations a player may send in any minute
PER_RECEIVER = 10  # invitations a player may receive in any minute, from everyone
REPEAT_AFTER = 300.0  # seconds before the same player is invited to the same table again


class InvitationLimits:
    def __init__(self, clock: Clock = SYSTEM) -> None:
        self.clock = clock
        self.senders = Windows(PER_SENDER, 60.0)
        self.receivers = Windows(PER_RECEIVER, 60.0)
        self.repeats = Windows(1, REPEAT_AFTER)

    def take(self, sender: str, receiver: str, table: str, delivered: bool = True) -> float:
        """0 if ``sender`` may invite ``receiver`` to ``table`` now (it then counts), else the
        seconds to wait. One not ``delivered`` (the receiver muted the sender) is refused and
        counted for the sender alike, so that it cannot tell; it takes nothing of the receiver's
        room, which a muted player must not use up for the others."""
        now = self.clock.now()
        mine = ((self.senders, sender), (self.repeats, f"{sender} {receiver} {table}"))
        wait = max(self.receivers.wait(receiver, now), *(w.wait(key, now) for w, key in mine))
        if not wait:
            for windows, key in mine:
                windows.note(key, now)
            if delivered:
                self.receivers.note(receiver, now)
        return wait
