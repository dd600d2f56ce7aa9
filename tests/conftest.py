"""Fixtures shared by the browser tests (tests/test_e2e_*.py): chromium, and a site of their own
(a real server on a fresh SQLite file) for each test module. Both are made on first use, so that
a module without browser tests never needs playwright or chromium."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from test_e2e_browser import ARGS, CHROMIUM, sync_api  # (skips without playwright or chromium)

    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The site's address, its database new for the module."""
    from server_harness import free_port
    from test_e2e_browser import start_server, stop_server

    port = free_port()
    running = start_server(tmp_path_factory.mktemp("e2e") / "tarot.sqlite3", port)
    yield f"http://127.0.0.1:{port}"
    stop_server(*running)
