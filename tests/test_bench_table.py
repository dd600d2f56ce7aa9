"""bench/table.py still runs (issue 32: it had broken silently, docs/performance.md citing it):
13 tables (more than one address may create) play a deal through the real hub and store, and
it prints its figures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

BENCH = Path(__file__).resolve().parents[1] / "bench" / "table.py"


def test_the_table_benchmark_plays_its_tables_to_the_end() -> None:
    done = subprocess.run([sys.executable, str(BENCH), "--tables", "13", "--deals", "1", "--runs", "1"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    run = dict(field.split("=") for field in done.stdout.splitlines()[0].split())
    assert run["unfinished"] == "0" and int(run["actions"]) > 13 * 70  # 13 whole deals at 4 players
    assert "server_per_driver_median=" in done.stdout
