"""The test command's time: does it compute, or wait? (issue 32)

    python bench/tests.py [pytest arguments…]

Runs ``python -m pytest`` with the arguments given and prints its wall time, the CPU time of the
processes it waited for (``user + sys``, as ``time`` says it), the CPU time the whole machine
spent meanwhile (``/proc/stat``: it counts the browser's processes too, which the test processes
never wait for, so ``time`` misses them), and the issue's figure: wall / (CPU / cores), the
share of the wall time that is waiting rather than computing (1.0: every core busy throughout).
Run it on an otherwise idle machine: the machine's figure counts whatever else runs.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time


def busy_seconds() -> float:
    """CPU seconds the machine has spent busy (every core), from /proc/stat."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq = fields[:7]
    return (user + nice + system + irq + softirq) / os.sysconf("SC_CLK_TCK")


def main() -> int:
    cores = os.cpu_count() or 1
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    machine_before, start = busy_seconds(), time.monotonic()
    code = subprocess.call([sys.executable, "-m", "pytest", *sys.argv[1:]])
    wall = time.monotonic() - start
    after, machine = resource.getrusage(resource.RUSAGE_CHILDREN), busy_seconds() - machine_before
    waited = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(f"exit={code} wall_s={wall:.1f} cores={cores}")
    print(f"cpu_waited_for_s={waited:.1f} wall_over_cpu_per_core={wall / (waited / cores):.2f}")
    print(f"cpu_machine_s={machine:.1f} wall_over_machine_cpu_per_core={wall / (machine / cores):.2f}")
    return code


if __name__ == "__main__":
    sys.exit(main())
