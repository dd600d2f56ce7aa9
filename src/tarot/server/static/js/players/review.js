// The expert's review of a replayed deal (issue 35; docs/review.md, its JSON): asked for with
// POST /api/games/<id>/deals/<n>/review, its progress polled, then per seat its mean loss and
// grades, a graph of the seat's expected score along its decisions (each dot coloured by its
// grade), the costliest moves (each a link to that moment of the replay) and, at the replay's
// step, the move played beside the expert's best.
import {cardName, cardShort} from "../cards/cards.js";
import {h, s as svg} from "../core/dom.js";
import {colon, decimal, fill, signed, t} from "../core/i18n.js";

let hooks = {render: () => {}};
const reviews = new Map();  // "gid/number" → {status, done, total, review, error, seat}
const POLL_MS = 1500;
const GRADES = ["inaccuracy", "mistake", "blunder"];

export function initReview(given) {
  hooks = given;
  return {"review-ask": ask, "review-seat": (el) => pick(el.dataset.key, +el.dataset.seat)};
}

const keyOf = (gid, number) => `${gid}/${number}`;

// For the replay page's key: redrawn when the review's state changes.
export function reviewKey(gid, number) {
  const r = reviews.get(keyOf(gid, number));
  return r ? [r.status, r.done, r.seat, r.error] : null;
}

// The review's state from the server (``options``: the POST that asks for it); while it waits or
// runs, asked again every POLL_MS as long as its game's replay is shown (``polling`` meanwhile:
// a panel drawn again does not ask a second time).
async function fetchState(key, options = {}) {
  const r = reviews.get(key);
  r.polling = true;
  try {
    const answer = await fetch(`/api/games/${key.replace("/", "/deals/")}/review`, options);
    const body = await answer.json();
    if (!answer.ok) { r.error = body.code === "signed_out" ? "rv_signin" : body.code === "review_quota" ? "rv_quota" : "acc_err_generic"; }
    else Object.assign(r, {status: body.status, done: body.done, total: body.total, review: body.review, error: null});
  } catch (e) { r.error = "acc_err_generic"; }
  r.polling = r.status === "queued" || r.status === "running";
  if (r.polling) {
    const shown = new RegExp(`^#/g/${key.split("/")[0]}(/|$)`);
    clearTimeout(r.timer);
    r.timer = setTimeout(() => { if (shown.test(location.hash)) fetchState(key); else r.polling = false; }, POLL_MS);
  }
  hooks.render();
}

function ask(el) {
  const key = el.dataset.key, r = reviews.get(key);
  if (!r) return;
  r.error = null;
  fetchState(key, {method: "POST"});
}

function pick(key, seat) {
  const r = reviews.get(key);
  if (r) { r.seat = seat; hooks.render(); }
}

// The panel for deal ``d`` of game ``gid`` at replay step ``step``; ``name(seat)`` names a seat.
export function reviewPanel(gid, d, step, name, stepHash) {
  const key = keyOf(gid, d.number);
  let r = reviews.get(key);
  if (!r) { r = {status: "loading", seat: null}; reviews.set(key, r); fetchState(key); }
  else if ((r.status === "queued" || r.status === "running") && !r.polling) fetchState(key);  // (back on the page)
  const body = [];
  if (r.status === "loading") body.push(h("p", {class: "note"}, "…"));
  else if (r.status === "none" || r.status === "failed") {
    body.push(h("p", {class: "note"}, t(r.status === "failed" ? "rv_failed" : "rv_what")),
      h("button", {type: "button", id: "review-ask", "data-action": "review-ask", "data-key": key}, t("rv_ask")));
  } else if (r.status === "queued" || r.status === "running") {
    body.push(h("p", {id: "review-progress", role: "status"}, r.total ? fill("rv_progress", {done: r.done, total: r.total}) : t("rv_queued")),
      h("progress", {max: r.total || 1, value: r.done || 0, "aria-label": t("rv_title")}));
  } else if (r.review) body.push(...done(r, key, gid, d, step, name, stepHash));
  if (r.error) body.push(h("p", {class: "form-error", role: "alert"}, t(r.error)));
  return h("section", {class: "panel", id: "rp-review"}, h("h3", {}, t("rv_title")), ...body);
}

