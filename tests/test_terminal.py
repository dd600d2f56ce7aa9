"""``tarot play``: the terminal game driven by scripted input, in-process and through the real command."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console

from tarot.bots import RandomBot
from tarot.cli.i18n import MESSAGES, Lang, number, signed
from tarot.cli.terminal import (
    Invalid,
    TerminalGame,
    default_poignee,
    ecart_listing,
    normalize,
    parse_card,
    pick_cards,
)
from tarot.cli.terminal_render import card_label, card_name
from tarot.engine import (
    CARDS,
    Action,
    Bid,
    Card,
    Contract,
    Deal,
    Ecart,
    Game,
    IllegalAction,
    Play,
    Poignee,
    View,
    load,
    variant,
)

TAROT = Path(sys.executable).parent / "tarot"
Responder = Callable[[TerminalGame], str]


class Passer(RandomBot):
    """Passes every bid; random otherwise (so seat 0 gets the contract it bids)."""

    def act(self, view: View) -> Action:
        return Bid(view.seat, None) if view.phase == "bidding" else super().act(view)


class Prise(RandomBot):
    """Bids prise when it may (else passes); random otherwise."""

    def act(self, view: View) -> Action:
        if view.phase == "bidding":
            return Bid(view.seat, Contract.PRISE if Bid(view.seat, Contract.PRISE) in view.legal else None)
        return super().act(view)


class Script:
    """The input: ``respond(game)`` gives each line; EOF after ``limit`` lines (no endless loop)."""

    def __init__(self, respond: Responder, limit: int = 3000) -> None:
        self.respond = respond
        self.limit = limit
        self.lines: list[str] = []
        self.tg: TerminalGame | None = None

    def __call__(self) -> str:
        if len(self.lines) >= self.limit:
            raise EOFError
        assert self.tg is not None
        line = self.respond(self.tg)
        self.lines.append(line)
        return line


def start(respond: Responder | list[str], *, players: int = 4, deals: int = 1, seed: int = 1,
          lang: Lang = Lang.EN, bots: type[RandomBot] | None = None) -> tuple[TerminalGame, Console, Script]:
    """A game whose bots are random (or ``bots``), read from ``respond`` (a list: those lines, then EOF)."""
    if isinstance(respond, list):
        lines = iter(respond)

        def from_list(tg: TerminalGame) -> str:
            try:
                return next(lines)
            except StopIteration:
                raise EOFError from None

        respond = from_list
    console = Console(file=io.StringIO(), record=True, width=110, color_system=None)
    script = Script(respond)
    tg = TerminalGame(console, script, lang=lang, players=players, deals=deals, bots="random", seed=seed,
                      echo=True)
    script.tg = tg
    if bots is not None:
        tg.bots = {seat: bots(seed=seat) for seat in range(1, players)}
    return tg, console, script


def output(console: Console) -> str:
    return console.export_text(clear=False)


def first(tg: TerminalGame) -> str:
    """The first listed choice; at the écart, the first listed cards (always a legal écart)."""
    opts = view0(tg).ecart_options
    return "1" if opts is None else " ".join(str(i) for i in range(1, opts.size + 1))


def poignee_seed(players: int) -> int:
    """The first seed whose seat 0 holds enough trumps for a simple poignée (R14)."""
    threshold = variant(players).poignee_thresholds[0]
    return next(s for s in range(5000)
                if sum(1 for c in Game(players, 1, players - 1, seed=s).view(0).hand
                       if c.is_trump or c.is_excuse) >= threshold)


def view0(tg: TerminalGame) -> View:
    assert tg.game.deal is not None
    return tg.game.deal.view(0)


# --- whole games -----------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_first_choice_every_time_plays_the_whole_game(players: int) -> None:
    tg, console, _ = start(first, players=players, deals=2, seed=players)
    assert tg.run() == 0
    out = output(console)
    assert tg.game.is_over and tg.game.played == 2
    assert "Final ranking" in out and "Score sheet" in out and "Result of the deal" in out
    assert out.count("Deal 2 of 2") >= 1
    for seat in range(players):
        assert ("You" if seat == 0 else f"Seat {seat}") in out.split("Final ranking")[1]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_take_a_garde_and_make_an_ecart(players: int) -> None:
    """Seat 0 bids garde by name, calls a king at 5, is refused illegal écarts, then makes one."""
    size = variant(players).chien_size
    tried: list[str] = []

    def respond(tg: TerminalGame) -> str:
        view = view0(tg)
        if view.phase == "bidding":
            return "garde"
        if view.phase == "call":
            return "kh"
        if view.phase == "ecart":
            opts = view.ecart_options
            assert opts is not None
            listing = ecart_listing(opts)
            forbidden = [c for c in view.hand if c not in listing]
            attempts = ["1 2", " ".join(["1"] * size), " ".join(str(i) for i in range(1, size)) + " 99"]
            if forbidden:  # a king, an oudler, a trump when none is needed: the engine says why
                attempts.append(" ".join([*(str(c) for c in listing[: size - 1]), str(forbidden[0]).lower()]))
            attempts.append(" ".join(str(i) for i in range(1, size + 1)))
            line = attempts[len(tried)]
            tried.append(line)
            return line
        if view.phase == "announce":
            if "maybe" in tried:
                return "no"
            tried.append("maybe")
            return "maybe"
        return "1"

    tg, console, _ = start(respond, players=players, seed=11, bots=Passer)
    assert tg.run() == 0
    out = output(console)
    row = tg.game.rows[0]
    assert row.score is not None and row.score.taker == 0 and row.score.contract is Contract.GARDE
    assert "You: Garde" in out and "You take: Garde." in out
    assert "Type exactly" in out and "The same card is typed twice" in out and "There is no choice" in out
    if any(not t.replace(" ", "").isdigit() for t in tried):
        assert "Not allowed: R11" in out
    assert "Your écart:" in out
    assert "Answer 1 (no) or 2 (yes)" in out
    if players == 5:
        assert "You call K♥" in out
    assert "Final ranking" in out


def test_poignee_is_proposed_and_shown() -> None:
    """A hand with enough trumps: the poignée question, a refused selection, the proposal accepted."""
    players = 5
    seed = poignee_seed(players)
    answers = iter(["1", "2", "T1", ""])

    def respond(tg: TerminalGame) -> str:
        return next(answers, "1")

    tg, console, _ = start(respond, players=players, seed=seed, bots=Prise)
    assert tg.run() == 0
    out = output(console)
    assert "You may show a poignée" in out and "Proposed (" in out
    assert "Type exactly" in out
    assert "You show a poignée (simple)" in out
    assert tg.game.rows[0].score is not None
    assert any(p.name_text == "simple" for p in tg.game.rows[0].score.poignees)


def test_n_at_the_poignee_cards_declines_it() -> None:
    """« or n to show none »: the poignée is declined (R14 lets a player keep it hidden), the
    question is not asked again, and the game goes on to the end with no poignée scored."""
    players = 5
    seed = poignee_seed(players)
    answers = iter(["1", "2", "n"])

    def respond(tg: TerminalGame) -> str:
        return next(answers, "1")

    tg, console, _ = start(respond, players=players, seed=seed, bots=Prise)
    assert tg.run() == 0
    out = output(console)
    assert out.count("You may show a poignée") == 1 and "You show a poignée" not in out
    assert out.count("Poignée:") == 1  # not asked a second time after « n »
    score = tg.game.rows[0].score
    assert score is not None and not any(p.seat == 0 for p in score.poignees)


def test_a_deal_annulled_as_dealt_is_headed_with_its_number() -> None:
    """R6: a petit sec is annulled as it is dealt; the sheet shows it under the deal's number
    (1), then the redeal under the same number."""
    seed = next(s for s in range(100_000) if Game(3, 2, 2, seed=s).rows)
    tg, console, _ = start(first, players=3, deals=2, seed=seed)
    assert tg.run() == 0
    out = output(console)
    headers = re.findall(r"Deal \d of 2 · dealer: [^\n─]*", out)
    assert [h.split(" · ")[0] for h in headers] == ["Deal 1 of 2", "Deal 1 of 2", "Deal 2 of 2"]
    assert "(redeal)" in headers[1] and "(redeal)" not in headers[0] + headers[2]


# --- bad input -------------------------------------------------------------------


def test_invalid_input_gets_a_message_and_a_new_prompt() -> None:
    """Garbage, out-of-range numbers, empty lines, unknown and illegal cards: a message each time."""
    counts: dict[tuple[int, ...], int] = {}
    illegal_seen: list[str] = []
    bad = ["blah", "99", "", "zz9", "0"]

    def respond(tg: TerminalGame) -> str:
        view = view0(tg)
        key = (len(tg.results), len(view.bids), len(view.tricks), len(view.trick))
        n = counts[key] = counts.get(key, 0) + 1
        if view.phase == "play" and n == 1:
            legal = {a.card for a in view.legal if isinstance(a, Play)}
            illegal = [c for c in view.hand if c not in legal]
            if illegal:
                illegal_seen.append(str(illegal[0]))
                return str(illegal[0]).lower()
        return bad[n - 1] if n <= len(bad) else first(tg)

    tg, console, _ = start(respond, players=4, deals=1, seed=7)
    assert tg.run() == 0
    out = output(console)
    assert "Not understood: 'blah'" in out
    assert "There is no choice with that number: choose from 1 to" in out
    assert "Type a number from 1 to" in out
    assert "'zz9' is not a card" in out
    if illegal_seen:
        assert re.search(r"Not allowed: R1[5]: must", out)
    assert "Final ranking" in out and "Traceback" not in out


def test_commands_at_a_prompt() -> None:
    lines = ["?", "help", "sheet", "hand", "last", "1"]
    state = {"i": 0, "tricks_seen": False}

    def respond(tg: TerminalGame) -> str:
        view = view0(tg)
        if view.phase == "play" and view.tricks and not state["tricks_seen"]:
            state["tricks_seen"] = True
            return "last"
        if state["i"] < len(lines):
            state["i"] += 1
            return lines[state["i"] - 1]
        return "1"

    tg, console, _ = start(respond, seed=3)
    assert tg.run() == 0
    out = output(console)
    assert "Commands: ? help" in out
    assert "No deal has finished yet." in out
    assert "No trick has been played yet" in out
    assert "Previous trick: " in out and "wins the trick" in out
    assert out.count("Your hand (18 cards)") >= 2


def test_end_of_input_and_ctrl_c_and_quit_end_cleanly() -> None:
    tg, console, _ = start(["1", "1"])
    assert tg.run() == 1
    assert output(console).rstrip().endswith("Game interrupted. Goodbye!")

    def interrupt(tg: TerminalGame) -> str:
        raise KeyboardInterrupt

    tg, console, _ = start(interrupt)
    assert tg.run() == 1
    assert "Game interrupted. Goodbye!" in output(console)

    tg, console, _ = start(["1", "QUIT"])
    assert tg.run() == 0
    assert output(console).rstrip().endswith("Goodbye!")


def test_a_failing_bot_is_replaced_by_a_legal_action() -> None:
    class Broken(RandomBot):
        def act(self, view: View) -> Action:
            raise RuntimeError("bug")

    def respond(tg: TerminalGame) -> str:  # seat 0 takes: the failing bots fall back to passing
        return "prise" if view0(tg).phase == "bidding" else first(tg)

    tg, console, _ = start(respond, seed=2, bots=Broken)
    assert tg.run() == 0
    assert "bot failed (RuntimeError)" in output(console)


# --- hidden information --------------------------------------------------------------

_TOKEN = re.compile(r"(?<![\w])(?:10|[1-9JNQK])[♠♥♦♣]|(?<![\w])T\d{1,2}(?!\d)|★")
_BY_LABEL = {card_label(c): c for c in CARDS}


def shown_cards(text: str) -> set[Card]:
    return {_BY_LABEL[t] for t in _TOKEN.findall(text) if t in _BY_LABEL}


@pytest.mark.parametrize("players", [3, 4, 5])
def test_no_card_of_another_hand_is_ever_shown(players: int) -> None:
    """At every prompt, the output of the current deal shows no card still in a bot's hand, except
    the public ones: the called card, a shown chien, poignées."""
    checked = {"prompts": 0}

    def respond(tg: TerminalGame) -> str:
        deal = tg.game.deal
        assert deal is not None
        text = output(tg.console)
        text = text[text.rindex("· dealer:"):]
        view = deal.view(0)
        public = {c for cards in view.poignees.values() for c in cards} | set(view.chien or ())
        if view.called is not None:
            public.add(view.called)
        hidden = {c for seat in range(1, players) for c in deal.hand(seat)} - public
        leaked = shown_cards(text) & hidden
        assert not leaked, f"shown: {sorted(map(str, leaked))}"
        checked["prompts"] += 1
        return "1" if checked["prompts"] % 3 else "hand"

    for seed in (1, 2):
        tg, _, _ = start(respond, players=players, deals=2, seed=seed)
        assert tg.run() == 0
    assert checked["prompts"] > 30


def test_hand_lines_hold_only_seat_zero_cards() -> None:
    """Every printed hand is seat 0's hand of that deal (checked against the deal records)."""
    tg, console, _ = start(first, players=4, deals=3, seed=9)
    assert tg.run() == 0
    deals = output(console).split("· dealer:")[1:]
    assert len(deals) == len(tg.game.records) >= 3
    for text, record in zip(deals, tg.game.records, strict=True):
        blocks = re.findall(r"Your hand \(\d+ cards?\)\n((?: .*\n)+)", text)
        assert blocks or record.actions == []  # a deal annulled at once is not played
        for block in blocks:
            assert shown_cards(block) <= set(record.hands[0])


