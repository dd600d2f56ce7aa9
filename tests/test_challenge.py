"""The daily challenge (issue 21): the same deals for everyone, each played once at a table of
one's own against the same bots, compared by R26 with the accounts who held the same cards;
guests play and see where they stand, only accounts rank; a deal's cards stay hidden from who
has not played it. On SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from server_harness import Player, account, db_url, drive, make_client
from tarot.bots.evaluation import contract_for, hand_points
from tarot.engine import Bid, Deal
from tarot.engine.duplicate import TableResult, mark_tables, overall_percentage, rank_marks, rank_standings
from tarot.server.clock import day_of
from tarot.server.competitions import challenge as ch
from tarot.server.table.game import Etui, ServerGame

KINDS = ["sqlite", "postgres"]
DEALS = 2  # a short day: the rules are the same with 8


def test_a_days_deals_are_fixed_by_its_secret_and_tell_nothing_of_each_other() -> None:
    secret = "s" * 64
    etuis = [ch.etui(secret, 4, n) for n in range(1, 9)]
    assert [e.dealer for e in etuis] == [0, 1, 2, 3, 0, 1, 2, 3]  # the first bid goes round
    assert etuis == [ch.etui(secret, 4, n) for n in range(1, 9)]  # everyone gets the same
    assert len({e.seed for e in etuis}) == 8 and len({e.salt for e in etuis}) == 8
    for e in etuis:
        assert not Deal.new(4, e.dealer, seed=e.seed).is_over  # never a petit sec (R6)
        assert e.commitment == hashlib.sha256(f"{e.seed}:{e.salt}".encode()).hexdigest()
        assert secret not in e.seed and secret not in e.salt
    assert ch.etui("t" * 64, 4, 1).seed != etuis[0].seed


def test_an_imposed_deal_that_everybody_passes_is_played_not_dealt_again() -> None:
    """A challenge's deal where all four pass scores 0 for everyone and ends the game (a
    table's usual game deals again: the passes are not a deal played, R6)."""
    for imposed in (True, False):
        game = ServerGame(4, 1, first_dealer=0, etuis=(Etui(1, 0, "0", "salt"),) if imposed else ())
        game.current = game.new_deal("0", "salt")
        for seat in (1, 2, 3, 0):
            game.apply(Bid(seat, None))
        game.close_deal()
        assert game.is_over is imposed


def challenge(pl: Player) -> dict[str, Any]:
    pl.send({"type": "challenge"})
    return pl.expect("challenge")


def play_deal(pl: Player, number: int, seed: int) -> dict[str, Any]:
    """``pl`` plays deal ``number`` of today to its end; the state when it began."""
    pl.state = None
    pl.send({"type": "challenge_play", "deal": number})
    tid = pl.expect("created")["table"]
    pl.send({"type": "join", "table": tid})
    pl.expect("snapshot")
    first = pl.state
    assert first is not None
    drive([pl], seed=seed)
    return first


def expected_percentages(entries: list[tuple[str, int, int, str]]) -> dict[str, float]:
    """R26 from the engine: (player, deal, score, side) → each player's percentage."""
    marks: dict[tuple[str, int], float] = {}
    for deal in {d for _, d, _, _ in entries}:
        field = [(p, s) for p, d, s, _ in entries if d == deal]
        for (p, _), m in zip(field, rank_marks([float(s) for _, s in field]), strict=True):
            marks[(p, deal)] = m
    out = {}
    for player in {p for p, _, _, _ in entries}:
        mine = [(d, side) for p, d, _, side in entries if p == player]
        out[player] = overall_percentage([marks[(player, d)] for d, side in mine if side == "attack"],
                                         [marks[(player, d)] for d, side in mine if side != "attack"])
    return out


