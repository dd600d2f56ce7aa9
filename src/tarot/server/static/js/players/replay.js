// Replays and the players' history (issue 18), through the JSON API (history_api.py):
//   the replay page #/g/<game>[/<deal>/<step>]: a done deal stepped through action by action
//   (every hand shown: the deal is over), the trick on the felt, the score sheet, the fairness
//   check (SHA-256 of seed:salt against the commitment, with Web Crypto), the records download;
//   the history list of a profile (historyPanel, for players/account.js).
// A position after k actions is rebuilt from the deal's tarot-deal/1 record (docs/records.md):
// the hands as dealt, less the cards played, the taker's with the chien and less the écart.
import {cardEl, cardName, sortCards} from "../cards/cards.js";
import {$, h, s as svg} from "../core/dom.js";
import {colon, decimal, fill, lang, minus, number, plural, signed, t, texts} from "../core/i18n.js";
import {send} from "../core/net.js";
import {S} from "../core/store.js";
import {initReview, reviewKey, reviewPanel} from "./review.js";

let hooks = {render: () => {}};
// the replay shown: {gid, deal, step, status: loading|ok|none|error, data}
let rp = null;
const digests = new Map();  // "seed:salt" → its SHA-256 (hex), or "" where Web Crypto is missing

export function initReplay(given) {
  hooks = given;
  routeReplay(location.hash);
  document.addEventListener("keydown", onKey);
  return {"replay-step": (el) => go(el.dataset.to), "history-more": historyMore, "practice-from": practiceFrom,
    ...initReview(given)};
}

// --- the page ------------------------------------------------------------------------------------

