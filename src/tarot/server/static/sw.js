// The service worker (served at /sw.js, its scope the whole site; tarot/server/web/assets.py fills
// in VERSION, a hash of the static files). It keeps the versioned static files
// (/static/v/<VERSION>/…) as the pages fetch them, in a cache of that version (a new release: a new
// cache, the old one deleted at activation), and when a page cannot be loaded for want of a
// connection it answers a page saying so, in the player's language, instead of the browser's
// error. It never touches anything else: the API, the websocket, other addresses go to the network.
const VERSION = "__VERSION__";
const CACHE = "tarot-static-" + VERSION;
const VERSIONED = "/static/v/" + VERSION + "/";
const LANG = "tarot-lang";  // the page's language (main.js keeps it there: the worker cannot read localStorage)

const OFFLINE = {
  en: {title: "Tarot — offline", text: "You are offline: Tarot needs a connection to play.", retry: "Try again"},
  fr: {title: "Tarot — hors ligne", text: "Vous êtes hors ligne : le Tarot a besoin d'une connexion pour jouer.", retry: "Réessayer"},
};

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((names) => Promise.all(
    names.filter((n) => n.startsWith("tarot-static-") && n !== CACHE).map((n) => caches.delete(n)))));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => offlinePage()));
  } else if (url.pathname.startsWith(VERSIONED)) {
    event.respondWith(cached(request));
  }
  // anything else (/api/, /ws, unversioned files): not handled, the browser's own fetch
});

async function cached(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

async function offlinePage() {
  let lang = (self.navigator.language || "en").slice(0, 2);
  try {
    const kept = await (await caches.open(LANG)).match("/lang");
    if (kept) lang = await kept.text();
  } catch (e) { /* the browser's language */ }
  const o = OFFLINE[lang] || OFFLINE.en;
  // a form that reloads the page: no script (the site's policy allows none inline)
  const page = `<!doctype html><html lang="${lang in OFFLINE ? lang : "en"}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${o.title}</title></head>
<body style="font-family:system-ui,sans-serif;background:#f4f1ea;color:#1b1b1b;text-align:center;padding:3rem 1rem">
<h1>♠ Tarot</h1><p id="offline-text">${o.text}</p>
<form method="get" action="/"><button id="retry" type="submit" style="font:inherit;padding:.5rem 1rem">${o.retry}</button></form>
</body></html>`;
  return new Response(page, {status: 503, headers: {
    "content-type": "text/html; charset=utf-8", "cache-control": "no-store",
    "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
  }});
}
