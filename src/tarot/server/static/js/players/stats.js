// A player's statistics on its profile (issue 18), from GET /api/players/<name>/stats (stats_api.py):
// per player count with games, a table of figures (tiles on a phone, style.css) and a chart of
// the rating after each counted competitive game, drawn here as SVG.
// statsPanel(name) is players/account.js's: a panel filled in place when its data is here.
import {h, s} from "../core/dom.js";
import {fill, lang, number as num, t} from "../core/i18n.js";  // (num: in the page's language, a true minus)

export {accuracyPanel} from "./accuracy.js";  // (loaded with the statistics: players/later.js)

const COUNTS = ["3", "4", "5"];
const CONTRACTS = ["prise", "garde", "garde_sans", "garde_contre"];
let cache = null;  // {name, loaded: when, ready: the fetch, data, failed}

// The page is rebuilt whenever what it shows changes (the welcome, the language): a panel built again
// within 5 s uses the fetch already made, even one still under way.
export function statsPanel(name) {
  const box = h("section", {class: "panel", id: "stats"}, h("h3", {}, t("st_title")), h("p", {class: "note"}, "…"));
  if (!cache || cache.name !== name || performance.now() - cache.loaded > 5000) {
    cache = {name, loaded: performance.now(), data: null, failed: false};
    cache.ready = load(cache);
  }
  const mine = cache;
  if (mine.data || mine.failed) fillStats(box, mine);
  else mine.ready.then(() => fillStats(box, mine));
  return box;
}

async function load(c) {
  try {
    const r = await fetch(`/api/players/${encodeURIComponent(c.name)}/stats`);
    if (r.ok) c.data = await r.json(); else c.failed = true;
  } catch (e) { c.failed = true; }
}


const pct = (x) => Number(x).toLocaleString(lang(), {style: "percent", maximumFractionDigits: 0});
const signedNum = (x) => num(x, 1, "exceptZero");
const slash = (...xs) => xs.map((x) => num(x)).join(" / ");

function fillStats(box, c) {
  const title = box.firstChild;
  if (c.failed || !c.data) { box.replaceChildren(title, h("p", {class: "form-error"}, t("acc_err_generic"))); return; }
  const played = COUNTS.filter((n) => c.data.players[n].games > 0);
  if (!played.length) { box.replaceChildren(title, h("p", {id: "stats-empty"}, t("st_none"))); return; }
  box.replaceChildren(title, ...played.map((n) => countBlock(n, c.data.players[n])), h("p", {class: "note"}, t("st_note")));
}

function countBlock(n, st) {
  const row = (key, label, value) => h("tr", {"data-stat": key}, h("th", {scope: "row"}, label), h("td", {class: "num"}, value));
  const annulled = st.annulled ? ` (${fill(st.annulled > 1 ? "st_annulled_n" : "st_annulled_1", {n: num(st.annulled)})})` : "";
  const rows = [
    row("games", t("st_games"), num(st.games)),
    row("deals", t("st_deals"), num(st.deals) + annulled),
    row("taken", t("st_taken"), st.deals ? `${num(st.taken)} (${pct(st.taken / st.deals)})` : "–"),
    row("average", t("st_average"), st.average == null ? "–" : signedNum(st.average)),
    ...CONTRACTS.map((k) => {
      const ct = st.contracts[k];
      return row(k, fill("st_contract", {c: t(k)}), ct.taken ? `${slash(ct.made, ct.taken)} (${pct(ct.rate)})` : "–");
    }),
    row("petits_au_bout", t("st_pab"), slash(st.petits_au_bout.made, st.petits_au_bout.lost)),
    row("chelems", t("st_chelems"), slash(st.chelems.announced, st.chelems.made)),
    row("poignees", t("st_poignees"), slash(st.poignees.simple, st.poignees.double, st.poignees.triple)),
  ];
  return h("div", {class: "stats-count", "data-players": n},
    h("h4", {}, fill("acc_nplayers", {n})),
    h("div", {class: "stats-body"},
      h("table", {class: "tables stats-table"}, h("tbody", {}, rows)),
      st.ratings.length ? ratingChart(n, st.ratings) : h("p", {class: "note stats-unrated"}, t("st_unrated"))));
}

// --- the chart -------------------------------------------------------------------------------------

const W = 360, H = 190, LEFT = 44, RIGHT = 14, TOP = 14, BOTTOM = 34;  // the viewBox and its margins

// Round values for the y axis between lo and hi, 2 to 4 of them: steps of 1, 2 or 5 × a power of ten.
function ticks(lo, hi) {
  const raw = (hi - lo) / 3, mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((st) => st >= raw);
  const values = [];
  for (let k = Math.ceil(lo / step); k * step <= hi; k++) values.push(k * step || 0);  // (no −0)
  return {step, values};
}

// The ordinal after each counted game, in order, one point a game; the y axis over the lowest to the
// highest (round values on light lines), the x axis by game (the first and last dates written).
function ratingChart(n, points) {
  const ys = points.map((p) => p.ordinal);
  let lo = Math.min(...ys), hi = Math.max(...ys);
  if (hi - lo < 1) { const mid = (hi + lo) / 2; lo = mid - 0.5; hi = mid + 0.5; }
  const pad = (hi - lo) * 0.1; lo -= pad; hi += pad;
  const plotW = W - LEFT - RIGHT, plotH = H - TOP - BOTTOM;
  const x = (i) => LEFT + (points.length === 1 ? plotW / 2 : (i * plotW) / (points.length - 1));
  const y = (v) => TOP + ((hi - v) * plotH) / (hi - lo);
  const date = (p) => new Date(p.date).toLocaleDateString(lang(), {day: "numeric", month: "short"});
  const {step, values} = ticks(lo, hi), digits = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  const grid = values.flatMap((v) => [
    s("line", {x1: LEFT, x2: W - RIGHT, y1: y(v), y2: y(v), class: "grid"}),
    s("text", {x: LEFT - 6, y: y(v) + 4, "text-anchor": "end", class: "axis"}, num(v, digits))]);
  const path = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.ordinal).toFixed(1)}`).join(" ");
  const first = points[0], last = points[points.length - 1];
  const label = fill("st_chart_label", {n, count: points.length});
  return h("figure", {class: "stats-chart"},
    s("svg", {viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label, "data-points": points.length},
      grid,
      s("line", {x1: LEFT, x2: W - RIGHT, y1: H - BOTTOM, y2: H - BOTTOM, class: "base"}),
      points.length > 1 ? s("path", {d: path, class: "line"}) : null,
      points.map((p, i) => s("circle", {cx: x(i), cy: y(p.ordinal), r: points.length > 40 ? 2 : 3.5, class: "pt",
        "data-game": p.game}, s("title", {}, `${date(p)} · ${t("acc_ordinal")} ${num(p.ordinal, 2)}`))),
      s("text", {x: points.length === 1 ? x(0) : LEFT, y: H - BOTTOM + 18, class: "axis",
        "text-anchor": points.length === 1 ? "middle" : "start"}, date(first)),
      points.length > 1 && date(last) !== date(first)  // (one day: written once)
        ? s("text", {x: W - RIGHT, y: H - BOTTOM + 18, "text-anchor": "end", class: "axis"}, date(last)) : null),
    h("figcaption", {class: "note"}, fill("st_chart", {count: num(points.length)})));
}
