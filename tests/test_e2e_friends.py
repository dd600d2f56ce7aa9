"""Together, in the browser (issue 18's whole path), in Debian's chromium against a real server:
Bob adds Alice by her account's name and sees her online; Alice adds Bob from the lobby chat,
creates a private table and invites him from it; the invitation shows in Bob's lobby and takes
him to a seat at the private table; the game starts with a bot; the table's address alone does
not open it, its invite link does; a spectator's message reaches
both players; Bob leaves (a bot plays on), Alice plays the game to its end, opens its replay
from her profile, steps through the deal and downloads its records, which ``tarot replay``
accepts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")

from typer.testing import CliRunner  # noqa: E402

from tarot.cli.commands import app as cli  # noqa: E402
from test_e2e_browser import SHOTS, enter, new_page, play_until  # noqa: E402


def test_friends_invite_chat_play_and_replay(server: str, browser: Any, tmp_path: Path) -> None:
    base = server
    alice = new_page(browser, 1280, 900)
    alice.goto(base + "/")
    alice.wait_for_function("() => window.tarotReady === true")
    alice.evaluate("async () => fetch('/api/accounts', {method: 'POST',"
                   " headers: {'content-type': 'application/json'},"
                   " body: JSON.stringify({name: 'Alice', password: 'password-1'})})")
    alice.reload()
    alice.wait_for_selector("#friends-lobby")
    bob = new_page(browser, 390, 844)
    enter(bob, base, "Bob")
    # Bob adds Alice by her account's name: she is listed, online
    bob.fill("#friend-name", "alice")
    bob.click("#friend-add-submit")
    bob.wait_for_selector("#friends-lobby .friend.online:has-text('Alice')")
    # Alice adds Bob from the lobby chat
    bob.fill("#chat-input-lobby", "Hello Alice")
    bob.click("#chat-send-lobby")
    alice.wait_for_selector("#chat-lines-lobby .chat-line:has-text('Hello Alice') button.chat-friend")
    alice.click("#chat-lines-lobby .chat-line:has-text('Hello Alice') button.chat-friend")
    alice.wait_for_selector("#friends-lobby .friend.online:has-text('Bob')")
    # Alice's private table; from it she invites Bob
    alice.select_option("#options select[name=players]", "3")
    alice.fill("#options input[name=deals]", "2")  # (the game's end and its replay: two deals do)
    alice.set_checked("#options input[name=private]", True)
    alice.click("#submit-options")
    alice.wait_for_selector("#felt")
    alice.click("#friends-table button.invite-friend")
    bob.wait_for_selector("#invitations .invitation:has-text('Alice')")
    # its toast leaves the header's buttons free on a phone (issue 33: it covered them)
    covered = bob.evaluate("""() => { const t = document.querySelector('#toast').getBoundingClientRect();
        return [t.height > 0, [...document.querySelectorAll('header button, header a')].filter((el) => {
            const r = el.getBoundingClientRect();
            return r.width && r.left < t.right && t.left < r.right && r.top < t.bottom && t.top < r.bottom; })
            .map((el) => el.id)]; }""")
    assert covered == [True, []], covered
    bob.screenshot(path=str(SHOTS / "invitation-phone.png"), full_page=True)
    bob.click("#invitations button[data-action='invitation-go']")
    bob.wait_for_selector(".seat[data-seat='1'] button[data-action='sit']")
    bob.click(".seat[data-seat='1'] button[data-action='sit']")
    alice.wait_for_selector(".seat[data-seat='2'] button.add-bot")
    alice.locator(".seat[data-seat='2'] button.add-bot").click()
    bob.wait_for_selector("#hand .card")  # the game has started, Bob at the private table
    assert "Bob" in alice.locator(".seat[data-seat='1']").inner_text()

    # a spectator at the table: what it says reaches both players
    carol = new_page(browser, 390, 844)
    enter(carol, base, "Carol")
    # the table's address alone opens nothing (issue 34.1): back to the lobby, with the reason
    carol.goto(base + "/" + alice.evaluate("() => location.hash"))
    carol.wait_for_selector("#toast:has-text('invite link')")
    carol.wait_for_function("() => location.hash === '#/'")
    carol.goto(alice.locator("#invite-link").input_value())  # with its link: a spectator
    carol.wait_for_selector("#chat-table")
    carol.fill("#chat-input-table", "Allez Alice")
    carol.click("#chat-send-table")
    for page in (alice, bob):
        page.wait_for_selector("#chat-lines-table .chat-line:has-text('Allez Alice')")
        assert "Carol (spectator)" in page.locator("#chat-lines-table .chat-line").first.inner_text()
    # Bob leaves (a bot plays on for him); Alice plays the game to its end
    bob.on("dialog", lambda dialog: dialog.accept())
    bob.click("#leave")
    alice.wait_for_selector(".seat[data-seat='1'] .who:has-text('Bob')")
    play_until(alice, "#ranking li", limit=240)
    # her profile lists the game; its replay steps through the deal; its records check
    alice.click("#me-link")
    alice.wait_for_selector("#history-list li a.game-link")
    alice.locator("#history-list a.game-link").first.click()
    alice.wait_for_selector("#rp-step")
    assert alice.locator("#rp-step").inner_text().startswith("0/")
    alice.keyboard.press("ArrowRight")
    alice.wait_for_function("() => document.querySelector('#rp-step').textContent.startsWith('1/')")
    alice.keyboard.press("End")
    alice.wait_for_selector("#rp-check[data-ok='true']")
    with alice.expect_download() as got:
        alice.click("#rp-download")
    saved = tmp_path / got.value.suggested_filename
    got.value.save_as(saved)
    env = {"LANG": "C.UTF-8", "LC_ALL": None}
    result = CliRunner().invoke(cli, ["replay", "--json", str(saved)], env=env)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["legal"] is True
    assert alice.errors == [] and bob.errors == [] and carol.errors == []
    # Bob goes away: Alice's lobby says he is offline (not "Connection lost — reconnecting…",
    # the words of her own connection's banner; issue 33)
    bob.close()
    alice.goto(base + "/")
    alice.wait_for_selector("#friends-lobby .friend:not(.online):has-text('Bob')")
    assert alice.locator("#friends-lobby .friend:has-text('Bob') .where").inner_text() == "offline"
