// The browser client: ES modules, no build step. Protocol: docs/protocol.md.
//   net.js the websocket · state.js what the page knows · i18n.js the texts (static/i18n/)
//   cards.js the cards, faces.js their SVG faces, motion.js a trick gathered · views/ one module per screen (lobby, table, result, sheet, help, forms,
//   challenge: the daily challenge's page #/challenge and its tables; events, eventpage: the
//   duplicate events' lobby panel, their pages #/e/<id> and their tables)
// Clicks go through one listener (``data-action``); the page is redrawn by region.
import {cardName, sortCards, suitName} from "./cards.js";
import {$, h, toast} from "./dom.js";
import {fill, lang, setLang, t, texts} from "./i18n.js";
import {gatherTrick} from "./motion.js";
import {connect, send} from "./net.js";
import {LOBBY_PAGE, S, seatName, secondsLeft} from "./state.js";
import {kept, nameForm, nameRefused} from "./views/forms.js";
import {accountHeader, initAccounts, pageView, routePage, signInOffer} from "./views/account.js";
import {helpSheet} from "./views/help.js";
import {challengeHandlers, challengeView, initChallenge, routeChallenge} from "./views/challenge.js";
import {chatActions, chatHandlers} from "./views/chat.js";
import {eventForTable, eventsHandlers, eventView, initEvents, loadEvents, routeEvent} from "./views/events.js";
import {friendsActions, friendsHandlers} from "./views/friends.js";
import {hintHandlers} from "./views/hint.js";
import {lobbyView} from "./views/lobby.js";
import {initReplay, replayView, routeReplay} from "./views/replay.js";
import {tableRegions, timerText} from "./views/table.js";

const JOIN_REFUSED = new Set(["no_table", "no_spectators"]);  // a table's page cannot open
const CHALLENGE_REFUSED = new Set(["challenge_played", "challenge_closed"]);  // a deal of the day cannot be played
const NAME_REFUSED = new Set(["bad_name", "name_taken"]);  // the hello's guest name: the page asks for another

// --- messages from the server --------------------------------------------------------------

function lobbyChanged() {
  window.tarotLobbyUpdates = (window.tarotLobbyUpdates || 0) + 1;  // tests wait on it
  if (!S.table) render();
}

const handlers = {
  welcome(m) {
    S.me = m.player;
    // an account has no token (its session is a cookie): the guest's stored one is kept for signing out
    if (m.token) { S.token = m.token; localStorage.setItem("tarot.token", m.token); }
    window.tarotReady = true;
    route();
  },
  lobby(m) {  // the first page; then only changes (lobby_update)
    S.lobby = new Map(m.tables.map((tb) => [tb.id, tb])); S.lobbyTotal = m.total;
    lobbyChanged();
  },
  lobby_update(m) {
    for (const tb of m.changed) S.lobby.set(tb.id, tb);
    for (const id of m.removed) S.lobby.delete(id);
    S.lobbyTotal = m.total;
    lobbyChanged();
  },
  created(m) { location.hash = "#/t/" + m.table; },
  invite(m) { if (m.table === S.table) { S.invite = m.code; render(); } },
  snapshot(m) { tableMessage(m); },
  event(m) { tableMessage(m); },
  error(m) {
    // Texts by code, in the player's language; a refused move is not shown when the table has
    // moved on since the click (a stale click: nothing the player needs to read).
    if (m.code === "illegal" && S.sentAt !== S.version) return;
    const text = m.code === "illegal" ? refusal(m) : texts()["err_" + m.code] ?? m.reason;
    if (NAME_REFUSED.has(m.code)) {  // the name form again, saying why
      S.name = null; S.me = null; localStorage.removeItem("tarot.name"); render();
      if (!nameRefused(text)) toast(text);
      return;
    }
    toast(text);
    // the lobby, not a blank page (a private table's invite_only names its table only on join)
    if (JOIN_REFUSED.has(m.code) || (m.code === "invite_only" && m.table)) location.hash = "#/";
    if (CHALLENGE_REFUSED.has(m.code)) send({type: "challenge"});  // the day's page as it is now
  },
};

