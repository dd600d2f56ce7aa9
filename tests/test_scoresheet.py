"""``POST /api/score`` (issue 33, docs/api.md): the score sheet of a game played with real cards.
Each deal scores exactly as ``tarot score`` scores the same deal summary (the engine's
``score_summary``), at 3, 4 and 5 players, with the running totals and the ranking of the engine's
``ScoreSheet``; bad input is a 422 with a reason, never a traceback; nothing is stored."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from typer.testing import CliRunner

from server_harness import make_client
from tarot.cli import app as cli
from tarot.engine import score_summary
from tarot.server.web.api import BODY_LIMITS
from tarot.server.web.scoresheet_api import MAX_DEALS

# (players, the deals as the page sends them), each a case the brief names
SHEETS: dict[str, tuple[int, list[dict[str, Any]]]] = {
    "3 players, a half point, a defence's poignée": (3, [
        {"taker": 0, "contract": "prise", "oudlers": 2, "points": 40.5},
        {"taker": 2, "contract": "garde", "oudlers": 1, "points": 60.5,
         "poignees": [{"size": "double", "side": "defence"}], "petit_au_bout": "defence"},
    ]),
    "4 players, poignée, petit au bout, chelem": (4, [
        # docs/rules.md's worked example 1: taker +318, defenders −106
        {"taker": 1, "contract": "garde", "oudlers": 2, "points": 49, "petit_au_bout": "attack",
         "poignees": [{"size": "simple", "side": "attack"}]},
        # worked example 5: a chelem announced and made, +1746 / −582
        {"taker": 3, "contract": "garde", "oudlers": 2, "points": 87, "petit_au_bout": "attack",
         "poignees": ["simple"], "chelem_announced": True, "chelem": "attack"},
        # a chelem announced and missed, garde contre lost
        {"taker": 0, "contract": "garde_contre", "oudlers": 1, "points": 44, "chelem_announced": True},
        {"taker": 2, "contract": "garde_sans", "oudlers": 3, "points": 40, "chelem": "defence",
         "poignees": [{"size": "triple", "side": "attack"}, {"size": "simple", "side": "defence"}]},
    ]),
    "5 players, a partner, the taker alone": (5, [
        {"taker": 0, "contract": "garde", "partner": 3, "oudlers": 2, "points": 52.5,
         "poignees": [{"size": "simple", "side": "attack"}], "petit_au_bout": "attack"},
        {"taker": 4, "contract": "prise", "partner": None, "oudlers": 1, "points": 48},  # alone (null)
        {"taker": 2, "contract": "garde_sans", "partner": 2, "oudlers": 3, "points": 37},  # called himself
    ]),
}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Path]]:
    db = tmp_path_factory.mktemp("scoresheet") / "tarot.sqlite3"
    with make_client(f"sqlite:///{db}") as client:
        yield client, db


def score(site: tuple[Any, Path], body: Any, **kw: Any) -> Any:
    return site[0].post("/api/score", json=body, **kw)


def summaries(players: int, deals: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The deals as ``tarot score``'s deal summaries (docs/records.md)."""
    out = []
    for d in deals:
        s = {"players": players, **d}
        s["poignees"] = [p if isinstance(p, str) else p["size"] for p in d.get("poignees", [])]
        out.append(s)
    return out


def cli_scores(tmp_path: Path, players: int, deals: list[dict[str, Any]]) -> list[list[int]]:
    """What ``tarot score --json`` says of the same deals, as one score sheet."""
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(summaries(players, deals)), encoding="utf-8")
    result = CliRunner().invoke(cli, ["score", "--json", str(path)], env={"LANG": "C.UTF-8"})
    assert result.exit_code == 0, result.output
    return [json.loads(line)["scores"] for line in result.stdout.splitlines()]


@pytest.mark.parametrize("case", list(SHEETS))
def test_each_deal_scores_as_tarot_score_does(site: tuple[Any, Path], tmp_path: Path, case: str) -> None:
    players, deals = SHEETS[case]
    answer = score(site, {"players": players, "deals": deals})
    assert answer.status_code == 200, answer.text
    got = answer.json()
    expected = cli_scores(tmp_path, players, deals)
    assert [row["scores"] for row in got["deals"]] == expected
    assert [list(score_summary(s).scores) for s in summaries(players, deals)] == expected
    totals = [sum(col) for col in zip(*expected, strict=True)]
    assert got["totals"] == totals and got["players"] == players
    running = [0] * players
    for number, (row, scores) in enumerate(zip(got["deals"], expected, strict=True), 1):
        assert sum(row["scores"]) == 0  # R24: every deal sums to zero
        running = [a + b for a, b in zip(running, scores, strict=True)]
        assert row["totals"] == running and row["deal"] == number
        assert "dealer" not in row and "annulled" not in row
    # best first, ties sharing a rank (R25)
    ranking = got["ranking"]
    assert sorted(p["seat"] for p in ranking) == list(range(players))
    assert [p["total"] for p in ranking] == sorted(totals, reverse=True)
    for p in ranking:
        assert p["rank"] == 1 + sum(t > p["total"] for t in totals)


