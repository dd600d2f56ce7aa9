"""A guest and an account's name in the browser (issue 34, finding 4), in Debian's chromium
against a real server: a guest who types an account's name, or one like it, is told so in its
language and asked again; at the table and in the chat its name is marked as a guest's."""

from __future__ import annotations

from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")

from test_e2e_browser import SHOTS, create, enter, new_page, sit_with_bots  # noqa: E402


def test_a_guest_cannot_take_an_accounts_name_and_is_marked_as_a_guest(server: str, browser: Any) -> None:
    import httpx

    made = httpx.post(server + "/api/accounts", json={"name": "Alice", "password": "password-alice"})
    assert made.status_code == 201
    page = new_page(browser, 390, lang="fr")
    page.goto(server + "/")
    page.wait_for_function("() => window.tarotReady === true")
    page.fill("#name", "\u0410lice")  # a Cyrillic А: it looks like the account's name
    page.click("#enter")
    # said under the field, where the player looks (a toast at a phone's top would cover the field)
    page.wait_for_selector("#name-error:has-text('Ce nom est celui d’un compte')")
    assert not page.locator("#toast").is_visible()
    assert page.evaluate("() => document.activeElement.id") == "name"  # selected: another is typed over it
    assert page.evaluate("() => localStorage.getItem('tarot.name')") is None
    enter(page, server, "Bob")  # the name form again, and another name goes in
    create(page, 3)
    sit_with_bots(page, 3)
    mark = page.locator(".seat[data-seat='0'] .name .guest-mark")
    assert mark.inner_text() == "invité"
    assert mark.get_attribute("title") == "Non connecté\u00a0: un invité, pas un compte"
    page.fill("#chat-input-table", "Bonjour")
    page.click("#chat-send-table")
    page.wait_for_selector("#chat-lines-table .chat-line .from .guest-mark")
    page.screenshot(path=str(SHOTS / "guest-mark-phone-fr.png"), full_page=True)
    assert page.errors == []
