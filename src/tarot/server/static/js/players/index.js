// The players area: accounts (signing in and out, profiles, the ranking), statistics, the
// history of games and their replays (its state: players/reduce.js).
import {initAccounts} from "./account.js";
import {initReplay} from "./replay.js";

export const effects = {};

export function init(hooks) { return {...initAccounts(hooks), ...initReplay(hooks)}; }
