"""The frozen search (``bench/baselines/search_2026``): it plays exactly as the search of commit
fd7a0bd did (deals recorded with that commit's own code), on its own kernel or its pure board,
and its budget is that day's, not this machine's."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

from tarot.bots import bot_options, play_deal
from tarot.engine import Deal

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.baselines.search_2026 import Search2026, playout  # noqa: E402
from bench.baselines.search_2026.search import FROZEN_COSTS, SHARE  # noqa: E402

GOLDEN = json.loads((Path(__file__).parent / "data" / "search_2026_golden.json").read_text())
SPEC = "bench.baselines.search_2026:Search2026"


@pytest.mark.parametrize("recorded", GOLDEN["deals"], ids=lambda d: f"{d['players']}p-seed{d['seed']}")
def test_the_frozen_search_plays_as_the_search_of_fd7a0bd(recorded: dict[str, object]) -> None:
    players, seed = recorded["players"], recorded["seed"]
    assert isinstance(players, int) and isinstance(seed, int)
    deal = Deal.new(players, 0, seed=seed)
    play_deal(deal, [Search2026(seed=seed * 10 + s, playouts=40) for s in range(players)])
    assert [str(a) for a in deal.actions] == recorded["actions"]


def test_the_frozen_kernel_is_compiled_where_the_native_core_is() -> None:
    import tarot.engine

    # CI builds the native core; the freeze's own kernel must compile there too (pyximport)
    assert playout.NATIVE_KERNEL == tarot.engine.NATIVE


def test_its_budget_is_the_frozen_calibration_whatever_the_machine() -> None:
    bot = Search2026(seed=1)
    assert bot.playouts == int(SHARE * 0.5 / FROZEN_COSTS.playout_seconds) == 74166
    assert bot.bid_budget == pytest.approx(69022)
    assert bot.world_cost == FROZEN_COSTS.world
    assert bot.deadline() == math.inf  # no clock: a busy machine does not change its choices
    assert Search2026(seed=1, think=0.1).playouts == int(74166 / 5)
    fixed = Search2026(seed=1, playouts=300)
    assert (fixed.playouts, fixed.world_cost) == (300, 0.0)


def test_the_commands_budget_reaches_it() -> None:
    assert bot_options(SPEC, None, 3000) == {"playouts": 3000}
    assert bot_options(SPEC, 0.1) == {"think": 0.1}
    assert bot_options("bench.baselines.ceiling:Ceiling", 0.1, 3000) == {}