def test_the_figures_of_a_deal_are_the_engines(site: tuple[Any, Path]) -> None:
    players, deals = SHEETS["4 players, poignée, petit au bout, chelem"]
    first, second, third, fourth = score(site, {"players": players, "deals": deals}).json()["deals"]
    assert first["scores"] == [-106, 318, -106, -106]  # docs/rules.md, worked example 1
    assert (first["contract"], first["target"], first["made"], first["margin"], first["per_defender"]) == (
        "garde", 41, True, 8, 106)
    assert (first["petit_au_bout_prime"], first["poignee_prime"], first["poignees"]) == (20, 20, ["simple"])
    assert second["scores"] == [-582, -582, -582, 1746] and second["chelem_prime"] == 400  # example 5
    assert third["chelem_prime"] == -200 and not third["made"]  # announced, missed
    assert fourth["chelem_prime"] == -200 and fourth["poignee_prime"] == 60  # the defence's chelem
    partner, alone, himself = score(site, {"players": 5, "deals": SHEETS[
        "5 players, a partner, the taker alone"][1]}).json()["deals"]
    s = partner["per_defender"]
    assert partner["partner"] == 3 and partner["scores"] == [2 * s, -s, -s, s, -s]  # R24 at five
    assert alone["partner"] is None and alone["scores"][4] == 4 * alone["per_defender"]
    assert himself["partner"] is None and himself["scores"][2] == 4 * himself["per_defender"]


def test_an_empty_sheet_is_all_zero(site: tuple[Any, Path]) -> None:
    got = score(site, {"players": 3, "deals": []}).json()
    assert got == {"players": 3, "deals": [], "totals": [0, 0, 0],
                   "ranking": [{"seat": s, "total": 0, "rank": 1} for s in range(3)]}


GOOD = {"taker": 0, "contract": "garde", "oudlers": 2, "points": 49}


@pytest.mark.parametrize(("players", "deal", "reason"), [
    (4, {**GOOD, "partner": 2}, "R8: there is no partner at 4 players"),
    (4, {**GOOD, "points": 49.5}, "R21: half points cannot occur at 4 players"),
    (3, {**GOOD, "points": 92}, "R3: points must be 0…91"),
    (5, {**GOOD, "points": 40.25}, "in steps of 0.5"),
    (4, {**GOOD, "oudlers": 4}, "R2: oudlers must be 0…3"),
    (4, {**GOOD, "taker": 4}, "R4: taker must be a seat 0…3"),
    (5, {**GOOD, "partner": 7}, "R4: partner must be a seat 0…4"),
    (4, {**GOOD, "contract": "petite"}, "R7: unknown contract 'petite'"),
    (4, {**GOOD, "points": -1}, "R3: points must be 0…91"),
])
def test_a_deal_the_engine_refuses_is_a_422_with_its_reason(site: tuple[Any, Path], players: int,
                                                            deal: dict[str, Any], reason: str) -> None:
    answer = score(site, {"players": players, "deals": [GOOD, deal]})
    assert answer.status_code == 422
    got = answer.json()
    assert got["code"] == "bad_deal" and got["deal"] == 2
    assert got["error"].startswith("deal 2: ") and reason in got["error"], got


@pytest.mark.parametrize("body", [
    {"players": 6, "deals": []},
    {"players": 4},
    {"players": 4, "deals": [{**GOOD, "points": "49"}]},
    {"players": 4, "deals": [{**GOOD, "oudlers": True}]},
    {"players": 4, "deals": [{**GOOD, "names": "Alice"}]},  # a key it does not know
    {"players": 4, "deals": [{**GOOD, "poignees": [{"size": "simple", "side": "both"}]}]},
    {"players": 4, "deals": [{**GOOD, "poignees": ["quadruple"]}]},
    {"players": 4, "deals": [{**GOOD, "petit_au_bout": "taker"}]},
    {"players": 4, "deals": [{**GOOD, "chelem_announced": "yes"}]},
    {"players": 4, "deals": [GOOD] * (MAX_DEALS + 1)},
    {"players": 4, "deals": {"0": GOOD}},
    [GOOD],
])
def test_a_body_off_the_shape_is_a_422_bad_request(site: tuple[Any, Path], body: Any) -> None:
    answer = score(site, body)
    assert answer.status_code == 422
    got = answer.json()
    assert got["code"] == "bad_request" and got["error"].startswith("bad request: ")
    assert "Traceback" not in answer.text


def test_not_json_too_large_cross_site_and_get(site: tuple[Any, Path]) -> None:
    client = site[0]
    answer = client.post("/api/score", content=b"{players: 4", headers={"Content-Type": "application/json"})
    assert answer.status_code == 422 and answer.json()["error"] == "bad request: the body is not JSON"
    limit = BODY_LIMITS["/api/score"]
    big = json.dumps({"players": 4, "deals": [GOOD] * MAX_DEALS}).encode()
    assert len(big) < limit  # a sheet of MAX_DEALS full deals fits
    huge = b'{"players": 4, "deals": [], "x": "' + b"x" * limit + b'"}'
    answer = client.post("/api/score", content=huge, headers={"Content-Type": "application/json"})
    assert answer.status_code == 413 and answer.json()["code"] == "too_large"
    answer = score(site, {"players": 4, "deals": [GOOD]}, headers={"Origin": "https://elsewhere.example"})
    assert answer.status_code == 403 and answer.json()["code"] == "cross_site"
    assert client.get("/api/score").status_code == 405


def _rows(db: Path) -> dict[str, int]:
    with sqlite3.connect(db) as con:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {t: con.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0] for t in tables}


def test_scoring_stores_nothing(site: tuple[Any, Path]) -> None:
    db = site[1]
    before, files = _rows(db), sorted(p.name for p in db.parent.iterdir())
    for players, deals in SHEETS.values():
        assert score(site, {"players": players, "deals": deals}).status_code == 200
    assert score(site, {"players": 4, "deals": [{**GOOD, "points": 95}]}).status_code == 422
    assert _rows(db) == before and sorted(p.name for p in db.parent.iterdir()) == files
