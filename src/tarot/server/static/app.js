// The browser client: plain ES module, no build step. Protocol: docs/protocol.md.
// The texts: one JSON file per language (static/i18n/), which the tests read too.
const T = Object.fromEntries(await Promise.all(["en", "fr"].map(async (l) =>
  [l, await (await fetch(`/static/i18n/${l}.json`)).json()])));
let lang = localStorage.getItem("tarot.lang") || (navigator.language || "en").slice(0, 2);
if (!T[lang]) lang = "en";
document.documentElement.lang = lang;
const t = (k) => T[lang][k] ?? k;
const $ = (sel) => document.querySelector(sel);
const h = (tag, attrs = {}, ...kids) => {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (v === true) el.setAttribute(k, "");
    else if (v !== false && v != null) el.setAttribute(k, v);
  }
  for (const kid of kids.flat()) if (kid != null) el.append(kid.nodeType ? kid : String(kid));
  return el;
};

const S = {ws: null, token: localStorage.getItem("tarot.token"), name: localStorage.getItem("tarot.name"),
  me: null, lobby: [], table: null, state: null, version: null, selected: new Set(), showLastAt: null, poignee: null,
  resultShown: null, timerAt: 0, timeLeft: null, kept: new Map(), invite: null, online: false, retry: 0,
  sentAt: null, sound: localStorage.getItem("tarot.sound") === "on", wasMyTurn: false};

// Forms survive re-renders (lobby updates, events, the timer): rebuilding them would wipe what
// the person is typing. A form is rebuilt only when its key (language, values shown) changes.
function kept(key, make) {
  const k = lang + "|" + key;
  if (!S.kept.has(k)) S.kept.set(k, make());
  return S.kept.get(k);
}

function toast(text) {
  const el = $("#toast");
  el.textContent = text; el.style.display = "block";
  clearTimeout(toast.t); toast.t = setTimeout(() => (el.style.display = "none"), 4000);
}
function send(msg) { if (S.ws && S.ws.readyState === 1) S.ws.send(JSON.stringify(msg)); }

// A banner while the connection is lost; reconnection by itself, sooner at first, then every 5 s.
function online(up) {
  S.online = up;
  const el = $("#offline");
  el.textContent = t("offline");
  el.hidden = up;
}
function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  S.ws = ws;
  ws.onopen = () => { S.retry = 0; online(true); send({type: "hello", name: S.name, token: S.token}); };
  ws.onmessage = (e) => onMessage(JSON.parse(e.data));
  ws.onclose = () => {
    if (S.ws !== ws) return;
    online(false);
    setTimeout(connect, Math.min(5000, 500 * 2 ** S.retry++));
  };
}

const JOIN_REFUSED = new Set(["no_table", "no_spectators"]);  // a table's page cannot open

