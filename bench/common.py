"""What the benchmarks share: the site as a subprocess (``Server``, ``served``) on a free port,
the clients' choice of a legal action and their merging of states (docs/protocol.md), the
quantile they report, and an older revision's code to compare with (``worktree``). No
third-party imports, so each script says itself what else it needs."""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


@contextlib.contextmanager
def worktree(rev: str) -> Iterator[Path]:
    """A temporary ``git worktree`` of ``rev`` (its ``src`` is that revision's code), removed after."""
    with tempfile.TemporaryDirectory(prefix="tarot-rev-") as tmp:
        path = Path(tmp) / "tree"
        git = ["git", "-C", str(ROOT), "worktree"]
        subprocess.run([*git, "add", "--quiet", "--detach", str(path), rev], check=True)
        try:
            yield path
        finally:
            subprocess.run([*git, "remove", "--force", str(path)], check=True)


_GIVEN: set[int] = set()  # the ports handed out by this process (a server may not have bound yet)


def free_port(ports: range | None = None) -> int:
    """A free port on 127.0.0.1: any the system gives, or the first free one in ``ports`` (a
    benchmark's own range, so that it runs beside other work: ``--ports``)."""
    for port in ports if ports is not None else [0]:
        if port in _GIVEN:
            continue
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            chosen: int = s.getsockname()[1]
        _GIVEN.add(chosen)
        return chosen
    raise RuntimeError(f"no free port in {ports.start}-{ports.stop - 1}" if ports else "no free port")


def port_range(text: str) -> range:
    """``--ports LO-HI`` (argparse's type): the ports a benchmark's servers may listen on."""
    try:
        low, high = (int(part) for part in text.split("-"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"LO-HI, not {text!r}") from None
    if not 1024 <= low <= high <= 65535:
        raise argparse.ArgumentTypeError(f"{text}: two ports, 1024 to 65535, the first not above the second")
    return range(low, high + 1)


def run_name(text: str) -> str:
    """``--name`` (argparse's type): the prefix of a run's database and Redis keys."""
    if not text or not text.replace("_", "").isalnum() or not text[0].isalpha():
        raise argparse.ArgumentTypeError(f"letters, digits and _, from a letter, not {text!r}")
    return text.lower()


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """A legal action from this seat's view, at once: seat 0 bids ``prise``, the others pass (so a
    deal is played); the écart from ``ecart_options``; no chelem; the first legal card (or call)."""
    phase = view["phase"]
    opts = view.get("ecart_options")
    if phase == "ecart" and opts:
        plain = [c for c in opts["allowed"] if not c.startswith("T")]
        trumps = [c for c in opts["allowed"] if c.startswith("T")]
        cards = plain[: opts["size"]]
        cards += trumps[: opts["size"] - len(cards)]
        return {"ecart": cards}
    legal = [{k: v for k, v in a.items() if k != "seat"} for a in view["legal"]]
    if not legal:
        raise RuntimeError(f"no legal action in phase {phase}")
    if phase == "bidding":
        want = "prise" if view["seat"] == 0 else "pass"
        for a in legal:
            if a.get("bid") == want:
                return a
        for a in legal:
            if a.get("bid") == "pass":
                return a
    if phase == "announce":
        for a in legal:
            if a.get("chelem") is False:
                return a
    return legal[0]


def quantile(sorted_values: list[float], q: float) -> float:
    """The ``q`` quantile of sorted values (the nearest rank); NaN if there are none."""
    if not sorted_values:
        return math.nan
    return sorted_values[max(0, math.ceil(q * len(sorted_values)) - 1)]


class Server:
    """The site on a free port as a subprocess, its output in a file; always stopped by ``stop``.
    By default `tarot serve`; ``launch``: Python code run instead with the database URL and the
    port as its arguments (a site with other settings). ``src``: another checkout's code."""

    def __init__(self, db_url: str, workdir: Path, src: str | Path | None = None,
                 launch: str | None = None, extra: tuple[str, ...] = (), ports: range | None = None) -> None:
        self.port = free_port(ports)
        workdir.mkdir(parents=True, exist_ok=True)
        self.log_path = workdir / "server.log"
        self.log = self.log_path.open("wb")
        if launch is None:  # ``extra``: more options of ``tarot serve`` (``--redis …``)
            cmd = [sys.executable, "-m", "tarot.cli", "serve", "--host", "127.0.0.1",
                   "--port", str(self.port), "--db", db_url, *extra]
        else:
            cmd = [sys.executable, "-c", launch, db_url, str(self.port)]
        env = dict(os.environ, PYTHONPATH=str(src)) if src else None
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT, cwd=workdir,
                                     start_new_session=True, env=env)

    def wait_ready(self, timeout: float = 60.0) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with status {self.proc.returncode}:\n{self.output()}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/tables", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"the server did not answer within {timeout:.0f} s:\n{self.output()}")

    def cpu_seconds(self) -> float | None:
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_mb(self) -> float | None:
        """The server's resident memory now, MB."""
        try:
            for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        except OSError:
            pass
        return None

    def output(self) -> str:
        if not self.log.closed:
            self.log.flush()
        return self.log_path.read_text(errors="replace")[-4000:]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.log.close()




