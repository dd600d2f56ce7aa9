// The texts: two JSON files per language (static/i18n/), which the server serves and the tests read:
// <lang>.json, the lobby's, the header's and the dialogs' (and the errors'), and <lang>.views.json,
// those of the screens the lobby does without (the replay, the statistics, the score sheet, the
// hint), fetched with them (``loadViewTexts``). Only the page's language is fetched (the other when
// the player switches); from the static files' versioned folder that the page names
// (<meta name="tarot-static">), else from /static/.
export const LANGS = ["en", "fr"];
// the static files' folder (versioned) that the page names: views.css is fetched from it too (main.js)
export const staticBase = document.querySelector("meta[name=tarot-static]")?.content || "/static/";
const base = staticBase;
const T = {};
const loaded = new Set();  // "fr", "fr.views"…
let withViews = false;  // the views' texts asked for: the other language's too, when it comes
const load = async (l, part = "") => {
  if (loaded.has(l + part)) return;
  const got = await (await fetch(`${base}i18n/${l}${part}.json`)).json();
  T[l] = {...T[l], ...got};
  loaded.add(l + part);
};
export async function loadViewTexts() {
  withViews = true;
  await load(current, ".views");
}

let current = localStorage.getItem("tarot.lang") || (navigator.language || "en").slice(0, 2);
if (!LANGS.includes(current)) current = "en";
await load(current);
document.documentElement.lang = current;

export const lang = () => current;
let asked = current;  // the language last asked for (a second switch may come before the first's texts)
export const wanted = () => asked;
export async function setLang(l) {
  asked = l;
  await load(l);
  if (withViews) await load(l, ".views");
  if (asked !== l) return;  // another one asked for since: that one is the page's
  current = l;
  localStorage.setItem("tarot.lang", l);
  document.documentElement.lang = l;
}
export const t = (k) => T[current][k] ?? k;
// "Preneur : Alice", "Taker: Alice": French puts a no-break space before the colon.
export const colon = () => (current === "fr" ? "\u00a0: " : ": ");
// t(key) with its {name} holes filled: ``fill("why_must_follow", {suit: "cœur"})``.
export const fill = (k, args = {}) => t(k).replace(/\{(\w+)\}/g, (hole, name) => args[name] ?? hole);
export const texts = () => T[current];
// French counts 0 and 1 in the singular (0 bout, 1 bout), English only 1 (1 oudler, 0 oudlers).
export const plural = (n) => (current === "fr" ? n > 1 : n !== 1);
export const oudlersText = (n) => `${n} ${t(plural(n) ? "oudlers" : "oudler")}`;
// a number with a true minus (−, not a hyphen), as the site's other figures; a score with its sign
export const minus = (x) => String(x).replace("-", "\u2212");
// a count of points as the page's language writes it: "53,5" in French (half points at three), a true minus
export const decimal = (x) => minus(Number(x).toLocaleString(current, {maximumFractionDigits: 1}));
export const signed = (x) => (x > 0 ? "+" : "") + minus(x);
// a figure with ``digits`` decimals as the page's language writes it, a true minus ("−0,7" in French);
// ``sign``: Intl's signDisplay ("exceptZero": "+1,5")
export const number = (x, digits = 0, sign = "auto") => minus(Number(x).toLocaleString(current,
  {minimumFractionDigits: digits, maximumFractionDigits: digits, signDisplay: sign}));
