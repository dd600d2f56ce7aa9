"""Friends and invitations in the browser (issue 18), in Debian's chromium against a real
server: Bob adds Alice by her account's name and sees her online; Alice adds Bob from the lobby
chat, creates a private table and invites him from it; the invitation shows in Bob's lobby and
takes him to a seat at the private table; the game starts with a bot."""

from __future__ import annotations

from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")

from test_e2e_browser import SHOTS, enter, new_page  # noqa: E402


def test_friends_see_each_other_and_an_invitation_opens_a_private_seat(server: str, browser: Any) -> None:
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
    alice.set_checked("#options input[name=private]", True)
    alice.click("#submit-options")
    alice.wait_for_selector("#felt")
    alice.click("#friends-table button.invite-friend")
    bob.wait_for_selector("#invitations .invitation:has-text('Alice')")
    bob.screenshot(path=str(SHOTS / "invitation-phone.png"), full_page=True)
    bob.click("#invitations button[data-action='invitation-go']")
    bob.wait_for_selector(".seat[data-seat='1'] button[data-action='sit']")
    bob.click(".seat[data-seat='1'] button[data-action='sit']")
    alice.wait_for_selector(".seat[data-seat='2'] button.add-bot")
    alice.locator(".seat[data-seat='2'] button.add-bot").click()
    bob.wait_for_selector("#hand .card")  # the game has started, Bob at the private table
    assert "Bob" in alice.locator(".seat[data-seat='1']").inner_text()
