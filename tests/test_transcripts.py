"""The golden protocol transcripts (tests/transcripts.py): every message each seat and a
spectator receive in a seeded game at 3, 4 and 5 players, exactly as stored (what each may see
is checked by test_server.py's spies and test_playthroughs.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("fastapi")

from golden import first_difference, lines
from transcripts import CASES, path_for, transcript

REGEN = "if the change is deliberate: python tests/regen_transcripts.py, and read the diff"


def stored(players: int) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path_for(players).read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("players", CASES)
def test_the_server_sends_exactly_the_stored_messages(players: int) -> None:
    old = stored(players)
    new = json.loads("[" + ",".join(lines(transcript(players))) + "]")
    assert len(old) == len(new), f"{len(old)} messages stored, {len(new)} now; {REGEN}"
    for i, (a, b) in enumerate(zip(old, new, strict=True)):
        assert a == b, f"{path_for(players).name} message {i} to {a['to']}{first_difference(a, b)}; {REGEN}"


@pytest.mark.parametrize("players", CASES)
def test_every_recipient_gets_a_whole_game(players: int) -> None:
    rows = stored(players)
    recipients = {r["to"] for r in rows}
    assert recipients == {*(f"seat {i}" for i in range(players)), "spectator"}
    for who in recipients:
        kinds = [r["message"].get("event", {}).get("kind") for r in rows if r["to"] == who]
        assert kinds.count("deal_end") >= 2 and "game_end" in kinds, who
