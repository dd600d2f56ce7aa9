"""The table's log of recent events, kept serialized for reconnecting clients."""

from __future__ import annotations

import gc
from typing import Any

import orjson

from tarot.server.table.eventlog import EventLog


def _decoded(events: list[orjson.Fragment] | None) -> list[dict[str, Any]]:
    assert events is not None
    return list(orjson.loads(orjson.dumps(events)))


def test_since_gives_the_later_events_with_their_versions_in_order() -> None:
    log = EventLog(10)
    for v in range(1, 6):
        log.append(v, orjson.dumps({"kind": "action", "seat": v % 4}), {})
    assert _decoded(log.since(2, 0)) == [{"kind": "action", "seat": s, "version": v}
                                         for v, s in ((3, 3), (4, 0), (5, 1))]
    assert log.since(5, 0) == []


def test_an_ecart_is_whole_for_its_seat_only() -> None:
    log = EventLog(10)
    public = {"kind": "action", "seat": 1, "action": {"seat": 1, "ecart": 6}}
    private = {1: public | {"action": {"seat": 1, "ecart": ["1H", "2H", "3H", "4H", "5H", "6H"]}}}
    log.append(7, orjson.dumps(public), private)
    assert _decoded(log.since(6, 1))[0]["action"]["ecart"] == ["1H", "2H", "3H", "4H", "5H", "6H"]
    for seat in (0, 2, 3, -1):
        assert _decoded(log.since(6, seat))[0]["action"]["ecart"] == 6


def test_a_version_older_than_the_log_gets_none_and_old_private_parts_go() -> None:
    log = EventLog(3)
    log.append(1, orjson.dumps({"kind": "action"}), {0: {"kind": "action", "mine": True}})
    for v in range(2, 6):
        log.append(v, orjson.dumps({"kind": "action"}), {})
    assert len(log) == 3
    assert log.since(1, 0) is None  # versions 3..5 are kept: 2 is gone
    assert [e["version"] for e in _decoded(log.since(2, 0))] == [3, 4, 5]
    assert log._private == {}  # the evicted écart's private copy went with it


def test_entries_are_not_tracked_by_the_garbage_collector() -> None:
    log = EventLog(5)
    log.append(1, orjson.dumps({"kind": "action", "action": {"seat": 0, "play": "KH"}}), {})
    assert not any(gc.is_tracked(e) for e in log._public)
