// Cards: their order in a hand, their names, and their faces.
import {h} from "../core/dom.js";
import {face} from "./faces.js";
import {lang} from "../core/i18n.js";

const RED = new Set(["H", "D"]);
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

export const suitName = (letter) => SUIT_NAMES[lang()][letter] ?? letter;

export function cardName(c) {
  const l = lang();
  if (c === "EX") return "Excuse";
  if (c === "T1") return l === "fr" ? "Petit (atout 1)" : "Petit (trump 1)";
  if (c[0] === "T") return (l === "fr" ? "atout " : "trump ") + c.slice(1);
  const r = c.slice(0, -1);
  return `${RANK_NAMES[l][r] ?? r} ${l === "fr" ? "de" : "of"} ${SUIT_NAMES[l][c.slice(-1)]}`;
}

// A card as the page shows it: its face (faces.js) in a box that carries its code, its name for
// screen readers and its state (legal, selected…). ``attrs["data-action"]`` makes it playable:
// focusable, a button for the keyboard (Enter, Space) and for screen readers; otherwise it is an
// image (a plain div may not carry a name: axe's aria-prohibited-attr).
export function cardEl(c, cls = "", attrs = {}) {
  // The Excuse and the Petit are drawn apart: neither reads as an ace nor as the host's star.
  let extra = "";
  if (c === "EX") extra = " trump excuse oudler";
  else if (c === "T1") extra = " trump petit oudler";
  else if (c === "T21") extra = " trump oudler";
  else if (c[0] === "T") extra = " trump";
  else if (RED.has(c.slice(-1))) extra = " red";
  attrs = attrs["data-action"] ? {tabindex: 0, role: "button", ...attrs} : {role: "img", ...attrs};
  return h("div", {class: "card" + extra + (cls ? " " + cls : ""), "data-card": c, title: cardName(c),
    "aria-label": cardName(c), ...attrs}, face(c, courtLetter(c)));
}

// A card in two signs, as in a line of text: "R♥", "K♥", "21", "Exc".
const SUIT_SIGNS = {S: "♠", H: "♥", D: "♦", C: "♣"};
export function cardShort(c) {
  if (c === "EX") return "Exc";
  if (c[0] === "T") return c.slice(1);
  return courtLetter(c) + SUIT_SIGNS[c.slice(-1)];
}

// How a suit card's rank is written on its corner in the page's language (R, D, C, V in French).
function courtLetter(c) {
  const r = c.slice(0, -1);
  return COURT[lang()][r] ?? (r === "1" ? "1" : r);
}
