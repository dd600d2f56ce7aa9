"""Playouts of one sampled world, natively when the kernel is built: ``Board(deal)``.

A board holds a deal's card-play position; ``after(card)`` plays that card and then the fast
policy (``rollout``) to the end on a copy, ``play_out()`` the policy from the position, both
returning the *packed outcome*: what the score depends on besides the contract (``pack``).
``trace()`` gives the cards of the last playout.

``PureBoard`` is the reference, on the engine's ``Deal`` (``rollout.play_out``); the native
``_playout.Board`` (Cython, 128-bit masks) must give the very same cards and outcomes, which
the parity test checks on thousands of worlds. The native one serves when it was built, unless
``TAROT_NATIVE=0`` (the engine's switch) says pure Python everywhere.
"""

from __future__ import annotations

import os
from functools import lru_cache

from tarot.engine import CARDS, Contract, Deal, Play, Side, score_deal
from tarot.engine.rules import variant

from .rollout import play_out

_SIDE_OF = (Side.ATTACK, Side.DEFENCE)


def pack(half_points: int, oudlers: int, petit_au_bout: int, chelem: int) -> int:
    """The outcome as one int: the attack's half points (R3, with the Excuse's half point),
    its oudlers, then the side (0 attack, 1 defence, -1 none) with petit au bout and the chelem."""
    return half_points | oudlers << 8 | (petit_au_bout + 1) << 10 | (chelem + 1) << 12


def unpack(packed: int) -> tuple[int, int, int, int]:
    """``pack``'s arguments back."""
    return packed & 0xFF, packed >> 8 & 3, (packed >> 10 & 3) - 1, (packed >> 12 & 3) - 1


def outcome(deal: Deal) -> int:
    """The packed outcome of a played deal, from the engine's count."""
    counted = deal.count()
    pab = -1 if counted.petit_au_bout is None else _SIDE_OF.index(counted.petit_au_bout)
    chelem = -1 if counted.chelem is None else _SIDE_OF.index(counted.chelem)
    return pack(int(counted.points * 2), counted.oudlers, pab, chelem)


@lru_cache(maxsize=65536)  # a decision meets few distinct outcomes, many times each
def score_of(packed: int, players: int, taker: int, contract: Contract, partner: int | None,
             poignee_cards: tuple[int, ...], chelem_announced: bool,
             correction: float = 0.0) -> tuple[int, ...]:
    """Every seat's score (R21–R24) for a packed outcome, ``correction`` card points added to the
    attack's (kept within 0…91: a correction may be negative)."""
    half, oudlers, pab, chelem = unpack(packed)
    rules = variant(players)
    return score_deal(
        players=players, taker=taker, contract=contract, oudlers=oudlers,
        points=max(0.0, min(91.0, half / 2 + correction)) if correction else half / 2, partner=partner,
        petit_au_bout=None if pab < 0 else _SIDE_OF[pab],
        poignees=[p for n in poignee_cards if (p := rules.poignee_size(n))],
        chelem_announced=chelem_announced, chelem=None if chelem < 0 else _SIDE_OF[chelem],
    ).scores


ScoreArgs = tuple[int, int, Contract, int | None, tuple[int, ...], bool]


def score_args(deal: Deal) -> ScoreArgs:
    """What ``score_of`` needs of ``deal`` besides the outcome (fixed once the play starts)."""
    assert deal.taker is not None and deal.contract is not None
    poignees = tuple(sorted(m.bit_count() for m in deal.poignees.values()))
    return deal.players, deal.taker, deal.contract, deal.partner, poignees, deal.chelem_announced


def scores(deal: Deal, packed: int, correction: float = 0.0) -> tuple[int, ...]:
    """``score_of`` for ``deal``'s contract, taker, partner, poignées and announce."""
    return score_of(packed, *score_args(deal), correction)


class PureBoard:
    """The reference board: copies of the ``Deal`` played by ``rollout.play_out``."""

    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        self._trace: list[int] = []

    def legal(self) -> int:
        return self.deal.legal_mask()

    def after(self, card: int) -> int:
        trial = self.deal.copy()
        trial.play(CARDS[card])
        return self._finish(trial)

    def play_out(self) -> int:
        return self._finish(self.deal.copy())

    def _finish(self, trial: Deal) -> int:
        start = len(self.deal.actions)
        play_out(trial)
        self._trace = [int(a.card) for a in trial.actions[start:] if isinstance(a, Play)]
        return outcome(trial)

    def trace(self) -> list[int]:
        return self._trace


Board: type[PureBoard] = PureBoard
NATIVE_KERNEL = False
if os.environ.get("TAROT_NATIVE", "1") != "0":  # the engine's switch (tarot.engine.NATIVE)
    try:
        from . import _playout
    except ImportError:  # not built (no compiler or no Cython at install): pure Python
        pass
    else:
        Board = _playout.Board  # type: ignore[assignment]  # the same interface
        NATIVE_KERNEL = True
