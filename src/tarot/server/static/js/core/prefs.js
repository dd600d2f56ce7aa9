// The player's display options (issue 33), kept in this browser: the cards' size, a four-colour
// deck, a card played on a touch screen only once confirmed (a second tap), a forced card played
// by itself. Applied as classes of the page's root (style.css).
const KEY = "tarot.prefs";
export const DEFAULTS = Object.freeze({size: "normal", fourColour: false, confirm: false, autoplay: false});

export function prefs() {
  try { return {...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) || "{}")}; } catch (e) { return {...DEFAULTS}; }
}

export function setPrefs(changes) {
  const p = {...prefs(), ...changes};
  localStorage.setItem(KEY, JSON.stringify(p));
  applyPrefs(p);
  return p;
}

export function applyPrefs(p = prefs()) {
  const root = document.documentElement.classList;
  root.toggle("cards-small", p.size === "small");
  root.toggle("cards-large", p.size === "large");
  root.toggle("four-colour", !!p.fourColour);
}

// A touch screen (where a card is easily played by a slip of the thumb).
export const touchScreen = () => matchMedia("(pointer: coarse)").matches || navigator.maxTouchPoints > 0;
