"""The store's group commit, on a real SQLite file (and PostgreSQL when its URL is given)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sqlalchemy")

from sqlalchemy import event, insert, select, text

from server_harness import PG_URL, db_url, reset_postgres
from tarot.server.store.ownership import FENCE, Fenced
from tarot.server.store.rows import Rows
from tarot.server.store.schema import ActionRow, DealRow, GameRow, TableRow
from tarot.server.store.store import Store, migrate, stamp


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    url = db_url(request.param, tmp_path)
    migrate(url)
    s = Store(url)
    yield s
    s.close()


@pytest.fixture
def pg_store() -> Any:
    """A store of node ``N`` on a fresh PostgreSQL database (``TAROT_TEST_POSTGRES_URL``)."""
    assert PG_URL
    reset_postgres(PG_URL)
    migrate(PG_URL)
    s = Store(PG_URL, node="N")
    yield s
    s.close()


def start_game(conn: Any, tid: str, number: int, players: int, deals: int, first_dealer: int) -> int:
    """A write of a game's row alone (the server writes it with its first deal: ``begin_game``)."""
    row = Store._game_row(tid, number, players, deals, first_dealer) | {"started": stamp(conn)}
    return int(conn.execute(insert(GameRow).returning(GameRow.id), row).scalar_one())


async def _table_with_deal(store: Store, tid: str) -> int:
    await store.write(store.save_table, tid, None, {}, [], "playing", 1)
    gid = await store.write(start_game, tid, 1, 4, 1, 0)
    return await store.write(store.start_deal, gid, 1, 0, "seed", "salt", "c")


def test_writes_waiting_together_share_one_transaction(store: Store) -> None:
    """Actions of many tables that wait at once are committed together, each one stored."""

    async def main() -> None:
        deals = [await _table_with_deal(store, f"t{i}") for i in range(40)]
        before = store.transactions
        await asyncio.gather(*(store.add_action(d, 0, 2, {"seat": 0, "bid": "pass"}, "player")
                               for d in deals))
        commits = store.transactions - before
        assert 1 <= commits <= 3, commits  # the first alone, the others in a batch or two

    asyncio.run(main())
    assert store.count(ActionRow) == 40
    with store.sessions() as s:  # written through the driver, read back through SQLAlchemy
        rows = list(s.scalars(select(ActionRow)))
    assert {(r.index, r.table_version, r.by) for r in rows} == {(0, 2, "player")}
    assert all(r.action == {"seat": 0, "bid": "pass"} and r.created > 0 for r in rows)


def test_a_failing_write_fails_alone_and_leaves_nothing_of_its_unit(store: Store) -> None:
    """Writes that must stand or fall together (``write_all``) are rolled back together; the
    other tables' writes of the same batch are still committed."""

    def broken(_conn: Any) -> None:
        raise OSError("disk full")

    async def main() -> int:
        deal = await _table_with_deal(store, "ok")
        good = store.write_all([(store.save_table, ("t-good", None, {}, [], "waiting", 1)),
                                (start_game, ("t-good", 1, 4, 1, 0))])
        bad = store.write_all([(store.save_table, ("t-bad", None, {}, [], "waiting", 1)), (broken, ())])
        action = store.add_action(deal, 0, 2, {"seat": 0, "bid": "pass"}, "player")
        results = await asyncio.gather(good, bad, action, return_exceptions=True)
        assert results[0] == [None, results[0][1]] and isinstance(results[0][1], int)
        assert isinstance(results[1], OSError)
        assert results[2] is None
        return int(results[0][1])  # type: ignore[index]

    good_game = asyncio.run(main())
    with store.engine.connect() as conn:
        tables = {r[0] for r in conn.execute(TableRow.__table__.select().with_only_columns(TableRow.id))}
        games = conn.execute(GameRow.__table__.select()).fetchall()
    assert tables == {"ok", "t-good"}
    assert len(games) == 2
    assert [g.id for g in games if g.table_id == "t-good"] == [good_game]  # the result is its row's
    assert store.count(ActionRow) == 1
    with store.sessions() as s:  # written again, alone, after the batch failed: still the same
        assert s.scalars(select(ActionRow)).one().action == {"seat": 0, "bid": "pass"}


