// One tap to play (``play_now``, docs/protocol.md): a seat at a table with robots, dealt at once;
// and the player's games in progress (``my_tables``), each with its "Resume".
// The table's size and the robots' level are the ones the player chose last (kept in the
// browser), 4 players and club robots the first time. On the very first visit the button plays
// as a guest named for the page's language ("Joueur 4821"), a name the profile can change later.
import {h} from "../core/dom.js";
import {fill, plural, t} from "../core/i18n.js";
import {seatName} from "../core/names.js";
import {send} from "../core/net.js";
import {S} from "../core/store.js";
import {enter} from "./forms.js";

const KEY = "tarot.playNow";
const SIZES = [3, 4, 5];
const LEVELS = [["random", "level_beginner"], ["heuristic", "level_club"], ["search", "level_expert"]];

export function choice() {
  let kept = {};
  try { kept = JSON.parse(localStorage.getItem(KEY)) || {}; } catch (e) { kept = {}; }
  return {players: SIZES.includes(kept.players) ? kept.players : 4,
    bot: LEVELS.some(([bot]) => bot === kept.bot) ? kept.bot : "heuristic"};
}

function choose(field, value) {
  localStorage.setItem(KEY, JSON.stringify({...choice(), [field]: value}));
}

// The lobby's panel (and the first visit's, with ``first``): the button, the size, the level.
export function playNowPanel(first = false) {
  const c = choice();
  const size = h("select", {id: "pn-players", "aria-label": t("players"), onchange: (e) => choose("players", +e.target.value)},
    SIZES.map((n) => h("option", {value: n, selected: n === c.players}, fill("pn_players", {n}))));
  const level = h("select", {id: "pn-bot", "aria-label": t("pn_robots"), onchange: (e) => choose("bot", e.target.value)},
    LEVELS.map(([bot, label]) => h("option", {value: bot, selected: bot === c.bot}, fill("pn_level", {level: t(label)}))));
  return h("section", {class: "panel play-now", id: "play-now"},
    h("button", {class: "primary play-now-button", "data-action": first ? "play-now-guest" : "play-now"}, t("play_now")),
    h("div", {class: "pn-options"}, size, level),
    h("p", {class: "hint"}, t(first ? "play_now_first_hint" : "play_now_hint")));
}

export function playNow() {
  send({type: "play_now", ...choice()});
}

// A guest's name in the page's language, a number to tell guests apart; sent with the hello.
export function guestName() {
  return `${t("guest_name")} ${1000 + Math.floor(Math.random() * 9000)}`;
}

// The first visit's button: the hello as a guest, as the name form sends it (lobby/index.js
// plays once the lobby answers, after the welcome).
export function enterAsGuest() {
  enter(guestName());
}

// "Your games in progress": the tables where the player holds a seat, a game in play first.
export function myTablesPanel() {
  if (!S.myTables.length) return null;
  return h("section", {class: "panel my-tables", id: "my-tables"}, h("h2", {}, t("my_tables")),
    h("ul", {}, S.myTables.map((tb) => h("li", {"data-table": tb.id},
      h("span", {class: "mt-what"}, `${tableFacts(tb.options)} · ${t("status_" + tb.status)}`),
      h("span", {class: "mt-who"}, tb.seats.map((s, i) => seatName(i, tb.seats)).join(", ")),
      h("button", {class: "primary", "data-action": "resume", "data-table": tb.id}, t("resume"))))));
}

// A table's size and length as the lobby says them: "4 joueurs · 2 donnes".
export function tableFacts(options) {
  return `${fill("pn_players", {n: options.players})} · ${options.deals} `
    + t(plural(options.deals) ? "deals" : "deal").toLowerCase();
}
