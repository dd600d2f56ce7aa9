"""One tap to play, in the browser (issue 33): a first-time visitor on a phone, in French, taps
"Jouer maintenant" above the fold, plays under a guest name of the page's language at a table of
four with club robots, and plays the whole deal; the site opened again at its root offers the game
in progress first ("Reprendre"), which leads back to the seat; back in the lobby the panel keeps the size and
level last chosen, and a second tap with 3 players and beginner robots seats the player at such a
table. Skipped without playwright or Debian's chromium (tests/test_e2e_browser.py). Screenshots:
docs/screenshots/play-now-*.png."""

from __future__ import annotations

from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")

from test_e2e_browser import SHOTS, new_page, play_until  # noqa: E402


def inside(page: Any, selector: str, width: int, height: int) -> None:
    """``selector`` lies wholly inside the screen, the page scrolled to its top."""
    # measured in one look: the lobby is drawn again as its messages come (friends, my tables)
    box = page.evaluate("""(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
        return {x: r.x, y: r.y, width: r.width, height: r.height, scrolled: window.scrollY}; }""", selector)
    assert box["scrolled"] == 0 and box["x"] >= 0 and box["y"] >= 0, box
    assert box["x"] + box["width"] <= width and box["y"] + box["height"] <= height, box
    assert box["height"] >= 44, box  # a thumb's target


def test_a_first_visitor_plays_a_deal_in_one_tap_then_another_table(server: str, browser: Any) -> None:
    page = new_page(browser, 390, 844, lang="fr")
    page.goto(server + "/")
    page.wait_for_function("() => window.tarotReady === true")
    button = "[data-action='play-now-guest']"
    inside(page, button, 390, 844)  # the first thing to do, above the fold
    assert page.locator(button).inner_text() == "Jouer maintenant"
    assert page.locator("#me").inner_text() == "Invité"  # not the server's placeholder, "Guest"
    assert page.locator("#pn-players").input_value() == "4"  # the defaults: 4 players, club robots
    assert page.locator("#pn-bot").input_value() == "heuristic"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "play-now-first-390-fr.png"))
    page.click(button)
    page.wait_for_selector("#hand .card")
    page.wait_for_selector("button.bid")  # the player's turn to bid: the tab says so (issue 33)
    assert page.title() == "● À vous — Tarot"
    me = page.locator(".seat[data-seat='0'] .name").inner_text()
    assert "Joueur " in me, me  # a guest's name in the page's language
    assert page.locator(".seat").count() == 4
    for seat in (1, 2, 3):
        assert "Robot" in page.locator(f".seat[data-seat='{seat}'] .name").inner_text()
    seen = play_until(page, "#next-deal")  # the whole deal, to its result
    assert "play" in seen
    assert not page.errors, page.errors
    table = page.evaluate("location.hash")

    # the site opened again at its root: the game in progress is offered first, and resumed
    page.goto(server + "/")
    resume = "#my-tables [data-action='resume']"
    page.wait_for_selector(resume)
    assert page.locator("#my-tables h2").inner_text() == "Vos parties en cours"
    assert page.locator(resume).inner_text() == "Reprendre"
    inside(page, resume, 390, 844)
    page.screenshot(path=str(SHOTS / "play-now-resume-390-fr.png"))
    page.click(resume)
    page.wait_for_selector("#hand .card")
    assert page.evaluate("location.hash") == table
    assert "Joueur " in page.locator(".seat[data-seat='0'] .name").inner_text()  # the same seat

    # back to the lobby (the game goes on with a robot in the seat): the panel, the last choice
    page.once("dialog", lambda d: d.accept())
    page.click("#leave")
    page.wait_for_selector("[data-action='play-now']")
    page.select_option("#pn-players", "3")
    page.select_option("#pn-bot", "random")
    page.screenshot(path=str(SHOTS / "play-now-lobby-390-fr.png"), full_page=True)
    page.reload()  # the choice is the browser's: kept
    page.wait_for_selector("[data-action='play-now']")
    assert page.locator("#pn-players").input_value() == "3"
    assert page.locator("#pn-bot").input_value() == "random"
    assert page.title() == "Tarot"  # (in the lobby: the plain title)
    page.click("[data-action='play-now']")
    page.wait_for_selector("#hand .card")
    assert page.locator(".seat").count() == 3
    assert not page.errors, page.errors
    page.close()


def test_the_lobby_offers_play_now_first_on_a_desktop(server: str, browser: Any) -> None:
    page = new_page(browser, 1440, 900, lang="en")
    page.goto(server + "/")
    page.wait_for_function("() => window.tarotReady === true")
    page.fill("#name", "Désirée")
    page.click("#enter")
    page.wait_for_selector("[data-action='play-now']")
    inside(page, "[data-action='play-now']", 1440, 900)
    first = page.evaluate("document.querySelector('#app section').id")
    assert first == "play-now"  # before the challenge, the events and the create form
    assert page.locator("[data-action='play-now']").inner_text() == "Play now"
    page.screenshot(path=str(SHOTS / "play-now-lobby-1440-en.png"))
    page.close()
