// How a seat's occupant is named on the page.
import {h} from "./dom.js";
import {t, texts} from "./i18n.js";
import {S} from "./store.js";

// A bot the host seats is named by the server "<Kind> <seat>", in English (table/seating.py):
// the page shows it short, in its own language ("Robot 2", "Robot+ 3" for a search bot), so
// that on a phone the number is not cut off.
export const capital = (x) => x.charAt(0).toUpperCase() + x.slice(1);
// A robot's player as the ranking and its profile name it: for its kind ("Heuristic"), the name the
// table gives it, in the page's language ("Robot", "Expert"); any other name as it is.
export const robotName = (name) => texts()["botname_" + name.toLowerCase()] ?? name;

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