@pytest.mark.parametrize("kind", KINDS)
def test_two_accounts_and_a_guest_play_the_same_deals_and_only_accounts_rank(kind: str,
                                                                             tmp_path: Path) -> None:
    with make_client(db_url(kind, tmp_path), challenge_deals=DEALS) as client:
        anne, bruno = account(client, "Anne", "10.0.0.1"), account(client, "Bruno", "10.0.0.2")
        guest = Player(client, "Gaston")
        days = [challenge(pl) for pl in (anne, bruno, guest)]
        assert all(d["deals"] == days[0]["deals"] for d in days)  # the same commitments for all
        assert [d["status"] for d in days[0]["deals"]] == ["new"] * DEALS
        hands: dict[int, list[list[str]]] = {1: [], 2: []}
        for seed, pl in enumerate((anne, bruno, guest)):
            for number in (1, 2):
                first = play_deal(pl, number, seed * 10 + number)
                assert first["table"]["challenge"] == {"day": days[0]["day"], "deal": number}
                assert first["game"]["commitment"] == days[0]["deals"][number - 1]["commitment"]
                assert first["you"] == 0 and first["game"]["dealer"] == number - 1
                hands[number].append(sorted(first["view"]["hand"]))
                assert not pl.errors(), pl.errors()
        for number in (1, 2):  # everyone held the same cards
            assert hands[number][0] == hands[number][1] == hands[number][2]

        # a deal is played once
        anne.send({"type": "challenge_play", "deal": 1})
        assert anne.expect("error")["code"] == "challenge_played"

        mine = {pl.id: challenge(pl) for pl in (anne, bruno, guest)}
        entries = [(pid, d["deal"], d["score"], d["side"]) for pid, day in mine.items() for d in day["deals"]]
        accounts_only = [e for e in entries if e[0] != guest.id]
        expected = expected_percentages(accounts_only)
        for pl in (anne, bruno):
            assert mine[pl.id]["percentage"] == pytest.approx(expected[pl.id], abs=0.01)
            assert all(d["status"] == "done" and d["compared"] == 1 for d in mine[pl.id]["deals"])
        # the guest stands among the accounts without weighing on them
        with_guest = expected_percentages(accounts_only + [e for e in entries if e[0] == guest.id])
        assert mine[guest.id]["percentage"] == pytest.approx(with_guest[guest.id], abs=0.01)
        assert all(d["compared"] == 2 for d in mine[guest.id]["deals"])
        ranking = mine[anne.id]["ranking"]
        assert [r["name"] for r in ranking] == sorted(["Anne", "Bruno"], key=lambda n: -expected[
            anne.id if n == "Anne" else bruno.id])
        assert ranking[0]["rank"] == 1 and all(r["deals"] == DEALS for r in ranking)

        # the public page of the day gives the same ranking, and keeps the secret until tomorrow
        day = client.get(f"/api/challenge/days/{days[0]['day']}").json()
        assert day["ranking"] == ranking and day["secret"] is None and day["played"] == 3
        assert [d["commitment"] for d in day["deals"]] == [d["commitment"] for d in days[0]["deals"]]
        month = client.get(f"/api/challenge/months/{days[0]['day'][:7]}").json()
        assert month["ranking"] == []  # one day: under the month's minimum


@pytest.mark.parametrize("kind", ["sqlite"])
def test_a_deal_not_played_yet_stays_hidden(kind: str, tmp_path: Path) -> None:
    """Its replay and records are refused to who has not played it (and to guests) while the
    day lasts; who has played it sees them."""
    with make_client(db_url(kind, tmp_path), challenge_deals=DEALS) as client:
        anne = account(client, "Anne", "10.0.0.1")
        play_deal(anne, 1, 1)
        gid = challenge(anne)["deals"][0]["game"]
        assert client.get(f"/api/games/{gid}").status_code == 403  # no session: a guest
        assert client.get(f"/api/games/{gid}/records").json()["code"] == "challenge_hidden"
        bruno = account(client, "Bruno", "10.0.0.2")
        as_bruno = {"cookie": f"tarot_session={bruno_cookie(client)}"}
        assert client.get(f"/api/games/{gid}", headers=as_bruno).status_code == 403
        play_deal(bruno, 1, 2)
        assert client.get(f"/api/games/{gid}", headers=as_bruno).status_code == 200
        assert client.get(f"/api/games/{gid}/records", headers=as_bruno).status_code == 200


def bruno_cookie(client: Any) -> str:
    r = client.post("/api/session", json={"name": "Bruno", "password": "password-Bruno"})
    assert r.status_code == 200, r.text
    token = r.cookies.get("tarot_session")
    client.cookies.clear()
    return str(token)