# --- languages and the real command ------------------------------------------------------


def test_french() -> None:
    tg, console, _ = start(first, lang=Lang.FR, seed=4)
    assert tg.run() == 0
    out = output(console)
    assert "Classement final" in out and "Votre carte :" in out and "Feuille de marque" in out
    assert "Final ranking" not in out


# French as the site writes it (issue 33): R, D, C, V for the court cards, a true minus and a
# decimal comma; the codes typed (KH, T21, EX) and the records stay as docs/rules.md has them.

_FRENCH_TOKEN = re.compile(r"(?<![\w])(?:10|[1-9VCDR])[♠♥♦♣]|(?<![\w])T\d{1,2}(?!\d)|★")
_BY_FRENCH_LABEL = {card_label(c, Lang.FR): c for c in CARDS}
_ENGLISH_COURT = re.compile(r"(?<![\w])[JNQK][♠♥♦♣]")
_HYPHEN_MINUS = re.compile(r"(?<![\w-])-\d")


def test_french_card_labels_and_names() -> None:
    cards = {code: Card.parse(code) for code in ("KH", "QS", "ND", "JC", "1S", "10H", "T1", "T21", "EX")}
    assert [card_label(c, Lang.FR) for c in cards.values()] == [
        "R♥", "D♠", "C♦", "V♣", "1♠", "10♥", "T1", "T21", "★"]
    assert [card_label(c) for c in cards.values()] == ["K♥", "Q♠", "N♦", "J♣", "1♠", "10♥", "T1", "T21", "★"]
    assert [card_name(c, Lang.FR) for c in cards.values()] == [
        "roi de cœur", "dame de pique", "cavalier de carreau", "valet de trèfle", "as de pique",
        "10 de cœur", "Petit (atout 1)", "atout 21", "Excuse"]
    assert len(_BY_FRENCH_LABEL) == 78  # every card has its own label


