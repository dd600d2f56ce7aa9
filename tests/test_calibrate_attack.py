"""``tools/calibrate_attack.py``: the playouts' bias for the attack, measured on outcomes; its
figures depend only on the seed (the search taker on a fixed budget)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_measure_prints_each_contract_and_repeats_itself() -> None:
    runs = [subprocess.run([sys.executable, str(ROOT / "tools" / "calibrate_attack.py"), "--hands", "16",
                            "--players", "4", "--jobs", "1", "--worlds", "4", "--playouts", "20",
                            "--seed", "2"], capture_output=True, text=True, timeout=300)
            for _ in range(2)]
    assert all(run.returncode == 0 for run in runs), runs[0].stderr
    lines = runs[0].stdout.splitlines()
    assert [line.split()[1] for line in lines] == ["contract=PRISE", "contract=GARDE", "contract=GARDE_SANS"]
    assert all("real_minus_simulated=" in line and "ci95=[" in line for line in lines)
    assert runs[0].stdout == runs[1].stdout
