// The community area: the chat and friends (their state: community/reduce.js).
import {chatActions} from "./chat.js";
import {friendsActions, friendsEffects} from "./friends.js";

export const effects = {...friendsEffects};

export function init() { return {...chatActions, ...friendsActions}; }
