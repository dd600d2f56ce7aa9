// The score sheet for games played with real cards (issue 33), page #/sheet: the players' names
// (3, 4 or 5), a form for each deal (taker, contract, partner at 5, oudlers, the attack's
// points, poignées, Petit au bout, chelem), the sheet (one row per deal, each seat's score, the
// totals) and the ranking; Share copies the link, Print prints the sheet alone. The engine scores
// every deal (POST /api/score, the same rules as ``tarot score``): nothing is counted here. The
// whole sheet lives in the link (#/sheet/<code>, codec.js) and in this browser's localStorage
// (the last sheet, for the header's link): the server stores nothing.
import {h, toast} from "../core/dom.js";
import {colon, fill, lang, minus, oudlersText, signed, t} from "../core/i18n.js";
import {CONTRACTS, MAX_DEALS, NAME_MAX, SIDES, SIZES, blank, decode, encode, forApi} from "./codec.js";

const KEPT = "tarot.sheet";  // localStorage: the code of the last sheet
const ROUTE = /^#\/sheet(?:\/([\w-]*))?\/?$/;

let shown = false;  // #/sheet is the page routed
let sheet = blank(4);
let code = null;  // the code of the sheet held (null: none loaded yet)
let scored = null;  // POST /api/score's answer for sheet.deals; null while it is asked
let broken = false;  // the link's code is not a sheet
let failed = false;  // the server could not be asked
let problem = "";  // why the deal in the form was not added
let editing = null;  // the number of the deal taken back into the form
let form = emptyForm();
let version = 0;  // the page is drawn again when it changes
let hooks = {render: () => {}};

function emptyForm() {
  return {taker: "", contract: "", partner: "", oudlers: "", points: "", pa: "", pd: "", pab: "", announced: false, chelem: ""};
}

const redraw = () => { version += 1; hooks.render(); };
const nameOf = (i) => sheet.names[i] || fill("sh_player_n", {n: i + 1});
const number = (x) => minus(Number(x).toLocaleString(lang(), {maximumFractionDigits: 1}));

// --- the route, the link and the engine's scores --------------------------------------------------

// From main.js's route() (and at start): true when ``hash`` is the sheet's page. #/sheet alone
// opens the last sheet of this browser, if any.
export function routeSheet(hash) {
  const m = hash.match(ROUTE);
  shown = !!m;
  if (!shown) return false;
  const given = m[1] || localStorage.getItem(KEPT) || "";
  if (!m[1] && given) history.replaceState(null, "", "#/sheet/" + given);
  if (given !== code) load(given);
  return true;
}

function load(given) {
  code = given;
  problem = ""; editing = null; form = emptyForm();
  const read = given ? decode(given) : blank(4);
  broken = !read;
  sheet = read || blank(4);
  if (!broken && given) localStorage.setItem(KEPT, given);
  rescore();
}

// The sheet's deals scored by the engine; ``deals`` (default: the sheet's own) the ones to try.
async function ask(deals) {
  const r = await fetch("/api/score", {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({players: sheet.players, deals: deals.map(forApi)})});
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw Object.assign(new Error(body.error || String(r.status)), {refused: r.status === 422, body});
  return body;
}

async function rescore() {
  scored = null; failed = false;
  const asked = code;
  if (!sheet.deals.length) { scored = empty(); redraw(); return; }
  redraw();
  try {
    const answer = await ask(sheet.deals);
    if (asked === code) scored = answer;
  } catch (e) {
    if (asked !== code) return;
    if (e.refused) broken = true; else failed = true;
  }
  redraw();
}

const empty = () => ({players: sheet.players, deals: [], totals: Array(sheet.players).fill(0), ranking: []});

// The sheet changed here: into its link (no new history entry), and kept for the header's link.
function keep() {
  code = encode(sheet);
  localStorage.setItem(KEPT, code);
  history.replaceState(null, "", "#/sheet/" + code);
}

// --- the form ------------------------------------------------------------------------------------

