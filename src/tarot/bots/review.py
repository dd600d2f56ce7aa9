"""The expert's review of a finished deal (issue 35): for every decision of every seat, what the
move played was worth and what the best move was worth, in expected points for that seat, from
that seat's own view at that moment (``review_moves``); the loss, a grade, a summary per seat,
and the deal's par (what it was worth with every card seen).

Reproducible: each decision's chance is seeded from the seat's view at that decision and the
review's seed, and the budget is a count of playouts (``Budgets``): the same record and settings
give the same review. A forced move (one legal option) is not a decision and is not listed.

Grades, by the loss in points for the seat (docs/review.md): ``best`` (the move played is the
expert's), ``good`` (under ``INACCURACY``: within the search's noise), ``inaccuracy``,
``mistake`` (from ``MISTAKE``), ``blunder`` (from ``BLUNDER``); ``unrated`` when no world
consistent with the view was found (nothing measured).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Collection, Hashable
from dataclasses import dataclass, field
from typing import Any

from tarot.engine import (
    Action,
    Chelem,
    Contract,
    Deal,
    DealRecord,
    Ecart,
    Phase,
    Play,
    Poignee,
    View,
    action_to_dict,
)

from .playout import Board, score_args, score_of
from .review_moves import Budgets, Evaluation, evaluate, key_of
from .rollout import start_play

DEFAULT_PLAYOUTS = 100_000  # about 0.15 s a decision with the native core (bench/review.py)
INACCURACY = 5.0  # points for the seat
MISTAKE = 20.0
BLUNDER = 50.0
GRADES = ("best", "good", "inaccuracy", "mistake", "blunder", "unrated")
PHASES = ("bid", "call", "ecart", "chelem", "poignee", "card")


@dataclass(frozen=True)
class ReviewSettings:
    """``playouts`` per decision (reproducible), or ``think`` seconds instead (not); ``seed``
    varies the sampled worlds."""

    playouts: int = DEFAULT_PLAYOUTS
    think: float | None = None
    seed: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"playouts": None if self.think else self.playouts, "think": self.think, "seed": self.seed}


@dataclass(frozen=True)
class Decision:
    index: int  # of the action in the record (a poignée not shown: the seat's first card's)
    seat: int
    phase: str  # one of PHASES
    trick: int | None  # the trick's number (from 1) for a card
    played: Action | None  # None: no poignée shown
    best: Action | None
    played_value: float  # expected points for the seat (the chelem, the poignée: over not doing it)
    best_value: float
    loss: float
    grade: str
    worlds: int
    relative: bool  # the values are gains over not announcing, not the seat's expected score

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "seat": self.seat, "phase": self.phase, "trick": self.trick,
                "played": _action(self.played), "best": _action(self.best),
                "played_value": round(self.played_value, 1), "best_value": round(self.best_value, 1),
                "loss": round(self.loss, 1), "grade": self.grade, "worlds": self.worlds,
                "relative": self.relative}


@dataclass(frozen=True)
class SeatSummary:
    seat: int
    decisions: int  # rated ones
    mean_loss: float
    total_loss: float
    grades: dict[str, int]
    worst: tuple[int, ...]  # positions in the review's decisions, the three largest losses first

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "decisions": self.decisions, "mean_loss": round(self.mean_loss, 2),
                "total_loss": round(self.total_loss, 1), "grades": self.grades, "worst": list(self.worst)}


@dataclass(frozen=True)
class Par:
    """The deal with every card seen: the playouts' score on the true deal for the taker's
    contract as bid and for each other contract, against what the deal actually scored."""

    taker: int
    contract: Contract
    actual: tuple[int, ...]
    by_contract: dict[Contract, tuple[int, ...]]

    def to_dict(self) -> dict[str, Any]:
        return {"taker": self.taker, "contract": self.contract.name_text, "actual": list(self.actual),
                "by_contract": {c.name_text: list(s) for c, s in self.by_contract.items()}}


@dataclass(frozen=True)
class DealReview:
    players: int
    settings: ReviewSettings
    decisions: tuple[Decision, ...]
    seats: tuple[SeatSummary, ...]
    par: Par | None  # None: nobody took
    scores: tuple[int, ...] | None = field(default=None)  # the deal's true scores

    def to_dict(self) -> dict[str, Any]:
        return {"players": self.players, "settings": self.settings.to_dict(),
                "decisions": [d.to_dict() for d in self.decisions],
                "seats": [s.to_dict() for s in self.seats],
                "par": None if self.par is None else self.par.to_dict(),
                "scores": None if self.scores is None else list(self.scores)}


def _action(action: Action | None) -> dict[str, Any] | None:
    return None if action is None else action_to_dict(action)


def grade(loss: float, played_is_best: bool) -> str:
    if played_is_best:
        return "best"
    if loss < INACCURACY:
        return "good"
    if loss < MISTAKE:
        return "inaccuracy"
    return "mistake" if loss < BLUNDER else "blunder"


def decision_seed(view: View, seed: int) -> int:
    """The chance of the decision at ``view``: from what the seat sees and the review's seed only
    (never the hidden cards)."""
    text = json.dumps(view.to_dict(), sort_keys=True, default=str)
    return int.from_bytes(hashlib.sha256(f"{seed}:{text}".encode()).digest()[:8], "big")


@dataclass(frozen=True)
class Step:
    """A decision to review: the action's index, the seat's view, its kind and the move played."""

    index: int
    view: View
    kind: str
    played: Action | None
    trick: int | None


def decisions_of(record: DealRecord) -> list[Step]:
    """The record's decisions in order, each with its seat's view before it (forced moves left
    out): a poignée is a decision at a seat's first card whether it was shown or not, and a taker
    who did not announce a chelem decided so even where the record leaves it out."""
    deal = record.start()
    steps: list[Step] = []
    actions = list(record.actions)
    i = 0
    while i < len(actions):
        action = actions[i]
        if deal.phase is Phase.ANNOUNCE and not isinstance(action, Chelem):
            assert deal.taker is not None
            _add(steps, deal, i, "chelem", Chelem(deal.taker, False))
            deal.apply(Chelem(deal.taker, False))
            continue
        view = deal.view(action.seat)
        if isinstance(action, Poignee) or (isinstance(action, Play) and view.poignee_options is not None):
            shown = action if isinstance(action, Poignee) else None
            steps.append(Step(i, view, "poignee", shown, None))
            if shown is not None:
                deal.apply(shown)
                i += 1
                continue
        _add(steps, deal, i, _kind(view, action), action)
        deal.apply(action)
        i += 1
    return steps


def _kind(view: View, action: Action) -> str:
    if isinstance(action, Ecart):
        return "ecart"
    if isinstance(action, Play):
        return "card"
    return {"bidding": "bid", "call": "call", "announce": "chelem"}[view.phase]


def _add(steps: list[Step], deal: Deal, index: int, kind: str, action: Action) -> None:
    view = deal.view(action.seat)
    forced = len(view.legal) == 1 and kind != "ecart"
    if not forced:
        trick = len(deal.tricks) + 1 if kind == "card" else None
        steps.append(Step(index, view, kind, action, trick))


def review_deal(record: DealRecord, settings: ReviewSettings = ReviewSettings(),  # frozen
                progress: Callable[[int, int], None] | None = None,
                seats: Collection[int] | None = None) -> DealReview:
    """The review of a finished deal's record (raises ``RecordError`` for a bad one): every
    seat's decisions, or those of ``seats``; ``progress(done, total)`` after each decision."""
    final = record.replay()  # a bad record raises here, before any work
    steps = [s for s in decisions_of(record) if seats is None or s.view.seat in seats]
    decisions: list[Decision] = []
    for n, step in enumerate(steps):
        decisions.append(review_step(step, settings))
        if progress is not None:
            progress(n + 1, len(steps))
    return assemble(record, decisions, settings, final)


