"""The hint button in the browser (issue 19): at a practice table, on one's turn, the expert's
advice in one line, in the page's language; the advised card marked in the hand."""

from __future__ import annotations

from typing import Any

import pytest

from test_e2e_browser import SHOTS, WAIT_MS, create, enter, new_page, sit_with_bots


@pytest.mark.parametrize("width", [1100, 390])
def test_a_hint_says_what_the_expert_would_do(server: str, browser: Any, width: int) -> None:
    page = new_page(browser, width, 900 if width > 400 else 844)
    enter(page, server, "Hugo")
    create(page, 4, deals=1)
    sit_with_bots(page, 4)
    for _ in range(3):  # a few of the human's moves, each with a hint
        page.wait_for_selector("#hint:enabled", timeout=WAIT_MS)
        page.click("#hint")
        text = page.wait_for_selector("#hint-text[data-why]", timeout=WAIT_MS)
        why = text.get_attribute("data-why")
        assert why in ("only", "rules", "bidding", "search")
        assert text.inner_text().startswith("Expert")
        if why == "search":
            assert page.locator("#hand .card.hinted").count() == 1
        if width == 390 and why in ("search", "bidding"):
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / f"hint-{width}.png"))
        # follow the advice: the advised card, the advised bid, else the first legal move
        if page.locator("#hand .card.hinted").count():
            page.locator("#hand .card.hinted").click()
        elif page.locator("button.bid").count():
            page.locator("button.bid").first.click()
        elif page.locator("#hand .card.legal").count():
            page.locator("#hand .card.legal").first.click()
        else:
            break
        page.wait_for_timeout(200)
    assert not page.errors, page.errors