// #/g/<game>[/<deal>/<step>][/review]: "/review" (the history's, the challenge's and the events'
// "Review" links) shows the page at the expert's review panel.
function parse(hash) {
  const m = hash.match(/^#\/g\/(\d+)(?:\/(\d+)(?:\/(\d+))?)?(\/review)?\/?$/);
  return m ? {gid: +m[1], deal: m[2] == null ? null : +m[2], step: m[3] == null ? null : +m[3], review: !!m[4]} : null;
}

// From main.js's route(): true when ``hash`` is a replay (its game is fetched once).
export function routeReplay(hash) {
  const p = parse(hash);
  if (!p) { rp = null; return false; }
  if (rp && rp.gid === p.gid) Object.assign(rp, {deal: p.deal, step: p.step, review: p.review});
  else { rp = {...p, status: "loading", data: null}; load(rp); }
  return true;
}

async function load(r) {
  let status = "error", data = null;
  try {
    const answer = await fetch(`/api/games/${r.gid}`);
    // 403: a deal of today's challenge (shown only to who has played it until the day is over), or
    // a game of an event not over
    status = answer.ok ? "ok" : answer.status === 404 || answer.status === 422 ? "none" : answer.status === 403 ? "hidden" : "error";
    if (answer.ok) data = await answer.json();
  } catch (e) { status = "error"; }
  if (rp !== r) return;
  Object.assign(r, {status, data});
  hooks.render();
}

// The deal shown (its index in the done deals) and the step (0 … its actions), as the hash says.
function current() {
  const deals = rp.data.deals_done;
  let i = deals.findIndex((d) => d.number === rp.deal);
  if (i < 0) i = 0;
  const d = deals[i], n = d.record.actions.length;
  const step = rp.step == null ? 0 : Math.max(0, Math.min(n, rp.step));
  return {i, d, n, step};
}

const stepHash = (gid, number, step) => `#/g/${gid}/${number}/${step}`;

function go(to) {
  if (!rp || rp.status !== "ok" || !rp.data.deals_done.length) return;
  const {d, n, step} = current();
  const next = {first: 0, prev: step - 1, next: step + 1, last: n}[to];
  if (next == null || next < 0 || next > n || next === step) return;
  rp.deal = d.number; rp.step = next;
  history.replaceState(null, "", stepHash(rp.gid, d.number, next));  // the link of this step
  const focused = document.activeElement && document.activeElement.id;
  hooks.render();
  if (focused) { const el = document.getElementById(focused); if (el && !el.disabled) el.focus(); }
}

// "Play this deal again" (step 0) and "Play from here" (issue 35): a practice table of one's own with
// the deal's cards, its first moves made, oneself at one's seat in that game (else the seat to move
// at that step) and robots elsewhere; the server answers ``created`` and the page goes there.
function practiceFrom(el) {
  if (!rp || rp.status !== "ok" || !rp.data.deals_done.length) return;
  const {d} = current(), step = +el.dataset.step, rec = d.record;
  const mine = S.me ? rp.data.seats.findIndex((s) => s && s.name === S.me.name) : -1;
  const next = rec.actions[step];
  const seat = mine >= 0 ? mine : next ? next.seat : 0;
  send({type: "practice_from", game: rp.gid, deal: d.number, step, seat});
}

function onKey(e) {
  if (!rp || !location.hash.startsWith("#/g/") || e.altKey || e.ctrlKey || e.metaKey) return;
  if (e.target.closest && e.target.closest("input, select, textarea, dialog[open]")) return;
  const to = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"}[e.key];
  if (!to) return;
  e.preventDefault();
  go(to);
}

// For main.js's draw(): null when no replay is shown, else its key and nodes.
export function replayView() {
  if (!rp) return null;
  const pos = rp.status === "ok" && rp.data.deals_done.length ? current() : null;
  const fair = pos ? digestOf(pos.d) : null;
  const review = pos && reviewKey(rp.gid, pos.d.number);
  const key = "replay|" + JSON.stringify([lang(), rp.gid, rp.status, pos && [pos.d.number, pos.step], fair, review]);
  return {key, nodes: () => {
    if (pos && rp.review) {  // (once: the panel in view, after the page is laid out)
      rp.review = false;
      requestAnimationFrame(() => { const el = document.getElementById("rp-review"); if (el) el.scrollIntoView({block: "start"}); });
    }
    return [h("div", {id: "replay-page"}, replayPage(pos))];
  }};
}

// A seat's name; a name at several seats with its seat's number. A robot's player is named for
// its kind ("Heuristic"): shown as the table showed it, in the page's language ("Robot 2").
function namer(seats) {
  const count = {};
  for (const s of seats) count[s.name] = (count[s.name] || 0) + 1;
  return (i) => {
    const s = seats[i];
    if (!s) return `${t("rp_seat")} ${i + 1}`;
    const robot = s.bot && texts()["botname_" + s.name.toLowerCase()];
    if (robot) return `${robot} ${i + 1}`;
    return count[s.name] > 1 ? `${s.name} ${i + 1}` : s.name;
  };
}

const panel = (attrs, ...kids) => h("section", {class: "panel", ...attrs}, ...kids);

function replayPage(pos) {
  if (rp.status === "loading") return panel({}, h("p", {class: "note"}, "…"));
  if (rp.status !== "ok") {
    return panel({}, h("h2", {id: "no-game"}, t({none: "rp_no_game", hidden: "ch_hidden"}[rp.status] || "acc_err_generic")));
  }
  const g = rp.data, name = namer(g.seats);
  const head = panel({id: "rp-head"},
    h("h2", {}, `${t("rp_game")} ${g.id}`, " ", h("span", {class: "note"}, `${when(g.date)} · ${t("rp_status_" + g.status)}`),
      g.competitive ? h("span", {class: "badge competitive"}, t("competitive_short")) : null),
    h("p", {class: "rp-seats"}, Array.from({length: g.players}, (_, i) => h("span", {}, seatLink(g.seats[i], name(i))))),
    h("p", {}, h("a", {href: `/api/games/${g.id}/records`, download: `game-${g.id}.json`, id: "rp-download"}, t("rp_download"))));
  if (!pos) return [head, panel({id: "rp-empty"}, h("p", {}, t("rp_no_deal")))];
  return [head, h("div", {class: "rp-grid"},
    h("div", {class: "rp-main"}, dealPicker(g, pos), controls(pos), felt(g, pos, name), hands(g, pos, name)),
    h("div", {class: "rp-side"}, reviewPanel(g.id, pos.d, pos.step, name, stepHash), sheet(g, pos, name), fairness(pos.d)))];
}

function seatLink(s, label) {
  if (!s) return label;
  const mark = s.bot ? [" ", h("span", {class: "bot-mark"}, t("acc_botmark"))] : [];
  return s.account ? h("a", {href: "#/p/" + encodeURIComponent(s.name)}, label, ...mark) : h("span", {}, label, ...mark);
}

const when = (secs) => new Date(secs * 1000).toLocaleString(lang(), {dateStyle: "medium", timeStyle: "short"});

function dealPicker(g, pos) {
  return h("nav", {class: "tabs rp-deals", "aria-label": t("rp_deals")}, g.deals_done.map((d) =>
    h("a", {href: stepHash(g.id, d.number, 0), class: "tab", "data-deal": d.number,
      "aria-current": d.number === pos.d.number ? "page" : false}, `${t("deal")} ${d.number}`)));
}

function controls(pos) {
  const b = (to, label, icon, off) => h("button", {type: "button", id: "rp-" + to, "data-action": "replay-step", "data-to": to,
    "aria-label": t(label), title: t(label), disabled: off}, icon);
  const start = pos.step === 0, end = pos.step === pos.n;
  return h("div", {class: "rp-controls"}, b("first", "rp_first", icon("⏮"), start), b("prev", "rp_prev", icon("◀"), start),
    h("span", {id: "rp-step", class: "rp-step"}, `${pos.step}/${pos.n}`), b("next", "rp_next", icon("▶"), end),
    b("last", "rp_last", icon("⏭"), end),
    h("span", {class: "note rp-keys"}, t("rp_keys")),
    h("span", {class: "rp-again"},
      h("button", {type: "button", id: "rp-replay-deal", "data-action": "practice-from", "data-step": 0}, t("rp_replay_deal")),
      h("button", {type: "button", id: "rp-from-here", "data-action": "practice-from", "data-step": pos.step, disabled: end},
        t("rp_from_here"))));
}

// ⏮ ◀ ▶ ⏭ drawn (not every system's fonts have ⏮ and ⏭), the character kept as the icon's name.
const ICONS = {"⏮": "M2 3h2v10H2z M14 3 5 8l9 5z", "◀": "M12 3 3 8l9 5z", "▶": "M4 3l9 5-9 5z", "⏭": "M12 3h2v10h-2z M2 3l9 5-9 5z"};
function icon(ch) {
  return svg("svg", {viewBox: "0 0 16 16", width: "1em", height: "1em", "aria-hidden": "true", "data-icon": ch, class: "rp-icon"},
    svg("path", {d: ICONS[ch], fill: "currentColor"}));
}

// --- a position ----------------------------------------------------------------------------------

const RANKS = "1 2 3 4 5 6 7 8 9 10 J N Q K".split(" ");
const isTrump = (c) => c[0] === "T";
const strength = (c) => (isTrump(c) ? +c.slice(1) : RANKS.indexOf(c.slice(0, -1)));

// The seat that wins a full trick (R16–R17): the highest trump, else the highest card of the
// suit led; the Excuse never wins (the rare chelem exception aside: only the highlight).
function winner(trick) {
  const led = trick.find((p) => p.card !== "EX");
  if (!led) return trick[0].seat;
  const trumps = trick.filter((p) => isTrump(p.card));
  const rivals = trumps.length ? trumps : trick.filter((p) => p.card !== "EX" && !isTrump(p.card) && p.card.slice(-1) === led.card.slice(-1));
  return rivals.reduce((a, b) => (strength(b.card) > strength(a.card) ? b : a)).seat;
}

// The position after ``k`` actions of ``rec``.
function position(rec, k) {
  const n = rec.players, p = {hands: rec.hands.map((x) => [...x]), bids: [], taker: null, contract: null, called: null,
    ecart: null, poignees: [], chelem: null, trick: [], tricks: 0, won: Array(n).fill(0), last: null, playing: false};
  for (const a of rec.actions.slice(0, k)) {
    p.last = a;
    if ("bid" in a) { p.bids.push(a); if (a.bid !== "pass") { p.taker = a.seat; p.contract = a.bid; } }
    else if ("call" in a) p.called = a.call;
    else if ("ecart" in a) {
      p.ecart = a.ecart;
      p.hands[a.seat] = [...p.hands[a.seat], ...rec.chien].filter((c) => !a.ecart.includes(c));
    } else if ("chelem" in a) p.chelem = a.chelem ? a.seat : null;
    else if ("poignee" in a) p.poignees.push(a);
    else if ("play" in a) {
      p.playing = true;
      if (p.trick.length === n) p.trick = [];
      p.trick.push({seat: a.seat, card: a.play});
      p.hands[a.seat] = p.hands[a.seat].filter((c) => c !== a.play);
      if (p.trick.length === n) { p.tricks++; p.won[winner(p.trick)]++; }
    }
  }
  p.trickWinner = p.trick.length === n ? winner(p.trick) : null;
  return p;
}

function lastAction(a, name) {
  if (!a) return t("rp_dealt");
  const who = name(a.seat);
  if ("bid" in a) return `${who}${colon()}${t(a.bid)}`;
  if ("call" in a) return [`${who} ${t("rp_calls")} `, cardEl(a.call, "small")];
  if ("ecart" in a) return `${who}${colon()}${t("rp_ecart")}`;
  if ("chelem" in a) return `${who}${colon()}${t(a.chelem ? "rp_chelem" : "rp_nochelem")}`;
  if ("poignee" in a) return `${t("poigneeof")} ${who}`;
  return `${who} ${t("rp_plays")} ${cardName(a.play)}`;
}

function felt(g, pos, name) {
  const rec = pos.d.record, n = rec.players, p = position(rec, pos.step);
  const el = h("div", {id: "felt", class: "rp-felt"});
  for (let i = 0; i < n; i++) {
    const played = p.trick.find((x) => x.seat === i);
    const turn = rec.actions[pos.step] && rec.actions[pos.step].seat === i;
    el.append(h("div", {class: `seat p${n} pos-${i}` + (turn ? " turn" : ""), "data-seat": i},
      h("span", {class: "name", title: name(i)}, h("span", {class: "who"}, name(i)),
        rec.dealer === i ? h("span", {class: "badge", title: t("dealer")}, "D") : null,
        p.taker === i ? h("span", {class: "badge"}, t("taker")) : null,
        p.playing ? h("span", {class: "badge", title: t("rp_tricks")}, p.won[i]) : null),
      h("div", {class: "played"}, played ? cardEl(played.card, p.trickWinner === i ? "winner" : "") : null)));
  }
  const center = h("div", {id: "center"}, h("div", {id: "rp-action", class: "rp-action"}, lastAction(p.last, name)));
  if (p.bids.length && !p.playing && p.ecart == null)
    center.append(h("div", {id: "bids"}, p.bids.map((b) => h("div", {}, `${name(b.seat)}${colon()}${t(b.bid)}`))));
  const last = p.last || {};
  if ("ecart" in last) center.append(h("div", {id: "rp-ecart"}, sortCards(last.ecart).map((c) => cardEl(c, "small"))));
  if ("poignee" in last) center.append(h("div", {id: "rp-poignee"}, sortCards(last.poignee).map((c) => cardEl(c, "small"))));
  if (p.called) center.append(h("div", {}, `${t("called")}${colon()}`, cardEl(p.called, "small")));
  if (pos.step === pos.n) center.append(h("div", {id: "rp-result"}, resultLine(pos.d.result, name)));
  el.append(center);
  return el;
}

function resultLine(r, name) {
  if (!r) return "";
  if (r.annulled) return `${t("annulled")} (${t(r.annulled)})`;
  return `${name(r.taker)} · ${t(r.contract)} · ${decimal(r.points)} ${t("points")} ${r.made ? "✓" : "✗"}`;
}

// Every hand as it is at this step (the deal is over: nothing is hidden), then the chien and écart.
function hands(g, pos, name) {
  const rec = pos.d.record, p = position(rec, pos.step);
  const row = (id, label, cards, cls = "") => h("div", {class: "rp-hand-row " + cls, id},
    h("div", {class: "rp-hand-name"}, label, h("span", {class: "note"}, ` (${cards.length})`)),
    h("div", {class: "rp-hand"}, sortCards(cards).map((c) => cardEl(c, "small"))));
  return panel({id: "rp-hands"},
    p.hands.map((cards, i) => row("rp-hand-" + i, name(i), cards, p.taker === i ? "taker" : "")),
    row("rp-chien", t("chien"), rec.chien, "aside"),
    p.ecart ? row("rp-ecart-row", t("rp_ecart_row"), p.ecart, "aside") : null);
}

// --- the score sheet and the fairness panel -------------------------------------------------------

function sheet(g, pos, name) {
  const totals = Array(g.players).fill(0);
  const rows = g.deals_done.map((d) => {
    const r = d.result || {scores: Array(g.players).fill(0)};
    r.scores.forEach((x, i) => { totals[i] += x; });
    const what = r.annulled ? t("annulled") : `${name(r.taker)} · ${t(r.contract)} ${r.made ? "✓" : "✗"}`;
    return h("tr", {class: d.number === pos.d.number ? "current" : false},
      h("td", {}, h("a", {href: stepHash(g.id, d.number, 0)}, d.number)), h("td", {class: "what"}, what),
      totals.map((x, i) => h("td", {}, h("b", {}, minus(x)), h("br"), h("small", {}, signed(r.scores[i])))));
  });
  return panel({id: "sheet"}, h("h3", {}, t("sheet")), h("div", {class: "sheet-wrap"}, h("table", {class: "sheet"},
    h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("contract")), g.seats.map((s, i) => h("th", {}, name(i))))),
    h("tbody", {}, rows))));
}

