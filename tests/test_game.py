"""Games (R4, R25): dealer rotation, redeals, the running score sheet, game records."""

from __future__ import annotations

import random

import pytest

from playing import random_action
from tarot.engine import (
    Bid,
    Contract,
    Deal,
    Ecart,
    Game,
    Phase,
    PoigneeSize,
    ScoreSheet,
    SheetRow,
    Side,
    replay_result,
    score_deal,
)


def finish_deal(game: Game, rng: random.Random) -> None:
    deal = game.deal
    while game.deal is deal and not game.is_over:
        game.apply(random_action(deal, rng))  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_game_plays_its_deals_and_keeps_the_sheet(players: int) -> None:
    game = Game(players, deals=4, first_dealer=1, seed=players)
    rng = random.Random(players)
    while not game.is_over:
        finish_deal(game, rng)
    counted = [r for r in game.rows if r.number is not None]
    assert [r.number for r in counted] == [1, 2, 3, 4]
    assert [r.dealer for r in game.rows] == [(1 + i) % players for i in range(len(game.rows))]  # R4
    totals = [0] * players
    for row in game.rows:
        totals = [t + s for t, s in zip(totals, row.scores, strict=True)]
        assert list(row.totals) == totals
    assert game.totals == totals and sum(totals) == 0
    sheet = game.sheet()
    assert {"deal", "dealer", "taker", "contract", "partner", "oudlers", "points", "made", "margin",
            "petit_au_bout", "poignees", "chelem", "scores", "totals", "target", "base", "multiplier",
            "petit_au_bout_prime", "poignee_prime", "chelem_prime", "per_defender"} <= set(sheet[0])
    for row in sheet:  # R22–R24: what the browser shows adds up to each seat's score
        if row["annulled"] is None:
            s = row["per_defender"]
            assert row["base"] + row["petit_au_bout_prime"] + row["poignee_prime"] + row["chelem_prime"] == s
            assert row["multiplier"] == Contract.parse(row["contract"]).multiplier
            assert row["base"] == (25 + row["margin"]) * (1 if row["made"] else -1) * row["multiplier"]
            share = players - 1 if row["partner"] is None else 2
            assert row["scores"][row["taker"]] == share * s
            assert row["made"] == (row["points"] >= row["target"])
    assert game.ranking()[0].total == max(totals)
    # The game record replays to the same scores, deal by deal.
    for record, row in zip(game.records, game.rows, strict=True):
        result = replay_result(record)
        assert result["legal"] and (result["scores"] or [0] * players) == list(row.scores)
        assert record.extra["deal"] >= 1 and "seed" in record.extra
    with pytest.raises(ValueError, match="over"):
        game.apply(Bid(0, None))


def test_an_all_pass_deal_is_redealt_by_the_next_dealer_and_not_counted() -> None:
    game = Game(4, deals=1, first_dealer=2, seed=7)
    rng = random.Random(1)
    while game.rows:  # skip any petit sec redeal so that the test starts on a live deal
        game = Game(4, deals=1, first_dealer=2, seed=rng.random())
    first = game.deal
    assert first is not None and first.dealer == 2 and first.turn == 3
    for seat in (3, 0, 1, 2):
        game.apply(Bid(seat, None))
    assert game.rows[0].annulled is not None and game.rows[0].annulled.value == "all_pass"
    assert game.rows[0].number is None and game.rows[0].scores == (0, 0, 0, 0)
    assert game.played == 0 and not game.is_over
    assert game.deal is not None and game.deal.dealer == 3 and game.deal is not first
    assert game.deal.dealt != first.dealt
    assert game.deal.phase is Phase.BIDDING or game.rows[-1].annulled is not None


def test_same_seed_same_game() -> None:
    a, b = Game(5, 2, seed="club night"), Game(5, 2, seed="club night")
    assert a.deal is not None and b.deal is not None and a.deal.dealt == b.deal.dealt


