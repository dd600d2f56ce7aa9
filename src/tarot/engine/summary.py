"""Deal summaries (docs/records.md): the score calculator for players with real cards."""

from __future__ import annotations

from typing import Any, Final

from .errors import RecordError
from .rules import Contract, PoigneeSize, Side
from .scoring import Score, score_deal

_KEYS: Final = ("players", "taker", "partner", "contract", "oudlers", "points", "petit_au_bout",
                "poignees", "chelem_announced", "chelem")
_REQUIRED: Final = ("players", "taker", "contract", "oudlers", "points")


def _int(obj: dict[str, Any], key: str) -> int:
    value = obj.get(key)
    if type(value) is not int:
        raise RecordError(f"\"{key}\" must be an integer, not {value!r}")
    return value


def _side(obj: dict[str, Any], key: str) -> Side | None:
    value = obj.get(key)
    if value is None:
        return None
    if value not in ("attack", "defence"):
        raise RecordError(f"\"{key}\" must be \"attack\", \"defence\" or null, not {value!r}")
    return Side(value)


def score_summary(obj: Any) -> Score:
    """Score one summary object; raises RecordError with a one-line reason if it is bad."""
    if not isinstance(obj, dict):
        raise RecordError(f"a deal summary is a JSON object, not {type(obj).__name__}")
    unknown = [k for k in obj if k not in _KEYS]
    if unknown:
        raise RecordError(f"unknown key {unknown[0]!r} (expected: {', '.join(_KEYS)})")
    for key in _REQUIRED:
        if key not in obj:
            raise RecordError(f"missing \"{key}\"")
    players = _int(obj, "players")
    taker = _int(obj, "taker")
    oudlers = _int(obj, "oudlers")
    partner = obj.get("partner")
    if partner is not None and type(partner) is not int:
        raise RecordError(f"\"partner\" must be a seat or null, not {partner!r}")
    contract_text = obj.get("contract")
    if not isinstance(contract_text, str):
        raise RecordError(f"\"contract\" must be a string, not {contract_text!r}")
    points = obj.get("points")
    if type(points) not in (int, float) or points is None:
        raise RecordError(f"\"points\" must be a number, not {points!r}")
    poignees_raw = obj.get("poignees", [])
    if not isinstance(poignees_raw, list) or not all(isinstance(p, str) for p in poignees_raw):
        raise RecordError("\"poignees\" must be a list of sizes (simple, double, triple), "
                          f"not {poignees_raw!r}")
    announced = obj.get("chelem_announced", False)
    if not isinstance(announced, bool):
        raise RecordError(f"\"chelem_announced\" must be true or false, not {announced!r}")
    try:
        return score_deal(
            players=players, taker=taker, partner=partner, contract=Contract.parse(contract_text),
            oudlers=oudlers, points=points, petit_au_bout=_side(obj, "petit_au_bout"),
            poignees=[PoigneeSize.parse(p) for p in poignees_raw],
            chelem_announced=announced, chelem=_side(obj, "chelem"),
        )
    except RecordError:
        raise
    except ValueError as e:
        raise RecordError(str(e)) from None
