"""Several ``tarot serve`` processes as one site (docs/scaling.md), against the machine's real
PostgreSQL and Redis (``TAROT_TEST_POSTGRES_URL``, ``TAROT_TEST_REDIS_URL``; skipped without
them): a table created on node A is played by a client of A and a client of B (relayed through
Redis); A is killed mid-deal; B resumes the table and the game finishes, every acknowledged
action kept and the scores those of the stored records; an owner that was only frozen cannot
write once another node has claimed its table."""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("redis")
pytest.importorskip("websockets")

from cluster_harness import WsPlayer, env_urls, reset_redis, start_node
from server_harness import drive, free_port, reset_postgres, sign_up_over_http
from tarot.engine import DealRecord
from tarot.server.table.state import EPOCH

PG, REDIS = env_urls()
pytestmark = pytest.mark.skipif(not (PG and REDIS),
                                reason="needs TAROT_TEST_POSTGRES_URL and TAROT_TEST_REDIS_URL")
LEASE = 1.0
Nodes = list[tuple[int, subprocess.Popen[bytes]]]


@pytest.fixture
def nodes(tmp_path: Any) -> Iterator[Nodes]:
    """Two nodes, A then B (A migrates the database first); what each logs goes to a file of the
    test's (``node_logs``)."""
    assert PG and REDIS
    reset_postgres(PG)
    reset_redis(REDIS)
    started: list[tuple[int, subprocess.Popen[bytes]]] = []
    try:
        for name in "AB":
            port = free_port()
            log = (tmp_path / f"node-{name}.log").open("wb")
            started.append((port, start_node(PG, REDIS, port, LEASE, log=log)))
        yield started
    finally:
        for _, proc in started:
            if proc.poll() is None:
                proc.send_signal(signal.SIGCONT)
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()


def cluster_state(tid: str) -> str:
    """What the database and Redis say of table ``tid`` and of the sessions (a diagnosis: never
    raises, it says what it could not read)."""
    from redis import Redis
    from sqlalchemy import create_engine, text

    from tarot.server.store.store import normalize_url

    assert PG and REDIS
    lines: list[str] = []
    try:
        redis = Redis.from_url(REDIS)
        lines += [f"redis: {k.decode()} = {redis.get(k)!r}" for k in redis.scan_iter("tarot:*")
                  if redis.type(k) == b"string"]
        engine = create_engine(normalize_url(PG))
        with engine.connect() as conn:
            row = conn.execute(text("SELECT owner_epoch, version FROM tables WHERE id = :t"),
                               {"t": tid}).first()
            lines.append(f"tables row: {row}")
            for found in conn.execute(text("SELECT pid, state, wait_event_type, wait_event, left(query, 80) "
                                           "FROM pg_stat_activity WHERE datname = current_database()")):
                lines.append(f"pg: {tuple(found)}")
        engine.dispose()
    except Exception as exc:
        lines.append(f"(could not read more: {type(exc).__name__}: {exc})".splitlines()[0])
    return "\n".join(lines)


def stored_game(tid: str) -> tuple[dict[str, Any], list[dict[str, Any]], list[list[dict[str, Any]]]]:
    """The table's last game as PostgreSQL holds it: the game, its deals, each deal's actions."""
    from sqlalchemy import create_engine, text

    from tarot.server.store.store import normalize_url

    assert PG
    engine = create_engine(normalize_url(PG))
    with engine.connect() as conn:
        game = dict(conn.execute(text("SELECT * FROM games WHERE table_id = :t ORDER BY number DESC LIMIT 1"),
                                 {"t": tid}).mappings().one())
        deals = [dict(d) for d in conn.execute(text("SELECT * FROM deals WHERE game_id = :g ORDER BY number"),
                                               {"g": game["id"]}).mappings()]
        actions = [[dict(a) for a in conn.execute(
            text('SELECT * FROM actions WHERE deal_id = :d ORDER BY "index"'), {"d": d["id"]}).mappings()]
            for d in deals]
    engine.dispose()
    return game, deals, actions


def same_action(seen: dict[str, Any], stored: dict[str, Any]) -> bool:
    """An action event as a client saw it, and the stored action (another seat's écart is
    hidden: the event says how many cards)."""
    kept = stored["action"]
    if isinstance(seen["action"].get("ecart"), int):
        kept = kept | {"ecart": len(kept["ecart"])}
    return seen["seat"] == kept.get("seat", seen["seat"]) and all(
        kept.get(k) == v for k, v in seen["action"].items() if k != "seat")


