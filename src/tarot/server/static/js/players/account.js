// Accounts, profiles and the ranking, through the JSON API beside the websocket (api.py):
//   the header's "Ranking" link and "Sign in" / name + "Sign out" (accountHeader),
//   the sign-in dialog (#account-dialog: sign in, or create an account — a guest keeps its games),
//   a player's profile #/p/<name> (and one's own name changed there), the leaderboard #/ranking/<3|4|5>.
// A session is an HTTP-only cookie: after signing in or out the websocket is opened again, so that
// its hello plays as the account (or as the guest again). Refusals are said from their ``code``.
import {$, h, toast} from "../core/dom.js";
import {fill, lang, number as num, t, texts} from "../core/i18n.js";
import {capital, robotName} from "../core/names.js";
import {S, change} from "../core/store.js";
import {slot} from "../core/lazy.js";
import {replays, stats} from "./later.js";

const PAGE = 50;  // the server's page of the leaderboard (api.LEADERBOARD_PAGE)
const COUNTS = [3, 4, 5];
let hooks = {render: () => {}, reconnect: () => {}};
// the profile or ranking shown: {hash, kind: "profile"|"ranking", arg: name|players, status, data}
let page = null;

// main.js hands its redraw and its websocket reconnection; gives the actions of these screens
export function initAccounts(given) {
  hooks = given;
  routePage(location.hash);  // a page opened directly shows before the websocket's welcome
  return {
    "sign-in": () => openDialog("signin"),
    "sign-up": () => openDialog("create"),
    "account-tab": (el) => showTab(el.dataset.tab),
    "sign-out": signOut,
    "ranking-more": rankingMore,
  };
}

// --- the API -----------------------------------------------------------------------------------

// {ok, status, data}; a network failure has status 0
export async function api(method, path, body) {
  try {
    const r = await fetch(path, body === undefined ? {method} :
      {method, headers: {"content-type": "application/json"}, body: JSON.stringify(body)});
    let data = null;
    if (r.status !== 204) try { data = await r.json(); } catch (e) { data = null; }
    return {ok: r.ok, status: r.status, data};
  } catch (e) {
    return {ok: false, status: 0, data: null};
  }
}

// A refusal in the page's language, from the server's code (an unknown one: a generic text).
function refusalText(data) {
  const code = data && data.code;
  if (code === "too_many_attempts") return fill("acc_err_too_many_attempts", {s: Math.ceil(data.retry_after ?? 60)});
  return (code && texts()["acc_err_" + code]) || t("acc_err_generic");
}

function say(el, text) { el.textContent = text || ""; el.hidden = !text; }


export const profileHash = (name) => "#/p/" + encodeURIComponent(name);
const botMark = () => [" ", h("span", {class: "bot-mark"}, t("acc_botmark"))];  // (the space: read and copied apart)
// A player's name in the ranking or on its profile (``wrap`` makes its element): a robot's as the
// table names it, with its mark unless the name says it already ("Robot", "Bot": the club robot's).
function playerName(name, bot, wrap) {
  if (!bot) return [wrap(name)];
  const shown = robotName(name);
  return [wrap(shown), shown === t("botname_heuristic") ? null : botMark()];
}

// --- the header --------------------------------------------------------------------------------

export function accountHeader() {
  const me = S.me, bar = $("#account-bar");
  // before a guest chose a name it plays under the server's placeholder ("Guest"): the page says
  // "Invité" / "Guest" in its own language
  const unnamed = me && !me.account && !S.name;
  const key = [lang(), me ? me.name : "", me ? !!me.account : "", unnamed].join("|");
  if (bar.dataset.key === key) return;  // unchanged: left as it is
  bar.dataset.key = key;
  $("#ranking-link").textContent = t("acc_ranking");
  const name = $("#me");
  if (me && me.account) name.replaceChildren(h("a", {href: profileHash(me.name), id: "me-link"}, me.name));
  else name.textContent = unnamed ? capital(t("guest")) : me ? me.name : "";
  if (!me) bar.replaceChildren();  // not known before the welcome
  else if (me.account) bar.replaceChildren(h("button", {type: "button", id: "sign-out", "data-action": "sign-out"}, t("acc_signout")));
  else bar.replaceChildren(h("button", {type: "button", id: "sign-in", "data-action": "sign-in"}, t("acc_signin")));
}