function done(r, key, gid, d, step, name, stepHash) {
  const rv = r.review;
  const seats = rv.seats.filter((s) => s.decisions);
  if (r.seat == null) r.seat = worstSeat(rv);
  const table = h("table", {class: "rv-seats"},
    h("thead", {}, h("tr", {}, h("th", {}, t("rv_player")), h("th", {}, t("rv_mean_loss")),
      GRADES.map((g) => h("th", {title: t("rv_grade_" + g)}, t("rv_short_" + g))))),
    h("tbody", {}, seats.map((s) => h("tr", {class: s.seat === r.seat ? "current" : false},
      h("td", {}, h("button", {type: "button", class: "link", "data-action": "review-seat", "data-key": key, "data-seat": s.seat,
        "aria-pressed": s.seat === r.seat ? "true" : "false"}, name(s.seat))),
      h("td", {}, decimal(s.mean_loss)), GRADES.map((g) => h("td", {class: "g-" + g}, s.grades[g]))))));
  const mine = rv.decisions.map((x, i) => ({...x, at: i})).filter((x) => x.seat === r.seat);
  const here = rv.decisions.find((x) => x.index === step && x.phase !== "poignee") || rv.decisions.find((x) => x.index === step);
  const worst = mine.filter((x) => GRADES.includes(x.grade)).sort((a, b) => b.loss - a.loss).slice(0, 5);
  return [table,
    graph(mine, step, name(r.seat)),
    here ? h("p", {id: "rv-here", class: "rv-move g-" + here.grade}, moveLine(here, name)) : null,
    h("h4", {}, fill("rv_worst_of", {name: name(r.seat)})),
    worst.length ? h("ol", {id: "rv-worst", class: "rv-worst"}, worst.map((x) =>
      h("li", {class: "g-" + x.grade}, h("a", {href: stepHash(gid, d.number, x.index)}, moveLine(x, name)))))
      : h("p", {class: "note", id: "rv-clean"}, t("rv_clean")),
    par(rv, name)];
}

// The seat with the largest mean loss: the one a reader wants to see first.
function worstSeat(rv) {
  const seats = rv.seats.filter((s) => s.decisions);
  return seats.length ? seats.reduce((a, b) => (b.mean_loss > a.mean_loss ? b : a)).seat : 0;
}

function where(x) {
  return x.phase === "card" ? fill("rv_trick", {n: x.trick}) : t("rv_phase_" + x.phase);
}

// "Levée 4 : R♠ joué, T21 meilleur (−14 points, erreur)"
function moveLine(x, name) {
  const loss = x.loss > 0 ? ` (${signed(-x.loss)} ${t("points")}, ${t("rv_grade_" + x.grade)})` : ` (${t("rv_grade_" + x.grade)})`;
  return [h("b", {}, `${name(x.seat)}, ${where(x)}`), colon(), t("rv_played"), " ", action(x.played),
    ...(x.grade === "best" ? [] : [" · ", t("rv_best"), " ", action(x.best)]), loss];
}

// A move in a line of text: a card as its corner says it (a trump its number), coloured by suit.
const card = (c) => h("span", {class: "rv-card " + (c[0] === "T" || c === "EX" ? "trump" : "suit-" + c.slice(-1)),
  "data-card": c, title: cardName(c)}, c[0] === "T" ? `${t("rv_trump")} ${c.slice(1)}` : cardShort(c));

function action(a) {
  if (a == null) return t("rv_no_poignee");
  if ("play" in a) return card(a.play);
  if ("bid" in a) return t(a.bid);
  if ("call" in a) return card(a.call);
  if ("ecart" in a) return h("span", {}, a.ecart.flatMap((c, i) => (i ? [" ", card(c)] : [card(c)])));
  if ("chelem" in a) return t(a.chelem ? "rp_chelem" : "rp_nochelem");
  if ("poignee" in a) return fill("rv_poignee_of", {n: a.poignee.length});
  return "?";
}

// The seat's expected score (the expert's best) along its decisions, a dot for each, coloured by
// its grade; the replay's step marked. An SVG that scales with its panel.
function graph(mine, step, who) {
  const points = mine.filter((x) => !x.relative && x.grade !== "unrated");
  if (points.length < 2) return null;
  const W = 300, H = 110, pad = 6;
  const ys = points.map((x) => x.best_value);
  const lo = Math.min(0, ...ys), hi = Math.max(0, ...ys), span = hi - lo || 1;
  const X = (i) => pad + (i * (W - 2 * pad)) / (points.length - 1), Y = (v) => pad + ((hi - v) * (H - 2 * pad)) / span;
  const path = points.map((x, i) => `${i ? "L" : "M"}${X(i).toFixed(1)},${Y(x.best_value).toFixed(1)}`).join(" ");
  const at = points.findIndex((x) => x.index >= step);
  return svg("svg", {viewBox: `0 0 ${W} ${H}`, class: "rv-graph", id: "rv-graph", role: "img",
    "aria-label": fill("rv_graph", {name: who})},
  svg("line", {x1: 0, x2: W, y1: Y(0), y2: Y(0), class: "zero"}),
  at >= 0 ? svg("line", {x1: X(at), x2: X(at), y1: 0, y2: H, class: "now"}) : null,
  svg("path", {d: path, class: "curve"}),
  points.map((x, i) => svg("circle", {cx: X(i), cy: Y(x.best_value), r: GRADES.includes(x.grade) ? 4 : 2.5, class: "g-" + x.grade},
    svg("title", {}, `${where(x)}${colon()}${decimal(x.best_value)}`))));
}

function par(rv, name) {
  if (!rv.par) return null;
  const p = rv.par, mine = (c) => signed(p.by_contract[c][p.taker]);
  return h("p", {class: "note", id: "rv-par"}, fill("rv_par", {name: name(p.taker)}), colon(),
    Object.keys(p.by_contract).flatMap((c, i) => [i ? ", " : "", c === p.contract ? h("b", {}, `${t(c)} ${mine(c)}`) : `${t(c)} ${mine(c)}`]),
    "; ", fill("rv_scored", {score: signed(p.actual[p.taker])}));
}
