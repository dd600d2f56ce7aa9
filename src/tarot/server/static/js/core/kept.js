// Forms that survive re-renders (lobby updates, table events): rebuilding one would wipe what
// the person is typing, so it is built once per key (and language) and kept here until
// forgotten. A cache of the page's nodes, not state: nothing is drawn from it.
import {lang} from "./i18n.js";

const forms = new Map();  // "<lang>|<key>" → the form's node

export function kept(key, make) {
  const k = lang() + "|" + key;
  if (!forms.has(k)) forms.set(k, make());
  return forms.get(k);
}

// ``key`` omitted: every form (another table's page opens)
export function forget(key = null) {
  for (const k of [...forms.keys()]) if (key === null || k.endsWith("|" + key)) forms.delete(k);
}
