"""Self-hosting as the README says (docs/scaling.md): ``deploy/cluster.sh`` runs several
processes behind Debian's nginx on the machine's PostgreSQL and Redis, a player plays through
the proxy, a process killed with SIGKILL is started again while the other takes over its table,
and the player goes on; ``compose.yaml`` runs the same services (checked against the command
line, as no container engine runs here)."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("redis")
pytest.importorskip("websockets")

from cluster_harness import WsPlayer, env_urls, reset_redis
from run_isolation import dies_with_us
from server_harness import free_port, reset_postgres, sign_up_over_http

ROOT = Path(__file__).resolve().parents[1]
NGINX = next((p for p in ("/usr/sbin/nginx", "/usr/bin/nginx") if Path(p).exists()), None)
PG, REDIS = env_urls()


def free_ports(n: int) -> int:
    """A port free now with the ``n - 1`` after it (cluster.sh puts its nodes there): a node's
    port taken by another test's server was seen in CI (the node could not bind, and the script
    took that server for its node)."""
    for _ in range(100):
        port = free_port()
        try:
            with contextlib.ExitStack() as held:
                for p in range(port, port + n):
                    sock = held.enter_context(socket.socket())
                    sock.bind(("127.0.0.1", p))
            return port
        except OSError:
            continue
    raise RuntimeError(f"no {n} free ports in a row")


@pytest.fixture
def cluster_sh() -> Iterator[tuple[int, subprocess.Popen[str]]]:
    if not (PG and REDIS and NGINX):
        pytest.skip("needs TAROT_TEST_POSTGRES_URL, TAROT_TEST_REDIS_URL and nginx")
    reset_postgres(PG)
    reset_redis(REDIS)
    port = free_ports(3)  # nginx's, and its two nodes' after it
    env = dict(os.environ, TAROT=str(Path(sys.executable).parent / "tarot"), NGINX=NGINX)
    proc = subprocess.Popen([str(ROOT / "deploy" / "cluster.sh"), "-n", "2", "-p", str(port),
                             "--db", PG, "--redis", REDIS],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                            start_new_session=True,
                            preexec_fn=dies_with_us(signal.SIGTERM))  # (it stops its own servers)
    try:
        assert proc.stdout is not None
        end = time.monotonic() + 90
        for line in proc.stdout:
            if line.startswith("Open http://"):
                break
            assert time.monotonic() < end, "cluster.sh did not start"
        listening = False
        end = time.monotonic() + 30
        while not listening and time.monotonic() < end and proc.poll() is None:  # nginx listening
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=2).read()
                listening = True
            except OSError:
                time.sleep(0.1)
        if not listening:  # (seen once in CI, not explained: say what the script said)
            said = proc.stdout.read() if proc.poll() is not None else "(still running)"
            pytest.fail(f"nginx not listening on {port} 30 s after cluster.sh said so: {said}")
        yield port, proc
    finally:
        proc.send_signal(signal.SIGTERM)  # as a service manager stops it: everything stops at once
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            pytest.fail("cluster.sh did not stop on SIGTERM")


def test_cluster_sh_serves_through_nginx_and_survives_a_killed_process(
        cluster_sh: tuple[int, subprocess.Popen[str]]) -> None:
    from redis import Redis

    port, proc = cluster_sh
    page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5).read().decode()
    assert "<html" in page
    # the processes trust nginx's X-Forwarded-* headers, and nginx replaces the client's own:
    # plain HTTP gets no Secure cookie, whatever the client says
    cookie = sign_up_over_http(port, "Proxied", {"x-forwarded-proto": "https"})[1]
    assert "secure" not in cookie.lower()
    alice = WsPlayer(port, "Alice")
    alice.send({"type": "create_table", "options": {"players": 4, "deals": 1}})
    tid = alice.expect("created")["table"]
    alice.send({"type": "join", "table": tid})
    alice.expect("snapshot")
    for seat in (1, 2, 3):
        alice.send({"type": "add_bot", "seat": seat, "bot": "random"})
    alice.until(lambda s: s["table"]["status"] == "playing")
    assert REDIS
    owner = Redis.from_url(REDIS).get(f"tarot:owner:{tid}")
    assert owner is not None
    pid = int(owner.decode().split("-")[-2])  # a node is named host-pid-random
    os.kill(pid, signal.SIGKILL)
    alice.close()
    # the page reconnects through the proxy (to the live process) and joins its table again
    end = time.monotonic() + 30
    back = None
    while back is None and time.monotonic() < end:
        try:
            again = WsPlayer(port, "Alice", token=alice.token)
        except OSError:
            time.sleep(0.2)
            continue
        again.send({"type": "join", "table": tid})
        reply = again.recv(10)
        while reply["type"] not in ("snapshot", "error"):
            reply = again.recv(10)
        if reply["type"] == "snapshot":
            back = again
        else:
            again.close()
            time.sleep(0.3)
    assert back is not None, "the table did not come back behind the proxy"
    assert back.state and back.state["you"] == 0 and back.state["table"]["status"] == "playing"
    back.close()
    # the killed process was started again (a new node; the table stays where it went), and the
    # killed node's lease lapsed: two live nodes (three for a while, when the new one is up
    # before the killed one's lease has run out)
    end = time.monotonic() + 30
    live = 0
    while live != 2 and time.monotonic() < end:
        r = Redis.from_url(REDIS)
        live = sum(1 for n in r.smembers("tarot:nodes") if r.exists(f"tarot:node:{n.decode()}"))
        time.sleep(0.2)
    assert live == 2
    assert proc.poll() is None


def test_compose_runs_postgres_redis_the_processes_and_the_proxy() -> None:
    """compose.yaml: every tarot service runs ``tarot serve`` with options the command knows,
    on the compose PostgreSQL and Redis; the proxy's upstreams are exactly those services."""
    yaml = pytest.importorskip("yaml")
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    assert {"postgres", "redis", "proxy"} <= set(services)
    tarots = sorted(name for name, s in services.items() if s.get("command", [])[:2] == ["tarot", "serve"])
    assert len(tarots) >= 2
    helptext = subprocess.run([sys.executable, "-m", "tarot.cli", "serve", "--help"], capture_output=True,
                              text=True, env=dict(os.environ, COLUMNS="200"), check=True).stdout
    for name in tarots:
        command = services[name]["command"]
        options = [a for a in command if a.startswith("--")]
        assert all(o in helptext for o in options), (name, options)
        db = command[command.index("--db") + 1]
        redis = command[command.index("--redis") + 1]
        assert db.startswith("postgresql://") and "@postgres:" in db
        assert redis.startswith("redis://redis:")
        assert command[command.index("--forwarded-allow-ips") + 1] == "*"  # (reached only through the proxy)
        assert "ports" not in services[name]
        assert services[name]["restart"] == "unless-stopped"
    conf = (ROOT / "deploy" / "nginx-compose.conf").read_text()
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in conf
    assert "proxy_set_header X-Forwarded-Proto $scheme;" in conf
    assert sorted(re.findall(r"server (\w+):8000", conf)) == tarots
    mounted = services["proxy"]["volumes"][0].split(":")[0]
    assert (ROOT / mounted).resolve() == (ROOT / "deploy" / "nginx-compose.conf").resolve()