def review_step(step: Step, settings: ReviewSettings) -> Decision:
    """One decision's review (the site runs each in its review worker: ``players.review_runner``)."""
    rng = random.Random(decision_seed(step.view, settings.seed))
    return _decision(step, evaluate(step.view, step.kind, step.played,
                                    Budgets(settings.playouts, settings.think), rng))


def assemble(record: DealRecord, decisions: list[Decision], settings: ReviewSettings,
             final: Deal | None = None) -> DealReview:
    """The deal's review from its decisions' (the summaries, the par, the scores); ``final``: the
    record replayed, when the caller has it already."""
    final = final if final is not None else record.replay()
    scores = tuple(final.result().scores)
    return DealReview(record.players, settings, tuple(decisions), _summaries(decisions, record.players),
                      par_of(record, final), scores)


def _decision(step: Step, found: Evaluation) -> Decision:
    played_key: Hashable = key_of(step.played)
    seat = step.view.seat
    if not found.worlds or played_key not in found.values:
        return Decision(step.index, seat, step.kind, step.trick, step.played, None, 0.0, 0.0, 0.0,
                        "unrated", found.worlds, found.relative)
    values = found.values
    # the best: the highest value, the move played first among equals
    best_key = max(values, key=lambda k: (values[k], k == played_key))
    loss = max(0.0, values[best_key] - values[played_key])
    return Decision(step.index, seat, step.kind, step.trick, step.played, found.actions[best_key],
                    values[played_key], values[best_key], loss, grade(loss, best_key == played_key),
                    found.worlds, found.relative)


def _summaries(decisions: list[Decision], players: int) -> tuple[SeatSummary, ...]:
    out = []
    for seat in range(players):
        mine = [(i, d) for i, d in enumerate(decisions) if d.seat == seat and d.grade != "unrated"]
        total = sum(d.loss for _, d in mine)
        grades = {g: sum(1 for _, d in mine if d.grade == g) for g in GRADES[:-1]}
        worst = sorted((p for p in mine if p[1].loss > 0), key=lambda p: (-p[1].loss, p[0]))[:3]
        out.append(SeatSummary(seat, len(mine), total / len(mine) if mine else 0.0, total, grades,
                               tuple(i for i, _ in worst)))
    return tuple(out)


def par_of(record: DealRecord, final: Deal) -> Par | None:
    """The deal's par: the playouts' score with every card seen, for each contract the taker
    could have played (the call as made; the écart as made where the chien was taken, else the
    heuristic's), and the true scores; None when nobody took."""
    taker, contract = final.taker, final.contract
    result = final.result()
    if taker is None or contract is None or result.scores is None:
        return None
    start = record.start()
    called = int(final.called) if final.called is not None else None
    ecart = next((a.mask for a in record.actions if isinstance(a, Ecart)), None)
    by_contract: dict[Contract, tuple[int, ...]] = {}
    for c in Contract:
        deal = start_play(start, taker, c, called, ecart if c.chien_shown else None)
        by_contract[c] = tuple(score_of(Board(deal).play_out(), *score_args(deal)))
    return Par(taker, contract, tuple(result.scores), by_contract)
