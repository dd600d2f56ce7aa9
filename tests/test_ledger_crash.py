"""Issue 17: a server killed (SIGKILL) while a competitive game ends loses and duplicates
nothing: after a restart the game ends once, its stake, pot and XP are each in the ledger once,
and every balance is the sum of its ledger. A real ``tarot serve`` process, a real websocket."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, select

from run_isolation import dies_with_us
from server_harness import choose, db_url, free_port, sign_up_over_http
from tarot.server.players import players
from tarot.server.protocol import merge_state
from tarot.server.store.schema import GamePlayerRow, GameRow, LedgerRow, PlayerRow
from tarot.server.store.store import normalize_url

websockets_sync = pytest.importorskip("websockets.sync.client")


@contextmanager
def serving(url: str, where: Path, port: int) -> Iterator[subprocess.Popen[str]]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    # (the bots at once: the kill, not the pace, is what is tried)
    command = [sys.executable, "-m", "tarot.cli", "serve", "--port", str(port), "--db", url,
               "--bot-delay", "0", "--trick-pause", "0"]
    proc = subprocess.Popen(command, cwd=where, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            text=True, env=env, preexec_fn=dies_with_us())
    try:
        end = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=2):
                    break
            except OSError:
                assert proc.poll() is None and time.monotonic() < end, "tarot serve did not start"
                time.sleep(0.1)
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(15)


class Client:
    """A signed-in player over a real websocket (its cookie), keeping the table's state."""

    def __init__(self, port: int, cookie: str) -> None:
        self.ws = websockets_sync.connect(
            f"ws://127.0.0.1:{port}/ws", additional_headers={"cookie": f"tarot_session={cookie}"}).__enter__()
        self.state: dict[str, Any] | None = None
        self.send({"type": "hello"})
        assert self.recv()["player"]["account"] is True

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send(json.dumps(msg))

    def recv(self, timeout: float = 20.0) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(self.ws.recv(timeout))
        if msg["type"] in ("event", "snapshot"):
            self.state = merge_state(self.state, msg)
        return msg

    def my_turn(self) -> bool:
        s = self.state
        return bool(s and s["view"] and s["table"]["status"] == "playing" and s["view"]["turn"] == s["you"])


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_kill_during_a_competitive_game_end_loses_and_duplicates_nothing(kind: str, tmp_path: Path) -> None:
    url = db_url(kind, tmp_path)
    port = free_port()
    rng = random.Random(7)
    with serving(url, tmp_path, port) as proc:
        cookie = sign_up_over_http(port, "Alice")[0]
        alice = Client(port, cookie)
        alice.send({"type": "create_table", "options": {"players": 3, "deals": 1, "competitive": True,
                                                         "stake": 100}})
        tid = alice.recv()["table"]
        alice.send({"type": "join", "table": tid})
        for seat in (1, 2):
            alice.send({"type": "add_bot", "seat": seat, "bot": "random"})
        # play until Alice's last card, send it and kill the server at once: its end (the
        # deal's record, the game's end, the ratings, the pot and the XP) may or may not be
        # written, never half
        acted = -1
        while True:
            alice.recv()
            if alice.my_turn() and alice.state is not None and alice.state["version"] != acted:
                acted = alice.state["version"]
                view = alice.state["view"]
                action = choose(view, rng)
                alice.send({"type": "act", "action": action})
                if view["phase"] == "play" and len(view["hand"]) == 1:
                    proc.send_signal(signal.SIGKILL)
                    proc.wait(15)
                    break
    with serving(url, tmp_path, port):  # the same database, a new process
        alice = Client(port, cookie)
        alice.send({"type": "join", "table": tid})
        end = time.monotonic() + 60
        acted = -1
        while time.monotonic() < end:
            msg = alice.recv()
            if msg["type"] == "error":
                assert msg["code"] == "no_table"  # the game's end was stored: nothing to resume
                print("the game's end was stored before the kill")
                break
            if alice.state and alice.state["table"]["status"] == "finished":
                print("the game ended after the restart")
                break
            if alice.my_turn() and alice.state is not None and alice.state["version"] != acted:
                acted = alice.state["version"]  # once per position
                alice.send({"type": "act", "action": choose(alice.state["view"], rng)})
    engine = create_engine(normalize_url(url))
    with engine.connect() as conn:
        assert list(conn.execute(select(GameRow.status))) == [("finished",)]
        game_rows = select(LedgerRow.kind).where(LedgerRow.game_id.is_not(None))
        kinds = sorted(k for (k,) in conn.execute(game_rows))
        assert kinds.count("stake") == 1 and kinds.count("xp") == 1 and kinds.count("pot") <= 1
        assert all(r is not None for (r,) in conn.execute(select(GamePlayerRow.rank)))
        for pid, chips, xp in conn.execute(select(PlayerRow.id, PlayerRow.chips, PlayerRow.xp)):
            assert players.ledger_sums(conn, pid) == (chips, xp)
    engine.dispose()
