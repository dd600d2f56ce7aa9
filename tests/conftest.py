"""Fixtures shared by the browser tests (tests/test_e2e_*.py): chromium, and a site of their own
(a real server on a fresh SQLite file) for each test module. Both are made on first use, so that
a module without browser tests never needs playwright or chromium. The run's own PostgreSQL
database (``run_isolation``). For the server tests in process: ``url``, a fresh database of each
kind (SQLite, and PostgreSQL when given), and ``client``, the site on it."""

from __future__ import annotations

import ast
import functools
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from run_isolation import drop_private_postgres, private_postgres

GIVEN_POSTGRES = os.environ.get("TAROT_TEST_POSTGRES_URL")
# What a test module of the site imports (itself, or through the tests' helpers for the site).
SITE_MODULES = ("tarot.server", "tarot.cli.ladder", "server_harness", "cluster_harness", "transcripts",
                "playwright", "test_e2e_browser")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--engine-and-bots", action="store_true",
                     help="only the tests of the engine and the bots (the modules that do not start the "
                          "site): CI's pure-Python pass, the parity tests comparing the two cores")


@functools.cache
def _of_the_site(path: Path) -> bool:
    if path.suffix != ".py":
        return False  # (README.md's examples: the command line)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                 else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
        if any(n.startswith(SITE_MODULES) for n in names):
            return True
    return False


# The modules that use the one Redis of the machine (its pub/sub channels are shared by all its
# databases): run one after another, on one worker, when the tests run in parallel.
REDIS_MODULES = {"test_cluster", "test_cluster_redis", "test_deploy", "test_serve",
                 "test_shared_login_limits"}


@pytest.hookimpl(optionalhook=True)  # (a hook of pytest-xdist's, there when it is)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """In parallel (``-n 2``, the default: pyproject.toml), a module's tests run on one worker, in
    order (its browser and its site are made once), and the modules that use Redis all on one.
    (pytest-xdist's ``loadgroup`` would say so by marks, but the group it writes into a test's id
    is lost under pytest 9.2, so each test went its own way.)"""
    from xdist.scheduler import LoadFileScheduling

    config.option.loadscopereorder = False  # (the order of collection: the long modules first)

    class ModuleScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = super()._split_scope(nodeid)
            return "redis" if Path(module).stem in REDIS_MODULES else module

    return ModuleScheduling(config, log)


def _long(item: pytest.Item) -> bool:
    """A module whose tests take long: the browser's, and the Redis ones (several processes)."""
    return item.path.stem.startswith("test_e2e") or item.path.stem in REDIS_MODULES


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # The long modules first: two at a time, the many short ones then fill in till the end, so
    # that neither worker is left with a long module when the other is done.
    items.sort(key=lambda item: not _long(item))
    if not config.getoption("--engine-and-bots"):
        return
    site = [item for item in items if _of_the_site(item.path)]
    config.hook.pytest_deselected(items=site)
    items[:] = [item for item in items if not _of_the_site(item.path)]


def pytest_configure(config: pytest.Config) -> None:
    """The PostgreSQL tests work in a database of this run's own (before any test module reads
    ``TAROT_TEST_POSTGRES_URL``)."""
    if GIVEN_POSTGRES:
        os.environ["TAROT_TEST_POSTGRES_URL"] = private_postgres(GIVEN_POSTGRES)


def pytest_unconfigure(config: pytest.Config) -> None:
    if GIVEN_POSTGRES:
        drop_private_postgres(GIVEN_POSTGRES, os.environ["TAROT_TEST_POSTGRES_URL"])
        os.environ["TAROT_TEST_POSTGRES_URL"] = GIVEN_POSTGRES


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from test_e2e_browser import ARGS, CHROMIUM, sync_api  # (skips without playwright or chromium)

    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[str]:
    """The site's address, its database new for the module; a module's ``SERVER_SETTINGS`` (a
    dict) changes the browser tests' quick settings."""
    from server_harness import free_port
    from test_e2e_browser import start_server, stop_server

    port = free_port()
    settings = getattr(request.module, "SERVER_SETTINGS", {})
    running = start_server(tmp_path_factory.mktemp("e2e") / "tarot.sqlite3", port, **settings)
    yield f"http://127.0.0.1:{port}"
    stop_server(*running)


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database of each kind (PostgreSQL's test skips without its address)."""
    from server_harness import db_url

    return db_url(request.param, tmp_path)


@pytest.fixture
def client(url: str) -> Iterator[Any]:
    """The site, in process (Starlette's TestClient), on ``url``."""
    from server_harness import make_client

    with make_client(url) as c:
        yield c
