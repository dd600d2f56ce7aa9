"""What the benchmarks share: a free port, the clients' choice of a legal action and their
merging of states (docs/protocol.md), the quantile they report, and an older revision's code to
compare with (``worktree``). No third-party imports, so each script says itself what else it
needs."""

from __future__ import annotations

import contextlib
import math
import socket
import subprocess
import tempfile
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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


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
