"""The ladder's games (``tarot ladder``), apart from its ratings: a run's settings and each
game's seats and totals, everything derived from the run's seed and the game's index. No server
here (``ladder.py`` rates, with the server's ratings and database), so that a shard of a run
(``ladder_shards.py``) plays its games without them."""

from __future__ import annotations

import math
from dataclasses import dataclass

from tarot.bots import BOT_NAMES, build_bot
from tarot.bots.arena import derive_seed
from tarot.engine import Game


@dataclass(frozen=True)
class LadderConfig:
    """One run: ``games`` games of ``deals`` deals at ``players`` players among ``kinds``."""

    players: int = 4
    games: int = 100
    deals: int = 4
    kinds: tuple[str, ...] = BOT_NAMES
    seed: int = 0
    jobs: int = 1
    think: float | None = None  # seconds per decision of the search bot; None: its default
    playouts: int | None = None  # the search bot's fixed budget instead (the clock ignored)

    def check(self) -> None:
        """Raise ValueError with a one-line reason if the run cannot be played."""
        if self.players not in (3, 4, 5):
            raise ValueError(f"--players must be 3, 4 or 5, not {self.players}")
        for name, value in (("games", self.games), ("deals", self.deals), ("jobs", self.jobs)):
            if value < 1:
                raise ValueError(f"--{name} must be at least 1, not {value}")
        if self.think is not None and not (math.isfinite(self.think) and self.think > 0):
            raise ValueError(f"--think must be a positive number of seconds, not {self.think}")
        if self.playouts is not None and self.playouts < 1:
            raise ValueError(f"--playouts must be at least 1, not {self.playouts}")
        if not self.kinds:
            raise ValueError("--bots names no bot")
        for kind in self.kinds:
            # Only the built-in bots: the ladder is the site's, and the site plays only those.
            if kind not in BOT_NAMES:
                raise ValueError(f"unknown bot {kind!r}: the ladder rates {', '.join(BOT_NAMES)}")


def parse_kinds(spec: str) -> tuple[str, ...]:
    """``"random, heuristic,random"`` -> ``("random", "heuristic")``: each kind once, in order."""
    return tuple(dict.fromkeys(k.strip() for k in spec.split(",") if k.strip()))


@dataclass(frozen=True)
class GameOutcome:
    """What the ratings need of a game: who sat where, and the final totals. Picklable."""

    index: int
    kinds: tuple[str, ...]  # per seat
    totals: tuple[int, ...]  # per seat


def seat_kinds(config: LadderConfig, index: int) -> tuple[str, ...]:
    """Game ``index``'s seats, drawn from the kinds with repetition (from the seed alone)."""
    draws = [derive_seed(config.seed, index, "ladder", "seat", s) for s in range(config.players)]
    return tuple(config.kinds[d % len(config.kinds)] for d in draws)


def play_game(config: LadderConfig, index: int) -> GameOutcome:
    """Play game ``index``: everything (seats, cards, each bot's seed) derives from (seed, index)."""
    n = config.players
    kinds = seat_kinds(config, index)
    bots = [build_bot(kind, derive_seed(config.seed, index, "ladder", "bot", s), config.think,
                      config.playouts) for s, kind in enumerate(kinds)]
    deal_seed = derive_seed(config.seed, index, "ladder", "deals")
    game = Game(n, config.deals, first_dealer=index % n, seed=deal_seed)
    while game.deal is not None:  # the game deals again after an annulled deal, and moves the dealer
        seat = game.deal.turn
        assert seat is not None
        game.apply(bots[seat].act(game.view(seat)))
    return GameOutcome(index, kinds, tuple(game.totals))
