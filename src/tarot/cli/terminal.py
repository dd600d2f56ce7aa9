"""``tarot play``: one person (seat 0) against bots in the terminal, for a whole game.

The game loop takes a line reader and a rich Console so tests can drive it in-process; the
command reads stdin. Everything shown comes from seat 0's view (and each finished deal's
result), so another seat's hand is never printed. Bad input gets a message and a new prompt;
end of input and Ctrl-C end the game with a goodbye line (exit status 1), ``quit`` with 0.
"""

from __future__ import annotations

import sys
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Final, TypeVar

import typer
from rich.console import Console
from rich.text import Text

from tarot.bots import Bot, build_bot
from tarot.bots.advice import advise
from tarot.engine import (
    EXCUSE,
    Action,
    Bid,
    Call,
    Card,
    Chelem,
    Contract,
    Deal,
    DealResult,
    Ecart,
    EcartOptions,
    Game,
    IllegalAction,
    Play,
    Poignee,
    PoigneeOptions,
    View,
    dump_game,
    sort_for_display,
    variant,
)

from .i18n import WHY_FR, Lang, default_lang, text
from .score_tables import deal_table, sheet_table
from .terminal_hint import HINT_THINK, hint_text
from .terminal_render import (
    EXCUSE_SYMBOL,
    RANKS,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    card_text,
    card_words,
    cards_text,
    choices_text,
    hand_table,
    plays_text,
    ranking_table,
    seat_name,
    trick_text,
    wins_text,
)

ReadLine = Callable[[], str]  # one line, without its newline; raises EOFError at the end of input
T = TypeVar("T")
HUMAN: Final = 0

_HELP: Final = {"?", "help", "aide", "h"}
_LAST: Final = {"last", "dernier", "pli", "l"}
_HAND: Final = {"hand", "main"}
_SHEET: Final = {"sheet", "feuille", "scores", "score"}
_HINT: Final = {"hint", "conseil", "indice"}
_QUIT: Final = {"quit", "exit", "quitter", "q"}
_YES: Final = {"y", "yes", "o", "oui"}
_NO: Final = {"n", "no", "non", ""}
_BIDS: Final[dict[str, Contract | None]] = {
    "pass": None, "passe": None, "p": None, "prise": Contract.PRISE, "petite": Contract.PRISE,
    "garde": Contract.GARDE, "g": Contract.GARDE, "garde_sans": Contract.GARDE_SANS,
    "gs": Contract.GARDE_SANS, "garde_contre": Contract.GARDE_CONTRE, "gc": Contract.GARDE_CONTRE,
}
_SYMBOL_LETTERS: Final = {sym: suit.letter for suit, sym in SUIT_SYMBOLS.items()}
# The French court letters as displayed (R, D, C, V) → the codes' (K, Q, N, J): none of them is a
# rank of the codes, so "R♥" or "RH" can only mean the roi de cœur (the letter first, the suit after).
_FRENCH_COURT: Final = {fr: en for fr, en in zip(RANKS[Lang.FR][10:], RANKS[Lang.EN][10:], strict=True)}
_SUIT_BY_LETTER: Final = {suit.letter: suit for suit in SUIT_SYMBOLS}