def test_french_numbers() -> None:
    """The site's figures (static/js/core/i18n.js): a true minus (U+2212) and, in French, a decimal
    comma; no thousands separator. English keeps the hyphen and the point."""
    assert [signed(x, Lang.FR) for x in (-106, 318, 0, -1348)] == ["\u2212106", "+318", "0", "\u22121348"]
    assert [number(x, Lang.FR) for x in (-31.5, 40.5, 49)] == ["\u221231,5", "40,5", "49"]
    assert signed(-106, Lang.EN) == signed(-106) == "-106" and number(40.5, Lang.EN) == "40.5"


def test_french_reading_keeps_the_codes_and_reads_the_display() -> None:
    kh = Card.parse("KH")
    for token in ("KH", "kh", "K♥", "R♥", "rh", " RH "):
        assert parse_card(token, Lang.FR) == kh, token
    typed = ("D♠", "ds", "C♦", "cd", "V♣", "vc", "DC", "10S", "1C", "T21", "t1", "EX", "★", "NC", "QS", "JD")
    assert [str(parse_card(t, Lang.FR)) for t in typed] == [
        "QS", "QS", "ND", "ND", "JC", "JC", "QC", "10S", "1C", "T21", "T1", "EX", "EX", "NC", "QS", "JD"]
    with pytest.raises(Invalid):
        parse_card("R♥")  # English: no French letters (R is no rank of the codes)
    with pytest.raises(Invalid):
        parse_card("RX", Lang.FR)
    listing = [Card.parse(c) for c in ("KS", "QH", "4H")]
    assert pick_cards("R♠ dh", listing, 2, Lang.FR) == listing[:2]


