"""``tarot serve`` as a user starts it: a process on a free port, the SQLite file created in the
current directory, the page and the websocket served by uvicorn (the in-process TestClient of
test_server.py does not go through uvicorn's websocket code)."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeAlias

import pytest

pytest.importorskip("fastapi")
websockets = pytest.importorskip("websockets")

from cluster_harness import WsPlayer  # noqa: E402
from run_isolation import dies_with_us  # noqa: E402
from server_harness import free_port, sign_up_over_http  # noqa: E402

Served: TypeAlias = tuple[int, Path, "subprocess.Popen[str]"]  # port, directory, process


@pytest.fixture
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with serving(tmp_path_factory) as running:
        yield running


@contextmanager
def serving(tmp_path_factory: pytest.TempPathFactory, *options: str) -> Iterator[Served]:
    """``tarot serve --port PORT *options`` in a new directory, once it answers."""
    where = tmp_path_factory.mktemp("serve")
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "tarot.cli", "serve", "--port", str(port), *options],
                            cwd=where, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            preexec_fn=dies_with_us())
    try:
        end = time.monotonic() + 60
        while time.monotonic() < end:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=2):
                    break
            except OSError:
                assert proc.poll() is None, proc.communicate()[0]
                time.sleep(0.1)
        else:
            pytest.fail("tarot serve did not answer within 60 s")
        yield port, where, proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()


def test_flooding_gets_an_error_then_the_policy_close_code(served: Served) -> None:
    """docs/protocol.md: a client over the rate limit gets ``flooding``, then the connection is
    closed with code 1008 (a close frame, not a dropped socket)."""

    port = served[0]

    async def flood() -> tuple[list[str], int | None]:
        codes: list[str] = []
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws") as ws:
            try:  # the server may close while the pings are still being sent
                await ws.send(json.dumps({"type": "hello", "name": "F"}))
                for _ in range(400):
                    await ws.send(json.dumps({"type": "ping"}))
                while True:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if msg["type"] == "error":
                        codes.append(msg["code"])
            except websockets.ConnectionClosed as closed:
                return codes, closed.rcvd.code if closed.rcvd is not None else None
        return codes, None

    codes, close_code = asyncio.run(flood())
    assert "flooding" in codes
    assert close_code == 1008


def test_serve_prints_the_address_and_serves_the_site(served: Served) -> None:
    """It stops the server to read what it printed."""
    port, where, proc = served
    assert (where / "tarot.sqlite3").is_file()  # the embedded default, created and migrated
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
        assert r.status == 200 and b"<html" in r.read().lower()
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=5) as r:
        assert json.loads(r.read()) == {"type": "lobby", "tables": [], "total": 0, "offset": 0}
    proc.send_signal(signal.SIGINT)
    out = proc.communicate(timeout=15)[0]
    assert f"Open http://localhost:{port}/ in your browser" in out
    assert "Traceback" not in out


def _masked_frame(payload: bytes, opcode: int = 1) -> bytes:
    """A client's websocket frame (RFC 6455: masked), built by hand: a client library refuses to
    send a text frame that is not UTF-8."""
    mask = os.urandom(4)
    size = bytes([0x80 | len(payload)]) if len(payload) < 126 else bytes([0x80 | 126]) + struct.pack(
        ">H", len(payload))
    return bytes([0x80 | opcode]) + size + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def test_a_text_frame_that_is_not_utf8_is_closed_without_a_traceback(served: Served) -> None:
    port, _, proc = served
    with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
        key = base64.b64encode(os.urandom(16)).decode()
        raw.sendall(f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                    f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                    "Sec-WebSocket-Version: 13\r\n\r\n".encode())
        assert raw.recv(4096).startswith(b"HTTP/1.1 101")
        raw.sendall(_masked_frame(b'{"type": "hello", "name": "\xff\xfe"}'))
        closing = raw.recv(4096)
    assert closing[0] == 0x88 and struct.unpack(">H", closing[2:4])[0] == 1007  # close: invalid data
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=5) as r:
        assert r.status == 200  # the site goes on
    proc.send_signal(signal.SIGINT)
    out = proc.communicate(timeout=15)[0]
    assert "Traceback" not in out and "UnicodeDecodeError" not in out
    assert "not UTF-8" in out


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def _open_raw_socket(port: int) -> socket.socket:
    raw = socket.create_connection(("127.0.0.1", port), timeout=5)
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall(f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n".encode())
    assert raw.recv(4096).startswith(b"HTTP/1.1 101")
    return raw


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the server's memory in /proc")
def test_a_huge_frame_is_refused_before_it_is_buffered(served: Served) -> None:
    """Issue 23, item 2: a frame far over the protocol's limit is refused from its header (close
    1009, message too big) without the server reading it into memory: twenty 10 MB messages
    leave the server's memory where it was (they took it from 100 to 505 MB). A message a little
    over the limit still gets the ``too_large`` error, the connection kept."""
    port, _, proc = served
    before = _rss_mb(proc.pid)
    chunk = os.urandom(1 << 20)
    codes = []
    for _ in range(20):
        with _open_raw_socket(port) as raw:
            size = 10 << 20  # a masked text frame announcing 10 MB, then its bytes
            raw.sendall(bytes([0x81, 0x80 | 127]) + struct.pack(">Q", size) + os.urandom(4))
            try:
                for _ in range(10):
                    raw.sendall(chunk)
            except OSError:
                pass  # the server closed the connection before the end: what we want
            try:
                closing = raw.recv(4096)
            except OSError:
                closing = b""
            codes.append(struct.unpack(">H", closing[2:4])[0] if closing[:1] == b"\x88" else None)
    after = _rss_mb(proc.pid)
    assert after - before < 40, (before, after)  # (10 MB read once would already be 10)
    assert set(codes) <= {1009, None} and 1009 in codes, codes

    async def a_little_over() -> dict[str, object]:
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws") as ws:
            await ws.send(json.dumps({"type": "hello", "name": "Big"}))
            json.loads(await ws.recv())
            await ws.send(json.dumps({"type": "lobby", "pad": "x" * 9000}))
            error: dict[str, object] = json.loads(await ws.recv())
            await ws.send(json.dumps({"type": "ping"}))
            assert json.loads(await ws.recv())["type"] == "pong"  # the connection goes on
            return error

    assert asyncio.run(a_little_over())["code"] == "too_large"
    proc.send_signal(signal.SIGINT)
    assert "Traceback" not in proc.communicate(timeout=15)[0]  # refused quietly


@pytest.mark.parametrize("trusted", [False, True])
def test_proxy_headers_count_only_from_the_proxies_named(tmp_path_factory: pytest.TempPathFactory,
                                                         trusted: bool) -> None:
    """Issue 34, item 6: uvicorn trusted ``X-Forwarded-For`` and ``X-Forwarded-Proto`` from
    127.0.0.1, so a local client chose its address (two accounts on one address made a
    competitive game count) and the cookie's ``Secure``. By default no proxy is trusted; with
    ``--forwarded-allow-ips 127.0.0.1`` its headers say the client's address and scheme."""
    options = ["--forwarded-allow-ips", "127.0.0.1"] if trusted else []
    proxied = {"x-forwarded-for": "1.2.3.4", "x-forwarded-proto": "https"}
    with serving(tmp_path_factory, *options) as (port, _, _):
        alice_session = sign_up_over_http(port, "Alice")[0]
        alice = WsPlayer(port, "Alice", headers={"cookie": f"tarot_session={alice_session}"})
        bob_session, bob_cookie = sign_up_over_http(port, "Bob", proxied)
        assert ("secure" in bob_cookie.lower()) is trusted
        bob = WsPlayer(port, "Bob", headers={"cookie": f"tarot_session={bob_session}", **proxied})
        alice.send({"type": "create_table", "options": {"players": 3, "competitive": True}})
        tid = alice.expect("created")["table"]
        for pl in (alice, bob):
            pl.send({"type": "join", "table": tid})
            pl.expect("snapshot")
        bob.send({"type": "sit", "seat": 1})
        state = alice.until(lambda s: s["table"]["seats"][1]["taken"])
        assert state["counts"] is trusted  # (one address: the game would count for nothing)
        alice.close()
        bob.close()


