// The score sheet (R25).
import {h} from "../core/dom.js";
import {decimal, minus, oudlersText, signed, t} from "../core/i18n.js";
import {seatName} from "../core/names.js";
import {S} from "../core/store.js";

export function sheetView(game) {
  // Per deal the taker (and partner), contract, oudlers, points against the target, the result,
  // and each player's score under the running total. Scrolls sideways on a phone.
  const seats = S.state.table.seats;
  const contractCell = (r) => {
    if (r.annulled) return t("annulled");
    const who = seatName(r.taker) + (r.partner != null ? ` + ${seatName(r.partner)}` : "");
    return [`${who} · ${t(r.contract)} ${r.made ? "✓" : "✗"}`, h("br"),
      h("small", {}, `${oudlersText(r.oudlers)} · ${decimal(r.points)}/${r.target}`)];
  };
  return h("section", {class: "panel", id: "sheet"}, h("h3", {}, t("sheet")),
    h("div", {class: "sheet-wrap"}, h("table", {class: "sheet"},
      h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("contract")), seats.map((s, i) => h("th", {}, seatName(i))))),
      h("tbody", {}, game.sheet.map((r) => h("tr", {}, h("td", {}, r.deal ?? "–"), h("td", {class: "what"}, contractCell(r)),
        r.totals.map((x, i) => h("td", {}, h("b", {}, minus(x)), h("br"), h("small", {}, signed(r.scores[i]))))))))));
}
