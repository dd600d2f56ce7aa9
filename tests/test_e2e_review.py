"""The expert's review in the browser (issue 35, players/review.js), end to end in Debian's
chromium against a real server: an account plays a one-deal game with robots, opens its replay,
asks for the review, sees the progress then the seats' losses, the graph and the costliest moves;
a move's link takes the replay to that moment, where the move played stands beside the best.
Then the same review, shared, in French on a phone, and axe's scan of both. Screenshots go to
docs/screenshots/review-*.png."""

from __future__ import annotations

import re
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")

from test_e2e_a11y import violations  # noqa: E402
from test_e2e_accounts import create_account, shown  # noqa: E402
from test_e2e_browser import SHOTS, create, new_page, play_until, sit_with_bots  # noqa: E402 (skips without chromium)
from test_e2e_replay import at_step, shot  # noqa: E402

# a small budget: the review of a deal in a second or two (the site's default takes some 5 s)
SERVER_SETTINGS = {"review_workers": 0, "review_playouts": 3000}


def test_a_deal_reviewed_from_its_replay(server: str, browser: Any) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = new_page(browser, 1440, 900)
    page.goto(server + "/")
    page.wait_for_function("() => window.tarotReady === true")
    page.click("#offer-create")
    create_account(page, "Relecture", "correct horse")
    shown(page, "#me-link", "Relecture")
    page.wait_for_selector("#options")
    create(page, 4, deals=1)
    sit_with_bots(page, 4)
    play_until(page, "#ranking li", limit=240)
    page.click("#me-link")
    page.wait_for_selector("#history-list a.game-link")
    page.locator("#history-list a.game-link").first.click()
    page.wait_for_selector("#rp-step")
    gid = int(re.search(r"#/g/(\d+)", page.url).group(1))  # type: ignore[union-attr]

    # not reviewed yet: the button; asked for, the progress, then the review
    page.wait_for_selector("#review-ask")
    page.click("#review-ask")
    page.wait_for_selector("#rv-graph", timeout=60_000)
    rows = page.locator(".rv-seats tbody tr")
    assert rows.count() == 4
    assert page.locator(".rv-seats tr.current").count() == 1
    assert page.locator("#rv-graph circle").count() >= 5
    review = page.evaluate(f"async () => (await (await fetch('/api/games/{gid}/deals/1/review')).json())")
    assert review["status"] == "done" and review["done"] == review["total"]
    shot(page, "review-desktop.png")

    # another seat's review: its row, its moves
    other = rows.nth(1).locator("button")
    seat = int(other.get_attribute("data-seat") or 0)
    other.click()
    page.wait_for_selector(f".rv-seats button[data-seat='{seat}'][aria-pressed=true]")
    mine = [d for d in review["review"]["decisions"] if d["seat"] == seat]
    costly = [d for d in mine if d["grade"] in ("inaccuracy", "mistake", "blunder")]
    assert page.locator("#rv-worst li").count() == min(5, len(costly))
    # a move of the review: its link opens the replay there, the move played beside the best
    target = max(costly, key=lambda d: d["loss"]) if costly else mine[0]
    if costly:
        page.locator("#rv-worst a").first.click()
    else:
        page.goto(f"{server}/#/g/{gid}/1/{target['index']}")
    at_step(page, target["index"])
    here = page.locator("#rv-here")
    here.wait_for()
    assert "played" in here.inner_text()
    if target["grade"] != "best":
        assert "best" in here.inner_text()
    found = violations(page, "review")

    # play from here: a table of one's own at that moment, one's hand as it was then
    page.set_viewport_size({"width": 1440, "height": 900})
    page.click("#rp-from-here")
    page.wait_for_url(re.compile(r".*#/t/\w+"))
    page.wait_for_selector("#hand .card")
    page.wait_for_selector(f".rehearsal-title[href='#/g/{gid}/1/{target['index']}']")
    assert page.locator("#propose-cancel").count() == 0 and page.locator("#invite-link").count() == 0
    shot(page, "review-play-from-here.png")

    # the same review, kept and shared: a phone in French, without asking again
    phone = new_page(browser, 390, 844, lang="fr")
    phone.goto(f"{server}/#/g/{gid}/1/0")
    phone.wait_for_selector("#rv-graph")
    text = phone.locator("#rp-review").inner_text()
    assert "Analyse de l’expert" in text and "Perte par coup" in text
    assert phone.locator("#review-ask").count() == 0
    width = phone.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px phone"
    phone.locator("#rp-review").scroll_into_view_if_needed()
    shot(phone, "review-phone-fr.png")
    found += violations(phone, "review fr")

    # the profile's accuracy, from the deal reviewed
    phone.goto(f"{server}/#/p/Relecture")
    phone.wait_for_selector("#accuracy:not([hidden]) tr[data-phase=play]")
    assert "Précision" in phone.locator("#accuracy").inner_text()
    phone.locator("#accuracy").scroll_into_view_if_needed()
    shot(phone, "review-accuracy-fr.png")
    found += violations(phone, "accuracy fr")
    # the history's "Analyser" link: the replay at its review panel
    phone.locator("#history-list .review-link").first.click()
    phone.wait_for_selector("#rv-graph")
    in_view = "() => Math.abs(document.querySelector('#rp-review').getBoundingClientRect().top) < 60"
    phone.wait_for_function(in_view)
    assert not found, "\n".join(found)
