"""The static client as the site serves it (issue 33: a light first load, an installable site).

- Every file of ``static/`` is served under ``/static/v/<version>/…``, where the version is a hash
  of all of them: such an address never changes content, so it is cached for a year
  (``immutable``); a new release has a new version. ``/static/…`` (unversioned, as tools and old
  pages ask) is served too, revalidated at each use (``no-cache`` and an ETag).
- The page (``/``) names the versioned addresses and is itself revalidated at each visit.
- Its script is the bundle ``static/dist/main.js`` (``npm run build``: ``build.mjs``) when the
  bundle was built from the sources as they are (``dist/sources.json``), else the sources
  themselves (``static/js/main.js``), with a warning: an edited module is never hidden by a stale
  bundle.
- Text files are gzipped once (when a client accepts it: ``Vary: Accept-Encoding``).
- ``/sw.js``: the service worker (``static/sw.js``, its version filled in), at the root scope.

The files are read again whenever one of them changes on disk (checked at each request: a few
dozen ``stat`` calls), so that an edited file is served at once while developing."""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from starlette.datastructures import Headers
from starlette.responses import Response

log = logging.getLogger("tarot.server")

IMMUTABLE: Final = "public, max-age=31536000, immutable"
REVALIDATE: Final = "no-cache"
VERSIONED: Final = "/static/v/"
TYPES: Final = {
    ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
    ".json": "application/json", ".webmanifest": "application/manifest+json",
    ".svg": "image/svg+xml", ".png": "image/png", ".ico": "image/x-icon", ".txt": "text/plain; charset=utf-8",
}
COMPRESSED: Final = frozenset({".html", ".js", ".mjs", ".css", ".json", ".webmanifest", ".svg", ".txt"})


def sources_hash(js: Path) -> str:
    """The hash of the client's modules (``static/js``) as ``build.mjs`` computes it: each module's
    path (relative, with /) and content, in path order."""
    h = hashlib.sha256()
    for rel in sorted(p.relative_to(js).as_posix() for p in js.rglob("*.js")):
        h.update(rel.encode() + b"\0")
        h.update((js / rel).read_bytes())
        h.update(b"\0")
    return h.hexdigest()


@dataclass(frozen=True, slots=True)
class Asset:
    body: bytes
    gzipped: bytes | None
    etag: str
    media_type: str

    @staticmethod
    def of(name: str, body: bytes) -> Asset:
        suffix = Path(name).suffix
        packed = gzip.compress(body, 9, mtime=0) if suffix in COMPRESSED and len(body) > 200 else None
        if packed is not None and len(packed) >= len(body):
            packed = None
        etag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
        return Asset(body, packed, etag, TYPES.get(suffix, "application/octet-stream"))

    def response(self, headers: Headers, cache: str, extra: dict[str, str] | None = None) -> Response:
        """This file for a request with ``headers``: 304 if the client has it, gzipped if it may."""
        common = {"cache-control": cache, "etag": self.etag, **(extra or {})}
        if self.gzipped is not None:
            common["vary"] = "Accept-Encoding"
        if self.etag in [t.strip() for t in headers.get("if-none-match", "").split(",")]:
            return Response(status_code=304, headers=common)
        if self.gzipped is not None and "gzip" in headers.get("accept-encoding", ""):
            return Response(self.gzipped, media_type=self.media_type,
                            headers={**common, "content-encoding": "gzip"})
        return Response(self.body, media_type=self.media_type, headers=common)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The static files as they are on disk now, and what is made of them."""

    version: str
    bundled: bool
    files: dict[str, Asset]  # path under static/ → the file
    index: Asset  # the page, naming the versioned files
    worker: Asset  # the service worker, its version filled in


class Assets:
    """The static files under ``root``, read again when one changes (``snapshot``)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._signature: tuple[tuple[str, int, int], ...] | None = None
        self._snapshot: Snapshot | None = None

    def _stat(self) -> tuple[tuple[str, int, int], ...]:
        found = []
        for folder, dirs, names in os.walk(self.root):
            dirs.sort()
            for name in sorted(names):
                st = os.stat(os.path.join(folder, name))
                found.append((os.path.join(folder, name), st.st_mtime_ns, st.st_size))
        return tuple(found)

    def snapshot(self) -> Snapshot:
        signature = self._stat()
        if self._snapshot is None or signature != self._signature:
            self._snapshot, self._signature = self._read(), signature
        return self._snapshot

    def _read(self) -> Snapshot:
        raw = {p.relative_to(self.root).as_posix(): p.read_bytes()
               for p in sorted(self.root.rglob("*")) if p.is_file() and "__pycache__" not in p.parts}
        h = hashlib.sha256()
        for name, body in raw.items():
            h.update(name.encode() + b"\0" + body + b"\0")
        version = h.hexdigest()[:12]
        bundled = self._bundle_fresh(raw)
        prefix = f"{VERSIONED}{version}/"
        page = raw["index.html"].decode().replace('"/static/', f'"{prefix}')
        if bundled:
            page = page.replace(f'"{prefix}js/main.js"', f'"{prefix}dist/main.js"')
        worker = raw.get("sw.js", b"").decode().replace("__VERSION__", version)
        return Snapshot(version, bundled, {name: Asset.of(name, body) for name, body in raw.items()},
                        Asset.of("index.html", page.encode()), Asset.of("sw.js", worker.encode()))

    def _bundle_fresh(self, raw: dict[str, bytes]) -> bool:
        stamp = raw.get("dist/sources.json")
        if stamp is None or "dist/main.js" not in raw:
            log.warning("no bundle of the client (static/dist): its modules are served one by one")
            return False
        if json.loads(stamp).get("sources") != sources_hash(self.root / "js"):
            log.warning("the client's bundle (static/dist) is older than its modules (static/js): the "
                        "modules are served one by one until `npm run build` (docs/performance.md)")
            return False
        return True

    def page(self, headers: Headers) -> Response:
        return self.snapshot().index.response(headers, REVALIDATE)

    def service_worker(self, headers: Headers) -> Response:
        return self.snapshot().worker.response(headers, REVALIDATE, {"service-worker-allowed": "/"})

    def file(self, path: str, headers: Headers) -> Response:
        """``/static/<path>``: a versioned address (``v/<version>/…``) or a plain one."""
        snap = self.snapshot()
        cache = REVALIDATE
        if path.startswith("v/"):
            version, _, path = path[2:].partition("/")
            # (an old page's version: today's file, not to be kept)
            cache = IMMUTABLE if version == snap.version else REVALIDATE
        asset = snap.files.get(path)
        if asset is None or ".." in path.split("/"):
            return Response("Not Found", status_code=404, media_type="text/plain")
        return asset.response(headers, cache)
