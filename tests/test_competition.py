"""Competitive tables (issue 17): only accounts sit, stakes taken at the start, and at the end
ranks, ratings (openskill), the pot and XP, in one transaction with the game's end; a game with
two people at one address counts for nothing; who leaves is ranked last; the friendly cancel vote.
On SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, select

from server_harness import Player, account, create_table, db_url, drive, make_client
from tarot.server.clock import ManualClock
from tarot.server.players import competition, players
from tarot.server.players.ratings import new_rating, rate
from tarot.server.store.schema import GamePlayerRow, GameRow, LedgerRow, PlayerRow
from tarot.server.store.store import normalize_url
from tarot.server.table import cancelvote

KINDS = ["sqlite", "postgres"]


def rows(url: str, stmt: Any) -> list[Any]:
    engine = create_engine(normalize_url(url))
    try:
        with engine.connect() as conn:
            return list(conn.execute(stmt))
    finally:
        engine.dispose()


def balances_match_ledger(url: str) -> None:
    """Every balance is the sum of its ledger (the invariant of every change of chips and XP)."""
    engine = create_engine(normalize_url(url))
    with engine.connect() as conn:
        for pid, chips, xp in conn.execute(select(PlayerRow.id, PlayerRow.chips, PlayerRow.xp)):
            assert players.ledger_sums(conn, pid) == (chips, xp), pid
    engine.dispose()


def profile(client: Any, name: str) -> dict[str, Any]:
    r = client.get(f"/api/players/{name}")
    assert r.status_code == 200
    return dict(r.json())


def game_end(pl: Player) -> dict[str, Any]:
    return next(m["event"] for m in pl.messages if m["type"] == "event" and m["event"]["kind"] == "game_end")


def seat_bots(host: Player, seats: range) -> None:
    for seat in seats:
        host.send({"type": "add_bot", "seat": seat, "bot": "heuristic"})


@pytest.mark.parametrize("kind", KINDS)
def test_a_competitive_game_moves_ratings_chips_and_xp_once(kind: str, tmp_path: Path) -> None:
    url = db_url(kind, tmp_path)
    with make_client(url) as client:
        alice, bob = account(client, "Alice", "10.0.0.1"), account(client, "Bob", "10.0.0.2")
        tid = create_table(alice, players=4, deals=1, competitive=True, stake=100)
        bob.send({"type": "join", "table": tid})
        bob.expect("snapshot")
        bob.send({"type": "sit", "seat": 1})
        seat_bots(alice, range(2, 4))
        alice.until(lambda s: s["table"]["status"] == "playing")
        assert alice.state is not None and alice.state["counts"] is True
        assert profile(client, "Alice")["chips"] == 900  # the stake taken at the start
        drive([alice, bob])
        end = game_end(alice)
        outcome = {o["seat"]: o for o in end["outcome"]}
        totals = end["totals"]
        last = alice.state["last_result"]["result"] if alice.state else None
        shares = competition.pot_shares([100, 100, 0, 0], [outcome[s]["rank"] for s in range(4)],
                                        [True, True, False, False], set(), last)
        for seat, name in ((0, "Alice"), (1, "Bob")):
            prof = profile(client, name)
            assert prof["chips"] == 1000 - 100 + shares[seat] == 1000 + outcome[seat]["chips"]
            won = outcome[seat]["rank"] == 1
            assert prof["xp"] == outcome[seat]["xp"] == (40 if won else 5)
            assert prof["games"] == 1 and prof["ratings"]["4"]["games"] == 1
            assert prof["ratings"]["3"]["games"] == 0
        # ranks follow the totals, ties shared
        for s in range(4):
            assert outcome[s]["rank"] == 1 + sum(t > totals[s] for t in totals)
        heuristic = profile(client, "Heuristic")
        assert heuristic["bot"] is True and heuristic["ratings"]["4"]["games"] == 1
        # the kind at seats 2 and 3 is one player: the mean of its two seats' new ratings
        seats = rate([new_rating()] * 4, [outcome[s]["rank"] for s in range(4)])
        assert heuristic["ratings"]["4"]["mu"] == round((seats[2].mu + seats[3].mu) / 2, 3)
        assert profile(client, "Alice")["ratings"]["4"]["mu"] == round(seats[0].mu, 3)
        board = client.get("/api/leaderboard?players=4").json()
        assert {r["name"] for r in board["ranking"]} == {"Alice", "Bob", "Heuristic"}
        assert [r["rank"] for r in board["ranking"]] == [1, 2, 3]
    balances_match_ledger(url)
    games = rows(url, select(GameRow.status, GameRow.competitive, GameRow.counted, GameRow.stake))
    assert games == [("finished", True, True, 100)]


@pytest.mark.parametrize("kind", KINDS)
def test_guests_do_not_sit_at_competitive_tables_nor_without_the_stake(kind: str, tmp_path: Path) -> None:
    with make_client(db_url(kind, tmp_path)) as client:
        guest = Player(client, "Guest")
        guest.send({"type": "create_table", "options": {"competitive": True}})
        assert guest.expect("error")["code"] == "account_only"
        alice = account(client, "Alice", "10.0.0.1")
        tid = create_table(alice, players=3, competitive=True, stake=1000)
        guest.send({"type": "join", "table": tid})
        guest.expect("snapshot")
        guest.send({"type": "sit", "seat": 1})
        assert guest.expect("error")["code"] == "account_only"
        alice.send({"type": "set_options", "options": {"players": 3, "competitive": True, "stake": 1001}})
        alice.expect("event")
        bob = account(client, "Bob", "10.0.0.2")
        bob.send({"type": "join", "table": tid})
        bob.expect("snapshot")
        bob.send({"type": "sit", "seat": 1})
        refused = bob.expect("error")
        assert refused["code"] == "not_enough_chips" and refused["stake"] == 1001
        # a stake at a practice table is refused as a bad message, the table unchanged
        alice.send({"type": "set_options", "options": {"players": 3, "stake": 5}})
        assert alice.expect("error")["code"] == "bad_message"


@pytest.mark.parametrize("kind", KINDS)
def test_two_people_at_one_address_play_for_nothing_and_are_told_before(kind: str, tmp_path: Path) -> None:
    url = db_url(kind, tmp_path)
    with make_client(url) as client:
        alice, bob = account(client, "Alice", "10.0.0.7"), account(client, "Bob", "10.0.0.7")
        tid = create_table(alice, players=3, deals=1, competitive=True, stake=50)
        bob.send({"type": "join", "table": tid})
        bob.expect("snapshot")
        bob.send({"type": "sit", "seat": 1})
        alice.until(lambda s: s["table"]["seats"][1]["taken"])
        assert alice.state is not None and alice.state["counts"] is False  # said before the start
        seat_bots(alice, range(2, 3))
        drive([alice, bob])
        for name in ("Alice", "Bob"):
            prof = profile(client, name)
            assert (prof["chips"], prof["xp"], prof["games"]) == (1000, 0, 0)
            assert prof["ratings"]["3"]["games"] == 0
    assert rows(url, select(GameRow.counted)) == [(False,)]
    assert rows(url, select(LedgerRow.kind).where(LedgerRow.game_id.is_not(None))) == []


@pytest.mark.parametrize("kind", KINDS)
def test_who_leaves_a_competitive_game_is_ranked_last(kind: str, tmp_path: Path) -> None:
    url = db_url(kind, tmp_path)
    with make_client(url) as client:
        alice, bob = account(client, "Alice", "10.0.0.1"), account(client, "Bob", "10.0.0.2")
        tid = create_table(alice, players=3, deals=1, competitive=True, stake=10)
        bob.send({"type": "join", "table": tid})
        bob.expect("snapshot")
        bob.send({"type": "sit", "seat": 1})
        seat_bots(alice, range(2, 3))
        alice.until(lambda s: s["table"]["status"] == "playing")
        bob.send({"type": "leave"})
        drive([alice])
        end = game_end(alice)
        bob_out = end["outcome"][1]
        assert bob_out["left"] is True and bob_out["rank"] == 3 and bob_out["xp"] == 0
        assert bob_out["chips"] == -10
        assert profile(client, "Bob")["chips"] == 990
    assert rows(url, select(GamePlayerRow.left).order_by(GamePlayerRow.seat)) == [(False,), (True,), (False,)]
    balances_match_ledger(url)


def test_who_went_away_and_was_not_back_at_the_end_is_ranked_last(tmp_path: Path) -> None:
    url = db_url("sqlite", tmp_path)
    clock = ManualClock()  # the grace (30 s) passes whenever Alice has nothing to do
    with make_client(url, clock) as client:
        alice, bob = account(client, "Alice", "10.0.0.1"), account(client, "Bob", "10.0.0.2")
        tid = create_table(alice, players=3, deals=1, competitive=True, stake=10)
        bob.send({"type": "join", "table": tid})
        bob.expect("snapshot")
        bob.send({"type": "sit", "seat": 1})
        seat_bots(alice, range(2, 3))
        alice.until(lambda s: s["table"]["status"] == "playing")
        bob.close()  # the tab closed: away, a bot plays for Bob after the grace; he never comes back
        drive([alice], clock=clock)
        bob_out = game_end(alice)["outcome"][1]
        assert bob_out["left"] is True and bob_out["rank"] == 3 and bob_out["xp"] == 0
    balances_match_ledger(url)


def start_two_accounts(client: Any, stake: int = 100) -> tuple[Player, Player]:
    alice, bob = account(client, "Alice", "10.0.0.1"), account(client, "Bob", "10.0.0.2")
    tid = create_table(alice, players=3, deals=2, competitive=True, stake=stake)
    bob.send({"type": "join", "table": tid})
    bob.expect("snapshot")
    bob.send({"type": "sit", "seat": 1})
    seat_bots(alice, range(2, 3))
    alice.until(lambda s: s["table"]["status"] == "playing")
    bob.until(lambda s: s["table"]["status"] == "playing")
    return alice, bob


@pytest.mark.parametrize("kind", KINDS)
def test_a_game_is_cancelled_only_when_every_person_accepts(kind: str, tmp_path: Path) -> None:
    url = db_url(kind, tmp_path)
    with make_client(url, bot_delay=0.3) as client:
        alice, bob = start_two_accounts(client)
        alice.send({"type": "cancel_game"})
        alice.until(lambda s: s["cancel"] is not None)
        bob.until(lambda s: s["cancel"] is not None and s["cancel"]["voters"] == [0, 1])
        bob.send({"type": "cancel_vote", "accept": False})  # one refusal ends the vote
        alice.until(lambda s: s["cancel"] is None)
        assert alice.state is not None and alice.state["table"]["status"] == "playing"
        assert any(m["type"] == "event" and m["event"]["kind"] == "cancel_refused" for m in alice.messages)
        alice.send({"type": "cancel_vote", "accept": True})  # no vote now
        assert alice.expect("error")["code"] == "no_vote"
        bob.send({"type": "cancel_game"})
        alice.until(lambda s: s["cancel"] is not None)
        alice.send({"type": "cancel_vote", "accept": True})
        alice.until(lambda s: s["table"]["status"] == "finished")
        bob.until(lambda s: s["table"]["status"] == "finished")
        assert any(m["type"] == "event" and m["event"]["kind"] == "game_cancelled" for m in bob.messages)
        for name in ("Alice", "Bob"):  # the stakes back, nothing counted
            prof = profile(client, name)
            assert (prof["chips"], prof["xp"], prof["games"]) == (1000, 0, 0)
            assert prof["ratings"]["3"]["games"] == 0
    assert rows(url, select(GameRow.status)) == [("cancelled",)]
    assert sorted(k for (k,) in rows(url, select(LedgerRow.kind).where(LedgerRow.game_id.is_not(None)))) == [
        "refund", "refund", "stake", "stake"]
    balances_match_ledger(url)


def test_a_vote_nobody_answers_ends_and_the_game_goes_on(tmp_path: Path) -> None:
    clock = ManualClock()  # (the bots wait for it too: the game does not run away meanwhile)
    with make_client(db_url("sqlite", tmp_path), clock, bot_delay=0.3) as client:
        alice, _ = start_two_accounts(client, stake=0)
        alice.send({"type": "cancel_game"})
        alice.until(lambda s: s["cancel"] is not None)
        assert alice.state["cancel"]["time_left"] == cancelvote.VOTE_TIME  # type: ignore[index]
        clock.advance(cancelvote.VOTE_TIME - 0.1)
        alice.send({"type": "ping"})
        alice.expect("pong")
        assert alice.state["cancel"] is not None  # type: ignore[index]
        clock.advance(0.1)
        alice.until(lambda s: s["cancel"] is None, timeout=5)
        assert any(m["type"] == "event" and m["event"]["kind"] == "cancel_expired" for m in alice.messages)
        assert alice.state is not None and alice.state["table"]["status"] == "playing"
        guest = Player(client, "Watcher")  # a spectator does not vote
        guest.send({"type": "join", "table": alice.state["table"]["id"]})
        guest.expect("snapshot")
        guest.send({"type": "cancel_game"})
        assert guest.expect("error")["code"] == "not_seated"


def test_a_leaver_gets_no_stake_back_when_the_game_is_cancelled(tmp_path: Path) -> None:
    url = db_url("sqlite", tmp_path)
    with make_client(url, bot_delay=0.3) as client:
        alice, bob = account(client, "Alice", "10.0.0.1"), account(client, "Bob", "10.0.0.2")
        carol = account(client, "Carol", "10.0.0.3")
        tid = create_table(alice, players=3, deals=2, competitive=True, stake=100)
        for seat, pl in ((1, bob), (2, carol)):
            pl.send({"type": "join", "table": tid})
            pl.expect("snapshot")
            pl.send({"type": "sit", "seat": seat})
        alice.until(lambda s: s["table"]["status"] == "playing")
        carol.send({"type": "leave"})  # a bot plays on for Carol; she no longer votes
        alice.until(lambda s: s["table"]["seats"][2]["bot"] is not None)
        alice.send({"type": "cancel_game"})
        bob.until(lambda s: s["cancel"] is not None and s["cancel"]["voters"] == [0, 1])
        bob.send({"type": "cancel_vote", "accept": True})
        alice.until(lambda s: s["table"]["status"] == "finished")
        assert [profile(client, n)["chips"] for n in ("Alice", "Bob", "Carol")] == [1000, 1000, 900]
    balances_match_ledger(url)


@pytest.mark.parametrize("kind", KINDS)
def test_a_practice_game_keeps_who_played_and_counts_for_nothing(kind: str, tmp_path: Path) -> None:
    url = db_url(kind, tmp_path)
    with make_client(url) as client:
        guest = Player(client, "Guest")
        create_table(guest, players=3, deals=1)
        seat_bots(guest, range(1, 3))
        drive([guest])
        assert "outcome" not in game_end(guest)
    entries = rows(url, select(GamePlayerRow.seat, GamePlayerRow.player_id, GamePlayerRow.rank)
                   .order_by(GamePlayerRow.seat))
    assert entries == [(0, guest.id, None), (1, "bot-heuristic", None), (2, "bot-heuristic", None)]
    assert rows(url, select(GameRow.competitive, GameRow.counted)) == [(False, False)]
    assert rows(url, select(LedgerRow.id)) == []
