// The score sheet in its link (issue 33): #/sheet/<code>, where the code is the base64url (no
// padding) of the UTF-8 JSON [1, players, names, deals]: 1 the format's version, names one per
// seat ("" for a seat not named), and each deal ten numbers:
//   [taker, contract, partner, oudlers, points, attack's poignée, defence's poignée,
//    petit au bout, chelem announced, chelem]
// contract an index in CONTRACTS, partner a seat or -1 (none: 3 and 4 players; at 5 the taker's
// own seat is the taker alone), a poignée an index in SIZES (0 none), petit au bout and chelem an
// index in SIDES (0 nobody), chelem announced 0 or 1. The server stores nothing: the link is the
// sheet. A code that does not read as such a sheet decodes to null (the rules are the engine's
// to check, POST /api/score).
export const CONTRACTS = ["prise", "garde", "garde_sans", "garde_contre"];
export const SIZES = [null, "simple", "double", "triple"];
export const SIDES = [null, "attack", "defence"];
export const MAX_DEALS = 200;  // as the server's scoresheet_api.MAX_DEALS
export const NAME_MAX = 24;
const VERSION = 1;

export const blank = (players, names = []) =>
  ({players, names: Array.from({length: players}, (_, i) => names[i] || ""), deals: []});

export function encode(sheet) {
  const deals = sheet.deals.map((d) => [d.taker, CONTRACTS.indexOf(d.contract), d.partner ?? -1, d.oudlers, d.points,
    SIZES.indexOf(d.poignees.attack), SIZES.indexOf(d.poignees.defence), SIDES.indexOf(d.petit_au_bout),
    d.chelem_announced ? 1 : 0, SIDES.indexOf(d.chelem)]);
  const bytes = new TextEncoder().encode(JSON.stringify([VERSION, sheet.players, sheet.names, deals]));
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const isInt = (x, lo, hi) => Number.isInteger(x) && x >= lo && x <= hi;

function dealOf(a, players) {
  if (!Array.isArray(a) || a.length !== 10) return null;
  const [taker, contract, partner, oudlers, points, pa, pd, pab, announced, chelem] = a;
  const ok = isInt(taker, 0, players - 1) && isInt(contract, 0, 3) && isInt(partner, -1, players - 1)
    && isInt(oudlers, 0, 3) && typeof points === "number" && Number.isFinite(points) && isInt(pa, 0, 3)
    && isInt(pd, 0, 3) && isInt(pab, 0, 2) && isInt(announced, 0, 1) && isInt(chelem, 0, 2);
  if (!ok) return null;
  return {taker, contract: CONTRACTS[contract], partner: partner < 0 ? null : partner, oudlers, points,
    poignees: {attack: SIZES[pa], defence: SIZES[pd]}, petit_au_bout: SIDES[pab], chelem_announced: announced === 1,
    chelem: SIDES[chelem]};
}

export function decode(code) {
  try {
    const bin = atob(code.replace(/-/g, "+").replace(/_/g, "/"));
    const json = new TextDecoder("utf-8", {fatal: true}).decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
    const [version, players, names, deals] = JSON.parse(json);
    if (version !== VERSION || !isInt(players, 3, 5) || !Array.isArray(names) || names.length !== players
      || !names.every((n) => typeof n === "string" && n.length <= NAME_MAX)
      || !Array.isArray(deals) || deals.length > MAX_DEALS) return null;
    const read = deals.map((d) => dealOf(d, players));
    return read.every(Boolean) ? {players, names, deals: read} : null;
  } catch (e) {
    return null;  // not base64, not UTF-8, not JSON, not an array
  }
}

// A deal as POST /api/score takes it (docs/api.md): the poignées as a list, each with its side.
export function forApi(d) {
  const poignees = ["attack", "defence"].filter((side) => d.poignees[side]).map((side) => ({size: d.poignees[side], side}));
  return {taker: d.taker, contract: d.contract, partner: d.partner, oudlers: d.oudlers, points: d.points, poignees,
    petit_au_bout: d.petit_au_bout, chelem_announced: d.chelem_announced, chelem: d.chelem};
}
