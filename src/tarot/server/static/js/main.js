// The browser client: ES modules, served bundled (static/dist/, `npm run build`: docs/performance.md)
// or as they are. Protocol: docs/protocol.md.
//   core/ the websocket (net), the page's state and its one writer (store), texts (i18n), the DOM
//   cards/ the cards, their SVG faces, a trick gathered
//   table/ lobby/ players/ community/ competitions/: each area's screens, its reducers
//   (reduce.js: messages in, state out; reducers.js gathers them) and its index.js: what its
//   messages do besides the state (effects) and its clicks (actions).
// A server message goes to the store, then to its area's effects, then the page is redrawn by
// region. Clicks go through one listener (``data-action``).
import {$, h, toast} from "./core/dom.js";
import {fill, lang, loadViewTexts, setLang, staticBase, t, texts, wanted} from "./core/i18n.js";
import {forget, kept} from "./core/kept.js";
import {connect, reconnect, send} from "./core/net.js";
import {S, change, receive, use} from "./core/store.js";
import {cardName, suitName} from "./cards/cards.js";
import {gatherTrick} from "./cards/motion.js";
import * as community from "./community/index.js";
import {challengeView, routeChallenge} from "./competitions/challenge.js";
import {eventView, loadEvents, routeEvent} from "./competitions/events.js";
import * as competitions from "./competitions/index.js";
import {nameForm, nameRefused} from "./lobby/forms.js";
import * as lobby from "./lobby/index.js";
import {lobbyView} from "./lobby/lobby.js";
import {playNowPanel} from "./lobby/playnow.js";
import {accountHeader, pageView, routePage, signInOffer} from "./players/account.js";
import * as players from "./players/index.js";
import {nameRefused as refusesName} from "./players/reduce.js";
import {replayView, routeReplay} from "./players/index.js";
import {REDUCERS} from "./reducers.js";
import * as scoresheet from "./scoresheet/index.js";
import {sheetLink, sheetView, routeSheet} from "./scoresheet/index.js";
import * as table from "./table/index.js";
import {openPrefs} from "./table/prefs.js";
import {accountPrefs, applyPrefs} from "./core/prefs.js";

const AREAS = [table, lobby, players, community, competitions, scoresheet];
const JOIN_REFUSED = new Set(["no_table", "no_spectators"]);  // a table's page cannot open
const CHALLENGE_REFUSED = new Set(["challenge_played", "challenge_closed"]);  // a deal of the day cannot be played

use(REDUCERS);
applyPrefs();  // the player's display options (the ⚙ in the header)
// for the browser tests (and a curious console): the page's state and its socket, bundled or not
window.tarot = {S, change, send};

// The screens the lobby does without, loaded when first shown (a lighter first visit): name → its
// module, null while it loads (the page is drawn again once it is there).
const views = {};
function view(name, load) {
  if (!(name in views)) {
    views[name] = null;
    load().then((m) => { views[name] = m; render(); }, () => { delete views[name]; toast(t("offline")); });
  }
  return views[name];
}
const tableScreen = () => view("table", () => import("./table/table.js"));

// --- messages from the server --------------------------------------------------------------

const EFFECTS = {
  welcome(m) {
    if (m.token) localStorage.setItem("tarot.token", m.token);
    window.tarotReady = true;
    route();
    send({type: "friends"});  // once the server knows who this is: its friends (then their changes come by themselves)
    accountPrefs(!!(m.player && m.player.account));  // an account's display options
  },
  error(m) {
    // Texts by code, in the player's language; a refused move is not shown when the table has
    // moved on since the click (a stale click: nothing the player needs to read).
    if (m.code === "illegal" && S.sentAt !== S.version) return;
    const text = m.code === "illegal" ? refusal(m) : texts()["err_" + m.code] ?? m.reason;
    if (refusesName(m)) {  // the name form again, saying why
      localStorage.removeItem("tarot.name"); render();
      if (!nameRefused(text)) toast(text);
      return;
    }
    toast(text);
    // the lobby, not a blank page (a private table's invite_only names its table only on join)
    if (JOIN_REFUSED.has(m.code) || (m.code === "invite_only" && m.table)) location.hash = "#/";
    if (CHALLENGE_REFUSED.has(m.code)) send({type: "challenge"});  // the day's page as it is now
  },
};
for (const area of AREAS) for (const [type, effect] of Object.entries(area.effects)) {
  if (type in EFFECTS) throw new Error("two effects for " + type);
  EFFECTS[type] = effect;
}
// the messages whose effects draw the page themselves (or need nothing drawn)
const SELF_DRAWN = new Set(["welcome", "error", "lobby", "lobby_update", "created", "missed", "pong"]);