def test_a_grouped_update_of_a_row_not_there_fails_its_unit_only(store: Store) -> None:
    """A grouped update runs before its unit's other writes: one that finds no row (say, a table
    saved in the same unit) must fail, not pass for done; the other units of its batch stand."""

    async def main() -> list[Any]:
        await store.write(store.save_table, "t-there", None, {}, [], "playing", 1)
        return await asyncio.gather(
            store.write_all([(store.save_table, ("t-new", None, {}, [], "waiting", 1)),
                             (store.set_table_status, ("t-new", "finished", 5))]),
            store.write(store.set_table_status, "t-there", "finished", 7),
            return_exceptions=True)

    first, second = asyncio.run(main())
    assert isinstance(first, LookupError) and "1 of 1 rows" in str(first)
    assert second is None
    with store.engine.connect() as conn:
        rows = {r.id: (r.status, r.version) for r in conn.execute(TableRow.__table__.select())}
    assert rows == {"t-there": ("finished", 7)}  # nothing of the failed unit


def _grouped_runs(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Each run of a grouped statement (on the driver's executemany, which SQLAlchemy's events
    do not see): its SQL verb and how many rows it wrote."""
    runs: list[tuple[str, int]] = []
    run = Rows.run

    def spy(self: Rows, conn: Any, rows: list[dict[str, Any]]) -> None:
        runs.append((str(self.statement).split()[0], len(rows)))
        run(self, conn, rows)

    monkeypatch.setattr(Rows, "run", spy)
    return runs


def test_deal_ends_of_many_tables_run_each_statement_once(store: Store,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables that end a deal together: each kind of row is written by one statement with every
    table's parameters, and every table's rows hold its own values."""

    async def main() -> tuple[list[int], list[int], list[tuple[str, int]]]:
        deals = [await _table_with_deal(store, f"t{i}") for i in range(30)]
        with store.engine.connect() as conn:
            games = [conn.execute(DealRow.__table__.select().where(DealRow.id == d)).one().game_id
                     for d in deals]
        statements = _grouped_runs(monkeypatch)
        await asyncio.gather(*(store.write_all([
            (store.finish_deal, (d, {"format": "tarot-deal/1", "n": i}, {"scores": [i, -i, 0, 0]})),
            (store.finish_game, (games[i], [i, -i, 0, 0])),
            (store.set_table_status, (f"t{i}", "finished", 100 + i)),
        ]) for i, d in enumerate(deals)))
        return deals, games, statements

    deals, games, statements = asyncio.run(main())
    # 3 statements for the batch (6 if the first table's writes went alone), not 90
    assert len(statements) <= 6 and {sql for sql, _ in statements} == {"UPDATE"}, statements
    assert sum(n for _, n in statements) == 90 and max(n for _, n in statements) >= 29, statements
    with store.engine.connect() as conn:
        for i, (d, g) in enumerate(zip(deals, games, strict=True)):
            deal = conn.execute(DealRow.__table__.select().where(DealRow.id == d)).one()
            assert (deal.status, deal.record["n"], deal.result["scores"][0]) == ("done", i, i)
            game = conn.execute(GameRow.__table__.select().where(GameRow.id == g)).one()
            assert (game.status, game.totals) == ("finished", [i, -i, 0, 0])
            table = conn.execute(TableRow.__table__.select().where(TableRow.id == f"t{i}")).one()
            assert (table.status, table.version) == ("finished", 100 + i)


def test_games_and_deals_started_together_take_a_few_statements_and_get_their_own_ids(store: Store) -> None:
    """Tables that start a game (or a deal) in the same moment: the games, their first deals
    and the tables are written by one statement each, and each table gets back the ids of its
    own rows, in the order it asked (not the order the database chose)."""

    async def main() -> tuple[list[Any], list[Any], list[tuple[str, bool]]]:
        for i in range(25):
            await store.write(store.save_table, f"t{i}", None, {"players": 4}, [], "waiting", 1)
        statements: list[tuple[str, bool]] = []
        event.listen(store.engine, "before_cursor_execute",
                     lambda _c, _cur, sql, _p, _ctx, many: statements.append((sql.split()[0], many)))
        # the tables in a shuffled order, with numbers, dealers and seeds of their own
        order = [(i * 7) % 25 for i in range(25)]
        starts = await asyncio.gather(*(store.write(
            store.begin_game, (f"t{i}", None, {"players": 4}, [{"name": f"p{i}"}], "playing", 10 + i),
            (f"t{i}", 1 + i % 3, 4, 1 + i, i % 4), (1, (i + 1) % 4, f"seed{i}", f"salt{i}", f"c{i}"))
            for i in order))
        begun = len(statements)
        nexts = await asyncio.gather(*(store.write(
            store.start_deal, gid, 2, (i + 2) % 4, f"seed{i}b", f"salt{i}b", f"c{i}b")
            for i, (gid, _) in zip(order, starts, strict=True)))
        return list(zip(order, starts, nexts, strict=True)), statements[:begun], statements[begun:]

    rows, begin, deal = asyncio.run(main())
    # one INSERT of games, one of deals, one UPDATE of tables (twice that if the first went alone)
    assert len(begin) <= 6 and [sql for sql, _ in begin].count("INSERT") <= 4, begin
    assert len(deal) <= 2 and {sql for sql, _ in deal} == {"INSERT"}, deal
    with store.engine.connect() as conn:
        for i, (gid, did), next_did in rows:
            game = conn.execute(GameRow.__table__.select().where(GameRow.id == gid)).one()
            assert (game.table_id, game.number, game.deals, game.first_dealer) == (
                f"t{i}", 1 + i % 3, 1 + i, i % 4)
            first = conn.execute(DealRow.__table__.select().where(DealRow.id == did)).one()
            assert (first.game_id, first.number, first.dealer, first.seed) == (
                gid, 1, (i + 1) % 4, f"seed{i}")
            second = conn.execute(DealRow.__table__.select().where(DealRow.id == next_did)).one()
            assert (second.game_id, second.number, second.seed) == (gid, 2, f"seed{i}b")
            table = conn.execute(TableRow.__table__.select().where(TableRow.id == f"t{i}")).one()
            assert (table.status, table.version, table.seats) == ("playing", 10 + i, [{"name": f"p{i}"}])


def test_sqlite_writes_run_on_the_event_loop_thread_and_postgres_ones_on_the_worker(store: Store) -> None:
    """SQLite commits in the loop's own thread (no GIL handoff to a busy loop); PostgreSQL
    waits for its server, so it keeps the worker thread."""
    import threading

    def where(_conn: Any) -> int:
        return threading.get_ident()

    async def main() -> int:
        result: int = await store.write(where)
        return result

    loop_thread = threading.get_ident()  # asyncio.run runs the loop in this thread
    ran_in = asyncio.run(main())
    assert (ran_in == loop_thread) == store.url.startswith("sqlite")


def test_worker_thread_writes_are_committed_and_fail_cleanly_once_it_is_gone(tmp_path: Path) -> None:
    """The worker thread's path (PostgreSQL's; here on SQLite, so that it always runs): writes
    are committed; once the worker is shut down a write fails at once instead of waiting forever."""
    url = db_url("sqlite", tmp_path)
    migrate(url)
    s = Store(url)
    s.inline = False

    async def main() -> None:
        deal = await _table_with_deal(s, "w")
        await asyncio.gather(*(s.add_action(deal, i, i + 2, {"seat": 0, "play": "1S"}, "player")
                               for i in range(5)))
        s._pool.shutdown(wait=True)
        with pytest.raises(RuntimeError):
            await asyncio.wait_for(s.add_action(deal, 5, 7, {"seat": 0, "play": "2S"}, "player"), 5)

    try:
        asyncio.run(main())
    finally:
        s.engine.dispose()
    s2 = Store(url)
    try:
        assert s2.count(ActionRow) == 5
    finally:
        s2.close()


def test_sqlite_wal_is_checkpointed_in_the_background(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Automatic checkpoints are off (they would fsync inside a commit, on the event loop);
    the store copies the WAL into the database file from its worker thread instead."""
    import sqlite3

    import tarot.server.store.store as store_module

    url = db_url("sqlite", tmp_path)
    migrate(url)
    s = Store(url)
    monkeypatch.setattr(store_module, "CHECKPOINT_EVERY", 0.0)
    try:
        async def main() -> None:
            deal = await _table_with_deal(s, "t")
            for i in range(50):
                await s.add_action(deal, i, i + 2, {"seat": i % 4, "play": "1T"}, "player")
            assert s._checkpoint is not None  # started by the writes
            await asyncio.wrap_future(s._checkpoint)
            s._maybe_checkpoint()  # one more, after the last write
            await asyncio.wrap_future(s._checkpoint)

        asyncio.run(main())
        with s.engine.connect() as conn:
            auto = conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar()
        assert auto == 0
        # Everything committed is in the main database file: a reader that ignores the WAL
        # (immutable=1) sees all 50 actions.
        path = tmp_path / "tarot.sqlite3"
        raw = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
        try:
            assert raw.execute("SELECT COUNT(*) FROM actions").fetchone()[0] == 50
        finally:
            raw.close()
    finally:
        s.close()


def test_a_stale_owner_cannot_write_once_the_table_is_claimed(store: Store) -> None:
    """Several processes (``cluster``): a table's owner writes under its claim's epoch
    (``FENCE``); once another process has claimed the table, every write of the old owner is
    refused by the database (``Fenced``) and leaves nothing, while the new owner's go in, and so
    do writes of other tables in the same batch."""

    async def main() -> None:
        deal = await _table_with_deal(store, "t1")
        await _table_with_deal(store, "t2")
        first = await store.write(store.claim_table, "t1")
        token = FENCE.set(("t1", first))
        try:
            await store.add_action(deal, 0, 2, {"seat": 0, "bid": "pass"}, "player")  # the owner's: kept
        finally:
            FENCE.reset(token)
        second = await store.write(store.claim_table, "t1")  # another process takes it over
        assert second == first + 1
        other = asyncio.create_task(_other_table_write(store))  # (its context: no fence)
        stale = FENCE.set(("t1", first))
        try:
            late = store.add_action(deal, 1, 3, {"seat": 1, "bid": "pass"}, "player")
            chat_and_status = store.write_all([(store.save_table, ("t1", None, {}, [], "finished", 9))])
            results = await asyncio.gather(late, chat_and_status, other, return_exceptions=True)
        finally:
            FENCE.reset(stale)
        assert isinstance(results[0], Fenced) and isinstance(results[1], Fenced), results
        assert results[2] is None
        token = FENCE.set(("t1", second))
        try:  # the new owner writes the same index the stale one tried
            await store.add_action(deal, 1, 3, {"seat": 1, "bid": "garde"}, "player")
        finally:
            FENCE.reset(token)
        assert await store.write(store.claim_table, "nowhere") is None

    asyncio.run(main())
    with store.sessions() as s:
        actions = [(a.index, a.action["bid"]) for a in s.scalars(select(ActionRow).order_by(ActionRow.index))]
        row = s.get(TableRow, "t1")
        assert row is not None
        assert (row.status, row.version) == ("playing", 1)  # the stale save left nothing
    assert actions == [(0, "pass"), (1, "garde")]


def test_a_refused_move_leaves_the_store_able_to_write(store: Store) -> None:
    """A stale owner's move alone in its batch (on PostgreSQL: the fence and the action as one
    statement, which the fence fails) is ``Fenced`` and leaves nothing; the writes after it, moves
    and others, go in on the same connections (a first version, a transaction in a pipeline, left
    its connection in an aborted transaction, and the next write on it failed)."""

    async def main() -> None:
        deal = await _table_with_deal(store, "t1")
        first = await store.write(store.claim_table, "t1")
        await store.write(store.claim_table, "t1")  # another process takes it over
        stale = FENCE.set(("t1", first))
        try:
            with pytest.raises(Fenced):
                await store.add_action(deal, 0, 2, {"seat": 0, "bid": "pass"}, "player")
        finally:
            FENCE.reset(stale)
        for i in range(3):  # (on whichever of the pool's connections)
            await store.add_action(deal, i, i + 2, {"seat": 0, "bid": "pass"}, "player")
            await store.write(store.save_table, "t1", None, {}, [], "playing", 3 + i)

    asyncio.run(main())
    assert store.count(ActionRow) == 3


def test_a_stale_move_among_others_fails_alone(store: Store) -> None:
    """Moves of several tables committed together (on PostgreSQL: one statement), one of them a
    stale owner's: that one is ``Fenced``, the others are stored."""

    async def main() -> tuple[Any, ...]:
        deals = [await _table_with_deal(store, f"t{i}") for i in range(3)]
        claims = [await store.write(store.claim_table, f"t{i}") for i in range(3)]
        await store.write(store.claim_table, "t1")  # another process takes t1 over

        async def move(i: int) -> None:
            token = FENCE.set((f"t{i}", claims[i]))
            try:
                await store.add_action(deals[i], 0, 2, {"seat": 0, "bid": "pass"}, "player")
            finally:
                FENCE.reset(token)

        return tuple(await asyncio.gather(*(move(i) for i in range(3)), return_exceptions=True))

    results = asyncio.run(main())
    assert results[0] is None and results[2] is None and isinstance(results[1], Fenced), results
    with store.sessions() as s:
        assert len(s.scalars(select(ActionRow)).all()) == 2


@pytest.mark.skipif(not PG_URL, reason="needs TAROT_TEST_POSTGRES_URL")
def test_reads_do_not_wait_behind_a_write_that_waits(pg_store: Store) -> None:
    """PostgreSQL: reads (``Store.query``, ``Store.read``) run on threads of their own. A write
    waiting on the server (here a lock; when a node died, 400 reconnections' reads were queued
    before the claim of its tables) holds back neither a read nor a table's loading."""
    store = pg_store

    async def main() -> None:
        await _table_with_deal(store, "t0")
        with store.engine.connect() as locker:  # t0's row, locked by a transaction left open
            locker.execute(text("SELECT 1 FROM tables WHERE id = 't0' FOR UPDATE"))
            claim = asyncio.create_task(store.write(store.claim_table, "t0"))
            for _ in range(1000):  # (until the claim waits on the lock)
                if await store.query(lambda c: c.execute(text(
                        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                        " AND datname = current_database()")).scalar()):
                    break
                await asyncio.sleep(0.01)
            else:
                raise AssertionError("the claim never waited")
            loaded = await asyncio.wait_for(store.read(store.load_table, "t0"), 10)
            assert loaded is not None and not claim.done()
            locker.rollback()
        assert await asyncio.wait_for(claim, 10) == 1

    asyncio.run(main())


@pytest.mark.skipif(not PG_URL, reason="needs TAROT_TEST_POSTGRES_URL")
def test_moves_are_written_again_once_their_connection_was_lost(pg_store: Store) -> None:
    """PostgreSQL: moves go on the store's own connection (``Store._move_statement``). When the
    server ends it (a restart, an administrator), the move under way fails with a clear error,
    and the next one connects again: the store does not keep a dead connection."""
    store = pg_store

    async def main() -> None:
        deal = await _table_with_deal(store, "t1")
        await store.add_action(deal, 0, 2, {"seat": 0, "bid": "pass"}, "player")
        assert store._mover is not None
        with store.engine.connect() as conn:  # its session is ended
            pid = store._mover.info.backend_pid
            conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        with pytest.raises(Exception, match=r"terminat|closed|connection"):
            await store.add_action(deal, 1, 3, {"seat": 1, "bid": "pass"}, "player")
        await store.add_action(deal, 1, 3, {"seat": 1, "bid": "pass"}, "player")
        await store.add_action(deal, 2, 4, {"seat": 2, "bid": "pass"}, "player")

    asyncio.run(main())
    with store.sessions() as s:
        assert [a.index for a in s.scalars(select(ActionRow).order_by(ActionRow.index))] == [0, 1, 2]


@pytest.mark.skipif(not PG_URL, reason="needs TAROT_TEST_POSTGRES_URL")
def test_a_claim_is_not_held_by_an_open_transaction_of_a_frozen_owner(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A process frozen mid-transaction (SIGSTOP, a paused machine) holds its fence's row lock:
    the next owner's claim waited for it as long as it slept (a cluster test timed out on it in
    CI). The server now ends such a transaction after ``STALE_TRANSACTION_SECONDS`` and the claim
    goes through; the frozen owner's write, never acknowledged, is rolled back."""
    from tarot.server.store import store as store_module

    assert PG_URL
    monkeypatch.setattr(store_module, "STALE_TRANSACTION_SECONDS", 1)
    reset_postgres(PG_URL)
    migrate(PG_URL)
    frozen, claimer = Store(PG_URL), Store(PG_URL)
    try:
        conn, epoch = _frozen_mid_write(frozen, "t1")
        claimed: list[int | None] = []

        def claim() -> None:
            with claimer.engine.begin() as c:
                claimed.append(claimer.claim_table(c, "t1"))

        worker = threading.Thread(target=claim, daemon=True)
        worker.start()
        worker.join(20)
        held = worker.is_alive()
        if held:
            conn.rollback()  # (the old behaviour: free the claim, so the test ends)
            worker.join(10)
        assert not held, "the claim waited for the frozen owner's transaction"
        assert claimed == [epoch + 1]
        with claimer.sessions() as s:  # the frozen write was rolled back
            assert s.scalars(select(ActionRow)).all() == []
        conn.invalidate()  # (its session is gone: the server ended it)
    finally:
        frozen.close()
        claimer.close()


@pytest.mark.skipif(not PG_URL, reason="needs TAROT_TEST_POSTGRES_URL")
def test_a_dead_nodes_sessions_are_ended_so_that_its_tables_can_be_claimed() -> None:
    """A node frozen in the middle of a pipelined batch write holds its fence's row lock with no
    query under way, where PostgreSQL never arms the stale transaction's timeout (the cluster's
    frozen-owner test met it). The node that claims its tables first ends its sessions, found by
    their ``application_name``: the claim goes through at once, the frozen write is rolled back,
    and the claimer's own sessions and another node's are left alone."""
    assert PG_URL
    reset_postgres(PG_URL)
    migrate(PG_URL)
    frozen, other, claimer = Store(PG_URL, node="A"), Store(PG_URL, node="C"), Store(PG_URL, node="B")
    try:
        conn, epoch = _frozen_mid_write(frozen, "t1")
        bystander = other.engine.connect()
        with claimer.engine.begin() as c:
            assert claimer.end_sessions_of(c, ["A"]) == 1
            assert claimer.end_sessions_of(c, ["nobody"]) == 0
            c.execute(text("SET LOCAL lock_timeout = '5s'"))  # (without the ending: a failure, not a hang)
            assert claimer.claim_table(c, "t1") == epoch + 1
        with claimer.sessions() as s:  # the frozen write was rolled back
            assert s.scalars(select(ActionRow)).all() == []
        assert bystander.execute(text("SELECT 1")).scalar() == 1  # another node's session lives
        bystander.close()
        conn.invalidate()  # (its session is gone: the claimer ended it)
    finally:
        frozen.close()
        other.close()
        claimer.close()


def _frozen_mid_write(store: Store, tid: str) -> tuple[Any, int]:
    """Table ``tid`` of ``store``'s process, frozen in the middle of a write: its open transaction
    (the connection, and the epoch its fence holds) with the fence's shared row lock taken and an
    action written, never committed."""
    deal = asyncio.run(_table_with_deal(store, tid))
    conn = store.engine.connect()
    conn.begin()
    epoch = conn.execute(select(TableRow.owner_epoch).where(TableRow.id == tid)).scalar_one()
    store.fences(conn, [(tid, epoch)])  # its fence's shared row lock, then it sleeps
    conn.execute(insert(ActionRow).values(deal_id=deal, index=0, table_version=2,
                                          action={"seat": 0, "bid": "pass"}, by="player", created=0.0))
    return conn, epoch


async def _other_table_write(store: Store) -> None:
    """Another table's write, unfenced, in the same batch as the stale ones."""
    await store.write(store.save_table, "t2", None, {}, [], "waiting", 5)


@pytest.mark.skipif(not PG_URL, reason="needs TAROT_TEST_POSTGRES_URL")
def test_processes_starting_together_migrate_the_database_once() -> None:
    """Several processes of a cluster starting at once on a new PostgreSQL database: one
    migrates, the others wait for it and find nothing to do (without the lock, concurrent
    Alembic upgrades here failed or hung)."""
    assert PG_URL
    reset_postgres(PG_URL)
    errors: list[BaseException] = []

    def start() -> None:
        try:
            migrate(PG_URL)
        except BaseException as e:
            errors.append(e)

    starts = [threading.Thread(target=start, daemon=True) for _ in range(3)]
    for t in starts:
        t.start()
    for t in starts:
        t.join(60)
    assert not any(t.is_alive() for t in starts) and not errors, errors
    s = Store(PG_URL)
    try:
        assert s.count(TableRow) == 0
    finally:
        s.close()