def _french_game(players: int = 4, deals: int = 2, seed: int = 4) -> str:
    tg, console, _ = start(first, players=players, deals=deals, seed=seed, lang=Lang.FR)
    assert tg.run() == 0
    assert any(row.score is not None for row in tg.game.rows)
    return output(console)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_french_game_shows_french_ranks_and_numbers(players: int) -> None:
    out = _french_game(players, seed=players)
    assert not _ENGLISH_COURT.findall(out), _ENGLISH_COURT.findall(out)[:5]
    assert re.search(r"(?<![\w])[RDCV][♠♥♦♣]", out)  # some court card was shown, in French
    assert "\u2212" in out and not _HYPHEN_MINUS.search(out), _HYPHEN_MINUS.findall(out)[:5]
    assert "R♥ (roi de cœur)" in out.replace("\n", " ") or "KH pour R♥" in out  # the help maps KH to R♥
    total = out.split("Classement final")[1]
    assert re.search(r"\u2212\d+", total)  # someone lost: the ranking's totals with a true minus


def test_a_french_game_writes_half_points_with_a_comma() -> None:
    """A deal whose count has a half point: ``40,5`` in the French tables, ``40.5`` in English."""
    for seed in range(40):
        tg, console, _ = start(first, players=3, deals=1, seed=seed, lang=Lang.FR)
        assert tg.run() == 0
        score = tg.game.rows[0].score
        if score is not None and score.points != int(score.points):
            out = output(console)
            shown = f"{int(score.points)},5"
            assert shown in out and f"{int(score.points)}.5" not in out
            return
    pytest.fail("no deal with a half point in 40 seeds")


