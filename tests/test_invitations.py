"""Invitations to a table within limits (issue 34): a sender may send 5 in any minute and invite
the same player to the same table once in 5 minutes, a receiver gets 10 in any minute from
everyone; over that, ``too_many_invitations`` with ``retry_after``. A player who muted the sender
gets none, and the sender cannot tell. Through real websockets, on the server's manual clock
(moved by the test, never waited for)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from server_harness import Player, create_table, db_url, make_client
from tarot.server import limits
from tarot.server.clock import ManualClock


def invite(sender: Player, receiver: Player) -> dict[str, Any]:
    """What the sender hears back: an error, or its ping's pong (the invitation went)."""
    sender.send({"type": "invite_friend", "player": receiver.id})
    sender.send({"type": "ping"})
    heard = []
    while not heard or heard[-1]["type"] != "pong":
        heard.append(sender.recv())
    return next(m for m in heard if m["type"] in ("error", "pong"))


def invitations(pl: Player) -> list[dict[str, Any]]:
    pl.send({"type": "ping"})
    pl.expect("pong")
    return [m for m in pl.messages if m["type"] == "invitation"]


def test_a_sender_is_held_to_five_a_minute_and_one_per_player_and_table(tmp_path: Path) -> None:
    clock = ManualClock()
    with make_client(db_url("sqlite", tmp_path), clock) as client:
        host = Player(client, "Host")
        guests = [Player(client, f"Guest{i}") for i in range(6)]
        create_table(host, players=4)
        assert invite(host, guests[0])["type"] == "pong"
        refused = invite(host, guests[0])  # the same player to the same table: once in 5 minutes
        assert refused["code"] == "too_many_invitations" and refused["retry_after"] == 300
        for guest in guests[1:5]:
            assert invite(host, guest)["type"] == "pong"
        refused = invite(host, guests[5])  # a sixth in the same minute
        assert refused["code"] == "too_many_invitations" and refused["retry_after"] == 60
        assert invitations(guests[5]) == [] and len(invitations(guests[0])) == 1
        clock.advance(60)
        assert invite(host, guests[5])["type"] == "pong"
        assert len(invitations(guests[5])) == 1


def test_a_receiver_gets_ten_a_minute_from_everyone(tmp_path: Path) -> None:
    clock = ManualClock()
    with make_client(db_url("sqlite", tmp_path), clock) as client:
        target = Player(client, "Target")
        senders = [Player(client, f"Sender{i}") for i in range(11)]
        for sender in senders:
            create_table(sender, players=4)
        for sender in senders[:10]:
            assert invite(sender, target)["type"] == "pong"
        refused = invite(senders[10], target)
        assert refused["code"] == "too_many_invitations" and refused["retry_after"] == 60
        assert len(invitations(target)) == 10
        clock.advance(60)
        assert invite(senders[10], target)["type"] == "pong"


def test_a_muted_sender_reaches_nobody_and_is_answered_as_if_it_had(tmp_path: Path) -> None:
    with make_client(db_url("sqlite", tmp_path), ManualClock()) as client:
        target, pest, friend = Player(client, "Target"), Player(client, "Pest"), Player(client, "Friend")
        target.send({"type": "mute", "player": pest.id})
        target.expect("muted")
        create_table(pest, players=4)
        create_table(friend, players=4)
        assert invite(pest, target)["type"] == "pong"
        assert invitations(target) == []
        refused = invite(pest, target)  # the same repeat limit as if it had gone
        assert refused["code"] == "too_many_invitations" and refused["retry_after"] == 300
        assert invite(friend, target)["type"] == "pong"
        assert [m["from"]["id"] for m in invitations(target)] == [friend.id]


def test_the_windows_stay_bounded_under_many_senders(monkeypatch: pytest.MonkeyPatch) -> None:
    """Guest identities are free: windows still in use are evicted oldest first past the bound
    (as the flood buckets are), instead of growing or being scanned for every invitation."""
    monkeypatch.setattr(limits, "MAX_KEYS", 10)
    windows = limits.Windows(limit=5, span=60.0)
    for i in range(100):
        assert windows.wait(f"guest{i}", now=0.0) == 0.0
        windows.note(f"guest{i}", now=0.0)
    assert len(windows._seen) <= 10 and "guest99" in windows._seen
