"""A done deal played again (issue 35, ``practice_from``): "replay this deal" deals the same cards
again; "play from here" also makes its first moves for everyone, then the player plays on at its
seat against robots. Never a card the seat may not see; the table's seats and options fixed; bad
requests answered with a clear error. On SQLite and, when TAROT_TEST_POSTGRES_URL is set,
PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from server_harness import db_url, drive, make_client
from tarot.engine import DealRecord, Play
from test_reviews_api import Account, finished_game

KINDS = ["sqlite", "postgres"]


def records(client: Any, gid: int) -> list[DealRecord]:
    return [DealRecord.from_dict(r) for r in client.get(f"/api/games/{gid}/records").json()]


@pytest.mark.parametrize("kind", KINDS)
def test_play_from_a_step_and_replay_from_the_start(kind: str, tmp_path: Path) -> None:
    url = db_url(kind, tmp_path)
    with make_client(url) as client:
        gid, host = finished_game(client, url)
        original = records(client, gid)[0]
        first_card = next(i for i, a in enumerate(original.actions) if isinstance(a, Play))
        step, seat = first_card + 5, 2
        ws = host.ws
        ws.send({"type": "practice_from", "game": gid, "deal": 1, "step": step, "seat": seat})
        tid = ws.expect("created")["table"]
        ws.send({"type": "join", "table": tid})
        ws.expect("snapshot")
        state = ws.until(lambda s: s["view"] is not None and s["view"]["seat"] == seat
                         and len(s["view"]["hand"]) == len(original.hands[seat]) - sum(
                             1 for a in original.actions[:step] if isinstance(a, Play) and a.seat == seat))
        table = state["table"]
        assert table["options"]["private"] and table["options"]["deals"] == 1
        assert [s["bot"] is not None for s in table["seats"]] == [i != seat for i in range(3)]
        # the seat's hand: its cards as dealt (with the chien and less the écart if it took), less
        # those it played in the first moves; nobody else's
        played = {str(a.card) for a in original.actions[:step] if isinstance(a, Play)}
        dealt = {str(c) for c in original.hands[seat]} | {str(c) for c in original.chien}
        assert set(state["view"]["hand"]) <= dealt
        assert not set(state["view"]["hand"]) & played
        assert "hands" not in state["view"]  # (the view is the seat's: its own hand only)
        # the seats and options are fixed
        ws.send({"type": "add_bot", "seat": (seat + 1) % 3, "bot": "random"})
        assert ws.expect("error")["code"] == "challenge_table"
        # played on to its end: the same cards, the same first moves
        drive([ws], seed=4)
        games = sorted({g["id"] for g in client.get("/api/players/Hélène/games", headers=host.headers)
                        .json()["games"]})
        again = records(client, games[-1])[0]
        assert [sorted(h) for h in again.hands] == [sorted(h) for h in original.hands]
        assert again.actions[:step] == original.actions[:step]

        # "replay this deal": the same cards from the start, nothing played for anyone
        ws.send({"type": "practice_from", "game": gid, "deal": 1, "step": 0, "seat": 0})
        fresh = ws.expect("created")["table"]
        assert fresh not in (tid,)
        ws.send({"type": "join", "table": fresh})
        snap = ws.until(lambda s: s["view"] is not None and s["table"]["id"] == fresh)
        assert sorted(snap["view"]["hand"]) == sorted(str(c) for c in original.hands[0])


@pytest.mark.parametrize(("change", "code"), [
    ({"game": 99}, "no_deal"), ({"deal": 7}, "no_deal"), ({"step": 200}, "bad_request"),
    ({"seat": 4}, "bad_request"),
])
def test_bad_requests_get_a_clear_error(tmp_path: Path, change: dict[str, Any], code: str) -> None:
    url = db_url("sqlite", tmp_path)
    with make_client(url) as client:
        gid, host = finished_game(client, url)
        host.ws.send({"type": "practice_from", "game": gid, "deal": 1, "step": 3, "seat": 1} | change)
        assert host.ws.expect("error")["code"] == code
        guest = Account(client, "Invité")
        guest.ws.send({"type": "practice_from", "game": gid, "deal": 1, "step": 3, "seat": 1})
        assert guest.ws.expect("created")["table"]
