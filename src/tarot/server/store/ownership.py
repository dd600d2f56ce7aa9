"""A table's owner among several processes (``cluster``): a claim raises the table's owner epoch,
and every write of its owner carries a fence that stands only while the claim is its own; the
node that claims a dead node's tables first ends that node's database sessions, so that none
holds a claim. ``Store``'s part (``TableOwnership``)."""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

import orjson
from sqlalchemy import select, text, update
from sqlalchemy.engine import Connection

from .rows import Part, batched
from .schema import TableRow


class Fenced(Exception):
    """A write of a table's stale owner, refused (``Store.fence``): another process claimed it."""


# PostgreSQL's fence: a statement that fails by itself, a division by zero, when one of the
# claims is stale, and locks the rows it finds; so it can be a part of a move's one statement
# (``Store._move_statement``), where reading its rows first took a round trip more to the server,
# and a fifth of a clustered process's CPU.
# The rows are found by their ids first, through the primary key: a join with the claims made
# PostgreSQL scan the whole table (2.5 times the statement's cost on 2,000 tables).
PG_FENCE = ("SELECT 1 / (count(*) = %({0}_n)s)::integer FROM ("  # (a constant 1 / 0 fails at planning)
            "SELECT 1 FROM tables AS t"
            " WHERE t.id = ANY(ARRAY(SELECT json_array_elements_text(%({0}_ids)s::json)))"
            " AND (t.id, t.owner_epoch) IN (SELECT * FROM json_to_recordset(%({0})s::json)"
            " AS w(id varchar, epoch integer)) FOR SHARE OF t) AS held")
STALE = "22012"  # the SQLSTATE of its failure (division_by_zero), which no other write can raise


def stale_claims(error: BaseException, claims: list[tuple[str, int]]) -> Fenced | None:
    """``error``, from PostgreSQL, as a ``Fenced`` if it is the fence's failure (else None)."""
    if getattr(error, "sqlstate", None) != STALE:
        return None
    named = ", ".join(f"{t} claim {e}" for t, e in claims)
    return Fenced(f"a write of a table's stale owner (one of {named})")


# The table (and its owner epoch) whose owner is writing, in a cluster (``Table._step`` sets it):
# ``write_all`` adds the ``fence`` to each of its transactions. None: no fence (one process).
FENCE: ContextVar[tuple[str, int] | None] = ContextVar("tarot_fence", default=None)


# A transaction left open this long by its process (PostgreSQL: "idle in transaction") is ended
# by the server. Only a process that stopped mid-transaction (frozen, paused, cut off) leaves one
# open: its fence's row lock would otherwise hold the next owner's claim (``claim_table``) until
# it woke. Its write was not acknowledged yet, so rolling it back loses nothing.
STALE_TRANSACTION_SECONDS = 5


def session_name(node: str | None) -> str:
    """The PostgreSQL ``application_name`` of a node's sessions (what ``end_sessions_of`` finds)."""
    return f"tarot {node}"[:63] if node else "tarot"


class TableOwnership:
    """``Store``'s claims and fences (its ``inline``: SQLite, one process, no sessions to end)."""

    inline: bool

    def end_sessions_of(self, conn: Connection, nodes: list[str]) -> int:
        """End the database sessions of ``nodes`` (dead: their lease is gone), so that none holds
        a lock a claim of their tables waits for; how many there were. A node frozen in the
        middle of a batch write (psycopg sends it in pipeline mode) holds its fence's row lock
        with no query under way, where PostgreSQL never arms the stale transaction's timeout.
        Its write was not acknowledged: rolling it back loses nothing. SQLite: no sessions."""
        if self.inline or not nodes:
            return 0
        ended = conn.execute(text(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE application_name = ANY(:names) AND pid <> pg_backend_pid()"),
            {"names": [session_name(n) for n in nodes]}).scalar()
        return int(ended or 0)

    def claim_table(self, conn: Connection, tid: str) -> int | None:
        """A new owner's claim of table ``tid``: its next owner epoch (None: no such table).
        Committed before the table is loaded, it waits for a stale owner's write under way
        (the row's lock) and makes every later one fail its ``fence``."""
        row = conn.execute(update(TableRow).where(TableRow.id == tid)
                           .values(owner_epoch=TableRow.owner_epoch + 1)
                           .returning(TableRow.owner_epoch)).first()
        return None if row is None else int(row[0])

    def fences(self, conn: Connection, claims: list[tuple[str, int]]) -> list[None]:
        """``fence`` for every unit of a batch: one statement. If one of them is stale the
        batch fails, and each unit is then committed alone (``_commit_each``): only the stale
        owner's is refused. The rows are read with a shared lock (PostgreSQL; SQLite has one
        writer anyway), which a claim's update waits for: it writes no new row version, as an
        update would at every card. PostgreSQL: ``PG_FENCE``, which need not be read."""
        wanted = dict(sorted(set(claims)))
        if conn.dialect.name == "postgresql":
            fence = self.fence_part(claims, "fence")
            cursor = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
            try:
                cursor.execute(fence.sql, fence.params)
            except Exception as e:
                raise stale_claims(e, claims) or e from None
            finally:
                cursor.close()
            return [None] * len(claims)
        rows = conn.execute(select(TableRow.id, TableRow.owner_epoch).where(TableRow.id.in_(sorted(wanted)))
                            .with_for_update(read=True))
        held = {tid: epoch for tid, epoch in rows}
        stale = [f"{t} claim {e}" for t, e in wanted.items() if held.get(t) != e]
        if stale:
            raise Fenced(f"a write of a table's stale owner ({', '.join(stale)})")
        return [None] * len(claims)

    def fence_part(self, jobs: list[tuple[Any, ...]], name: str) -> Part:
        """PostgreSQL: the fences of ``jobs`` (their ``(table, epoch)``) as a part of a statement."""
        wanted = sorted({(tid, epoch) for tid, epoch in jobs})
        claims = orjson.dumps([{"id": tid, "epoch": epoch} for tid, epoch in wanted]).decode()
        ids = orjson.dumps([tid for tid, _ in wanted]).decode()
        params = {f"{name}_n": len(wanted), f"{name}_ids": ids, name: claims}
        return Part(PG_FENCE.format(name), params, read=True)

    @batched(fences, at_once=fence_part)
    def fence(self, conn: Connection, tid: str, epoch: int) -> None:
        """In every transaction of a clustered table's owner (``write_all``): the transaction
        stands only if the table is still this owner's claim. A claim waits for this
        transaction (the row's shared lock), or this one sees the claim and is undone."""
        self.fences(conn, [(tid, epoch)])
