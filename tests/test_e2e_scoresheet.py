"""The score sheet for games played with real cards (issue 33, scoresheet/scoresheet.js), end to
end in Debian's chromium against a real server: on a phone in French, four players enter two
deals; the engine's totals and the ranking show (true minus signs, nothing wider than the screen,
fields big enough to tap); the page's link, opened in another browser, shows the same sheet; Share
copies that link; printing hides the site's header and the forms. Screenshot:
docs/screenshots/scoresheet-phone.png."""

from __future__ import annotations

from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")

from test_e2e_browser import SHOTS, new_page  # noqa: E402

NAMES = ["Alice", "Bruno", "Chloé", "David"]
ROWS = "#sh-table tbody tr[data-deal]"
TARGETS = ("#sh-form select, #sh-form input[type=number], #sh-form .sh-choice span, #sh-form button, "
           "#sh-actions button")


def open_sheet(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#sheet-page #sh-table")


def enter_deal(page: Any, taker: int, contract: str, oudlers: int, points: str, **extra: str) -> None:
    rows = page.locator(ROWS).count()
    page.select_option("#sh-taker", str(taker))
    page.select_option("#sh-contract", contract)
    page.locator(f".sh-choice label:has(input[value='{oudlers}'])").click()
    page.fill("#sh-points", points)
    for select, value in extra.items():
        page.select_option(f"#sh-{select}", value)
    page.click("#sh-add")
    page.wait_for_function(f"() => document.querySelectorAll({ROWS!r}).length === {rows + 1}")


def shown_sheet(page: Any) -> dict[str, Any]:
    """What the sheet shows: the names over the columns, each row's scores, the totals, the ranking."""
    found: dict[str, Any] = page.evaluate("""() => ({
      names: [...document.querySelectorAll('#sh-table thead th.sh-who')].map((th) => th.textContent),
      rows: [...document.querySelectorAll('#sh-table tbody tr[data-deal]')].map((tr) =>
        [...tr.querySelectorAll('td.sh-score')].map((td) => td.firstChild.textContent)),
      totals: [...document.querySelectorAll('#sh-table tfoot td')].map((td) => td.textContent),
      ranking: [...document.querySelectorAll('#sh-ranking-list li')].map((li) => li.textContent),
    })""")
    return found


def test_four_players_keep_the_score_on_a_phone_and_share_it(server: str, browser: Any) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = new_page(browser, 390, lang="fr")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    open_sheet(page, server + "/#/sheet")
    assert page.locator("#sheet-page h2").first.inner_text() == "Feuille de marque"
    assert page.locator("#sh-players").input_value() == "4"
    for i, name in enumerate(NAMES):
        page.fill(f"#sh-name-{i}", name)
        page.locator(f"#sh-name-{i}").blur()
    # a deal not complete: said so, nothing added
    page.click("#sh-add")
    assert page.locator("#sh-problem").inner_text().startswith("Il manque\u00a0: Preneur, Contrat, Bouts")
    # docs/rules.md's worked example 1: garde, 2 oudlers, 49 points, the taker's poignée and Petit au bout
    enter_deal(page, 1, "garde", 2, "49", pa="simple", pab="attack")
    # a prise failed by 11: −36 for each defender... to the taker's cost
    enter_deal(page, 0, "prise", 1, "40")
    expected = {
        "names": NAMES,
        "rows": [["\u2212106", "+318", "\u2212106", "\u2212106"], ["\u2212108", "+36", "+36", "+36"]],
        "totals": ["\u2212214", "354", "\u221270", "\u221270"],
        "ranking": ["1. Bruno\u00a0: 354", "2. Chloé\u00a0: \u221270", "2. David\u00a0: \u221270",
                    "4. Alice\u00a0: \u2212214"],
    }
    assert shown_sheet(page) == expected
    first = page.locator("#sh-table tbody tr[data-deal]").first.inner_text()
    assert "Garde ✓" in first and "2 bouts · 49/41" in first and "Petit au bout (attaque)" in first
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
    small = page.evaluate(f"""() => [...document.querySelectorAll({TARGETS!r})]
      .map((el) => el.getBoundingClientRect()).filter((r) => r.height < 44 || r.width < 44).length""")
    assert small == 0  # every field and button of the form big enough to tap
    page.screenshot(path=str(SHOTS / "scoresheet-phone.png"), full_page=True)

    # the link is the sheet: another browser (no storage of this one) shows the same
    url = page.url
    assert url.startswith(server + "/#/sheet/") and len(url) < len(server) + 200
    other = new_page(browser, 1100, lang="fr")
    open_sheet(other, url)
    assert shown_sheet(other) == expected
    assert [other.locator(f"#sh-name-{i}").input_value() for i in range(4)] == NAMES
    assert other.errors == [] and page.errors == []

    # Share copies the link; printing shows the sheet without the site's header and the forms
    page.click("#sh-share")
    page.wait_for_function("() => document.querySelector('#toast').textContent.startsWith('Lien copié')")
    assert page.evaluate("() => navigator.clipboard.readText()") == url
    page.emulate_media(media="print")
    assert not page.locator("header").is_visible() and not page.locator("#sh-form").is_visible()
    assert page.locator("#sh-table").is_visible() and page.locator("#sh-ranking-list").is_visible()
    page.emulate_media(media="screen")

    # the last deal taken back into the form, corrected (a garde, not a prise), and added again
    page.click("#sh-edit-last")
    page.wait_for_function("() => document.querySelectorAll('#sh-table tbody tr[data-deal]').length === 1")
    assert page.locator("#sh-taker").input_value() == "0" and page.locator("#sh-points").input_value() == "40"
    page.select_option("#sh-contract", "garde")
    page.click("#sh-add")
    page.wait_for_function("() => document.querySelectorAll('#sh-table tbody tr[data-deal]').length === 2")
    assert shown_sheet(page)["rows"][1] == ["\u2212216", "+72", "+72", "+72"]
    other.context.close()
    page.context.close()


def test_half_points_at_three_players_in_french_figures(server: str, browser: Any) -> None:
    page = new_page(browser, 390, lang="fr")
    open_sheet(page, server + "/#/sheet")
    page.on("dialog", lambda d: d.accept())
    if page.locator("#sh-table tbody tr[data-deal]").count():
        page.click("#sh-new")
    page.select_option("#sh-players", "3")
    page.wait_for_selector("#sh-name-2")
    assert page.locator("#sh-name-3").count() == 0
    enter_deal(page, 0, "prise", 2, "40.5")  # docs/rules.md's worked example 7
    row = page.locator("#sh-table tbody tr[data-deal]").first.inner_text()
    assert "2 bouts · 40,5/41" in row and "chutée de 1" in row
    assert shown_sheet(page)["rows"] == [["\u221252", "+26", "+26"]]
    # half points are refused at 4 players by the form itself
    page.click("#sh-new")
    page.select_option("#sh-players", "4")
    page.wait_for_selector("#sh-name-3")
    page.select_option("#sh-taker", "0")
    page.select_option("#sh-contract", "garde")
    page.locator(".sh-choice label:has(input[value='1'])").click()
    page.fill("#sh-points", "50.5")
    page.click("#sh-add")
    assert page.locator("#sh-problem").inner_text() == "Pas de demi-point à 4 joueurs."
    assert page.errors == []
    page.context.close()


def test_a_damaged_link_says_so(server: str, browser: Any) -> None:
    page = new_page(browser, 1100, lang="en")
    page.goto(server + "/#/sheet/bm90LWEtc2hlZXQ")
    page.wait_for_selector("#sh-broken")
    assert page.locator("#sh-broken").inner_text() == "This link holds no readable score sheet."
    page.context.close()