function onMessage(m) {
  const before = receive(m);
  if (EFFECTS[m.type]) EFFECTS[m.type](m, before);
  if (!SELF_DRAWN.has(m.type)) render();
}

// A move the rules refuse, said in the player's language from its reason's code (``why``) and
// particulars (card and suit codes), with the rule it cites.
function refusal(m) {
  const a = m.args || {}, args = {...a, card: a.card && cardName(a.card), suit: a.suit && suitName(a.suit), bid: a.bid && t(a.bid)};
  const text = m.why && texts()["why_" + m.why] ? fill("why_" + m.why, args) : t("err_illegal");
  return m.rule ? `${text} (${m.rule})` : text;
}

function route() {
  // #/t/<table> watches a table; #/t/<table>/<code> is a private table's invite link
  const m = location.hash.match(/^#\/t\/([\w-]+)(?:\/([\w-]+))?/);
  const watched = m ? m[1] : null;
  if (watched !== S.table) forget();
  if (watched) tableScreen();  // loaded while the table is joined
  change("route", {table: watched});
  if (m) send({type: "join", table: watched, ...(m[2] ? {invite: m[2]} : {})});
  else if (routePage(location.hash)) { /* a profile or the ranking (players/account.js) */ }
  else if (routeReplay(location.hash)) { /* a game's replay #/g/<game>/<deal>/<step> (players/replay.js) */ }
  else if (routeChallenge(location.hash)) { /* the daily challenge #/challenge (competitions/challenge.js) */ }
  else if (routeEvent(location.hash)) { /* a duplicate event's page #/e/<id> (competitions/events.js) */ }
  else if (routeSheet(location.hash)) { /* the score sheet for real cards #/sheet/<code> (scoresheet/scoresheet.js) */ }
  else { send({type: "lobby"}); loadEvents(); }
  render();
}
window.addEventListener("hashchange", route);

// --- drawing -----------------------------------------------------------------------------------

let screen = null;  // what #app shows: "name", "lobby", "table" (its regions are kept)
const drawn = new Map();  // region id → the key it was drawn with

function render() {
  $("#lang").textContent = lang() === "fr" ? "EN" : "FR";
  soundButton();  // (its words in the page's language)
  // the tab says when it is the player's turn (seen from another tab)
  document.title = S.table && S.state && S.wasMyTurn ? `● ${t("yourturn")} — Tarot` : "Tarot";
  accountHeader();  // the name (a link for an account), sign in or out, the ranking
  sheetLink();  // the score sheet's link (scoresheet/scoresheet.js)
  const app = $("#app");
  const focused = document.activeElement;  // a kept form's field keeps the focus and the caret
  let caret = null;
  try { caret = focused && focused.selectionStart != null ? [focused.selectionStart, focused.selectionEnd] : null; } catch (e) { caret = null; }
  try { draw(app); } finally {
    if (focused && focused !== document.activeElement && focused.isConnected) {
      focused.focus();
      if (caret) try { focused.setSelectionRange(caret[0], caret[1]); } catch (e) { /* number inputs have no caret */ }
    }
  }
}

function show(name, ...nodes) {
  screen = name; drawn.clear();
  $("#app").replaceChildren(...nodes.filter(Boolean));
}

// The stylesheet (views.css) and the texts (i18n/<lang>.views.json) of every screen but the lobby,
// fetched when one is first shown: until they are there, the screen waits (drawn without them, it
// would jump, or show a text's key).
let viewsReady = null;  // null: not asked for; false: on their way; true: there
function withViews() {
  if (viewsReady === null) {
    viewsReady = false;
    const style = new Promise((done, failed) => document.head.append(h("link", {rel: "stylesheet", href: staticBase + "views.css",
      onload: done, onerror: failed})));
    Promise.all([style, loadViewTexts()]).then(() => { viewsReady = true; screen = null; render(); },
      () => { viewsReady = null; toast(t("offline")); });
  }
  return viewsReady;
}

function draw(app) {
  const page = !S.table && (pageView() || replayView() || challengeView() || eventView() || sheetView());  // rebuilt only when its key changes
  if ((page || S.table) && !withViews()) return show("wait");
  if (page) { if (screen !== page.key) show(page.key, ...page.nodes()); return; }
  if (!S.name && !(S.me && S.me.account)) {
    return show("name", kept("playnow-first", () => playNowPanel(true)), kept("name", nameForm), signInOffer());
  }
  if (!S.me) return show("wait");
  if (!S.table) return show("lobby", lobbyView());
  const screenOf = tableScreen();
  if (!S.state || !screenOf) return show("wait");
  const regions = screenOf.tableRegions();
  if (screen !== "table") show("table", ...regions.map((r) => h("div", {id: "r-" + r.id, class: "region"})));
  for (const r of regions) {
    if (drawn.get(r.id) === r.key) continue;  // unchanged: left as it is (and its buttons with it)
    drawn.set(r.id, r.key);
    const node = r.build(), region = app.querySelector("#r-" + r.id);
    // the trick gathered: its cards measured where they were before the felt is redrawn
    const gather = r.id === "felt-wrap" && S.gather != null ? S.gather : null;
    const trick = gather != null ? [...region.querySelectorAll(".played .card")].map((el) => [el, el.getBoundingClientRect()]) : [];
    region.replaceChildren(...(node ? [node] : []));
    if (gather != null) { change("gathered"); gatherTrick(trick, region, gather); }
  }
}

// --- what the player does: one listener for every click ---------------------------------------

const ACTIONS = {
  "dismiss-toast": (el) => { el.style.display = "none"; },  // a tap puts a message away at once
};

document.addEventListener("click", (e) => {
  const el = e.target.closest("[data-action]");
  if (!el || el.disabled) return;
  const action = ACTIONS[el.dataset.action];
  if (action) action(el); else console.warn("no such action:", el.dataset.action);
});
// Enter or Space on a focused card is a click on it.
document.addEventListener("keydown", (e) => {
  const el = e.target;
  if ((e.key === "Enter" || e.key === " ") && el.classList && el.classList.contains("card")) { e.preventDefault(); el.click(); }
});
// An opened <details> (the fairness panels) stays open across redraws.
document.addEventListener("toggle", (e) => {
  if (e.target.id) change("details", {id: e.target.id, open: e.target.open});
}, true);

// --- the header ------------------------------------------------------------------------------

function soundButton() {
  const b = $("#sound");
  b.setAttribute("aria-pressed", S.sound); b.textContent = "♪ " + t(S.sound ? "sound_on" : "sound_off");
  b.title = t("sound_title");
  $("#prefs").setAttribute("aria-label", t("prefs_button")); $("#prefs").title = t("prefs_button");
}
Object.assign(ACTIONS, {
  "lang": async () => { await setLang(wanted() === "fr" ? "en" : "fr"); keepLang(); $("#offline").textContent = t("offline"); screen = null; render(); },
  "sound": () => {
    change("sound"); localStorage.setItem("tarot.sound", S.sound ? "on" : "off"); soundButton(); if (S.sound) table.chime();
  },
  "prefs": () => openPrefs(),
  "prefs-close": () => $("#prefs-dialog").close(),
  "help": async () => {
    const nodes = await (await import("./table/help.js")).helpSheet();
    if (!nodes) { toast(t("help_unavailable")); return; }
    const d = $("#cheat"); d.replaceChildren(...nodes); if (!d.open) d.showModal();
  },
});
soundButton();

// Each area's clicks (``data-action``), given the redraw and the websocket's reconnection.
for (const area of AREAS) for (const [name, action] of Object.entries(area.init({render, reconnect}))) {
  if (name in ACTIONS) throw new Error("two actions " + name);
  ACTIONS[name] = action;
}

// The clocks tick by changing their text only (a redraw each second would lose clicks).
setInterval(() => {
  const {secondsLeft, tickTimer} = views.table || {};
  if (!secondsLeft) return;  // no table shown yet
  const el = $("#timer");
  if (el && S.state && S.timeLeft != null) tickTimer(el);
  const nd = $("#next-deal-left");
  if (nd && S.state && S.state.next_deal) nd.textContent = secondsLeft(S.state.next_deal.time_left);
  const cv = $("#cancel-left");
  if (cv && S.state && S.state.cancel) cv.textContent = secondsLeft(S.state.cancel.time_left);
}, 1000);

connect(onMessage);
render();

// Installable, and a page that says so offline: the service worker (static/sw.js, served at /sw.js),
// told the page's language (it cannot read localStorage).
function keepLang() {
  if (window.caches) caches.open("tarot-lang").then((c) => c.put("/lang", new Response(lang()))).catch(() => {});
}
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js").then(keepLang, () => {});
}
