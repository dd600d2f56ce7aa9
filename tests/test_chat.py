"""Chat (issue 18): at a table and in the lobby, plain text or quick phrases, at most 300
characters, rate-limited, stored with the game, delivered only to those who may see it (a
spectators-only chat, mutes, a spectator sent away, another table, the lobby apart). On SQLite
and PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, select

from server_harness import Player, create_table, db_url, make_client
from tarot.server.protocol import CHAT_MAX
from tarot.server.store.schema import ChatRow, MuteRow
from tarot.server.store.store import normalize_url

KINDS = ["sqlite", "postgres"]


def chats(pl: Player) -> list[dict[str, Any]]:
    """What ``pl`` read so far: each chat message's line, in order."""
    pl.poll()
    return [m["message"] for m in pl.messages if m["type"] == "chat"]


def texts(pl: Player) -> list[str | None]:
    return [line["text"] or line["phrase"] for line in chats(pl)]


def settle(*players: Player) -> None:
    """Every message sent so far has reached each player: a ping's pong comes after them."""
    for pl in players:
        pl.send({"type": "ping"})
        pl.expect("pong")


def join(pl: Player, tid: str) -> dict[str, Any]:
    pl.send({"type": "join", "table": tid})
    pl.expect("snapshot")
    return pl.expect("chat_log")


def stored(url: str) -> list[tuple[Any, ...]]:
    engine = create_engine(normalize_url(url))
    with engine.connect() as conn:
        out = list(conn.execute(select(ChatRow.table_id, ChatRow.game_id, ChatRow.seat, ChatRow.audience,
                                       ChatRow.text, ChatRow.phrase).order_by(ChatRow.id)))
    engine.dispose()
    return [tuple(r) for r in out]


@pytest.mark.parametrize("kind", KINDS)
def test_a_table_chat_reaches_its_watchers_only_and_is_kept_with_the_game(kind: str, tmp_path: Path) -> None:
    url = db_url(kind, tmp_path)
    with make_client(url, bot_delay=0.3) as client:
        host, seated, spectator, elsewhere = (Player(client, n) for n in ("Host", "Seated", "W", "Other"))
        tid = create_table(host, players=3, deals=2)
        join(seated, tid)
        seated.send({"type": "sit", "seat": 1})
        join(spectator, tid)
        other = create_table(elsewhere, players=3)
        host.send({"type": "add_bot", "seat": 2})
        host.until(lambda s: s["table"]["status"] == "playing")
        host.send({"type": "chat", "text": "Bonne  partie\n<b>à tous</b>"})
        spectator.send({"type": "chat", "phrase": "good_game"})
        settle(host, seated, spectator, elsewhere)
        for pl in (host, seated, spectator):
            assert texts(pl) == ["Bonne partie <b>à tous</b>", "good_game"]  # plain text, one line
        assert texts(elsewhere) == []  # another table hears nothing
        first = chats(host)[0]
        assert first["from"] == {"id": host.id, "name": "Host", "seat": 0, "account": False}
        assert first["where"] == "table"
        assert chats(host)[1]["from"]["seat"] == -1  # a spectator
        # who comes later reads the recent messages
        late = Player(client, "Late")
        assert [m["text"] or m["phrase"] for m in join(late, tid)["messages"]] == [
            "Bonne partie <b>à tous</b>", "good_game"]
        assert other  # (its table stays apart)
    rows = stored(url)
    assert [r[0] for r in rows] == [tid, tid] and rows[0][1] is not None  # with its table and game
    assert rows[0][4] == "Bonne partie <b>à tous</b>" and rows[1][5] == "good_game"


