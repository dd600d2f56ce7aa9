"""Serialization helpers of the server's messages."""

from __future__ import annotations

import orjson

from tarot.server import protocol as p


def test_a_completed_object_is_the_same_json_as_the_merged_dict() -> None:
    first = {"players": 4, "trick": ["5S", "NS"], "poignees": {}, "result": None}
    head = p.object_head(first)
    for rest in ({"seat": 1, "hand": ["JS", "T2"], "legal": [{"seat": 1, "play": "JS"}]}, {"seat": -1}):
        message = {"state": {"you": rest["seat"], "view": p.completed(head, rest)}}
        assert p.encode(message) == p.encode({"state": {"you": rest["seat"], "view": first | rest}})
        assert orjson.loads(p.encode(message))["state"]["view"] == first | rest
        tail = p.object_tail(rest)  # a seat's own keys serialized once, kept for later events
        assert bytes(p.encode(p.completed(head, tail))) == p.encode(first | rest)
