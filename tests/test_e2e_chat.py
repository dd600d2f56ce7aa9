"""The chat in the browser (issue 18), in Debian's chromium against a real server: the lobby's
and a table's between a player (English, desktop) and a spectator (French, phone); text stays
text, a quick phrase is read in the reader's language, a muted player is no longer heard."""

from __future__ import annotations

from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")

from test_e2e_browser import SHOTS, create, enter, new_page, sit_with_bots  # noqa: E402


def person(browser: Any, base: str, name: str, width: int, height: int, lang: str) -> Any:
    page = new_page(browser, width, height)
    page.goto(base + "/")
    page.evaluate(f"() => localStorage.setItem('tarot.lang', '{lang}')")
    enter(page, base, name)
    return page


SAYS = "([text, yes]) => document.querySelector('#chat-lines-table').textContent.includes(text) === yes"


def lines(page: Any, where: str) -> list[str]:
    return [x.strip() for x in page.locator(f"#chat-lines-{where} .chat-line").all_inner_texts()]


def test_a_player_and_a_spectator_chat_in_the_lobby_and_at_the_table(server: str, browser: Any) -> None:
    base = server
    alice = person(browser, base, "Alice", 1280, 900, "en")
    walter = person(browser, base, "Walter", 390, 844, "fr")
    walter.fill("#chat-input-lobby", "Une partie ? <b>vite</b>")
    walter.click("#chat-send-lobby")
    alice.wait_for_selector("#chat-lines-lobby .chat-line")
    assert lines(alice, "lobby")[0].startswith("Walter guest: Une partie ? <b>vite</b>")  # text, not markup
    assert not alice.locator("#chat-lines-lobby b:text('vite')").count()
    create(alice, 4, deals=2)
    sit_with_bots(alice, 4)
    walter.goto(base + "/" + alice.evaluate("() => location.hash"))
    walter.wait_for_selector("#chat-table")
    walter.click("button.phrase[data-phrase='well_played']")
    alice.wait_for_selector("#chat-lines-table .chat-line")
    # in the reader's language
    assert lines(alice, "table")[0].startswith("Walter (spectator) guest: Well played!")
    alice.fill("#chat-input-table", "Thanks Walter")
    alice.click("#chat-send-table")
    walter.wait_for_selector("#chat-lines-table .chat-line >> nth=1")
    assert lines(walter, "table")[0].startswith("Walter (spectateur) invité\u00a0: Bien joué\u202f!")
    assert lines(walter, "table")[1].startswith("Alice invité\u00a0: Thanks Walter")
    walter.screenshot(path=str(SHOTS / "chat-phone-fr.png"), full_page=True)
    # a message (a toast) while typing on the phone does not cover the input; a tap puts it away
    walter.locator("#chat-input-table").scroll_into_view_if_needed()
    walter.evaluate("document.querySelector('#chat-input-table').scrollIntoView({block: 'end'})")
    walter.evaluate("async () => (await import('/static/js/core/dom.js')).toast('Un message')")
    toast = walter.locator("#toast").bounding_box()
    typing = walter.locator("#chat-input-table").bounding_box()
    assert toast and typing and toast["y"] + toast["height"] <= typing["y"], (toast, typing)
    walter.click("#toast")
    assert not walter.locator("#toast").is_visible()
    # Alice mutes Walter: his next message does not reach her
    alice.locator("#chat-lines-table .chat-line", has_text="Walter").locator("button.chat-mute").click()
    alice.wait_for_function(SAYS, arg=["Well played", False])
    walter.fill("#chat-input-table", "Tu m'entends ?")
    walter.click("#chat-send-table")
    walter.wait_for_selector("#chat-lines-table .chat-line >> nth=2")
    alice.fill("#chat-input-table", "still here")
    alice.click("#chat-send-table")
    walter.wait_for_selector("#chat-lines-table .chat-line >> nth=3")
    alice.wait_for_function(SAYS, arg=["still here", True])
    assert not any("entends" in x for x in lines(alice, "table"))