async function signOut() {
  await api("DELETE", "/api/session");
  hooks.reconnect();  // a guest again: the one this browser kept, or a new one
}

// --- the dialog: sign in, or create an account ---------------------------------------------------

function openDialog(tab) {
  const d = $("#account-dialog");
  const tabButton = (k, label) => h("button", {type: "button", role: "tab", class: "tab", id: "tab-" + k,
    "data-action": "account-tab", "data-tab": k}, label);
  d.replaceChildren(
    h("div", {class: "tabs", role: "tablist"}, tabButton("signin", t("acc_signin")), tabButton("create", t("acc_create"))),
    credentialsForm("signin"), credentialsForm("create"),
    h("form", {method: "dialog", class: "dialog-close"}, h("button", {id: "account-close"}, t("close"))));
  showTab(tab);
  if (!d.open) d.showModal();
  $(`#${tab}-name`).focus();
}

function showTab(tab) {
  for (const k of ["signin", "create"]) {
    $("#tab-" + k).setAttribute("aria-selected", String(k === tab));
    $("#form-" + k).hidden = k !== tab;
  }
}

function credentialsForm(kind) {
  const create = kind === "create";
  const field = (id, label, attrs) => [h("label", {for: id}, label), h("input", {id, ...attrs})];
  const [nameLabel, name] = field(kind + "-name", t("acc_name"), {name: "name", maxlength: 24, autocomplete: "username"});
  const [pwLabel, pw] = field(kind + "-password", t("acc_password"),
    {name: "password", type: "password", autocomplete: create ? "new-password" : "current-password"});
  const again = create ? field("create-password2", t("acc_password2"), {type: "password", autocomplete: "new-password"}) : [];
  const err = h("p", {class: "form-error", id: kind + "-error", role: "alert", hidden: true});
  const button = h("button", {class: "primary", id: kind + "-submit"}, t(create ? "acc_create" : "acc_signin"));
  const guest = create && S.me && !S.me.account && S.token;  // becomes the account: its games stay
  const form = h("form", {class: "grid account-form", id: "form-" + kind, role: "tabpanel", "aria-labelledby": "tab-" + kind,
    novalidate: true, onsubmit: async (e) => {
    e.preventDefault();
    say(err, null);
    if (create && pw.value !== again[1].value) return say(err, t("acc_err_mismatch"));
    button.disabled = true;
    const token = create && !(S.me && S.me.account) ? S.token : null;
    const r = await api("POST", create ? "/api/accounts" : "/api/session",
      {name: name.value, password: pw.value, ...(token ? {guest_token: token} : {})});
    button.disabled = false;
    if (!r.ok) return say(err, refusalText(r.data));
    if (token) { change("token_dropped"); localStorage.removeItem("tarot.token"); }  // the guest's token no longer opens it
    $("#account-dialog").close();
    $("#account-dialog").replaceChildren();  // no password left in the page
    toast(fill("acc_hello", {name: r.data.name}));
    hooks.reconnect();  // the new websocket's hello carries the session cookie
  }}, nameLabel, name, pwLabel, pw, ...again, err, h("span"), button);
  if (guest) form.append(h("p", {class: "note"}, t("acc_keep")));
  return form;
}

// The first screen (the guest's name) also lets someone sign in or create an account.
export function signInOffer() {
  return h("section", {class: "panel sign-in-offer"}, h("p", {}, t("acc_offer")),
    h("div", {class: "buttons"},
      h("button", {type: "button", id: "offer-sign-in", "data-action": "sign-in"}, t("acc_signin")),
      h("button", {type: "button", id: "offer-create", "data-action": "sign-up"}, t("acc_create"))));
}

// --- the pages ---------------------------------------------------------------------------------