class Quit(Exception):
    """The player asked to stop: ends the game with ``status``."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class Invalid(Exception):
    """Input that cannot be read: the i18n key (and fields) of the message to show."""

    def __init__(self, key: str, **fields: object) -> None:
        super().__init__(key)
        self.key = key
        self.fields = fields


def normalize(line: str) -> str:
    """Lower case, accents dropped, inner blanks and hyphens as ``_``: "Garde-Sans" → "garde_sans"."""
    folded = unicodedata.normalize("NFKD", line.strip().lower())
    plain = "".join(ch for ch in folded if not unicodedata.combining(ch))
    return "_".join(plain.replace("-", " ").split())


def parse_card(token: str, lang: Lang = Lang.EN) -> Card:
    """A card from its code (any case) or its printed form (``K♥``, ``★``).

    The codes of R1 are read in every language; in French the printed form with the French
    court letters is read too (``R♥``, ``rh``: the roi de cœur; ``D♠``, ``ds``: the dame de pique).
    """
    raw = token.strip()
    if raw == EXCUSE_SYMBOL or raw.lower() == "excuse":
        return EXCUSE
    for symbol, letter in _SYMBOL_LETTERS.items():
        raw = raw.replace(symbol, letter)
    raw = raw.upper()
    if lang is Lang.FR and len(raw) == 2 and raw[0] in _FRENCH_COURT and raw[1] in _SUIT_BY_LETTER:
        raw = _FRENCH_COURT[raw[0]] + raw[1]
    try:
        return Card.parse(raw)
    except ValueError:
        raise Invalid("unknown_card", token=token.strip()) from None


def pick(token: str, options: Sequence[T]) -> T | None:
    """The option numbered ``token`` (1-based); None if ``token`` is not a number."""
    if not token.isdigit():
        return None
    index = int(token)
    if not 1 <= index <= len(options):
        raise Invalid("out_of_range", n=len(options))
    return options[index - 1]


def pick_card(token: str, options: Sequence[Card], lang: Lang = Lang.EN) -> Card:
    """A number from the listed ``options`` or a card code."""
    chosen = pick(token, options)
    return chosen if chosen is not None else parse_card(token, lang)


def pick_cards(line: str, options: Sequence[Card], count: int, lang: Lang = Lang.EN) -> list[Card]:
    """``count`` distinct cards, typed as codes or numbers from ``options``, separated by blanks or commas."""
    tokens = line.replace(",", " ").split()
    cards = [pick_card(t, options, lang) for t in tokens]
    if len(set(cards)) != len(cards):
        raise Invalid("duplicate_cards")
    if len(cards) != count:
        raise Invalid("card_count", n=count, got=len(cards))
    return cards


def ecart_listing(opts: EcartOptions) -> list[Card]:
    """The cards that may go in the écart: plain cards first, then the trumps (weakest first).

    With this order the first ``size`` listed cards always make a legal écart (R11).
    """
    allowed = opts.allowed
    plain = sort_for_display(c for c in allowed if not c.is_trump)
    return plain + sorted(c for c in allowed if c.is_trump)


def default_poignee(opts: PoigneeOptions, count: int) -> list[Card]:
    """A proposal of ``count`` cards: the weakest trumps, the Excuse only when they fall short (R14:
    then with every trump of the hand)."""
    return opts.choose(count) or []


def fallback_action(view: View) -> Action:
    """A legal action for a bot that failed: the first listed one (or the first cards of an écart)."""
    if view.ecart_options is not None:
        opts = view.ecart_options
        return Ecart(view.seat, ecart_listing(opts)[: opts.size])
    return view.legal[0]


class TerminalGame:
    """A game of seat 0 against bots, played through ``read_line`` and shown on ``console``."""

    def __init__(self, console: Console, read_line: ReadLine, *, lang: Lang, players: int = 4,
                 deals: int = 1, bots: str = "heuristic", seed: int | None = None,
                 think: float | None = None, echo: bool = False, playouts: int | None = None) -> None:
        self.console = console
        self.read_line = read_line
        self.lang = lang
        self.echo = echo  # print what was read (input piped in: makes the transcript readable)
        # Seat 0 speaks first in the first deal (R4: the seat after the dealer).
        self.game = Game(players, deals, first_dealer=players - 1, seed=seed)
        self.bots: dict[int, Bot] = {
            seat: build_bot(bots, None if seed is None else seed * 10 + seat, think, playouts)
            for seat in range(1, players)
        }
        self.results: list[tuple[str, DealResult]] = []
        self.hint_seed = seed if seed is not None else 0  # the expert's draws: the same advice again
        self.hint_think = think if think is not None else HINT_THINK
        self._deal: Deal | None = None  # the deal on screen
        self._asked: View | None = None  # what the prompt on screen asks about (``hint`` advises on it)
        self._trick_open = False  # a trick line is being written (cards appended as played)

    # --- output ------------------------------------------------------------------

    def t(self, key: str, **fields: object) -> str:
        return text(self.lang, key, **fields)

    def say(self, *items: str | Text | object, style: str | None = None) -> None:
        """A line of output; closes an open trick line first."""
        self._close_trick()
        self.console.print(*items, style=style, highlight=False)

    def _close_trick(self) -> None:
        if self._trick_open:
            self.console.print()
            self._trick_open = False

    def who(self, seat: int) -> str:
        return seat_name(self.lang, seat)

    # --- the game ------------------------------------------------------------------

    def run(self) -> int:
        """Play the whole game; the exit status (0: finished or quit, 1: input ended or Ctrl-C)."""
        try:
            self.say(Text(self.t("welcome", bots=self.game.players - 1, deals=self.game.deals), style="bold"))
            self.say(Text(self.t("commands_hint"), style="dim"))
            self._loop()
            self.say(ranking_table(self.lang, self.game.ranking()))
            return 0
        except Quit as q:
            self.say(self.t("goodbye"))
            return q.status
        except (EOFError, KeyboardInterrupt):
            self.say()
            self.say(self.t("goodbye_interrupted"))
            return 1

    def _loop(self) -> None:
        game = self.game
        self._report_rows()
        while not game.is_over:
            deal = game.deal
            assert deal is not None and deal.turn is not None
            if deal is not self._deal:
                self._start(deal)
            seat = deal.turn
            before = deal.view(HUMAN)
            action = self._human(before) if seat == HUMAN else self._bot(seat, deal)
            self._narrate(action, before, deal.view(HUMAN))
            if deal.is_over:
                self._end_deal(deal)
            self._report_rows()

    def _start(self, deal: Deal) -> None:
        self._deal = deal
        redeal = bool(self.game.rows) and self.game.rows[-1].annulled is not None
        self.say()
        self.console.rule(self.t("deal_header", n=self.game.played + 1, total=self.game.deals,
                                 dealer=self.who(deal.dealer))
                          + (self.t("redeal") if redeal else ""))
        self.say(hand_table(self.lang, deal.view(HUMAN).hand))

    def _report_rows(self) -> None:
        """Deals annulled as soon as dealt (petit sec, R6) go on the sheet without being played."""
        game = self.game
        while len(self.results) < len(game.rows):
            result = game.records[len(self.results)].replay().result()
            self.say()
            self.console.rule(self.t("deal_header", n=game.played + 1, total=game.deals,
                                     dealer=self.who(game.rows[len(self.results)].dealer)))
            self._show_result(result)

    def _end_deal(self, deal: Deal) -> None:
        self._show_result(deal.result())

    def _show_result(self, result: DealResult) -> None:
        row = self.game.rows[len(self.results)]
        label = str(row.number) if row.number is not None else "—"
        self.results.append((label, result))
        self.say(Text(self.t("deal_result"), style="bold"))
        self.say(deal_table(self.lang, result))
        self._show_sheet()

    def _show_sheet(self) -> None:
        if not self.results:
            self.say(self.t("no_sheet_yet"))
            return
        self.say(Text(self.t("score_sheet"), style="bold"))
        self.say(sheet_table(self.lang, self.results, self.game.players))

    # --- bots ------------------------------------------------------------------

    def _bot(self, seat: int, deal: Deal) -> Action:
        """The bot's action, applied; a bot that fails or is refused is replaced by a legal action."""
        view = deal.view(seat)
        try:
            action = self.bots[seat].act(view)
            self.game.apply(action)
        except Exception as exc:  # a faulty bot must not end the person's game
            action = fallback_action(view)
            self.game.apply(action)
            # The reason is not shown: it may name cards of the bot's hand.
            self.say(Text(self.t("bot_failed", who=self.who(seat), kind=type(exc).__name__), style="dim"))
        return action

    # --- telling what happened -------------------------------------------------------

    def _narrate(self, action: Action, before: View, after: View) -> None:
        who = self.who(action.seat)
        if isinstance(action, Play):
            self._narrate_play(action, before, after)
        elif isinstance(action, Bid):
            self.say(self.t("bids", who=who, bid=self._bid_name(action)))
            if before.phase == "bidding" and after.phase != "bidding" and after.contract is not None:
                assert after.taker is not None
                key = "you_take" if after.taker == HUMAN else "takes"
                contract = self.t(after.contract.name_text)
                self.say(Text(self.t(key, who=self.who(after.taker), contract=contract), style="bold"))
                if not after.contract.chien_shown:
                    self.say(self.t("chien_hidden"))
        elif isinstance(action, Call):
            key = "you_call" if action.seat == HUMAN else "calls"
            self.say(Text(self.t(key, who=who)).append_text(card_text(self.lang, action.card)))
        elif isinstance(action, Ecart):
            if action.seat == HUMAN:
                self.say(Text(self.t("your_ecart")).append_text(cards_text(self.lang, action.cards)))
            else:
                self.say(self.t("bot_ecart", who=who))
            if after.ecart_trumps:
                self.say(Text(self.t("ecart_trumps")).append_text(cards_text(self.lang, after.ecart_trumps)))
        elif isinstance(action, Chelem):
            if action.announce:
                key = "you_announce_chelem" if action.seat == HUMAN else "announces_chelem"
                self.say(Text(self.t(key, who=who), style="bold"))
        elif isinstance(action, Poignee):
            size = self.t(self._poignee_size(len(action.cards)))
            key = "you_show_poignee" if action.seat == HUMAN else "shows_poignee"
            self.say(Text(self.t(key, who=who, size=size)).append_text(
                cards_text(self.lang, after.poignees.get(action.seat, action.cards))))
        if before.chien is None and after.chien is not None:
            self.say(Text(self.t("chien_shown")).append_text(cards_text(self.lang, after.chien)))
        if before.partner is None and after.partner is not None:
            self._narrate_partner(after)

    def _narrate_partner(self, after: View) -> None:
        """5 players: the partner as seat 0 learns it (R8)."""
        partner, taker = after.partner, after.taker
        assert partner is not None and taker is not None
        if partner == taker:
            key = "you_play_alone" if taker == HUMAN else "plays_alone"
        elif partner == HUMAN:
            key = "you_are_partner"
        else:
            key = "your_partner" if taker == HUMAN else "partner_known"
        self.say(Text(self.t(key, who=self.who(partner), taker=self.who(taker)), style="bold"))

    def _narrate_play(self, action: Play, before: View, after: View) -> None:
        """Cards go on one line per trick, written as they are played; the winner ends it."""
        console = self.console
        number = len(before.tricks) + 1
        if not self._trick_open:
            console.print(self.t("trick_n", n=number) + " ", end="", soft_wrap=True, highlight=False)
            shown = before.trick
            leader = before.trick_leader
            assert leader is not None
            done = plays_text(self.lang, [((leader + i) % before.players, c) for i, c in enumerate(shown)])
            if shown:
                console.print(done, Text(" · ", style="dim"), end="", soft_wrap=True, sep="")
            self._trick_open = True
        elif before.trick:
            console.print(Text(" · ", style="dim"), end="", soft_wrap=True)
        console.print(plays_text(self.lang, [(action.seat, action.card)]), end="", soft_wrap=True)
        if len(after.tricks) > len(before.tricks):
            winner = after.tricks[-1].winner
            console.print(Text("  → " + wins_text(self.lang, winner), style="bold"),
                          soft_wrap=True)
            self._trick_open = False

    def _bid_name(self, action: Action) -> str:
        assert isinstance(action, Bid)
        return self.t("pass") if action.contract is None else self.t(action.contract.name_text)

    def _poignee_size(self, count: int) -> str:
        size = variant(self.game.players).poignee_size(count)
        return size.name_text if size is not None else "poignee"

    # --- the person's decisions ----------------------------------------------------------

    def _human(self, view: View) -> Action:
        self._asked = view
        if view.phase == "bidding":
            return self._ask_bid(view)
        if view.phase == "call":
            return self._ask_call(view)
        if view.phase == "ecart":
            return self._ask_ecart(view)
        if view.phase == "announce":
            return self._ask_chelem()
        if view.poignee_options is not None:  # None once this seat has played its first card
            shown = self._ask_poignee(view, view.poignee_options)
            if shown is not None:
                return shown
            # declined: the card's prompt is about the card only (the engine's view offers the
            # poignée until the first card, and a hint there would advise it again)
            view = self._asked = replace(view, poignee_options=None)
        return self._ask_card(view)

    def _read(self, prompt: str) -> str:
        self._close_trick()
        self.console.print(Text(prompt + " ", style="bold cyan"), end="", highlight=False)
        line = self.read_line()
        if self.echo:
            self.console.print(line, highlight=False, markup=False)
        return line

    def _ask(self, prompt: str, parse: Callable[[str], Action | None]) -> Action | None:
        """Prompt until ``parse`` gives an action the engine accepts (or None: a refusal or a skip).

        Commands (help, last, hand, sheet, quit) work at every prompt.
        """
        while True:
            line = self._read(prompt)
            word = normalize(line)
            if word in _QUIT:
                raise Quit(0)
            if self._command(word):
                continue
            try:
                action = parse(line)
                if action is None:
                    return None
                self.game.apply(action)
                return action
            except Invalid as bad:
                self.say(Text(self.t(bad.key, **bad.fields), style="yellow"))
            except IllegalAction as refused:
                self.say(Text(self.t("refused", reason=self._reason(refused)), style="yellow"))

    def _reason(self, refused: IllegalAction) -> str:
        """Why the engine refused: its own words in English (``R15: must follow suit (hearts)``);
        in French the site's words, the cards shown and named (``vous devez monter sur T15
        (atout 15) (R15)``)."""
        template = WHY_FR.get(refused.why) if self.lang is Lang.FR else None
        if template is None:
            return str(refused)
        args = refused.args_
        fields: dict[str, str] = {"count": args.get("count", ""), "counts": args.get("counts", "")}
        try:
            if "card" in args:
                fields["card"] = card_words(Card.parse(args["card"]), self.lang)
            if "suit" in args:
                fields["suit"] = SUIT_NAMES[self.lang][_SUIT_BY_LETTER[args["suit"]]]
            if "bid" in args:
                fields["bid"] = self.t(args["bid"])  # a contract's name_text: "garde_sans"
            return f"{template.format(**fields)} ({refused.rule})"
        except (KeyError, ValueError):  # particulars the template does not expect: the engine's words
            return str(refused)

    def _command(self, word: str) -> bool:
        if word in _HELP:
            self.say(Text(self.t("help"), style="dim"))
        elif word in _LAST:
            current = self.game.deal
            tricks = current.view(HUMAN).tricks if current is not None else ()
            if tricks:
                self.say(Text(self.t("last_trick")).append_text(trick_text(self.lang, tricks[-1])))
            else:
                self.say(self.t("no_trick_yet"))
        elif word in _HAND:
            current = self.game.deal
            if current is not None:
                self.say(hand_table(self.lang, current.view(HUMAN).hand))
        elif word in _SHEET:
            self._show_sheet()
        elif word in _HINT:
            self._hint()
        else:
            return False
        return True

    def _hint(self) -> None:
        """What the expert would do at the prompt on screen, from the player's own view
        (``terminal_hint``); asked at a prompt, so at the player's turn."""
        assert self._asked is not None
        self.say(Text(self.t("hint_thinking"), style="dim"))
        self.say(hint_text(self.lang, advise(self._asked, self.hint_seed, self.hint_think)))

    def _choose(self, prompt: str, options: Sequence[Action],
                labels: Sequence[Text | str], match: Callable[[str], Action | None]) -> Action:
        """Numbered ``options``; the player types a number, or something ``match`` reads."""
        self.say(choices_text(labels))

        def parse(line: str) -> Action:
            if not line.strip():
                raise Invalid("type_choice", n=len(options))
            chosen = pick(line.strip(), options)
            if chosen is not None:
                return chosen
            action = match(line)
            if action is None:
                raise Invalid("not_understood", line=line.strip())
            return action

        action = self._ask(prompt, parse)
        assert action is not None
        return action

    def _ask_bid(self, view: View) -> Action:
        options = list(view.legal)
        labels = [self._bid_name(a) for a in options]

        def match(line: str) -> Action | None:
            word = normalize(line)
            if word not in _BIDS:
                return None
            return Bid(HUMAN, _BIDS[word])

        return self._choose(self.t("prompt_bid"), options, labels, match)

    def _ask_call(self, view: View) -> Action:
        self.say(hand_table(self.lang, view.hand))
        options = [a for a in view.legal if isinstance(a, Call)]
        return self._choose(self.t("prompt_call"), options, [card_text(self.lang, a.card) for a in options],
                            lambda line: Call(HUMAN, parse_card(line, self.lang)))

    def _ask_ecart(self, view: View) -> Action:
        opts = view.ecart_options
        assert opts is not None
        self.say(hand_table(self.lang, view.hand))
        listing = ecart_listing(opts)
        key = "ecart_intro_trumps" if opts.trumps_needed else "ecart_intro"
        self.say(self.t(key, n=opts.size, trumps=opts.trumps_needed))
        self.say(choices_text([card_text(self.lang, c) for c in listing]))
        action = self._ask(self.t("prompt_ecart", n=opts.size),
                           lambda line: Ecart(HUMAN, pick_cards(line, listing, opts.size, self.lang)))
        assert action is not None
        return action

    def _ask_chelem(self) -> Action:
        self.say(self.t("chelem_question"))
        self.say(choices_text([self.t("no"), self.t("yes")]))

        def parse(line: str) -> Action:
            word = normalize(line)
            if word in _NO or word == "1":
                return Chelem(HUMAN, False)
            if word in _YES or word == "2":
                return Chelem(HUMAN, True)
            raise Invalid("yes_or_no")

        action = self._ask(self.t("prompt_chelem"), parse)
        assert action is not None
        return action

    def _ask_poignee(self, view: View, opts: PoigneeOptions) -> Action | None:
        """Whether to show a poignée (R14), which size, which cards; None: not shown."""
        self.say(hand_table(self.lang, view.hand))
        sizes = [self.t("poignee_size", size=self.t(s.name_text), n=n) for s, n in opts.sizes]
        labels = [self.t("no"), *sizes]
        self.say(self.t("poignee_question"))
        self.say(choices_text(labels))
        while True:
            line = self._read(self.t("prompt_poignee"))
            word = normalize(line)
            if word in _QUIT:
                raise Quit(0)
            if self._command(word):
                continue
            if word in _NO or word == "1":
                return None
            if word in _YES and len(opts.sizes) == 1:
                count = opts.sizes[0][1]
            elif word.isdigit() and 2 <= int(word) <= len(labels):
                count = opts.sizes[int(word) - 2][1]
            else:
                self.say(Text(self.t("choose_number", n=len(labels)), style="yellow"))
                continue
            return self._ask_poignee_cards(view, opts, count)  # None: "n", shown after all

    def _ask_poignee_cards(self, view: View, opts: PoigneeOptions, count: int) -> Action | None:
        proposal = default_poignee(opts, count)
        listing = sorted(opts.allowed)
        proposed = cards_text(self.lang, proposal, sort=False)
        self.say(Text(self.t("poignee_proposal", n=count)).append_text(proposed))
        self.say(self.t("poignee_how", n=count))
        self.say(choices_text([card_text(self.lang, c) for c in listing]))

        def parse(line: str) -> Action | None:
            word = normalize(line)
            if word in ("n", "no", "non"):
                return None
            if word in ("", "y", "yes", "o", "oui"):
                return Poignee(HUMAN, proposal)
            return Poignee(HUMAN, pick_cards(line, listing, count, self.lang))

        return self._ask(self.t("prompt_poignee_cards", n=count), parse)

    def _ask_card(self, view: View) -> Action:
        n = len(view.tricks) + 1
        leader = view.trick_leader
        assert leader is not None
        so_far = plays_text(self.lang, [((leader + i) % view.players, c) for i, c in enumerate(view.trick)])
        if self._trick_open:  # the cards played so far are already on the open trick line
            self._close_trick()
        else:
            header = Text(self.t("trick_n", n=n) + " ", style="bold")
            self.say(header.append_text(so_far if view.trick else Text(self.t("you_lead"))))
        self.say(hand_table(self.lang, view.hand))
        cards = sort_for_display(a.card for a in view.legal if isinstance(a, Play))
        options = [Play(HUMAN, c) for c in cards]
        return self._choose(self.t("prompt_card"), options, [card_text(self.lang, c) for c in cards],
                            lambda line: Play(HUMAN, parse_card(line, self.lang)))