function onMessage(m) {
  if (m.type === "welcome") {
    S.me = m.player; S.token = m.token; localStorage.setItem("tarot.token", m.token);
    window.tarotReady = true;
    route();
  } else if (m.type === "lobby") {
    S.lobby = m.tables; window.tarotLobbyUpdates = (window.tarotLobbyUpdates || 0) + 1;  // tests wait on it
    if (!S.table) render();
  }
  else if (m.type === "created") { location.hash = "#/t/" + m.table; }
  else if (m.type === "invite") { if (m.table === S.table) { S.invite = m.code; render(); } }
  else if (m.type === "snapshot" || m.type === "event") {
    if (m.table !== S.table) return;
    if (m.type === "event" && S.version != null && m.version > S.version + 1) {
      send({type: "join", table: S.table, since: S.version}); return;
    }
    if (m.type === "event" && !S.state) return;  // the snapshot that follows a join comes first
    // a snapshot holds the whole state; an event only the keys that changed
    S.state = m.type === "snapshot" ? m.state : Object.assign({}, S.state, m.state); S.version = m.version;
    S.timeLeft = m.state.time_left; S.timerAt = performance.now();
    if (m.type === "event") onEvent(m.event);
    const v = S.state.view, mine = !!v && v.turn != null && v.turn === S.state.you;
    if (mine && !S.wasMyTurn && S.sound) chime();
    S.wasMyTurn = mine;
    render();
  } else if (m.type === "error") {
    // Texts by code, in the player's language; a refused move is not shown when the table has
    // moved on since the click (a stale click: nothing the player needs to read).
    if (m.code === "illegal" && S.sentAt !== S.version) return;
    toast(T[lang]["err_" + m.code] ?? m.reason);
    if (JOIN_REFUSED.has(m.code)) location.hash = "#/";  // the lobby, not a blank page
  } else if (m.type !== "lobby" && m.type !== "missed" && m.type !== "pong") {
    console.warn("unknown message", m.type);
  }
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

function onEvent(ev) {
  const st = S.state;
  if (ev.kind === "action") {
    if (ev.by === "timeout") toast(`${t("timeout")} ${seatName(ev.seat)}`);
    S.selected.clear(); S.poignee = null;
  }
  if (ev.kind === "deal_end") S.resultShown = ev.deal + ":" + (st.game ? st.game.number : 0);
  if (ev.kind === "deal_start") S.showLastAt = null;
}

function route() {
  // #/t/<table> watches a table; #/t/<table>/<code> is a private table's invite link
  const m = location.hash.match(/^#\/t\/([\w-]+)(?:\/([\w-]+))?/);
  if ((m ? m[1] : null) !== S.table) { S.kept.clear(); S.invite = null; }
  S.state = null; S.version = null; S.selected.clear();
  if (m) { S.table = m[1]; send({type: "join", table: S.table, ...(m[2] ? {invite: m[2]} : {})}); }
  else { S.table = null; send({type: "lobby"}); }
  render();
}
window.addEventListener("hashchange", route);

function timerText() {
  return `${t("timeleft")}: ${Math.max(0, Math.round(S.timeLeft - (performance.now() - S.timerAt) / 1000))}s`;
}

function seatName(i) {
  const s = S.state && S.state.table.seats[i];
  return s ? (s.name || "—") : "?";
}

// --- cards ----------------------------------------------------------------------
const SUITS = {S: ["♠", false], H: ["♥", true], D: ["♦", true], C: ["♣", false]};
const SUIT_ORDER = {S: 0, H: 1, C: 2, D: 3};
// The hand reads trumps (high first), the Excuse, then the suits, colours alternating.
function cardKey(c) {
  if (c[0] === "T") return [0, 21 - c.slice(1)];
  if (c === "EX") return [1, 0];
  const r = "1 2 3 4 5 6 7 8 9 10 J N Q K".split(" ").indexOf(c.slice(0, -1));
  return [2 + SUIT_ORDER[c.slice(-1)], r];
}
function sortCards(cards) {
  return [...cards].sort((a, b) => { const x = cardKey(a), y = cardKey(b); return x[0] - y[0] || x[1] - y[1]; });
}
// Court letters as each language writes them: R, D, C, V for roi, dame, cavalier, valet.
const COURT = {en: {J: "J", N: "Kn", Q: "Q", K: "K"}, fr: {J: "V", N: "C", Q: "D", K: "R"}};
const SUIT_NAMES = {en: {S: "spades", H: "hearts", D: "diamonds", C: "clubs"}, fr: {S: "pique", H: "cœur", D: "carreau", C: "trèfle"}};
const RANK_NAMES = {en: {J: "jack", N: "knight", Q: "queen", K: "king", 1: "ace"}, fr: {J: "valet", N: "cavalier", Q: "dame", K: "roi", 1: "as"}};
function cardName(c) {
  if (c === "EX") return "Excuse";
  if (c === "T1") return lang === "fr" ? "Petit (atout 1)" : "Petit (trump 1)";
  if (c[0] === "T") return (lang === "fr" ? "atout " : "trump ") + c.slice(1);
  const r = c.slice(0, -1);
  return `${RANK_NAMES[lang][r] ?? r} ${lang === "fr" ? "de" : "of"} ${SUIT_NAMES[lang][c.slice(-1)]}`;
}
function cardEl(c, cls = "", attrs = {}) {
  // The Excuse and the Petit are drawn apart: neither reads as an ace nor as the host's star.
  let top, big, extra = "";
  if (c === "EX") { top = "Exc"; big = "♪"; extra = " trump excuse"; }
  else if (c === "T1") { top = "1"; big = "Petit"; extra = " trump petit"; }
  else if (c[0] === "T") { top = c.slice(1); big = c.slice(1); extra = " trump"; }
  else {
    const [sym, red] = SUITS[c.slice(-1)], r = c.slice(0, -1);
    top = (COURT[lang][r] ?? (r === "1" ? "A" : r)) + sym; big = sym; if (red) extra = " red";
  }
  if (attrs.onclick) { attrs = {tabindex: 0, role: "button", ...attrs}; }  // playable from the keyboard
  return h("div", {class: "card" + extra + (cls ? " " + cls : ""), "data-card": c, title: cardName(c),
    "aria-label": cardName(c), ...attrs}, h("span", {}, top), h("span", {class: "big"}, big));
}
// Enter or Space on a focused card is a click on it.
document.addEventListener("keydown", (e) => {
  const el = e.target;
  if ((e.key === "Enter" || e.key === " ") && el.classList && el.classList.contains("card")) { e.preventDefault(); el.click(); }
});

// --- views -------------------------------------------------------------------------
function render() {
  $("#lang").textContent = lang === "fr" ? "EN" : "FR";
  $("#me").textContent = S.me ? S.me.name : "";
  const app = $("#app");
  const focused = document.activeElement;  // a kept form's field keeps the focus and the caret
  let caret = null;
  try { caret = focused && focused.selectionStart != null ? [focused.selectionStart, focused.selectionEnd] : null; } catch (e) { caret = null; }
  app.replaceChildren();
  try { renderInto(app); } finally {
    if (focused && focused !== document.activeElement && focused.isConnected) {
      focused.focus();
      if (caret) try { focused.setSelectionRange(caret[0], caret[1]); } catch (e) { /* number inputs have no caret */ }
    }
  }
}

function renderInto(app) {
  if (!S.name) return app.append(kept("name", nameForm));
  if (!S.me) return;
  if (!S.table) return app.append(lobbyView());
  if (!S.state) return;
  app.append(tableView());
}

function nameForm() {
  const input = h("input", {id: "name", maxlength: 40, required: true, autofocus: true});
  return h("form", {class: "panel", onsubmit: (e) => {
    e.preventDefault(); S.name = input.value.trim(); if (!S.name) return;
    localStorage.setItem("tarot.name", S.name); send({type: "hello", name: S.name, token: S.token});
  }}, h("label", {for: "name"}, t("name") + " "), input, " ", h("button", {class: "primary", id: "enter"}, t("go")));
}

function optionsForm(opts, label, onsubmit) {
  const f = h("form", {class: "grid", id: "options"});
  const sel = h("select", {name: "players"}, [3, 4, 5].map((n) => h("option", {value: n, selected: n === opts.players}, n)));
  f.append(h("label", {}, t("players")), sel,
    h("label", {}, t("deals")), h("input", {name: "deals", type: "number", min: 1, max: 40, value: opts.deals}),
    h("label", {}, t("movetime")), h("input", {name: "move_time", type: "number", min: 0, max: 600, value: opts.move_time || 0,
      oninput: (e) => { const x = +e.target.value; e.target.setCustomValidity(x > 0 && x < 5 ? t("movetimerange") : ""); }}),
    h("label", {}, t("private")), h("input", {name: "private", type: "checkbox", checked: !!opts.private}),
    h("label", {}, t("spectators")), h("input", {name: "spectators", type: "checkbox", checked: opts.spectators !== false}),
    h("span"), h("button", {class: "primary", id: "submit-options"}, label));
  f.addEventListener("submit", (e) => {
    e.preventDefault();
    const mt = +f.move_time.value;
    onsubmit({players: +f.players.value, deals: +f.deals.value, move_time: mt > 0 ? mt : null,
      private: f.private.checked, spectators: f.spectators.checked});
  });
  return f;
}

function lobbyView() {
  const rows = S.lobby.map((tb) => h("tr", {},
    h("td", {}, `${tb.options.players}p · ${tb.options.deals} ${t(plural(tb.options.deals) ? "deals" : "deal").toLowerCase()}` +
      (tb.options.move_time ? ` · ${tb.options.move_time}s` : "")),
    h("td", {}, tb.seats.map((s) => (s.host ? "★ " : "") + (s.name || "—")).join(", ")),
    h("td", {}, t("status_" + tb.status)),
    h("td", {}, h("a", {href: "#/t/" + tb.id}, h("button", {}, t("join")))))); 
  return h("div", {},
    h("section", {class: "panel"}, h("h2", {}, t("lobby")),
      rows.length ? h("table", {class: "tables"}, h("tbody", {}, rows)) : h("p", {}, t("none"))),
    h("section", {class: "panel"}, h("h2", {}, t("create")),
      kept("create", () => optionsForm({players: 4, deals: 4, move_time: null, private: false, spectators: true},
        t("create"), (options) => send({type: "create_table", options})))));
}

function tableView() {
  const st = S.state, tb = st.table, v = st.view, you = st.you, n = tb.seats.length;
  const amHost = S.me && tb.host === S.me.id;
  const wrap = h("div", {});
  // info line
  const info = h("div", {id: "info", class: "panel"});
  if (st.game) {
    info.append(h("span", {}, `${t("deal")} ${st.game.played + (tb.status === "playing" ? 1 : 0)}/${st.game.deals}`));
    if (st.game.commitment) info.append(h("details", {id: "fairness"}, h("summary", {}, t("fairness")),
      h("span", {class: "mono"}, `${t("commitment")}: ${st.game.commitment}`)));
  }
  if (v) {
    if (v.contract) info.append(h("span", {}, `${t("taker")}: ${seatName(v.taker)} · ${t(v.contract)}`));
    if (v.called) info.append(h("span", {}, `${t("called")}: `, cardEl(v.called, "small")));
    if (v.turn != null) info.append(h("span", {id: "turn"}, v.turn === you ? h("b", {}, t("yourturn")) : `${t("turn")}: ${seatName(v.turn)}`));
    if (S.timeLeft != null && v.turn != null) {
      info.append(h("span", {id: "timer"}, timerText()));
    }
  } else if (tb.status === "waiting") info.append(h("span", {}, t("waiting")));
  if (tb.options.private && S.invite) {
    const link = `${location.origin}/#/t/${tb.id}/${S.invite}`;
    info.append(h("span", {id: "invite"}, `${t("invite")}: `, h("input", {readonly: true, value: link, size: 24, id: "invite-link"}),
      h("button", {id: "copy-invite", onclick: () => copyText(link)}, t("copy"))));
  }
  if (you < 0) info.append(h("span", {}, t("spectator")));
  wrap.append(info);
  // the felt with seats
  const felt = h("div", {id: "felt"});
  const me = you >= 0 ? you : 0;
  const last = v && v.tricks.length ? v.tricks[v.tricks.length - 1] : null;
  // the previous trick: on request while the next is played (until it is gathered), and alone
  // on the felt between two tricks
  const showLast = v && last && (S.showLastAt === v.tricks_done || v.trick.length === 0);
  for (let i = 0; i < n; i++) {
    const s = tb.seats[i], pos = (i - me + n) % n;
    const el = h("div", {class: `seat p${n} pos-${pos}` + (v && v.turn === i ? " turn" : ""), "data-seat": i});
    const label = h("span", {class: "name"}, (s.host ? h("span", {class: "star", title: t("host")}, "★ ") : null),
      s.name || "—", s.bot ? h("span", {class: "badge"}, t(s.bot)) : null, s.away ? h("span", {class: "badge"}, t("away")) : null,
      v && v.dealer === i ? h("span", {class: "badge", title: t("dealer")}, "D") : null, v && v.taker === i ? h("span", {class: "badge"}, t("taker")) : null,
      v ? h("span", {class: "badge"}, v.hand_sizes[i]) : null);
    el.append(label);
    if (!s.taken && tb.status !== "playing") {
      el.append(h("div", {},
        you < 0 ? h("button", {class: "sit", onclick: () => send({type: "sit", seat: i})}, t("sit")) : null,
        amHost ? h("button", {class: "add-bot", onclick: () => send({type: "add_bot", seat: i, bot: "heuristic"})}, t("bot")) : null,
        amHost ? h("button", {class: "add-search", onclick: () => send({type: "add_bot", seat: i, bot: "search"})}, t("search")) : null));
    } else if (s.bot && amHost && tb.status !== "playing") {
      el.append(h("div", {}, h("button", {onclick: () => send({type: "remove_bot", seat: i})}, "✕")));
    }
    const played = h("div", {class: "played"});
    if (v) {
      let card = null;
      if (showLast && last) { const k = (i - last.leader + n) % n; card = last.cards[k]; }
      else if (v.trick_leader != null) { const k = (i - v.trick_leader + n) % n; card = v.trick[k]; }
      if (card) played.append(cardEl(card, showLast && last && last.winner === i ? "winner" : ""));
    }
    el.append(played);
    felt.append(el);
  }
  const center = h("div", {id: "center"});
  if (v && v.chien && v.phase !== "play" && v.phase !== "done") center.append(h("div", {}, t("chien"), h("div", {id: "chien"}, sortCards(v.chien).map((c) => cardEl(c, "small")))));
  if (v && v.bids.length && v.phase === "bidding") center.append(h("div", {id: "bids"}, v.bids.map((b) => h("div", {}, `${seatName(b.seat)}: ${t(b.bid)}`))));
  if (showLast && last) center.append(h("div", {}, `${t("last")} → ${seatName(last.winner)}`));
  if (v && v.phase === "play" && v.tricks_done <= 1) {
    // Shown to everyone at the start of the play (R11, R14): the écart's trumps and the poignées.
    if (v.ecart_trumps.length) center.append(h("div", {id: "ecart-trumps"}, t("ecarttrumps"),
      h("div", {}, sortCards(v.ecart_trumps).map((c) => cardEl(c, "small")))));
    for (const [seat, cards] of Object.entries(v.poignees)) {
      center.append(h("div", {class: "poignee-shown", "data-seat": seat}, `${t("poigneeof")} ${seatName(+seat)}`,
        h("div", {}, sortCards(cards).map((c) => cardEl(c, "small")))));
    }
  }
  felt.append(center);
  // Between two deals the result sits over the felt, with the button for the next deal.
  if (st.next_deal && st.last_result) felt.append(resultView(st.last_result, nextDealBox(st)));
  wrap.append(felt);
  // my actions and hand
  if (v && you >= 0) { wrap.append(actionsView(v)); wrap.append(handView(v)); }
  const tools = h("div", {id: "tools"});
  if (v && last && v.trick.length) {
    const on = S.showLastAt === v.tricks_done;
    tools.append(h("button", {id: "last", onclick: () => { S.showLastAt = on ? null : v.tricks_done; render(); }}, t(on ? "current" : "last")));
  }
  tools.append(h("button", {id: "leave", onclick: () => {
    if (you >= 0 && tb.status === "playing" && !confirm(t("leaveconfirm"))) return;
    send({type: "leave"}); location.hash = "#/";
  }}, t("leave")));
  wrap.append(tools);
  if (st.last_result && S.resultShown && !st.next_deal) wrap.append(resultView(st.last_result));
  if (tb.status === "finished" && you >= 0 && !amHost)
    wrap.append(h("div", {id: "tools-rematch"}, h("button", {class: "primary", id: "rematch", onclick: () => send({type: "new_game"})}, t("rematch"))));
  if (st.game && st.game.ranking) wrap.append(rankingView(st.game.ranking));
  if (st.game && st.game.sheet.length) wrap.append(sheetView(st.game));
  if (amHost && tb.status !== "playing") {
    wrap.append(h("section", {class: "panel"}, h("h3", {}, t("options")),
      kept("options:" + JSON.stringify(tb.options),
        () => optionsForm(tb.options, t("save"), (options) => send({type: "set_options", options}))),
      tb.status === "finished" ? h("button", {class: "primary", id: "new-game", onclick: () => send({type: "new_game"})}, t("newgame")) : null));
  }
  return wrap;
}

function actionsView(v) {
  const box = h("div", {id: "actions"});
  if (v.turn !== v.seat) return box;
  for (const a of v.legal) {
    if ("bid" in a) box.append(h("button", {class: "bid", "data-bid": a.bid, onclick: () => act({bid: a.bid})}, t(a.bid)));
    else if ("call" in a) box.append(h("button", {class: "call", "data-call": a.call, onclick: () => act({call: a.call})}, t("call"), " ", cardEl(a.call, "small")));
    else if ("chelem" in a) box.append(h("button", {class: "chelem", onclick: () => act({chelem: a.chelem})}, a.chelem ? t("chelem") : t("nochelem")));
  }
  const eo = v.ecart_options;
  if (v.phase === "ecart" && eo && v.hand.some((c) => !eo.allowed.includes(c))) box.append(h("small", {class: "reason"}, t("ecartreason")));
  if (v.phase === "ecart" && eo) {
    const ok = S.selected.size === eo.size;
    box.append(h("span", {}, `${t("select")} ${eo.size} ${t("cards")} (${S.selected.size}/${eo.size})` +
      (eo.trumps_needed ? ` · ${eo.trumps_needed} ${t("trumpsneeded")}` : "")),
      h("button", {class: "primary", id: "ecart", disabled: !ok, onclick: () => act({ecart: [...S.selected]})}, t("ecart")));
  }
  const po = v.poignee_options;
  if (po && v.phase === "play") {
    if (S.poignee) {
      // Choosing the cards to show (R14): any of the allowed trumps, the Excuse only with all of them.
      const count = S.poignee;
      const toggle = (c) => () => { S.selected.has(c) ? S.selected.delete(c) : S.selected.add(c); render(); };
      box.append(h("span", {}, `${t("poigneepick")} ${count} (${S.selected.size}/${count})`),
        h("div", {id: "poignee-pick"}, sortCards(po.allowed).map((c) =>
          cardEl(c, "small legal" + (S.selected.has(c) ? " selected" : ""), {onclick: toggle(c)}))),
        h("button", {class: "primary", id: "poignee-show", disabled: S.selected.size !== count, onclick: () => {
          const cards = [...S.selected]; S.poignee = null; S.selected.clear(); act({poignee: cards});
        }}, t("poignee")),
        h("button", {id: "poignee-cancel", onclick: () => { S.poignee = null; S.selected.clear(); render(); }}, t("cancel")));
    } else {
      for (const [size, count] of Object.entries(po.sizes)) {
        box.append(h("button", {class: "poignee", onclick: () => {
          // Start from the lowest trumps (the Excuse only when they fall short); the player edits.
          const trumps = sortCards(po.allowed.filter((c) => c !== "EX")).reverse();
          S.selected = new Set(trumps.length >= count ? trumps.slice(0, count) : [...trumps, "EX"]);
          S.poignee = count; render();
        }}, `${t("poignee")} (${t(size)}, ${count})`));
      }
    }
  }
  return box;
}

function handView(v) {
  const hand = h("div", {id: "hand"});
  const mine = v.turn === v.seat;
  const plays = new Set(mine ? v.legal.filter((a) => "play" in a).map((a) => a.play) : []);
  const eo = mine && v.phase === "ecart" ? v.ecart_options : null;
  const allowed = eo ? new Set(eo.allowed) : null;
  const chien = v.phase === "ecart" && v.chien ? new Set(v.chien) : new Set();
  const key = "tarot.ecart." + S.table + "." + (S.state.game ? S.state.game.commitment : "");
  if (eo && !S.selected.size) for (const c of JSON.parse(sessionStorage.getItem(key) || "[]")) if (allowed.has(c)) S.selected.add(c);
  if (eo) sessionStorage.setItem(key, JSON.stringify([...S.selected]));  // survives a reload
  for (const c of sortCards(v.hand)) {
    let cls = chien.has(c) ? "from-chien" : "", attrs = {};
    if (chien.has(c)) attrs["data-chien"] = "1";
    if (eo) {
      if (!allowed.has(c)) { cls += " disabled"; attrs.title = `${cardName(c)} ${t("notallowed")}`; }
      else {
        cls += " legal" + (S.selected.has(c) ? " selected" : "");
        attrs.onclick = () => { S.selected.has(c) ? S.selected.delete(c) : S.selected.add(c); render(); };
      }
    } else if (plays.size) {
      if (plays.has(c)) { cls += " legal"; attrs.onclick = () => act({play: c}); } else cls += " disabled";
    }
    hand.append(cardEl(c, cls, attrs));
  }
  return hand;
}

// One action per position: a double-click, or a click while the last one travels, sends nothing more.
function act(action) {
  if (S.sentAt === S.version) return;
  S.sentAt = S.version;
  send({type: "act", action});
}

function copyText(text) {
  const done = () => toast(t("copied"));
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, () => {});
  else { const el = $("#invite-link"); el.select(); document.execCommand("copy"); done(); }
}

const signed = (x) => (x > 0 ? "+" : "") + x;
const plural = (n) => (lang === "fr" ? n > 1 : n !== 1);  // French: 0 or 1 bout; English: 1 oudler
const oudlersText = (n) => `${n} ${t(plural(n) ? "oudlers" : "oudler")}`;

function nextDealBox(st) {
  const nd = st.next_deal, you = st.you, seats = st.table.seats;
  const waiting = seats.map((s, i) => i).filter((i) => seats[i].taken && !seats[i].bot && !seats[i].away && !nd.ready.includes(i));
  const left = Math.max(0, Math.round(nd.time_left - (performance.now() - S.timerAt) / 1000));
  return h("div", {class: "next-deal"},
    you >= 0 ? h("button", {class: "primary", id: "next-deal", disabled: nd.ready.includes(you),
      onclick: () => send({type: "next_deal"})}, t("nextdeal")) : null,
    h("small", {id: "next-deal-in", "data-left": nd.time_left}, ` ${t("nextdealin")} ${left} s` +
      (waiting.length ? ` · ${t("readywait")} ${waiting.map(seatName).join(", ")}` : "")));
}

function resultView(r, extra = null) {
  // Every figure of the deal (R20–R24): who took, with whom, the count against the target, the
  // base and each prime (signed for the attack; they add up to S, per defender), each score.
  const res = r.result, row = r.row;
  const box = h("section", {class: "panel result", id: "result"}, h("h3", {}, `${t("result")} — ${t("deal")} ${row.deal ?? "–"}`));
  if (res.annulled) box.append(h("p", {}, `${t("annulled")} (${t(res.annulled)})`));
  else {
    const who = [`${t("taker")}: ${seatName(row.taker)}`, t(row.contract)];
    if (S.state.table.seats.length === 5)
      who.push(row.partner == null ? t("alone") : `${t("partner")}: ${seatName(row.partner)}`);
    box.append(h("p", {class: "who"}, who.join(" · ")),
      h("p", {class: "count"}, `${row.points} ${t("points")}, ${row.target} ${t("needed")} (${oudlersText(row.oudlers)}) · `,
        h("b", {}, `${t(row.made ? "madeby" : "lostby")} ${row.margin}`)));
    const lines = [[t("base"), `(25 + ${row.margin}) × ${row.multiplier}`, row.base, "base"]];
    if (row.petit_au_bout) lines.push([t("petit_au_bout"), t(row.petit_au_bout), row.petit_au_bout_prime, "petit"]);
    if (row.poignees.length) lines.push([t("poigneeprime"), row.poignees.map(t).join(", "), row.poignee_prime, "poignee"]);
    if (row.chelem_prime) lines.push([t("chelemprime"), [row.chelem ? t(row.chelem) : "", row.chelem_announced ? t("announced") : ""]
      .filter(Boolean).join(", "), row.chelem_prime, "chelem"]);
    lines.push([t("perdefender"), "", row.per_defender, "total"]);
    box.append(h("table", {class: "primes"}, h("tbody", {}, lines.map(([label, why, x, key]) =>
      h("tr", {class: key}, h("th", {}, label), h("td", {}, why), h("td", {class: "num"}, signed(x)))))));
    box.append(h("p", {class: "scores"}, S.state.table.seats.map((s, i) => `${s.name}: ${signed(row.scores[i])}`).join(" · ")));
  }
  box.append(h("details", {class: "fairness"}, h("summary", {}, t("fairness")),
    h("p", {class: "mono"}, `${t("commitment")}: ${r.commitment}`, h("br"), `${t("seed")}: ${r.seed} · ${t("salt")}: ${r.salt}`)));
  if (extra) { box.classList.add("overlay"); box.append(extra); }
  else box.append(h("button", {onclick: () => { S.resultShown = null; render(); }}, t("close")));
  return box;
}

function sheetView(game) {
  // R25: per deal the taker (and partner), contract, oudlers, points against the target, the
  // result, and each player's score under the running total. Scrolls sideways on a phone.
  const seats = S.state.table.seats;
  const contractCell = (r) => {
    if (r.annulled) return t("annulled");
    const who = seatName(r.taker) + (r.partner != null ? ` + ${seatName(r.partner)}` : "");
    return [`${who} · ${t(r.contract)} ${r.made ? "✓" : "✗"}`, h("br"),
      h("small", {}, `${oudlersText(r.oudlers)} · ${r.points}/${r.target}`)];
  };
  return h("section", {class: "panel", id: "sheet"}, h("h3", {}, t("sheet")),
    h("div", {class: "sheet-wrap"}, h("table", {class: "sheet"},
      h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("contract")), seats.map((s) => h("th", {}, s.name)))),
      h("tbody", {}, game.sheet.map((r) => h("tr", {}, h("td", {}, r.deal ?? "–"), h("td", {class: "what"}, contractCell(r)),
        r.totals.map((x, i) => h("td", {}, h("b", {}, x), h("br"), h("small", {}, signed(r.scores[i]))))))))));
}

