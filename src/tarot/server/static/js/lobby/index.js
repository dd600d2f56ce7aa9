// The lobby area: what its messages do besides the state (lobby/reduce.js) and its clicks.
import {LOBBY_PAGE, S, change} from "../core/store.js";

let render = () => {};

function lobbyChanged() {
  window.tarotLobbyUpdates = (window.tarotLobbyUpdates || 0) + 1;  // tests wait on it
  if (!S.table) render();
}

export const effects = {
  lobby: lobbyChanged,
  lobby_update: lobbyChanged,
  created(m) { location.hash = "#/t/" + m.table; },
};

export function init(hooks) {
  render = hooks.render;
  return {
    "lobby-more": async () => {  // the next page of the lobby
      const r = await fetch(`/api/tables?offset=${S.lobbyShown}&limit=${LOBBY_PAGE}`);
      change("lobby_page", {tables: r.ok ? (await r.json()).tables : []});
      render();
    },
  };
}
