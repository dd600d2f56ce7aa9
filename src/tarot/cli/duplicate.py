"""``tarot duplicate``: duplicate (R26) for clubs that play with real cards.

``deals`` writes a set of étuis (boards) from a seed: each deal as a ``tarot-deal/1`` record
without actions, one printable page per étui (:mod:`.duplicate_sheet`) and an index.
``score`` reads the results typed in after play (JSON lines: one deal at one table per line,
the fields of a ``tarot score`` deal summary plus ``deal``, ``table`` and ``names``), scores each
with the engine, and ranks the players by R26. docs/duplicate.md describes both.

Marks (R26), per deal: the seats are ranked across the tables seat by seat (the same seat held the
same cards) with ``rank_marks``. At each table the taker's side (the taker, and the partner at 5
players) gets the taker's seat mark as an attack mark; every defender gets ``defender_mark`` of it
as a defence mark. At a table where everybody passed, each player gets their own seat's mark as a
defence mark. A player's percentage is ``overall_percentage`` of their attack and defence marks.
"""

from __future__ import annotations

import json
import os
import secrets
import sys
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Final

import typer
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from tarot.engine import Deal, DealRecord, RecordError, Score, score_summary
from tarot.engine.duplicate import Standing, TableMarks, TableResult, mark_tables, rank_standings

from .duplicate_sheet import sheets_html
from .files import read_text
from .i18n import Lang, default_lang, text
from .score_tables import sheet_line

MAX_DEALS: Final = 999
MAX_SEED: Final = 100
INDEX: Final = "index.json"
SHEETS: Final = "sheets.html"
DEALER_RULE: Final = "étui n is dealt by seat (n - 1) mod players: étui 1 by seat 0, étui 2 by seat 1…"

