"""The table on a phone (issue 33): at 360×640, 390×844, 412×915, in landscape 844×390 and on a
1440×900 desktop, at 3, 4 and 5 players, in every phase a player acts in (bidding, the king's call,
the écart, the chelem, the poignée and its trumps, the play, the result, the cancel vote, a
private table's invitation), the page scrolled to its top shows the whole hand and every button
to act; no visible button is under 24×24 px and each legal card shows at least 24×24 px of its
own (WCAG 2.2, 2.5.8); on a phone the felt keeps its place and size from one phase to the next.

One deal per size of table, and at each new phase the page is measured at every screen size
(the viewport resized, not the deal played again). Skipped without playwright or Debian's
chromium (tests/test_e2e_browser.py)."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")

from test_e2e_browser import (  # noqa: E402
    CORNER,
    SHOTS,
    add_bots,
    await_turn,
    create,
    enter,
    new_page,
    play_step,
    play_until,
    seed_deals,
    sit_with_bots,
    tap,
)

PHONES = [(360, 640), (390, 844), (412, 915), (844, 390)]
SIZES = PHONES + [(1440, 900)]
POIGNEE = {3: 13, 4: 10, 5: 8}  # trumps (the Excuse counting) for a simple poignée (R14)

# The page at its top, measured once its layout is done: what lies outside the screen of what
# the player acts with, the visible buttons under 24×24, the legal cards whose 24×24 corner is
# covered by another element, and where the felt is.
MEASURE = """async () => {
  window.scrollTo(0, 0);
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const W = innerWidth, H = innerHeight;
  const name = (el) => `${el.id || el.className} ${el.dataset.card || el.textContent.trim().slice(0, 20)}`;
  const seen = (el) => el.getBoundingClientRect().width > 0 && getComputedStyle(el).visibility === 'visible';
  // (a private table's invitation: what one does before the game; during it, under the hand)
  const acting = [...document.querySelectorAll('#hand .card, #actions button, #actions .card, #next-deal' +
                                               (document.querySelector('#hand') ? '' : ', #invite button'))];
  const outside = acting.filter((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && (r.top < -.5 || r.left < -.5 || r.bottom > H + .5 || r.right > W + .5);
  }).map(name);
  const small = [...document.querySelectorAll('button')].filter((el) => {
    const r = el.getBoundingClientRect();
    return seen(el) && (r.width < 24 || r.height < 24); }).map(name);
  const corner = [[2, 2], [23, 2], [2, 23], [23, 23]];
  const covered = [...document.querySelectorAll('#hand .card.legal')].filter((el) => {
    const r = el.getBoundingClientRect();
    return corner.some(([dx, dy]) => { const at = document.elementFromPoint(r.left + dx, r.top + dy);
      return !at || !el.contains(at); }); }).map(name);
  const felt = document.querySelector('#felt').getBoundingClientRect();
  return {outside, small, covered, felt: [Math.round(felt.top), Math.round(felt.height)],
          wide: document.documentElement.scrollWidth > W}; }"""


# What the player does in each phase: the button (when it can be pressed), else first the card to
# choose (the écart's, the poignée's trumps).
MOVES: dict[str, tuple[str, str | None]] = {
    "bidding": ("button.bid:not([data-bid='pass'])", None), "call": ("button.call", None),
    "ecart": ("#ecart:enabled", "#hand .card.legal:not(.selected)"),
    "chelem": ("button.chelem[data-chelem='false']", None), "poignee": ("button.poignee", None),
    "poignee-pick": ("#poignee-show:enabled", "#poignee-pick .card:not(.selected)"),
    "play": ("#hand .card.legal", None),
}


def phase_of(page: Any) -> str | None:
    """What the player has to do now (None: the robots' turns)."""
    if page.locator("#felt .result.overlay").count():
        return "result"
    for selector, phase in (("button.bid", "bidding"), ("button.call", "call"), ("#ecart", "ecart"),
                            ("button.chelem", "chelem"), ("#poignee-show", "poignee-pick"),
                            ("button.poignee", "poignee"), ("#hand .card.legal", "play")):
        if page.locator(selector).count():
            return phase
    return None


def measured(page: Any, phase: str, felts: dict[tuple[int, int], set[tuple[int, int]]],
             shots: dict[tuple[str, int], str]) -> None:
    """The page at each screen size, in this phase; back to a phone's size after."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        m = page.evaluate(MEASURE)
        where = f"{phase} at {width}×{height}"
        assert not m["outside"], f"{where}: off the screen {m['outside']}"
        assert not m["small"], f"{where}: buttons under 24×24 {m['small']}"
        assert not m["covered"], f"{where}: legal cards showing less than 24×24 {m['covered']}"
        assert not m["wide"], where
        if (width, height) in PHONES:
            felts.setdefault((width, height), set()).add(tuple(m["felt"]))
        if (phase, width) in shots:
            page.screenshot(path=str(SHOTS / shots[(phase, width)]))
    page.set_viewport_size({"width": 390, "height": 844})


@pytest.mark.parametrize(("players", "lang"), [(3, "fr"), (4, "en"), (5, "fr")])
def test_every_phase_fits_every_screen(server: str, browser: Any, players: int, lang: str,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The robots pass, so the player takes (and at five calls a king) and makes the écart; the
    player is dealt a poignée, declares it and picks its trumps; at four the table is private
    (its invitation under the felt)."""
    from tarot.bots.heuristic import HeuristicBot
    from tarot.engine import Bid
    from tarot.engine.cards import EXCUSE_BIT, TRUMPS

    monkeypatch.setattr(HeuristicBot, "bid", lambda self, view: Bid(view.seat, None))
    seed_deals(monkeypatch, "phone",
               lambda deal, n: (deal.hands[0] & (TRUMPS | EXCUSE_BIT)).bit_count() >= POIGNEE[n])
    page = new_page(browser, 390, 844, lang=lang)
    enter(page, server, "Maximilienne")
    if players == 4:
        page.set_checked("input[name=private]", True)
    create(page, players, deals=2, move_time=600)  # a move clock (its bar in the info bar)
    felts: dict[tuple[int, int], set[tuple[int, int]]] = {}
    if players == 4:
        page.wait_for_selector("#invite button")
        measured(page, "invite", {}, {})  # (before the game: the felt has no hand under it yet)
    sit_with_bots(page, players)
    shots = {("call", 390): "table-call-5p-390.png"} if players == 5 else {}
    if players == 4:
        shots = {(phase, width): f"table-{phase}-4p-{width}.png" for phase in ("bidding", "ecart", "play")
                 for width in (390, 1440)}
    seen: list[str] = []
    end = time.monotonic() + 90
    while time.monotonic() < end:
        phase = phase_of(page)
        if phase is None:
            await_turn(page, "#felt .result.overlay", 500)
            continue
        if phase not in seen:
            seen.append(phase)
            measured(page, phase, felts, shots)
        if phase == "result":
            # the count in the page's language: "40,5 points" in French, never "40.5" (issue 33)
            count = page.locator("#result .count").inner_text()
            points = page.evaluate("window.tarot.S.state.last_result.row.points")
            assert points == int(points) or ("," if lang == "fr" else ".") + "5" in count, count
            assert lang != "fr" or "." not in count, count
            break
        done, first = MOVES[phase]
        tap(page.locator(done if first is None or page.locator(done).count() else first).first)
    expected = {"bidding", "ecart", "poignee", "poignee-pick", "play", "result"}
    expected |= {"call"} if players == 5 else set()
    assert expected <= set(seen), seen
    for size, places in felts.items():  # the felt never moved nor changed size on a phone
        assert len(places) == 1, (size, places)
    assert not page.errors, page.errors
    page.close()


def test_the_cancel_vote_fits_every_screen(server: str, browser: Any) -> None:
    """A second person at the table proposes to cancel the game: the first one's answer buttons
    are among its actions, above its hand, at every size."""
    host = new_page(browser, 390, 844, lang="fr")
    enter(host, server, "Alice")
    create(host, 4, deals=1)
    table = host.evaluate("location.hash")
    guest = new_page(browser, 1100, 900)
    enter(guest, server, "Bruno")
    guest.goto(server + "/" + table)
    guest.wait_for_selector(".seat[data-seat='1'] button.sit")
    guest.click(".seat[data-seat='1'] button.sit")
    host.wait_for_selector(".seat[data-seat='2'] button.add-bot")
    add_bots(host, (2, 3))
    guest.wait_for_selector("#propose-cancel")
    guest.on("dialog", lambda dialog: dialog.accept())  # ("Propose to cancel the game?")
    guest.click("#propose-cancel")
    host.wait_for_selector("#actions #cancel-accept")
    measured(host, "cancel vote", {}, {("cancel vote", 390): "table-cancel-vote-4p-390.png"})
    tap(host.locator("#cancel-accept"))
    host.wait_for_selector("#cancelled")
    for page in (host, guest):
        assert not page.errors, page.errors
        page.close()


def test_the_end_of_a_game_comes_first_on_a_phone(server: str, browser: Any) -> None:
    """A game's end (issue 33): first on the screen, the winner's moment, the final ranking with
    each score, the score sheet, then a rematch and the way back to the lobby, all above the
    fold on a phone; the lobby is one tap away."""
    page = new_page(browser, 390, 844, lang="fr")
    enter(page, server, "Zoé")
    create(page, 4, deals=1)
    sit_with_bots(page, 4)
    play_until(page, "#game-end")
    end = page.evaluate("""() => { window.scrollTo(0, 0);
        const box = (s) => document.querySelector(s).getBoundingClientRect();
        return {panel: box('#game-end').top, felt: box('#felt').top, H: innerHeight,
                bottom: Math.max(box('#new-game').bottom, box('#back-to-lobby').bottom)}; }""")
    assert end["panel"] < end["felt"] and end["bottom"] <= end["H"], end  # before the felt, above the fold
    winner = page.locator("#winner").inner_text()
    assert winner.startswith("Bravo") or "gagne" in winner or "égalité" in winner, winner
    ranks = page.locator("#game-end #ranking li").all_inner_texts()
    # each score (a true minus)
    assert len(ranks) == 4 and all(re.search("\xa0: [−0-9]", r) for r in ranks), ranks
    assert page.locator("#game-end #sheet tbody tr").count() == 1
    assert page.locator("#new-game").inner_text() == "Revanche"  # (the host: the same table again)
    page.screenshot(path=str(SHOTS / "game-end-4p-390.png"))
    page.click("#back-to-lobby")
    page.wait_for_selector("[data-action='play-now']")
    assert not page.errors, page.errors
    page.close()


def thumb(page: Any, selector: str) -> None:
    """One touch near the top left corner of ``selector``: the touch screen's own tap, not the
    locator's (which taps again when the page redraws the element under it, as arming a card does)."""
    box = page.locator(selector).bounding_box()
    page.touchscreen.tap(box["x"] + CORNER["x"], box["y"] + CORNER["y"])


def test_display_options_are_kept_and_change_the_hand(server: str, browser: Any) -> None:
    """The header's ⚙ (issue 33): large cards, a four-colour deck, a card played on a touch
    screen only at a second tap, a forced card played by itself; kept across a reload."""
    page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True, reduced_motion="reduce")
    page.set_default_timeout(90_000)
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.add_init_script("localStorage.setItem('tarot.lang', 'fr')")
    page.clock.install()  # the page's own clock: its moments (0.3 s, 0.6 s) passed when the test says
    enter(page, server, "Noémie")
    page.click("#prefs")
    page.wait_for_selector("#prefs-dialog[open]")
    assert page.locator("#prefs-title").inner_text() == "Options d’affichage"
    page.check("input[name=pref-size][value=large]")
    for key in ("fourColour", "confirm", "autoplay"):
        page.check(f"#pref-{key}")
    page.click("#prefs-close")
    page.reload()  # kept in this browser
    page.wait_for_function("() => window.tarotReady === true")
    assert page.evaluate("[...document.documentElement.classList].sort()") == ["cards-large", "four-colour"]
    create(page, 4, deals=1)
    sit_with_bots(page, 4)
    colours = page.evaluate("""() => Object.fromEntries(
        [...document.querySelectorAll('#hand .card:not(.trump)')]
        .map((el) => [el.dataset.card.slice(-1), getComputedStyle(el).color]))""")
    four = {"D": "rgb(29, 78, 216)", "C": "rgb(21, 128, 61)", "H": "rgb(192, 38, 45)", "S": "rgb(27, 27, 27)"}
    assert all(four[suit] == colour for suit, colour in colours.items()), colours
    width = page.evaluate("document.querySelector('#hand .card').getBoundingClientRect().width")
    assert width > 48, width  # large cards (44 px by default)
    confirmed = forced = 0
    seen: set[str] = set()
    end = time.monotonic() + 120
    while not page.locator("#game-end").count() and time.monotonic() < end:
        legal = page.locator("#hand .card.legal[data-action='play']")
        if not legal.count():
            if not play_step(page, seen, {}, take="pass"):
                await_turn(page, "#game-end", 500)
            continue
        # read in one look: a forced card goes by itself 0.6 s after the turn comes
        cards, playable, code, offer = page.evaluate("""() => {
            const legal = document.querySelectorAll("#hand .card.legal[data-action='play']");
            return [document.querySelectorAll('#hand .card').length, legal.length,
                    legal[0] && legal[0].dataset.card, !!document.querySelector('button.poignee')]; }""")
        if playable == 0:
            continue
        if confirmed >= 2 and playable > 1:
            thumb(page, f"#hand .card[data-card='{code}']")
            page.wait_for_selector(f"#hand .card[data-card='{code}']", state="detached")
            continue
        if playable == 1 and not offer:
            # never tapped: it goes by itself
            page.clock.run_for(700)
            page.wait_for_function("(n) => document.querySelectorAll('#hand .card').length < n",
                                   arg=cards, timeout=5000)
            forced += 1
            continue
        thumb(page, f"#hand .card[data-card='{code}']")
        page.wait_for_selector(f"#hand .card.armed[data-card='{code}']")  # lifted, not played
        assert page.locator("#hand .card").count() == cards
        page.clock.run_for(350)  # a second tap, not the first one's echo (within 0.3 s: ignored)
        thumb(page, f"#hand .card[data-card='{code}']")
        page.wait_for_selector(f"#hand .card[data-card='{code}']", state="detached")
        confirmed += 1
        if confirmed == 2:  # seen twice: the rest of the deal at one tap a card (read at each tap)
            page.evaluate("""() => localStorage.setItem('tarot.prefs',
                JSON.stringify({...JSON.parse(localStorage.getItem('tarot.prefs')), confirm: false}))""")
    assert page.locator("#game-end").count()
    assert confirmed == 2 and forced, (confirmed, forced)  # (the last card of a deal is always forced)
    assert not page.errors, page.errors
    page.close()


def test_the_phone_lobby_has_thumb_sized_targets(server: str, browser: Any) -> None:
    """Issue 33, item 3: in the phone's lobby every visible button, link, field and list is at
    least 44 px tall (a checkbox 24 px, its label's row 44 px)."""
    other = new_page(browser, 390, 844)  # an open table in the lobby's list, with its button
    enter(other, server, "Yann")
    create(other, 4)
    page = new_page(browser, 390, 844, lang="fr")
    enter(page, server, "Zoé")
    page.wait_for_selector(".tables a[href^='#/t/'] button")
    small = page.evaluate("""() => [...document.querySelectorAll('button, a, input, select')].filter((el) => {
        const r = el.getBoundingClientRect();
        // (a link around a button: the button is the target)
        if (!r.width || getComputedStyle(el).visibility !== 'visible') return false;
        if (el.querySelector('button')) return false;
        return el.type === 'checkbox' ? r.height < 24 : r.height < 44; })
        .map((el) => el.id || el.textContent.trim().slice(0, 20))""")
    assert not small, small
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    page.close()
    other.close()