// the chat's messages (views/chat.js): kept, then the page redrawn
for (const [type, handle] of Object.entries({...chatHandlers, ...friendsHandlers, ...challengeHandlers, ...eventsHandlers, ...hintHandlers})) handlers[type] = (m) => { handle(m); render(); };
// once the server knows who this is: its friends (then their changes come by themselves)
const welcomed = handlers.welcome;
handlers.welcome = (m) => { welcomed(m); send({type: "friends"}); };

// A move the rules refuse, said in the player's language from its reason's code (``why``) and
// particulars (card and suit codes), with the rule it cites.
function refusal(m) {
  const a = m.args || {}, args = {...a, card: a.card && cardName(a.card), suit: a.suit && suitName(a.suit), bid: a.bid && t(a.bid)};
  const text = m.why && texts()["why_" + m.why] ? fill("why_" + m.why, args) : t("err_illegal");
  return m.rule ? `${text} (${m.rule})` : text;
}

function tableMessage(m) {
  if (m.table !== S.table) return;
  if (m.type === "event" && S.version != null && m.version > S.version + 1) {
    send({type: "join", table: S.table, since: S.version}); return;
  }
  if (m.type === "event" && !S.state) return;  // the snapshot that follows a join comes first
  // a snapshot holds the whole state; an event only the keys that changed
  const before = S.state && S.state.view;
  S.state = m.type === "snapshot" ? m.state : Object.assign({}, S.state, m.state); S.version = m.version;
  const after = S.state.view;
  // the trick on the felt between two tricks is gathered when the next one starts
  if (m.type === "event" && before && after && !before.trick.length && before.tricks.length && after.trick.length)
    S.gather = before.tricks[before.tricks.length - 1].winner;
  S.timeLeft = m.state.time_left; S.timerAt = performance.now();
  if (m.type === "event") onEvent(m.event);
  // a challenge's table: the day (how many deals, which next) when it opens and when its deal is over
  if (S.state.table.challenge && (m.type === "snapshot" || m.event.kind === "game_end")) send({type: "challenge"});
  // an event's table: the event (its name; over or not) when it opens and when its game is over
  if (S.state.table.event && (m.type === "snapshot" || m.event.kind === "game_end")) eventForTable(S.state.table.event.id);
  const v = S.state.view, mine = !!v && v.turn != null && v.turn === S.state.you;
  if (mine && !S.wasMyTurn && S.sound) chime();
  S.wasMyTurn = mine;
  render();
}

function onEvent(ev) {
  if (ev.kind === "action") {
    if (ev.by === "timeout") toast(`${t("timeout")} ${seatName(ev.seat)}`);
    S.selected.clear(); S.poignee = null;
    S.lastPlayed = ev.action.play ?? null;
  }
  if (ev.kind === "deal_end") S.resultShown = ev.deal + ":" + (S.state.game ? S.state.game.number : 0);
  if (ev.kind === "deal_start") S.showLastAt = null;
}

