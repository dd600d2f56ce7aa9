// Friends and invitations: one's friends (online or not, at which public table), adding one
// by name or from the chat, inviting one to the table one sits at; the invitations received,
// shown in the lobby with a button to go to that table.
import {h, toast} from "../core/dom.js";
import {fill, lang, t} from "../core/i18n.js";
import {send} from "../core/net.js";
import {kept} from "../core/kept.js";
import {S, change} from "../core/store.js";

// What a message does besides the state (community/reduce.js).
export const friendsEffects = {
  invitation(m) { toast(fill("invited_by", {name: m.from.name})); },
};

export const friendsActions = {
  "friend-add": (el) => send({type: "add_friend", player: el.dataset.player}),
  "friend-remove": (el) => send({type: "remove_friend", player: el.dataset.player}),
  "friend-invite": (el) => { send({type: "invite_friend", player: el.dataset.player}); toast(fill("invite_sent", {name: el.dataset.name})); },
  "invitation-go": (el) => {
    const inv = S.invitations.find((i) => i.table === el.dataset.table);
    change("invitation_done", {table: inv.table});
    location.hash = `#/t/${inv.table}` + (inv.code ? `/${inv.code}` : "");
  },
  "invitation-dismiss": (el) => change("invitation_done", {table: el.dataset.table}),
};

export const friendsKey = () => `${lang()}|${S.friendsVersion}`;

function addForm() {
  const input = h("input", {id: "friend-name", maxlength: 24, autocomplete: "off", placeholder: t("friend_name"), "aria-label": t("friend_name")});
  return h("form", {class: "friend-form", id: "friend-form", onsubmit: (e) => {
    e.preventDefault();
    const name = input.value.trim();
    if (name) { send({type: "add_friend", name}); input.value = ""; }
  }}, input, " ", h("button", {id: "friend-add-submit"}, t("friend_add")));
}

// ``at``: "lobby" (join their tables, the invitations) or "table" (invite them here).
export function friendsPanel(at) {
  const here = at === "table" && S.state && (S.state.you >= 0 || (S.me && S.state.table.host === S.me.id));
  const list = [...S.friends.values()].sort((a, b) => (b.online - a.online) || a.name.localeCompare(b.name));
  const rows = list.map((f) => h("li", {class: "friend" + (f.online ? " online" : ""), "data-friend": f.id},
    h("span", {class: "dot", title: t(f.online ? "online" : "friend_offline")}, f.online ? "●" : "○"), " ", h("b", {}, f.name), " ",
    h("span", {class: "where"}, f.online ? (f.table ? t("at_table") : t("online")) : t("friend_offline")), " ",
    at === "lobby" && f.table ? h("a", {href: "#/t/" + f.table, class: "join-friend"}, h("button", {}, t("join"))) : null,
    here && f.online && !(S.state.table.seats.some((s) => s.name === f.name))
      ? h("button", {class: "invite-friend", "data-action": "friend-invite", "data-player": f.id, "data-name": f.name}, t("invite_friend")) : null,
    at === "lobby" ? h("button", {class: "link", "data-action": "friend-remove", "data-player": f.id, title: t("friend_remove")}, "✕") : null));
  return h("section", {class: "panel friends", id: `friends-${at}`}, h("h3", {}, t("friends")),
    rows.length ? h("ul", {class: "friend-list"}, rows) : h("p", {class: "hint"}, t("no_friends")),
    at === "lobby" ? kept("friend-form", addForm) : null);
}

// In a chat line: add its sender to one's friends (unless already one, or oneself).
export function addFriendButton(player) {
  if (!S.me || player === S.me.id || S.friends.has(player)) return null;
  return h("button", {class: "link chat-friend", "data-action": "friend-add", "data-player": player}, t("friend_add"));
}

// The invitations received, on top of the lobby (on a phone the rest is further down).
export function invitationsPanel() {
  if (!S.invitations.length) return null;
  return h("section", {class: "panel friends", id: "invitations"}, S.invitations.map((i) =>
    h("p", {class: "invitation"}, fill("invited_by", {name: i.from.name}), " ",
      h("button", {class: "primary", "data-action": "invitation-go", "data-table": i.table}, t("join")), " ",
      h("button", {class: "link", "data-action": "invitation-dismiss", "data-table": i.table}, t("dismiss")))));
}
