"""Exact play of a sampled world's last tricks (issue 19): alpha-beta between the two sides.

In a sampled world every hand is known, so once few cards are left the search can play them
perfectly instead of by the fast policy. The value is S of R24, what each defender pays: the
attack maximizes it and the defence minimizes it, and every seat's score is a multiple of it
(R24), so this is what each side plays for, the petit au bout (R23), the Excuse (R17–R19) and
the chelem included, through the engine's own count.

``solve`` is the reference on the engine's ``Deal``; the native kernel (``_playout.pyx``)
searches the same tree in the same order, so both return the same outcome (the parity test).
"""

from __future__ import annotations

from tarot.engine import CARDS, Deal, Phase
from tarot.engine.rules import TARGETS

from . import playout

INFINITY = 1 << 20
_DONE = Phase.DONE

Params = tuple[int, int, bool]  # the contract's multiplier, the poignées' primes, chelem announced


def params(deal: Deal) -> Params:
    """What S depends on besides the outcome (fixed once the play starts)."""
    assert deal.contract is not None
    rules = deal.variant
    primes = sum(rules.poignee_size(m.bit_count()) or 0 for m in deal.poignees.values())
    return deal.contract.multiplier, primes, deal.chelem_announced


def attack_value(packed: int, multiplier: int, primes: int, chelem_announced: bool) -> int:
    """S of R24 for a packed outcome (``engine.scoring.score_deal``'s ``per_defender``)."""
    half, oudlers, pab, chelem = playout.unpack(packed)
    target = TARGETS[oudlers]
    made = half >= 2 * target
    rounded = (half + 1) // 2 if made else half // 2  # R21: the half point to the winners
    sign = 1 if made else -1
    s = (25 + abs(rounded - target)) * multiplier * sign + primes * sign
    if pab >= 0:
        s += 10 * multiplier * (1 if pab == 0 else -1)
    if chelem == 0:
        s += 400 if chelem_announced else 200
    else:
        if chelem_announced:
            s -= 200
        if chelem == 1:
            s -= 200
    return s


def solve(deal: Deal, values: Params) -> int:
    """The packed outcome when both sides play perfectly from ``deal``'s position to the end
    (``deal`` is left as it was)."""
    return _search(deal, -INFINITY, INFINITY, values)[1]


def _search(deal: Deal, alpha: int, beta: int, values: Params) -> tuple[int, int]:
    """(S, packed outcome) of the best play: fail-hard alpha-beta, cards in increasing order."""
    if deal.phase is _DONE:
        packed = playout.outcome(deal)
        return attack_value(packed, *values), packed
    legal = deal.legal_mask()
    attack = deal.side[deal.turn] == 0  # type: ignore[index]
    best = -INFINITY if attack else INFINITY
    best_packed = 0
    while legal:
        low = legal & -legal
        legal ^= low
        child = deal.copy()
        child.play(CARDS[low.bit_length() - 1])
        value, packed = _search(child, alpha, beta, values)
        if attack:
            if value > best:
                best, best_packed = value, packed
                alpha = max(alpha, best)
        elif value < best:
            best, best_packed = value, packed
            beta = min(beta, best)
        if alpha >= beta:
            break
    return best, best_packed
