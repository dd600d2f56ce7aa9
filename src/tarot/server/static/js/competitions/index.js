// The competitions area: the daily challenge and duplicate events (their state:
// competitions/reduce.js; their pages fetch the rest over HTTP).
import {challengeEffects, initChallenge} from "./challenge.js";
import {eventsEffects, initEvents} from "./events.js";

export const effects = {...challengeEffects, ...eventsEffects};

export function init(hooks) { return {...initChallenge(hooks), ...initEvents(hooks)}; }
