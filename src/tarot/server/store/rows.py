"""The store's writes, built once (building a Core statement per call cost three times its
execution), and how a batch runs many of one kind at once (``Rows``, ``grouped``, ``batched``;
``Store._commit``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

from sqlalchemy import bindparam, insert, update
from sqlalchemy.engine import Connection

from ..protocol import encode
from .schema import ActionRow, DealRow, GameRow, PlayerRow, TableRow

# A write: fn(conn, *args), or for a ``grouped`` one fn(*args), which gives its row's parameters.
Job = tuple[Callable[..., Any], tuple[Any, ...]]
Store = Any  # (the store, ``store.Store``, which imports this module: not imported back)

# The writes, built once (see the module's docstring); each takes its values as parameters.
UPDATE_PLAYER = update(PlayerRow).where(PlayerRow.id == bindparam("p_id")).values(name=bindparam("p_name"))
INSERT_PLAYER = insert(PlayerRow)
TABLE_KEYS = ("host", "options", "seats", "status", "version", "invite", "updated")
UPDATE_TABLE = (update(TableRow).where(TableRow.id == bindparam("p_id"))
                 .values(**{k: bindparam(f"p_{k}") for k in TABLE_KEYS}))
TABLE_STATUS = (update(TableRow).where(TableRow.id == bindparam("p_id"))
                 .values(status=bindparam("p_status"), version=bindparam("p_version"),
                         updated=bindparam("p_updated")))
INSERT_TABLE = insert(TableRow)
FINISH_GAME = (update(GameRow).where(GameRow.id == bindparam("p_id"))
                .values(status="finished", totals=bindparam("p_totals"), finished=bindparam("p_finished")))
ABANDON_GAME = (update(GameRow).where(GameRow.id == bindparam("p_id"))
                  .values(status="abandoned", finished=bindparam("p_finished")))
GAME_TOTALS = update(GameRow).where(GameRow.id == bindparam("p_id")).values(totals=bindparam("p_totals"))
# The same inserts for many rows in one statement (SQLAlchemy's "insertmanyvalues"): tables
# that start together cost a few statements, not hundreds. The ids come back in no set order
# (asking SQLAlchemy for the rows' order makes it insert one row a statement on SQLite), so
# each comes with its row's key: a table begins one game at a time, a game's deals are unique.
INSERT_GAMES = insert(GameRow).returning(GameRow.id, GameRow.table_id)
INSERT_DEALS = insert(DealRow).returning(DealRow.id, DealRow.game_id, DealRow.number)
FINISH_DEAL = (update(DealRow).where(DealRow.id == bindparam("p_id"))
                .values(status="done", record=bindparam("p_record"), result=bindparam("p_result")))
INSERT_ACTIONS = insert(ActionRow)

F = TypeVar("F", bound=Callable[..., Any])


class Rows:
    """A statement that a batch runs once with many rows, on the driver's own ``executemany``.

    Through SQLAlchemy Core, each row cost about 5 µs of parameter handling in Python (its
    type processors, its execution context), more than the database took to write it: a busy
    server writes thousands of such rows a second (docs/performance.md). So the statement is
    compiled by SQLAlchemy once per database and key set, and the rows go to the driver as they
    are, the JSON columns (``json``) serialized here as SQLAlchemy would have. (So SQLAlchemy's
    events do not see these statements, and their errors are the driver's own exceptions.)

    An update must find every row it names: a grouped update runs before the unit's other
    writes (``Store._commit``), so one that depended on them would otherwise change nothing and
    pass for done."""

    def __init__(self, statement: Any, json: tuple[str, ...] = ()) -> None:
        self.statement = statement
        self.json = json
        self.must_match = statement.is_dml and statement.__visit_name__ == "update"
        self._compiled: dict[tuple[str, str, tuple[str, ...]],
                             tuple[str, tuple[str, ...] | None, dict[str, Any]]] = {}

    def part(self, rows: list[dict[str, Any]], name: str) -> Part:
        """PostgreSQL: this insert of ``rows`` as the part ``name`` of a statement, the rows in
        one JSON parameter (``json_populate_recordset``): any number of rows is one statement,
        prepared once, and one parameter is encoded by orjson, where psycopg's arrays (one per
        column) cost more than the statement itself."""
        table = self.statement.table.name
        columns = ", ".join(f'"{k}"' for k in rows[0])
        sql = (f"INSERT INTO {table} ({columns}) SELECT {columns} "
               f"FROM json_populate_recordset(NULL::{table}, %({name})s::json)")
        return Part(sql, {name: json_text(rows)})

    def run(self, conn: Connection, rows: list[dict[str, Any]]) -> None:
        keys = tuple(rows[0])
        dialect = conn.dialect
        found = self._compiled.get((dialect.name, dialect.driver, keys))
        if found is None:
            compiled = self.statement.compile(dialect=dialect, column_keys=list(keys))
            # the statement's own values (``status="done"``) are parameters too
            fixed = {k: v for k, v in compiled.params.items() if k not in keys}
            # qmark (SQLite) takes tuples in the statement's order; pyformat (psycopg) dicts
            order = tuple(compiled.positiontup) if compiled.positional and compiled.positiontup else None
            found = self._compiled[dialect.name, dialect.driver, keys] = (str(compiled), order, fixed)
        sql, order, fixed = found
        params: list[Any] = []
        for row in rows:
            # a new dict: the rows are the jobs' own, and a batch that failed passes them again
            # (``Store._commit_each``), so serializing in place would serialize them twice
            row = row | fixed | {key: json_text(row[key]) for key in self.json}
            params.append(row if order is None else tuple(row[k] for k in order))
        cursor = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
        try:
            cursor.executemany(sql, params)
            if self.must_match and cursor.rowcount != len(params):  # both drivers sum the counts
                raise LookupError(f"{self.statement.table.name}: {len(params) - cursor.rowcount} of "
                                  f"{len(params)} rows to update not found")
        finally:
            cursor.close()


# How a batch runs all its jobs of one kind at once: (the store, the transaction's connection,
# those jobs) -> each job's result, in order (None: writes with no result).
Many = Callable[[Store, Connection, list[Job]], "list[Any] | None"]


# PostgreSQL: the same jobs as one part of a single statement (``Store._moves``):
# (the store, the jobs, the part's name) -> ``Part``.
AtOnce = Callable[[Store, list[Job], str], "Part"]


class Part(NamedTuple):
    """A part of a statement made of several: ``name AS (sql)`` in its ``WITH``, its parameters
    (named after the part), and whether the statement must read it (a part that only selects
    is not run otherwise; one that writes always is)."""

    sql: str
    params: dict[str, Any]
    read: bool = False


def together(many: Many, at_once: AtOnce | None = None) -> Callable[[F], F]:
    """``at_once``: the same jobs as a part of one statement, for a batch made only of such
    jobs (``Store._moves``)."""
    def mark(fn: F) -> F:
        many.at_once = at_once  # type: ignore[attr-defined]
        fn.many = many  # type: ignore[attr-defined]
        return fn

    return mark


def grouped(rows: Rows) -> Callable[[F], F]:
    """Marks a write with no result that gives its row's parameters (without a connection): a
    batch runs each such statement once with the rows of every table (executemany), not once per
    table, so hundreds of tables that end a deal together cost a few statements, not a thousand."""
    def at_once(_store: Store, jobs: list[Job], name: str) -> Part:
        return rows.part([fn(*args) for fn, args in jobs], name)

    return together(lambda _store, conn, jobs: rows.run(conn, [fn(*args) for fn, args in jobs]),
                    at_once if rows.statement.__visit_name__ == "insert" else None)


def batched(many: Callable[..., list[Any]], at_once: Callable[..., Part] | None = None) -> Callable[[F], F]:
    """Marks a write with a result whose jobs a batch runs together: ``many(store, conn,
    [args, …])`` gives each job's result, in order (as ``grouped``, for writes that return ids);
    ``at_once(store, [args, …], name)``: the same as a ``Part`` (a write whose result is None)."""
    return together(lambda store, conn, jobs: many(store, conn, [args for _, args in jobs]),
                    None if at_once is None else
                    lambda store, jobs, name: at_once(store, [args for _, args in jobs], name))


def json_text(value: Any) -> str:
    """The JSON columns' serializer: the messages' orjson, several times faster than ``json``
    on records."""
    return encode(value).decode()
