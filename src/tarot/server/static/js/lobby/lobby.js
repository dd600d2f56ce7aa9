// The lobby: play-now, the daily challenge's and the events' panels and the create form on top, then the open tables with their options.
import {h} from "../core/dom.js";
import {fill, t} from "../core/i18n.js";
import {kept} from "../core/kept.js";
import {isGuest, seatName} from "../core/names.js";
import {S} from "../core/store.js";
import {chatPanel} from "../community/chat.js";
import {friendsPanel, invitationsPanel} from "../community/friends.js";
import {challengePanel} from "../competitions/challenge.js";
import {eventsPanel} from "../competitions/events.js";
import {sheetPanel} from "../scoresheet/index.js";
import {optionsForm} from "./forms.js";
import {myTablesPanel, playNowPanel, tableFacts} from "./playnow.js";

export function lobbyView() {
  const tables = [...S.lobby.values()].sort((a, b) => (a.status !== "waiting") - (b.status !== "waiting"));
  // (waiting ones first: they have seats) at most ``lobbyShown``; a button shows more
  const more = Math.max(0, S.lobbyTotal - Math.min(S.lobbyShown, tables.length));
  const rows = tables.slice(0, S.lobbyShown).map((tb) => h("tr", {},
    h("td", {class: "facts"}, tableFacts(tb.options) +
      (tb.options.move_time ? ` · ${tb.options.move_time}s` : "") + (tb.options.spectators ? "" : ` · ${t("nospectators")}`) +
      (tb.options.competitive ? ` · ${t("competitive_short")}` + (tb.options.stake ? ` · ${tb.options.stake} ${t("chips")}` : "") : "")),
    h("td", {class: "who"}, tb.seats.map((s, i) => (s.host ? "★ " : "") + seatName(i, tb.seats)
      + (isGuest(s) ? ` (${t("guest")})` : "")).join(", ")),
    h("td", {}, t("status_" + tb.status)),
    h("td", {}, h("a", {href: "#/t/" + tb.id}, h("button", {}, t("join"))))));
  return h("div", {}, myTablesPanel(), kept("playnow", () => playNowPanel()), invitationsPanel(), challengePanel(), eventsPanel(),
    h("section", {class: "panel"}, h("h2", {}, t("create")),
      kept("create", () => optionsForm({players: 4, deals: 4, move_time: null, private: false, spectators: true},
        t("create"), "create_table"))),
    h("section", {class: "panel"}, h("h2", {}, t("lobby")),
      rows.length ? h("table", {class: "tables"}, h("tbody", {}, rows)) : h("p", {}, t("none")),
      more ? h("p", {class: "more"}, h("button", {"data-action": "lobby-more"}, fill("lobby_more", {n: more}))) : null),
    friendsPanel("lobby"), chatPanel("lobby"), sheetPanel());
}