@contextlib.contextmanager
def served(src: str | Path | None = None, launch: str | None = None) -> Iterator[Server]:
    """A ``Server`` on a fresh SQLite file in a temporary directory, ready, stopped after."""
    with tempfile.TemporaryDirectory(prefix="tarot-site-") as tmp:
        server = Server(f"sqlite:///{Path(tmp) / 'tarot.sqlite3'}", Path(tmp), src, launch)
        try:
            server.wait_ready()
            yield server
        finally:
            server.stop()


def processes() -> dict[int, tuple[int, int]]:
    """Every process now, from /proc: pid → (its parent's pid, its CPU time in clock ticks)."""
    stats: dict[int, tuple[int, int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):  # (gone meanwhile)
            fields = stat.read_text().rsplit(")", 1)[1].split()
            stats[int(stat.parent.name)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
    return stats


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds of ``pid`` and every process under it (a server's worker processes)."""
    stats = processes()
    tree, grew = {pid}, True
    while grew:
        more = {p for p, (parent, _) in stats.items() if parent in tree} - tree
        tree |= more
        grew = bool(more)
    return sum(stats[p][1] for p in tree if p in stats) / os.sysconf("SC_CLK_TCK")


def postgres_cpu_seconds(url: str) -> float | None:
    """CPU seconds spent so far by the PostgreSQL server behind ``url``: its postmaster, its live
    processes (backends, WAL writer, checkpointer…) and those that ended (the postmaster's reaped
    children). Every database of that server counts: run it on an otherwise quiet server. None
    when its processes cannot be read (another machine, another container)."""
    try:
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            row = conn.execute("SELECT pg_backend_pid()").fetchone()
            assert row is not None
            backend = int(row[0])
            # (its parent while it lives: a backend ends with its connection)
            postmaster = int(Path(f"/proc/{backend}/stat").read_text().rsplit(")", 1)[1].split()[1])
            if not _is_postgres(backend) or not _is_postgres(postmaster):
                return None  # (the server's pids are another namespace's: another container)
        fields = Path(f"/proc/{postmaster}/stat").read_text().rsplit(")", 1)[1].split()
    except Exception:
        return None
    # utime, stime, and the reaped children's cutime, cstime
    ticks = sum(int(f) for f in fields[11:15])
    ticks += sum(cpu for parent, cpu in processes().values() if parent == postmaster)
    return ticks / os.sysconf("SC_CLK_TCK")


def _is_postgres(pid: int) -> bool:
    """Whether ``pid`` here is a PostgreSQL process: a pid the server gives is only ours to read
    when the server runs in our pid namespace (not in a container of its own)."""
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip() == "postgres"
    except OSError:
        return False


def redis_cpu_seconds(url: str) -> float | None:
    """CPU seconds spent so far by the Redis server at ``url`` (``INFO cpu``: its own and its
    children's); None if it does not answer."""
    try:
        from redis import Redis

        info = Redis.from_url(url).info("cpu")
    except Exception:
        return None
    return float(sum(info.get(k, 0.0) for k in ("used_cpu_sys", "used_cpu_user", "used_cpu_sys_children",
                                                 "used_cpu_user_children")))
