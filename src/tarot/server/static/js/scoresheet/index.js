// The score sheet area (issue 33): the page #/sheet for games played with real cards
// (scoresheet.js; the sheet in its link: codec.js). No server message of its own.
import {initSheet} from "./scoresheet.js";

export const effects = {};

export function init(hooks) { return initSheet(hooks); }
