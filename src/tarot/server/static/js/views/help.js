// The cheat sheet (the header's "?"), for this table's player count (R14's poignées).
import {h} from "../dom.js";
import {t, texts} from "../i18n.js";
import {S} from "../state.js";

const POIGNEES = {3: [13, 15, 18], 4: [10, 13, 15], 5: [8, 10, 13]};

export function helpSheet() {
  const H = texts().help, n = S.state ? S.state.table.seats.length : 4;
  const grid = (rows) => h("table", {class: "primes"}, h("tbody", {}, rows.map((r) => h("tr", {}, r.map((x) => h("td", {}, x))))));
  return [h("h3", {}, H.title),
    h("h4", {}, H.values), grid(H.valuesRows), h("h4", {}, H.targets), grid(H.targetsRows),
    h("h4", {}, H.contracts), grid(H.contractsRows), h("p", {}, H.score),
    h("h4", {}, `${H.poignees} — ${n} ${t("players").toLowerCase()}`), grid(H.sizes.map((sz, i) => [sz, String(POIGNEES[n][i])])),
    h("p", {}, H.play),
    h("form", {method: "dialog"}, h("button", {class: "primary", id: "cheat-close"}, H.close))];
}
