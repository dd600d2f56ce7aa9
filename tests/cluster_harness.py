"""Real ``tarot serve`` processes sharing PostgreSQL and Redis (a cluster), and scripted
clients that talk to them over real websockets (``test_cluster.py``, ``bench/failover.py``)."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
import urllib.request
from typing import Any

from websockets.sync.client import ClientConnection, connect

from run_isolation import dies_with_us
from server_harness import ScriptedClient

# A node as ``tarot serve --db … --redis …`` starts it, with the table's pauses shortened.
NODE = """
import sys, uvicorn
from tarot.server.web.app import UVICORN_OPTIONS, create_app
from tarot.server.settings import Settings
db, redis, port, lease = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
settings = Settings(bot_delay=0.0, trick_pause=0.0, next_deal_wait=0.0, think=0.05, grace=60.0)
site = create_app(db, settings, redis_url=redis, lease=lease)
uvicorn.run(site, host="127.0.0.1", port=port, log_level="warning", **UVICORN_OPTIONS)
"""


def start_node(db: str, redis: str, port: int, lease: float = 1.0,
               log: Any = None) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([sys.executable, "-c", NODE, db, redis, str(port), str(lease)],
                            stdout=log or subprocess.DEVNULL, stderr=log or subprocess.DEVNULL,
                            preexec_fn=dies_with_us())
    end = time.monotonic() + 60
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"node on port {port} exited with {proc.returncode}")
        with contextlib.suppress(OSError):
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=1).read()
            return proc
        time.sleep(0.1)
    proc.kill()
    raise RuntimeError(f"node on port {port} did not answer within 60 s")


def reset_redis(url: str, prefix: str = "tarot:") -> None:
    from redis import Redis

    r = Redis.from_url(url)
    keys = list(r.scan_iter(f"{prefix}*"))
    if keys:
        r.delete(*keys)


class WsPlayer(ScriptedClient):
    """A scripted client of one node over a real websocket: every message it got, its state."""

    def __init__(self, port: int, name: str, token: str | None = None,
                 headers: dict[str, str] | None = None) -> None:
        self.name = name
        self.messages: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.version = 0
        self.acted_version = -1
        self._opened = connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10, additional_headers=headers)
        self.ws: ClientConnection = self._opened.__enter__()
        self.send({"type": "hello", "name": name, **({"token": token} if token else {})})
        welcome = self.expect("welcome")
        self.token: str = welcome.get("token") or token or ""
        self.id: str = welcome["player"]["id"]

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send(json.dumps(msg))

    def read(self, timeout: float) -> str:
        return str(self.ws.recv(timeout=timeout))

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._opened.__exit__(None, None, None)

    def acknowledged(self) -> list[dict[str, Any]]:
        """The actions this client saw accepted (``action`` events), in order."""
        return [m["event"] for m in self.messages
                if m["type"] == "event" and m["event"]["kind"] == "action"]


def env_urls() -> tuple[str | None, str | None]:
    return os.environ.get("TAROT_TEST_POSTGRES_URL"), os.environ.get("TAROT_TEST_REDIS_URL")
