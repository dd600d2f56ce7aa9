// The hint button (issue 19): at a practice table, on one's turn, what the expert would do and
// why in one line (docs/protocol.md, "hint"). The advice is for one position: a move makes it old.
import {cardName} from "../cards/cards.js";
import {h} from "../core/dom.js";
import {fill, signed, t} from "../core/i18n.js";
import {S} from "../core/store.js";

export const hintKey = () => (S.hint ? S.hint.version : "") + "|" + (S.hintAsked ?? "");

// The advice for the position on the felt, if any.
const current = () => (S.hint && S.hint.version === S.version ? S.hint.advice : null);

// The cards the expert would play or put aside, marked in the hand.
export function hintedCards() {
  const a = current();
  if (!a) return new Set();
  return new Set(a.action.play ? [a.action.play] : a.action.ecart || []);
}

function actionText(a) {
  if ("play" in a) return cardName(a.play);
  if ("bid" in a) return t(a.bid);
  if ("call" in a) return `${t("call")} ${cardName(a.call)}`;
  if ("ecart" in a) return `${t("ecart")}${t("hint_colon")}${a.ecart.map(cardName).join(", ")}`;
  if ("chelem" in a) return t(a.chelem ? "chelem" : "nochelem");
  if ("poignee" in a) return `${t("poignee")} (${a.poignee.length})`;
  return "?";
}

const points = (x) => signed(Math.round(x));
// (a second écart, six more card names, would make the line a paragraph)
const NO_NEXT = new Set(["rules", "ecart"]);

// The button (practice tables only, on one's turn) and, once it has come, the advice.
export function hintView(v) {
  const tb = S.state.table;
  if (v.turn !== v.seat || tb.options.competitive || tb.challenge || tb.event) return null;
  const advice = current();
  const asked = S.hintAsked === S.version;
  const box = h("div", {id: "hint-box"},
    h("button", {id: "hint", "data-action": "hint", disabled: asked || !!advice, title: t("hint_title")}, t("hint")));
  if (advice) {
    const args = {move: actionText(advice.action), n: advice.worlds, mean: advice.mean == null ? "" : points(advice.mean),
      next: advice.next ? actionText(advice.next) : "", next_mean: advice.next_mean == null ? "" : points(advice.next_mean)};
    // the card, and the poignée one may show is better kept hidden: said after the card's line
    const hide = advice.why === "search_hide_poignee";
    box.append(h("p", {id: "hint-text", "data-why": advice.why},
      fill("hint_" + (hide ? "search" : advice.why), args), advice.next && !NO_NEXT.has(advice.why) ? fill("hint_next", args) : "",
      hide ? " " + t("hint_hide_poignee") : ""));
  } else if (asked) box.append(h("p", {id: "hint-text", class: "note"}, t("hint_thinking")));
  return box;
}