duplicate_app = typer.Typer(
    name="duplicate",
    help="Duplicate (R26) for clubs that play with real cards: deal a set of étuis (deals), "
         "rank the players from the results (score).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

LangOpt = Annotated[
    Lang | None,
    typer.Option("--lang", case_sensitive=False, help="Language of the sheets and tables (default: locale)."),
]


class Problem(Exception):
    """A one-line reason, printed as ``error: …``; ``line`` is the results file's line (1-based)."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line

    def where(self) -> str:
        return self.reason if self.line is None else f"line {self.line}: {self.reason}"


def _fail(lines: Sequence[str]) -> typer.Exit:
    for line in lines:
        print(f"error: {line}".replace("\r", " ").replace("\n", " "), file=sys.stderr, flush=True)
    return typer.Exit(1)


def _internal(exc: Exception, name: str) -> typer.Exit:
    if os.environ.get("TAROT_DEBUG"):
        raise exc
    return _fail([f"{name}: internal error: {type(exc).__name__}: {exc}"])


# --- tarot duplicate deals -----------------------------------------------------------------------


def etui_dealer(players: int, number: int) -> int:
    """The dealer of étui ``number`` (1-based): seat 0 deals étui 1, seat 1 étui 2, and so on round."""
    return (number - 1) % players


def etui_deal(players: int, set_seed: str, number: int) -> tuple[Deal, str]:
    """Étui ``number``'s deal and the seed it was dealt from: ``SEED/n``, or ``SEED/n/k`` when the
    k-th earlier try dealt a petit sec (R6: it would be annulled at every table)."""
    dealer = etui_dealer(players, number)
    attempt = 0
    while True:
        seed = f"{set_seed}/{number}" + (f"/{attempt}" if attempt else "")
        deal = Deal.new(players, dealer=dealer, seed=seed)
        if deal.annulled is None:
            return deal, seed
        attempt += 1


def make_set(players: int, deals: int, set_seed: str) -> list[tuple[int, DealRecord, str]]:
    """The set's étuis: (number, record without actions, étui seed)."""
    out = []
    for number in range(1, deals + 1):
        deal, seed = etui_deal(players, set_seed, number)
        record = DealRecord.from_deal(deal, game=f"duplicate:{set_seed}", deal=number, seed=seed)
        out.append((number, record, seed))
    return out


def _check_deal_options(players: int, deals: int, seed: str | None, out: Path) -> None:
    if players not in (3, 4, 5):
        raise Problem(f"--players must be 3, 4 or 5, not {players}")
    if not 1 <= deals <= MAX_DEALS:
        raise Problem(f"--deals must be 1…{MAX_DEALS}, not {deals}")
    if seed is not None and not (0 < len(seed) <= MAX_SEED and seed.isprintable() and seed.strip() == seed):
        raise Problem(f"--seed must be 1…{MAX_SEED} printable characters without surrounding spaces, "
                      f"not {seed!r}")
    if out.exists() or out.is_symlink():
        if not out.is_dir():
            raise Problem(f"--out {out}: exists and is not a directory")
        if any(out.iterdir()):
            raise Problem(f"--out {out}: the directory is not empty (nothing is overwritten: "
                          "give a new or an empty directory)")


def write_set(out: Path, players: int, deals: int, set_seed: str, lang: Lang) -> list[str]:
    """Write the records, the sheets and the index into ``out``; returns the record file names."""
    etuis = make_set(players, deals, set_seed)
    width = max(2, len(str(deals)))
    names = [f"etui-{number:0{width}d}.json" for number, _, _ in etuis]
    out.mkdir(parents=True, exist_ok=True)
    for name, (_, record, _) in zip(names, etuis, strict=True):
        (out / name).write_text(record.to_json() + "\n", encoding="utf-8")
    (out / SHEETS).write_text(sheets_html(lang, set_seed, etuis), encoding="utf-8")
    index = {
        "players": players, "deals": deals, "seed": set_seed, "dealer": DEALER_RULE, "sheets": SHEETS,
        "etuis": [{"etui": number, "dealer": record.dealer, "seed": seed, "record": name}
                  for name, (number, record, seed) in zip(names, etuis, strict=True)],
    }
    (out / INDEX).write_text(json.dumps(index, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return names


def deals_command(
    out: Annotated[Path, typer.Option("--out", "-o", help="A new (or empty) directory for the files.")],
    players: Annotated[int, typer.Option("--players", "-p", help="3, 4 or 5.")] = 4,
    deals: Annotated[int, typer.Option(
        "--deals", "-n", help=f"Étuis (boards) in the set, 1…{MAX_DEALS}.")] = 24,
    seed: Annotated[str | None, typer.Option(
        help="The set's seed: the same seed gives the same deals (default: a random one, printed).")] = None,
    lang: LangOpt = None,
) -> None:
    """Deal a set of étuis for play with real cards: deal records, printable sheets (A4), an index.

    Étui n is dealt from the seed "SEED/n" by seat (n - 1) mod players (étui 1 by seat 0).
    """
    language = lang or default_lang()
    try:
        _check_deal_options(players, deals, seed, out)
    except Problem as p:
        raise _fail([p.where()]) from None
    set_seed = seed if seed is not None else str(secrets.randbelow(10**9))
    try:
        names = write_set(out, players, deals, set_seed, language)
    except OSError as e:
        raise _fail([f"--out {out}: cannot write: {e.strerror or e}"]) from None
    except Exception as e:
        raise _internal(e, str(out)) from None
    key = "dup_seed_given" if seed is not None else "dup_seed_drawn"
    print(text(language, key, seed=set_seed))
    print(text(language, "dup_written", deals=deals, players=players, out=out, first=names[0],
               last=names[-1]))


# --- tarot duplicate score: reading the results ----------------------------------------------------

_SUMMARY_KEYS: Final = ("players", "taker", "partner", "contract", "oudlers", "points", "petit_au_bout",
                        "poignees", "chelem_announced", "chelem")
_KEYS: Final = ("deal", "table", "names", *_SUMMARY_KEYS)
PASS: Final = "pass"


@dataclass(frozen=True)
class Entry:
    """One deal at one table: who sat where, and how it scored (``score`` None: everybody passed)."""

    line: int
    deal: int
    table: str
    names: tuple[str, ...]
    score: Score | None

    @property
    def scores(self) -> tuple[int, ...]:
        return self.score.scores if self.score else (0,) * len(self.names)

    def attacks(self, seat: int) -> bool:
        s = self.score
        return s is not None and seat in (s.taker, s.partner)


def _names(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
        raise Problem(f"\"names\" must be a list of the players' names, seat 0 first, not {value!r}")
    names = tuple(n.strip() for n in value)
    if len(names) not in (3, 4, 5):
        raise Problem(f"\"names\" must name 3, 4 or 5 players (one per seat), not {len(names)}")
    if not all(names):
        raise Problem("\"names\": a name is empty")
    for i, name in enumerate(names):
        if name in names[:i]:
            raise Problem(f"\"names\": {name} sits at two seats ({names.index(name)} and {i})")
    return names


def parse_entry(obj: Any, line: int, table_names: dict[str, tuple[str, ...]]) -> Entry:
    """One results line (already JSON-decoded); ``table_names`` holds each table's last names."""
    if not isinstance(obj, dict):
        raise Problem(f"a result is a JSON object {{\"deal\": …, \"table\": …, …}}, not {type(obj).__name__}")
    unknown = [k for k in obj if k not in _KEYS]
    if unknown:
        raise Problem(f"unknown key {unknown[0]!r} (expected: {', '.join(_KEYS)})")
    for key in ("deal", "table", "contract"):
        if key not in obj:
            raise Problem(f"missing \"{key}\"")
    deal = obj["deal"]
    if type(deal) is not int or deal < 1:
        raise Problem(f"\"deal\" must be the étui number (1, 2, …), not {deal!r}")
    raw_table = obj["table"]
    if not (isinstance(raw_table, str) and raw_table.strip()) and type(raw_table) is not int:
        raise Problem(f"\"table\" must be a name or a number, not {raw_table!r}")
    table = str(raw_table).strip()
    if "names" in obj:
        names = _names(obj["names"])
    elif table in table_names:
        names = table_names[table]
    else:
        raise Problem(f"missing \"names\" (table {table}'s first line names its players, seat 0 first)")
    players = obj.get("players", len(names))
    if players != len(names):
        raise Problem(f"\"players\" is {players!r} but \"names\" names {len(names)} players")
    table_names[table] = names  # kept for the table's next lines even if the rest of this one is wrong
    contract = obj["contract"]
    score: Score | None = None
    if isinstance(contract, str) and contract.strip().lower() == PASS:
        given = [k for k in _SUMMARY_KEYS if k in obj and k not in ("players", "contract")]
        if given:
            raise Problem(f"everybody passed (\"contract\": \"pass\"): \"{given[0]}\" has no meaning")
    else:
        summary = {k: obj[k] for k in _SUMMARY_KEYS if k in obj}
        summary["players"] = len(names)
        try:
            score = score_summary(summary)
        except RecordError as e:
            raise Problem(e.reason) from None
    return Entry(line, deal, table, names, score)


def parse_results(data: str) -> tuple[list[Entry], list[Problem]]:
    """Every line of a results file, and the problems, each naming its line, in line order: the
    entries may be ranked only when there is none."""
    entries: list[Entry] = []
    problems: list[Problem] = []
    table_names: dict[str, tuple[str, ...]] = {}
    for number, raw in enumerate(data.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            try:
                obj = json.loads(stripped, parse_constant=_no_constant)
            except json.JSONDecodeError as e:
                raise Problem(f"not valid JSON: {e.msg} (column {e.colno})") from None
            except (ValueError, RecursionError) as e:
                raise Problem(f"not valid JSON: {e}") from None
            entries.append(parse_entry(obj, number, table_names))
        except Problem as p:
            p.line = number
            problems.append(p)
    if entries or not problems:
        problems += check_results(entries, complete=not problems)
    return entries, sorted(problems, key=lambda p: p.line or 0)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def check_results(entries: Sequence[Entry], complete: bool = True) -> list[Problem]:
    """What is wrong across lines: player counts, a deal twice at a table, a player at two tables of
    one deal, a deal played at one table only (when the file has several; checked only when
    ``complete``: no line was left out for a problem of its own)."""
    if not entries:
        return [Problem("no results: one JSON object per line, one line per deal and table")]
    problems = []
    first = entries[0]
    seen: dict[tuple[int, str], Entry] = {}
    seats: dict[tuple[int, str], Entry] = {}
    for e in entries:
        if len(e.names) != len(first.names):
            problems.append(Problem(f"{len(e.names)} players, but line {first.line} has {len(first.names)} "
                                    "(a results file holds one number of players)", e.line))
            continue
        if (e.deal, e.table) in seen:
            problems.append(Problem(f"deal {e.deal} at table {e.table} is already on line "
                                    f"{seen[e.deal, e.table].line}", e.line))
            continue
        seen[e.deal, e.table] = e
        for name in e.names:
            other = seats.get((e.deal, name))
            if other is not None:
                problems.append(Problem(f"{name} plays deal {e.deal} at table {e.table} and at table "
                                        f"{other.table} (line {other.line})", e.line))
                break
            seats[e.deal, name] = e
    if problems or not complete:
        return problems
    tables = {e.table for e in entries}
    if len(tables) > 1:
        for deal, group in group_deals(entries):
            if len(group) == 1:
                problems.append(Problem(f"deal {deal} is played at table {group[0].table} only, so it cannot "
                                        "be ranked (is its deal number right?)", group[0].line))
    return sorted(problems, key=lambda p: p.line or 0)


def group_deals(entries: Sequence[Entry]) -> list[tuple[int, list[Entry]]]:
    """The entries per deal, deals in number order, tables in the file's order."""
    groups: dict[int, list[Entry]] = {}
    for e in entries:
        groups.setdefault(e.deal, []).append(e)
    return sorted(groups.items())


# --- tarot duplicate score: marks and ranking ------------------------------------------------------


@dataclass(frozen=True)
class Marked:
    """One deal at one table with each seat's mark (0–100) and side."""

    entry: Entry
    marks: tuple[float, ...]
    attack: tuple[bool, ...]


def _table(e: Entry) -> TableResult:
    s = e.score
    return TableResult(e.names, e.scores, None if s is None else s.taker, None if s is None else s.partner)


def mark_deal(entries: Sequence[Entry]) -> list[Marked]:
    """R26 marks of one deal's tables (the engine's ``mark_tables``)."""
    return [Marked(e, m.marks, m.attack) for e, m in zip(entries, mark_tables([_table(e) for e in entries]),
                                                         strict=True)]


def _name_key(name: str) -> str:
    """Names in alphabetical order whatever their accents and case (Émile between Anne and Gilles)."""
    return "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c)).casefold()


def rank_players(deals: Sequence[tuple[int, list[Marked]]]) -> list[Standing]:
    """The ranking: best percentage first (ties share a rank, listed by name)."""
    return rank_standings(((_table(m.entry), TableMarks(m.marks, m.attack)) for _, marked in deals
                           for m in marked), order=_name_key)


def duplicate_report(entries: Sequence[Entry]) -> tuple[list[Standing], list[tuple[int, list[Marked]]]]:
    deals = [(deal, mark_deal(group)) for deal, group in group_deals(entries)]
    return rank_players(deals), deals


# --- tarot duplicate score: output -----------------------------------------------------------------


def _round(x: float) -> float:
    return round(x, 4)


def report_json(standings: Sequence[Standing], deals: Sequence[tuple[int, list[Marked]]]) -> dict[str, Any]:
    return {
        "ranking": [{"rank": s.rank, "player": s.player, "percentage": _round(s.percentage), "deals": s.deals,
                     "attack": len(s.attack), "defence": len(s.defence)} for s in standings],
        "deals": [{"deal": deal, "tables": [{
            "table": m.entry.table, "line": m.entry.line, "names": list(m.entry.names),
            "contract": m.entry.score.contract.name_text if m.entry.score else PASS,
            "taker": m.entry.score.taker if m.entry.score else None,
            "partner": m.entry.score.partner if m.entry.score else None,
            "scores": list(m.entry.scores), "marks": [_round(x) for x in m.marks],
            "sides": ["attack" if a else "defence" for a in m.attack],
        } for m in marked]} for deal, marked in deals],
    }


def percent(x: float, lang: Lang) -> str:
    """``93.75``, ``100``, ``33.33`` (``93,75`` in French)."""
    out = f"{x:.2f}".rstrip("0").rstrip(".")
    return out.replace(".", ",") if lang is Lang.FR else out


def ranking_table(lang: Lang, standings: Sequence[Standing]) -> Table:
    table = Table(box=box.SIMPLE_HEAD)
    table.add_column(text(lang, "dup_rank"), justify="right")
    table.add_column(text(lang, "player"))
    table.add_column(text(lang, "dup_percent"), justify="right")
    table.add_column(text(lang, "dup_played"), justify="right")
    table.add_column(text(lang, "dup_attack"), justify="right")
    table.add_column(text(lang, "dup_defence"), justify="right")
    for s in standings:
        table.add_row(str(s.rank), s.player, percent(s.percentage, lang), str(s.deals), str(len(s.attack)),
                      str(len(s.defence)))
    return table


def deal_marks_table(lang: Lang, deal: int, marked: Sequence[Marked]) -> Table:
    players = len(marked[0].entry.names)
    table = Table(title=text(lang, "dup_deal", n=deal), box=box.SIMPLE_HEAD, title_justify="left")
    table.add_column(text(lang, "dup_table"))
    table.add_column(text(lang, "dup_result"), ratio=1, min_width=16)
    for seat in range(players):
        table.add_column(text(lang, "dup_seat", seat=seat), justify="right")
    for m in marked:
        score = m.entry.score
        result = sheet_line(lang, score) if score else text(lang, "all_pass")
        cells = [f"{name}\n{m.entry.scores[seat]:+d}\n{percent(m.marks[seat], lang)}%"
                 for seat, name in enumerate(m.entry.names)]
        table.add_row(m.entry.table, result, *cells)
    return table


def _read(name: str) -> str:
    try:
        return read_text(name)
    except ValueError as e:
        raise Problem(str(e)) from None


def score_command(
    results: Annotated[str, typer.Argument(
        metavar="RESULTS",
        help="The results: JSON lines, one deal at one table per line ('-' reads stdin).")],
    show_deals: Annotated[bool, typer.Option(
        "--deals", help="Also print each deal's results and marks, table by table.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    lang: LangOpt = None,
) -> None:
    """Rank the players by R26 from the results of a duplicate session (see docs/duplicate.md)."""
    language = lang or default_lang()
    try:
        entries, problems = parse_results(_read(results))
    except Problem as p:
        problems, entries = [p], []
    except Exception as e:
        raise _internal(e, results) from None
    if problems:
        if as_json:
            errors = [{"line": p.line, "reason": p.reason} for p in problems]
            print(json.dumps({"errors": errors}), flush=True)
        raise _fail([f"{results}: {p.where()}" for p in problems])
    try:
        standings, deals = duplicate_report(entries)
    except Exception as e:
        raise _internal(e, results) from None
    if as_json:
        print(json.dumps(report_json(standings, deals)), flush=True)
        return
    console = Console(highlight=False)
    tables = len({e.table for e in entries})
    console.print(Text(text(language, "dup_ranking", players=len(standings), deals=len(deals), tables=tables),
                       style="bold"), soft_wrap=True)
    console.print(ranking_table(language, standings))
    if show_deals:
        for deal, marked in deals:
            console.print(deal_marks_table(language, deal, marked))


duplicate_app.command(name="deals")(deals_command)
duplicate_app.command(name="score")(score_command)
