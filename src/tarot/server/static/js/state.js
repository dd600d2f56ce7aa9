import {h} from "./dom.js";
import {t, texts} from "./i18n.js";

// What the page knows: the connection, the player, the lobby, the table's last state, and what
// the player is doing on this page (selected cards, panels opened).
export const LOBBY_PAGE = 50;  // the server's page of the lobby (lobby.PAGE)

export const S = {
  ws: null, token: localStorage.getItem("tarot.token"), name: localStorage.getItem("tarot.name"),
  me: null, lobby: new Map(), lobbyTotal: 0, lobbyShown: LOBBY_PAGE, table: null, state: null, version: null,
  selected: new Set(), showLastAt: null, poignee: null, resultShown: null,
  hint: null, hintAsked: null,  // the expert's advice ({version, advice}) and the version it was asked at (views/hint.js)
  timerAt: 0, timeLeft: null, kept: new Map(), invite: null, retry: 0,
  sentAt: null, sound: localStorage.getItem("tarot.sound") === "on", wasMyTurn: false,
  lastPlayed: null,  // the card of the last play event (drawn coming in)
  gather: null,  // the seat that won the trick being gathered (its cards fly there once)
  open: new Set(),  // the ids of the <details> the player opened (kept across re-renders)
};

// A bot the host seats is named by the server "<Kind> <seat>", in English (table.py,
// ``_on_add_bot``): the page shows it short, in its own language ("Robot 2", "Robot+ 3" for a
// search bot), so that on a phone the number is not cut off.
const capital = (x) => x.charAt(0).toUpperCase() + x.slice(1);

// A guest (a person not signed in) is marked wherever its name shows: no guest may take an
// account's name, and the mark tells the guest who chose a like one from the account.
export const isGuest = (s) => !!s && !s.bot && !s.account && (s.taken ?? true);
export const guestMark = () => [" ", h("span", {class: "badge guest-mark", title: t("guest_hint")}, t("guest"))];  // (the space: read apart)

export function seatName(i, seats = S.state && S.state.table.seats) {
  const s = seats && seats[i];
  if (!s) return "?";
  if (s.bot && s.name === `${capital(s.bot)} ${i + 1}`) return `${texts()["botname_" + s.bot] ?? capital(s.bot)} ${i + 1}`;
  // a bot that took over from a player who left keeps the player's name, marked as a bot
  if (s.bot) return `${s.name} (${t("standin")})`;
  return s.name || "—";
}

// Seconds left of ``total`` counted from the last state received (the clocks tick between states).
export function secondsLeft(total) {
  return Math.max(0, Math.round(total - (performance.now() - S.timerAt) / 1000));
}
