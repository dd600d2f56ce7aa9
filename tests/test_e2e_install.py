"""The site installable and light (issue 33), in chromium: its service worker registers, a page
opened once says so in the player's language when the connection is gone (instead of the
browser's error), and the lobby's first visit stays within its budget (bench/first_load.py)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from test_e2e_browser import new_page

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from first_load import BUDGET_BYTES, BUDGET_REQUESTS, first_load


def test_offline_a_visited_site_says_it_needs_a_connection(browser: Any, server: str) -> None:
    page = new_page(browser, 1000, lang="fr")
    page.goto(server + "/")
    page.wait_for_function("() => window.tarotReady === true")
    scope = page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
    assert scope == server + "/"
    page.wait_for_function("async () => !!(await caches.match('/lang', {cacheName: 'tarot-lang'}))")
    page.context.set_offline(True)
    try:
        page.reload()
        text = page.locator("#offline-text").inner_text()
        assert "hors ligne" in text and "connexion" in text
        assert page.locator("html").get_attribute("lang") == "fr"
        assert page.locator("#retry").inner_text() == "Réessayer"
    finally:
        page.context.set_offline(False)
    page.click("#retry")  # back online: the site again
    page.wait_for_function("() => window.tarotReady === true")
    assert page.errors == []
    page.context.close()


def test_the_first_visit_makes_few_requests(browser: Any, server: str) -> None:
    _, requests, fetched = first_load(browser, server, "fr")
    assert requests <= BUDGET_REQUESTS, fetched
    assert not any("/i18n/en.json" in url for url, _ in fetched)  # only the page's language


def test_the_first_visit_is_light(browser: Any, server: str) -> None:
    size, _, fetched = first_load(browser, server, "fr")
    assert size <= BUDGET_BYTES, fetched
