"""Serialization helpers of the server's messages."""

from __future__ import annotations

import orjson
import pytest
from pydantic import BaseModel

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


def _doc_table(heading: str) -> list[str]:
    """The first column's names (each `name`, or `a`, `b`) of the table under ``heading``."""
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "protocol.md").read_text(encoding="utf-8")
    part = doc[doc.index(heading):]
    rows = []
    lines = part.splitlines()
    for i, line in enumerate(lines[1:], 1):
        if line.startswith("#"):
            break
        header = i + 1 < len(lines) and lines[i + 1].startswith("|---")
        if line.startswith("| `") and not header:
            rows += re.findall(r"`(\w+)`", line.split("|")[1])
    return rows


def test_the_doc_lists_exactly_the_two_unions_and_the_event_kinds() -> None:
    assert len(p.CLIENT_TYPES) == len(set(p.CLIENT_TYPES)) > 20  # (derived from the unions)
    assert len(p.SERVER_TYPES) == len(set(p.SERVER_TYPES)) > 15
    assert sorted(_doc_table("## Client → server")) == sorted(p.CLIENT_TYPES)
    assert sorted(_doc_table("## Server → client")) == sorted(p.SERVER_TYPES)
    assert sorted(_doc_table("### `event` kinds")) == sorted(p.EVENT_KINDS)
    assert p.Event.model_fields["kind"].annotation.__args__ == p.EVENT_KINDS


def test_every_message_of_the_golden_transcripts_is_a_server_message() -> None:
    import json
    from pathlib import Path

    data = Path(__file__).resolve().parent / "data" / "transcripts"
    kinds = set()
    for path in sorted(data.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            message = json.loads(line)["message"]
            p.server_message.validate_python(message)
            kinds.add(message["type"])
    assert {"snapshot", "event"} <= kinds


def test_a_message_off_the_model_is_refused() -> None:
    from pydantic import ValidationError

    for bad in ({"type": "welcome", "player": {"id": "a"}, "token": "t"},  # no name
                {"type": "event", "table": "t", "version": 1, "event": {"kind": "teleport"},
                 "state": {"you": 0, "version": 1}},
                {"type": "created", "table": "t", "secret": "x"}):  # a key the model does not have
        with pytest.raises(ValidationError):
            p.server_message.validate_python(bad)



def test_every_server_message_builds_itself_as_its_model_says() -> None:
    """Each server message is one model with its own ``build`` (issue 32): what it builds passes
    its model, with the model's own ``type``; a message of the union without one fails here."""
    line = {"id": 1, "where": "table", "table": "t",
            "from": {"id": "a", "name": "Ann", "seat": 0, "account": False},
            "text": "hi", "phrase": None, "audience": "all", "at": 1.5}
    friend = {"id": "b", "name": "Bob", "online": True, "table": None}
    built = {
        p.Welcome: [p.Welcome.build("a", "Ann", "t"), p.Welcome.build("a", "Ann", None, account=True)],
        p.LobbyList: [p.LobbyList.build([], 0, 0)],
        p.LobbyUpdate: [p.LobbyUpdate.build([], ["t"], 3)],
        p.MyTables: [p.MyTables.build([])],
        p.Created: [p.Created.build("t")],
        p.Invite: [p.Invite.build("t", "c")],
        p.Snapshot: [p.Snapshot.build("t", 2, {"you": 0, "version": 2})],
        p.TableEvent: [p.TableEvent.build("t", 3, {"kind": "ready", "seat": 1}, {"you": 1, "version": 3})],
        p.Missed: [p.Missed.build("t", 1, [])],
        p.Error: [p.Error.build("no", "no_table", table="t"), p.Error.build("bad")],
        p.Pong: [p.Pong.build(), p.Pong.build("t", 3)],
        p.ChatMessage: [p.ChatMessage.build(line)],
        p.ChatLog: [p.ChatLog.build("table", "t", [line])],
        p.Muted: [p.Muted.build("b", True)],
        p.FriendList: [p.FriendList.build([friend])],
        p.FriendUpdate: [p.FriendUpdate.build(friend), p.FriendUpdate.build(friend, removed=True)],
        p.Invitation: [p.Invitation.build("t", {"id": "a", "name": "Ann", "account": True}, None)],
        p.ChallengeState: [p.ChallengeState.build("2026-11-28", 4, "heuristic", 0, [], None, [])],
        p.EventStart: [p.EventStart.build(7, "t")],
        p.HintAnswer: [p.HintAnswer.build("t", 4, {"action": "C:KH"})],
    }
    assert {model.TYPE for model in built} == set(p.SERVER_TYPES)
    for model, messages in built.items():
        for message in messages:
            assert message["type"] == model.TYPE
            assert isinstance(p.server_message.validate_python(message), model)


def test_each_client_message_goes_to_one_place() -> None:
    """The client's messages are three unions by destination (the site, the lobby, a table), each
    message in exactly one, and the table's actor takes exactly the table's."""
    from typing import get_args

    from tarot.server.table.actor import TableMessage

    site, lobby, table = (p.message_types(u) for u in (p.ToSite, p.ToLobby, p.ToTable))
    assert not set(site) & set(lobby) and not set(site) & set(table) and not set(lobby) & set(table)
    assert sorted(site + lobby + table) == sorted(p.CLIENT_TYPES)
    actor_takes = {m for m in get_args(TableMessage) if issubclass(m, BaseModel)}
    assert actor_takes == set(get_args(p.ToTable))


def test_the_protocols_event_kinds_are_the_tables_events() -> None:
    """Each kind of ``event`` the protocol lists is one typed event of the table, and back."""
    from tarot.server.table.events import KINDS

    assert sorted(p.EVENT_KINDS) == sorted(kind.kind for kind in KINDS)
