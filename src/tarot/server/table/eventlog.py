"""A table's recent events, kept serialized, for clients that reconnect (``missed``).

Every event of a busy table lands here, and a table keeps the last few hundred: as dicts and
tuples they were most of what the cyclic garbage collector had to walk through after each card
(docs/performance.md). So each entry is kept as JSON bytes (``orjson.Fragment``, which the
collector does not track), serialized once when the event happens.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import orjson

from ..protocol import object_tail, serialized


class EventLog:
    """The last ``size`` events: their versions, each one's JSON as everyone may see it (with its
    ``version``), and, for the rare events some seats see more of (an écart), those seats' own."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._versions: deque[int] = deque(maxlen=size)
        self._public: deque[orjson.Fragment] = deque(maxlen=size)
        self._private: dict[int, dict[int, orjson.Fragment]] = {}  # version: {seat: event}

    def __len__(self) -> int:
        return len(self._versions)

    def append(self, version: int, event: bytes, private: dict[int, dict[str, Any]]) -> None:
        """``event``: the public event as JSON (an object); ``private``: what some seats see
        instead, as dicts."""
        if len(self._versions) == self.size:
            self._private.pop(self._versions[0], None)
        self._versions.append(version)
        self._public.append(orjson.Fragment(event[:-1] + b"," + object_tail({"version": version})))
        if private:
            self._private[version] = {seat: serialized(e | {"version": version})
                                      for seat, e in private.items()}

    def since(self, version: int, seat: int) -> list[orjson.Fragment] | None:
        """What ``seat`` missed after ``version``, oldest first; None if the log no longer reaches
        back that far (the client needs a snapshot)."""
        if not self._versions or self._versions[0] > version + 1:
            return None
        out = []
        for v, public in zip(self._versions, self._public, strict=True):
            if v > version:
                mine = self._private.get(v)
                out.append(public if mine is None else mine.get(seat, public))
        return out