// The deal the form holds, or the reason it is not one yet (the rules are the engine's: only what
// the form itself can tell).
function formDeal() {
  const f = form, missing = [];
  if (f.taker === "") missing.push(t("taker"));
  if (f.contract === "") missing.push(t("contract"));
  if (sheet.players === 5 && f.partner === "") missing.push(t("partner"));
  if (f.oudlers === "") missing.push(t("sh_oudlers"));
  const points = Number(String(f.points).replace(",", "."));
  if (String(f.points).trim() === "") missing.push(t("sh_points"));
  if (missing.length) return {problem: fill("sh_missing", {fields: missing.join(", ")})};
  if (!Number.isFinite(points) || points < 0 || points > 91) return {problem: t("sh_bad_points")};
  if (sheet.players === 4 && !Number.isInteger(points)) return {problem: t("sh_no_half")};
  if (!Number.isInteger(points * 2)) return {problem: t("sh_half_only")};
  const taker = +f.taker;
  return {deal: {taker, contract: f.contract, partner: f.partner === "" || f.partner === "alone" ? null : +f.partner,
    oudlers: +f.oudlers, points, poignees: {attack: f.pa || null, defence: f.pd || null}, petit_au_bout: f.pab || null,
    chelem_announced: f.announced, chelem: f.chelem || null}};
}

function formOf(d) {
  return {taker: String(d.taker), contract: d.contract,
    partner: sheet.players === 5 ? (d.partner == null ? "alone" : String(d.partner)) : "",
    oudlers: String(d.oudlers), points: String(d.points), pa: d.poignees.attack || "", pd: d.poignees.defence || "",
    pab: d.petit_au_bout || "", announced: d.chelem_announced, chelem: d.chelem || ""};
}

async function addDeal() {
  const {deal, problem: why} = formDeal();
  if (!deal) { problem = why; redraw(); return; }
  if (sheet.deals.length >= MAX_DEALS) { problem = fill("sh_too_many", {n: MAX_DEALS}); redraw(); return; }
  const deals = [...sheet.deals, deal];
  try {
    const answer = await ask(deals);
    sheet = {...sheet, deals};
    scored = answer; problem = ""; editing = null; form = emptyForm();
    keep();
  } catch (e) {
    problem = e.refused ? fill("sh_refused", {reason: e.message}) : t("sh_unavailable");
  }
  redraw();
}

function takeBackLast(edit) {
  const n = sheet.deals.length;
  if (!n) return;
  if (!edit && !window.confirm(fill("sh_delete_confirm", {n}))) return;
  const last = sheet.deals[n - 1];
  sheet = {...sheet, deals: sheet.deals.slice(0, -1)};
  if (edit) { form = formOf(last); editing = n; } else { editing = null; }
  problem = "";
  keep();
  rescore();
}

// A name typed: into the link, and wherever the page shows it (not drawn again: the next field
// keeps the focus).
function rename(seat, value) {
  sheet.names[seat] = value.trim().slice(0, NAME_MAX);
  keep();
  for (const el of document.querySelectorAll(`[data-sh-name="${seat}"]`)) el.textContent = nameOf(seat);
}

function setPlayers(n) {
  if (sheet.deals.length) return;  // (the select is disabled then)
  sheet = blank(n, sheet.names);
  form = emptyForm(); problem = "";
  keep(); rescore();
}

async function share() {
  try {
    await navigator.clipboard.writeText(location.href);
    toast(t("sh_copied"));
  } catch (e) {
    window.prompt(t("sh_copy_this"), location.href);  // no clipboard (an insecure page): copied by hand
  }
}

function newSheet() {
  if (sheet.deals.length && !window.confirm(t("sh_new_confirm"))) return;
  localStorage.removeItem(KEPT);
  code = null;
  history.replaceState(null, "", "#/sheet");
  load("");
}

// (scoresheet/index.js's, once this module is loaded: its actions)
export function initSheet(given) {
  hooks = given;
  routeSheet(location.hash);  // (main.js routes once the server has said welcome: the page needs no websocket)
  return {
    "sheet-add": addDeal,
    "sheet-edit-last": () => takeBackLast(true),
    "sheet-delete-last": () => takeBackLast(false),
    "sheet-share": share,
    "sheet-print": () => window.print(),
    "sheet-new": newSheet,
  };
}

// --- drawing ---------------------------------------------------------------------------------------

// For main.js's draw(): null unless #/sheet is shown, else its key and nodes (no name needed).
export function sheetView() {
  if (!shown) return null;
  return {key: `sheet|${lang()}|${version}`, nodes: () => [h("div", {class: "narrow", id: "sheet-page"}, ...page())]};
}

const panel = (attrs, ...kids) => h("section", {class: "panel", ...attrs}, ...kids);

