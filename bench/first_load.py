"""The lobby's first visit, over the wire: bytes and requests (issue 33, docs/performance.md).

It starts the site (a fresh SQLite file, uvicorn in a thread, as the browser tests do), opens ``/``
in a fresh chromium context (an empty cache: a first visit) in one language, waits for the
lobby's name form, and counts what the page fetched: each request, and its transfer size
(Chrome's ``encodedDataLength`` from the DevTools protocol: headers and body as they came over
the wire, compressed if they were). The websocket is not counted (it is the game, not the load).

    .venv/bin/python bench/first_load.py [--lang fr] [--chromium /usr/bin/chromium]

tests/test_e2e_install.py holds the site to its budget with ``first_load``.
"""

from __future__ import annotations

import argparse
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

BUDGET_BYTES = 45_000
BUDGET_REQUESTS = 12


def first_load(browser: Any, base: str, lang: str = "en") -> tuple[int, int, list[tuple[str, int]]]:
    """The bytes over the wire and the requests of the lobby's first visit in ``lang``, and each
    request's (address, bytes)."""
    context = browser.new_context(locale="fr-FR" if lang == "fr" else "en-US")
    context.add_init_script(f"localStorage.setItem('tarot.lang', '{lang}')")
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    urls: dict[str, str] = {}
    sizes: dict[str, int] = {}
    cdp.on("Network.requestWillBeSent", lambda e: urls.__setitem__(e["requestId"], e["request"]["url"]))
    cdp.on("Network.loadingFinished",
           lambda e: sizes.__setitem__(e["requestId"], int(e["encodedDataLength"])))
    page.goto(base + "/")
    page.wait_for_selector("#name")
    page.wait_for_load_state("networkidle")
    time.sleep(0.5)  # (what the page asks for once the lobby is drawn: its icon, the service worker)
    fetched = [(urls[r], sizes.get(r, 0)) for r in urls if not urls[r].startswith("data:")]
    context.close()
    return sum(n for _, n in fetched), len(fetched), fetched


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lang", default="en", choices=["en", "fr"])
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()

    import uvicorn
    from playwright.sync_api import sync_playwright

    from tarot.server.web.app import UVICORN_OPTIONS, create_app

    with tempfile.TemporaryDirectory() as tmp:
        port = _free_port()
        app = create_app(f"sqlite:///{Path(tmp) / 'tarot.sqlite3'}")
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                               **UVICORN_OPTIONS))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.05)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
                total, count, fetched = first_load(browser, f"http://127.0.0.1:{port}", args.lang)
                browser.close()
        finally:
            server.should_exit = True
            thread.join(10)
    for url, n in fetched:
        print(f"{n:8d}  {url.removeprefix(f'http://127.0.0.1:{port}')}")
    print(f"first visit ({args.lang}): {total} bytes over the wire ({total / 1000:.1f} KB), {count} requests"
          f" (budget {BUDGET_BYTES / 1000:.0f} KB, {BUDGET_REQUESTS} requests)")
    sys.exit(0 if total <= BUDGET_BYTES and count <= BUDGET_REQUESTS else 1)


if __name__ == "__main__":
    main()
