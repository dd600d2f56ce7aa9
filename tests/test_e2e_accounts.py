"""Accounts, profiles and the ranking in the browser (players/account.js), end to end in Debian's
chromium with Playwright against a real server on a fresh SQLite file: creating an account from
the guest's first screen (the guest's id is kept), signing out and in, the dialog's refusals,
renaming once a week, the leaderboard with a rated bot and its tabs, and the same pages in French
on a phone. Screenshots go to docs/screenshots/accounts-*.png.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")

from sqlalchemy import create_engine, update  # noqa: E402

from server_harness import free_port  # noqa: E402
from tarot.server.players.players import bot_account, save_ratings  # noqa: E402
from tarot.server.players.ratings import Rating  # noqa: E402
from tarot.server.store.schema import PlayerRow  # noqa: E402
from test_e2e_browser import SHOTS, WAIT_MS, start_server, stop_server  # noqa: E402 (skips without chromium)

FILLERS = 54  # rated at 3 players besides Heuristic: more than a page (50) of the leaderboard
PASSWORD = "correct horse"


class Site:
    def __init__(self, base: str, db: Path) -> None:
        self.base = base
        self.engine = create_engine(f"sqlite:///{db}")

    def rate(self, pid: str, players: int, mu: float, sigma: float, games: int) -> None:
        with self.engine.begin() as conn:
            save_ratings(conn, [pid], players, [Rating(mu, sigma, games)])

    def renamed_long_ago(self, key: str) -> None:
        """As if the account's name had last changed eight days ago (a new account's is its birth)."""
        with self.engine.begin() as conn:
            conn.execute(update(PlayerRow).where(PlayerRow.name_key == key)
                         .values(renamed=time.time() - 8 * 86400))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    db = tmp_path_factory.mktemp("accounts") / "tarot.sqlite3"
    port = free_port()
    running = start_server(db, port)  # (its lifespan made the tables)
    s = Site(f"http://127.0.0.1:{port}", db)
    with s.engine.begin() as conn:  # a rated bot at 4 and 3 players, and a page and more at 3
        heuristic = bot_account(conn, "heuristic", "Heuristic")
        save_ratings(conn, [heuristic], 4, [Rating(31.0, 2.5, 40)])
        fillers = [bot_account(conn, f"filler{i}", f"Filler {i:02}") for i in range(FILLERS)]
        save_ratings(conn, [heuristic, *fillers], 3,
                     [Rating(30.0, 3.0, 12)] + [Rating(25.0 - i / 10, 5.0, 3) for i in range(FILLERS)])
    yield s
    stop_server(*running)
    s.engine.dispose()


def open_site(browser: Any, site: Site, width: int, height: int, lang: str = "en") -> Any:
    page = browser.new_page(viewport={"width": width, "height": height}, reduced_motion="reduce")
    page.set_default_timeout(WAIT_MS)
    page.errors = []  # the page's uncaught errors: none expected
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(site.base + "/")
    if lang != "en":
        page.evaluate(f"() => localStorage.setItem('tarot.lang', '{lang}')")
        page.reload()
    page.wait_for_function("() => window.tarotReady === true")
    return page


def me(page: Any) -> Any:
    return page.evaluate("() => window.tarot.S.me")  # (the page's own store, bundled or not: main.js)


def session(page: Any) -> Any:
    return page.evaluate("async () => { const r = await fetch('/api/session');"
                         " return [r.status, await r.json()]; }")


def shown(page: Any, selector: str, text: str) -> None:
    """Wait until ``selector`` is visible and holds ``text``."""
    page.wait_for_selector(selector, state="visible")
    page.wait_for_function("([sel, text]) => document.querySelector(sel)?.textContent.includes(text)",
                           arg=[selector, text])


def digits(text: str) -> int:
    return int(re.sub(r"\D", "", text))


def shot(page: Any, name: str) -> None:
    page.evaluate("() => { document.querySelector('#toast').style.display = 'none'; }")  # (the last step's)
    page.screenshot(path=str(SHOTS / name))


def header_fits(page: Any) -> None:
    assert page.evaluate("() => { const e = document.querySelector('header');"
                         " return e.scrollWidth <= e.clientWidth; }")


def create_account(page: Any, name: str, password: str, again: str | None = None) -> None:
    page.fill("#create-name", name)
    page.fill("#create-password", password)
    page.fill("#create-password2", password if again is None else again)
    page.click("#create-submit")


def sign_in(page: Any, name: str, password: str) -> None:
    page.fill("#signin-name", name)
    page.fill("#signin-password", password)
    page.click("#signin-submit")


def test_an_account_from_the_guest_screen_sign_out_in_rename_and_ranking(site: Site, browser: Any) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = open_site(browser, site, 1280, 800)
    guest = me(page)
    assert guest["account"] is False and page.evaluate("() => localStorage.getItem('tarot.token')")
    assert page.locator("#sign-in").inner_text() == "Sign in"
    assert page.locator("#ranking-link").inner_text() == "Ranking"

    # the first screen: the guest's name, or create an account (the dialog's refusals first)
    page.wait_for_selector("#name")
    page.click("#offer-create")
    page.wait_for_selector("#create-name", state="visible")
    assert not page.locator("#signin-name").is_visible()  # the other tab
    create_account(page, "Camille", PASSWORD, again="correct horsf")
    shown(page, "#create-error", "The two passwords differ")
    create_account(page, "Camille", "short")
    shown(page, "#create-error", "A password has at least 8 characters")
    create_account(page, "Camille", PASSWORD)
    shown(page, "#me-link", "Camille")
    assert not page.locator("#account-dialog").is_visible()
    assert page.locator("#sign-out").inner_text() == "Sign out"
    page.wait_for_selector("#options")  # the lobby: an account needs no guest name
    # the guest became the account: same player, and its old token is forgotten
    status, who = session(page)
    assert status == 200 and who == {"name": "Camille", "id": guest["id"]}
    assert me(page) == {"id": guest["id"], "name": "Camille", "account": True}
    assert page.evaluate("() => localStorage.getItem('tarot.token')") is None

    # the profile: 1000 chips, no games, unrated everywhere
    page.click("#me-link")
    shown(page, "#profile-name", "Camille")
    assert page.evaluate("() => location.hash") == "#/p/Camille"
    assert digits(page.locator("#profile-chips").inner_text()) == 1000
    assert page.locator("#profile-games").inner_text() == "0"
    assert page.locator("#profile-ratings .ordinal").all_inner_texts() == ["unrated"] * 3
    assert not page.locator("#profile-name .bot-mark").count()
    shot(page, "accounts-profile-desktop-en.png")

    # signing out: a guest again (the header says so); signing in with a wrong password is refused
    page.click("#sign-out")
    shown(page, "#sign-in", "Sign in")
    assert me(page)["account"] is False and me(page)["id"] != guest["id"]
    assert session(page)[0] == 401
    assert not page.locator("#rename").count()  # someone else's profile now: no name to change
    page.click("#sign-in")
    sign_in(page, "Camille", "not the password")
    shown(page, "#signin-error", "Wrong name or password")
    shot(page, "accounts-dialog-desktop-en.png")
    # too many attempts: said with the seconds to wait (the server's answer stood in for)
    page.route("**/api/session", lambda route: route.fulfill(
        status=429, content_type="application/json",
        body='{"error": "too many attempts: wait 13 s", "code": "too_many_attempts", "retry_after": 12.3}'))
    page.click("#signin-submit")
    shown(page, "#signin-error", "Too many attempts: wait 13 s")
    page.unroute("**/api/session")
    sign_in(page, "camille", PASSWORD)  # names are found whatever their case
    shown(page, "#me-link", "Camille")
    assert not page.locator("#account-dialog").is_visible()
    assert session(page) == [200, {"name": "Camille", "id": guest["id"]}]

    # renaming: refused within a week of the last change (an account's birth counts), then once
    page.wait_for_selector("#rename")
    page.fill("#new-name", "Camille B")
    page.click("#rename-submit")
    shown(page, "#rename-error", "A name can change only once a week")
    site.renamed_long_ago("camille")
    page.evaluate("() => { window.tarotReady = false; }")  # the welcome of the websocket opened again
    page.click("#rename-submit")
    shown(page, "#me-link", "Camille B")
    shown(page, "#profile-name", "Camille B")
    assert page.evaluate("() => location.hash") == "#/p/Camille%20B"
    page.wait_for_function("() => window.tarotReady === true")
    assert me(page) == {"id": guest["id"], "name": "Camille B", "account": True}  # as the server welcomed it
    page.fill("#new-name", "Camille C")
    page.click("#rename-submit")
    shown(page, "#rename-error", "A name can change only once a week")

    # the ranking: Camille B rated now; the bot above, marked as a bot
    site.rate(guest["id"], 4, 27.0, 4.0, 6)
    page.click("#ranking-link")
    page.wait_for_selector("#ranking[data-players='4']")
    rows = page.locator("#ranking tbody tr")
    assert rows.count() == 2
    # the club robot named as at the table ("Bot 2" there): the name says it is one (issue 33)
    assert rows.nth(0).locator(".who").inner_text() == "Bot"
    assert not rows.nth(0).locator(".bot-mark").count()
    assert rows.nth(1).locator(".who").inner_text() == "Camille B"
    assert not rows.nth(1).locator(".bot-mark").count()
    assert "me" in (rows.nth(1).get_attribute("class") or "")
    assert rows.nth(0).locator(".ordinal").inner_text() == "23.5"  # 31 − 3 × 2.5
    assert page.locator("#ranking-tab-4").get_attribute("aria-current") == "page"
    shot(page, "accounts-ranking-desktop-en.png")
    # the tabs: 3 players (more than a page, then the rest), 5 players (nobody yet)
    page.click("#ranking-tab-3")
    page.wait_for_selector("#ranking[data-players='3']")
    assert page.locator("#ranking tbody tr").count() == 50
    assert page.locator("#ranking-more").inner_text() == "Show more (5)"
    page.click("#ranking-more")
    page.wait_for_function(f"() => document.querySelectorAll('#ranking tbody tr').length === {FILLERS + 1}")
    assert not page.locator("#ranking-more").count()
    assert page.locator("#ranking tbody tr .bot-mark").count() == FILLERS  # (the club robot: "Bot", unmarked)
    page.click("#ranking-tab-5")
    shown(page, "#ranking-empty", "Nobody is ranked")
    # a bot's profile from the ranking, and a player who does not exist
    page.click("#ranking-tab-4")
    page.wait_for_selector("#ranking[data-players='4']")
    page.click("#ranking tbody tr:first-child .who a")
    shown(page, "#profile-name", "Bot")
    assert page.locator("#profile-name").inner_text() == "Bot"
    assert page.locator("#profile-ratings tr[data-players='4'] .ordinal").inner_text() == "23.5"
    assert not page.locator("#rename").count()
    page.goto(site.base + "/#/p/Nobody%20here")
    shown(page, "#no-player", "No such player")
    page.click("#lang")  # a page is redrawn in the other language
    shown(page, "#no-player", "Aucun joueur de ce nom")
    assert page.locator("#ranking-link").inner_text() == "Classement"
    assert page.errors == []
    page.close()


def test_the_same_pages_in_french_on_a_phone(site: Site, browser: Any) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = open_site(browser, site, 390, 844, lang="fr")
    page.wait_for_selector("#name")
    assert page.locator("#ranking-link").inner_text() == "Classement"
    assert page.locator("#sign-in").inner_text() == "Se connecter"
    assert page.locator("#offer-sign-in").inner_text() == "Se connecter"
    assert page.locator("#offer-create").inner_text() == "Créer un compte"
    assert "Vous avez un compte\u202f?" in page.locator(".sign-in-offer").inner_text()
    header_fits(page)
    shot(page, "accounts-first-phone-fr.png")

    page.click("#offer-sign-in")
    assert page.locator("label[for='signin-password']").inner_text() == "Mot de passe"
    sign_in(page, "Personne", "pas le bon mot")
    shown(page, "#signin-error", "Nom ou mot de passe incorrect")
    page.click("#tab-create")
    create_account(page, "Zoé", PASSWORD, again="autre chose")
    shown(page, "#create-error", "Les deux mots de passe diffèrent")
    create_account(page, "Heuristic", PASSWORD)  # a bot's name
    shown(page, "#create-error", "Ce nom est déjà pris")
    create_account(page, "Zoé", PASSWORD)
    shown(page, "#me-link", "Zoé")
    assert page.locator("#sign-out").inner_text() == "Se déconnecter"
    header_fits(page)

    page.click("#toast")  # the toast that says so covers the header on a phone: a tap dismisses it
    page.click("#me-link")
    shown(page, "#profile-name", "Zoé")
    assert digits(page.locator("#profile-chips").inner_text()) == 1000
    profile = page.locator("#app").inner_text()
    # "Parties classées": the profile counts the competitive games (the statistics, every game
    # finished: "Parties terminées"), so not "Parties jouées" beside a game played (issue 33)
    for text in ("Jetons", "Parties classées", "Cotes", "3 joueurs", "non classé", "Changer de nom",
                 "Cote = μ − 3σ\u00a0:"):
        assert text in profile, text
    assert " :" not in profile
    page.fill("#new-name", "Zoé B")
    page.click("#rename-submit")
    shown(page, "#rename-error", "Un nom ne peut changer qu’une fois par semaine")
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    shot(page, "accounts-profile-phone-fr.png")

    page.click("#ranking-link")
    page.wait_for_selector("#ranking[data-players='4']")
    assert page.locator("#ranking-tab-3").inner_text() == "3 joueurs"
    first = page.locator("#ranking tbody tr").first
    assert first.locator(".who").inner_text() == "Robot"
    assert first.locator(".ordinal").inner_text() == "23,5"  # French decimals
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    shot(page, "accounts-ranking-phone-fr.png")
    page.click("#ranking-tab-5")
    shown(page, "#ranking-empty", "Personne n’est encore classé")

    page.click("#sign-out")
    shown(page, "#sign-in", "Se connecter")
    assert page.errors == []
    page.close()


def test_an_accounts_display_options_follow_it_to_another_device(site: Site, browser: Any) -> None:
    """Issue 33: the ⚙ options chosen while signed in are the account's: another browser
    signing in to it gets them (a guest's stay in its browser)."""
    page = open_site(browser, site, 390, 844)
    page.wait_for_selector("#name")
    page.click("#offer-create")
    create_account(page, "Dominique", PASSWORD)
    shown(page, "#me-link", "Dominique")
    page.click("#prefs")
    page.check("#pref-fourColour")
    page.check("input[name=pref-size][value=small]")
    page.click("#prefs-close")
    kept = None
    for _ in range(50):  # (the account's copy is written in the background)
        kept = page.evaluate("async () => (await (await fetch('/api/account/prefs')).json())")
        if kept["fourColour"] and kept["size"] == "small":
            break
        page.wait_for_timeout(100)
    assert kept == {"size": "small", "fourColour": True, "confirm": False, "autoplay": False}
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    other = context.new_page()
    other.set_default_timeout(WAIT_MS)
    other.goto(site.base + "/")
    other.wait_for_function("() => window.tarotReady === true")
    assert other.evaluate("[...document.documentElement.classList]") == []  # a new browser: none
    other.click("#sign-in")
    sign_in(other, "Dominique", PASSWORD)
    other.wait_for_function("() => document.documentElement.classList.contains('four-colour')"
                            " && document.documentElement.classList.contains('cards-small')")
    assert not page.errors
    context.close()
    page.close()
