"""A player's statistics on its profile (issue 18, players/stats.js), end to end in Debian's chromium
against a real server: an account plays competitive one-deal games against bots in the browser,
then its profile shows the figures of GET /api/players/<name>/stats and a chart of its rating with
one point per counted game, in English on a desktop and in French on a phone (figures as tiles,
nothing wider than the screen). Screenshots: docs/screenshots/stats-*.png."""

from __future__ import annotations

import re
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")

from test_e2e_accounts import shown  # noqa: E402
from test_e2e_browser import SHOTS, new_page, play_until, sit_with_bots  # noqa: E402
from test_e2e_competitive import create_competitive, new_account  # noqa: E402

NAME = "Camille"


def api_stats(page: Any) -> dict[str, Any]:
    return dict(page.evaluate(f"async () => (await fetch('/api/players/{NAME}/stats')).json()"))


def figures(page: Any) -> dict[str, str]:
    """The 4-player block's figures as shown: {data-stat: text}."""
    found: dict[str, str] = page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll("
        "\"#stats .stats-count[data-players='4'] tr\")]"
        ".map((tr) => [tr.dataset.stat, tr.querySelector('td').textContent]))")
    return found


def numbers(text: str) -> list[int]:
    """The whole numbers of a text (a sign kept: "-", "−" or "+")."""
    found = re.findall(r"[-−+]?\d+", text.replace("\u202f", ""))
    return [int(x.replace("−", "-").replace("+", "")) for x in found]


def test_the_profile_shows_the_statistics_and_the_rating_chart(server: str, browser: Any) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = new_account(browser, server, NAME)
    errors: list[str] = []  # the pages' uncaught errors: none expected
    page.on("pageerror", lambda e: errors.append(str(e)))
    create_competitive(page, 4, deals=1, stake=10)
    sit_with_bots(page, 4)
    play_until(page, "#ranking li", limit=240)
    # a second game at the same table: two points on the chart
    page.locator("[data-action='new-game']").first.click()
    page.wait_for_selector("#ranking li", state="detached")
    page.wait_for_selector("#hand .card")
    play_until(page, "#ranking li", limit=240)

    page.click("#me-link")
    shown(page, "#profile-name", NAME)
    shown(page, "#stats h3", "Statistics")
    page.wait_for_selector("#stats .stats-count[data-players='4']")
    st = api_stats(page)["players"]["4"]
    assert st["games"] == 2 and len(st["ratings"]) == 2
    assert page.locator("#stats .stats-count").count() == 1  # only the count with games
    shown_figures = figures(page)
    assert numbers(shown_figures["games"]) == [2]
    assert numbers(shown_figures["deals"])[0] == st["deals"]
    assert numbers(shown_figures["taken"])[0] == st["taken"]
    if st["average"] is not None:
        assert float(shown_figures["average"].replace("−", "-").replace(",", "")) == st["average"]
        assert "-" not in shown_figures["average"]  # a true minus sign
    for contract in ("prise", "garde", "garde_sans", "garde_contre"):
        c = st["contracts"][contract]
        text = shown_figures[contract]
        assert (numbers(text)[:2] == [c["made"], c["taken"]]) if c["taken"] else text == "–"
    pab = st["petits_au_bout"]
    assert numbers(shown_figures["petits_au_bout"]) == [pab["made"], pab["lost"]]
    assert numbers(shown_figures["chelems"]) == [st["chelems"]["announced"], st["chelems"]["made"]]
    assert numbers(shown_figures["poignees"]) == [st["poignees"][k] for k in ("simple", "double", "triple")]
    # the chart: one point a counted game, in order
    chart = page.locator("#stats .stats-count[data-players='4'] svg")
    assert chart.get_attribute("data-points") == "2"
    points = chart.locator("circle.pt")
    assert [points.nth(i).get_attribute("data-game") for i in range(points.count())] == \
        [str(r["game"]) for r in st["ratings"]]
    assert chart.locator("path.line").count() == 1
    box = chart.bounding_box()
    assert box is not None and box["width"] > 250 and box["height"] > 120
    page.locator("#stats").scroll_into_view_if_needed()
    page.locator("#stats").screenshot(path=str(SHOTS / "stats-profile.png"))

    # a visitor on a phone, in French: the same figures as tiles, the chart under them
    phone = new_page(browser, 390, 844)
    phone.on("pageerror", lambda e: errors.append(str(e)))
    phone.goto(server + "/")
    phone.evaluate("() => localStorage.setItem('tarot.lang', 'fr')")
    phone.goto(f"{server}/#/p/{NAME}")
    phone.reload()  # (the language is read as the page loads; a new hash alone does not load it)
    shown(phone, "#stats h3", "Statistiques")
    phone.wait_for_selector("#stats .stats-count[data-players='4'] svg circle.pt")
    assert phone.locator("#stats .stats-count h4").inner_text() == "4 joueurs"
    assert phone.locator("#stats tr[data-stat='deals'] th").inner_text() == "Donnes jouées"
    assert phone.locator("#stats svg circle.pt").count() == 2
    assert "\u00a0:" in phone.locator("#stats > p.note").inner_text()  # French typography
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
    tiles = phone.locator("#stats .stats-count[data-players='4'] tr")
    first, second = tiles.nth(0).bounding_box(), tiles.nth(1).bounding_box()
    assert first and second and abs(first["y"] - second["y"]) < 2 and second["x"] > first["x"]  # two a row
    chart_box = phone.locator("#stats svg").bounding_box()
    assert chart_box is not None and chart_box["width"] > 300 and chart_box["y"] > first["y"]
    phone.locator("#stats").scroll_into_view_if_needed()
    phone.locator("#stats").screenshot(path=str(SHOTS / "stats-phone-fr.png"))
    assert errors == []
