// The players area: accounts (signing in and out, profiles, the ranking), statistics, the
// history of games and their replays (its state: players/reduce.js). The replays, the history
// and the statistics load when first shown (players/later.js).
import {initAccounts} from "./account.js";
import {replays} from "./later.js";

const REPLAY = /^#\/g\/\d+/;
const REPLAY_ACTIONS = ["replay-step", "history-more", "review-ask", "review-seat", "practice-from"];
let hooks = {render: () => {}}, actions = {};

replays.then((m) => { actions = m.initReplay(hooks); hooks.render(); });

export const effects = {};

export function init(given) {
  hooks = given;
  if (REPLAY.test(location.hash)) replays.ready();
  return {...initAccounts(given),
    ...Object.fromEntries(REPLAY_ACTIONS.map((name) => [name, (el) => replays.ready().then(() => actions[name](el))]))};
}

// From main.js's route(): true when ``hash`` is a replay (its module loaded if it is not yet).
export function routeReplay(hash) {
  const m = replays.get();
  if (m) return m.routeReplay(hash);
  if (!REPLAY.test(hash)) return false;
  replays.ready();
  return true;
}

// For main.js's draw(): the replay's page, empty while its module loads.
export function replayView() {
  const m = replays.get();
  if (m) return m.replayView();
  return REPLAY.test(location.hash) ? {key: "replay-loading", nodes: () => []} : null;
}
