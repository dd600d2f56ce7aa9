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


def test_the_search_can_defend_the_real_deal() -> None:
    """``--defenders search``: the real deal is defended by the search (a stronger defence than
    the heuristic's), so the figures differ from the heuristic defenders', and repeat themselves."""
    def run(defenders: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, str(ROOT / "tools" / "calibrate_attack.py"), "--hands", "12",
                               "--players", "4", "--jobs", "1", "--worlds", "4", "--playouts", "20",
                               "--seed", "2", "--defenders", defenders], capture_output=True, text=True,
                              timeout=300)
    heuristic, search, again = run("heuristic"), run("search"), run("search")
    assert heuristic.returncode == search.returncode == 0, search.stderr
    assert len(search.stdout.splitlines()) == 3 and search.stdout == again.stdout
    assert search.stdout != heuristic.stdout


def test_the_dump_holds_each_hand_behind_the_printed_figures(tmp_path: Path) -> None:
    """``--dump``: a line a hand and contract, with its shape; the printed means are theirs."""
    import json

    dump = tmp_path / "attack.jsonl"
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "calibrate_attack.py"), "--hands", "16",
                          "--players", "4", "--jobs", "1", "--worlds", "4", "--playouts", "20",
                          "--seed", "2", "--dump", str(dump)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    rows = [json.loads(line) for line in dump.read_text().splitlines()]
    for line in run.stdout.splitlines():
        fields = dict(part.split("=", 1) for part in line.split() if "=" in part)
        mine = [r for r in rows if r["contract"] == fields["contract"]]
        assert len(mine) == int(fields["hands"]) > 0
        mean = sum(r["real"] - r["simulated"] for r in mine) / len(mine)
        assert f"{mean:+.2f}" == fields["real_minus_simulated"]
        assert all(r["players"] == 4 and r["shape"]["one"] == 1 and 0 <= r["shape"]["trumps"] <= 22
                   for r in mine)
