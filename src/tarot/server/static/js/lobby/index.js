// The lobby area: what its messages do besides the state (lobby/reduce.js) and its clicks.
import {LOBBY_PAGE, S, change} from "../core/store.js";
import {enterAsGuest, playNow} from "./playnow.js";

let render = () => {};
let playing = false;  // the first visit's play-now: played once the lobby answers (after the welcome)

function lobbyChanged() {
  window.tarotLobbyUpdates = (window.tarotLobbyUpdates || 0) + 1;  // tests wait on it
  if (!S.table) render();
}

export const effects = {
  lobby() {
    if (playing) { playing = false; playNow(); }
    lobbyChanged();
  },
  lobby_update: lobbyChanged,
  created(m) { location.hash = "#/t/" + m.table; },
};

export function init(hooks) {
  render = hooks.render;
  return {
    "play-now": playNow,
    resume: (el) => { location.hash = "#/t/" + el.dataset.table; },
    "play-now-guest": () => { playing = true; enterAsGuest(); },
    "lobby-more": async () => {  // the next page of the lobby
      const r = await fetch(`/api/tables?offset=${S.lobbyShown}&limit=${LOBBY_PAGE}`);
      change("lobby_page", {tables: r.ok ? (await r.json()).tables : []});
      render();
    },
  };
}
