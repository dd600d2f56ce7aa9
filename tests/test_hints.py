"""The hint button (issue 19): the expert's advice to the seat to move at a practice table, from
that seat's view only, to that seat only; refused where it would help a result that counts."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from server_harness import Player, create_table, db_url, make_client
from tarot.bots.advice import advise
from tarot.bots.heuristic import HeuristicBot
from tarot.engine import Deal, action_to_dict
from tarot.engine.phases import Phase
from tarot.engine.view import View


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_advice_is_a_legal_move_of_the_seat_in_every_phase(players: int) -> None:
    rng = random.Random(players)
    seen = set()
    for d in range(3):
        deal = Deal.new(players, d % players, seed=f"hint-{players}-{d}")
        while not deal.is_over:
            seat = deal.turn if deal.turn is not None else deal.taker
            assert seat is not None
            view = deal.view(seat)
            if rng.random() < 0.15 or deal.phase is not Phase.PLAY:
                advice = advise(view, seed=d, think=0.02)
                if view.ecart_options is None:
                    assert advice.action in view.legal
                seen.add(advice.why)
                deal.apply(advice.action)
            else:
                deal.apply(rng.choice(view.legal))
    assert {"bidding", "search"} <= seen or {"rules", "search"} <= seen


def test_a_hint_reaches_the_seat_to_move_alone(tmp_path: Path) -> None:
    with make_client(db_url("sqlite", tmp_path)) as client:
        host = Player(client, "Hélène")
        tid = create_table(host, players=4, deals=1)
        host.send({"type": "hint"})
        assert host.expect("error")["code"] == "no_deal"
        watcher = Player(client, "Wanda")
        watcher.send({"type": "join", "table": tid})
        watcher.expect("snapshot")
        for seat in (1, 2, 3):
            host.send({"type": "add_bot", "seat": seat, "bot": "heuristic"})
        state = host.until(lambda s: s["view"] is not None and s["view"]["turn"] == 0)
        host.send({"type": "hint"})
        answer = host.expect("hint")
        assert answer["version"] == state["version"] and answer["table"] == tid
        advice = answer["advice"]
        assert advice["why"] in ("only", "rules", "bidding", "search")
        assert {k: v for k, v in advice["action"].items() if k != "seat"} in [
            {k: v for k, v in a.items() if k != "seat"} for a in state["view"]["legal"]]
        host.send({"type": "hint"})  # the same position: the same advice, at once
        assert host.expect("hint")["advice"] == advice
        watcher.send({"type": "hint"})
        assert watcher.expect("error")["code"] == "not_seated"
        watcher.poll()
        assert not [m for m in watcher.messages if m["type"] == "hint"]  # nobody else hears it


def test_no_hint_where_the_result_counts(tmp_path: Path) -> None:
    """A daily challenge's table (as a competitive one) refuses hints."""
    with make_client(db_url("sqlite", tmp_path), challenge_deals=1) as client:
        guest = Player(client, "Gaston")
        guest.send({"type": "challenge_play", "deal": 1})
        tid = guest.expect("created")["table"]
        guest.send({"type": "join", "table": tid})
        guest.expect("snapshot")
        guest.send({"type": "hint"})
        assert guest.expect("error")["code"] == "no_hints"


def position(phase: str) -> View:
    """The first position of ``phase`` with a choice, the club bots playing every seat (a
    seeded deal where one of them takes, and the seat in play has no poignée to show)."""
    deal = Deal.new(4, 0, seed="advice-2")
    while not deal.is_over:
        seat = deal.turn if deal.turn is not None else deal.taker
        assert seat is not None
        view = deal.view(seat)
        shows = phase == "play" and HeuristicBot(1).poignee(view) is not None
        if view.phase == phase and len(view.legal) > 1 and not shows:
            return view
        deal.apply(HeuristicBot(0).act(view))
    raise AssertionError(f"no {phase} position in this deal")


@pytest.mark.parametrize(("phase", "why", "least"), [("bidding", "bidding", 8), ("play", "search", 4)])
def test_the_advice_says_what_it_is(phase: str, why: str, least: int) -> None:
    """Its fields as the page shows them: the move, why, over how many deals, the means (at the
    bidding and in the card play, each forced)."""
    view = position(phase)
    advice = advise(view, seed=1, think=0.2)
    d = advice.to_dict()
    assert set(d) == {"action", "why", "worlds", "mean", "next", "next_mean"}
    assert d["action"] == action_to_dict(advice.action) and advice.action in view.legal
    assert d["why"] == why
    # the best mean first, over the deals it sampled
    assert d["worlds"] >= least and d["next"] is not None and d["mean"] >= d["next_mean"]