function route() {
  // #/t/<table> watches a table; #/t/<table>/<code> is a private table's invite link
  const m = location.hash.match(/^#\/t\/([\w-]+)(?:\/([\w-]+))?/);
  if ((m ? m[1] : null) !== S.table) { S.kept.clear(); S.invite = null; }
  S.state = null; S.version = null; S.selected.clear();
  if (m) { S.table = m[1]; send({type: "join", table: S.table, ...(m[2] ? {invite: m[2]} : {})}); }
  else if (routePage(location.hash)) S.table = null;  // a profile or the ranking (views/account.js)
  else if (routeReplay(location.hash)) S.table = null;  // a game's replay #/g/<game>/<deal>/<step> (views/replay.js)
  else if (routeChallenge(location.hash)) S.table = null;  // the daily challenge #/challenge (views/challenge.js)
  else if (routeEvent(location.hash)) S.table = null;  // a duplicate event's page #/e/<id> (views/events.js)
  else { S.table = null; send({type: "lobby"}); loadEvents(); }
  render();
}
window.addEventListener("hashchange", route);

// --- drawing -----------------------------------------------------------------------------------

let screen = null;  // what #app shows: "name", "lobby", "table" (its regions are kept)
const drawn = new Map();  // region id → the key it was drawn with

function render() {
  $("#lang").textContent = lang() === "fr" ? "EN" : "FR";
  accountHeader();  // the name (a link for an account), sign in or out, the ranking
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

function draw(app) {
  const page = !S.table && (pageView() || replayView() || challengeView() || eventView());  // rebuilt only when its key changes
  if (page) { if (screen !== page.key) show(page.key, ...page.nodes()); return; }
  if (!S.name && !(S.me && S.me.account)) return show("name", kept("name", nameForm), signInOffer());
  if (!S.me) return show("wait");
  if (!S.table) return show("lobby", lobbyView());
  if (!S.state) return show("wait");
  const regions = tableRegions();
  if (screen !== "table") show("table", ...regions.map((r) => h("div", {id: "r-" + r.id, class: "region"})));
  for (const r of regions) {
    if (drawn.get(r.id) === r.key) continue;  // unchanged: left as it is (and its buttons with it)
    drawn.set(r.id, r.key);
    const node = r.build(), region = app.querySelector("#r-" + r.id);
    // the trick gathered: its cards measured where they were before the felt is redrawn
    const gather = r.id === "felt-wrap" && S.gather != null ? S.gather : null;
    const trick = gather != null ? [...region.querySelectorAll(".played .card")].map((el) => [el, el.getBoundingClientRect()]) : [];
    region.replaceChildren(...(node ? [node] : []));
    if (gather != null) { S.gather = null; gatherTrick(trick, region, gather); }
  }
}

// --- what the player does: one listener for every click ---------------------------------------

// One action per position: a double-click, or a click while the last one travels, sends nothing more.
function act(action) {
  if (S.sentAt === S.version) return;
  S.sentAt = S.version;
  send({type: "act", action});
}

function toggle(card) { S.selected.has(card) ? S.selected.delete(card) : S.selected.add(card); render(); }

const ACTIONS = {
  "sit": (el) => send({type: "sit", seat: +el.dataset.seat}),
  "add-bot": (el) => send({type: "add_bot", seat: +el.dataset.seat, bot: el.dataset.bot}),
  "remove-bot": (el) => send({type: "remove_bot", seat: +el.dataset.seat}),
  "new-game": () => send({type: "new_game"}),
  "next-deal": () => send({type: "next_deal"}),
  "bid": (el) => act({bid: el.dataset.bid}),
  "hint": () => { S.hintAsked = S.version; send({type: "hint"}); render(); },
  "dismiss-toast": (el) => { el.style.display = "none"; },  // a tap puts a message away at once
  "call": (el) => act({call: el.dataset.call}),
  "chelem": (el) => act({chelem: el.dataset.chelem === "true"}),
  "play": (el) => act({play: el.dataset.card}),
  "toggle": (el) => toggle(el.dataset.card),
  "ecart": () => act({ecart: [...S.selected]}),
  "poignee-start": (el) => {
    // Start from the lowest trumps (the Excuse only when they fall short); the player edits.
    const count = +el.dataset.count, po = S.state.view.poignee_options;
    const trumps = sortCards(po.allowed.filter((c) => c !== "EX")).reverse();
    S.selected = new Set(trumps.length >= count ? trumps.slice(0, count) : [...trumps, "EX"]);
    S.poignee = count; render();
  },
  "poignee-show": () => { const cards = [...S.selected]; S.poignee = null; S.selected.clear(); act({poignee: cards}); },
  "poignee-cancel": () => { S.poignee = null; S.selected.clear(); render(); },
  "show-last": () => {
    const v = S.state.view;
    S.showLastAt = S.showLastAt === v.tricks_done ? null : v.tricks_done; render();
  },
  "close-result": () => { S.resultShown = null; render(); },
  "lobby-more": async () => {
    // the next page of the lobby (its changes come by lobby_update once it is here)
    const r = await fetch(`/api/tables?offset=${S.lobbyShown}&limit=${LOBBY_PAGE}`);
    if (r.ok) for (const tb of (await r.json()).tables) S.lobby.set(tb.id, tb);
    S.lobbyShown += LOBBY_PAGE; render();
  },
  "copy-invite": () => copyText($("#invite-link").value),
  "propose-cancel": () => { if (confirm(t("cancelconfirm"))) send({type: "cancel_game"}); },
  "cancel-vote": (el) => send({type: "cancel_vote", accept: el.dataset.accept === "1"}),
  "leave": () => {
    if (S.state.table.challenge) { location.hash = "#/challenge"; return; }  // (its seat is never given up)
    if (S.state.table.event) { location.hash = "#/e/" + S.state.table.event.id; return; }  // (nor an event's)
    if (S.state.you >= 0 && S.state.table.status === "playing" && !confirm(t("leaveconfirm"))) return;
    send({type: "leave"}); location.hash = "#/";
  },
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
  const id = e.target.id;
  if (!id) return;
  if (e.target.open) S.open.add(id); else S.open.delete(id);
}, true);

function copyText(text) {
  const done = () => toast(t("copied"));
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, () => {});
  else { $("#invite-link").select(); document.execCommand("copy"); done(); }
}

