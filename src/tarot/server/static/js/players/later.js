// The players area's screens that the lobby does without, loaded when first shown: a game's replay
// and a profile's history (replay.js), a profile's statistics (stats.js).
import {lazy} from "../core/lazy.js";

export const replays = lazy(() => import("./replay.js"));
export const stats = lazy(() => import("./stats.js"));
