"""A game whose outcome may not be seen yet (issue 34, ``hidden``) shows through no public route:
a deal of today's challenge to whoever has not played it, an event's games until the event is
over (another table may still have their deals to play). The replay's rule, everywhere: a
player's games, the statistics (its ratings history too), the profile, the replay and records;
with no session and with another account's. On SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from server_harness import db_url, drive, make_client
from test_challenge import challenge, play_deal
from test_events import Member, new_event, sit_down

KINDS = ["sqlite", "postgres"]


def outcome(client: Any, name: str, session: str | None = None) -> dict[str, Any]:
    """What the public routes tell of ``name``'s games, as ``session`` (None: a guest) sees them."""
    headers = {} if session is None else {"cookie": f"tarot_session={session}"}
    games = client.get(f"/api/players/{name}/games", headers=headers).json()
    stats = client.get(f"/api/players/{name}/stats", headers=headers).json()["players"]
    return {"games": [g["id"] for g in games["games"]], "total": games["total"],
            "stats": {n: (s["games"], s["deals"], s["ratings"]) for n, s in stats.items()},
            "profile": client.get(f"/api/players/{name}", headers=headers).json()}


@pytest.mark.parametrize("kind", KINDS)
def test_a_challenge_deal_shows_only_to_who_has_played_it(kind: str, tmp_path: Path) -> None:
    with make_client(db_url(kind, tmp_path), challenge_deals=2) as client:
        anne, bruno = Member(client, "Anne", "10.0.0.1"), Member(client, "Bruno", "10.0.0.2")
        before = outcome(client, "Anne")
        play_deal(anne.ws, 1, 1)
        gid = challenge(anne.ws)["deals"][0]["game"]
        for session in (None, session_of(bruno)):
            assert outcome(client, "Anne", session) == before, session
            bots = outcome(client, "Heuristic", session)  # (the bots' account played it too)
            assert (bots["games"], bots["total"], bots["stats"]) == ([], 0, before["stats"]), session
        for path in (f"/api/games/{gid}", f"/api/games/{gid}/records", f"/api/games/{gid}/deals/1/review"):
            assert client.get(path).json()["code"] == "challenge_hidden"
        # nor its review (issue 35), asked for by an account that has not played it
        asked = bruno.post(f"/api/games/{gid}/deals/1/review")
        assert (asked.status_code, asked.json()["code"]) == (403, "challenge_hidden")
        # nor played again from its replay
        bruno.ws.send({"type": "practice_from", "game": gid, "deal": 1, "step": 0, "seat": 0})
        assert bruno.ws.expect("error")["code"] == "challenge_hidden"

        mine = outcome(client, "Anne", session_of(anne))  # who played it sees it, as its replay
        assert mine["games"] == [gid] and mine["stats"]["4"][:2] == (1, 1)
        assert anne.get(f"/api/games/{gid}").status_code == 200
        play_deal(bruno.ws, 1, 2)  # another account, once it has played that deal
        assert outcome(client, "Anne", session_of(bruno))["games"] == [gid]
        assert outcome(client, "Anne")["games"] == []  # and still not a guest


def session_of(member: Member) -> str:
    return str(member.cookie["cookie"].split("=", 1)[1])


@pytest.mark.parametrize("kind", KINDS)
def test_an_event_table_done_shows_nothing_until_the_event_is_over(kind: str, tmp_path: Path) -> None:
    with make_client(db_url(kind, tmp_path)) as client:
        members = [Member(client, name, f"10.0.0.{i + 1}") for i, name in enumerate(("Anne", "Bruno", "Chloé",
                                                                                     "David"))]
        eid = new_event(members[0], players=3, deals=1)
        for m in members[1:]:
            assert m.post(f"/api/events/{eid}/registration").status_code == 200
        assert members[0].post(f"/api/events/{eid}/start").json() == {"tables": 2}
        sit_down(members, eid)
        tables: dict[str, list[Member]] = {}
        for m in members:
            assert m.ws.state is not None
            tables.setdefault(m.ws.state["table"]["id"], []).append(m)
        alone = next(ms for ms in tables.values() if len(ms) == 1)[0]  # with two bots
        others = [m for m in members if m is not alone]
        before = outcome(client, alone.name)
        drive([alone.ws], seed=1)  # its table is done; the other one has not played the deal

        assert client.get(f"/api/events/{eid}").json()["status"] == "playing"
        for session in (None, session_of(others[0]), session_of(alone)):
            assert outcome(client, alone.name, session) == before, session
        drive([m.ws for m in others], seed=2)
        assert client.get(f"/api/events/{eid}").json()["status"] == "finished"
        after = outcome(client, alone.name, session_of(others[1]))  # (an answer not kept from before)
        assert after["total"] == 1 and after["stats"]["3"][0] == 1
