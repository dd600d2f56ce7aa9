// Cards: their order in a hand, their names, and their faces.
import {h} from "./dom.js";
import {lang} from "./i18n.js";

const SUITS = {S: ["♠", false], H: ["♥", true], D: ["♦", true], C: ["♣", false]};
const SUIT_ORDER = {S: 0, H: 1, C: 2, D: 3};
// Court letters as each language writes them: R, D, C, V for roi, dame, cavalier, valet.
const COURT = {en: {J: "J", N: "Kn", Q: "Q", K: "K"}, fr: {J: "V", N: "C", Q: "D", K: "R"}};
const SUIT_NAMES = {en: {S: "spades", H: "hearts", D: "diamonds", C: "clubs"},
  fr: {S: "pique", H: "cœur", D: "carreau", C: "trèfle"}};
const RANK_NAMES = {en: {J: "jack", N: "knight", Q: "queen", K: "king", 1: "ace"},
  fr: {J: "valet", N: "cavalier", Q: "dame", K: "roi", 1: "as"}};

// The hand reads trumps (high first), the Excuse, then the suits, colours alternating.
function cardKey(c) {
  if (c[0] === "T") return [0, 21 - c.slice(1)];
  if (c === "EX") return [1, 0];
  const r = "1 2 3 4 5 6 7 8 9 10 J N Q K".split(" ").indexOf(c.slice(0, -1));
  return [2 + SUIT_ORDER[c.slice(-1)], r];
}
export function sortCards(cards) {
  return [...cards].sort((a, b) => { const x = cardKey(a), y = cardKey(b); return x[0] - y[0] || x[1] - y[1]; });
}

export function cardName(c) {
  const l = lang();
  if (c === "EX") return "Excuse";
  if (c === "T1") return l === "fr" ? "Petit (atout 1)" : "Petit (trump 1)";
  if (c[0] === "T") return (l === "fr" ? "atout " : "trump ") + c.slice(1);
  const r = c.slice(0, -1);
  return `${RANK_NAMES[l][r] ?? r} ${l === "fr" ? "de" : "of"} ${SUIT_NAMES[l][c.slice(-1)]}`;
}

// A card's face. ``attrs["data-action"]`` makes it playable: focusable, a button for the
// keyboard (Enter, Space) and for screen readers.
export function cardEl(c, cls = "", attrs = {}) {
  // The Excuse and the Petit are drawn apart: neither reads as an ace nor as the host's star.
  let top, big, extra = "";
  if (c === "EX") { top = "Exc"; big = "♪"; extra = " trump excuse"; }
  else if (c === "T1") { top = "1"; big = "Petit"; extra = " trump petit"; }
  else if (c[0] === "T") { top = c.slice(1); big = c.slice(1); extra = " trump"; }
  else {
    const [sym, red] = SUITS[c.slice(-1)], r = c.slice(0, -1);
    top = (COURT[lang()][r] ?? (r === "1" ? "A" : r)) + sym; big = sym; if (red) extra = " red";
  }
  if (attrs["data-action"]) attrs = {tabindex: 0, role: "button", ...attrs};
  return h("div", {class: "card" + extra + (cls ? " " + cls : ""), "data-card": c, title: cardName(c),
    "aria-label": cardName(c), ...attrs}, h("span", {}, top), h("span", {class: "big"}, big));
}
