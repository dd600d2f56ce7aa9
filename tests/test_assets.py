"""The static client as served (issue 33, tarot/server/web/assets.py): the manifest and its icons,
the service worker at the root, the files gzipped and cached by version, the page revalidated, and
the committed bundle (static/dist/) built from the sources as they are."""

from __future__ import annotations

import json
import shutil
import struct
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from tarot.server.web.app import create_app
from tarot.server.web.assets import IMMUTABLE, sources_hash

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "src" / "tarot" / "server" / "static"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("assets") / "tarot.sqlite3"
    with TestClient(create_app(f"sqlite:///{db}")) as c:
        yield c


def linked(client: TestClient, rel: str) -> str:
    """The address the page gives to ``rel``'s link (``<link rel="…" href="…">``)."""
    page = client.get("/").text
    tag = next(t for t in page.split("<link")[1:] if f'rel="{rel}"' in t)
    return tag.split('href="')[1].split('"')[0]


def png_size(body: bytes) -> tuple[int, int]:
    assert body[:8] == b"\x89PNG\r\n\x1a\n" and body[12:16] == b"IHDR"
    width, height = struct.unpack(">II", body[16:24])
    return width, height


def test_the_manifest_makes_the_site_installable(client: TestClient) -> None:
    address = linked(client, "manifest")
    r = client.get(address)
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/manifest+json")
    m: dict[str, Any] = r.json()
    assert m["name"] == "Tarot" and m["short_name"] and m["start_url"] == "/" and m["display"] == "standalone"
    css = (STATIC / "style.css").read_text(encoding="utf-8")
    assert m["background_color"] in css and m["theme_color"] == "#222222"  # the page's body, its header
    page = client.get("/").text
    assert f'<meta name="theme-color" content="{m["theme_color"]}">' in page
    sizes = {}
    for icon in m["icons"]:
        got = client.get(address.rsplit("/", 1)[0] + "/" + icon["src"])  # (relative to the manifest)
        assert got.status_code == 200 and got.headers["content-type"] == icon["type"], icon
        if icon["type"] == "image/png":
            assert png_size(got.content) == tuple(int(n) for n in icon["sizes"].split("x")), icon
            sizes[icon["sizes"], icon.get("purpose", "any")] = icon["src"]
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= set(sizes)
    assert "svg" in {i["type"].split("/")[1].split("+")[0] for i in m["icons"]}
    touch = client.get(linked(client, "apple-touch-icon"))
    assert touch.status_code == 200 and png_size(touch.content) == (192, 192)


def test_the_service_worker_is_served_at_the_root(client: TestClient) -> None:
    r = client.get("/sw.js")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
    assert r.headers["service-worker-allowed"] == "/" and r.headers["cache-control"] == "no-cache"
    version = linked(client, "stylesheet").split("/")[3]
    assert f'const VERSION = "{version}";' in r.text  # its cache is the static files' version
    assert "__VERSION__" not in r.text


def test_static_files_are_gzipped_and_cached_by_version(client: TestClient) -> None:
    css = linked(client, "stylesheet")
    assert css.startswith("/static/v/") and css.endswith("/style.css")
    r = client.get(css, headers={"accept-encoding": "gzip"})
    assert r.headers["content-encoding"] == "gzip" and r.headers["vary"] == "Accept-Encoding"
    assert int(r.headers["content-length"]) < len(r.content) / 2  # (httpx unzipped it)
    assert r.text == (STATIC / "style.css").read_text(encoding="utf-8")
    assert r.headers["cache-control"] == IMMUTABLE
    plain = client.get(css, headers={"accept-encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == r.content
    # the unversioned address: revalidated (an ETag, 304 when unchanged)
    r = client.get("/static/style.css")
    assert r.headers["cache-control"] == "no-cache"
    again = client.get("/static/style.css", headers={"if-none-match": r.headers["etag"]})
    assert again.status_code == 304 and not again.content
    assert client.get("/static/nothing.js").status_code == 404
    assert client.get("/static/v/x/../../app.py").status_code == 404


def test_the_page_is_revalidated_and_names_the_bundle(client: TestClient) -> None:
    r = client.get("/", headers={"accept-encoding": "gzip"})
    assert r.headers["cache-control"] == "no-cache" and r.headers["etag"]
    assert client.get("/", headers={"if-none-match": r.headers["etag"]}).status_code == 304
    version = linked(client, "stylesheet").split("/")[3]
    assert f'src="/static/v/{version}/dist/main.js"' in r.text  # the bundle (it is fresh: below)
    assert f'<meta name="tarot-static" content="/static/v/{version}/">' in r.text
    bundle = client.get(f"/static/v/{version}/dist/main.js", headers={"accept-encoding": "gzip"})
    assert bundle.status_code == 200 and bundle.headers["content-encoding"] == "gzip"


def test_the_committed_bundle_is_built_from_the_sources() -> None:
    """static/dist/ is rebuilt by ``npm run build`` after any change to static/js/ (docs/performance.md):
    its stamp names the sources' hash; with esbuild at hand (``npm ci``), it is rebuilt and compared."""
    stamp = json.loads((STATIC / "dist" / "sources.json").read_text(encoding="utf-8"))
    assert stamp["sources"] == sources_hash(STATIC / "js"), "static/dist/ is stale: run `npm run build`"
    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules" / "esbuild").is_dir():
        pytest.skip("esbuild is not installed (npm ci): the bundle is checked by its sources' hash only")
    done = subprocess.run([node, "build.mjs", "--check"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr + done.stdout


def test_a_stale_bundle_gives_way_to_the_sources(tmp_path: Path) -> None:
    """An edited module is served as it is (never hidden by an older bundle) until the bundle is rebuilt."""
    from tarot.server.web.assets import Assets

    static = tmp_path / "static"
    shutil.copytree(STATIC, static)
    assets = Assets(static)
    assert assets.snapshot().bundled
    (static / "js" / "main.js").write_text((static / "js" / "main.js").read_text() + "\n// edited\n")
    snap = assets.snapshot()
    assert not snap.bundled and b"/js/main.js" in snap.index.body and b"/dist/" not in snap.index.body
