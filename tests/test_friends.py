"""Friends and invitations (issue 18): add and remove friends (by id, or an account by name),
see which are online and at which public table, as it changes; invite a player to one's table
(the invitation reaches only that player); a private table seats its host's friends and those
invited, nobody else. On SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from server_harness import Player, create_table, db_url, make_client

KINDS = ["sqlite", "postgres"]


def friends(pl: Player) -> list[dict[str, Any]]:
    pl.send({"type": "friends"})
    return list(pl.expect("friends")["friends"])


def updates(pl: Player) -> list[dict[str, Any]]:
    pl.poll()
    return [m for m in pl.messages if m["type"] == "friend_update"]


def settle(*players: Player) -> None:
    for pl in players:
        pl.send({"type": "ping"})
        pl.expect("pong")


@pytest.mark.parametrize("kind", KINDS)
def test_friends_are_listed_with_where_they_are_as_it_changes(kind: str, tmp_path: Path) -> None:
    with make_client(db_url(kind, tmp_path)) as client:
        alice, bob = Player(client, "Alice"), Player(client, "Bob")
        assert friends(alice) == []
        alice.send({"type": "add_friend", "player": bob.id})
        added = alice.expect("friend_update")
        assert added["friend"] == {"id": bob.id, "name": "Bob", "online": True, "table": None}
        assert friends(alice) == [added["friend"]]
        tid = create_table(bob, players=3)  # Bob at a public table: Alice is told
        settle(bob, alice)
        assert updates(alice)[-1]["friend"]["table"] == tid
        assert friends(alice)[0]["table"] == tid
        assert updates(bob) == []  # Bob did not add Alice: he hears nothing of her
        token = bob.token
        bob.close()
        settle(alice)
        for _ in range(50):
            if updates(alice)[-1]["friend"]["online"] is False:
                break
            settle(alice)
        assert updates(alice)[-1]["friend"] == {"id": bob.id, "name": "Bob", "online": False, "table": None}
        bob = Player(client, "Bob", token=token)  # back: online again, and the list is kept
        settle(bob, alice)
        assert updates(alice)[-1]["friend"]["online"] is True
        alice.send({"type": "remove_friend", "player": bob.id})
        assert alice.expect("friend_update")["removed"] is True
        assert friends(alice) == []
        again = Player(client, "Alice", token=alice.token)  # kept in the database
        assert friends(again) == []


@pytest.mark.parametrize("kind", KINDS)
def test_an_account_is_added_by_name_and_bad_ids_are_refused(kind: str, tmp_path: Path) -> None:
    with make_client(db_url(kind, tmp_path)) as client:
        r = client.post("/api/accounts", json={"name": "Camille", "password": "password-1"})
        camille_id = r.json() and client.get("/api/session").json()["id"]
        client.cookies.clear()
        alice = Player(client, "Alice")
        alice.send({"type": "add_friend", "name": "CAMILLE"})
        assert alice.expect("friend_update")["friend"] == {"id": camille_id, "name": "Camille",
                                                          "online": False, "table": None}
        for bad in ({"player": "nobody"}, {"name": "nobody"}, {"player": alice.id}):
            alice.send({"type": "add_friend", **bad})
            assert alice.expect("error")["code"] == "no_player", bad
        alice.send({"type": "add_friend"})
        assert alice.expect("error")["code"] == "bad_message"


@pytest.mark.parametrize("kind", KINDS)
def test_an_invitation_reaches_only_the_invited_and_opens_a_private_seat(kind: str, tmp_path: Path) -> None:
    with make_client(db_url(kind, tmp_path)) as client:
        host, friend, invited, stranger = (Player(client, n) for n in ("Host", "Friend", "Invited", "Other"))
        host.send({"type": "add_friend", "player": friend.id})
        host.expect("friend_update")
        tid = create_table(host, players=4, private=True)
        code = next(m["code"] for m in host.messages if m["type"] == "invite")
        host.send({"type": "invite_friend", "player": invited.id})
        got = invited.expect("invitation")
        sender = {"id": host.id, "name": "Host", "account": False}
        assert got == {"type": "invitation", "table": tid, "from": sender, "code": code}
        settle(stranger, friend)
        assert not [m for m in stranger.messages + friend.messages if m["type"] == "invitation"]
        for seat, pl in ((1, invited), (2, friend)):  # invited, and the host's friend: they sit
            pl.send({"type": "join", "table": tid})
            pl.expect("snapshot")
            pl.send({"type": "sit", "seat": seat})
        host.until(lambda s: s["table"]["seats"][1]["taken"] and s["table"]["seats"][2]["taken"])
        stranger.send({"type": "join", "table": tid})  # neither invited nor a friend: not even to watch
        assert stranger.expect("error")["code"] == "invite_only"
        stranger.send({"type": "chat", "where": "table", "text": "hello"})  # nor to talk there
        assert stranger.expect("error")["code"] == "not_joined"
        stranger.send({"type": "invite_friend", "player": host.id})  # nor to invite from it
        assert stranger.expect("error")["code"] == "not_joined"
        stranger.send({"type": "ping"})  # nor to learn how far its game is (a pong has its version)
        assert stranger.expect("pong") == {"type": "pong"}
        gone = Player(client, "Gone")
        gone_id = gone.id
        gone.close()
        settle(host)
        host.send({"type": "invite_friend", "player": gone_id})
        assert host.expect("error")["code"] == "not_online"


def test_the_nodes_players_are_seen_on_are_counted_as_they_come_and_go(tmp_path: Path) -> None:
    """A cluster's presence (``Presence.nodes``): the nodes that the other nodes' players are on,
    which ``Hub.claim_orphans`` reads twice a second to forget a dead node's players."""
    from tarot.server.community.friends import Presence
    from tarot.server.store.store import Store

    presence = Presence(Store(f"sqlite:///{tmp_path / 'p.sqlite3'}"))
    presence.changed_elsewhere("a", "ann", "Ann", True, None)
    presence.changed_elsewhere("a", "ann", "Ann", True, "t1")  # (moved: still one player on a)
    presence.changed_elsewhere("b", "ann", "Ann", True, None)
    presence.changed_elsewhere("a", "bob", "Bob", True, "t2")
    assert presence.nodes == {"a": 2, "b": 1}
    presence.changed_elsewhere("b", "bob", "Bob", False, None)  # (never on b: nothing changes)
    presence.changed_elsewhere("a", "ann", "Ann", False, None)
    assert presence.nodes == {"a": 1, "b": 1} and presence.where("ann") is None
    presence.forget_node("a")
    assert presence.nodes == {"b": 1} and not presence.online("bob") and presence.online("ann")
