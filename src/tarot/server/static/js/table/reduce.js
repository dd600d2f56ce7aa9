// The table's state in the page: what its snapshots and events make of it, and what the player
// does with the cards before sending (a selection, the poignée chosen, the last trick shown).
// Pure: ``(S, message) -> changes`` (core/store.js writes them).
import {setWith} from "../core/store.js";

// The table's state after a snapshot (whole) or an event (the keys that changed); nothing when
// the message is for another table, or an event comes before the snapshot or after a gap (the
// page asks for what it missed, table/index.js).
function tableMessage(S, m) {
  if (m.table !== S.table) return null;
  if (m.type === "event" && (!S.state || (S.version != null && m.version > S.version + 1))) return null;
  const state = m.type === "snapshot" ? m.state : {...S.state, ...m.state};
  const changes = {state, version: m.version, timeLeft: m.state.time_left, timerAt: performance.now()};
  // the trick on the felt between two tricks is gathered when the next one starts
  const before = S.state && S.state.view, after = state.view;
  if (m.type === "event" && before && after && !before.trick.length && before.tricks.length && after.trick.length)
    changes.gather = before.tricks[before.tricks.length - 1].winner;
  if (m.type === "event") Object.assign(changes, eventChanges(m.event, state));
  changes.wasMyTurn = !!after && after.turn != null && after.turn === state.you;
  return changes;
}

function eventChanges(ev, state) {
  if (ev.kind === "action") return {selected: new Set(), poignee: null, lastPlayed: ev.action.play ?? null};
  if (ev.kind === "deal_end") return {resultShown: ev.deal + ":" + (state.game ? state.game.number : 0)};
  if (ev.kind === "deal_start") return {showLastAt: null};
  return null;
}

export const server = {
  snapshot: tableMessage,
  event: tableMessage,
  invite: (S, m) => (m.table === S.table ? {invite: m.code} : null),
  hint: (S, m) => (m.table === S.table ? {hint: {version: m.version, advice: m.advice}} : null),
};

export const local = {
  // another page: ``table`` the one watched now (null: none), ``invite`` its link's code
  route: (S, m) => ({table: m.table, state: null, version: null, selected: new Set(),
    invite: m.table === S.table ? S.invite : null}),
  toggle: (S, m) => ({selected: setWith(S.selected, m.card, !S.selected.has(m.card))}),
  select: (S, m) => ({selected: new Set(m.cards)}),  // (an écart chosen before a reload)
  poignee_start: (S, m) => ({selected: new Set(m.cards), poignee: m.count}),
  poignee_end: () => ({selected: new Set(), poignee: null}),
  show_last: (S) => ({showLastAt: S.showLastAt === S.state.view.tricks_done ? null : S.state.view.tricks_done}),
  close_result: () => ({resultShown: null}),
  sent: (S) => ({sentAt: S.version}),  // one action per position: a second click sends nothing
  arm: (S, m) => ({armed: {card: m.card, version: S.version, at: m.at}}),  // a card lifted, played at a second tap (⚙)
  hint_asked: (S) => ({hintAsked: S.version}),
  gathered: () => ({gather: null}),
  // an opened <details> (the fairness panels) stays open across redraws
  details: (S, m) => ({open: setWith(S.open, m.id, m.open)}),
};