def test_a_challenge_table_is_fixed_and_private_and_a_left_deal_is_found_again(tmp_path: Path) -> None:
    with make_client(db_url("sqlite", tmp_path), challenge_deals=DEALS) as client:
        guest = Player(client, "Gaston")
        guest.send({"type": "challenge_play", "deal": 1})
        tid = guest.expect("created")["table"]
        guest.send({"type": "join", "table": tid})
        guest.expect("snapshot")
        for msg in ({"type": "add_bot", "seat": 1}, {"type": "remove_bot", "seat": 1}, {"type": "new_game"},
                    {"type": "set_options", "options": {"players": 3}}, {"type": "cancel_game"}):
            guest.send(msg)
            assert guest.expect("error")["code"] == "challenge_table"
        other = Player(client, "Nosy")
        other.send({"type": "join", "table": tid})
        assert other.expect("error")["code"] == "invite_only"  # nobody looks at the cards (private)
        guest.send({"type": "challenge_play", "deal": 3})
        assert guest.expect("error")["code"] == "bad_request"  # a day of two deals
        token = guest.token
        guest.close()
        back = Player(client, "Gaston", token=token)
        day = challenge(back)
        assert day["deals"][0]["status"] == "playing" and day["deals"][0]["table"] == tid
        back.send({"type": "challenge_play", "deal": 1})
        assert back.expect("created")["table"] == tid  # the same table, the same cards


def all_pass_secret() -> str:
    """A day's secret whose first deal the club bots all pass (``contract_for``, their bid)."""
    for i in range(10_000):
        secret = f"{i:064x}"
        e = ch.etui(secret, ch.PLAYERS, 1)
        deal = Deal.new(ch.PLAYERS, e.dealer, seed=e.seed)
        if all(contract_for(hand_points(deal.hands[s]), ch.PLAYERS) is None for s in range(1, ch.PLAYERS)):
            return secret
    raise AssertionError("no such day")


def pass_deal(pl: Player) -> None:
    """``pl`` passes at deal 1 of today, as the bots do: the deal is over."""
    pl.state = None
    pl.send({"type": "challenge_play", "deal": 1})
    pl.send({"type": "join", "table": pl.expect("created")["table"]})
    pl.expect("snapshot")
    pl.until(lambda s: pl.my_turn)
    pl.send({"type": "act", "action": {"bid": "pass"}})
    pl.until(lambda s: s["table"]["status"] == "finished")