def test_a_table_survives_its_node_killed_mid_deal(nodes: Nodes) -> None:
    (port_a, proc_a), (port_b, _) = nodes
    x = WsPlayer(port_a, "Xavier")  # connected to A, which owns the table
    x.send({"type": "create_table", "options": {"players": 4, "deals": 2}})
    tid = x.expect("created")["table"]
    x.send({"type": "join", "table": tid})
    x.expect("snapshot")
    y = WsPlayer(port_b, "Yvonne")  # connected to B: the table's messages go through Redis
    y.send({"type": "join", "table": tid})
    y.expect("snapshot")
    y.send({"type": "sit", "seat": 1})
    y.until(lambda s: s["table"]["seats"][1]["taken"])
    for seat in (2, 3):
        x.send({"type": "add_bot", "seat": seat, "bot": "heuristic"})
    # the bids, the chien, a few cards
    drive([x, y], until_finished=False, seed=22, until=lambda: len(y.acknowledged()) >= 14)
    assert x.state and x.state["table"]["status"] == "playing"
    assert not [m for m in x.messages + y.messages if m["type"] == "error"]

    proc_a.kill()  # SIGKILL: nothing is flushed, nobody is told
    proc_a.wait()
    seen_before = y.acknowledged()
    mark = len(y.messages)
    killed_at = time.monotonic()
    x.close()
    # X's page reconnects (to B: A is gone) with its token; Y does nothing at all
    x = WsPlayer(port_b, "Xavier", token=x.token)
    resumed = False
    while time.monotonic() - killed_at < 20 and not resumed:
        x.send({"type": "join", "table": tid})
        reply = x.recv(5)
        while reply["type"] not in ("snapshot", "error"):
            reply = x.recv(5)
        resumed = reply["type"] == "snapshot"
        if not resumed:
            assert reply["code"] == "no_table"
            time.sleep(0.2)
    assert resumed, "the table did not come back on B"
    # Y's connection to B never broke: B joined it to the table again once it owned it (a
    # snapshot Y did not ask for, in the table's next epoch)
    end = time.monotonic() + 10
    while not any(m["type"] == "snapshot" for m in y.messages[mark:]) and time.monotonic() < end:
        y.poll()
    assert any(m["type"] == "snapshot" for m in y.messages[mark:])
    assert y.version >= EPOCH
    assert x.state and x.state["you"] == 0  # the same seat, the same player
    drive([x, y], seed=23)  # to the game's end
    errors = [m for m in x.messages + y.messages if m["type"] == "error"]
    assert not errors, errors

    # hidden information through the relay: Y was only ever sent its own seat's view
    views = [m["state"]["view"] for m in y.messages if m["type"] in ("event", "snapshot")
             and m["state"].get("view") is not None]
    assert views and {v["seat"] for v in views} <= {-1, 1}
    assert all(len(v["hand"]) == 0 for v in views if v["seat"] == -1)
    game, deals, actions = stored_game(tid)
    assert game["status"] == "finished" and len(deals) == 2
    # every action Y saw accepted before A died is stored, in order, at the start of the deal(s)
    stored = [a for acts in actions for a in acts]
    assert len(stored) >= len(seen_before)
    for seen, kept in zip(seen_before, stored, strict=False):
        assert same_action(seen, kept), (seen, kept["action"], kept["index"])
    # the scores are those of the stored records, replayed by the engine
    totals = [0] * 4
    for d in deals:
        result = DealRecord.from_dict(d["record"]).replay().result().to_dict()
        assert result == d["result"]
        totals = [t + s for t, s in zip(totals, result["scores"], strict=True)]
    assert game["totals"] == totals
    final = y.state["sheet"] if y.state and "sheet" in y.state else None
    if final:
        assert final[-1]["totals"] == totals
    x.close()
    y.close()


