// What the page knows: the connection, the player, the lobby, the table's last state, and what
// the player is doing on this page (selected cards, panels opened).
export const S = {
  ws: null, token: localStorage.getItem("tarot.token"), name: localStorage.getItem("tarot.name"),
  me: null, lobby: [], table: null, state: null, version: null,
  selected: new Set(), showLastAt: null, poignee: null, resultShown: null,
  timerAt: 0, timeLeft: null, kept: new Map(), invite: null, online: false, retry: 0,
  sentAt: null, sound: localStorage.getItem("tarot.sound") === "on", wasMyTurn: false,
  lastPlayed: null,  // the card of the last play event (drawn coming in)
  open: new Set(),  // the ids of the <details> the player opened (kept across re-renders)
};

export function seatName(i) {
  const s = S.state && S.state.table.seats[i];
  return s ? (s.name || "—") : "?";
}

export function seatsLeft(nd) {
  // the seated people present who have not asked for the next deal yet
  const seats = S.state.table.seats;
  return seats.map((s, i) => i).filter((i) => seats[i].taken && !seats[i].bot && !seats[i].away && !nd.ready.includes(i));
}