# --- the command -------------------------------------------------------------------

PlayersOpt = Annotated[int, typer.Option("--players", min=3, max=5, help="3, 4 or 5 players.")]
BotsOpt = Annotated[str, typer.Option(
    "--bots", help="The bots' level: beginner, club (the default) or expert; or a bot's name "
                   "(random, heuristic, search) or a plug-in's package.module:Class.")]
DealsOpt = Annotated[int, typer.Option("--deals", min=1, help="Counted deals in the game.")]
SeedOpt = Annotated[int | None, typer.Option("--seed", help="Same seed, same deals (default: random).")]
LangOpt = Annotated[
    Lang | None,
    typer.Option("--lang", case_sensitive=False, help="Language (default: from the locale)."),
]
ThinkOpt = Annotated[
    float | None, typer.Option("--think", min=0.0, help="Seconds per decision for the search bot."),
]
PlayoutsOpt = Annotated[
    int | None, typer.Option("--playouts", min=1, help="A fixed budget for the search bot instead "
                             "(playouts a decision, the clock ignored: the same seed plays the same cards)."),
]


def _stdin_line() -> str:
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line.rstrip("\r\n")


OutOpt = Annotated[Path | None, typer.Option(
    "--out", help="Save the deals played as a game record (JSON), for tarot replay and tarot review.")]


def play(players: PlayersOpt = 4, bots: BotsOpt = "club", deals: DealsOpt = 5, seed: SeedOpt = None,
         lang: LangOpt = None, think: ThinkOpt = None, out: OutOpt = None,
         playouts: PlayoutsOpt = None) -> None:
    """Play a game against bots in the terminal (you are seat 0)."""
    console = Console(highlight=False)
    interactive = sys.stdin.isatty()
    read_line: ReadLine = input if interactive else _stdin_line  # input(): line editing at a terminal
    try:  # the bots are built here: a bad name, option or plug-in is a one-line error
        game = TerminalGame(console, read_line, lang=lang or default_lang(), players=players,
                            deals=deals, bots=bots, seed=seed, think=think, echo=not interactive,
                            playouts=playouts)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--bots/--think/--playouts") from None
    status = game.run()
    if out is not None and game.game.records:  # the deals finished, even when the game was left
        try:
            out.write_text(dump_game(game.game.records, indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            print(f"error: cannot write {out}: {exc.strerror or exc}", file=sys.stderr)
            raise typer.Exit(1) from None
    raise typer.Exit(status)
