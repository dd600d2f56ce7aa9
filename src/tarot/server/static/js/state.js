// What the page knows: the connection, the player, the lobby, the table's last state, and what
// the player is doing on this page (selected cards, panels opened).
export const S = {
  ws: null, token: localStorage.getItem("tarot.token"), name: localStorage.getItem("tarot.name"),
  me: null, lobby: [], table: null, state: null, version: null,
  selected: new Set(), showLastAt: null, poignee: null, resultShown: null,
  timerAt: 0, timeLeft: null, kept: new Map(), invite: null, retry: 0,
  sentAt: null, sound: localStorage.getItem("tarot.sound") === "on", wasMyTurn: false,
  lastPlayed: null,  // the card of the last play event (drawn coming in)
  open: new Set(),  // the ids of the <details> the player opened (kept across re-renders)
};

export function seatName(i) {
  const s = S.state && S.state.table.seats[i];
  return s ? (s.name || "—") : "?";
}

// Seconds left of ``total`` counted from the last state received (the clocks tick between states).
export function secondsLeft(total) {
  return Math.max(0, Math.round(total - (performance.now() - S.timerAt) / 1000));
}
