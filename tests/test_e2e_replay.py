"""History and replays in the browser (issue 18, players/replay.js), end to end in Debian's
chromium with Playwright against a real server: an account plays a one-deal game with bots, opens
its profile, clicks the game, steps through it with the keyboard and the buttons (the trick and
the hands change; a step's link reopens at that step), sees the fairness check pass (Web Crypto),
and downloads the records, which ``tarot replay`` accepts. Then the same pages in French on a
phone. Screenshots go to docs/screenshots/replay-*.png.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")

from typer.testing import CliRunner  # noqa: E402

from tarot.cli.commands import app as cli  # noqa: E402
from test_e2e_accounts import create_account, shown  # noqa: E402
from test_e2e_browser import SHOTS, new_page, play_until, sit_with_bots  # noqa: E402 (skips without chromium)

NAME = "Replayer"


def step(page: Any) -> tuple[int, int]:
    text = page.locator("#rp-step").inner_text()
    k, n = text.split("/")
    return int(k), int(n)


def at_step(page: Any, k: int) -> None:
    page.wait_for_function("k => document.querySelector('#rp-step')?.textContent.startsWith(k + '/')", arg=k)


def hand_sizes(page: Any, players: int) -> list[int]:
    return [page.locator(f"#rp-hand-{i} .card").count() for i in range(players)]


def record_of(page: Any, gid: int) -> Any:
    return page.evaluate(f"async () => (await (await fetch('/api/games/{gid}')).json()).deals_done[0].record")


def shot(page: Any, name: str) -> None:
    page.evaluate("() => { document.querySelector('#toast').style.display = 'none'; }")
    page.screenshot(path=str(SHOTS / name), full_page=True)


def test_a_game_from_the_profile_to_its_replay(server: str, browser: Any, tmp_path: Path) -> None:
    base = server
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = new_page(browser, 1280, 860)
    page.goto(base + "/")
    page.wait_for_function("() => window.tarotReady === true")
    page.click("#offer-create")
    create_account(page, NAME, "correct horse")
    shown(page, "#me-link", NAME)
    page.wait_for_selector("#options")
    page.select_option("#options select[name=players]", "4")
    page.fill("#options input[name=deals]", "1")
    page.check("#competitive-create_table")
    page.fill("#options input[name=stake]", "10")
    page.click("#submit-options")
    page.wait_for_selector("#felt")
    sit_with_bots(page, 4)
    play_until(page, "#ranking li", limit=240)

    # the profile lists the game; a click opens its replay at its first deal's first step
    page.click("#me-link")
    page.wait_for_selector("#history-list li")
    assert page.locator("#history-list li").count() == 1
    item = page.locator("#history-list li").first.inner_text()
    assert NAME in item and "1 deal" in item and "rating 0.0 →" in item
    assert "Bot 2" in item and "Heuristic" not in item  # the robots named as at the table (issue 33)
    shot(page, "replay-history.png")
    page.locator("#history-list a.game-link").first.click()
    page.wait_for_selector("#rp-step")
    gid = int(re.search(r"#/g/(\d+)", page.url).group(1))  # type: ignore[union-attr]
    k, n = step(page)
    assert k == 0 and n > 72  # 4 bids at least, and 72 cards
    assert hand_sizes(page, 4) == [18] * 4 and page.locator("#rp-chien .card").count() == 6
    assert page.locator("#felt .played .card").count() == 0

    # the keyboard: → a step on (the link says which), End the last, Home the first
    page.keyboard.press("ArrowRight")
    at_step(page, 1)
    assert page.url.endswith(f"#/g/{gid}/1/1")
    first = record_of(page, gid)["actions"][0]
    said = ": " + first["bid"].replace("_", " ").capitalize()
    assert page.locator("#rp-action").inner_text().endswith(said)
    page.keyboard.press("End")
    at_step(page, n)
    assert hand_sizes(page, 4) == [0] * 4 and page.locator("#rp-result").inner_text()
    assert page.locator("#felt .played .card").count() == 4
    assert page.locator("#felt .card.winner").count() == 1
    page.keyboard.press("Home")
    at_step(page, 0)
    assert page.locator("#rp-first").is_disabled() and page.locator("#rp-prev").is_disabled()

    # the buttons, to the first card played: one hand a card fewer, that card on the felt
    record = record_of(page, gid)
    first_play = next(i for i, a in enumerate(record["actions"]) if "play" in a)
    page.locator("#rp-next").click()
    at_step(page, 1)
    page.locator("#rp-last").click()
    at_step(page, n)
    page.locator("#rp-prev").click()
    at_step(page, n - 1)
    page.goto(f"{base}/#/g/{gid}/1/{first_play}")
    at_step(page, first_play)
    before = hand_sizes(page, 4)
    page.keyboard.press("ArrowRight")
    at_step(page, first_play + 1)
    seat, card = record["actions"][first_play]["seat"], record["actions"][first_play]["play"]
    after = hand_sizes(page, 4)
    assert after[seat] == before[seat] - 1 and sum(after) == sum(before) - 1
    assert page.locator(f"#felt .seat[data-seat='{seat}'] .played .card[data-card='{card}']").count() == 1
    assert page.locator(f"#rp-hand-{seat} .card[data-card='{card}']").count() == 0
    # mid-play: a step's link, opened afresh, shows that step
    for _ in range(6):
        page.keyboard.press("ArrowRight")
    at_step(page, first_play + 7)
    link = page.url
    felt = page.locator("#felt .played").all_inner_texts(), page.locator("#felt .played .card").count()
    fresh = new_page(browser, 1280, 860)
    fresh.goto(link)
    fresh.wait_for_selector("#rp-step")
    assert step(fresh) == (first_play + 7, n)
    assert fresh.locator("#felt .played .card").count() == felt[1]
    assert hand_sizes(fresh, 4) == hand_sizes(page, 4)
    fresh.close()

    # the fairness check, in the browser (Web Crypto)
    page.wait_for_selector("#rp-check[data-ok]")
    assert page.locator("#rp-check").get_attribute("data-ok") == "true"
    assert page.locator("#rp-check").inner_text().startswith("✓")
    deal = page.evaluate(f"async () => (await (await fetch('/api/games/{gid}')).json()).deals_done[0]")
    assert page.locator("#rp-commitment").inner_text() == deal["commitment"]
    assert page.locator("#rp-digest").inner_text() == deal["commitment"]
    shot(page, "replay-desktop.png")

    # the records download: the game record, which tarot replay accepts as it comes
    with page.expect_download() as got:
        page.click("#rp-download")
    saved = tmp_path / got.value.suggested_filename
    assert got.value.suggested_filename == f"game-{gid}.json"
    got.value.save_as(saved)
    assert json.loads(saved.read_text())[0]["format"] == "tarot-deal/1"
    env = {"LANG": "C.UTF-8", "LC_ALL": None}
    result = CliRunner().invoke(cli, ["replay", "--json", str(saved)], env=env)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["legal"] is True
    assert page.errors == []

    # on a phone, in French: the profile's list, then the replay at a step in the play
    phone = new_page(browser, 390, 844)
    phone.goto(base + "/")
    phone.evaluate("() => localStorage.setItem('tarot.lang', 'fr')")
    phone.goto(f"{base}/#/p/{NAME}")
    phone.reload()
    phone.wait_for_selector("#history-list li")
    assert "1 donne" in phone.locator("#history-list li").first.inner_text()
    shot(phone, "replay-history-phone-fr.png")
    phone.goto(f"{base}/#/g/{gid}/1/{first_play + 6}")
    phone.wait_for_selector("#rp-check[data-ok='true']")
    assert "Télécharger" in phone.locator("#rp-download").inner_text()
    assert phone.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    shot(phone, "replay-phone-fr.png")
    assert phone.errors == []