@pytest.mark.parametrize("kind", KINDS)
def test_a_deal_everybody_passes_counts_0_for_all_and_is_marked_by_r26(
        kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """R26 end to end: the deal where all four pass is a result like any (0 for everyone), ranked
    against the other accounts' (ties sharing their steps: 50 each), counted with the defences;
    the challenge's marks, percentages and ranking are the engine's for the same tables."""
    secret = all_pass_secret()
    monkeypatch.setattr(ch, "secrets", SimpleNamespace(token_hex=lambda _: secret))
    with make_client(db_url(kind, tmp_path), challenge_deals=1) as client:
        anne, bruno = account(client, "Anne", "10.0.0.1"), account(client, "Bruno", "10.0.0.2")
        guest = Player(client, "Gaston")
        for pl in (anne, bruno, guest):
            pass_deal(pl)
            assert not pl.errors(), pl.errors()
        days = {pl.id: challenge(pl) for pl in (anne, bruno, guest)}

        # the engine's R26 on the same tables: each account's own, every seat 0, nobody taking
        bots = tuple(f"bot {s}" for s in range(1, ch.PLAYERS))
        tables = [TableResult((pid, *bots), (0,) * ch.PLAYERS, None) for pid in (anne.id, bruno.id)]
        marked = list(zip(tables, mark_tables(tables), strict=True))
        assert [m.marks[0] for _, m in marked] == [50, 50] and not any(m.attack[0] for _, m in marked)
        names = {anne.id: "anne", bruno.id: "bruno"}  # (ties listed by name)
        engine = rank_standings(marked, order=lambda pid: names[pid], ranked=lambda pid: pid in names)

        for pl in (anne, bruno, guest):
            d = days[pl.id]["deals"][0]
            assert (d["status"], d["score"], d["contract"], d["side"]) == ("done", 0, "pass", "none")
            assert d["mark"] == 50 and d["compared"] == (2 if pl is guest else 1)
            assert days[pl.id]["percentage"] == 50  # a defence mark alone: no attack
        ranking = days[anne.id]["ranking"]
        assert ranking == days[guest.id]["ranking"]  # the guest ranks nowhere
        assert [(r["rank"], r["player"], r["percentage"], r["deals"], r["attack"]) for r in ranking] == [
            (s.rank, s.player, round(s.percentage, 2), s.deals, len(s.attack)) for s in engine]
        assert [(r["rank"], r["name"]) for r in ranking] == [(1, "Anne"), (1, "Bruno")]


def entry(player: str, day: str, deal: int, score: int, side: str = "defence",
          account: bool = True) -> ch.Entry:
    return ch.Entry(day, deal, player, player.capitalize(), account, "t", None, "done", score, side, "garde")


def test_the_days_ranking_counts_accounts_that_played_every_deal_and_shares_ties() -> None:
    from tarot.server.competitions.challenge_ranking import day_ranking

    day = "2026-11-01"
    results = [entry("anne", day, 1, 100, "attack"), entry("bruno", day, 1, -50), entry("chloe", day, 1, -50),
               entry("anne", day, 2, 20), entry("bruno", day, 2, 20), entry("chloe", day, 2, 20),
               entry("david", day, 1, 300, "attack"),  # one deal of two: not ranked, but in the marks
               entry("guest", day, 1, 999, "attack", account=False),
               entry("guest", day, 2, 999, account=False)]
    ranking = day_ranking(results, 2)
    # deal 1: 300, 100, -50, -50 → David 100, Anne 66.67, Bruno and Chloé 16.67; deal 2: all 50
    assert [(s.rank, s.name) for s in ranking] == [(1, "Anne"), (2, "Bruno"), (2, "Chloe")]
    assert ranking[0].percentage == pytest.approx(66.6667 / 4 + 50 * 3 / 4, abs=1e-3)
    assert ranking[1].percentage == ranking[2].percentage == pytest.approx((100 / 6 + 50) / 2, abs=1e-3)


def test_guests_are_marked_against_the_accounts_alone_all_at_once() -> None:
    """``marks(field, guests)``: each guest's deal ranked among the accounts' results of that deal,
    in one call for all of a guest's deals (the day's page computes them once)."""
    from tarot.server.competitions.challenge_ranking import marks

    day = "2026-11-01"
    field = [entry("anne", day, 1, 100), entry("bruno", day, 1, -50), entry("anne", day, 2, 20)]
    guests = [entry("guest", day, 1, 40, account=False), entry("guest", day, 2, 20, account=False)]
    mark = marks(field, guests)
    assert mark == {("anne", 1): 100, ("bruno", 1): 0, ("anne", 2): 50,
                    ("guest", 1): 50, ("guest", 2): 50}  # 100 > 40 > -50; 20 = 20
    assert marks(field) == {k: v for k, v in mark.items() if k[0] != "guest"}  # weighs on nobody's


def test_the_months_ranking_needs_three_complete_days() -> None:
    from tarot.server.competitions.challenge_ranking import month_ranking

    results = []
    for d, (a, b) in enumerate([(10, 0), (0, 10), (10, 0)], start=1):
        day = f"2026-11-0{d}"
        results += [entry("anne", day, 1, a), entry("bruno", day, 1, b)]
    results += [entry("chloe", "2026-11-01", 1, 5), entry("chloe", "2026-11-02", 1, 5)]  # two days
    ranking = month_ranking(results, {f"2026-11-0{d}": 1 for d in (1, 2, 3)})
    assert [(r["name"], r["days"]) for r in ranking] == [("Anne", 3), ("Bruno", 3)]
    # day 1: anne 100, chloé 50, bruno 0; day 2: bruno 100, chloé 50, anne 0; day 3: anne 100, bruno 0
    assert ranking[0]["percentage"] == pytest.approx(200 / 3, abs=0.01)
    assert ranking[1]["percentage"] == pytest.approx(100 / 3, abs=0.01)


def test_the_challenge_api_refuses_days_it_has_not(tmp_path: Path) -> None:
    with make_client(db_url("sqlite", tmp_path), challenge_deals=DEALS) as client:
        r = client.get("/api/challenge/days/2999-01-01")
        assert (r.status_code, r.json()["code"]) == (404, "no_challenge")
        assert client.get("/api/challenge/days/2020-01-01").status_code == 404  # nobody played it
        r = client.get("/api/challenge/days/yesterday")
        assert (r.status_code, r.json()["code"]) == (422, "bad_request")
        today = day_of(time.time())
        assert len(client.get(f"/api/challenge/days/{today}").json()["deals"]) == DEALS
        assert client.get(f"/api/challenge/months/{today[:7]}").json()["ranking"] == []
        assert client.get("/api/challenge/months/2026-13-01").status_code == 422