function parse(hash) {
  let m = hash.match(/^#\/p\/(.+)$/);
  if (m) {
    let name = m[1];
    try { name = decodeURIComponent(name); } catch (e) { /* left as it is */ }
    return {kind: "profile", arg: name};
  }
  m = hash.match(/^#\/ranking(?:\/(\d+))?\/?$/);
  if (m) return {kind: "ranking", arg: COUNTS.includes(+m[1]) ? +m[1] : 4};
  return null;
}

// From main.js's route(): true when ``hash`` is one of these pages (its data is then fetched).
// The same page again (a reconnection) keeps what it shows until the new data is here.
export function routePage(hash) {
  const p = parse(hash);
  if (!p) { page = null; return false; }
  if (!page || page.hash !== hash) page = {...p, hash, status: "loading", data: null};
  load(page);
  return true;
}

async function load(pg) {
  const r = pg.kind === "profile" ? await api("GET", "/api/players/" + encodeURIComponent(pg.arg))
    : await api("GET", `/api/leaderboard?players=${pg.arg}&offset=0&limit=${PAGE}`);
  if (page !== pg) return;  // another page since
  pg.status = r.ok ? "ok" : r.status === 404 ? "none" : "error";
  pg.data = r.ok ? r.data : null;
  hooks.render();
}

async function rankingMore() {
  const pg = page;
  if (!pg || pg.kind !== "ranking" || !pg.data) return;
  const r = await api("GET", `/api/leaderboard?players=${pg.arg}&offset=${pg.data.ranking.length}&limit=${PAGE}`);
  if (page !== pg || !r.ok) return;
  pg.data = {...pg.data, total: r.data.total, ranking: [...pg.data.ranking, ...r.data.ranking]};
  hooks.render();
}

// For main.js's draw(): null when no such page is shown, else its key (it is rebuilt only when
// the key changes: a lobby update leaves it, and what is being typed in it, alone) and its nodes.
export function pageView() {
  if (!page) return null;
  const me = S.me ? [S.me.name, !!S.me.account] : [];
  const key = "page|" + JSON.stringify([lang(), page.hash, page.status, page.data, me]);
  return {key, nodes: () => [h("div", {class: "narrow", id: page.kind + "-page"},
    page.kind === "profile" ? profileView(page) : rankingView(page))]};
}

const panel = (...kids) => h("section", {class: "panel"}, ...kids);
const failed = (pg) => pg.status === "error" ? [panel(h("p", {class: "form-error"}, t("acc_err_generic")))] : null;

function profileView(pg) {
  if (pg.status === "loading") return [panel(h("p", {class: "note"}, "…"))];
  if (pg.status === "none") {
    return [panel(h("h2", {id: "no-player"}, t("acc_no_player")),
      h("p", {}, h("a", {href: "#/ranking/4"}, t("acc_ranking"))))];
  }
  if (pg.status !== "ok") return failed(pg);
  const p = pg.data, mine = !!(S.me && S.me.account && S.me.name === p.name);
  const stat = (id, label, value) => h("div", {}, h("dt", {}, label), h("dd", {id}, value));
  const rows = COUNTS.map((n) => {
    const r = p.ratings[String(n)];
    return h("tr", {"data-players": n}, h("th", {scope: "row"}, fill("acc_nplayers", {n})),
      r.games ? [h("td", {class: "num ordinal"}, num(r.ordinal, 1)), h("td", {class: "num"}, `${num(r.mu, 1)} ± ${num(r.sigma, 1)}`)]
        : [h("td", {class: "num ordinal unrated"}, t("acc_unrated")), h("td", {class: "num unrated"}, "–")],
      h("td", {class: "num"}, num(r.games)));
  });
  return [
    panel(h("h2", {id: "profile-name", class: "profile-name"}, ...playerName(p.name, p.bot, (x) => h("span", {}, x))),
      h("dl", {class: "stats"}, stat("profile-chips", t("acc_chips"), num(p.chips)), stat("profile-xp", t("acc_xp"), num(p.xp)),
        stat("profile-games", t("acc_games"), num(p.games))),
      h("h3", {}, t("acc_ratings")),
      h("table", {class: "tables ratings", id: "profile-ratings"},
        h("thead", {}, h("tr", {}, h("th", {}, t("players")), h("th", {class: "num"}, t("acc_ordinal")),
          h("th", {class: "num"}, "μ ± σ"), h("th", {class: "num"}, t("acc_gamescol")))),
        h("tbody", {}, rows)),
      h("p", {class: "note"}, t("acc_ordinal_note"))),
    slot(stats, (m) => m.statsPanel(p.name)),  // the player's statistics and rating chart (players/stats.js)
    slot(stats, (m) => m.accuracyPanel(p.name), "section"),  // its accuracy from the expert's reviews (players/accuracy.js)
    slot(replays, (m) => m.historyPanel(p.name)),  // the player's games, each a link to its replay (players/replay.js)
    mine ? renameForm(p.name) : null,
  ];
}

function renameForm(current) {
  const input = h("input", {id: "new-name", name: "name", maxlength: 24, value: current, autocomplete: "username"});
  const err = h("p", {class: "form-error", id: "rename-error", role: "alert", hidden: true});
  const button = h("button", {class: "primary", id: "rename-submit"}, t("acc_rename"));
  return panel(h("h3", {}, t("acc_rename")),
    h("form", {class: "grid", id: "rename", novalidate: true, onsubmit: async (e) => {
      e.preventDefault();
      say(err, null);
      button.disabled = true;
      const r = await api("PATCH", "/api/account", {name: input.value});
      button.disabled = false;
      if (!r.ok) return say(err, refusalText(r.data));
      change("renamed", {name: r.data.name});
      toast(t("acc_renamed"));
      location.hash = profileHash(r.data.name);
      hooks.reconnect();  // the websocket plays under the new name
    }}, h("label", {for: "new-name"}, t("acc_newname")), input, err, h("span"), button),
    h("p", {class: "note"}, t("acc_rename_note")));
}

function rankingView(pg) {
  const n = pg.arg, d = pg.data;
  const tabs = h("nav", {class: "tabs", "aria-label": t("acc_ranking")}, COUNTS.map((k) =>
    h("a", {href: "#/ranking/" + k, class: "tab", id: "ranking-tab-" + k, "aria-current": k === n ? "page" : false},
      fill("acc_nplayers", {n: k}))));
  let body;
  if (pg.status === "loading") body = h("p", {class: "note"}, "…");
  else if (pg.status !== "ok") body = h("p", {class: "form-error"}, t("acc_err_generic"));
  else if (!d.ranking.length) body = h("p", {id: "ranking-empty"}, t("acc_nobody"));
  else {
    const more = d.total - d.ranking.length;
    const mine = S.me && S.me.account ? S.me.name : null;
    body = [h("div", {class: "sheet-wrap"}, h("table", {class: "tables ranking", id: "ranking", "data-players": n},
      h("thead", {}, h("tr", {}, h("th", {class: "num"}, "#"), h("th", {}, t("acc_player")),
        h("th", {class: "num"}, t("acc_ordinal")), h("th", {class: "num"}, "μ ± σ"), h("th", {class: "num"}, t("acc_gamescol")))),
      h("tbody", {}, d.ranking.map((r) => h("tr", {class: r.name === mine ? "me" : false, "data-bot": r.bot ? "true" : false},
        h("td", {class: "num rank"}, r.rank),
        h("td", {class: "who"}, ...playerName(r.name, r.bot, (x) => h("a", {href: profileHash(r.name)}, x))),
        h("td", {class: "num ordinal"}, num(r.ordinal, 1)),
        h("td", {class: "num"}, `${num(r.mu, 1)} ± ${num(r.sigma, 1)}`),
        h("td", {class: "num"}, num(r.games))))))),
    more > 0 ? h("p", {class: "more"}, h("button", {id: "ranking-more", "data-action": "ranking-more"}, fill("lobby_more", {n: more}))) : null];
  }
  return [panel(h("h2", {}, t("acc_ranking")), tabs, body, h("p", {class: "note"}, t("acc_ordinal_note")))];
}