@pytest.mark.parametrize("option", ["--bot-delay", "--trick-pause", "--grace"])
def test_a_pace_below_zero_is_one_clear_line(option: str, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The pace of the bots is the site's to choose (``--bot-delay``, ``--trick-pause``: a
    training site may want them at once); a negative or non-number of seconds starts nothing."""
    from typer.testing import CliRunner

    from tarot.cli.commands import app as cli

    monkeypatch.chdir(tmp_path)
    for value in ("-1", "nan"):
        done = CliRunner().invoke(cli, ["serve", option, value])
        assert done.exit_code == 1 and done.output.splitlines() == [
            "error: --grace, --bot-delay and --trick-pause are seconds, 0 or more"], done.output
        assert not (tmp_path / "tarot.sqlite3").exists()


@pytest.mark.parametrize("prefix", ["", "a b", "tarot*"])
def test_a_redis_prefix_that_is_not_a_name_is_one_clear_line(prefix: str, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 38: ``--redis-prefix`` lets two sites (or a benchmark beside a site) share one Redis;
    a prefix that would match other keys (a pattern) or none starts nothing."""
    from typer.testing import CliRunner

    from tarot.cli.commands import app as cli

    monkeypatch.chdir(tmp_path)
    done = CliRunner().invoke(cli, ["serve", "--redis-prefix", prefix])
    assert done.exit_code == 1 and done.output.splitlines() == [
        "error: --redis-prefix must be a non-empty name, without spaces or * ? [ ]"], done.output
    assert not (tmp_path / "tarot.sqlite3").exists()