def test_lobby_chat_friends_invitations_and_sign_out_cross_nodes(nodes: Nodes) -> None:
    from websockets.exceptions import ConnectionClosed

    (port_a, _), (port_b, _) = nodes
    p = WsPlayer(port_a, "Paul")
    q = WsPlayer(port_b, "Quentin")
    q.send({"type": "lobby"})
    assert q.expect("lobby")["total"] == 0
    p.send({"type": "lobby"})
    p.expect("lobby")
    # a table created on A is in B's lobby (pushed to Q, and in B's /api/tables)
    p.send({"type": "create_table", "options": {"players": 3, "deals": 1}})
    tid = p.expect("created")["table"]
    update = q.expect("lobby_update")
    assert [t["id"] for t in update["changed"]] == [tid] and update["total"] == 1
    listed = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port_b}/api/tables", timeout=5).read())
    assert [t["id"] for t in listed["tables"]] == [tid]
    # the lobby's chat: said on B, heard on A
    q.send({"type": "chat", "where": "lobby", "text": "bonjour"})
    line = p.expect("chat")
    assert line["message"]["text"] == "bonjour" and line["message"]["from"]["name"] == "Quentin"
    # Q lists P as a friend: online (on A), then at its table
    q.send({"type": "add_friend", "player": p.id})
    card = q.expect("friend_update")["friend"]
    assert card["id"] == p.id and card["online"] is True and card["table"] is None
    p.send({"type": "join", "table": tid})
    p.expect("snapshot")
    card = q.expect("friend_update")["friend"]
    assert card["online"] is True and card["table"] == tid
    # P, seated on A, invites Q, connected to B
    p.send({"type": "invite_friend", "player": q.id})
    invitation = q.expect("invitation")
    assert invitation["table"] == tid and invitation["from"]["id"] == p.id
    # Q joins it from B and sits: A's table sees Q at seat 1
    q.send({"type": "join", "table": tid})
    q.expect("snapshot")
    q.send({"type": "sit", "seat": 1})
    p.until(lambda s: s["table"]["seats"][1]["taken"] and s["table"]["seats"][1]["name"] == "Quentin")
    # P leaves: Q hears that P is offline
    p.close()
    card = q.expect("friend_update")["friend"]
    while card["online"]:
        card = q.expect("friend_update")["friend"]
    assert card["id"] == p.id
    assert not [m for m in p.messages + q.messages if m["type"] == "error"]
    # issue 34, item 10: signing out through A closes the websockets opened with that session on
    # A and on B (``Peers.signed_out``); another player's (Q's) stays open
    session = sign_up_over_http(port_a, "Alice")[0]
    cookie = {"cookie": f"tarot_session={session}"}
    alice = [WsPlayer(port, "Alice", headers=cookie) for port in (port_a, port_b)]
    out = urllib.request.Request(f"http://127.0.0.1:{port_a}/api/session", headers=cookie, method="DELETE")
    assert urllib.request.urlopen(out, timeout=10).status == 204
    for pl in alice:
        with pytest.raises(ConnectionClosed) as closed:
            pl.recv(5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    q.send({"type": "ping"})
    assert q.expect("pong", timeout=5)
    q.close()


# A failover bug this test's report diagnosed in CI (2026-11-28): A froze inside a batch write
# that psycopg sends in pipeline mode (``store.rows``: ``cursor.executemany``), before its Sync,
# where PostgreSQL never arms idle_in_transaction_session_timeout, so A's row lock held B's claim
# until A woke. Now the node that claims a dead node's tables first ends its database sessions
# (``Store.end_sessions_of``, by their application_name; test_store).
def test_a_frozen_owner_steps_down_and_its_players_follow_the_table(nodes: Nodes, tmp_path: Any) -> None:
    """Node A stops answering (SIGSTOP) longer than its lease: B claims A's table and the game
    goes on there. When A wakes up its table is no longer its own (the database fences what it
    would write, ``test_store``): it stops it, and the connection A still holds follows the
    table to B, through the relay; the game ends with the records consistent."""
    (port_a, proc_a), (port_b, _) = nodes
    x = WsPlayer(port_a, "Xavier")
    x.send({"type": "create_table", "options": {"players": 3, "deals": 1}})
    tid = x.expect("created")["table"]
    x.send({"type": "join", "table": tid})
    x.expect("snapshot")
    y = WsPlayer(port_b, "Yvonne")
    y.send({"type": "join", "table": tid})
    y.expect("snapshot")
    y.send({"type": "sit", "seat": 1})
    y.until(lambda s: s["table"]["seats"][1]["taken"])
    x.send({"type": "add_bot", "seat": 2, "bot": "heuristic"})
    drive([x, y], until_finished=False, seed=7, until=lambda: len(y.acknowledged()) >= 6)

    proc_a.send_signal(signal.SIGSTOP)
    # B resumed it: Y is there, untouched (a lease and a claim's round, and up to the stale
    # transaction's 5 s when A froze mid-write; 15 s was too short once with the tests run two at
    # a time). A rare CI failure here is unexplained: if it comes back, say what stood still.
    try:
        y.until(lambda s: s["version"] >= EPOCH, timeout=45)
    except TimeoutError:
        logs = "\n".join(f"node {n}: {(tmp_path / f'node-{n}.log').read_text()[-2000:]}" for n in "AB")
        raise AssertionError(f"B never resumed table {tid}:\n{cluster_state(tid)}\n{logs}") from None
    mark = len(x.messages)
    proc_a.send_signal(signal.SIGCONT)
    # X's connection to A never dropped: A steps down and joins X to the table at B
    end = time.monotonic() + 15
    while x.version < EPOCH and time.monotonic() < end:
        x.poll()
    assert x.version >= EPOCH and any(m["type"] == "snapshot" for m in x.messages[mark:])
    drive([x, y], seed=23)  # to the game's end
    assert not [m for m in y.messages if m["type"] == "error"]
    game, deals, actions = stored_game(tid)
    assert game["status"] == "finished" and len(deals) == 1
    assert [a["index"] for a in actions[0]] == list(range(len(actions[0])))
    record = DealRecord.from_dict(deals[0]["record"])
    assert record.replay().result().to_dict() == deals[0]["result"]
    assert game["totals"] == deals[0]["result"]["scores"]
    x.close()
    y.close()


def test_a_table_stays_reachable_when_redis_forgets_everything(nodes: Nodes) -> None:
    """Redis restarted empty (it keeps nothing on disk here): the nodes find their leases gone,
    take them and their tables back, and a player of the other node still reaches the table."""
    (port_a, _), (port_b, _) = nodes
    x = WsPlayer(port_a, "Xavier")
    x.send({"type": "create_table", "options": {"players": 3, "deals": 1}})
    tid = x.expect("created")["table"]
    x.send({"type": "join", "table": tid})
    x.expect("snapshot")
    assert REDIS
    reset_redis(REDIS)
    time.sleep(LEASE * 2)  # a renewal or two: each node sees its lease gone
    y = WsPlayer(port_b, "Yvonne")
    y.send({"type": "join", "table": tid})
    assert y.expect("snapshot")["table"] == tid
    y.send({"type": "sit", "seat": 1})
    x.until(lambda s: s["table"]["seats"][1]["taken"])
    x.close()
    y.close()


def test_limits_and_presence_hold_across_nodes(nodes: Nodes) -> None:
    """A player's open tables count on every node, a player cut off for flooding on one node is
    cut off on the others, and a node started later knows at once who is online elsewhere."""
    (port_a, _), (port_b, _) = nodes
    p = WsPlayer(port_a, "Paul")
    for _ in range(3):  # OPEN_TABLES_PER_PLAYER, on A
        p.send({"type": "create_table", "options": {"players": 3, "deals": 1}})
        p.expect("created")
    on_b = WsPlayer(port_b, "Paul", token=p.token)
    assert on_b.id == p.id
    on_b.send({"type": "create_table", "options": {"players": 3, "deals": 1}})
    refused = on_b.expect("error")
    assert refused["code"] == "too_many_tables" and "3 open tables" in refused["reason"]
    other = WsPlayer(port_b, "Olga")  # another player (same address: 4 times the room) may
    other.send({"type": "create_table", "options": {"players": 3, "deals": 1}})
    other.expect("created")
    on_b.close()
    other.close()

    # a node started now: a player connected to it sees Paul (on A) online among its friends
    assert PG and REDIS
    port_c = free_port()
    late = start_node(PG, REDIS, port_c, LEASE)
    try:
        r = WsPlayer(port_c, "Rita")
        r.send({"type": "add_friend", "player": p.id})
        card = r.expect("friend_update")["friend"]
        assert card["id"] == p.id and card["online"] is True
        r.close()
    finally:
        late.terminate()
        try:
            late.wait(10)
        except subprocess.TimeoutExpired:  # (seen once in CI under load: killed, so that no node
            late.kill()                   # outlives the test and counts in the next module's cluster)
            late.wait(10)

    # Paul floods A (a burst of 200 messages a player): cut off there, then refused by B too
    for _ in range(300):
        with contextlib.suppress(Exception):
            p.send({"type": "friends"})
    cut = p.expect("error")
    while cut["code"] != "flooding":
        cut = p.expect("error")
    p.close()
    again = WsPlayer(port_b, "Paul", token=p.token)
    refused = again.expect("error")
    assert refused["code"] == "flooding" and refused["retry_after"] > 0
    again.close()


def test_a_relayed_player_catches_up_what_pub_sub_lost(nodes: Nodes) -> None:
    """Redis drops every node's subscription (pub/sub keeps nothing meanwhile): a change at a
    table on A made before B listens again still reaches B's player, by a new snapshot."""
    from redis import Redis

    (port_a, _), (port_b, node_b) = nodes
    p = WsPlayer(port_a, "Paul")
    p.send({"type": "create_table", "options": {"players": 3, "deals": 1}})
    tid = p.expect("created")["table"]
    x = WsPlayer(port_a, "Xavier")
    q = WsPlayer(port_b, "Quentin")
    for client in (p, x, q):
        client.send({"type": "join", "table": tid})
        client.expect("snapshot")
    assert REDIS
    # B frozen for a moment (well within its lease), its subscription cut meanwhile: what A
    # says to B before B subscribes again is lost
    node_b.send_signal(signal.SIGSTOP)
    try:
        Redis.from_url(REDIS).client_kill_filter(_type="pubsub")
        x.send({"type": "sit", "seat": 1})
        p.until(lambda s: s["table"]["seats"][1]["taken"], timeout=LEASE / 3)
    finally:
        node_b.send_signal(signal.SIGCONT)
    q.until(lambda s: s["table"]["seats"][1]["taken"] and s["table"]["seats"][1]["name"] == "Xavier",
            timeout=10)
    for client in (p, x, q):
        client.close()

