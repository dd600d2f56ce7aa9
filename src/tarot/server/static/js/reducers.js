// Every area's reducers, for the store (core/store.js): the server's messages by type (a test
// holds them equal to protocol.ServerMessage's types) and the page's own changes.
import * as community from "./community/reduce.js";
import * as competitions from "./competitions/reduce.js";
import * as lobby from "./lobby/reduce.js";
import * as players from "./players/reduce.js";
import * as scoresheet from "./scoresheet/reduce.js";
import * as table from "./table/reduce.js";

const AREAS = [table, lobby, players, community, competitions, scoresheet];

function merged(part) {
  const all = {};
  for (const area of AREAS) for (const [type, reduce] of Object.entries(area[part])) {
    if (type in all) throw new Error(`two reducers for ${part} ${type}`);
    all[type] = reduce;
  }
  return all;
}

export const REDUCERS = {server: merged("server"), local: merged("local")};
