"""``tarot ladder``: bot-only games rated on the site's ladder (openskill), stored in its database.

Random and heuristic bots and one-deal games keep these fast. On SQLite, and on PostgreSQL too
when TAROT_TEST_POSTGRES_URL is set.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sqlalchemy")
pytest.importorskip("openskill")

from sqlalchemy import create_engine
from typer.testing import CliRunner

from server_harness import db_url
from tarot.cli import app
from tarot.cli.ladder import rate_game
from tarot.cli.ladder_games import LadderConfig, parse_kinds, seat_kinds
from tarot.server.players import players
from tarot.server.players.ratings import Rating, new_rating, ranks, rate
from tarot.server.store.store import normalize_url

KINDS = ["sqlite", "postgres"]
SMALL = ["--players", "4", "--deals", "1", "--bots", "random,heuristic"]
runner = CliRunner()


def invoke(*args: str | Path) -> Any:
    result = runner.invoke(app, ["ladder", *map(str, args)],
                           env={"COLUMNS": "120", "TAROT_DEBUG": None, "LC_ALL": None, "LANG": "en_US"})
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def ladder_json(*args: str | Path) -> dict[str, Any]:
    result = invoke(*args, "--json")
    assert result.exit_code == 0, result.output
    obj: dict[str, Any] = json.loads(result.stdout)
    return obj


def stored(url: str, keys: list[str], count: int = 4) -> dict[str, Rating]:
    """The ratings the database holds for the bots ``keys`` (their accounts are ``bot-<key>``)."""
    engine = create_engine(normalize_url(url))
    try:
        with engine.connect() as conn:
            return dict(zip(keys, players.ratings_of(conn, [f"bot-{k}" for k in keys], count), strict=True))
    finally:
        engine.dispose()


def appearances(seed: int, games: int, kinds: tuple[str, ...] = ("random", "heuristic")) -> Counter[str]:
    """How many of the run's games each kind played (once per game, however many seats)."""
    config = LadderConfig(players=4, games=games, deals=1, kinds=kinds, seed=seed)
    return Counter(k for g in range(games) for k in set(seat_kinds(config, g)))


def check_printed_equals_stored(obj: dict[str, Any], url: str) -> None:
    ratings = stored(url, [line["bot"] for line in obj["ladder"]])
    for line in obj["ladder"]:
        assert {k: line[k] for k in ("mu", "sigma", "ordinal", "games")} == ratings[line["bot"]].to_dict()
    ordinals = [line["ordinal"] for line in obj["ladder"]]
    assert ordinals == sorted(ordinals, reverse=True)
    assert [line["rank"] for line in obj["ladder"]] == list(range(1, len(ordinals) + 1))


# --- end to end ------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
def test_a_run_stores_the_ratings_it_prints_and_a_second_run_adds_up(kind: str, tmp_path: Path) -> None:
    url = db_url(kind, tmp_path)
    first = ladder_json(*SMALL, "--games", "6", "--jobs", "1", "--seed", "5", "--db", url)
    assert (first["players"], first["games"], first["deals"], first["seed"]) == (4, 6, 1, 5)
    assert first["bots"] == ["random", "heuristic"]
    assert {line["bot"] for line in first["ladder"]} == {"random", "heuristic"}
    check_printed_equals_stored(first, url)
    counted = appearances(5, 6)
    assert {line["bot"]: line["games"] for line in first["ladder"]} == counted
    assert sum(counted.values()) >= 6  # every game counted for each kind in it

    second = ladder_json(*SMALL, "--games", "4", "--jobs", "1", "--seed", "6", "--db", url)
    check_printed_equals_stored(second, url)
    assert {line["bot"]: line["games"] for line in second["ladder"]} == counted + appearances(6, 4)
    before = {line["bot"]: line["sigma"] for line in first["ladder"]}
    assert all(line["sigma"] < before[line["bot"]] for line in second["ladder"])  # more games, more certain
    assert {line["name"] for line in second["ladder"]} == {"Random", "Heuristic"}