def test_french_output_has_no_english() -> None:
    """Every prompt, command and message of a French game is in French (the commands typed in
    English still work)."""
    lines = ["?", "help", "feuille", "main", "dernier", "nonsense", "99", "zz9", "1"]
    state = {"i": 0, "illegal": False, "last": False}

    def respond(tg: TerminalGame) -> str:
        view = view0(tg)
        if view.phase == "play":
            if view.tricks and not state["last"]:
                state["last"] = True
                return "last"
            legal = {a.card for a in view.legal if isinstance(a, Play)}
            illegal = [c for c in view.hand if c not in legal]
            if illegal and not state["illegal"]:
                state["illegal"] = True
                return str(illegal[0])
        if state["i"] < len(lines):
            state["i"] += 1
            return lines[state["i"] - 1]
        return first(tg)

    tg, console, _ = start(respond, seed=7, lang=Lang.FR)
    assert tg.run() == 0
    out = output(console)
    assert "Interdit : vous devez" in out and "(R15)" in out  # the refusal in the site's French words
    assert "Aucune donne n'est encore terminée" in out and "Pli précédent" in out
    for english in ("Seat", "You ", "Trick", "Type ", "Not allowed", "Deal ", "must", "Score sheet",
                    "wins the trick", "Your ", "hand", "Final ranking", "Not understood", "is not a card",
                    "Commands"):
        assert english not in out, english