// The cheat sheet (the header's "?"), for this table's player count (R14's poignées).
const POIGNEES = {3: [13, 15, 18], 4: [10, 13, 15], 5: [8, 10, 13]};
function helpSheet() {
  const H = T[lang].help, n = S.state ? S.state.table.seats.length : 4;
  const grid = (rows) => h("table", {class: "primes"}, h("tbody", {}, rows.map((r) => h("tr", {}, r.map((x) => h("td", {}, x))))));
  return [h("h3", {}, H.title),
    h("h4", {}, H.values), grid(H.valuesRows), h("h4", {}, H.targets), grid(H.targetsRows),
    h("h4", {}, H.contracts), grid(H.contractsRows), h("p", {}, H.score),
    h("h4", {}, `${H.poignees} — ${n} ${t("players").toLowerCase()}`), grid(H.sizes.map((sz, i) => [sz, String(POIGNEES[n][i])])),
    h("p", {}, H.play),
    h("form", {method: "dialog"}, h("button", {class: "primary", id: "cheat-close"}, H.close))];
}

function rankingView(ranking) {
  return h("section", {class: "panel", id: "ranking"}, h("h3", {}, t("ranking")),
    // equal totals share a place (1, 1, 1, 4): the list shows the server's rank, not the position
    h("ol", {}, ranking.map((r, i) => h("li", {value: r.rank ?? i + 1}, `${seatName(r.seat)}: ${r.total}`))));
}

$("#lang").addEventListener("click", () => {
  lang = lang === "fr" ? "en" : "fr"; localStorage.setItem("tarot.lang", lang); document.documentElement.lang = lang;
  $("#offline").textContent = t("offline"); render();
});
$("#sound").addEventListener("click", () => {
  S.sound = !S.sound; localStorage.setItem("tarot.sound", S.sound ? "on" : "off"); soundButton(); if (S.sound) chime();
});
function soundButton() { const b = $("#sound"); b.setAttribute("aria-pressed", S.sound); b.textContent = S.sound ? "♪ on" : "♪ off"; }
soundButton();
$("#help").addEventListener("click", () => { const d = $("#cheat"); d.replaceChildren(...helpSheet()); d.showModal(); });
setInterval(() => {
  const el = $("#timer");
  if (el && S.state && S.timeLeft != null) el.textContent = timerText();
  const nd = $("#next-deal-in");
  if (nd && S.state && S.state.next_deal) {
    const left = Math.max(0, Math.round(S.state.next_deal.time_left - (performance.now() - S.timerAt) / 1000));
    nd.textContent = nd.textContent.replace(/\d+ s/, left + " s");
  }
}, 1000);
connect();
render();
