"""End-to-end tests of the ``tarot`` command line (replay, score) and its example files."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tarot.cli import app
from tarot.cli.i18n import MESSAGES, Lang, default_lang
from tarot.engine import CARDS, Bid, Deal, DealRecord, load, replay_result

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
DEALS = ["deal-3p.json", "deal-4p.json", "deal-5p.json"]
REPLAY_KEYS = ["legal", "annulled", "taker", "partner", "contract", "oudlers", "points", "made", "scores"]
runner = CliRunner()


def tarot(*args: str | Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """The real entry point, in a fresh process."""
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "TAROT_DEBUG")}
    return subprocess.run([sys.executable, "-m", "tarot.cli", *map(str, args)], capture_output=True,
                          text=True, input=stdin, timeout=60, env={**env, "LANG": "C.UTF-8"})


def invoke(*args: str | Path, lang_env: str = "C.UTF-8") -> Any:
    result = runner.invoke(app, [str(a) for a in args],
                           env={"LANG": lang_env, "LC_ALL": None, "LC_MESSAGES": None, "COLUMNS": "100"})
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result


def json_lines(text: str) -> list[Any]:
    return [json.loads(line) for line in text.splitlines()]


def write(path: Path, obj: Any) -> Path:
    path.write_text(json.dumps(obj), encoding="utf-8")
    return path


def summary(players: int, taker: int, contract: str, oudlers: int, points: float,
            **more: Any) -> dict[str, Any]:
    return {"players": players, "taker": taker, "partner": None, "contract": contract, "oudlers": oudlers,
            "points": points, "petit_au_bout": None, "poignees": [], "chelem_announced": False,
            "chelem": None, **more}


# The worked examples of docs/rules.md; the expected scores computed by hand from the text (taker, then S).
WORKED = [
    # 1. garde, 2 oudlers, 49 points: (25+8)×2 + 20 poignée + 20 petit au bout = 106
    (summary(4, 1, "garde", 2, 49, petit_au_bout="attack", poignees=["simple"]), [-106, 318, -106, -106]),
    # 2. garde sans won by 4 (45 points, 2 oudlers), defence petit au bout: (25+4)×4 − 40 = 76
    (summary(4, 0, "garde_sans", 2, 45, petit_au_bout="defence"), [228, -76, -76, -76]),
    # 3. prise lost by 7 (44 points, 1 oudler), taker's poignée, taker's petit au bout: −32 − 20 + 10 = −42
    (summary(4, 2, "prise", 1, 44, petit_au_bout="attack", poignees=["simple"]), [42, 42, -126, 42]),
    # 4. garde won by 11 (52 points, 2 oudlers), a defender's poignée: (25+11)×2 + 20 = 92
    (summary(4, 3, "garde", 2, 52, poignees=["simple"]), [-92, -92, -92, 276]),
    # 5. garde, chelem announced and made, 87 points: (25+46)×2 + 20 + 20 + 400 = 582
    (summary(4, 1, "garde", 2, 87, petit_au_bout="attack", poignees=["simple"], chelem_announced=True,
             chelem="attack"), [-582, 1746, -582, -582]),
    # 6. garde contre, 39 points, 2 oudlers: −(25+2)×6 − 20 + 60 = −122
    (summary(4, 2, "garde_contre", 2, 39, petit_au_bout="attack", poignees=["simple"]),
     [122, 122, -366, 122]),
    # 7. 3 players, prise, 2 oudlers, 40.5 points: counts 40, lost by 1: S = −26
    (summary(3, 0, "prise", 2, 40.5), [-52, 26, 26]),
]


# --- score ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("number", "case"), list(enumerate(WORKED, 1)))
def test_worked_example_through_the_entry_point(tmp_path: Path, number: int, case: Any) -> None:
    obj, expected = case
    proc = tarot("score", "--json", write(tmp_path / f"example{number}.json", obj))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == json.dumps({"scores": expected}) + "\n"
    assert proc.stderr == ""


def test_example_summary_files() -> None:
    result = invoke("score", "--json", EXAMPLES / "summaries.json", EXAMPLES / "summary-3p.json")
    assert result.exit_code == 0
    assert json_lines(result.stdout) == [{"scores": expected} for _, expected in WORKED]
    assert json.loads((EXAMPLES / "summaries.json").read_text()) == [obj for obj, _ in WORKED[:6]]
    assert json.loads((EXAMPLES / "summary-3p.json").read_text()) == WORKED[6][0]


@pytest.mark.parametrize(("obj", "expected"), [
    # 5 players, garde made by 0 (51 points, 1 oudler): S = 25×2 = 50; taker 2S, partner S.
    (summary(5, 2, "garde", 1, 51, partner=4), [-50, -50, 100, -50, 50]),
    # Alone (partner null, or the taker's own seat): taker 4S.
    (summary(5, 2, "garde", 1, 51), [-50, -50, 200, -50, -50]),
    (summary(5, 2, "garde", 1, 51, partner=2), [-50, -50, 200, -50, -50]),
    # 5 players, 40.5 points with 2 oudlers: lost by 1 (R21), prise: S = −26.
    (summary(5, 0, "prise", 2, 40.5, partner=1), [-52, -26, 26, 26, 26]),
    # Chelem announced, not made; the defence's chelem (R23): −200 each, never multiplied.
    (summary(4, 0, "prise", 3, 40, chelem_announced=True), [3 * (29 - 200), 200 - 29, 200 - 29, 200 - 29]),
    (summary(4, 0, "prise", 0, 0, chelem="defence"), [-3 * 281, 281, 281, 281]),
])
def test_more_summaries(tmp_path: Path, obj: dict[str, Any], expected: list[int]) -> None:
    result = invoke("score", "--json", write(tmp_path / "s.json", obj))
    assert result.exit_code == 0, result.output
    assert json_lines(result.stdout) == [{"scores": expected}]
    assert sum(expected) == 0


def test_score_sheet_tables_in_english_and_french() -> None:
    english = invoke("score", "--lang", "en", EXAMPLES / "summaries.json")
    assert english.exit_code == 0
    for words in ("Total", "Seat 1", "made by 8", "lost by 7", "+2060", "-388", "-1348", "-324",
                  "poignée simple"):
        assert words in english.stdout
    french = invoke("score", "--lang", "fr", EXAMPLES / "summaries.json")
    for words in ("Total", "Joueur 1", "fait de 8", "chuté de 7", "+2060", "petit au bout attaque +20",
                  "\u2212388", "\u22121348"):
        assert words in french.stdout
    assert "-388" not in french.stdout and "-1348" not in french.stdout


def test_one_summary_table() -> None:
    result = invoke("score", "--lang", "en", EXAMPLES / "summary-3p.json")
    assert result.exit_code == 0
    for words in ("Taker", "Prise", "40.5", "lost by 1", "Seat 0 (taker)", "-52", "+26"):
        assert words in result.stdout
    french = invoke("score", "--lang", "fr", EXAMPLES / "summary-3p.json")
    for words in ("Preneur", "40,5", "chuté de 1", "Joueur 0 (preneur)", "Joueur 1 (défenseur)"):
        assert words in french.stdout


@pytest.mark.parametrize(("obj", "reason"), [
    (summary(4, 0, "garde_double", 2, 50), "R7: unknown contract 'garde_double'"),
    (summary(4, 0, "garde", 2, 95), "R3: points must be 0…91"),
    (summary(4, 0, "garde", 2, 50, partner=1), "R8: there is no partner at 4 players"),
    (summary(4, 0, "garde", 4, 50), "R2: oudlers must be 0…3"),
    (summary(4, 0, "garde", 2, 50.5), "R21: half points cannot occur at 4 players"),
    (summary(6, 0, "garde", 2, 50), "R5: French Tarot is played by 3, 4 or 5 players"),
    (summary(4, 4, "garde", 2, 50), "R4: taker must be a seat"),
    ({"players": 4, "taker": 0}, 'missing "contract"'),
    ({**summary(4, 0, "garde", 2, 50), "bonus": 1}, "unknown key 'bonus'"),
    ([1], "summary 0: a deal summary is a JSON object"),
])
def test_bad_summary(tmp_path: Path, obj: Any, reason: str) -> None:
    path = write(tmp_path / "bad.json", obj)
    result = invoke("score", "--json", path)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith(f"error: {path}: ")
    assert reason in result.stderr


def test_bad_summary_in_a_list_keeps_the_good_ones() -> None:
    proc = tarot("score", "--json", EXAMPLES / "bad-summary.json")
    assert proc.returncode == 1
    assert json_lines(proc.stdout) == [{"scores": [204, -68, -68, -68]}]
    path = EXAMPLES / "bad-summary.json"
    assert proc.stderr == f"error: {path}: summary 1: R7: unknown contract 'garde_double'\n"


def test_score_sheet_refuses_mixed_player_counts(tmp_path: Path) -> None:
    path = write(tmp_path / "mixed.json", [WORKED[0][0], WORKED[6][0]])
    result = invoke("score", path)
    assert result.exit_code == 1
    assert "summary 1: 3 players, but summary 0 has 4" in result.stderr
    assert "+318" in result.stdout  # the good one is still shown


def test_score_refuses_a_deal_record() -> None:
    result = invoke("score", EXAMPLES / "deal-4p.json")
    assert result.exit_code == 1
    assert "use `tarot replay`" in result.stderr


# --- replay -----------------------------------------------------------------------------------


def test_replay_json_is_replay_result_exactly() -> None:
    proc = tarot("replay", "--json", *(EXAMPLES / name for name in DEALS))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == len(DEALS)
    for name, line in zip(DEALS, lines, strict=True):
        record = load((EXAMPLES / name).read_text(encoding="utf-8"))
        assert isinstance(record, DealRecord)
        assert line == json.dumps(replay_result(record))
        result = json.loads(line)
        assert list(result) == REPLAY_KEYS
        assert result["legal"] is True and result["annulled"] is None
        assert len(result["scores"]) == record.players and sum(result["scores"]) == 0


def test_example_deals_are_what_they_claim() -> None:
    for name, players in zip(DEALS, (3, 4, 5), strict=True):
        record = load((EXAMPLES / name).read_text(encoding="utf-8"))
        assert isinstance(record, DealRecord) and record.players == players
    five = json.loads((EXAMPLES / "deal-5p.json").read_text())
    assert any("call" in action for action in five["actions"])


def test_replay_game_record() -> None:
    proc = tarot("replay", "--json", EXAMPLES / "game-4p.json")
    assert proc.returncode == 0, proc.stderr
    [game] = json_lines(proc.stdout)
    assert list(game) == ["legal", "deals", "totals"]
    records = load((EXAMPLES / "game-4p.json").read_text(encoding="utf-8"))
    assert isinstance(records, list) and len(records) >= 3
    assert game["deals"] == [replay_result(r) for r in records]
    assert game["totals"] == [sum(d["scores"][seat] for d in game["deals"]) for seat in range(4)]
    assert sum(game["totals"]) == 0


def test_replay_illegal_deal_names_the_action() -> None:
    path = EXAMPLES / "illegal-deal.json"
    proc = tarot("replay", "--json", path)
    assert proc.returncode == 1
    assert json_lines(proc.stdout) == [
        {"legal": False, "error": {"action": 6, "reason": "R15: must follow suit (spades)"}}]
    assert proc.stderr == f"error: {path}: action 6: R15: must follow suit (spades)\n"
    table = tarot("replay", path)
    assert table.returncode == 1 and table.stdout == ""
    assert table.stderr == proc.stderr


def test_replay_one_line_per_file_in_order_and_exit_1_if_any_is_bad(tmp_path: Path) -> None:
    files = [EXAMPLES / "deal-3p.json", tmp_path / "missing.json", EXAMPLES / "illegal-deal.json",
             EXAMPLES / "game-4p.json"]
    result = invoke("replay", "--json", *files)
    assert result.exit_code == 1
    lines = json_lines(result.stdout)
    assert [line["legal"] for line in lines] == [True, False, False, True]
    assert lines[1] == {"legal": False, "error": {"action": None, "reason": "no such file"}}
    assert result.stderr.splitlines() == [
        f"error: {files[1]}: no such file",
        f"error: {files[2]}: action 6: R15: must follow suit (spades)",
    ]


def test_replay_tables_in_english_and_french() -> None:
    path = EXAMPLES / "deal-4p.json"
    english = invoke("replay", "--lang", "en", path)
    assert english.exit_code == 0
    for words in ("Taker", "Seat 2", "Garde", "Oudlers", "Target", "lost by 6", "Poignée", "simple -20",
                  "Seat 2 (taker)", "-246", "Seat 0 (defender)", "+82"):
        assert words in english.stdout, words
    french = invoke("replay", "--lang", "fr", path)
    for words in ("Preneur", "Joueur 2", "Bouts", "À faire", "chuté de 6", "Joueur 2 (preneur)",
                  "Joueur 0 (défenseur)", "\u2212246", "simple \u221220"):
        assert words in french.stdout, words
    assert "-246" not in french.stdout and "-20" not in french.stdout  # French: a true minus (U+2212)
    five = invoke("replay", "--lang", "en", EXAMPLES / "deal-5p.json")
    assert "Seat 3 (partner)" in five.stdout and "54.5" in five.stdout
    sheet = invoke("replay", "--lang", "fr", EXAMPLES / "game-4p.json")
    assert "Total" in sheet.stdout and "Garde contre par le joueur 0" in sheet.stdout


def test_json_is_the_same_in_every_language() -> None:
    """``--json`` keeps plain numbers (a hyphen minus, a decimal point) and card codes in French."""
    for command, files in (("replay", [EXAMPLES / "deal-4p.json", EXAMPLES / "game-4p.json"]),
                           ("score", [EXAMPLES / "summaries.json", EXAMPLES / "summary-3p.json"])):
        english = invoke(command, "--json", "--lang", "en", *files)
        french = invoke(command, "--json", "--lang", "fr", *files)
        assert english.exit_code == french.exit_code == 0
        assert french.stdout == english.stdout
        assert "\u2212" not in french.stdout and "-" in french.stdout


def test_language_from_the_locale() -> None:
    assert "Preneur" in invoke("replay", EXAMPLES / "deal-3p.json", lang_env="fr_FR.UTF-8").stdout
    assert "Taker" in invoke("replay", EXAMPLES / "deal-3p.json", lang_env="en_GB.UTF-8").stdout
    assert default_lang({"LANG": "fr_CA.UTF-8"}) is Lang.FR
    assert default_lang({"LC_ALL": "C", "LANG": "fr_FR.UTF-8"}) is Lang.EN
    assert default_lang({"LC_MESSAGES": "fr_BE", "LANG": "en_US"}) is Lang.FR
    assert default_lang({}) is Lang.EN


def test_both_languages_have_every_message() -> None:
    assert set(MESSAGES[Lang.FR]) == set(MESSAGES[Lang.EN])


def _annulled_records() -> tuple[DealRecord, DealRecord]:
    deal = Deal.new(4, 0, seed=7)
    while not deal.is_over:
        deal.apply(Bid(deal.turn, None))  # type: ignore[arg-type]
    all_pass = DealRecord.from_deal(deal)
    # Seat 0 holds the Petit as its only trump and no Excuse (R6).
    suits = [CARDS[i] for i in range(56)]
    others = [CARDS[i] for i in range(57, 78)]
    rest = suits[17:] + others
    hands = [[CARDS[56], *suits[:17]], rest[:18], rest[18:36], rest[36:54]]
    petit_sec = DealRecord(4, 0, hands, rest[54:])
    return all_pass, petit_sec


def test_annulled_deals(tmp_path: Path) -> None:
    all_pass, petit_sec = _annulled_records()
    files = [write(tmp_path / "pass.json", all_pass.to_dict()),
             write(tmp_path / "sec.json", petit_sec.to_dict())]
    result = invoke("replay", "--json", *files)
    assert result.exit_code == 0
    # docs/records.md: an annulled deal's scores are all 0, one per seat; the other keys null
    assert json_lines(result.stdout) == [
        {"legal": True, "annulled": "all_pass", "taker": None, "partner": None, "contract": None,
         "oudlers": None, "points": None, "made": None, "scores": [0, 0, 0, 0]},
        {"legal": True, "annulled": "petit_sec", "taker": None, "partner": None, "contract": None,
         "oudlers": None, "points": None, "made": None, "scores": [0] * petit_sec.players},
    ]
    assert "tout le monde a passé" in invoke("replay", "--lang", "fr", files[0]).stdout
    assert "petit sec (seat 0)" in invoke("replay", "--lang", "en", files[1]).stdout
    game = [json.loads((EXAMPLES / "deal-4p.json").read_text()), all_pass.to_dict()]
    game_result = invoke("replay", "--json", write(tmp_path / "game.json", game))
    [line] = json_lines(game_result.stdout)
    assert line["totals"] == line["deals"][0]["scores"]  # an annulled deal scores zero (R25)
    sheet = invoke("replay", "--lang", "en", tmp_path / "game.json")
    assert "Deal annulled: everybody passed" in sheet.stdout


def test_replay_from_stdin() -> None:
    proc = tarot("replay", "--json", "-", stdin=(EXAMPLES / "deal-5p.json").read_text())
    assert proc.returncode == 0
    record = load((EXAMPLES / "deal-5p.json").read_text())
    assert isinstance(record, DealRecord)
    assert proc.stdout == json.dumps(replay_result(record)) + "\n"


# --- every bad input: exit 1, one line naming the file, no traceback ----------------------------


def _deal4() -> dict[str, Any]:
    obj: dict[str, Any] = json.loads((EXAMPLES / "deal-4p.json").read_text())
    return obj


def _bad_files(tmp: Path) -> list[tuple[Path, str, int | None]]:
    """(file, reason fragment, action index) for every kind of bad record."""
    bad_card_hand = _deal4()
    bad_card_hand["hands"][0][0] = "ZZ"
    bad_card_play = _deal4()
    bad_card_play["actions"][-1]["play"] = "11H"
    short = _deal4()
    del short["actions"][20:]
    wrong_seat = _deal4()
    wrong_seat["actions"][0]["seat"] = 3
    game = [_deal4(), json.loads((EXAMPLES / "illegal-deal.json").read_text())]
    (tmp / "latin1.json").write_bytes(b'{"format": "tarot-deal/1", "x": "\xe9"}')
    (tmp / "truncated.json").write_text('{"format": "tarot-deal/1", "players": ')
    (tmp / "directory.json").mkdir()
    return [
        (tmp / "missing.json", "no such file", None),
        (tmp / "directory.json", "is a directory", None),
        (tmp / "latin1.json", "not UTF-8", None),
        (tmp / "truncated.json", "not valid JSON", None),
        (write(tmp / "nan.json", float("nan")), "not valid JSON", None),
        (write(tmp / "card-hand.json", bad_card_hand), "hands[0]: R1: unknown card 'ZZ'", None),
        (write(tmp / "card-play.json", bad_card_play), "R1: unknown card '11H'",
         len(bad_card_play["actions"]) - 1),
        (write(tmp / "short.json", short), "the record ends before the deal is over", 20),
        (write(tmp / "seat.json", wrong_seat), "R7: it is seat 0's turn to bid, not seat 3's", 0),
        (write(tmp / "format.json", {**_deal4(), "format": "tarot-deal/2"}), '"format" must be', None),
        (write(tmp / "game.json", game), "deal 1: action 6: R15: must follow suit", 6),
        (write(tmp / "summary.json", WORKED[0][0]), "use `tarot score`", None),
        (EXAMPLES / "illegal-deal.json", "R15: must follow suit (spades)", 6),
    ]


def test_every_bad_record_through_the_entry_point(tmp_path: Path) -> None:
    """Every bad file is refused in one line, in process; the first and the last through the real
    entry point in a fresh process too, which must say exactly the same (each process costs half
    a second here: forty of them made this the slowest test of the command line)."""
    cases = _bad_files(tmp_path)
    for as_json in (True, False):
        args = ["--json"] if as_json else []
        for i, (path, reason, action) in enumerate(cases):
            result = invoke("replay", *args, path)
            assert result.exit_code == 1, (path, result.stdout)
            if i in (0, len(cases) - 1):
                proc = tarot("replay", *args, path)
                assert (proc.returncode, proc.stdout, proc.stderr) == (1, result.stdout, result.stderr)
                assert "Traceback" not in proc.stdout + proc.stderr
            [line] = result.stderr.splitlines()
            assert line.startswith(f"error: {path}: ") and reason in line, line
            if action is not None:
                assert f"action {action}: " in line
            if as_json:
                [outcome] = json_lines(result.stdout)
                assert outcome["legal"] is False and outcome["error"]["action"] == action
            else:
                assert result.stdout == ""


def test_every_bad_input_to_score(tmp_path: Path) -> None:
    for path, _, _ in _bad_files(tmp_path)[:5]:
        proc = tarot("score", "--json", path)
        assert proc.returncode == 1
        assert "Traceback" not in proc.stdout + proc.stderr
        assert len(proc.stderr.splitlines()) == 1 and str(path) in proc.stderr


def test_file_names_are_not_markup(tmp_path: Path) -> None:
    path = tmp_path / "odd[red][bold].json"
    path.write_text((EXAMPLES / "deal-3p.json").read_text())
    result = invoke("replay", path)
    assert result.exit_code == 0 and "odd[red][bold].json" in result.stdout


def test_an_internal_error_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(obj: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr("tarot.cli.commands.replay_json", boom)
    monkeypatch.delenv("TAROT_DEBUG", raising=False)
    result = invoke("replay", "--json", EXAMPLES / "deal-3p.json", EXAMPLES / "deal-4p.json")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"error: {EXAMPLES / name}: internal error: RuntimeError: boom" for name in DEALS[:2]]


def test_usage_errors_and_help() -> None:
    proc = tarot("--help")
    assert proc.returncode == 0 and "replay" in proc.stdout and "score" in proc.stdout
    summary = " ".join(proc.stdout.split("Options")[0].split())  # the description names every command
    assert all(f"({name})" in summary for name in ("play", "serve", "arena", "replay", "score"))
    assert invoke("replay", "--lang", "de", EXAMPLES / "deal-3p.json").exit_code == 2
    assert invoke("replay").exit_code == 2
    for command in ("replay", "score"):
        assert invoke(command, "--help").exit_code == 0


# --- the examples are reproducible -------------------------------------------------------------


def test_make_examples_regenerates_the_same_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = importlib.util.spec_from_file_location("make_examples", EXAMPLES / "make_examples.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "HERE", tmp_path)
    module.main()
    made = sorted(p.name for p in tmp_path.iterdir())
    assert made == sorted(["deal-3p.json", "deal-4p.json", "deal-5p.json", "game-4p.json",
                           "illegal-deal.json", "summaries.json", "summary-3p.json", "bad-summary.json"])
    for name in made:
        assert (tmp_path / name).read_text() == (EXAMPLES / name).read_text(), name
