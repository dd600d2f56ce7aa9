// The chat: the table's (seated players and spectators) and the lobby's. Messages are text,
// shown as text (never as markup), or quick phrases sent by code and said in this page's
// language. A sender's name offers "Mute"; the host may send a spectator away.
import {h} from "../core/dom.js";
import {colon, lang, t, texts} from "../core/i18n.js";
import {send} from "../core/net.js";
import {kept} from "../core/kept.js";
import {guestMark, isGuest} from "../core/names.js";
import {S} from "../core/store.js";
import {addFriendButton} from "./friends.js";

const PHRASES = ["hello", "well_played", "thanks", "good_game", "sorry", "bye"];

export const chatActions = {
  "chat-phrase": (el) => send({type: "chat", where: el.dataset.where, phrase: el.dataset.phrase}),
  "chat-mute": (el) => send({type: "mute", player: el.dataset.player, mute: el.dataset.mute === "1"}),
  "chat-remove": (el) => send({type: "remove_spectator", player: el.dataset.player}),
};

// What makes the chat's region change (main.js redraws a region when its key does).
export const chatKey = () => `${lang()}|${S.chat.version}`;

function lineView(line, where) {
  const me = S.me && line.from.id === S.me.id;
  const said = line.phrase ? (texts()["phrase_" + line.phrase] ?? line.phrase) : line.text;
  const who = h("b", {class: "from"}, line.from.name + (line.from.seat < 0 && where === "table" ? ` (${t("spectator_short")})` : ""),
    isGuest(line.from) ? guestMark() : null);
  const tools = [];
  if (!me) tools.push(h("button", {class: "link chat-mute", "data-action": "chat-mute", "data-player": line.from.id, "data-mute": "1",
    title: t("chat_mute")}, t("chat_mute")));
  const friend = addFriendButton(line.from.id);
  if (friend) tools.push(friend);
  const host = where === "table" && S.state && S.me && S.state.table.host === S.me.id;
  if (host && !me && line.from.seat < 0) tools.push(h("button", {class: "link chat-remove", "data-action": "chat-remove",
    "data-player": line.from.id}, t("chat_remove")));
  return h("li", {class: "chat-line" + (line.phrase ? " phrase" : "") + (line.audience === "spectators" ? " among" : "")},
    who, colon(), h("span", {class: "said"}, said), tools.length ? h("span", {class: "chat-tools"}, " ", ...tools) : null);
}

function chatForm(where) {
  const input = h("input", {class: "chat-input", id: `chat-input-${where}`, maxlength: 300, autocomplete: "off",
    placeholder: t("chat_placeholder"), "aria-label": t("chat")});
  return h("form", {class: "chat-form", id: `chat-form-${where}`, onsubmit: (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    send({type: "chat", where, text}); input.value = "";
  }}, input, " ", h("button", {class: "primary", id: `chat-send-${where}`}, t("chat_send")));
}

export function chatPanel(where) {
  const lines = S.chat[where].filter((line) => !S.muted.has(line.from.id));
  const list = h("ul", {class: "chat-lines", id: `chat-lines-${where}`, "aria-live": "polite"},
    lines.length ? lines.map((line) => lineView(line, where)) : h("li", {class: "hint"}, t("chat_empty")));
  const muted = [...S.muted].length
    ? h("p", {class: "hint"}, `${t("chat_muted")}${colon()}${S.muted.size} `,
      h("button", {class: "link", "data-action": "chat-mute", "data-player": [...S.muted][0], "data-mute": "0"}, t("chat_unmute")))
    : null;
  const panel = h("section", {class: "panel chat", id: `chat-${where}`}, h("h3", {}, t(where === "lobby" ? "chat_lobby" : "chat")),
    list, muted,
    h("div", {class: "phrases"}, PHRASES.map((ph) => h("button", {class: "phrase", "data-action": "chat-phrase", "data-where": where,
      "data-phrase": ph}, t("phrase_" + ph)))),
    kept(`chat:${where}`, () => chatForm(where)));
  // the newest message in sight (after the panel is in the page)
  requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; });
  return panel;
}