function chime() {
  // An optional sound when it becomes your turn (the header's ♪ switch).
  try {
    const ctx = chime.ctx || (chime.ctx = new AudioContext()), osc = ctx.createOscillator(), g = ctx.createGain();
    osc.frequency.value = 660; g.gain.setValueAtTime(0.15, ctx.currentTime);
    g.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.3);
    osc.connect(g).connect(ctx.destination); osc.start(); osc.stop(ctx.currentTime + 0.3);
  } catch (e) { /* no audio here */ }
}

// --- the header ------------------------------------------------------------------------------

function soundButton() { const b = $("#sound"); b.setAttribute("aria-pressed", S.sound); b.textContent = S.sound ? "♪ on" : "♪ off"; }
Object.assign(ACTIONS, {
  "lang": () => { setLang(lang() === "fr" ? "en" : "fr"); $("#offline").textContent = t("offline"); screen = null; render(); },
  "sound": () => {
    S.sound = !S.sound; localStorage.setItem("tarot.sound", S.sound ? "on" : "off"); soundButton(); if (S.sound) chime();
  },
  "help": async () => {
    const nodes = await helpSheet();
    if (!nodes) { toast(t("help_unavailable")); return; }
    const d = $("#cheat"); d.replaceChildren(...nodes); if (!d.open) d.showModal();
  },
});
soundButton();

// Signed in or out: the websocket again, so that its hello carries the session cookie (or none).
function reconnect() { const old = S.ws; connect(handlers); if (old) old.close(); }
Object.assign(ACTIONS, initAccounts({render, reconnect}));
Object.assign(ACTIONS, chatActions, friendsActions);
Object.assign(ACTIONS, initReplay({render}));
Object.assign(ACTIONS, initChallenge({render}));
Object.assign(ACTIONS, initEvents({render}));

// The clocks tick by changing their text only (a redraw each second would lose clicks).
setInterval(() => {
  const el = $("#timer");
  if (el && S.state && S.timeLeft != null) el.textContent = timerText();
  const nd = $("#next-deal-left");
  if (nd && S.state && S.state.next_deal) nd.textContent = secondsLeft(S.state.next_deal.time_left);
  const cv = $("#cancel-left");
  if (cv && S.state && S.state.cancel) cv.textContent = secondsLeft(S.state.cancel.time_left);
}, 1000);

connect(handlers);
render();
