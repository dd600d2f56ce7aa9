"""``bench/server.py --compare … --repeat N`` (issue 38): the order of its rounds, the medians of
a configuration's runs and the ratios of one round."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import server  # (bench/server.py)


def test_each_round_starts_one_configuration_later() -> None:
    assert server.rounds(["pg", "pg-half", "two-owner"], 4) == [
        ["pg", "pg-half", "two-owner"],
        ["pg-half", "two-owner", "pg"],
        ["two-owner", "pg", "pg-half"],
        ["pg", "pg-half", "two-owner"],
    ]
    assert server.rounds(["pg"], 2) == [["pg"], ["pg"]]


def test_a_configurations_figures_are_the_medians_of_its_runs_printed_as_they_were() -> None:
    runs = [
        {"db": "postgresql", "tables": 500, "server_us_per_action": "467", "latency_ms_p99": "2.2",
         "redis_us_per_action": "nan"},
        {"db": "postgresql", "tables": 500, "server_us_per_action": "639", "latency_ms_p99": "3.1",
         "redis_us_per_action": "nan"},
        {"db": "postgresql", "tables": 500, "server_us_per_action": "515", "latency_ms_p99": "2.0",
         "redis_us_per_action": "nan"},
    ]
    assert server.medians(runs) == {"db": "postgresql", "tables": "500", "server_us_per_action": "515",
                                    "latency_ms_p99": "2.2", "redis_us_per_action": "nan"}
    assert server.median([1.0, 4.0, 2.0, 3.0]) == 2.5
    assert server.median([1.4, math.nan, 1.6]) == 1.5  # a failed run's ratio left out
    assert math.isnan(server.median([math.nan]))


def test_one_rounds_ratios_say_what_two_processes_hold() -> None:
    figures = {"pg": {"server_us_per_action": "431"}, "pg-half": {"server_us_per_action": "515"},
               "pg-redis": {"server_us_per_action": "445"}, "two-owner": {"server_us_per_action": "530"}}
    got = server.ratios(figures)
    assert got["two-owner_worth"] == 2 * 431 / 530
    assert got["two-owner_worth_same_load"] == 2 * 515 / 530
    assert got["half_load_cost"] == 515 / 431
    assert got["redis_cost"] == 445 / 431
    assert "pg_vs_sqlite_latency_p99" not in got  # no SQLite run
    missing = server.ratios({"pg": {"server_us_per_action": "nan"}, "two": {"server_us_per_action": "0"}})
    assert math.isnan(missing["two_worth"])


def test_repeat_is_refused_without_compare_or_below_one(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--quick", "--repeat", "2"], ["--compare", "pg", "--repeat", "0"]):
        monkeypatch.setattr(sys, "argv", ["server.py", *argv])
        with pytest.raises(SystemExit) as refused:  # (before any server is started)
            server.main()
        assert refused.value.code == 2
    assert "--repeat is for --compare" in capsys.readouterr().err
