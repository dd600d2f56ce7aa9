// A player's accuracy on its profile (issue 35), from GET /api/players/<name>/accuracy: the mean
// loss per decision by phase over the deals the expert has reviewed (the bidding, the écart, the
// play), and its trend (each reviewed deal's mean loss, the latest last), drawn as a small SVG.
// Empty (no panel) until one of its deals has been reviewed.
import {h, s} from "../core/dom.js";
import {decimal, fill, plural, t} from "../core/i18n.js";

const PHASES = ["bidding", "ecart", "play"];

export function accuracyPanel(name) {
  const box = h("section", {class: "panel", id: "accuracy", hidden: true});
  load(name).then((data) => { if (data && data.deals) fillAccuracy(box, data); });
  return box;
}

async function load(name) {
  try {
    const r = await fetch(`/api/players/${encodeURIComponent(name)}/accuracy`);
    return r.ok ? await r.json() : null;
  } catch (e) { return null; }
}

function fillAccuracy(box, a) {
  const row = (phase) => {
    const p = a.phases[phase];
    return h("tr", {"data-phase": phase}, h("th", {scope: "row"}, t("ac_" + phase)),
      h("td", {class: "num"}, p.decisions), h("td", {class: "num"}, p.mean_loss == null ? "–" : decimal(p.mean_loss)));
  };
  const summary = plural(a.deals) ? "ac_summary" : "ac_summary_1";
  box.replaceChildren(...[h("h3", {}, t("ac_title")),
    h("p", {}, fill(summary, {loss: decimal(a.mean_loss), n: a.decisions, deals: a.deals})),
    h("table", {class: "tables stats-table"},
      h("thead", {}, h("tr", {}, h("th", {}, t("ac_phase")), h("th", {}, t("ac_decisions")), h("th", {}, t("ac_loss")))),
      h("tbody", {}, PHASES.map(row))),
    a.trend.length > 1 ? trend(a.trend) : null,
    h("p", {class: "note"}, t("ac_note"))].filter(Boolean));
  box.hidden = false;
}

// Each reviewed deal's mean loss, oldest first: lower is better.
function trend(points) {
  const W = 300, H = 70, pad = 6, hi = Math.max(...points.map((p) => p.mean_loss), 1);
  const X = (i) => pad + (i * (W - 2 * pad)) / (points.length - 1), Y = (v) => pad + ((hi - v) * (H - 2 * pad)) / hi;
  const path = points.map((p, i) => `${i ? "L" : "M"}${X(i).toFixed(1)},${Y(p.mean_loss).toFixed(1)}`).join(" ");
  return s("svg", {viewBox: `0 0 ${W} ${H}`, class: "rv-graph", id: "ac-trend", role: "img",
    "aria-label": fill("ac_trend", {n: points.length})},
  s("path", {d: path, class: "curve"}),
  points.map((p, i) => s("circle", {cx: X(i), cy: Y(p.mean_loss), r: 2.5}, s("title", {}, decimal(p.mean_loss)))));
}