def test_the_table_shows_the_stored_figures(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ladder.sqlite3'}"
    result = invoke(*SMALL, "--games", "5", "--seed", "2", "--db", url, "--lang", "en")
    assert result.exit_code == 0, result.output
    assert "Bots' ladder at 4 players (5 game(s) of 1 deal(s), seed 2)" in result.stdout
    ratings = stored(url, ["random", "heuristic"])
    best = max(ratings, key=lambda k: ratings[k].ordinal)
    rows = {line.split()[1]: line.split() for line in result.stdout.splitlines()
            if line.split()[1:2] in (["Random"], ["Heuristic"])}
    assert rows[best.capitalize()][0] == "1"
    for key, r in ratings.items():
        figures = [f"{x:.2f}" for x in (r.mu, r.sigma, r.ordinal)]
        assert rows[key.capitalize()][2:] == [*figures, str(r.games)]
    french = invoke(*SMALL, "--games", "1", "--seed", "3", "--db", url, "--lang", "fr")
    assert "Classement des robots à 4 joueurs" in french.stdout and "Parties" in french.stdout
    for r in stored(url, ["random", "heuristic"]).values():  # (a decimal comma, a true minus)
        for x in (r.mu, r.sigma, r.ordinal):
            assert f"{x:.2f}".replace("-", "\u2212").replace(".", ",") in french.stdout
    assert min(r.ordinal for r in stored(url, ["random", "heuristic"]).values()) < 0  # (one of them shown)
    assert re.search(r"· \d+,\d s sur 1 processus", french.stdout)


def test_the_same_seed_gives_the_same_ratings_whatever_the_jobs(tmp_path: Path) -> None:
    urls = [f"sqlite:///{tmp_path / f'jobs{j}.sqlite3'}" for j in (1, 2)]
    for jobs, url in zip((1, 2), urls, strict=True):
        obj = ladder_json(*SMALL, "--games", "6", "--seed", "11", "--jobs", str(jobs), "--db", url)
        assert obj["jobs"] == jobs
    one, two = (stored(url, ["random", "heuristic"]) for url in urls)
    assert one == two  # the floats themselves, not rounded
    assert one["random"] != new_rating()


def test_the_ladder_on_ray_rates_as_its_processes_do(tmp_path: Path) -> None:
    """Issue 36: ``--ray local`` plays the games as Ray tasks and rates them in their order: the
    same ratings as ``--jobs 2`` for the same seed."""
    pytest.importorskip("ray")
    urls = [f"sqlite:///{tmp_path / f'{how}.sqlite3'}" for how in ("jobs", "ray")]
    for extra, url in zip(([], ["--ray", "local"]), urls, strict=True):
        ladder_json(*SMALL, "--games", "4", "--seed", "13", "--jobs", "2", "--db", url, *extra)
    assert stored(urls[0], ["random", "heuristic"]) == stored(urls[1], ["random", "heuristic"])


def test_shards_merged_rate_as_one_run(tmp_path: Path) -> None:
    """Issue 36: --shard I/N --out-results plays every N-th game (no database); tarot ladder merge
    rates the shards' games in their order: the same ratings as the run in one go, same seed; a
    shard missing, twice or of another run is refused in one line."""
    run = [*SMALL, "--games", "5", "--seed", "21"]
    whole = f"sqlite:///{tmp_path / 'whole.sqlite3'}"
    ladder_json(*run, "--db", whole)
    parts = []
    for i in (1, 2):
        path = tmp_path / f"shard-{i}.json"
        result = invoke(*run, "--shard", f"{i}/2", "--out-results", path, "--lang", "en")
        assert result.exit_code == 0, result.output
        played = len(range(i - 1, 5, 2))
        assert f"Shard {i}/2: {played} of the run's 5 game(s) played (seed 21)" in result.stdout
        parts.append(path)
    merged = f"sqlite:///{tmp_path / 'merged.sqlite3'}"
    obj = ladder_json("merge", *reversed(parts), "--db", merged)  # (any order)
    assert obj["games"] == 5 and obj["seed"] == 21
    assert stored(merged, ["random", "heuristic"]) == stored(whole, ["random", "heuristic"])
    french = invoke(*run, "--shard", "1/2", "--out-results", tmp_path / "fr.json", "--lang", "fr")
    assert "Part 1/2\u00a0: 3 des 5 partie(s) jouée(s) (graine 21)" in french.stdout

    for args, reason in (([parts[0]], "games missing from the shards: 1, 3"),
                         ([parts[0], parts[0], parts[1]], "is in two shards"),
                         ([tmp_path / "nothing.json"], "no such file")):
        refused = invoke("merge", *args, "--db", merged)
        assert refused.exit_code == 1 and reason in refused.stderr, refused.output
    other = tmp_path / "other.json"
    assert invoke(*run[:-1], "22", "--shard", "1/1", "--out-results", other).exit_code == 0
    mixed = invoke("merge", parts[0], other, "--db", merged)
    assert mixed.exit_code == 1 and "another run" in mixed.stderr
    forged = json.loads(parts[1].read_text())  # a seat no bot of the run could hold
    forged["outcomes"][0]["kinds"][0] = "nobody"
    (tmp_path / "forged.json").write_text(json.dumps(forged))
    refused = invoke("merge", parts[0], tmp_path / "forged.json", "--db", merged)
    assert refused.exit_code == 1 and "are not of this run" in refused.stderr
    for args, reason in ((["--shard", "1/2"], "--shard needs --out-results"),
                         (["--shard", "3/2", "--out-results", other], "--shard"),
                         (["--out-results", other], "give --shard I/N too"),
                         (["--shard", "1/2", "--out-results", other, "--db", whole],
                          "give --db to tarot ladder merge")):
        refused = invoke(*run, *args)
        assert refused.exit_code == 1 and reason in refused.stderr, (args, refused.output)


def test_the_default_database_is_the_sites(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    obj = ladder_json(*SMALL, "--games", "1", "--seed", "1")
    assert obj["database"] == f"sqlite:///{tmp_path / 'tarot.sqlite3'}"
    assert (tmp_path / "tarot.sqlite3").exists()
    check_printed_equals_stored(obj, obj["database"])


def test_a_search_bot_is_rated_under_its_budget(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ladder.sqlite3'}"
    obj = ladder_json("--players", "3", "--deals", "1", "--games", "1", "--bots", "search,random",
                      "--think", "0.002", "--seed", "4", "--db", url)
    seated = set(seat_kinds(LadderConfig(players=3, games=1, kinds=("search", "random"), seed=4), 0))
    names = {"search": ("search-0.002", "Search 0.002 s"), "random": ("random", "Random")}
    assert {(line["bot"], line["name"]) for line in obj["ladder"]} == {names[k] for k in seated}
    assert {r.games for r in stored(url, [names[k][0] for k in seated], 3).values()} == {1}
    assert stored(url, [names[k][0] for k in seated], 4) == {names[k][0]: new_rating() for k in seated}


def test_a_search_bot_on_a_fixed_budget_is_a_player_of_its_own(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ladder.sqlite3'}"
    args = ("--players", "3", "--deals", "1", "--games", "1", "--bots", "search", "--playouts", "30",
            "--seed", "4", "--db", url)
    obj = ladder_json(*args)
    assert obj["playouts"] == 30
    assert [(line["bot"], line["name"]) for line in obj["ladder"]] == [("search-p30", "Search 30 playouts")]
    assert stored(url, ["search-p30"], 3)["search-p30"].games == 1


# --- the rule for a kind holding several seats ------------------------------------------------------

def test_a_kind_in_several_seats_gets_the_mean_of_its_seats_and_one_game() -> None:
    current = {"a": Rating(27.0, 6.0, 10), "b": Rating(24.0, 7.5, 3), "c": Rating(22.0, 8.0, 0)}
    seats, totals = ["a", "b", "a", "c"], [90, -30, 30, -90]
    after = rate([current[p] for p in seats], ranks(totals))
    new = rate_game(current, seats, totals)
    assert set(new) == {"a", "b", "c"}
    assert new["a"].mu == pytest.approx((after[0].mu + after[2].mu) / 2)
    assert new["a"].sigma == pytest.approx((after[0].sigma + after[2].sigma) / 2)
    assert new["b"] == Rating(after[1].mu, after[1].sigma, 4)
    assert new["c"] == Rating(after[3].mu, after[3].sigma, 1)
    assert new["a"].games == 11  # one game, not two
    # the first and the third seat started alike but finished 1st and 2nd: their mean lies between
    assert after[2].mu < new["a"].mu < after[0].mu


def test_a_kind_in_every_seat_counts_one_game() -> None:
    start = new_rating()
    new = rate_game({"a": start}, ["a"] * 4, [30, 10, -10, -30])
    assert list(new) == ["a"] and new["a"].games == 1
    assert new["a"].mu == pytest.approx(start.mu, abs=0.5)  # it beat itself as often as it lost
    assert new["a"].sigma < start.sigma


def test_seats_are_drawn_with_repetition_from_the_seed_alone() -> None:
    config = LadderConfig(players=5, games=40, kinds=("random", "heuristic", "search"), seed=9)
    draws = [seat_kinds(config, g) for g in range(40)]
    assert draws == [seat_kinds(config, g) for g in range(40)]
    assert any(len(set(d)) < len(d) for d in draws) and {k for d in draws for k in d} == set(config.kinds)
    assert parse_kinds(" random, heuristic,,random ") == ("random", "heuristic")


# --- bad input --------------------------------------------------------------------------------

@pytest.mark.parametrize(("args", "reason"), [
    (["--bots", "random,nosuch"], "unknown bot 'nosuch'"),
    (["--bots", "tests.arena_plugins:FirstLegalBot"], "unknown bot"),
    (["--bots", ","], "--bots names no bot"),
    (["--games", "0"], "--games must be at least 1, not 0"),
    (["--deals", "0"], "--deals must be at least 1"),
    (["--jobs", "0"], "--jobs must be at least 1"),
    (["--players", "6"], "--players must be 3, 4 or 5, not 6"),
    (["--think", "0"], "--think must be a positive number"),
    (["--playouts", "0"], "--playouts must be at least 1, not 0"),
    (["--db", "nosuch://x"], "cannot open the database nosuch://x"),
    (["--db", "sqlite:////nonexistent-dir/x.sqlite3"], "cannot open the database"),
    (["--db", "not a url"], "cannot open the database"),
])
def test_bad_input_is_one_line_and_status_1(args: list[str], reason: str) -> None:
    result = invoke(*SMALL, "--games", "1", *args)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("error: ")
    assert reason in result.stderr


def test_without_the_server_extra_the_command_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "tarot.cli.ladder", None)  # as if SQLAlchemy were missing
    for args in (["--games", "1"], ["merge", "shard.json"]):
        result = invoke(*args)
        assert result.exit_code == 1
        assert result.stderr.startswith("error: tarot ladder needs the server extra")


def test_the_help_tells_the_rule_for_a_kind_in_several_seats() -> None:
    result = invoke("--help")
    assert result.exit_code == 0
    assert "mean of its seats' new mu and sigma" in " ".join(result.stdout.split())
