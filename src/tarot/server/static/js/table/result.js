// A deal's result (over the felt between deals, or reopened later) and the final ranking.
import {h} from "../core/dom.js";
import {colon, decimal, lang, minus, oudlersText, signed, t} from "../core/i18n.js";
import {seatName} from "../core/names.js";
import {S} from "../core/store.js";

export function resultView(r, extra = null) {
  // Every figure of the deal (R20–R24): who took, with whom, the count against the target, the
  // base and each prime (signed for the attack; they add up to what each defender pays), each score.
  const res = r.result, row = r.row;
  const box = h("section", {class: "panel result", id: "result"}, h("h3", {}, `${t("result")} — ${t("deal")} ${row.deal ?? "–"}`));
  if (res.annulled) box.append(h("p", {}, `${t("annulled")} (${t(res.annulled)})`));
  else {
    const who = [`${t("taker")}${colon()}${seatName(row.taker)}`, t(row.contract)];
    if (S.state.table.seats.length === 5)
      who.push(row.partner == null ? t("alone") : `${t("partner")}${colon()}${seatName(row.partner)}`);
    box.append(h("p", {class: "who"}, who.join(" · ")),
      h("p", {class: "count"}, `${decimal(row.points)} ${t("points")}, ${row.target} ${t("needed")} (${oudlersText(row.oudlers)}) · `,
        h("b", {}, `${t(row.made ? "madeby" : "lostby")} ${decimal(row.margin)}`)));
    const lines = [[t("base"), `(25 + ${decimal(row.margin)}) × ${row.multiplier}`, row.base, "base"]];
    if (row.petit_au_bout) lines.push([t("petit_au_bout"), t(row.petit_au_bout), row.petit_au_bout_prime, "petit"]);
    if (row.poignees.length) lines.push([t("poigneeprime"), row.poignees.map(t).join(", "), row.poignee_prime, "poignee"]);
    if (row.chelem_prime) lines.push([t("chelemprime"), [row.chelem ? t(row.chelem) : "", row.chelem_announced ? t("announced") : ""]
      .filter(Boolean).join(", "), row.chelem_prime, "chelem"]);
    lines.push([t("perdefender"), "", row.per_defender, "total"]);
    box.append(h("table", {class: "primes"}, h("tbody", {}, lines.map(([label, why, x, key]) =>
      h("tr", {class: key}, h("th", {}, label), h("td", {}, why), h("td", {class: "num"}, signed(x)))))));
    // each seat's name and score kept on one line ("Robot 3 :" never apart from its score)
    box.append(h("p", {class: "scores"}, ...S.state.table.seats.flatMap((s, i) => [i ? " · " : "",
      h("span", {class: "seat-score"}, `${seatName(i)}${colon()}${signed(row.scores[i])}`)])));
  }
  // the seed and salt that the deal's commitment promised: checkable, not in the way
  box.append(h("details", {class: "fairness", id: "result-fairness", open: S.open.has("result-fairness")},
    h("summary", {}, t("fairness")),
    h("p", {class: "mono"}, `${t("commitment")}${colon()}${r.commitment}`, h("br"), `${t("seed")}${colon()}${r.seed} · ${t("salt")}${colon()}${r.salt}`)));
  // over the felt, the next deal's button first: on a phone the figures below it may scroll
  if (extra) { box.classList.add("overlay"); box.children[0].after(extra); }
  else box.append(h("button", {"data-action": "close-result"}, t("close")));
  return box;
}

export function rankingView(ranking, outcome = null) {
  // a competitive game's: each seat's rating before → after, chips won or lost, XP
  const out = new Map((outcome || []).map((o) => [o.seat, o]));
  const line = (r) => {
    const o = out.get(r.seat);
    if (!o) return "";
    const parts = [];
    const one = (x) => minus(x.toLocaleString(lang(), {minimumFractionDigits: 1, maximumFractionDigits: 1}));
    if (o.ordinal_after != null) parts.push(`${t("rating")} ${one(o.ordinal_before)} → ${one(o.ordinal_after)}`);
    if (o.chips) parts.push(`${signed(o.chips)} ${t("chips")}`);
    if (o.xp) parts.push(`+${o.xp} XP`);
    if (o.left) parts.push(t("leftgame"));
    return parts.length ? ` (${parts.join(", ")})` : "";
  };
  return h("section", {class: "panel", id: "ranking"}, h("h3", {}, t("ranking")),
    // equal totals share a place (1, 1, 1, 4): the list shows the server's rank, not the position
    h("ol", {}, ranking.map((r, i) => h("li", {value: r.rank ?? i + 1, class: (r.rank ?? i + 1) === 1 ? "first" : null},
      `${seatName(r.seat)}${colon()}${minus(r.total)}` + line(r)))),
    outcome && !outcome.some((o) => o.ordinal_after != null) ? h("p", {class: "hint"}, t("nocountdone")) : null);
}
