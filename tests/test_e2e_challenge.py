"""The daily challenge in the browser (docs/duplicate.md, "The daily challenge"): from the lobby to
its page, a deal played at a table of one's own, back to the page where the deal shows done with
its score and mark; on a desktop in English and on a phone in French. Skipped without playwright
or Debian's chromium (tests/test_e2e_browser.py). Screenshots go to docs/screenshots/."""

from __future__ import annotations

import re
from typing import Any

import pytest

from test_e2e_browser import SHOTS, enter, new_page, play_until

TEXTS = {  # what the page says, by language
    "en": {"title": "Daily challenge", "heading": "Daily challenge — deal {k} of 8", "play": "Play",
           "resume": "Resume", "done": "Played", "sides": (" · attacking", " · defending"),
           "passed": "Everybody passed"},
    "fr": {"title": "Défi du jour", "heading": "Défi du jour — donne {k} sur 8", "play": "Jouer",
           "resume": "Reprendre", "done": "Jouée", "sides": (" · en attaque", " · en défense"),
           "passed": "Tous ont passé"},
}


def deal(page: Any, k: int) -> Any:
    return page.locator(f"#challenge-page .ch-deal[data-deal='{k}']")


def no_wider(page: Any, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize(("width", "lang"), [(1100, "en"), (390, "fr")])
def test_a_guest_plays_a_deal_of_the_daily_challenge(server: str, browser: Any, width: int,
                                                     lang: str) -> None:
    """The lobby's panel leads to the page: 8 deals to play, the rankings; deal 1 is played at a
    table headed "deal 1 of 8" with none of the host's controls; once over it offers the next
    deal; going back from deal 2 leaves nobody's seat (it shows "Resume", and resuming finds the
    hand); the page then shows deal 1 done, with its score and mark, and no "Play" for it."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    say = TEXTS[lang]
    page = new_page(browser, width, lang=lang)
    # errors in the console; a resource that fails is told by its answer (the browser's own
    # request for /favicon.ico, which the site has none of, only says so in the console)
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text)
            if m.type == "error" and not m.text.startswith("Failed to load resource") else None)
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    enter(page, server, "Gaston" if lang == "en" else "Gaëlle")
    assert say["title"] in page.locator("#challenge-offer h2").inner_text()
    page.click("#challenge-open")
    page.wait_for_selector("#challenge-page .ch-deal")
    assert page.locator(".ch-deal").count() == 8
    assert deal(page, 1).locator("button.ch-play").inner_text() == say["play"]
    assert page.locator("#ch-percentage").inner_text() == "–"  # nothing played yet
    page.wait_for_selector("#ch-month-ranking .ch-nobody")  # the month's ranking, fetched
    no_wider(page, width)
    page.screenshot(path=str(SHOTS / f"challenge-before-{width}-{lang}.png"), full_page=True)

    deal(page, 1).locator("button.ch-play").click()
    page.wait_for_selector("#hand .card")
    page.wait_for_function("(t) => document.querySelector('#challenge-title').textContent === t",
                           arg=say["heading"].format(k=1))
    # fixed seats, options and game: none of the controls the server would refuse, and no "leave"
    for gone in ("#leave", "#propose-cancel", "button.add-bot", "#options", "#invite-link", "#new-game",
                 "#rematch", ".invite-friend", "#chat-table"):
        assert page.locator(gone).count() == 0, gone
    assert page.locator("#challenge-back").count() == 1
    no_wider(page, width)
    page.screenshot(path=str(SHOTS / f"challenge-table-{width}-{lang}.png"))
    play_until(page, "#challenge-over", limit=240)
    page.wait_for_selector("#challenge-over .ch-mark")  # the day's results came back with the mark
    page.screenshot(path=str(SHOTS / f"challenge-over-{width}-{lang}.png"), full_page=True)

    page.click("#challenge-next")  # deal 2, at a table of its own
    page.wait_for_function("(t) => document.querySelector('#challenge-title')?.textContent === t",
                           arg=say["heading"].format(k=2))
    page.wait_for_selector("#hand .card")
    page.click("#challenge-back")  # back, not "leave": the seat stays the player's
    page.wait_for_selector("#challenge-page .ch-deal[data-deal='2'] button.ch-play")
    assert deal(page, 2).locator("button.ch-play").inner_text() == say["resume"]
    deal(page, 2).locator("button.ch-play").click()
    page.wait_for_selector("#hand .card")  # seated still: the hand, not a spectator's felt
    page.click("#challenge-back")

    page.wait_for_selector("#challenge-page .ch-deal[data-deal='1'].done")
    one = deal(page, 1)
    assert one.locator(".ch-status").inner_text() == say["done"]
    assert one.locator("button.ch-play").count() == 0  # played: never dealt again
    # a score as the page writes it: a sign, then digits in groups of three (−1,422; −1 422 in French)
    score = one.locator(".ch-score").inner_text()
    assert re.fullmatch(r"[+−]?\d{1,3}([,\u202f]\d{3})*|0", score), score
    assert "%" in one.locator(".ch-mark").inner_text()
    contract = one.locator(".ch-contract").inner_text()  # "Garde · en défense", not "Garde · défense"
    assert contract == say["passed"] or contract.endswith(say["sides"]), contract
    assert page.locator("#ch-percentage").inner_text() != "–"
    assert page.locator("#ch-played").inner_text() == "1/8"
    no_wider(page, width)
    page.screenshot(path=str(SHOTS / f"challenge-after-{width}-{lang}.png"), full_page=True)
    assert not page.errors, page.errors
    assert not console and not failed, (console, failed)
    page.close()
