"""tarot-deal/1 records: exact format, unknown keys kept, every bad input refused with its place."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from playing import play_out
from tarot.engine import Deal, DealRecord, RecordError, dump_game, load, replay_result


def played_record(players: int = 4, seed: int = 5) -> dict[str, Any]:
    for k in range(50):
        deal = Deal.new(players, 0, seed=seed + k)
        play_out(deal, random.Random(seed + k))
        if not deal.result().annulled:
            return DealRecord.from_deal(deal).to_dict()
    raise AssertionError("no scored deal")


def test_format_is_exactly_the_documented_one() -> None:
    rec = played_record()
    assert list(rec)[:6] == ["format", "players", "dealer", "hands", "chien", "actions"]
    assert rec["format"] == "tarot-deal/1"
    assert [len(h) for h in rec["hands"]] == [18] * 4 and len(rec["chien"]) == 6
    kinds = {next(k for k in a if k != "seat") for a in rec["actions"]}
    assert kinds <= {"bid", "call", "ecart", "chelem", "poignee", "play"}
    assert {"bid", "play"} <= kinds
    assert all(isinstance(a["seat"], int) for a in rec["actions"])
    result = replay_result(DealRecord.from_dict(rec))
    assert list(result) == ["legal", "annulled", "taker", "partner", "contract", "oudlers", "points",
                            "made", "scores"]
    assert result["legal"] is True and isinstance(result["points"], float)


def test_unknown_optional_keys_survive_a_round_trip() -> None:
    rec = played_record()
    rec["game"] = "abc"
    rec["commitment"] = "00ff"
    rec["x-client"] = {"v": 2}
    rec["actions"][0]["t"] = 1234
    again = DealRecord.from_json(json.dumps(rec)).to_dict()
    assert again == rec
    assert again["actions"][0]["t"] == 1234


def test_a_game_record_is_a_list_of_deal_records() -> None:
    recs = [played_record(3, 1), played_record(5, 2)]
    loaded = load(json.dumps(recs))
    assert isinstance(loaded, list) and [r.players for r in loaded] == [3, 5]
    assert json.loads(dump_game(loaded)) == recs  # written back exactly


def test_an_announced_chelem_is_read_from_a_record() -> None:
    rec = played_record()
    taker_bid = next(a for a in rec["actions"] if a.get("bid") not in (None, "pass"))
    first_play = next(i for i, a in enumerate(rec["actions"]) if "play" in a)
    rec["actions"].insert(first_play, {"seat": taker_bid["seat"], "chelem": True})
    deal = DealRecord.from_dict(rec).replay(complete=False)
    assert deal.chelem_announced


def corrupt(change: Any) -> dict[str, Any]:
    rec = copy.deepcopy(played_record())
    change(rec)
    return rec


def first_play(rec: dict[str, Any]) -> int:
    return next(i for i, a in enumerate(rec["actions"]) if "play" in a)


BAD = [
    ("format", lambda r: r.update(format="tarot-deal/2"), None, "format"),
    ("players", lambda r: r.update(players=6), None, "players"),
    ("dealer", lambda r: r.update(dealer=4), None, "dealer"),
    ("unknown card", lambda r: r["hands"][1].__setitem__(0, "ZZ"), None, "hands\\[1\\].*unknown card 'ZZ'"),
    ("duplicate card", lambda r: r["hands"][2].__setitem__(0, r["hands"][1][0]), None, "twice"),
    ("short hand", lambda r: r["hands"][0].pop(), None, "R5"),
    ("chien", lambda r: r.update(chien=r["chien"][:5]), None, "chien"),
    ("actions not a list", lambda r: r.update(actions={}), None, "actions"),
    ("no kind", lambda r: r["actions"][2].pop("bid"), 2, "exactly one of"),
    ("two kinds", lambda r: r["actions"][1].update(play="KH"), 1, "exactly one of"),
    ("bad bid", lambda r: r["actions"][0].update(bid="grande"), 0, "R7"),
    ("seat", lambda r: r["actions"][0].update(seat="1"), 0, "seat"),
    ("out of turn", lambda r: r["actions"][0].update(seat=(r["actions"][0]["seat"] + 1) % 4), 0, "R7"),
    ("wrong seat plays", lambda r: r["actions"][first_play(r)].update(
        seat=(r["actions"][first_play(r)]["seat"] + 1) % 4), None, "R4"),
    ("after the end", lambda r: r["actions"].append({"seat": 0, "play": "KH"}), None, "over"),
    ("truncated", lambda r: r["actions"].pop(), None, "ends before the deal is over"),
]


@pytest.mark.parametrize(("change", "index", "reason"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_records_are_refused_with_a_reason_and_index(change: Any, index: int | None, reason: str) -> None:
    rec = corrupt(change)
    with pytest.raises(RecordError, match=reason) as info:
        DealRecord.from_json(json.dumps(rec)).replay()
    if index is not None:
        assert info.value.action == index


def test_illegal_play_points_at_its_action() -> None:
    rec = played_record()
    i = first_play(rec)
    seat = rec["actions"][i]["seat"]
    other = next(c for h, hand in enumerate(rec["hands"]) if h != seat for c in hand
                 if c not in rec["chien"])
    rec["actions"][i]["play"] = other
    result = replay_result(DealRecord.from_dict(rec))
    assert result == {"legal": False, "error": {"action": i, "reason": result["error"]["reason"]}}
    assert result["error"]["reason"].startswith("R15") and other in result["error"]["reason"]


@pytest.mark.parametrize("text", ["", "{", "[1, 2]", "null", "\"x\""])
def test_malformed_json_is_a_record_error(text: str) -> None:
    with pytest.raises(RecordError):
        load(text)


def test_illegal_actions_leave_the_state_unchanged() -> None:
    deal = Deal.new(4, 0, seed=2)
    before = [deal.view(s) for s in range(4)]
    rec_before = DealRecord.from_deal(deal).to_dict()
    for bad in [DealRecord.from_dict(played_record()).actions[-1]]:
        with pytest.raises(ValueError, match="R"):
            deal.apply(bad)
    assert [deal.view(s) for s in range(4)] == before
    assert DealRecord.from_deal(deal).to_dict() == rec_before


@pytest.mark.parametrize("players", [3, 4, 5])
def test_card_codes_are_read_in_any_case_and_written_in_upper_case(players: int) -> None:
    """Issue 23, item 4 (R1): a record whose card codes are in lower or mixed case is the same
    deal, and it is written back in upper case, as the protocol and the command line do."""
    rec = played_record(players)

    def lower(value: Any) -> Any:
        if isinstance(value, list):
            return [lower(v) for v in value]
        if isinstance(value, dict):
            return {k: (v if k == "bid" else lower(v)) for k, v in value.items()}
        return value.lower() if isinstance(value, str) and value != "tarot-deal/1" else value

    shouted = lower(rec)
    assert shouted["hands"][0][0].islower() and shouted != rec
    read = DealRecord.from_dict(shouted)
    assert read.to_dict() == rec
    assert replay_result(read) == replay_result(DealRecord.from_dict(rec))
