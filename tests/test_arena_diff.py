"""``bench/arena_diff.py``: two matches on the same deals compared deal by deal, and the share of
a gap a bot closes."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tarot.bots.arena import ArenaConfig, run_arena
from tarot.bots.arena_shards import results_json

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import arena_diff  # noqa: E402


def _match(tmp_path: Path, candidate: str, seed: int = 3, deals: int = 6) -> str:
    result = run_arena(ArenaConfig(players=4, deals=deals, candidate=candidate, baseline="heuristic",
                                   seed=seed))
    path = tmp_path / f"{candidate}-{seed}-{deals}.json"
    path.write_text(json.dumps(results_json(result, (0, 1))))
    return str(path)


def test_the_difference_is_taken_deal_by_deal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rand, heur = arena_diff.load(_match(tmp_path, "random")), arena_diff.load(_match(tmp_path, "heuristic"))
    n, mean, low, high = arena_diff.paired(rand, heur)
    assert n == 6 and mean == pytest.approx(rand.mean_gain - heur.mean_gain)
    assert low < mean < high
    assert heur.mean_gain == 0  # the heuristic against itself, seat for seat
    arena_diff.main([_match(tmp_path, "random"), _match(tmp_path, "heuristic")])
    assert f"A - B on 6 deals: {mean:+.2f}" in capsys.readouterr().out


def test_the_gap_share_is_the_ratio_of_the_means(tmp_path: Path) -> None:
    ceiling = arena_diff.load(_match(tmp_path, "bench.baselines.ceiling:Ceiling"))
    heuristic = arena_diff.load(_match(tmp_path, "heuristic"))
    assert ceiling.mean_gain > 0
    assert arena_diff.gap_share(ceiling, ceiling) == pytest.approx((1.0, 1.0, 1.0))
    share, low, high = arena_diff.gap_share(heuristic, ceiling)  # the baseline itself: none of it
    assert share == 0 and low <= 0 <= high
    with pytest.raises(SystemExit, match="no gap to close"):
        arena_diff.gap_share(heuristic, arena_diff.load(_match(tmp_path, "random")))


def test_matches_on_other_deals_are_refused(tmp_path: Path) -> None:
    a = arena_diff.load(_match(tmp_path, "random", seed=3))
    b = arena_diff.load(_match(tmp_path, "random", seed=4))
    with pytest.raises(SystemExit, match="not the same deals"):
        arena_diff.paired(a, b)


def test_matches_of_several_seeds_are_paired_deal_by_deal(tmp_path: Path) -> None:
    a = arena_diff.load(",".join(_match(tmp_path, "random", seed=s) for s in (3, 4)))
    b = arena_diff.load(",".join(_match(tmp_path, "heuristic", seed=s) for s in (4, 3, 5)))
    n, mean, _, _ = arena_diff.paired(a, b)
    assert n == 12 and len(b.gains) == 18
    assert mean == pytest.approx(a.mean_gain)  # the heuristic gains 0 against itself


def test_a_file_that_is_not_a_results_file_is_named(tmp_path: Path) -> None:
    empty = tmp_path / "empty.json"
    empty.write_text("")
    with pytest.raises(SystemExit, match=r"empty\.json: not a results file"):
        arena_diff.load(str(empty))
    (tmp_path / "other.json").write_text('{"format": "something else"}')
    with pytest.raises(SystemExit, match=r"other\.json: not a results file"):
        arena_diff.load(str(tmp_path / "other.json"))


def test_a_slim_copy_keeps_every_deal_but_not_the_decision_times(tmp_path: Path) -> None:
    full = _match(tmp_path, "random")
    small = tmp_path / "small.json"
    arena_diff.main(["--slim", full, str(small)])
    assert small.stat().st_size < Path(full).stat().st_size
    assert arena_diff.load(str(small)).gains == arena_diff.load(full).gains
    assert all(not o["decisions"] for o in json.loads(small.read_text())["outcomes"])


def test_shards_of_an_unfinished_match_pair_only_with_partial(tmp_path: Path) -> None:
    whole = run_arena(ArenaConfig(players=4, deals=6, candidate="random", baseline="heuristic", seed=3))
    shard = tmp_path / "shard.json"
    obj = results_json(whole, (0, 3))  # as if the match, sharded in 3, stopped after shard 0
    obj["outcomes"] = [o for o in obj["outcomes"] if o["index"] % 3 == 0]  # deals 0 and 3 of 6
    shard.write_text(json.dumps(obj))
    with pytest.raises(SystemExit, match="missing from the shards"):
        arena_diff.load(str(shard))
    part = arena_diff.load(str(shard), partial=True)
    assert sorted(i for _, _, i in part.gains) == [0, 3] and "(partial)" in part.label
    n, mean, _, _ = arena_diff.paired(part, arena_diff.load(_match(tmp_path, "heuristic")))
    assert n == 2 and mean == pytest.approx(part.mean_gain)


def test_partial_still_refuses_a_deal_in_two_shards(tmp_path: Path) -> None:
    whole = run_arena(ArenaConfig(players=4, deals=4, candidate="random", baseline="heuristic", seed=3))
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    obj = results_json(whole, (0, 2))
    obj["outcomes"] = obj["outcomes"][:2]  # deals 0 and 1
    first.write_text(json.dumps(obj))
    obj["outcomes"] = obj["outcomes"][1:]  # deal 1 again
    second.write_text(json.dumps(obj))
    with pytest.raises(SystemExit, match="deal 1 is in two shards"):
        arena_diff.load(f"{first},{second}", partial=True)
