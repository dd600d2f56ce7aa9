"""Accessibility (issue 33), end to end in Debian's chromium against a real server: axe-core
(axe-playwright-python) finds no serious or critical violation on the site's pages, in French, on
a phone (390×844) and a desktop (1440×900): the lobby (first visit, a guest, an account), a table in
each phase (bidding, écart, play, the deal's result), the profile, a replay, the ranking, the daily challenge
and an event's page. And the table's live region (``#announce``) tells a screen reader, in the
page's language, each card a robot plays and when it is the player's turn. Skipped without
playwright or Debian's chromium (tests/test_e2e_browser.py)."""

from __future__ import annotations

import time
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright")

from test_e2e_accounts import create_account, shown  # noqa: E402
from test_e2e_browser import (  # noqa: E402
    CORNER,
    SHOTS,
    await_turn,
    create,
    new_page,
    play_step,
    play_until,
    sit_with_bots,
    tap,
)
from test_e2e_events import fill_event_form  # noqa: E402

SIZES = [(390, 844), (1440, 900)]
BAD = {"serious", "critical"}
AXE = axe_sync.Axe()
# what the live region said, in order: a MutationObserver's record (the region's text is replaced)
RECORD = """() => { const el = document.querySelector('#announce'); window.said = [];
  new MutationObserver(() => { if (el.textContent) window.said.push(el.textContent); })
    .observe(el, {childList: true, characterData: true, subtree: true}); }"""


def violations(page: Any, where: str) -> list[str]:
    """axe's serious and critical violations on the page as it is, at each size (the page's own
    CSS rules for a phone and for a desktop): one line each, saying where, which rule, on what."""
    found = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("() => new Promise(requestAnimationFrame)")  # laid out at that size
        for v in AXE.run(page).response["violations"]:
            if v["impact"] in BAD:
                targets = [" ".join(map(str, n["target"])) for n in v["nodes"][:4]]
                why = v["nodes"][0].get("failureSummary", "").replace("\n", " ")[:240]
                found.append(f"{where} @{width}: {v['id']} ({v['impact']}) {targets}: {why}")
    return found


def everybody_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The robots pass every bid: the person takes, and the écart is theirs to make."""
    from tarot.bots.heuristic import HeuristicBot
    from tarot.engine import Bid

    monkeypatch.setattr(HeuristicBot, "bid", lambda self, view: Bid(view.seat, None))


STYLES = """() => { const st = (sel) => getComputedStyle(document.querySelector(sel));
  const legal = st('#hand .card.legal:not(.selected)'), other = st('#hand .card:not(.legal)');
  const chosen = st('#hand .card.selected');
  const turn = st('.seat.turn .name'), still = st('.seat:not(.turn) .name');
  return {legal: legal.borderTopWidth, other: other.borderTopWidth, chosen: chosen.outlineStyle,
          turn: turn.outlineStyle, still: still.outlineStyle}; }"""


def forced_colors(page: Any) -> None:
    """In forced colours (high contrast), where box-shadows and backgrounds are gone, the legal
    cards, the chosen ones and the seat whose turn it is still stand out: by borders and outlines
    in the system's colours. A screenshot shows it (docs/screenshots/forced-colors-ecart.png)."""
    page.set_viewport_size({"width": 1100, "height": 900})
    page.emulate_media(forced_colors="active", color_scheme="dark")
    assert page.evaluate("() => matchMedia('(forced-colors: active)').matches")
    looks = page.evaluate(STYLES)
    assert looks["legal"] == "3px" and looks["other"] == "1px", looks
    assert looks["chosen"] != "none" and looks["turn"] != "none" and looks["still"] == "none", looks
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "forced-colors-ecart.png"))
    page.emulate_media(forced_colors="none", color_scheme="light")