def test_bad_game_parameters() -> None:
    with pytest.raises(ValueError, match="R5"):
        Game(6)
    with pytest.raises(ValueError, match="R25"):
        Game(4, deals=0)


def test_game_views_and_legal_actions_follow_the_current_deal() -> None:
    game = Game(4, deals=1, seed=3)
    assert game.deal is not None
    seat = game.deal.turn
    assert seat is not None
    assert game.legal_actions() == game.deal.legal_actions()
    assert game.view(seat).legal
    game.apply(Bid(seat, Contract.GARDE))
    assert game.deal.high_bid is Contract.GARDE


def test_a_sheet_row_gives_each_figure_of_the_deal() -> None:
    """Worked example 3 of docs/rules.md (4 players): prise lost by 7, the taker showed a simple poignée
    and took the Petit au bout: −(25+7) − 20 + 10 = −42. Each figure the browser's result shows
    comes from its own key (their sum alone would not tell two primes apart)."""
    score = score_deal(players=4, taker=1, contract=Contract.PRISE, oudlers=2, points=34,
                       petit_au_bout=Side.ATTACK, poignees=[PoigneeSize.SIMPLE])
    row = SheetRow(number=1, dealer=0, annulled=None, score=score, totals=(42, -126, 42, 42)).to_dict()
    assert (row["target"], row["made"], row["margin"], row["multiplier"]) == (41, False, 7, 1)
    primes = row["base"], row["poignee_prime"], row["petit_au_bout_prime"], row["chelem_prime"]
    assert primes == (-32, -20, 10, 0)
    assert (row["per_defender"], row["scores"]) == (-42, [42, -126, 42, 42])
    assert (row["petit_au_bout"], row["poignees"], row["chelem"]) == ("attack", ["simple"], None)


def test_the_ranking_shares_places_on_equal_totals() -> None:
    """Standard competition ranking: equal totals share the first place of them (1, 1, 1, 4),
    listed by seat; what the server sends and what ``tarot play`` prints."""
    sheet = ScoreSheet(4)
    for totals, ranks in [([0, 0, 0, 0], [1, 1, 1, 1]), ([10, 10, 10, -30], [1, 1, 1, 4]),
                          ([-30, 10, 10, 10], [1, 1, 1, 4]), ([90, -30, -30, -30], [1, 2, 2, 2]),
                          ([40, 20, -20, -40], [1, 2, 3, 4]), ([20, 20, -20, -20], [1, 1, 3, 3])]:
        sheet.totals = totals
        placings = sheet.ranking()
        assert [p.rank for p in placings] == ranks
        assert [p.total for p in placings] == sorted(totals, reverse=True)
    sheet.totals = [10, 10, 10, -30]
    assert [p.seat for p in sheet.ranking()] == [0, 1, 2, 3]
    assert sheet.ranking()[3].to_dict() == {"seat": 3, "total": -30, "rank": 4}


def test_the_sheet_takes_a_row_back() -> None:
    """``undo_last``: a deal end the store refused leaves the sheet as it was (the server)."""
    game = Game(4, 2, seed=3)
    sheet = ScoreSheet(4, first_dealer=game.rows[0].dealer if game.rows else 0)
    deal = Deal.new(4, sheet.next_dealer, seed=11)
    rng = random.Random(2)
    while not deal.is_over:
        deal.apply(rng.choice(deal.legal_actions()) if deal.legal_actions() else Ecart(
            deal.taker, deal.ecart_options().choose()))  # type: ignore[arg-type, union-attr]
    before = (list(sheet.totals), sheet.next_dealer, sheet.to_dicts()[:])
    row = sheet.add(deal.result(), deal.dealer)
    assert sheet.rows == [row] and sheet.next_dealer == (deal.dealer + 1) % 4
    assert sheet.undo_last() == row
    assert (list(sheet.totals), sheet.next_dealer, sheet.to_dicts()) == before
