// The score sheet keeps nothing in the page's state: the sheet is its link (#/sheet/<code>,
// scoresheet/codec.js), scored by POST /api/score; its form's fields are the page's own
// (scoresheet.js). No server message, no change of its own.
export const server = {};

export const local = {};
