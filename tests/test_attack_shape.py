"""``tools/attack_shape.py``: whether the bids' bias depends on the hand's shape."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOOL = ROOT / "tools" / "attack_shape.py"


def _dump(path: Path, slope: float, hands: int = 600) -> None:
    """Hands whose gap is 2 + ``slope`` × trumps + noise (the other features at random)."""
    rng = random.Random(5)
    with path.open("w") as out:
        for _ in range(hands):
            trumps = rng.randrange(3, 15)
            oudlers = rng.randrange(0, 4)
            shape = {"one": 1, "trumps": trumps, "high_trumps": 0, "oudlers_1": int(oudlers == 1),
                     "oudlers_2": int(oudlers == 2), "oudlers_3": int(oudlers == 3), "t21": 0,
                     "excuse": rng.randrange(2), "petit": 0, "petit_guarded": rng.randrange(2),
                     "kings": rng.randrange(5), "queens": 0, "long": rng.randrange(4),
                     "voids": rng.randrange(2), "singletons": rng.randrange(3)}
            simulated = rng.uniform(30, 60)
            real = simulated + 2 + slope * trumps + rng.gauss(0, 5)
            out.write(json.dumps({"players": 4, "contract": "GARDE", "simulated": simulated,
                                  "real": real, "shape": shape}) + "\n")


def _run(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(TOOL), str(path)], capture_output=True, text=True, timeout=120)


def _figures(stdout: str) -> tuple[float, dict[str, float]]:
    lines = stdout.splitlines()
    share = float(lines[0].split("held_out_share=")[1])
    return share, {line.split()[0]: float(line.split()[1]) for line in lines[1:]}


def test_a_gap_that_grows_with_the_trumps_is_found(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    _dump(tmp_path / "d.jsonl", slope=1.5)
    run = _run(tmp_path / "d.jsonl")
    assert run.returncode == 0, run.stderr
    share, slopes = _figures(run.stdout)
    assert slopes["trumps"] == pytest.approx(1.5, abs=0.2) and abs(slopes["kings"]) < 0.5
    assert share > 0.5


def test_a_constant_gap_is_not_explained_by_the_shape(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    _dump(tmp_path / "d.jsonl", slope=0.0)
    share, slopes = _figures(_run(tmp_path / "d.jsonl").stdout)
    assert share < 0.02 and abs(slopes["trumps"]) < 0.3


def test_a_file_that_is_not_a_dump_is_named(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"players": 4}\n')
    run = _run(bad)
    assert run.returncode != 0 and "bad.jsonl:1: not a line of calibrate_attack.py --dump" in run.stderr
    assert "Traceback" not in run.stderr


def test_a_line_without_its_shape_is_named(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"players": 4, "contract": "GARDE", "simulated": 40, "real": 45}\n')
    run = _run(bad)
    assert run.returncode != 0 and "bad.jsonl:1: not a line" in run.stderr and "Traceback" not in run.stderr