function page() {
  const head = h("h2", {}, t("sh_title"));
  if (broken) {
    return [panel({id: "sh-head"}, head, h("p", {id: "sh-broken", role: "alert"}, t("sh_broken")),
      h("button", {class: "primary", "data-action": "sheet-new"}, t("sh_new")))];
  }
  return [panel({id: "sh-head"}, head, h("p", {class: "note sh-noprint"}, t("sh_intro")), playersForm()),
    panel({id: "sh-sheet"}, h("h3", {}, t("sh_sheet")), sheetTable(), lastDealButtons()),
    panel({id: "sh-ranking"}, h("h3", {}, t("sh_ranking")), rankingList()),
    dealForm(),
    panel({id: "sh-actions", class: "panel sh-noprint"},
      h("button", {class: "primary", id: "sh-share", "data-action": "sheet-share"}, t("sh_share")),
      h("button", {id: "sh-print", "data-action": "sheet-print"}, t("sh_print")),
      h("button", {id: "sh-new", "data-action": "sheet-new"}, t("sh_new")),
      h("p", {class: "note"}, t("sh_link_note")))];
}

const labelled = (label, control, attrs = {}) => h("label", {class: "sh-field", ...attrs}, h("span", {}, label), control);

function options(list, chosen) {
  return list.map(([value, text, seat]) => h("option", {value, selected: value === chosen,
    ...(seat != null ? {"data-sh-name": seat} : {})}, text));
}

function playersForm() {
  const count = h("select", {id: "sh-players", disabled: sheet.deals.length > 0,
    onchange: (e) => setPlayers(+e.target.value)}, options([3, 4, 5].map((n) => [String(n), String(n)]), String(sheet.players)));
  const names = sheet.names.map((name, i) => h("input", {type: "text", id: `sh-name-${i}`, value: name, maxlength: NAME_MAX,
    placeholder: fill("sh_player_n", {n: i + 1}), "aria-label": fill("sh_name_of", {n: i + 1}), autocomplete: "off",
    onchange: (e) => rename(i, e.target.value)}));
  return h("div", {class: "sh-noprint"}, labelled(t("sh_players"), count),
    h("fieldset", {class: "sh-names"}, h("legend", {}, t("sh_names")), names));
}

function dealForm() {
  const f = form, n = sheet.deals.length + 1;
  const bind = (key) => (e) => { form[key] = e.target.type === "checkbox" ? e.target.checked : e.target.value; };
  const seats = (first) => [["", first], ...sheet.names.map((_, i) => [String(i), nameOf(i), i])];
  const select = (key, list, id) => h("select", {id, name: key, onchange: bind(key)}, options(list, f[key]));
  const none = [["", t("sh_none")]];
  const sizes = none.concat(SIZES.slice(1).map((s) => [s, t(s)]));
  const sides = [["", t("sh_nobody")], ...SIDES.slice(1).map((s) => [s, t(s)])];
  const oudlers = h("div", {class: "sh-choice", role: "radiogroup", "aria-label": t("sh_oudlers")}, [0, 1, 2, 3].map((k) =>
    h("label", {}, h("input", {type: "radio", name: "sh-oudlers", value: String(k), checked: f.oudlers === String(k),
      onchange: bind("oudlers")}), h("span", {}, String(k)))));
  return panel({id: "sh-form", class: "panel sh-noprint"},
    h("h3", {}, fill("sh_deal_n", {n})),
    editing ? h("p", {class: "note"}, fill("sh_editing", {n: editing})) : null,
    h("div", {class: "sh-grid"},
      labelled(t("taker"), select("taker", seats("—"), "sh-taker")),
      labelled(t("contract"), select("contract", [["", "—"], ...CONTRACTS.map((c) => [c, t(c)])], "sh-contract")),
      sheet.players === 5 ? labelled(t("partner"), select("partner", [["", "—"], ["alone", t("sh_alone")],
        ...sheet.names.map((_, i) => [String(i), nameOf(i), i])], "sh-partner")) : null,
      h("div", {class: "sh-field sh-oudlers"}, h("span", {}, t("sh_oudlers")), oudlers),
      labelled(t("sh_points"), h("input", {type: "number", id: "sh-points", name: "points", min: 0, max: 91,
        step: sheet.players === 4 ? 1 : 0.5, inputmode: "decimal", value: f.points, oninput: bind("points"),
        onkeydown: (e) => { if (e.key === "Enter") addDeal(); }})),
      labelled(t("sh_poignee_attack"), select("pa", sizes, "sh-pa")),
      labelled(t("sh_poignee_defence"), select("pd", sizes, "sh-pd")),
      labelled(t("petit_au_bout"), select("pab", sides, "sh-pab")),
      labelled(t("sh_chelem_by"), select("chelem", sides, "sh-chelem")),
      h("label", {class: "sh-check"}, h("input", {type: "checkbox", id: "sh-announced", checked: f.announced,
        onchange: bind("announced")}), h("span", {}, t("sh_chelem_announced")))),
    h("p", {class: "note"}, t(sheet.players === 4 ? "sh_points_note4" : "sh_points_note")),
    problem ? h("p", {class: "form-error", id: "sh-problem", role: "alert"}, problem) : null,
    h("button", {class: "primary", id: "sh-add", "data-action": "sheet-add"}, t("sh_add")));
}

