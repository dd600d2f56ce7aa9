"""``tarot duplicate deals`` and ``tarot duplicate score`` (R26 for clubs with real cards; docs/duplicate.md).

The expected figures are worked out by hand here, never by calling the code under test.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tarot.cli import app
from tarot.cli.duplicate import etui_deal
from tarot.engine import CARDS, Deal, DealRecord, load

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "duplicate.md"
runner = CliRunner()


def invoke(*args: str | Path) -> Any:
    result = runner.invoke(app, [str(a) for a in args],
                           env={"LANG": "C.UTF-8", "LC_ALL": None, "LC_MESSAGES": None, "COLUMNS": "120"})
    assert "Traceback" not in result.output + result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result


def records(out: Path) -> list[DealRecord]:
    found = []
    for path in sorted(out.glob("etui-*.json")):
        record = load(path.read_text(encoding="utf-8"))
        assert isinstance(record, DealRecord)
        found.append(record)
    return found


# --- deals -----------------------------------------------------------------------------------------


def test_the_same_seed_gives_the_same_files(tmp_path: Path) -> None:
    for name in ("one", "two"):
        result = invoke("duplicate", "deals", "--players", "4", "--deals", "5", "--seed", "club",
                        "--out", tmp_path / name, "--lang", "en")
        assert result.exit_code == 0, result.stderr
        assert "Seed: club" in result.stdout
    one = sorted(p.name for p in (tmp_path / "one").iterdir())
    assert one == ["etui-01.json", "etui-02.json", "etui-03.json", "etui-04.json", "etui-05.json",
                   "index.json", "sheets.html"]
    for name in one:
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes(), name
    invoke("duplicate", "deals", "--deals", "5", "--seed", "other", "--out", tmp_path / "three")
    first = (tmp_path / "one" / "etui-01.json").read_bytes()
    assert (tmp_path / "three" / "etui-01.json").read_bytes() != first


@pytest.mark.parametrize("players", [3, 4, 5])
def test_each_record_is_the_engines_deal_for_its_seed_and_dealer(tmp_path: Path, players: int) -> None:
    deals = 7
    result = invoke("duplicate", "deals", "-p", str(players), "-n", str(deals), "--seed", "s1",
                    "--out", tmp_path)
    assert result.exit_code == 0, result.stderr
    found = records(tmp_path)
    assert len(found) == deals
    index = json.loads((tmp_path / "index.json").read_text(encoding="utf-8"))
    assert index["players"] == players and index["deals"] == deals and index["seed"] == "s1"
    for n, record in enumerate(found, start=1):
        assert record.players == players
        assert record.actions == []
        assert record.dealer == (n - 1) % players  # the documented rotation: étui 1 by seat 0…
        assert record.extra["deal"] == n
        seed = record.extra["seed"]
        assert seed == f"s1/{n}" or seed.startswith(f"s1/{n}/")
        deal = Deal.new(players, dealer=record.dealer, seed=seed)
        assert [sorted(h) for h in record.hands] == [sorted(deal.hand(s)) for s in range(players)]
        assert {int(c) for c in record.chien} == {i for i in range(78) if deal.chien >> i & 1}
        every = sorted([c for h in record.hands for c in h] + record.chien)
        assert every == list(CARDS)  # 78 cards, each exactly once
        assert record.start().annulled is None  # no petit sec: it would be annulled at every table
        assert index["etuis"][n - 1] == {"etui": n, "dealer": record.dealer, "seed": seed,
                                         "record": f"etui-{n:02d}.json"}


def test_a_petit_sec_is_dealt_again_from_the_next_seed() -> None:
    prefix = next(f"p{k}" for k in range(20000) if Deal.new(4, dealer=0, seed=f"p{k}/1").annulled is not None)
    deal, seed = etui_deal(4, prefix, 1)
    assert seed.startswith(f"{prefix}/1/") and deal.annulled is None
    assert Deal.new(4, dealer=0, seed=seed).dealt == deal.dealt


def test_the_sheet_shows_every_card_of_every_seat(tmp_path: Path) -> None:
    invoke("duplicate", "deals", "-p", "5", "-n", "3", "--seed", "x", "--out", tmp_path, "--lang", "fr")
    html = (tmp_path / "sheets.html").read_text(encoding="utf-8")
    for bad in ("<script", "<link", "src=", "http://", "https://", "@import"):
        assert bad not in html  # self-contained
    assert "@page { size: A4" in html and "break-after: page" in html
    pages = re.findall(r'<article class="etui" id="etui-(\d+)" data-etui="\d+">(.*?)</article>', html, re.S)
    assert [int(n) for n, _ in pages] == [1, 2, 3]
    for (n, page), record in zip(pages, records(tmp_path), strict=True):
        assert f"Étui {n}" in page and f"Graine {record.extra['seed']}" in page
        assert f"Donneur : place {record.dealer}" in page
        boxes = re.findall(r'<section class="box[^"]*" (data-seat="(\d)"|data-chien="")>(.*?)</section>',
                           page, re.S)
        assert len(boxes) == 6
        for _, seat, body in boxes:
            cards = re.findall(r'data-card="([^"]+)"', body)
            expected = record.hands[int(seat)] if seat else record.chien
            assert sorted(cards) == sorted(str(c) for c in expected)
            assert len(cards) == len(set(cards))
        # sorted by suit then rank: spades first, kings first; trumps 21 first; the Excuse last
        first = boxes[0][2]
        spades = [c for c in re.findall(r'data-card="([^"]+)"', first) if c.endswith("S")]
        order = ["K", "Q", "N", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "1"]
        assert spades == sorted(spades, key=lambda c: order.index(c[:-1]))


def test_without_a_seed_one_is_drawn_and_printed(tmp_path: Path) -> None:
    result = invoke("duplicate", "deals", "-n", "2", "--out", tmp_path / "a", "--lang", "en")
    assert result.exit_code == 0
    seed = re.search(r"Seed: (\S+) \(drawn at random", result.stdout)
    assert seed
    invoke("duplicate", "deals", "-n", "2", "--seed", seed.group(1), "--out", tmp_path / "b")
    assert (tmp_path / "a" / "etui-02.json").read_bytes() == (tmp_path / "b" / "etui-02.json").read_bytes()


@pytest.mark.parametrize(("args", "reason"), [
    (["--deals", "0"], "--deals must be 1…999, not 0"),
    (["--players", "6"], "--players must be 3, 4 or 5, not 6"),
    (["--seed", ""], "--seed must be"),
])
def test_bad_deal_options(tmp_path: Path, args: list[str], reason: str) -> None:
    result = invoke("duplicate", "deals", *args, "--out", tmp_path / "new")
    assert result.exit_code == 1
    assert result.stderr == f"error: {reason}" + result.stderr.split(reason, 1)[1]
    assert len(result.stderr.splitlines()) == 1
    assert not (tmp_path / "new").exists()


def test_an_existing_out_is_never_overwritten(tmp_path: Path) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "keep.txt").write_text("mine")
    result = invoke("duplicate", "deals", "--out", tmp_path / "full")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: --out {tmp_path / 'full'}: the directory is not empty")
    assert [p.name for p in (tmp_path / "full").iterdir()] == ["keep.txt"]
    (tmp_path / "file").write_text("x")
    result = invoke("duplicate", "deals", "--out", tmp_path / "file")
    assert result.exit_code == 1 and "exists and is not a directory" in result.stderr
    (tmp_path / "empty").mkdir()
    assert invoke("duplicate", "deals", "-n", "1", "--out", tmp_path / "empty").exit_code == 0


# --- score -----------------------------------------------------------------------------------------

NAMES4 = {"A": ["Anne", "Bruno", "Chloé", "David"], "B": ["Emma", "Fabien", "Gaëlle", "Hugo"],
          "C": ["Inès", "Jules", "Karim", "Léa"], "D": ["Marc", "Nina", "Oscar", "Paul"]}


def line(deal: int, table: str, **more: Any) -> str:
    return json.dumps({"deal": deal, "table": table, **more}, ensure_ascii=False)


def results(tmp_path: Path, lines: list[str], name: str = "results.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def score_json(path: Path) -> dict[str, Any]:
    result = invoke("duplicate", "score", path, "--json")
    assert result.exit_code == 0, result.stderr
    out: dict[str, Any] = json.loads(result.stdout)
    return out


def worked_example() -> str:
    block = DOC.read_text(encoding="utf-8").split("```jsonl\n", 1)[1].split("```", 1)[0]
    return block


# The worked example of docs/duplicate.md, by hand. Deal 1 (seat 1 takes at every table):
# A garde +8 with the petit au bout: (25+8)×2 + 20 = 86 → Bruno +258; B garde −3 with a poignée:
# −(28×2) − 20 = −76 → Fabien −228; C prise +8: 33 → Jules +99. Seat 1 ranks A, C, B: 100, 50, 0.
# Deal 2: seat 2 takes at A and B (garde made by 0: 50 → +150 each), seat 0 at C (prise −1: −26 →
# Inès −78). Seat 2: +150, +150, +26 → 75, 75 (tied: (100+50)/2); seat 0: −50, −50, −78 → C last: 0.
WORKED = [  # rank, player, percentage, deals, attack deals, defence deals
    (1, "Gaëlle", 0.25 * 75 + 0.75 * 100, 2, 1, 1),
    (2, "Jules", 0.25 * 50 + 0.75 * 100, 2, 1, 1),
    (3, "Karim", (50 + 100) / 2, 2, 0, 2),
    (3, "Léa", (50 + 100) / 2, 2, 0, 2),
    (5, "Emma", (100 + 25) / 2, 2, 0, 2),
    (5, "Hugo", (100 + 25) / 2, 2, 0, 2),
    (7, "Bruno", 0.25 * 100 + 0.75 * 25, 2, 1, 1),
    (8, "Inès", 0.25 * 0 + 0.75 * 50, 2, 1, 1),
    (9, "Chloé", 0.25 * 75 + 0.75 * 0, 2, 1, 1),
    (9, "Fabien", 0.25 * 0 + 0.75 * 25, 2, 1, 1),
    (11, "Anne", (0 + 25) / 2, 2, 0, 2),
    (11, "David", (0 + 25) / 2, 2, 0, 2),
]


def test_the_documented_worked_example(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    path.write_text(worked_example(), encoding="utf-8")
    out = score_json(path)
    assert [(r["rank"], r["player"], r["percentage"], r["deals"], r["attack"], r["defence"])
            for r in out["ranking"]] == WORKED
    deal1, deal2 = out["deals"]
    assert [t["scores"] for t in deal1["tables"]] == [[-86, 258, -86, -86], [76, -228, 76, 76],
                                                      [-33, 99, -33, -33]]
    assert [t["marks"] for t in deal1["tables"]] == [[0, 100, 0, 0], [100, 0, 100, 100], [50, 50, 50, 50]]
    assert [t["marks"] for t in deal2["tables"]] == [[25, 25, 75, 25], [25, 25, 75, 25], [0, 100, 100, 100]]
    assert deal2["tables"][2]["sides"] == ["attack", "defence", "defence", "defence"]
    assert deal2["tables"][0]["names"] == NAMES4["A"]  # names carried over from the table's first line
    # the documented figures are in the document's table too
    doc = DOC.read_text(encoding="utf-8")
    for rank, player, pct, *_ in WORKED:
        assert re.search(rf"^\| {rank} \| {player} \|.*\*\*{pct:g}\*\* \|$", doc, re.M), player
    # and in the tables printed, in French with a decimal comma
    text = invoke("duplicate", "score", path, "--deals", "--lang", "fr").stdout
    assert re.search(r"1\s+Gaëlle\s+93,75\s+2\s+1\s+1", text)
    assert re.search(r"11\s+David\s+12,5\s+2\s+0\s+2", text)
    assert "Donne 2" in text and "+258" in text and "chuté de 1" in text


def test_ties_share_their_marks(tmp_path: Path) -> None:
    # Four tables, seat 0 takes a prise everywhere: +25+d per defender, taker ×3.
    lines = [line(1, t, names=NAMES4[t], taker=0, contract="prise", oudlers=2, points=p)
             for t, p in (("A", 60), ("B", 45), ("C", 45), ("D", 30))]
    out = score_json(results(tmp_path, lines))
    # taker: +(25+19)×3 = 132, +(25+4)×3 = 87 twice, −(25+11)×3 = −108; steps of 100/3:
    # A 100; B and C share the 2nd and 3rd steps: (66.67 + 33.33)/2 = 50; D 0; defenders 100 − that.
    marks = [t["marks"] for t in out["deals"][0]["tables"]]
    assert marks == [[100, 0, 0, 0], [50, 50, 50, 50], [50, 50, 50, 50], [0, 100, 100, 100]]
    pct = {r["player"]: r["percentage"] for r in out["ranking"]}
    assert pct["Marc"] == 0 and pct["Nina"] == 100 and pct["Emma"] == 50 == pct["Karim"]
    # Anne (attack 100) and Nina, Oscar, Paul (defence 100) share rank 1; the eight at 50 rank 5.
    ranks = {r["player"]: r["rank"] for r in out["ranking"]}
    assert [ranks[n] for n in ("Anne", "Nina", "Oscar", "Paul")] == [1, 1, 1, 1]
    assert ranks["Emma"] == ranks["Léa"] == 5 and ranks["Marc"] == ranks["Bruno"] == 13


def test_a_single_table_gets_50(tmp_path: Path) -> None:
    lines = [line(1, "A", names=NAMES4["A"], taker=1, contract="garde", oudlers=3, points=70),
             line(2, "A", taker=3, contract="garde_contre", oudlers=0, points=20)]
    out = score_json(results(tmp_path, lines))
    assert {r["player"]: r["percentage"] for r in out["ranking"]} == dict.fromkeys(NAMES4["A"], 50)
    assert all(r["rank"] == 1 for r in out["ranking"])


def test_five_players_the_partner_shares_the_takers_mark(tmp_path: Path) -> None:
    five = {"A": ["Anne", "Bruno", "Chloé", "David", "Émile"],
            "B": ["Fanny", "Gilles", "Hélène", "Ivan", "Julie"]}
    lines = [line(1, "A", names=five["A"], taker=1, partner=3, contract="garde", oudlers=2, points=49),
             line(1, "B", names=five["B"], taker=1, contract="garde", oudlers=2, points=38,
                  poignees=["simple"])]
    out = score_json(results(tmp_path, lines))
    a, b = out["deals"][0]["tables"]
    # A: (25+8)×2 = 66 → taker 2×66, partner 66; B alone, lost: −(28×2) − 20 = −76 → taker −4×76.
    assert a["scores"] == [-66, 132, -66, 66, -66] and b["scores"] == [76, -304, 76, 76, 76]
    assert a["marks"] == [0, 100, 0, 100, 0]
    assert a["sides"] == ["defence", "attack", "defence", "attack", "defence"]
    assert b["marks"] == [100, 0, 100, 100, 100]
    pct = {r["player"]: (r["percentage"], r["attack"], r["defence"]) for r in out["ranking"]}
    assert pct["David"] == (100, 1, 0) and pct["Ivan"] == (100, 0, 1) and pct["Gilles"] == (0, 1, 0)


def test_everybody_passed_each_seat_against_its_own_cards(tmp_path: Path) -> None:
    lines = [line(1, "A", names=NAMES4["A"], contract="pass"),
             line(1, "B", names=NAMES4["B"], taker=2, contract="prise", oudlers=1, points=60)]
    out = score_json(results(tmp_path, lines))
    a, b = out["deals"][0]["tables"]
    # B: +(25+9) = 34 → Gaëlle +102, the others −34. Seat by seat against A's zeros.
    assert a["scores"] == [0, 0, 0, 0] and b["scores"] == [-34, -34, 102, -34]
    assert a["marks"] == [100, 100, 0, 100] and a["sides"] == ["defence"] * 4 and a["taker"] is None
    assert b["marks"] == [0, 0, 100, 0]


def test_json_output_shape(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    path.write_text(worked_example(), encoding="utf-8")
    out = score_json(path)
    assert set(out) == {"ranking", "deals"}
    assert set(out["ranking"][0]) == {"rank", "player", "percentage", "deals", "attack", "defence"}
    table = out["deals"][0]["tables"][0]
    assert table == {"table": "A", "line": 2, "names": NAMES4["A"], "contract": "garde", "taker": 1,
                     "partner": None, "scores": [-86, 258, -86, -86], "marks": [0, 100, 0, 0],
                     "sides": ["defence", "attack", "defence", "defence"]}


GOOD = [line(1, "A", names=NAMES4["A"], taker=1, contract="garde", oudlers=2, points=49),
        line(1, "B", names=NAMES4["B"], taker=1, contract="garde", oudlers=2, points=40)]
BAD_LINES = [
    (line(2, "A", taker=1, contract="gard", oudlers=2, points=49), "R7: unknown contract 'gard'"),
    (line(2, "A", taker=1, contract="prise", oudlers=2, points=92), "R3: points must be 0…91"),
    (line(2, "A", taker=4, contract="prise", oudlers=2, points=49), "R4: taker must be a seat 0…3, not 4"),
    (line(2, "A", taker=1, contract="prise", points=49), 'missing "oudlers"'),
    (line(2, "A", taker=1, oudlers=1, points=49), 'missing "contract"'),
    (line(2, "C", taker=1, contract="prise", oudlers=1, points=49), 'missing "names"'),
    (line(2, "A", taker=1, contract="prise", oudlers=2, points=49),
     "deal 2 is played at table A only, so it cannot be ranked"),
    (line(1, "C", names=["Inès", "Jules", "Karim"], taker=1, contract="prise", oudlers=2, points=49),
     "3 players, but line 1 has 4"),
    (line(1, "C", names=["Inès", "Bruno", "Karim", "Léa"], taker=1, contract="prise", oudlers=2, points=49),
     "Bruno plays deal 1 at table C and at table A (line 1)"),
    (line(1, "A", taker=1, contract="prise", oudlers=2, points=49), "deal 1 at table A is already on line 1"),
    (line(1, "C", names=["Inès", "Jules", "Inès", "Léa"], taker=1, contract="prise", oudlers=2, points=49),
     "Inès sits at two seats"),
    (line(1, "C", names=NAMES4["C"], players=5, taker=1, contract="prise", oudlers=2, points=49),
     '"players" is 5 but "names" names 4 players'),
    (line(1, "C", names=NAMES4["C"], taker=1, partner=2, contract="prise", oudlers=2, points=49),
     "R8: there is no partner at 4 players"),
    (line(1, "C", names=NAMES4["C"], contract="pass", points=49), 'everybody passed ("contract": "pass")'),
    (line(0, "C", names=NAMES4["C"], taker=1, contract="prise", oudlers=2, points=49), '"deal" must be'),
    (line(1, "C", names=NAMES4["C"], taker=1, contract="prise", oudlers=2, points=49, score=3),
     "unknown key 'score'"),
    ('{"deal": 1, "table": "C" "names": []}', "not valid JSON"),
    ("[1, 2]", "a result is a JSON object"),
]


@pytest.mark.parametrize(("bad", "reason"), BAD_LINES)
def test_a_bad_line_is_named(tmp_path: Path, bad: str, reason: str) -> None:
    path = results(tmp_path, [*GOOD, bad])
    result = invoke("duplicate", "score", path)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert result.stderr.startswith(f"error: {path}: line 3: "), result.stderr
    assert reason in result.stderr
    out = json.loads(invoke("duplicate", "score", path, "--json").stdout)
    assert out["errors"][0]["line"] == 3 and reason in out["errors"][0]["reason"]


def test_every_bad_line_is_reported_and_comments_are_skipped(tmp_path: Path) -> None:
    path = results(tmp_path, ["# a comment", "", GOOD[0], BAD_LINES[0][0], BAD_LINES[1][0], GOOD[1]])
    result = invoke("duplicate", "score", path)
    assert result.exit_code == 1
    assert [e.split(": ")[2] for e in result.stderr.splitlines()] == ["line 4", "line 5"]


def test_unreadable_results(tmp_path: Path) -> None:
    result = invoke("duplicate", "score", tmp_path / "nope.jsonl")
    assert result.exit_code == 1 and result.stderr == f"error: {tmp_path / 'nope.jsonl'}: no such file\n"
    empty = results(tmp_path, ["# nothing yet"])
    result = invoke("duplicate", "score", empty)
    assert result.exit_code == 1 and "no results" in result.stderr
