"""Errors the server refuses a message with are shown in the page's language, by their code
(docs/protocol.md's list, static/i18n), never as the server's English ``reason``: seen in the
browser at a phone's and a desktop's width."""

from __future__ import annotations

from typing import Any

import pytest

from test_e2e_browser import SHOTS, create, enter, new_page

# what the page's own connection is made to send (``net.send``), and the text expected for it
REFUSED = {
    "seated": ({"type": "sit", "seat": 1}, {"en": "You already sit at this table",
                                            "fr": "Vous êtes déjà assis à cette table"}),
    "bad_message": ({"type": "no_such_message"}, {"en": "The server did not understand that message",
                                                  "fr": "Le serveur n’a pas compris ce message"}),
}


@pytest.mark.parametrize(("width", "height", "lang"), [(390, 844, "fr"), (1440, 900, "en")])
def test_a_refused_message_is_told_in_the_page_language(server: str, browser: Any, width: int,
                                                        height: int, lang: str) -> None:
    page = new_page(browser, width, height, lang)
    enter(page, server, "Erin")
    create(page, 4)
    for code, (message, said) in REFUSED.items():
        page.evaluate("m => window.tarot.send(m)", message)  # the page's own socket (main.js)
        toast = page.locator("#toast")
        toast.filter(has_text=said[lang]).wait_for()  # (has_text ignores case: the server's own
        assert said[lang] in toast.inner_text()       # reason is "you already sit …")
        page.screenshot(path=str(SHOTS / f"error-{code}-{lang}-{width}.png"))
    assert page.errors == []
    page.context.close()
