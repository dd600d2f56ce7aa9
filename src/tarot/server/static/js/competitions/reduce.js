// The daily challenge as this player sees it; a duplicate event's start (the page goes to its
// table, competitions/index.js). Pure: ``(S, message) -> changes`` (core/store.js writes them).
export const server = {
  challenge: (S, m) => ({challenge: m}),
  event_start: () => null,
};

export const local = {};
