// The card faces, drawn here in SVG (no images): suit pips laid out as on real cards, courts in a
// frame with their letter, trumps with a large number, the Excuse as a jester's cap. A face is
// 60×90 units; the corners carry the index a fanned hand shows.
import {s} from "../core/dom.js";

// Suit pips in a 100×100 box.
const PIPS = {
  D: "M50 0 L88 50 L50 100 L12 50 Z",
  H: "M50 96 C22 72 0 52 0 29 C0 11 13 0 28 0 C39 0 47 7 50 17 C53 7 61 0 72 0 C87 0 100 11 100 29 C100 52 78 72 50 96 Z",
  S: "M50 0 C22 28 0 44 0 62 C0 77 11 86 25 86 C35 86 43 81 47 74 C46 86 41 94 32 100 L68 100 C59 94 54 86 53 74 " +
     "C57 81 65 86 75 86 C89 86 100 77 100 62 C100 44 78 28 50 0 Z",
  C: "M28 26 a22 22 0 1 0 44 0 a22 22 0 1 0 -44 0 Z M4 60 a21 21 0 1 0 42 0 a21 21 0 1 0 -42 0 Z " +
     "M54 60 a21 21 0 1 0 42 0 a21 21 0 1 0 -42 0 Z M45 50 C45 78 40 91 30 100 L70 100 C60 91 55 78 55 50 Z",
};
// Where the pips of a 1 to 10 sit (x, y of their centres); those below the middle are turned.
const L = 20, M = 30, R = 40;
const LAYOUT = {
  1: [[M, 45]], 2: [[M, 20], [M, 70]], 3: [[M, 20], [M, 45], [M, 70]],
  4: [[L, 20], [R, 20], [L, 70], [R, 70]],
  5: [[L, 20], [R, 20], [M, 45], [L, 70], [R, 70]],
  6: [[L, 20], [R, 20], [L, 45], [R, 45], [L, 70], [R, 70]],
  7: [[L, 20], [R, 20], [M, 32], [L, 45], [R, 45], [L, 70], [R, 70]],
  8: [[L, 20], [R, 20], [M, 32], [L, 45], [R, 45], [M, 58], [L, 70], [R, 70]],
  9: [[L, 19], [R, 19], [M, 28], [L, 36], [R, 36], [L, 54], [R, 54], [L, 71], [R, 71]],
  10: [[L, 19], [R, 19], [M, 27], [L, 36], [R, 36], [L, 54], [R, 54], [M, 63], [L, 71], [R, 71]],
};
const FONT = {"font-family": "system-ui, sans-serif", "font-weight": "bold", fill: "currentColor"};

function pip(suit, x, y, size) {
  const k = size / 100, turn = y > 45 ? ` rotate(180 50 50)` : "";
  return s("path", {d: PIPS[suit], fill: "currentColor",
    transform: `translate(${x - size / 2} ${y - size / 2}) scale(${k})${turn}`});
}

// The index, top left and (turned) bottom right.
function corners(label, suit) {
  const one = (rot) => s("g", {transform: rot},
    s("text", {x: 7, y: 12.5, "font-size": [11, 11, 9, 7][label.length], "text-anchor": "middle", ...FONT}, label),
    suit ? pip(suit, 7, 19.5, 7) : null);
  return [one(""), one("rotate(180 30 45)")];
}

function suitCard(rank, suit, letter) {
  const n = Number(rank);
  if (n) {
    const size = n === 1 ? 26 : 11;
    return [...corners(letter, suit), ...LAYOUT[n].map(([x, y]) => pip(suit, x, y, size))];
  }
  // a court: its letter in a frame, its pip above
  return [...corners(letter, suit),
    s("rect", {x: 14, y: 16, width: 32, height: 58, rx: 3, fill: "none", stroke: "currentColor", "stroke-width": 1.2}),
    s("rect", {x: 16.5, y: 18.5, width: 27, height: 53, rx: 2, fill: "currentColor", "fill-opacity": .08}),
    pip(suit, 30, 31, 13),
    s("text", {x: 30, y: 62, "font-size": letter.length > 1 ? 15 : 20, "text-anchor": "middle", ...FONT}, letter)];
}

function trumpCard(n) {
  const art = [...corners(String(n)),
    s("rect", {x: 13, y: 22, width: 34, height: 46, rx: 4, fill: "#f3e3a6", stroke: "#b08d2a", "stroke-width": 1}),
    s("text", {x: 30, y: n === 1 ? 50 : 55, "font-size": n > 9 ? 22 : 26, "text-anchor": "middle", ...FONT}, String(n))];
  // the Petit (an oudler) says so, in small letters under its number
  if (n === 1) art.push(s("text", {x: 30, y: 63, "font-size": 8, "text-anchor": "middle", ...FONT, "font-style": "italic"}, "Petit"));
  return art;
}

function excuseCard() {
  // a jester's cap with its three bells: nothing like an ace, a trump or a star
  return [...corners("Exc"),
    s("path", {d: "M16 60 Q20 40 9 27 Q25 33 30 20 Q35 33 51 27 Q40 40 44 60 Z", fill: "#7c3aed", "fill-opacity": .85}),
    s("rect", {x: 15, y: 58, width: 30, height: 6, rx: 2, fill: "#b08d2a"}),
    ...[[9, 27], [30, 20], [51, 27]].map(([x, y]) => s("circle", {cx: x, cy: y, r: 3.2, fill: "#e7b416"})),
    s("text", {x: 30, y: 76, "font-size": 8, "text-anchor": "middle", ...FONT}, "Excuse")];
}

// ``letter``: how the card's rank is written in the page's language (R, D, C, V or K, Q, Kn, J).
export function face(card, letter) {
  let art;
  if (card === "EX") art = excuseCard();
  else if (card[0] === "T") art = trumpCard(Number(card.slice(1)));
  else art = suitCard(card.slice(0, -1), card.slice(-1), letter);
  return s("svg", {viewBox: "0 0 60 90", "aria-hidden": "true", class: "face"}, ...art);
}
