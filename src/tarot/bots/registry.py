"""Bots by short name or by import path (``package.module:Class``), so anyone can plug one in."""

from __future__ import annotations

import importlib
from typing import Any

from .base import Bot


def _builtin() -> dict[str, type[Bot]]:
    from .heuristic import HeuristicBot
    from .random_bot import RandomBot
    from .search import SearchBot

    return {cls.name: cls for cls in (RandomBot, HeuristicBot, SearchBot)}


BOT_NAMES = ("random", "heuristic", "search")
# The levels a player chooses from (the site's and ``tarot play``'s words), in French too.
LEVELS = {"beginner": "random", "club": "heuristic", "expert": "search", "debutant": "random",
          "débutant": "random"}


def bot_class(spec: str) -> type[Bot]:
    """The class named by ``spec`` (a bot's name, a level, or an import path); ValueError with a
    reason if there is none."""
    spec = LEVELS.get(spec.lower(), spec)
    builtin = _builtin()
    if spec in builtin:
        return builtin[spec]
    if ":" not in spec:
        raise ValueError(f"unknown bot {spec!r}: use a level (beginner, club, expert), one of "
                         f"{', '.join(BOT_NAMES)} or package.module:Class")
    module_name, _, attr = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # a plug-in's module may raise anything as it loads
        raise ValueError(f"cannot import bot module {module_name!r}: {type(exc).__name__}: {exc}") from None
    cls = getattr(module, attr, None)
    if not isinstance(cls, type) or not hasattr(cls, "act"):
        raise ValueError(f"{spec!r} is not a bot class (it needs an act(view) method)")
    return cls


def bot_options(spec: str, think: float | None, playouts: int | None = None) -> dict[str, Any]:
    """The options for the bot named ``spec``: its budget, ``think`` seconds a decision or a fixed
    count of ``playouts`` (the clock ignored: reproducible), goes only to a bot whose class says it
    takes one (``takes_budget``: the search bot, and the frozen search of bench/baselines)."""
    if not getattr(bot_class(spec), "takes_budget", False):
        return {}
    given = {"think": think, "playouts": playouts}
    return {key: value for key, value in given.items() if value is not None}


def make_bot(spec: str, seed: int | None = None, **options: Any) -> Bot:
    """A new bot: ``make_bot("search", seed=1, think=0.1)``."""
    return bot_class(spec)(seed=seed, **options)


def build_bot(spec: str, seed: int | None, think: float | None, playouts: int | None = None) -> Bot:
    """``make_bot`` with ``bot_options(spec, think, playouts)`` for a command: whatever goes wrong
    (a bad name or option, a plug-in whose constructor raises anything) is a ValueError that says so."""
    try:
        return make_bot(spec, seed=seed, **bot_options(spec, think, playouts))
    except ValueError:  # already says what is wrong
        raise
    except Exception as exc:  # a plug-in's constructor may raise anything
        raise ValueError(f"cannot build bot {spec!r}: {type(exc).__name__}: {exc}") from None
