// The daily challenge (docs/duplicate.md, "The daily challenge"): the same deals for everyone,
// each played once in seat South against the same bots, marked against everyone who held the
// same cards (R26). Here: the lobby's panel that leads to it; the page #/challenge (the day's
// deals: play, resume, or done with contract, score and mark and how the others played, each
// with its replay; the player's percentage; the day's and the month's rankings, the month's from
// GET /api/challenge/months/<YYYY-MM>); and, at a challenge's table, its heading and, once the
// deal is over, "Next deal" and "Back to the challenge".
import {h} from "../core/dom.js";
import {colon, fill, lang, t} from "../core/i18n.js";
import {send} from "../core/net.js";
import {S} from "../core/store.js";
import {profileHash} from "../players/account.js";

let shown = false;  // #/challenge is the page routed
const months = new Map();  // "YYYY-MM" → {status: loading|ok|error, data}
let hooks = {render: () => {}};

// What a message does besides the state (competitions/reduce.js): the month's ranking fetched.
export const challengeEffects = {
  challenge(m) { loadMonth(m.day.slice(0, 7)); },
};

export function initChallenge(given) {
  hooks = given;
  const play = (el) => send({type: "challenge_play", deal: +el.dataset.deal});
  return {
    "challenge-open": () => { location.hash = "#/challenge"; },
    "challenge-play": play,
    "challenge-back": () => { location.hash = "#/challenge"; },  // never ``leave``: the seat stays the player's
  };
}

// From main.js's route(): true when ``hash`` is the challenge's page (the day is asked for again).
export function routeChallenge(hash) {
  shown = /^#\/challenge\/?$/.test(hash);
  if (shown) { months.clear(); send({type: "challenge"}); }
  return shown;
}

async function loadMonth(month) {
  if (!shown || months.has(month)) return;
  const mo = {status: "loading", data: null};
  months.set(month, mo);
  try {
    const r = await fetch(`/api/challenge/months/${month}`);
    Object.assign(mo, r.ok ? {status: "ok", data: await r.json()} : {status: "error"});
  } catch (e) { mo.status = "error"; }
  hooks.render();
}

// --- figures ---------------------------------------------------------------------------------------

const pct = (x) => (x == null ? "–" : Number(x / 100).toLocaleString(lang(), {style: "percent", maximumFractionDigits: 2}));
const score = (x) => Number(x).toLocaleString(lang(), {signDisplay: "exceptZero"}).replace("-", "\u2212");
const capital = (x) => x.charAt(0).toUpperCase() + x.slice(1);
// the seat that deals: the player (always South, seat 0) or one of the bots, as the table names them
const seatOf = (i) => (i === 0 ? capital(t("you")) : `${t("botname_heuristic")} ${i + 1}`);
const dayText = (day, opts) => new Date(day + (day.length === 7 ? "-01" : "") + "T00:00:00Z")
  .toLocaleDateString(lang(), {timeZone: "UTC", ...opts});
const account = () => !!(S.me && S.me.account);
const played = (c) => c.deals.filter((d) => d.status === "done").length;
// the next deal still to play after ``k`` (else the first one before it)
const nextNew = (c, k) => c.deals.find((d) => d.status === "new" && d.deal > k) || c.deals.find((d) => d.status === "new");

function markEl(mark) {
  const fillBar = h("span");
  fillBar.style.width = `${Math.max(0, Math.min(100, mark))}%`;  // (CSSOM: the site's CSP allows no style attribute)
  return h("span", {class: "ch-mark", title: t("ch_mark")}, h("span", {class: "ch-bar", "aria-hidden": "true"}, fillBar),
    h("b", {}, pct(mark)));
}

// "Garde · en défense": the contract, and the player's side in it
const sideText = (side) => t("ch_side_" + side);
const contractText = (contract, side) => (side === "none" ? t("ch_allpassed") : `${t(contract)} · ${sideText(side)}`);

// --- the lobby's panel -------------------------------------------------------------------------

export function challengePanel() {
  const c = S.challenge;
  return h("section", {class: "panel ch-offer", id: "challenge-offer"},
    h("div", {}, h("h2", {}, t("ch_title")), h("p", {}, t("ch_intro")),
      c ? h("p", {class: "note"}, fill("ch_progress", {done: played(c), n: c.deals.length}) +
        (c.percentage != null ? ` · ${pct(c.percentage)}` : "")) : null),
    h("button", {class: "primary", id: "challenge-open", "data-action": "challenge-open"}, t("ch_open")));
}

// --- the page ------------------------------------------------------------------------------------

