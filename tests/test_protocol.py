"""Serialization helpers of the server's messages."""

from __future__ import annotations

import orjson
import pytest

from tarot.server import protocol as p


def test_a_head_and_a_tail_are_the_same_json_as_the_merged_dict() -> None:
    first = {"players": 4, "trick": ["5S", "NS"], "poignees": {}, "result": None}
    head = p.object_head(first)
    for rest in ({"seat": 1, "hand": ["JS", "T2"], "legal": [{"seat": 1, "play": "JS"}]}, {"seat": -1}):
        joined = head + p.object_tail(rest)  # a seat's own keys serialized once, kept for later events
        assert joined == p.encode(first | rest)
        message = {"state": {"you": rest["seat"], "view": orjson.Fragment(joined)}}
        assert orjson.loads(p.encode(message))["state"]["view"] == first | rest


def test_bot_kinds_come_from_the_bot_registry() -> None:
    from tarot.bots import BOT_NAMES

    for name in BOT_NAMES:
        assert p.parse_client(f'{{"type": "add_bot", "seat": 1, "bot": "{name}"}}').bot == name  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="unknown bot"):
        p.parse_client('{"type": "add_bot", "seat": 1, "bot": "os:system"}')