// "Garde ✓ · Alice + Bob", then "2 bouts · 49/41 · Petit au bout (attaque) · …"
function dealCell(row, d) {
  const who = h("span", {}, h("span", {"data-sh-name": row.taker}, nameOf(row.taker)),
    row.partner != null ? [" + ", h("span", {"data-sh-name": row.partner}, nameOf(row.partner))] : null);
  const extras = [];
  for (const side of ["attack", "defence"]) {
    if (d.poignees[side]) extras.push(`${t("poigneeprime")} ${t(d.poignees[side])} (${t(side)})`);
  }
  if (row.petit_au_bout) extras.push(`${t("petit_au_bout")} (${t(row.petit_au_bout)})`);
  if (row.chelem || row.chelem_announced) {
    extras.push(`${t("chelemprime")}${row.chelem_announced ? ` ${t("sh_announced")}` : ""}${row.chelem ? ` (${t(row.chelem)})` : ""}`);
  }
  return [h("b", {}, `${t(row.contract)} ${row.made ? "✓" : "✗"}`), " · ", who, sheet.players === 5 && row.partner == null ? ` (${t("sh_alone_short")})` : "",
    h("br"), h("small", {}, [`${oudlersText(row.oudlers)} · ${number(row.points)}/${row.target}`,
      fill(row.made ? "sh_made" : "sh_failed", {n: row.margin}), ...extras].join(" · "))];
}

function sheetTable() {
  if (!scored) return h("p", {class: "note"}, failed ? t("sh_unavailable") : "…");
  const head = h("tr", {}, h("th", {}, "#"), h("th", {}, t("sh_deal")),
    sheet.names.map((_, i) => h("th", {class: "sh-who"}, h("span", {"data-sh-name": i}, nameOf(i)))));
  const rows = scored.deals.map((row, k) => h("tr", {"data-deal": row.deal}, h("td", {}, String(row.deal)),
    h("td", {class: "what"}, dealCell(row, sheet.deals[k])),
    row.scores.map((x, i) => h("td", {class: "sh-score" + (x > 0 ? " sh-plus" : x < 0 ? " sh-minus" : "")}, signed(x), h("br"),
      h("small", {}, minus(row.totals[i]))))));
  const total = h("tr", {class: "sh-total"}, h("th", {colspan: 2}, t("sh_total")),
    scored.totals.map((x, i) => h("td", {id: `sh-total-${i}`}, h("b", {}, minus(x)))));
  return h("div", {class: "sheet-wrap"}, h("table", {class: `sheet sh-table p${sheet.players}`, id: "sh-table"}, h("thead", {}, head),
    h("tbody", {}, rows.length ? rows : h("tr", {}, h("td", {colspan: sheet.players + 2, class: "what"}, t("sh_empty")))),
    h("tfoot", {}, total)));
}

function lastDealButtons() {
  if (!sheet.deals.length) return null;
  return h("p", {class: "sh-last sh-noprint"},
    h("button", {id: "sh-edit-last", "data-action": "sheet-edit-last"}, t("sh_edit_last")),
    h("button", {id: "sh-delete-last", "data-action": "sheet-delete-last"}, t("sh_delete_last")));
}

function rankingList() {
  if (!scored || !scored.ranking.length) return h("p", {class: "note"}, scored ? t("sh_empty") : "…");
  return h("ol", {class: "sh-ranking", id: "sh-ranking-list"}, scored.ranking.map((p) =>
    h("li", {"data-rank": p.rank}, h("span", {class: "sh-rank"}, `${p.rank}.`), " ",
      h("span", {class: "sh-rname", "data-sh-name": p.seat}, nameOf(p.seat)), colon(), h("b", {}, minus(p.total)))));
}
