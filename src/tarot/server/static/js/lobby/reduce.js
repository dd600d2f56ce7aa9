// The lobby's list of tables: the first page, then only what changed, and the pages asked for;
// the player's own games in progress.
// Pure: ``(S, message) -> changes`` (core/store.js writes them).
import {LOBBY_PAGE} from "../core/store.js";

export const server = {
  lobby: (S, m) => ({lobby: new Map(m.tables.map((tb) => [tb.id, tb])), lobbyTotal: m.total}),
  lobby_update: (S, m) => {
    const lobby = new Map(S.lobby);
    for (const tb of m.changed) lobby.set(tb.id, tb);
    for (const id of m.removed) lobby.delete(id);
    return {lobby, lobbyTotal: m.total};
  },
  my_tables: (S, m) => ({myTables: m.tables}),
  created: () => null,  // (the page goes to the table: lobby/index.js)
};

export const local = {
  // the next page of the lobby, fetched (its changes come by lobby_update once it is here)
  lobby_page: (S, m) => {
    const lobby = new Map(S.lobby);
    for (const tb of m.tables) lobby.set(tb.id, tb);
    return {lobby, lobbyShown: S.lobbyShown + LOBBY_PAGE};
  },
};
