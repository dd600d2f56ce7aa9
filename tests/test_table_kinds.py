"""What each kind of table refuses (``table_kinds``), as docs/protocol.md says it, and what
each writes at its game's and deals' ends."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any, get_args

import pytest

from tarot.server import protocol as p
from tarot.server.table.kinds import Kind, kind_of, refusal

DOCS = Path(__file__).parent.parent / "docs" / "protocol.md"


def table(competitive: bool = False, challenge: bool = False, event: bool = False,
          rehearsal: bool = False) -> Any:
    return SimpleNamespace(options=SimpleNamespace(competitive=competitive),
                           imposed=[] if challenge or event or rehearsal else None,
                           challenge=p.ChallengeDeal(day="2026-11-01", deal=1) if challenge else None,
                           rehearsal=p.Rehearsal(game=1, deal=1, step=0, moves=[]) if rehearsal else None)


def name(message: Any) -> str:
    return str(get_args(message.model_fields["type"].annotation)[0])


@pytest.mark.parametrize(("t", "expected"), [(table(), Kind.PRACTICE), (table(True), Kind.COMPETITIVE),
                                             (table(challenge=True), Kind.CHALLENGE),
                                             (table(event=True), Kind.EVENT),
                                             (table(rehearsal=True), Kind.REHEARSAL)])
def test_each_kind_refuses_what_the_protocol_says(t: Any, expected: Kind) -> None:
    assert kind_of(t).kind == expected
    fixed = re.search(r"such a table refuses (.*?) with `challenge_table`", DOCS.read_text())
    assert fixed is not None
    documented = set(re.findall(r"`(\w+)`", fixed.group(1)))
    messages = [p.Join, p.Sit, p.Leave, p.AddBot, p.RemoveBot, p.SetOptions, p.NewGame, p.NextDeal, p.Act,
                p.CancelGame, p.CancelVote, p.Chat, p.Hint, p.InviteFriend, p.RemoveSpectator, p.Ping]
    codes = {name(m): (refusal(t, m) or {}).get("code") for m in messages}
    fixed_seats = expected in (Kind.CHALLENGE, Kind.EVENT, Kind.REHEARSAL)
    assert {m for m, c in codes.items() if c == "challenge_table"} == (documented if fixed_seats else set())
    # hints at practice tables, a deal played again among them (issue 35)
    assert codes["hint"] == (None if expected in (Kind.PRACTICE, Kind.REHEARSAL) else "no_hints")
    assert {m for m, c in codes.items() if c is not None} <= documented | {"hint"}


def test_the_game_flow_imports_no_competition() -> None:
    """Competition kinds are objects (``table_kinds``): the table, its handlers and its writes
    ask the table's kind, and import none of the competitions' modules."""
    import ast

    table = DOCS.parent.parent / "src" / "tarot" / "server" / "table"
    for name in ("actor", "state", "writes", "flow", "seating", "cancelvote", "autoplay", "events"):
        imported = set()
        for node in ast.walk(ast.parse((table / f"{name}.py").read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                module = "." * node.level + (node.module or "")
                imported |= {f"{module}.{a.name}".replace("..", ".", 1) if not node.module else module
                             for a in node.names}
        # (the competitions' package, and the players' competitive ledger)
        found = {m for m in imported if "competitions" in m or m.endswith(("competition", "players.players"))}
        assert not found, (name, found)


def test_each_kind_adds_its_own_writes_to_a_game_end() -> None:
    """A practice game's end writes nothing of its kind's; a competitive game's, its ratings
    (last: its result is the outcome); a challenge's, its score; a tournament's, its table done."""
    from tarot.server.competitions import challenge
    from tarot.server.competitions import tournament_results as event_results
    from tarot.server.players import competition
    from tarot.server.table.game import ServerGame
    from tarot.server.table.seats import Seat

    services = SimpleNamespace(clock=SimpleNamespace(now=lambda: 0.0), settings=SimpleNamespace(grace=30.0))
    game = ServerGame(4, 1)
    state = SimpleNamespace(id="t", seats=[Seat()] * 4, at_event=SimpleNamespace(id=7))
    jobs = {kind: [f for f, _ in kind_of(t).game_end_jobs(services, state, game, [0] * 4, {})]  # type: ignore[arg-type]
            for t, kind in ((table(), Kind.PRACTICE), (table(True), Kind.COMPETITIVE),
                            (table(challenge=True), Kind.CHALLENGE), (table(event=True), Kind.EVENT),
                            (table(rehearsal=True), Kind.REHEARSAL))}
    assert jobs == {Kind.PRACTICE: [], Kind.COMPETITIVE: [competition.finish],
                    Kind.CHALLENGE: [challenge.finish], Kind.EVENT: [event_results.table_done],
                    Kind.REHEARSAL: []}
