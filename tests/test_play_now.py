"""One tap to play (``play_now``, issue 33): a seat at a table with robots, dealt at once; back to
one's own table rather than another; never refused by the table quotas."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from server_harness import Player, create_table, db_url, drive, make_client
from tarot.server.limits import CREATES_PER_MINUTE, OPEN_TABLES_PER_PLAYER


def play_now(player: Player, **fields: object) -> str:
    """``play_now``, then the table it answers joined, as the page does."""
    player.send({"type": "play_now", **fields})
    tid: str = player.expect("created")["table"]
    player.send({"type": "join", "table": tid})
    player.expect("snapshot")
    return tid


@pytest.mark.parametrize(("players", "bot"), [(3, "random"), (4, None), (5, "heuristic")])
def test_one_message_seats_the_player_with_robots_and_deals(tmp_path: Path, players: int,
                                                             bot: str | None) -> None:
    with make_client(db_url("sqlite", tmp_path)) as client:
        a = Player(client, "Ana")
        play_now(a, players=players, **({"bot": bot} if bot else {}))
        state = a.until(lambda s: s["table"]["status"] == "playing")
        seats = state["table"]["seats"]
        assert len(seats) == players and state["you"] == 0  # seat 0, its host
        assert [s["bot"] for s in seats[1:]] == [bot or "heuristic"] * (players - 1)
        drive([a])  # the game plays to its end
        assert a.state is not None and a.state["table"]["status"] == "finished"
        # the player was dealt cards (looked at after the game: a deal dealt with a petit sec,
        # R6, is annulled as it is dealt, and its state between two deals has no view)
        assert any(m["type"] in ("snapshot", "event") and (m["state"].get("view") or {}).get("hand")
                   for m in a.messages)
        a.close()


def test_a_player_at_a_table_goes_back_to_it(tmp_path: Path) -> None:
    """A game in play: play-now sends the player back to it, not to a new table; a table of one's
    own still waiting gets its robots and starts; someone else's waiting table where one sits is
    where one goes too."""
    with make_client(db_url("sqlite", tmp_path)) as client:
        a = Player(client, "Ana")
        first = play_now(a)
        a.until(lambda s: s["table"]["status"] == "playing")
        assert play_now(a, players=3) == first  # the game in play, not a new one
        assert client.get("/api/tables").json()["total"] == 1

        b = Player(client, "Bob")
        waiting = create_table(b, players=3)  # the lobby's form: Bob's table, waiting, Bob at seat 0
        assert play_now(b, players=5) == waiting  # the same table, its size kept
        state = b.until(lambda s: s["table"]["status"] == "playing")
        assert [s["bot"] for s in state["table"]["seats"]] == [None, "heuristic", "heuristic"]

        c, d = Player(client, "Cléo"), Player(client, "Dan")
        theirs = create_table(c, players=4)
        d.send({"type": "join", "table": theirs})
        d.expect("snapshot")
        d.send({"type": "sit", "seat": 1})
        d.until(lambda s: s["table"]["seats"][1]["name"] == "Dan")
        assert play_now(d) == theirs  # Dan sits there: not Dan's to fill, but where Dan plays
        assert d.until(lambda s: True)["table"]["status"] == "waiting"
        assert not [m for m in a.messages + b.messages + d.messages if m["type"] == "error"]
        for p in (a, b, c, d):
            p.close()


def test_the_table_quotas_never_refuse_it(tmp_path: Path) -> None:
    """A player at its quota of open tables (the create form refuses it) still plays now; so does
    one who made its minute's tables."""
    with make_client(db_url("sqlite", tmp_path)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        a = Player(client, "Ana")
        for _ in range(OPEN_TABLES_PER_PLAYER):
            tid = create_table(a, players=4)
            a.send({"type": "leave"})  # (not seated there: play-now does not send Ana back)
        a.send({"type": "create_table", "options": {"players": 4}})
        assert a.expect("error")["code"] == "too_many_tables"
        tid = play_now(a)
        assert a.until(lambda s: s["table"]["status"] == "playing")["table"]["id"] == tid

        b = Player(client, "Bob")
        for _ in range(CREATES_PER_MINUTE):
            tid = create_table(b, players=4)
            hub.tables[tid].state.status = "finished"
        b.send({"type": "create_table", "options": {"players": 4}})
        assert b.expect("error")["code"] == "too_many_tables"
        play_now(b)
        assert b.until(lambda s: s["table"]["status"] == "playing")
        a.close()
        b.close()


@pytest.mark.parametrize("fields", [{"players": 6}, {"players": "4"}, {"bot": "oracle"}, {"extra": 1}])
def test_bad_fields_are_refused_and_open_nothing(tmp_path: Path, fields: dict[str, object]) -> None:
    with make_client(db_url("sqlite", tmp_path)) as client:
        a = Player(client, "Ana")
        a.send({"type": "play_now", **fields})
        assert a.expect("error")["code"] == "bad_message"
        assert client.get("/api/tables").json()["total"] == 0
        a.close()


def test_the_lobby_tells_each_player_its_own_games_in_progress(tmp_path: Path) -> None:
    """``my_tables``, after ``lobby``: the tables where the player holds a seat, a private one
    too, a game in play first; never another player's, and not one the player left."""
    with make_client(db_url("sqlite", tmp_path)) as client:
        a, b = Player(client, "Ana"), Player(client, "Bob")
        private = create_table(a, players=3, private=True)  # waiting, Ana at seat 0
        playing = play_now(a)  # a game of its own? no: Ana holds a seat already, so back there
        assert playing == private
        b.send({"type": "lobby"})
        b.expect("lobby")
        assert b.expect("my_tables")["tables"] == []  # Bob sits nowhere: nothing of Ana's
        a.send({"type": "lobby"})
        a.expect("lobby")
        mine = a.expect("my_tables")["tables"]
        assert [t["id"] for t in mine] == [private] and mine[0]["options"]["private"] is True
        assert mine[0]["status"] == "playing"  # (play-now seated the robots: dealt)
        second = create_table(a, players=4)  # waiting: listed after the game in play
        a.send({"type": "lobby"})
        a.expect("lobby")
        assert [t["id"] for t in a.expect("my_tables")["tables"]] == [private, second]
        a.send({"type": "join", "table": second})
        a.expect("snapshot")
        a.send({"type": "leave"})  # not seated there any more
        a.send({"type": "lobby"})
        a.expect("lobby")
        assert [t["id"] for t in a.expect("my_tables")["tables"]] == [private]
        a.close()
        b.close()
