"""``tools/bid_frontier.py``: how often a heuristic taker makes its contract, best-ranked hands
first (the frontier of issue 37's targets for the heuristic's bids)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_logistic_fit_ranks_by_the_evidence() -> None:
    np = pytest.importorskip("numpy")
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        from bid_frontier import logistic
    finally:
        sys.path.remove(str(ROOT / "tools"))
    rng = np.random.default_rng(1)
    x = np.column_stack([np.ones(4000), rng.normal(size=4000), rng.normal(size=4000)])
    y = (rng.random(4000) < 1 / (1 + np.exp(-(0.5 + 2.0 * x[:, 1] - 1.0 * x[:, 2])))).astype(float)
    w = logistic(x, y)
    assert w[1] == pytest.approx(2.0, abs=0.25) and w[2] == pytest.approx(-1.0, abs=0.2)


def test_the_frontier_prints_each_share_and_repeats_itself() -> None:
    pytest.importorskip("numpy")
    runs = [subprocess.run([sys.executable, str(ROOT / "tools" / "bid_frontier.py"), "--hands", "400",
                            "--players", "4", "--jobs", "1", "--seed", "3"], capture_output=True,
                           text=True, timeout=300) for _ in range(2)]
    assert runs[0].returncode == 0, runs[0].stderr
    lines = runs[0].stdout.splitlines()
    assert lines[0].startswith("players=4 hands=") and len(lines) == 7
    made = [float(line.split("made ")[1].split(",")[0]) for line in lines[1:]]
    assert all(0.0 <= m <= 1.0 for m in made)
    assert runs[0].stdout == runs[1].stdout