function digestOf(d) {
  const text = `${d.seed}:${d.salt}`;
  if (digests.has(text)) return digests.get(text);
  if (!(window.crypto && crypto.subtle)) { digests.set(text, ""); return ""; }
  digests.set(text, null);  // under way
  crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)).then((buf) => {
    digests.set(text, [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join(""));
    hooks.render();
  }, () => { digests.set(text, ""); hooks.render(); });
  return null;
}

function fairness(d) {
  const got = digestOf(d), promised = d.record.commitment ? d.record.commitment.sha256 : d.commitment;
  const ok = got ? got === d.commitment && promised === d.commitment : null;
  const verdict = got == null ? h("p", {id: "rp-check", class: "note"}, t("rp_checking"))
    : got === "" ? h("p", {id: "rp-check", class: "note"}, t("rp_nocrypto"))
    : h("p", {id: "rp-check", class: ok ? "ok" : "bad", "data-ok": ok ? "true" : "false"},
      h("span", {class: "mark", "aria-hidden": "true"}, ok ? "✓ " : "✗ "), t(ok ? "rp_fair_ok" : "rp_fair_bad"));
  const line = (label, value, id) => h("div", {}, h("dt", {}, label), h("dd", {class: "mono", id}, value));
  return panel({id: "rp-fairness"}, h("h3", {}, t("fairness")),
    h("p", {class: "note"}, t("rp_fair_note")),
    h("dl", {}, line(t("commitment"), d.commitment, "rp-commitment"), line(t("seed"), d.seed, "rp-seed"),
      line(t("salt"), d.salt, "rp-salt"), got ? line("SHA-256(seed:salt)", got, "rp-digest") : null),
    verdict);
}

