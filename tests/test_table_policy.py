"""What each kind of table refuses (``table_policy``), as docs/protocol.md says it."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any, get_args

import pytest

from tarot.server import protocol as p
from tarot.server.table_policy import Kind, kind, refusal

DOCS = Path(__file__).parent.parent / "docs" / "protocol.md"


def table(competitive: bool = False, challenge: bool = False, event: bool = False) -> Any:
    return SimpleNamespace(options=SimpleNamespace(competitive=competitive),
                           imposed=[] if challenge or event else None,
                           challenge=p.ChallengeDeal(day="2026-11-01", deal=1) if challenge else None)


def name(message: Any) -> str:
    return str(get_args(message.model_fields["type"].annotation)[0])


@pytest.mark.parametrize(("t", "expected"), [(table(), Kind.PRACTICE), (table(True), Kind.COMPETITIVE),
                                             (table(challenge=True), Kind.CHALLENGE),
                                             (table(event=True), Kind.EVENT)])
def test_each_kind_refuses_what_the_protocol_says(t: Any, expected: Kind) -> None:
    assert kind(t) == expected
    fixed = re.search(r"such a table refuses (.*?) with `challenge_table`", DOCS.read_text())
    assert fixed is not None
    documented = set(re.findall(r"`(\w+)`", fixed.group(1)))
    messages = [p.Join, p.Sit, p.Leave, p.AddBot, p.RemoveBot, p.SetOptions, p.NewGame, p.NextDeal, p.Act,
                p.CancelGame, p.CancelVote, p.Chat, p.Hint, p.InviteFriend, p.RemoveSpectator, p.Ping]
    codes = {name(m): (refusal(t, m) or {}).get("code") for m in messages}
    duplicate = expected in (Kind.CHALLENGE, Kind.EVENT)
    assert {m for m, c in codes.items() if c == "challenge_table"} == (documented if duplicate else set())
    assert codes["hint"] == (None if expected is Kind.PRACTICE else "no_hints")
    assert {m for m, c in codes.items() if c is not None} <= documented | {"hint"}