// For main.js's draw(): null unless #/challenge is shown (and the player has a name), else its key and nodes.
export function challengeView() {
  if (!shown || (!S.name && !account())) return null;
  const c = S.challenge, mo = c ? months.get(c.day.slice(0, 7)) : null;
  const key = "challenge|" + JSON.stringify([lang(), c, mo && mo.status, S.me && [S.me.id, S.me.account]]);
  return {key, nodes: () => [h("div", {class: "narrow", id: "challenge-page"}, ...page(c, mo))]};
}

const panel = (attrs, ...kids) => h("section", {class: "panel", ...attrs}, ...kids);

function page(c, mo) {
  if (!c) return [panel({}, h("h2", {}, t("ch_title")), h("p", {class: "note"}, "…"))];
  const stat = (id, label, value) => h("div", {}, h("dt", {}, label), h("dd", {id}, value));
  return [
    panel({id: "ch-head"}, h("h2", {}, t("ch_title"), " ", h("span", {class: "note ch-day"}, dayText(c.day,
      {weekday: "long", day: "numeric", month: "long", year: "numeric"}))),
    h("p", {}, t("ch_intro")),
    h("dl", {class: "stats"}, stat("ch-percentage", t("ch_percentage"), pct(c.percentage)),
      stat("ch-played", t("ch_played"), `${played(c)}/${c.deals.length}`)),
    h("p", {class: "note"}, c.percentage == null ? t("ch_percentage_none") : t("ch_percentage_note"),
      account() ? "" : ` ${t("ch_guest_note")}`)),
    panel({id: "ch-deals"}, h("h3", {}, t("deals")), h("ol", {class: "ch-deals"}, c.deals.map((d) => dealItem(d))),
      h("p", {class: "note ch-fair"}, t("ch_fair"), " ", h("a", {href: `/api/challenge/days/${c.day}`}, t("ch_fair_link")))),
    panel({id: "ch-day-ranking"}, h("h3", {}, t("ch_ranking_day")),
      // the deals in attack (none: a dash, not "Attaque 0")
      rankingTable(c.ranking, "deals", t("ch_attack"), (r) => r.attack || "–"), h("p", {class: "note"}, t("ch_ranking_day_note"))),
    monthPanel(c, mo),
  ];
}

function dealItem(d) {
  const status = d.status === "playing" && !d.table ? "closed" : d.status;
  const go = (label) => h("button", {class: "primary ch-play", "data-action": "challenge-play", "data-deal": d.deal}, label);
  // on the deal's line: its button ("Play" says it is new), else its status
  const action = status === "new" ? go(t("ch_play")) : status === "playing" ? go(t("ch_resume"))
    : status === "closed" ? h("span", {class: "ch-closed", title: t("ch_closed_note")}, "—") : null;
  const li = h("li", {class: "ch-deal " + status, "data-deal": d.deal},
    h("div", {class: "ch-deal-head"}, h("b", {}, fill("ch_deal", {k: d.deal})),
      h("span", {class: "note"}, `${t("ch_dealer")}${colon()}${seatOf(d.dealer)}`),
      h("span", {class: "ch-side"}, status !== "new" ? h("span", {class: "ch-status " + status}, t("ch_status_" + status)) : null, action)));
  if (status === "done") li.append(...doneBody(d).filter(Boolean));
  li.append(h("small", {class: "mono ch-commit", title: d.commitment}, `${t("ch_commitment")}${colon()}${d.commitment.slice(0, 16)}…`));
  return li;
}

function doneBody(d) {
  const id = "ch-others-" + d.deal;
  const rows = [...d.others.map((o) => ({...o, me: false})), {name: capital(t("you")), contract: d.contract, side: d.side,
    score: d.score, mark: d.mark, game: d.game, me: true}].sort((a, b) => b.score - a.score || b.me - a.me);
  const link = (game, icon) => (account() && game != null
    ? h("a", {href: `#/g/${game}`, class: "ch-replay", title: t("ch_replay"), "aria-label": t("ch_replay")}, icon ? "▶" : t("ch_replay")) : "");
  const compared = d.compared ? fill(d.compared > 1 ? "ch_compared_n" : "ch_compared_1", {n: d.compared}) : t("ch_compared_0");
  return [
    h("div", {class: "ch-result"}, h("span", {class: "ch-contract"}, contractText(d.contract, d.side)),
      h("span", {class: "ch-figure"}, h("small", {}, t("ch_score")), h("span", {class: "ch-score"}, score(d.score))),
      h("span", {class: "ch-figure"}, h("small", {}, t("ch_mark")), markEl(d.mark))),
    h("p", {class: "note ch-compared"}, compared, account() && d.game != null
      ? [" · ", link(d.game), " · ", h("a", {href: `#/g/${d.game}/1/0/review`, class: "review-link"}, t("rv_link"))] : null),
    d.others.length ? h("details", {id, class: "ch-others", open: S.open.has(id)}, h("summary", {}, t("ch_others")),
      h("div", {class: "sheet-wrap"}, h("table", {class: "tables"},
        h("thead", {}, h("tr", {}, h("th", {}, t("acc_player")), h("th", {}, t("contract")), h("th", {class: "num"}, t("ch_score")),
          h("th", {class: "num"}, t("ch_mark")), h("th", {}))),
        h("tbody", {}, rows.map((o) => h("tr", {class: o.me ? "me" : false}, h("td", {class: "who"}, o.name),
          h("td", {}, o.side === "none" ? t("ch_allpassed") : [t(o.contract), h("small", {class: "ch-of"}, sideText(o.side))]),
          h("td", {class: "num"}, score(o.score)), h("td", {class: "num"}, pct(o.mark)), h("td", {}, link(o.game, true))))))),
      account() ? null : h("p", {class: "note"}, t("ch_replay_guest"))) : null,
  ];
}