def test_no_serious_violation_on_any_page(server: str, browser: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    everybody_passes(monkeypatch)
    page = new_page(browser, 1440, 900, lang="fr")
    found: list[str] = []
    page.goto(server + "/")
    page.wait_for_function("() => window.tarotReady === true")
    page.wait_for_selector("#name")
    found += violations(page, "first visit")

    page.click("#offer-create")
    page.wait_for_selector("#create-name")
    found += violations(page, "account dialog")
    create_account(page, "Axelle", "correct horse")
    shown(page, "#me-link", "Axelle")
    page.wait_for_selector("#options")
    found += violations(page, "lobby")

    create(page, 4, deals=1)
    found += violations(page, "table waiting")
    sit_with_bots(page, 4)
    page.wait_for_selector("button.bid")
    found += violations(page, "bidding")
    tap(page.locator("button.bid[data-bid='garde']"))
    page.wait_for_selector("#ecart")
    page.locator("#hand .card.legal").first.click(position=CORNER)  # a card chosen: the selected state too
    found += violations(page, "écart")
    forced_colors(page)
    seen: set[str] = {"bid", "took"}
    end = time.monotonic() + 60
    while not page.locator("#hand .card.legal").count() or page.locator("#ecart").count():
        assert time.monotonic() < end, "the play never came to the player's card"
        if not play_step(page, seen, {}):
            page.wait_for_timeout(50)
    found += violations(page, "play")
    play_until(page, "#ranking li")
    page.wait_for_selector("#result")
    found += violations(page, "result")

    page.click("#me-link")
    page.wait_for_selector("#history-list li")
    found += violations(page, "profile")
    page.locator("#history-list a.game-link").first.click()
    page.wait_for_selector("#rp-step")
    page.keyboard.press("End")
    page.wait_for_selector("#rp-result")
    found += violations(page, "replay")

    page.goto(server + "/#/ranking/4")
    page.wait_for_selector("#ranking-page table, #ranking-page .note")
    found += violations(page, "ranking")

    page.goto(server + "/#/challenge")
    page.wait_for_selector("#challenge-page .ch-deal")
    found += violations(page, "challenge")

    page.goto(server + "/#/")
    page.wait_for_selector("#events")
    fill_event_form(page, "Soirée", deals=1, starts_in=3600, access="open", bots=True)
    page.click("#ev-create-submit")
    shown(page, "#ev-title", "Soirée")
    found += violations(page, "event")
    assert page.errors == []
    assert found == [], "\n".join(found)
    page.close()


SAID = ("() => window.said.some((s) => /^Robot \\d joue /.test(s))"
        " && window.said.some((s) => s.endsWith('À vous de jouer'))")


def test_the_live_region_tells_the_cards_played_and_the_turn(server: str, browser: Any) -> None:
    """In French: "Robot 3 joue roi de cœur", "À vous de jouer"; one short message at a time
    (replaced, not a growing log), and nothing when the table opens (its snapshot)."""
    page = new_page(browser, 390, 844, lang="fr")
    page.goto(server + "/")
    page.wait_for_function("() => window.tarotReady === true")
    page.fill("#name", "Léa")
    page.click("#enter")
    page.wait_for_selector("#options")
    found = violations(page, "lobby (a guest)")
    assert found == [], "\n".join(found)
    live = page.locator("#announce")
    assert live.get_attribute("aria-live") == "polite" and live.bounding_box()["width"] <= 1
    create(page, 4, deals=1)
    page.evaluate(RECORD)
    assert live.text_content() == ""  # the table's snapshot: nothing said
    sit_with_bots(page, 4)
    seen: set[str] = set()
    for _ in range(400):
        if page.evaluate(SAID):
            break
        if not play_step(page, seen, {}, take="pass"):  # (the robots take: the play comes sooner)
            await_turn(page, "#ranking li", 500)
    said: list[str] = page.evaluate("() => window.said")
    assert page.evaluate(SAID), said
    assert not any("plays" in s or "Your turn" in s for s in said)  # the page's language
    assert all(len(s) < 120 for s in said), said  # each event's sentence, not the ones before it
    page.close()
