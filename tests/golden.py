"""What the golden files (playthroughs, protocol transcripts) share: their JSON lines and the
message that names the first drift."""

from __future__ import annotations

import json
from typing import Any


def lines(rows: list[dict[str, Any]]) -> list[str]:
    """One JSON object per line, keys sorted: diffs show what changed."""
    return [json.dumps(r, sort_keys=True, ensure_ascii=False) for r in rows]


def first_difference(old: Any, new: Any, where: str = "") -> str:
    """Where two JSON values first differ, as a key path, and the two values there."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(set(old) | set(new)):
            mine, theirs = old.get(key, "<missing>"), new.get(key, "<missing>")
            if mine != theirs:
                return first_difference(mine, theirs, f"{where}.{key}")
    return f"{where}: stored {old!r}, now {new!r}"
