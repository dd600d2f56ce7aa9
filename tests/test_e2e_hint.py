"""The hint button in the browser (issue 19): at a practice table, on one's turn, the expert's
advice in one line, in the page's language; the advised card marked in the hand."""

from __future__ import annotations

from typing import Any

import pytest

from test_e2e_browser import SHOTS, WAIT_MS, create, enter, new_page, sit_with_bots


def a_bot_takes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The deal (the table's only one) is seeded: a bot's hand is worth a contract by the club
    scale (the bots' bid), so the human's pass leaves a deal to play, and seat 0 has no poignée
    to show (with one, the card advice would be the rules'): its card hints are the search's."""
    from tarot.bots.evaluation import contract_for, hand_points
    from tarot.engine import Deal
    from tarot.engine.cards import EXCUSE_BIT, TRUMPS
    from tarot.server.game import ServerGame

    real = ServerGame.new_deal

    def seeded(self: Any, seed: str | None = None, salt: str | None = None) -> Any:
        for s in range(100_000):
            deal = Deal.new(self.players, self.next_dealer, seed=f"hint-{s}")
            if (not deal.is_over and (deal.hands[0] & (TRUMPS | EXCUSE_BIT)).bit_count() < 8
                    and any(contract_for(hand_points(h), self.players) for h in deal.hands[1:])):
                return real(self, f"hint-{s}", salt)
        raise AssertionError("no such deal")

    monkeypatch.setattr(ServerGame, "new_deal", seeded)


@pytest.mark.parametrize("width", [1100, 390])
def test_a_hint_says_what_the_expert_would_do(server: str, browser: Any, width: int,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    a_bot_takes(monkeypatch)
    page = new_page(browser, width, 900 if width > 400 else 844)
    enter(page, server, "Hugo")
    create(page, 4, deals=1)
    sit_with_bots(page, 4)
    seen: set[str] = set()
    for _ in range(24):  # the human's moves, each with a hint, until a card's hint is the search's
        page.wait_for_selector("#hint:enabled", timeout=WAIT_MS)
        page.click("#hint")
        text = page.wait_for_selector("#hint-text[data-why]", timeout=WAIT_MS)
        why = text.get_attribute("data-why")
        assert why in ("only", "rules", "bidding", "search")
        assert text.inner_text().startswith("Expert")
        seen.add(why)
        if why == "search":
            assert page.locator("#hand .card.hinted").count() == 1
        if width == 390 and why in ("search", "bidding"):
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / f"hint-{width}.png"))
        if why == "search":
            break
        # follow the advised card; pass at the bidding (a bot takes); else the first legal move
        if page.locator("#hand .card.hinted").count():
            page.locator("#hand .card.hinted").click()
        elif page.locator("button.bid").count():
            page.locator("button.bid[data-bid='pass']").click()
        elif page.locator("#hand .card.legal").count():
            page.locator("#hand .card.legal").first.click()
        else:
            break
        page.wait_for_timeout(200)
    assert "search" in seen, seen  # so the advised card's mark was checked
    assert not page.errors, page.errors