def test_a_french_refusal_names_the_card() -> None:
    """A card that is not in the hand, typed by its code: refused in French, the card as shown and
    named (R♥ (roi de cœur)); the code is still read (the next line plays)."""
    typed: list[str] = []

    def respond(tg: TerminalGame) -> str:
        view = view0(tg)
        if view.phase == "play" and not typed:
            absent = next(c for c in CARDS if c not in view.hand and not c.is_trump and not c.is_excuse
                          and c.rank == 14)
            typed.append(str(absent))
            return str(absent)
        return first(tg)

    tg, console, _ = start(respond, seed=3, lang=Lang.FR)
    assert tg.run() == 0
    card = Card.parse(typed[0])
    shown = f"{card_label(card, Lang.FR)} ({card_name(card, Lang.FR)})"
    assert f"Interdit : {shown} n'est pas dans votre main (R15)" in output(console)


def test_french_refusals_in_the_site_words() -> None:
    """Every reason the engine gives (``IllegalAction.why``) in French, its card shown and named;
    a reason without French words keeps the engine's own."""
    tg, _, _ = start([], lang=Lang.FR)
    args = {"card": "KS", "suit": "H", "bid": "garde_sans", "count": "6", "counts": "10, 13, 15"}
    assert tg._reason(IllegalAction("R15", "must follow suit (hearts)", "must_follow", args)) == \
        "vous devez fournir à cœur (R15)"
    assert tg._reason(IllegalAction("R11", "no king", "ecart_king", args)) == \
        "pas de roi à l'écart : R♠ (roi de pique) (R11)"
    assert tg._reason(IllegalAction("R7", "too low", "bid_too_low", args)) == \
        "il faut annoncer plus haut que Garde sans (R7)"
    assert tg._reason(IllegalAction("R1", "something new", "new_reason", {})) == "R1: something new"
    english, _, _ = start([], lang=Lang.EN)
    assert english._reason(IllegalAction("R15", "must follow suit (hearts)", "must_follow", args)) == \
        "R15: must follow suit (hearts)"


@pytest.mark.parametrize("how", ["code", "display"])
def test_typed_codes_and_the_display_play_in_french(how: str) -> None:
    """In French the player types the codes (KH, 10S, T21, EX) as in English, or the card as shown
    (R♥): the card typed is the card played."""
    played: list[Card] = []

    def respond(tg: TerminalGame) -> str:
        view = view0(tg)
        if view.phase == "play":
            legal = sorted(a.card for a in view.legal if isinstance(a, Play))
            card = next((c for c in legal if c.suit is not None and c.rank >= 11), legal[0])
            played.append(card)
            return str(card) if how == "code" else card_label(card, Lang.FR)
        return first(tg)

    tg, console, _ = start(respond, seed=5, lang=Lang.FR, deals=1)
    assert tg.run() == 0
    assert len(played) >= 10
    record = tg.game.records[-1]
    mine = [a.card for a in record.actions if isinstance(a, Play) and a.seat == 0]
    assert mine == played
    out = output(console)
    assert "n'est pas une carte" not in out and "Je n'ai pas compris" not in out


def test_records_are_the_same_in_french_and_english() -> None:
    """The display is translated, not the game: the same seed and the same lines give the same
    records (card codes, plain numbers) in both languages."""
    records = {}
    for lang in (Lang.EN, Lang.FR):
        tg, _, _ = start(first, players=4, deals=2, seed=6, lang=lang)
        assert tg.run() == 0
        records[lang] = [r.to_json() for r in tg.game.records]
    assert records[Lang.FR] == records[Lang.EN]
    assert "\u2212" not in "".join(records[Lang.FR]) and "R♥" not in "".join(records[Lang.FR])


def test_no_card_of_another_hand_is_shown_in_french() -> None:
    """The hidden-information check of ``test_no_card_of_another_hand_is_ever_shown``, on the
    French labels."""
    checked = {"prompts": 0}

    def respond(tg: TerminalGame) -> str:
        deal = tg.game.deal
        assert deal is not None
        text = output(tg.console)
        text = text[text.rindex("· donneur :"):]
        view = deal.view(0)
        public = {c for cards in view.poignees.values() for c in cards} | set(view.chien or ())
        if view.called is not None:
            public.add(view.called)
        hidden = {c for seat in range(1, 5) for c in deal.hand(seat)} - public
        shown = {_BY_FRENCH_LABEL[t] for t in _FRENCH_TOKEN.findall(text) if t in _BY_FRENCH_LABEL}
        assert not shown & hidden
        checked["prompts"] += 1
        return "1" if checked["prompts"] % 3 else "main"

    tg, _, _ = start(respond, players=5, deals=1, seed=2, lang=Lang.FR)
    assert tg.run() == 0
    assert checked["prompts"] > 10