// --- a profile's games (players/account.js) ------------------------------------------------------------

let hist = null;  // {name, loaded: when, games, total, page, more}

// The profile's list of games, newest first, paged with "More"; filled in place when its data is here.
export function historyPanel(name) {
  const box = panel({id: "history"}, h("h3", {}, t("hist_title")), h("p", {class: "note"}, "…"));
  if (hist && hist.name === name && performance.now() - hist.loaded < 5000) {
    if (hist.page) fillHistory(box);  // (else its first page is on its way: it fills the page's box)
  } else {
    const mine = hist = {name, loaded: performance.now(), games: [], total: 0, page: 0, more: false};
    morePage(mine).then(() => refill(mine));
  }
  return box;
}

// The list shown again in the page's box (the profile may have been redrawn since the request).
function refill(mine) {
  const box = $("#history");
  if (hist === mine && box) fillHistory(box);
}

async function morePage(hs) {
  try {
    const r = await fetch(`/api/players/${encodeURIComponent(hs.name)}/games?page=${hs.page + 1}`);
    if (!r.ok) { Object.assign(hs, {failed: true, page: hs.page || -1}); return; }
    const d = await r.json();
    Object.assign(hs, {games: [...hs.games, ...d.games], total: d.total, page: d.page, more: d.more, failed: false});
  } catch (e) { Object.assign(hs, {failed: true, page: hs.page || -1}); }
}

