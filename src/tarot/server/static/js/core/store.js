// What the page knows, and the one place that changes it: messages in, state out. ``receive``
// takes a server message, ``change`` one of the player's own (a card selected, a panel opened);
// each is handed to its area's reducer (``reducers.js``: pure functions ``(S, message) ->
// changes``, each area's ``reduce.js``), and only here are the changes written. Every other
// module reads ``S`` (a test fails at any write to it elsewhere, tests/test_client_store.py).
export const LOBBY_PAGE = 50;  // the server's page of the lobby (lobby.PAGE)

const stored = (key) => (globalThis.localStorage ? localStorage.getItem(key) : null);  // (none in the tests' node)

export const S = {
  token: stored("tarot.token"), name: stored("tarot.name"), sound: stored("tarot.sound") === "on",
  me: null, lobby: new Map(), lobbyTotal: 0, lobbyShown: LOBBY_PAGE, myTables: [], table: null, state: null, version: null,
  selected: new Set(), showLastAt: null, poignee: null, resultShown: null, invite: null, armed: null,
  hint: null, hintAsked: null,  // the expert's advice ({version, advice}) and the version it was asked at (table/hint.js)
  timerAt: 0, timeLeft: null, sentAt: null, wasMyTurn: false,
  lastPlayed: null,  // the card of the last play event (drawn coming in)
  gather: null,  // the seat that won the trick being gathered (its cards fly there once)
  open: new Set(),  // the ids of the <details> the player opened (kept across re-renders)
  chat: {table: [], lobby: [], version: 0}, muted: new Set(),  // community/reduce.js
  friends: new Map(), invitations: [], friendsVersion: 0,  // id → {id, name, online, table}; the latest first
  challenge: null,  // the last ``challenge`` message: the day as this player sees it
};

let reducers = {server: {}, local: {}};

// For the reducers, which never change what S holds: a copy of the set ``items`` with ``item``
// in it or not.
export function setWith(items, item, present) {
  const copy = new Set(items);
  if (present) copy.add(item); else copy.delete(item);
  return copy;
}

// main.js (and the tests) give the areas' reducers once.
export function use(given) { reducers = given; }

// Writes what ``reduce`` gives for ``message``; returns the values the changed keys had before.
function apply(reduce, message) {
  const changes = reduce ? reduce(S, message) : null;
  const before = {};
  if (!changes) return before;
  for (const k of Object.keys(changes)) before[k] = S[k];
  Object.assign(S, changes);
  return before;
}

// A server message (its ``type`` one of protocol.ServerMessage's).
export function receive(message) {
  const reduce = reducers.server[message.type];
  if (!reduce) console.warn("a server message this page does not know:", message.type);
  return apply(reduce, message);
}

// One of the page's own: ``change("toggle", {card})``.
export function change(type, fields = {}) {
  const reduce = reducers.local[type];
  if (!reduce) throw new Error("no such change: " + type);
  return apply(reduce, {type, ...fields});
}
