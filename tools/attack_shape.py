"""Does the bias the bids correct depend on the hand? (issue 37: "a bid evaluation calibrated on
outcomes … by hand shape … instead of constants").

Reads what ``tools/calibrate_attack.py --dump FILE`` wrote (each hand's simulated and real attack
points at each contract, and the hand's shape) and, per player count and contract, fits the gap
(real − simulated) as a linear function of a few shape features, by penalized least squares
(numpy). It prints each feature's slope with its 95% interval, and how much of the gap's spread
the shape explains on hands it was not fitted on (two halves, each fitted on the other): if
next to nothing, a constant correction (``bidding.ATTACK_CORRECTION``) is all the data support.

    python tools/calibrate_attack.py --hands 2000 --seed 1 --jobs 2 --playouts 300 \\
        --players 4 --defenders search --dump attack.jsonl
    python tools/attack_shape.py attack.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np

# The shape as a few figures a player counts (the bid model's features, grouped).
SHAPE = ("trumps", "oudlers", "kings", "long", "voids", "singletons", "excuse", "petit_guarded")
PENALTY = 1.0


def shape_row(shape: dict[str, int]) -> list[float]:
    """One hand's inputs: a constant, then ``SHAPE``."""
    oudlers = shape["oudlers_1"] + 2 * shape["oudlers_2"] + 3 * shape["oudlers_3"]
    values = {**shape, "oudlers": oudlers}
    return [1.0, *(float(values[name]) for name in SHAPE)]


def fit(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Penalized least squares (the constant not penalized): the weights and their standard errors."""
    penalty = PENALTY * np.eye(x.shape[1])
    penalty[0, 0] = 0.0
    inverse = np.linalg.inv(x.T @ x + penalty)
    w = inverse @ x.T @ y
    residual = y - x @ w
    sigma2 = float(residual @ residual) / max(1, len(y) - x.shape[1])
    return w, np.sqrt(np.diag(inverse @ (x.T @ x) @ inverse) * sigma2)


def held_out_share(x: np.ndarray, y: np.ndarray) -> float:
    """The share of the gap's variance around its mean that the shape explains on held-out hands
    (two halves, each predicted by the other's fit); at or below 0: nothing."""
    half = len(y) // 2
    errors, base = 0.0, 0.0
    for train, test in ((slice(0, half), slice(half, None)), (slice(half, None), slice(0, half))):
        w, _ = fit(x[train], y[train])
        errors += float(((y[test] - x[test] @ w) ** 2).sum())
        base += float(((y[test] - y[train].mean()) ** 2).sum())
    return 1.0 - errors / base


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dump", type=argparse.FileType("r"), help="calibrate_attack.py --dump's file")
    args = parser.parse_args(argv)
    groups: dict[tuple[int, str], list[tuple[list[float], float]]] = {}
    for number, line in enumerate(args.dump, 1):
        try:
            row = json.loads(line)
            hand = (shape_row(row["shape"]), float(row["real"]) - float(row["simulated"]))
            groups.setdefault((int(row["players"]), str(row["contract"])), []).append(hand)
        except (ValueError, KeyError, TypeError) as exc:
            raise SystemExit(f"{args.dump.name}:{number}: not a line of calibrate_attack.py --dump "
                             f"({exc!r})") from None
    for (players, contract), hands in sorted(groups.items()):
        if len(hands) < 4 * (len(SHAPE) + 1):
            print(f"players={players} contract={contract} hands={len(hands)}: too few to fit")
            continue
        x = np.array([inputs for inputs, _ in hands])
        y = np.array([gap for _, gap in hands])
        w, se = fit(x, y)
        print(f"players={players} contract={contract} hands={len(hands)} mean_gap={y.mean():+.2f} "
              f"held_out_share={held_out_share(x, y):+.3f}")
        for name, weight, error in zip(("constant", *SHAPE), w, se, strict=True):
            print(f"  {name:<14} {weight:+7.2f} [{weight - 1.96 * error:+.2f}, {weight + 1.96 * error:+.2f}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
