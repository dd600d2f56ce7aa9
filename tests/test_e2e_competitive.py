"""Competitive tables in the browser (issue 17), in Debian's chromium against a real server: a
person creates an account, plays a competitive 4-player game against bots to its end, sees what
it brought on the ranking panel and on the profile (rating, chips, XP); two people in two
browsers vote to cancel a game (one refusal, then an agreement)."""

from __future__ import annotations

import re
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")

from test_e2e_accounts import create_account, digits, shown  # noqa: E402
from test_e2e_browser import SHOTS, new_page, play_until, sit_with_bots  # noqa: E402

PASSWORD = "correct horse"


def new_account(browser: Any, base: str, name: str, width: int = 1280, height: int = 900) -> Any:
    page = new_page(browser, width, height)  # (a cookie jar of its own)
    page.goto(base + "/")
    page.wait_for_function("() => window.tarotReady === true")
    page.click("#offer-create")
    create_account(page, name, PASSWORD)
    shown(page, "#me-link", name)
    page.wait_for_selector("#options")
    return page


def create_competitive(page: Any, players: int, deals: int, stake: int) -> None:
    page.select_option("#options select[name=players]", str(players))
    page.fill("#options input[name=deals]", str(deals))
    page.check("#competitive-create_table")
    page.fill("#options input[name=stake]", str(stake))
    page.click("#submit-options")
    page.wait_for_selector("#felt")


def profile(page: Any, name: str) -> dict[str, Any]:
    return dict(page.evaluate(f"async () => (await fetch('/api/players/{name}')).json()"))


def test_a_competitive_game_to_its_end_moves_rating_chips_and_xp(server: str, browser: Any) -> None:
    page = new_account(browser, server, "Dominique")
    # a guest could not choose competitive; an account can, with a stake
    assert page.locator("#competitive-create_table").is_enabled()
    create_competitive(page, 4, deals=1, stake=100)
    assert "competitive" in page.locator("#info .badge.competitive").inner_text()
    sit_with_bots(page, 4)
    assert profile(page, "Dominique")["chips"] == 900  # the stake, taken as the game starts
    play_until(page, "#ranking li", limit=240)
    page.wait_for_selector("#ranking li")
    mine = page.locator("#ranking li", has_text="Dominique").inner_text()
    assert "rating 0.0 →" in mine and "XP" in mine
    assert "-" not in mine  # a true minus (−) in every figure, the rating's too (issue 33)
    page.locator("#ranking").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "competitive-end.png"))
    after = profile(page, "Dominique")
    assert after["games"] == 1 and after["ratings"]["4"]["games"] == 1
    assert after["xp"] in (5, 40)  # a loser's 5, or the winner's 10 × 4 players
    # a game of one deal: the taker who made it takes every stake (here its own: bots stake
    # nothing), a defence that won gets its stakes back; else the stake is lost
    assert after["chips"] in (900, 1000)
    # the profile page says the same
    page.click("#me-link")
    shown(page, "#profile-name", "Dominique")
    assert digits(page.locator("#profile-chips").inner_text()) == after["chips"]
    assert page.locator("#profile-ratings .ordinal").all_inner_texts()[1] != "unrated"  # (3, 4, 5 players)
    # and its history: the game with the rating before and after it, figures with a true minus
    page.wait_for_selector("#history-list li")
    line = page.locator("#history-list li").first.inner_text()
    assert "0.0 →" in line and not re.search(r"-\d", line), line
    page.locator("#history-list").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "competitive-history.png"))


def test_two_browsers_vote_to_cancel_a_game(server: str, browser: Any) -> None:
    alice = new_account(browser, server, "Alix")
    bob = new_account(browser, server, "Bastien", 390, 844)  # on a phone
    create_competitive(alice, 3, deals=3, stake=50)
    table = alice.evaluate("() => location.hash")
    bob.goto(server + "/" + table)
    bob.wait_for_selector(".seat[data-seat='1'] button[data-action='sit']")
    bob.click(".seat[data-seat='1'] button[data-action='sit']")
    # the two share an address (this machine): the table says the game will count for nothing
    shown(alice, "#nocount", "count for nothing")
    alice.wait_for_selector(".seat[data-seat='2'] button.add-bot")
    alice.locator(".seat[data-seat='2'] button.add-bot").click()
    alice.wait_for_selector("#propose-cancel")
    for page in (alice, bob):
        page.on("dialog", lambda dialog: dialog.accept())
    alice.click("#propose-cancel")
    shown(bob, "#cancel-vote", "Alix proposes to cancel the game")
    bob.screenshot(path=str(SHOTS / "cancel-vote-phone.png"))
    bob.click("#cancel-refuse")  # one refusal: the game goes on
    alice.wait_for_selector("#cancel-vote", state="detached")
    assert alice.locator("#propose-cancel").count()
    bob.click("#propose-cancel")
    shown(alice, "#cancel-vote", "Bastien proposes to cancel the game")
    alice.click("#cancel-accept")
    for page in (alice, bob):
        shown(page, "#cancelled", "cancelled by agreement")
    assert alice.locator("#deal-of").inner_text() == "Game cancelled"  # not "Deal 0/3" (issue 33)
    assert profile(alice, "Alix")["chips"] == 1000 and profile(bob, "Bastien")["chips"] == 1000
