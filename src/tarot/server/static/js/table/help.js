// The cheat sheet (the header's "?"), for this table's player count. Its figures are the
// engine's (GET /api/rules: card values, targets, multipliers, primes, R14's poignées), asked
// for the first time the sheet opens; only the words are the page's (static/i18n/).
import {h} from "../core/dom.js";
import {fill, lang, t, texts} from "../core/i18n.js";
import {S} from "../core/store.js";

let RULES = null;

// 4.5 in English, 4,5 in French
const num = (x) => x.toLocaleString(lang() === "fr" ? "fr-FR" : "en-GB");

// The sheet's nodes; null when its figures cannot be had now (the page says so).
export async function helpSheet() {
  if (!RULES) {
    const r = await fetch("/api/rules").catch(() => null);
    if (!r || !r.ok) return null;
    RULES = await r.json();
  }
  const H = texts().help, n = S.state ? S.state.table.seats.length : 4, R = RULES[n];
  const grid = (rows) => h("table", {class: "primes"}, h("tbody", {}, rows.map((r) => h("tr", {}, r.map((x) => h("td", {}, x))))));
  const v = R.card_values, [simple, double, triple] = R.poignees;
  const score = fill("help_score", {base: R.contract_base, pab: R.petit_au_bout, simple: simple.prime, double: double.prime,
    triple: triple.prime, announced: R.chelem.announced, unannounced: R.chelem.unannounced,
    failed: String(R.chelem.failed).replace("-", "\u2212")});
  return [h("h3", {}, H.title),
    h("h4", {}, H.values), grid(H.valuesRows.map(([label, kind]) => [label, num(v[kind])])),
    h("h4", {}, H.targets), grid(R.targets.map((target, oudlers) => [String(oudlers), String(target)])),
    h("h4", {}, H.contracts), grid(H.contractsRows.map(([label, contract]) => [label, `× ${R.multipliers[contract]}`])),
    h("p", {}, score),
    h("h4", {}, `${H.poignees} — ${n} ${t("players").toLowerCase()}`), grid(H.sizes.map((sz, i) => [sz, String(R.poignees[i].trumps)])),
    h("p", {}, H.play),
    h("form", {method: "dialog"}, h("button", {class: "primary", id: "cheat-close"}, H.close))];
}