def test_every_message_exists_in_both_languages() -> None:
    assert set(MESSAGES[Lang.FR]) == set(MESSAGES[Lang.EN])


def run_tarot(*args: str, stdin: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "TAROT_DEBUG")}
    path = os.pathsep.join(p for p in (str(Path(__file__).parent), env.get("PYTHONPATH")) if p)  # plug-ins
    env |= {"LANG": "C.UTF-8", "COLUMNS": "100", "PYTHONPATH": path}
    return subprocess.run([str(TAROT), "play", *args], input=stdin, capture_output=True, text=True,
                          timeout=timeout, env=env)


@pytest.mark.parametrize("lang, ranking", [("en", "Final ranking"), ("fr", "Classement final")])
def test_the_command_plays_a_game_from_stdin(lang: str, ranking: str) -> None:
    bad = "nonsense\n42\n\n"
    done = run_tarot("--players", "3", "--bots", "heuristic", "--deals", "1", "--seed", "5", "--lang", lang,
                     stdin=bad + "1\n" * 400)
    assert done.returncode == 0, done.stderr
    assert ranking in done.stdout
    assert "Traceback" not in done.stdout + done.stderr
    assert done.stdout.count("1) ") > 10


def test_the_command_saves_the_game_for_review(tmp_path: Path) -> None:
    """``--out``: the deals played, a game record that ``tarot replay`` and ``tarot review`` read."""
    out = tmp_path / "game.json"
    done = run_tarot("--players", "3", "--bots", "heuristic", "--deals", "2", "--seed", "5", "--lang", "en",
                     "--out", str(out), stdin="1\n" * 800)
    assert done.returncode == 0, done.stderr
    records = load(out.read_text())
    assert isinstance(records, list) and len(records) >= 2
    assert all(r.replay().is_over for r in records)
    reviewed = subprocess.run([str(TAROT), "review", "--json", "--playouts", "300", "--seat", "0", str(out)],
                              capture_output=True, text=True, timeout=120)
    assert reviewed.returncode == 0, reviewed.stderr
    assert len(reviewed.stdout.splitlines()) == len(records)


def test_the_search_bots_on_a_fixed_budget_play_the_same_game_again() -> None:
    """``--playouts``: the robots' cards depend on the seed only, not on the machine's load."""
    args = ("--players", "3", "--bots", "search", "--playouts", "20", "--deals", "1", "--seed", "5",
            "--lang", "en")
    first, again = (run_tarot(*args, stdin="1\n" * 400) for _ in range(2))
    assert first.returncode == again.returncode == 0, first.stderr
    assert first.stdout == again.stdout and "Final ranking" in first.stdout


def test_the_command_ends_cleanly_at_end_of_input() -> None:
    done = run_tarot("--players", "5", "--bots", "random", "--deals", "2", "--seed", "1", "--lang", "en",
                     stdin="1\n1\nxyz\n")
    assert done.returncode == 1
    assert done.stdout.rstrip().endswith("Game interrupted. Goodbye!")
    assert "Traceback" not in done.stdout + done.stderr and done.stderr == ""


def test_the_command_refuses_bad_options() -> None:
    for args in (["--players", "6"], ["--bots", "nobody"], ["--deals", "0"], ["--lang", "de"],
                 ["--bots", "search", "--think", "0"], ["--bots", "search", "--playouts", "0"],
                 ["--bots", "arena_plugins:BrokenBot"],
                 ["--bots", "arena_plugins:Duck", "--think", "0.1"],
                 ["--bots", "boom_plugin:Bot", "--think", "0.1"]):
        done = run_tarot(*args, stdin="")
        assert done.returncode == 2, args
        assert "Traceback" not in done.stderr and "Usage" in done.stderr


# --- input reading helpers -------------------------------------------------------------------


