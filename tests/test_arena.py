"""The duplicate arena (``tarot arena`` and ``tarot.bots.arena``): bookkeeping, determinism, output shapes.

Random bots and a few deals keep these fast; ``arena_plugins`` (next to this file) holds plug-ins
loaded by import path.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tarot.bots import bot_options, build_bot
from tarot.bots.arena import CONTRACTS, ArenaConfig, derive_seed, run_arena
from tarot.bots.search import SearchBot
from tarot.cli import app
from tarot.engine import Deal, DealRecord

TESTS = Path(__file__).resolve().parent
TAROT = Path(sys.executable).with_name("tarot")
KEYS = ["players", "deals", "candidate", "baseline", "mean_gain", "ci95_low", "ci95_high",
        "decision_ms_median", "decision_ms_p99", "seed", "jobs", "think", "taking_rate", "contracts",
        "illegal_candidate", "illegal_baseline", "seconds"]
# What must not depend on the job count (times and wall time do).
STABLE = ["mean_gain", "ci95_low", "ci95_high", "stdev", "taking_rate", "contracts", "decisions",
          "illegal_candidate", "illegal_baseline"]
runner = CliRunner()


def invoke(*args: str | Path) -> Any:
    result = runner.invoke(app, ["arena", *map(str, args)], env={"COLUMNS": "100", "TAROT_DEBUG": None})
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result


def arena_json(*args: str | Path) -> dict[str, Any]:
    result = invoke(*args, "--json")
    assert result.exit_code == 0, result.output
    obj: dict[str, Any] = json.loads(result.stdout)
    return obj


def test_json_shape_and_a_bot_against_itself_gains_exactly_zero() -> None:
    # Same bot, same seed per seat: every placement replays the all-baseline game move for move.
    obj = arena_json("--players", "4", "--deals", "6", "--candidate", "random", "--baseline", "random",
                     "--seed", "3")
    assert set(KEYS) <= set(obj)
    assert (obj["players"], obj["deals"], obj["candidate"], obj["baseline"]) == (4, 6, "random", "random")
    assert (obj["seed"], obj["jobs"], obj["think"]) == (3, 1, None)
    assert obj["mean_gain"] == obj["ci95_low"] == obj["ci95_high"] == 0
    assert list(obj["contracts"]) == list(CONTRACTS)
    taken = sum(c["taken"] for c in obj["contracts"].values())
    assert obj["taking_rate"] == taken / (6 * 4)
    assert all(0 <= c["made"] <= c["taken"] for c in obj["contracts"].values())
    assert obj["illegal_candidate"] == obj["illegal_baseline"] == 0
    assert 0 <= obj["decision_ms_median"] <= obj["decision_ms_p99"]
    assert obj["seconds"] > 0


@pytest.mark.parametrize("players", [3, 4, 5])
def test_gains_are_the_duplicate_differences_of_the_saved_deals(players: int) -> None:
    """Recompute every gain from the records: placement s at seat s minus the all-baseline seat s."""
    config = ArenaConfig("random", "arena_plugins:FirstLegalBot", players=players, deals=4, seed=7,
                         keep_records=True)
    result = run_arena(config)
    records = result.records
    assert len(records) == (players + 1) * 4
    gains = []
    for k in range(4):
        group = records[k * (players + 1):(k + 1) * (players + 1)]
        seed = derive_seed(7, k, "deal")
        fresh = Deal.new(players, dealer=k % players, seed=seed)
        for r in group:
            assert (r["deal"], r["seed"], r["dealer"]) == (k, seed, k % players)
            assert DealRecord.from_dict(r).hands == DealRecord.from_deal(fresh).hands
        assert group[0]["players_names"] == ["arena_plugins:FirstLegalBot"] * players
        base = DealRecord.from_dict(group[0]).replay().result().scores or (0,) * players
        diffs = []
        for s, r in enumerate(group[1:]):
            names = ["arena_plugins:FirstLegalBot"] * players
            names[s] = "random"
            assert r["players_names"] == names
            scores = DealRecord.from_dict(r).replay().result().scores or (0,) * players
            diffs.append(scores[s] - base[s])
        gains.append(sum(diffs) / players)
    assert result.gains == gains
    assert any(g != 0 for g in gains)  # a real comparison, not the trivial one
    assert result.mean_gain == sum(gains) / 4
    ci = result.ci95
    assert ci is not None and ci[0] < result.mean_gain < ci[1]


def test_same_seed_same_figures_whatever_the_job_count() -> None:
    args = ("--players", "4", "--deals", "8", "--candidate", "random", "--baseline",
            "arena_plugins:FirstLegalBot", "--seed", "11")
    one, two = arena_json(*args, "--jobs", "1"), arena_json(*args, "--jobs", "2")
    assert (one["jobs"], two["jobs"]) == (1, 2)
    assert {k: one[k] for k in STABLE} == {k: two[k] for k in STABLE}
    assert one["mean_gain"] != 0
    other = arena_json(*args[:-1], "12")
    assert other["mean_gain"] != one["mean_gain"]  # and the seed matters


def test_subprocess_run_saves_deals_that_replay(tmp_path: Path) -> None:
    out = tmp_path / "arena.json"
    env = {**os.environ, "LANG": "C.UTF-8"}
    env.pop("TAROT_DEBUG", None)
    proc = subprocess.run([str(TAROT), "arena", "--players", "3", "--deals", "3", "--candidate", "random",
                           "--baseline", "random", "--seed", "5", "--jobs", "2", "--json", "--out", str(out)],
                          capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""  # no progress bar when stderr is not a terminal
    obj = json.loads(proc.stdout)
    assert (obj["players"], obj["deals"], obj["mean_gain"]) == (3, 3, 0)
    records = json.loads(out.read_text(encoding="utf-8"))
    assert len(records) == (3 + 1) * 3
    assert [r["deal"] for r in records] == [0] * 4 + [1] * 4 + [2] * 4
    replay = subprocess.run([str(TAROT), "replay", str(out), "--json"], capture_output=True, text=True,
                            timeout=120, env=env)
    assert replay.returncode == 0, replay.stderr
    game = json.loads(replay.stdout)
    assert game["legal"] is True and len(game["deals"]) == 12


def test_table_output() -> None:
    result = invoke("--deals", "3", "--candidate", "random", "--baseline", "random", "--seed", "2")
    assert result.exit_code == 0, result.output
    for words in ("random vs random", "mean gain per deal", "95% confidence interval", "taking rate",
                  "garde contre", "decision time, median", "99th percentile", "illegal actions, candidate"):
        assert words in result.stdout


def test_a_plug_in_by_import_path_is_the_same_bot_as_by_name() -> None:
    obj = arena_json("--deals", "4", "--candidate", "tarot.bots.random_bot:RandomBot", "--baseline", "random")
    assert obj["candidate"] == "tarot.bots.random_bot:RandomBot"
    assert obj["mean_gain"] == 0


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_faulty_plug_in_is_counted_and_does_not_stop_the_match(jobs: int) -> None:
    cand = arena_json("--deals", "2", "--candidate", "arena_plugins:JunkBot", "--baseline", "random",
                      "--jobs", str(jobs))
    assert cand["illegal_candidate"] > 0 and cand["illegal_baseline"] == 0
    examples = " ".join(cand["illegal_examples"])
    assert "returned no action" in examples and "not an action" in examples and "RuntimeError" in examples
    base = run_arena(ArenaConfig("random", "arena_plugins:JunkBot", deals=2, jobs=jobs))
    assert base.illegal_baseline > cand["illegal_candidate"] and base.illegal_candidate == 0


def test_heuristic_baseline_single_deal_has_no_interval() -> None:
    obj = arena_json("--deals", "1", "--candidate", "random", "--baseline", "heuristic")
    assert obj["deals"] == 1 and obj["baseline"] == "heuristic"
    assert obj["ci95_low"] is None and obj["ci95_high"] is None
    assert obj["illegal_baseline"] == 0


def test_think_goes_to_the_search_bot_only() -> None:
    assert bot_options("search", 0.05) == {"think": 0.05}
    assert bot_options("random", 0.05) == bot_options("heuristic", 0.05) == {}
    assert bot_options("search", None) == {}
    assert run_arena(ArenaConfig("random", "random", deals=1, think=0.05)).config.think == 0.05


def test_playouts_give_the_search_bot_a_fixed_budget() -> None:
    """``--playouts N``: the search bot's budget is N playouts a decision, the clock ignored (its
    choices depend on the view and the seed only: test_calibrate), shown in the figures."""
    assert bot_options("search", None, 40) == {"playouts": 40}
    assert bot_options("heuristic", 0.1, 40) == {}
    bot = build_bot("search", 1, None, 40)
    assert isinstance(bot, SearchBot) and bot.fixed and bot.playouts == 40
    match = ("--players", "3", "--deals", "1", "--candidate", "search", "--playouts", "40", "--seed", "5")
    obj, again = arena_json(*match), arena_json(*match)
    assert obj["playouts"] == 40 and obj["think"] is None
    assert {k: obj[k] for k in STABLE} == {k: again[k] for k in STABLE}
    table = invoke("--players", "3", "--deals", "1", "--candidate", "random", "--playouts", "40")
    assert "40 playouts" in table.stdout
    refused = invoke("--deals", "1", "--playouts", "0")
    assert refused.exit_code == 1 and "playouts must be at least 1, not 0" in refused.stderr


def test_seeds_depend_on_seed_deal_and_part_only() -> None:
    assert derive_seed(1, 0, "deal") == derive_seed(1, 0, "deal")
    seeds = {derive_seed(s, k, "bot", seat) for s in (1, 2) for k in (0, 1) for seat in range(5)}
    assert len(seeds) == 20 and all(0 <= x < 2**64 for x in seeds)


@pytest.mark.parametrize(("args", "reason"), [
    (["--candidate", "nosuch"], "unknown bot 'nosuch'"),
    (["--baseline", "no_such_module:Bot"], "cannot import bot module 'no_such_module'"),
    (["--candidate", "arena_plugins:BrokenBot"], "RuntimeError: no model file"),
    (["--candidate", "arena_plugins:NOT_A_BOT"], "is not a bot class"),
    (["--players", "6"], "players must be 3, 4 or 5, not 6"),
    (["--deals", "0"], "deals must be at least 1"),
    (["--jobs", "0"], "jobs must be at least 1"),
    (["--think", "-1"], "think must be a positive number"),
    (["--out", "/nonexistent-dir/x.json"], "cannot write"),
])
def test_bad_options_are_one_line_and_status_1(args: list[str], reason: str) -> None:
    result = invoke("--deals", "2", "--candidate", "random", "--baseline", "random", *args)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("error: ")
    assert reason in result.stderr


def test_shards_merged_are_the_match_in_one_run(tmp_path: Path) -> None:
    """Issue 36: --shard I/N plays every N-th deal; merging the shards' --out-results gives the
    same figures and confidence interval as the match in one run; bad merges say why in a line."""
    match = ["--players", "4", "--deals", "7", "--candidate", "random", "--baseline", "heuristic",
             "--seed", "5"]
    whole = arena_json(*match)
    parts = []
    for i in (1, 2, 3):
        path = tmp_path / f"shard-{i}.json"
        result = invoke(*match, "--shard", f"{i}/3", "--out-results", path, "--json")
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["deals"] == len(range(i - 1, 7, 3))
        parts.append(path)
    merged = invoke("merge", "--json", *parts)
    assert merged.exit_code == 0, merged.output
    together = json.loads(merged.stdout)
    assert {k: together[k] for k in STABLE} == {k: whole[k] for k in STABLE}
    assert together["deals"] == 7
    table = invoke("merge", *reversed(parts))  # (any order)
    assert table.exit_code == 0 and "random" in table.stdout

    missing = invoke("merge", parts[0], parts[2])
    assert missing.exit_code == 1 and "deals missing from the shards: 1, 4" in missing.stderr
    twice = invoke("merge", parts[0], parts[0], parts[1], parts[2])
    assert twice.exit_code == 1 and "is in two shards" in twice.stderr
    other = tmp_path / "other.json"
    assert invoke(*match[:-1], "6", "--shard", "1/1", "--out-results", other).exit_code == 0
    mixed = invoke("merge", parts[0], other)
    assert mixed.exit_code == 1 and "another match" in mixed.stderr
    for bad in ("0/3", "4/3", "x"):
        refused = invoke(*match, "--shard", bad)
        assert refused.exit_code == 1 and "--shard" in refused.stderr


def test_the_arena_on_ray_gives_the_figures_of_jobs() -> None:
    """Issue 36: --ray local (a local Ray cluster of --jobs CPUs) plays the deals as Ray tasks, with
    the same figures as --jobs 2 for the same seed."""
    pytest.importorskip("ray")
    match = ["--players", "3", "--deals", "4", "--candidate", "random", "--baseline", "heuristic",
             "--seed", "9", "--jobs", "2"]
    on_ray = arena_json(*match, "--ray", "local")
    assert {k: on_ray[k] for k in STABLE} == {k: arena_json(*match)[k] for k in STABLE}
    refused = invoke(*match, "--ray", "local", "--shard", "1/2")
    assert refused.exit_code == 1 and "--ray" in refused.stderr
