// The player's display options (issue 33): the cards' size, a four-colour deck, a card played on
// a touch screen only once confirmed (a second tap), a forced card played by itself. Kept in this
// browser, and with a signed-in account (GET and PUT /api/account/prefs: the same on each of its
// devices). Applied as classes of the page's root (views.css).
const KEY = "tarot.prefs";
export const DEFAULTS = Object.freeze({size: "normal", fourColour: false, confirm: false, autoplay: false});

export function prefs() {
  try { return {...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) || "{}")}; } catch (e) { return {...DEFAULTS}; }
}

let account = false;  // signed in: the options are the account's too

export function setPrefs(changes) {
  const p = {...prefs(), ...changes};
  localStorage.setItem(KEY, JSON.stringify(p));
  applyPrefs(p);
  if (account) fetch("/api/account/prefs", {method: "PUT", headers: {"content-type": "application/json"},
    body: JSON.stringify(p)}).catch(() => {});  // (kept here all the same)
  return p;
}

// After the server's welcome: a signed-in account's options replace this browser's (classes of
// the page's root: nothing to draw again).
export async function accountPrefs(signedIn) {
  account = signedIn;
  if (!signedIn) return;
  try {
    const r = await fetch("/api/account/prefs");
    if (!r.ok) return;
    const p = {...DEFAULTS, ...(await r.json())};
    localStorage.setItem(KEY, JSON.stringify(p));
    applyPrefs(p);
  } catch (e) { /* this browser's options stay */ }
}

export function applyPrefs(p = prefs()) {
  const root = document.documentElement.classList;
  root.toggle("cards-small", p.size === "small");
  root.toggle("cards-large", p.size === "large");
  root.toggle("four-colour", !!p.fourColour);
}

// A touch screen (where a card is easily played by a slip of the thumb).
export const touchScreen = () => matchMedia("(pointer: coarse)").matches || navigator.maxTouchPoints > 0;
