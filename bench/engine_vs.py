"""The engine's speed as a ratio to an older revision's, measured in one run.

    python bench/engine_vs.py                      # against the engine before the native core
    python bench/engine_vs.py --rev HEAD~3 --rounds 7 --deals 3000
    python bench/engine_vs.py --rev HEAD~3 --native     # both sides with their native core

A temporary ``git worktree`` of ``--rev`` gives the baseline's ``src``; this checkout's
``bench/engine.py`` (copied aside, so both sides run the very same harness) runs alternately
against the baseline's ``src`` and this checkout's (``PYTHONPATH``), several rounds; the
medians of deals/s and copy µs and their ratios are printed, then the same for the baseline's
own harness. ``TAROT_NATIVE=0`` in the environment measures the current pure-Python engine
(the baseline has no native core); ``--native`` builds the baseline's own native extensions in
its worktree first (this checkout's must be built: ``pip install -e .``), so both sides run
natively. Last line: ``ratio=<current / baseline deals per second>``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import ROOT, worktree

BEFORE_NATIVE = "cd11287e7c39b2cd15cd7c3b82f86ec171afc72c"  # main before issue 20


def run_harness(harness: Path, src: Path, players: int, deals: int) -> tuple[float, float]:
    """(deals per second, copy µs) of one run of ``harness`` against the engine in ``src``."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run([sys.executable, str(harness), "--players", str(players), "--deals", str(deals)],
                         env=env, capture_output=True, text=True, check=True).stdout
    figures = dict(line.split("=", 1) for line in out.split() if "=" in line)
    return float(figures["deals_per_s"]), float(figures["copy_us"])


def engine_file(src: Path) -> str:
    """Where ``tarot`` is imported from with ``src`` first on the path (a check of the set-up)."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    return subprocess.run([sys.executable, "-c", "import tarot; print(tarot.__file__)"], env=env,
                          capture_output=True, text=True, check=True).stdout.strip()


def compare(name: str, harness: Path, sides: dict[str, Path], args: argparse.Namespace) -> float:
    """Alternate the sides for ``args.rounds`` rounds; print the medians; the deals/s ratio."""
    runs: dict[str, list[tuple[float, float]]] = {side: [] for side in sides}
    for _ in range(args.rounds):
        for side, src in sides.items():
            runs[side].append(run_harness(harness, src, args.players, args.deals))
    medians = {side: (statistics.median(r[0] for r in rs), statistics.median(r[1] for r in rs))
               for side, rs in runs.items()}
    for side, (rate, copy_us) in medians.items():
        print(f"{name} {side}: deals_per_s={rate:.0f} copy_us={copy_us:.2f}")
    (base_rate, base_copy), (rate, copy_us) = medians["baseline"], medians["current"]
    print(f"{name} ratio: deals_per_s x{rate / base_rate:.2f}  copy x{base_copy / copy_us:.2f} faster")
    return rate / base_rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rev", default=BEFORE_NATIVE, help="the baseline revision (default: %(default)s)")
    parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--no-old", action="store_true", help="skip the baseline's own harness")
    parser.add_argument("--native", action="store_true",
                        help="build the baseline's native extensions in its worktree (Cython, a compiler)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="engine_vs_") as tmp_name, worktree(args.rev) as base:
        tmp = Path(tmp_name)
        harness = tmp / "harness.py"
        shutil.copy(ROOT / "bench" / "engine.py", harness)
        old_harness = tmp / "old_harness.py"
        shutil.copy(base / "bench" / "engine.py", old_harness)
        sides = {"baseline": base / "src", "current": ROOT / "src"}
        if args.native:
            subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace", "-q"], cwd=base, check=True,
                           capture_output=True)
        for side, src in sides.items():
            native = subprocess.run([sys.executable, "-c", "from tarot.engine import NATIVE; print(NATIVE)"],
                                    env={**os.environ, "PYTHONPATH": str(src)}, capture_output=True,
                                    text=True, check=True).stdout.strip()
            print(f"{side}: native core {native}")
        for side, src in sides.items():
            print(f"{side}: {args.rev if side == 'baseline' else 'this checkout'} -> {engine_file(src)}")
        ratio = compare("harness", harness, sides, args)
        if not args.no_old:
            compare("old harness", old_harness, sides, args)
    print(f"ratio={ratio:.2f}")


if __name__ == "__main__":
    main()