async function historyMore() {
  const mine = hist;
  if (!mine || !mine.more) return;
  await morePage(mine);
  refill(mine);
}

function fillHistory(box) {
  const hs = hist, one = (x) => number(x, 1);
  const body = hs.failed && !hs.games.length ? [h("p", {class: "form-error"}, t("acc_err_generic"))]
    : !hs.games.length ? [h("p", {id: "history-empty"}, t("hist_none"))]
    : [h("ol", {class: "history", id: "history-list"}, hs.games.map((g) => {
      const name = namer(g.seats), own = g.seat;
      const who = g.seats.map((s, i) => h(i === own ? "b" : "span", {class: "who"}, `${name(i)} ${signed(g.totals[i] ?? 0)}`));
      const facts = [fill(plural(g.played) ? "hist_deals" : "hist_deal", {n: g.played}), g.status !== "finished" ? t("rp_status_" + g.status) : null,
        g.rank != null ? `${t("hist_rank")} ${g.rank}` : null,
        g.rating ? `${t("rating")} ${one(g.rating.before)} → ${one(g.rating.after)}` : null,
        g.competitive ? t("competitive_short") : null].filter(Boolean);
      return h("li", {"data-game": g.id}, h("a", {href: `#/g/${g.id}`, class: "game-link"},
        h("span", {class: "when"}, when(g.date)), h("span", {class: "players"}, who.flatMap((x, i) => (i ? [" · ", x] : [x])))),
      h("span", {class: "note facts"}, facts.join(" · "),
        g.played ? [" · ", h("a", {href: `#/g/${g.id}/1/0/review`, class: "review-link"}, t("rv_link"))] : null));
    })),
    hs.more ? h("p", {class: "more"}, h("button", {id: "history-more", "data-action": "history-more"},
      fill("hist_more", {n: hs.total - hs.games.length}))) : null];
  box.replaceChildren(h("h3", {}, t("hist_title")), ...body.filter(Boolean));
}