@pytest.mark.parametrize("kind", KINDS)
def test_the_host_can_keep_spectators_among_themselves(kind: str, tmp_path: Path) -> None:
    with make_client(db_url(kind, tmp_path)) as client:
        host, seated, spectator, spectator2 = (Player(client, n) for n in ("Host", "Seated", "W1", "W2"))
        tid = create_table(host, players=3, spectator_chat="spectators")
        join(seated, tid)
        seated.send({"type": "sit", "seat": 1})
        join(spectator, tid)
        join(spectator2, tid)
        spectator.send({"type": "chat", "text": "psst"})
        seated.send({"type": "chat", "text": "hello all"})
        settle(host, seated, spectator, spectator2)
        assert texts(spectator2) == ["psst", "hello all"]
        assert chats(spectator2)[0]["audience"] == "spectators"
        # the host sits, so it is a player: it does not read the spectators' chat, nor do players
        assert texts(host) == ["hello all"] and texts(seated) == ["hello all"]
        # the recent messages shown on joining again leave it out for a player, not a spectator
        assert [m["text"] for m in join(seated, tid)["messages"]] == ["hello all"]
        assert [m["text"] for m in join(Player(client, "Late"), tid)["messages"]] == ["psst", "hello all"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_muted_player_is_not_heard_and_the_mute_is_kept(kind: str, tmp_path: Path) -> None:
    url = db_url(kind, tmp_path)
    with make_client(url) as client:
        a, b = Player(client, "A"), Player(client, "B")
        tid = create_table(a, players=3)
        join(b, tid)
        a.send({"type": "mute", "player": b.id})
        assert a.expect("muted") == {"type": "muted", "player": b.id, "mute": True}
        b.send({"type": "chat", "text": "spam"})
        a.send({"type": "chat", "text": "hi"})
        settle(a, b)
        assert texts(a) == ["hi"] and texts(b) == ["spam", "hi"]
        a.send({"type": "mute", "player": "nobody"})
        assert a.expect("error")["code"] == "no_player"
        a.send({"type": "mute", "player": a.id})
        assert a.expect("error")["code"] == "bad_request"
        token = a.token
        a.close()
        again = Player(client, "A", token=token)  # the mute is kept
        assert [m["text"] for m in join(again, tid)["messages"]] == ["hi"]
        again.send({"type": "mute", "player": b.id, "mute": False})
        again.expect("muted")
        b.send({"type": "chat", "text": "back"})
        settle(b, again)
        assert texts(again)[-1] == "back"
    engine = create_engine(normalize_url(url))
    with engine.connect() as conn:
        assert list(conn.execute(select(MuteRow.player_id))) == []
    engine.dispose()


@pytest.mark.parametrize("kind", KINDS)
def test_the_host_sends_a_spectator_away(kind: str, tmp_path: Path) -> None:
    with make_client(db_url(kind, tmp_path)) as client:
        host, spectator, seated = Player(client, "Host"), Player(client, "Troll"), Player(client, "S")
        tid = create_table(host, players=3)
        join(spectator, tid)
        join(seated, tid)
        seated.send({"type": "sit", "seat": 1})
        seated.send({"type": "remove_spectator", "player": spectator.id})
        assert seated.expect("error")["code"] == "not_host"
        host.send({"type": "remove_spectator", "player": seated.id})  # a seated player is no spectator
        assert host.expect("error")["code"] == "no_spectator"
        host.send({"type": "remove_spectator", "player": spectator.id})
        assert spectator.expect("error")["code"] == "removed"
        host.send({"type": "chat", "text": "bye troll"})
        settle(host, spectator)
        assert "bye troll" not in texts(spectator)
        spectator.send({"type": "join", "table": tid})
        assert spectator.expect("error")["code"] == "removed"


@pytest.mark.parametrize("kind", KINDS)
def test_the_lobby_chat_reaches_the_lobby_only(kind: str, tmp_path: Path) -> None:
    url = db_url(kind, tmp_path)
    with make_client(url) as client:
        a, b, at_table = Player(client, "A"), Player(client, "B"), Player(client, "T")
        create_table(at_table, players=3)
        a.send({"type": "chat", "where": "lobby", "text": "anyone?"})
        assert a.expect("error")["code"] == "not_in_lobby"
        for pl in (a, b):
            pl.send({"type": "lobby"})
            pl.expect("lobby")
            assert pl.expect("chat_log")["messages"] == []
        a.send({"type": "chat", "where": "lobby", "text": "anyone for a game?"})
        settle(a, b, at_table)
        assert texts(b) == ["anyone for a game?"] and texts(at_table) == []
        assert chats(b)[0]["where"] == "lobby" and chats(b)[0]["table"] is None
    assert stored(url) == [(None, None, -1, "all", "anyone for a game?", None)]


def test_chat_limits_length_emptiness_and_rate(tmp_path: Path) -> None:
    with make_client(db_url("sqlite", tmp_path)) as client:
        a = Player(client, "A")
        tid = create_table(a, players=3)
        a.expect("chat_log")
        for bad in ({"text": "x" * (CHAT_MAX + 1)}, {"text": " \n\t "}, {}, {"text": "a", "phrase": "thanks"},
                    {"phrase": "insult"}, {"text": 3}):
            a.send({"type": "chat", **bad})
            assert a.expect("error")["code"] == "bad_message", bad
        a.send({"type": "chat", "text": "x" * CHAT_MAX})  # the longest allowed
        for i in range(10):  # 5 at once, then a wait
            a.send({"type": "chat", "text": f"m{i}"})
        settle(a)
        refused = [m for m in a.messages if m["type"] == "error" and m["code"] == "chat_flood"]
        assert len(refused) == 6 and 0 < refused[0]["retry_after"] <= 10
        assert texts(a) == ["x" * CHAT_MAX, "m0", "m1", "m2", "m3"]
        assert tid
