"""Bots built on the engine's public API: they see a seat's view, never a hidden card.

``make_bot("random" | "heuristic" | "search" | "package.module:Class", seed=…)`` builds one;
``play_deal(deal, bots)`` plays a deal with them.
"""

from .base import Bot
from .random_bot import RandomBot
from .registry import BOT_NAMES, bot_class, bot_options, build_bot, make_bot
from .runner import PlayStats, play_deal

__all__ = ["BOT_NAMES", "Bot", "PlayStats", "RandomBot", "bot_class", "bot_options", "build_bot", "make_bot",
           "play_deal"]