def test_reading_helpers() -> None:
    assert normalize(" Garde-Sans ") == "garde_sans" and normalize("garde  contre") == "garde_contre"
    assert normalize("Passé") == "passe"
    assert [str(parse_card(t)) for t in ("kh", "K♥", "10s", "t21", "ex", "★", " nc ")] == [
        "KH", "KH", "10S", "T21", "EX", "EX", "NC"]
    listing = [Card.parse(c) for c in ("2S", "3S", "4H")]
    assert pick_cards("1, 3", listing, 2) == [listing[0], listing[2]]
    assert pick_cards("2s 4h", listing, 2) == [listing[0], listing[2]]


def test_the_first_listed_ecart_cards_are_always_legal() -> None:
    for seed in range(60):
        deal = Deal.new(3, 2, seed=seed)
        if deal.is_over:
            continue
        deal.apply(Bid(0, Contract.GARDE))
        deal.apply(Bid(1, None))
        deal.apply(Bid(2, None))
        opts = deal.ecart_options()
        assert opts is not None
        deal.apply(Ecart(0, ecart_listing(opts)[: opts.size]))


def test_default_poignee_is_legal() -> None:
    for seed in range(3000):
        deal = Deal.new(5, 4, seed=seed)
        if deal.is_over:
            continue
        for seat in range(5):
            deal.apply(Bid(seat, Contract.GARDE_SANS if seat == 1 else None))
        deal.apply(deal.legal_actions()[0])  # the call
        deal.apply(deal.legal_actions()[1])  # no chelem
        opts = deal.poignee_options()
        if opts is None:
            continue
        for _, count in opts.sizes:
            assert deal.is_legal(Poignee(opts.seat, default_poignee(opts, count)))


@pytest.mark.parametrize(("lang", "word", "expert"),
                         [(Lang.EN, "hint", "Expert: "), (Lang.FR, "conseil", "Expert : ")])
def test_hint_says_what_the_expert_would_play_and_keeps_the_turn(lang: Lang, word: str, expert: str) -> None:
    """At any prompt, ``hint`` (``conseil``) says in one line what the expert would do, from the
    player's view (``tarot.bots.advice``); the prompt is asked again, the turn still the player's.
    Asked at the bidding and at the first card."""
    asked: list[str] = []

    def respond(tg: TerminalGame) -> str:
        view = view0(tg)
        if view.phase not in asked and view.phase in ("bidding", "play"):
            asked.append(view.phase)
            return word
        return first(tg)

    tg, console, _ = start(respond, seed=3, lang=lang)
    tg.hint_think = 0.05
    console.width = 1000  # (each advice on one line of the transcript)
    assert tg.run() == 0
    out = output(console)
    assert asked == ["bidding", "play"]
    lines = [line for line in out.splitlines() if line.startswith(expert)]
    assert len(lines) == 2, out
    bid, card = lines
    if lang is Lang.EN:
        assert "the best bid over" in bid or "club player's rules" in bid, bid
        assert any(w in card for w in ("the best of your cards over", "the only possible move",
                                       "club player's rules")), card
    else:
        assert "la meilleure enchère sur" in bid or "règles du joueur de club" in bid, bid
        assert any(w in card for w in ("la meilleure de vos cartes sur", "le seul coup possible",
                                       "règles du joueur de club")), card
    assert bid.rstrip().endswith(".") and card.rstrip().endswith(".")


def test_the_hint_after_a_declined_poignee_is_about_the_card_only() -> None:
    """The poignée declined (« 1 », no), the card's prompt follows: its hint advises a card and
    says nothing of the poignée, a question already answered (the engine's view still offers it
    until the first card is played)."""
    players = 5
    seed = poignee_seed(players)
    answers = iter(["1", "1", "hint"])  # pass; no poignée; at the card's prompt, the hint

    def respond(tg: TerminalGame) -> str:
        return next(answers, "1")

    tg, console, _ = start(respond, players=players, seed=seed, bots=Prise)
    tg.hint_think = 0.5  # enough deals for the poignée's own figures (it was advised on them)
    console.width = 1000
    assert tg.run() == 0
    out = output(console)
    hints = [line for line in out.splitlines() if line.startswith("Expert: ")]
    assert len(hints) == 1, out
    assert "poignée" not in hints[0], hints[0]
