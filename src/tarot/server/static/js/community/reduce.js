// The chat's rooms (the table's and the lobby's), the players muted, one's friends and the
// invitations received. Pure: ``(S, message) -> changes`` (core/store.js writes them).
import {setWith} from "../core/store.js";

const SHOWN = 100;  // messages kept on the page per room

const room = (where) => (where === "lobby" ? "lobby" : "table");

export const server = {
  chat: (S, m) => {
    const line = m.message, where = room(line.where);
    if (where === "table" && line.table !== S.table) return null;
    return {chat: {...S.chat, [where]: [...S.chat[where], line].slice(-SHOWN), version: S.chat.version + 1}};
  },
  chat_log: (S, m) => {
    if (m.where === "table" && m.table !== S.table) return null;
    return {chat: {...S.chat, [room(m.where)]: m.messages.slice(-SHOWN), version: S.chat.version + 1}};
  },
  muted: (S, m) => ({muted: setWith(S.muted, m.player, m.mute), chat: {...S.chat, version: S.chat.version + 1}}),
  friends: (S, m) => ({friends: new Map(m.friends.map((f) => [f.id, f])), friendsVersion: S.friendsVersion + 1}),
  friend_update: (S, m) => {
    const friends = new Map(S.friends);
    if (m.removed) friends.delete(m.friend.id); else friends.set(m.friend.id, m.friend);
    return {friends, friendsVersion: S.friendsVersion + 1};
  },
  invitation: (S, m) => ({invitations: [m, ...S.invitations.filter((i) => i.table !== m.table)].slice(0, 5),
    friendsVersion: S.friendsVersion + 1}),
};

export const local = {
  // an invitation taken or put away
  invitation_done: (S, m) => ({invitations: S.invitations.filter((i) => i.table !== m.table),
    friendsVersion: S.friendsVersion + 1}),
};
