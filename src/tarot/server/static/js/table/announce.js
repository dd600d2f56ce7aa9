// What a screen reader hears at a table (issue 33): the page's live region (#announce, polite,
// visually hidden) says each event in a short sentence in the page's language: a bid, a card
// played, the trick's winner, that it is the player's turn, the deal's result. One message,
// replaced at each event (never a growing log); nothing on a snapshot (the table as it is when
// it opens: the page itself says it).
import {cardName} from "../cards/cards.js";
import {$} from "../core/dom.js";
import {colon, fill, signed, t} from "../core/i18n.js";
import {seatName} from "../core/names.js";
import {S} from "../core/store.js";

function say(text) {
  const el = $("#announce");
  if (el) el.textContent = text;
}

// The sentence for an action by its seat (the player's own moves are not said back, but for the
// trick they end).
function actionSaid(a, mine) {
  const name = seatName(a.seat);
  if (a.play != null) return mine ? "" : fill("say_plays", {name, card: cardName(a.play)});
  if (mine) return "";
  if (a.bid != null) return a.bid === "pass" ? fill("say_passes", {name}) : fill("say_bids", {name, bid: t(a.bid).toLowerCase()});
  if (a.call != null) return fill("say_calls", {name, card: cardName(a.call)});
  if (a.poignee != null) return fill("say_poignee", {name, count: a.poignee.length});
  return "";
}

// "Preneur : Alice. Garde réussie de 12 points. Alice : +150, Robot 2 : −50…"
function resultSaid(ev) {
  const row = ev.row || {};
  if ((ev.result && ev.result.annulled) || row.taker == null) return t("annulled");
  const scores = (row.scores || []).map((x, i) => `${seatName(i)}${colon()}${signed(x)}`).join(", ");
  return `${t("taker")}${colon()}${seatName(row.taker)}. ` +
    `${t(row.contract)} ${t(row.made ? "madeby" : "lostby")} ${row.margin} ${t("points")}. ${scores}`;
}

// ``m`` the event just applied, ``before`` what the store's keys held before it (core/store.js).
export function announce(m, before) {
  if (m.type !== "event") { say(""); return; }  // a snapshot: the table opened, or came back
  const ev = m.event, parts = [];
  if (ev.kind === "action") parts.push(actionSaid(ev.action, ev.action.seat === S.state.you));
  const was = before.state && before.state.view, v = S.state.view;
  if (was && v && v.tricks_done > was.tricks_done && v.tricks.length)
    parts.push(fill("say_trick", {name: seatName(v.tricks[v.tricks.length - 1].winner)}));
  if (ev.kind === "deal_end") parts.push(resultSaid(ev));
  if (S.wasMyTurn && !before.wasMyTurn) parts.push(t("say_yourturn"));
  const text = parts.filter(Boolean).join(". ");
  if (text) say(text);
}