// A ranking (the day's or the month's): rank, name (its profile), percentage, and a last column
// (``label``, from ``value``: the deals in attack, or the days played)
function rankingTable(ranking, countKey, label, value) {
  if (!ranking.length) return h("p", {class: "ch-nobody"}, t("ch_nobody"));
  const mine = S.me && S.me.id;
  return h("div", {class: "sheet-wrap"}, h("table", {class: "tables ranking ch-ranking"},
    h("thead", {}, h("tr", {}, h("th", {class: "num"}, "#"), h("th", {}, t("acc_player")), h("th", {class: "num"}, "%"),
      h("th", {class: "num"}, label))),
    h("tbody", {}, ranking.map((r) => h("tr", {class: r.player === mine ? "me" : false, "data-count": r[countKey]},
      h("td", {class: "num rank"}, r.rank), h("td", {class: "who"}, h("a", {href: profileHash(r.name)}, r.name)),
      h("td", {class: "num"}, pct(r.percentage)), h("td", {class: "num"}, value(r)))))));
}

function monthPanel(c, mo) {
  const month = dayText(c.day.slice(0, 7), {month: "long", year: "numeric"});
  let body;
  if (!mo || mo.status === "loading") body = [h("p", {class: "note"}, "…")];
  else if (mo.status !== "ok") body = [h("p", {class: "form-error"}, t("acc_err_generic"))];
  else body = [rankingTable(mo.data.ranking, "days", t("ch_days"), (r) => r.days),
    h("p", {class: "note"}, fill("ch_ranking_month_note", {n: mo.data.min_days}))];
  return panel({id: "ch-month-ranking"}, h("h3", {}, fill("ch_ranking_month", {month})), ...body);
}

// --- at a challenge's table ------------------------------------------------------------------------

const today = (ch) => (S.challenge && S.challenge.day === ch.day ? S.challenge : null);

// The table's heading, in its info bar: "Daily challenge — deal k of n".
export function challengeTitle(ch) {
  const c = today(ch);
  return h("h2", {id: "challenge-title"}, c ? fill("ch_heading", {k: ch.deal, n: c.deals.length}) : fill("ch_heading_k", {k: ch.deal}));
}

export const challengeKey = () => JSON.stringify(S.challenge && [S.challenge.day, S.challenge.deals.map((d) => [d.status, d.mark])]);

// Once the deal is over: its score (and mark, once the day's results are here), the next deal, the way back.
export function challengeEnd() {
  const st = S.state, ch = st.table.challenge;
  if (!ch || st.table.status !== "finished") return null;
  const c = today(ch), mine = c && c.deals.find((d) => d.deal === ch.deal && d.status === "done");
  const next = c && nextNew(c, ch.deal);
  const total = st.game ? st.game.totals[0] : null;
  return panel({class: "panel ch-end", id: "challenge-over"},
    h("p", {}, h("b", {}, fill("ch_done", {k: ch.deal})), " ",
      total != null ? h("span", {class: "ch-figure", id: "challenge-score"}, `${t("ch_score")}${colon()}${score(total)}`) : null,
      mine ? [" · ", h("span", {class: "ch-figure"}, `${t("ch_mark")}${colon()}`, markEl(mine.mark))] : null),
    h("div", {class: "buttons"},
      next ? h("button", {class: "primary", id: "challenge-next", "data-action": "challenge-play", "data-deal": next.deal},
        `${t("ch_next")} (${next.deal})`) : null,
      h("button", {id: "challenge-return", "data-action": "challenge-back"}, t("ch_back"))),
    c && !next ? h("p", {class: "note", id: "challenge-all-done"}, t("ch_all_done")) : null);
}
