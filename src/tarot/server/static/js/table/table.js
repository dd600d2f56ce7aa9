// The table's screen, by region: the info bar, the felt (seats, played cards, the centre, the
// result between deals), the player's actions and hand, the tools, and the panels below. Each
// region has a key; main.js redraws a region only when its key changed.
import {cardEl, cardName, cardShort, sortCards} from "../cards/cards.js";
import {h, s} from "../core/dom.js";
import {colon, fill, lang, t} from "../core/i18n.js";
import {kept} from "../core/kept.js";
import {guestMark, isGuest, seatName} from "../core/names.js";
import {S} from "../core/store.js";
import {chatKey, chatPanel} from "../community/chat.js";
import {friendsKey, friendsPanel} from "../community/friends.js";
import {challengeEnd, challengeKey, challengeTitle} from "../competitions/challenge.js";
import {eventEnd, eventKey, eventTitle} from "../competitions/events.js";
import {optionsForm} from "../lobby/forms.js";
import {hintedCards, hintKey, hintView} from "./hint.js";
import {ecartKey} from "./index.js";
import {rankingView, resultView} from "./result.js";
import {sheetView} from "./sheet.js";

// The robots' levels a host seats (issue 19): beginner (random), club (heuristic), expert (search).
const BOT_LEVELS = [["random", "add-random", "level_beginner"], ["heuristic", "add-bot", "level_club"],
  ["search", "add-search", "level_expert"]];

// "Deal played again · game 12, deal 1": a link back to the replay at the step it started from.
function rehearsalTitle(r) {
  return h("a", {class: "rehearsal-title", href: `#/g/${r.game}/${r.deal}/${r.step}`},
    fill("tb_rehearsal", {game: r.game, deal: r.deal}));
}

// Seconds left of ``total`` counted from the last state received (the clocks tick between states).
export function secondsLeft(total) {
  return Math.max(0, Math.round(total - (performance.now() - S.timerAt) / 1000));
}

export function timerText() {
  return `${t("timeleft")}${colon()}${secondsLeft(S.timeLeft)}s`;
}

// The move clock: a bar that empties, orange at half the move time, red at the last quarter, and
// the seconds left. ``tickTimer`` changes it in place each second (main.js).
function timerView() {
  const el = h("span", {id: "timer", role: "timer"}, h("span", {class: "clock-bar"}, h("span", {class: "clock-fill"})),
    h("span", {class: "clock-text"}));
  tickTimer(el);
  return el;
}

export function tickTimer(el) {
  const left = secondsLeft(S.timeLeft), total = Math.max(1, S.state.table.options.move_time || S.timeLeft || 1);
  const part = Math.min(1, left / total);
  el.setAttribute("aria-label", timerText());
  el.querySelector(".clock-text").textContent = `${left} s`;
  el.querySelector(".clock-fill").style.width = `${Math.round(part * 100)}%`;  // (the CSSOM: the CSP refuses style attributes)
  el.classList.toggle("warn", part <= 0.5 && part > 0.25);
  el.classList.toggle("urgent", part <= 0.25);
}

const amHost = () => !!S.me && S.state.table.host === S.me.id;
// A daily challenge's or a duplicate event's table: its seats, options and game are fixed (no host
// controls, no cancel, no rematch, no invitation, no game ranking: the challenge's or the event's
// results count); going back never leaves (the seat stays the player's). A challenge's table has
// nobody else, so no chat; an event's has its players.
const fixed = () => !!(S.state.table.challenge || S.state.table.event);
const replayed = () => !!S.state.table.rehearsal;  // a done deal played again (issue 35): nothing to cancel, nobody to invite
const atEvent = () => S.state.table.event || null;

export function tableRegions() {
  const st = S.state, v = st.view;
  // what the player does on this page, in every key: a click that changes it redraws
  const ui = JSON.stringify([lang(), [...S.selected], S.showLastAt, S.poignee, S.invite, S.resultShown, [...S.open], hintKey(), S.armed]);
  const live = `${S.version}|${ui}`;
  const game = st.game;
  return [
    {id: "info", key: `${live}|${challengeKey()}|${atEvent() && eventKey(atEvent())}`, build: infoView},
    {id: "challenge-wrap", key: `${lang()}|${st.table.status}|${challengeKey()}|${JSON.stringify(game && game.totals)}`,
      build: challengeEnd},
    {id: "event-wrap", key: `${lang()}|${st.table.status}|${atEvent() && eventKey(atEvent())}`, build: eventEnd},
    // a finished game: its end first (the winner, the ranking, the sheet, a rematch, the lobby)
    {id: "end-wrap", key: `${lang()}|${st.table.status}|${st.you}|${amHost()}|${JSON.stringify(game && [game.ranking, game.outcome,
      game.cancelled, game.sheet])}`, build: endView},
    {id: "felt-wrap", key: live, build: feltView},
    {id: "actions-wrap", key: live, build: () => (v && st.you >= 0 ? actionsView(v) : null)},
    {id: "hand-wrap", key: live, build: () => (v && st.you >= 0 ? handView(v) : null)},
    {id: "tools-wrap", key: live, build: toolsView},
    {id: "sheet-wrap-region", key: `${lang()}|${st.table.status}|${JSON.stringify(game && game.sheet)}|${st.table.seats.map((s) => s.name)}`,
      build: () => (game && game.sheet.length && !ended() ? sheetView(game) : null)},
    {id: "chat-wrap", key: `${chatKey()}|${friendsKey()}`, build: () => (st.table.challenge ? null : chatPanel("table"))},
    {id: "friends-wrap", key: `${friendsKey()}|${live}`, build: () => (S.friends.size && !fixed() ? friendsPanel("table") : null)},
    {id: "host-wrap", key: `${lang()}|${st.table.status}|${amHost()}|${JSON.stringify(st.table.options)}`, build: hostView},
  ];
}

// The game is over and its end is shown first (a challenge's or an event's table has its own).
const ended = () => !fixed() && S.state.table.status === "finished" && !!S.state.game && !!(S.state.game.ranking || S.state.game.cancelled);

// The end of a game: the winner's moment, the final ranking with each score, the score sheet, then
// a rematch and the way back to the lobby (a cancelled game: why it counts for nothing).
function endView() {
  if (!ended()) return null;
  const st = S.state, game = st.game;
  const buttons = h("div", {class: "end-buttons"},
    st.you >= 0 ? h("button", {class: "primary", id: amHost() ? "new-game" : "rematch", "data-action": "new-game"}, t("rematch")) : null,
    h("button", {id: "back-to-lobby", "data-action": "leave"}, t("backtolobby")));
  if (game.cancelled) return h("section", {class: "panel game-end", id: "game-end"}, h("div", {id: "cancelled"}, h("p", {}, t("gamecancelled"))), buttons);
  const first = game.ranking.filter((r, i) => (r.rank ?? i + 1) === 1).map((r) => r.seat);
  const names = first.map((i) => seatName(i));  // "A", "A et B", "A, B et C"
  const listed = names.length > 1 ? `${names.slice(0, -1).join(", ")} ${t("and")} ${names[names.length - 1]}` : names[0];
  const title = first.includes(st.you) ? t(first.length > 1 ? "end_you_share" : "end_you_win")
    : fill(first.length > 1 ? "end_they_share" : "end_wins", {names: listed});
  return h("section", {class: "panel game-end" + (first.includes(st.you) ? " won" : ""), id: "game-end"},
    h("div", {class: "end-moment"}, trophy(), h("h2", {id: "winner"}, title)),
    rankingView(game.ranking, game.outcome), game.sheet.length ? sheetView(game) : null, buttons);
}

// A gold cup, drawn (a font may have no emoji).
const trophy = () => s("svg", {class: "trophy", viewBox: "0 0 64 64", "aria-hidden": "true"},
  s("path", {d: "M18 8h28v6h10c0 12-6 20-15 22-2 5-5 8-7 9v7h8v6H22v-6h8v-7c-2-1-5-4-7-9C14 34 8 26 8 14h10zm0 12h-4c1 6 4 10 7 12-2-4-3-8-3-12zm28 0c0 4-1 8-3 12 3-2 6-6 7-12z",
    fill: "#e7b416", stroke: "#8a6a00", "stroke-width": "1.5", "stroke-linejoin": "round"}));

function infoView() {
  const st = S.state, tb = st.table, v = st.view, you = st.you;
  const info = h("div", {id: "info", class: "panel"});
  if (tb.challenge) info.append(challengeTitle(tb.challenge));  // "Daily challenge — deal k of n", in place of "Deal 1/1"
  else if (tb.event) info.append(eventTitle(tb.event));  // "Event — table N", and the way to its page
  else if (tb.rehearsal) info.append(rehearsalTitle(tb.rehearsal));  // "Deal played again", the way back
  if (st.game && !tb.challenge) {
    // the deal under way (during the pause after a deal, the one just played); a game cancelled
    // says so (not "Deal 0/2")
    const current = st.game.played + (tb.status === "playing" && !st.next_deal ? 1 : 0);
    info.append(h("span", {id: "deal-of"}, st.game.cancelled ? t("game_cancelled") : `${t("deal")} ${current}/${st.game.deals}`));
  }
  if (st.game && st.game.commitment) info.append(h("details", {id: "fairness", open: S.open.has("fairness")}, h("summary", {}, t("fairness")),
    h("span", {class: "mono"}, `${t("commitment")}${colon()}${st.game.commitment}`)));
  if (v) {
    if (v.contract && v.phase !== "bidding") info.append(h("span", {}, `${t("taker")}${colon()}${seatName(v.taker)} · ${t(v.contract)}`));
    if (v.called) info.append(h("span", {id: "called-info"}, `${t("called")}${colon()}`, cardEl(v.called, "small")));
    if (v.turn != null) info.append(h("span", {id: "turn"}, v.turn === you ? h("b", {}, t("yourturn")) : `${t("turn")}${colon()}${seatName(v.turn)}`));
    if (S.timeLeft != null && v.turn != null) info.append(timerView());
  } else if (tb.status === "waiting") info.append(h("span", {}, t("waiting")));
  if (tb.options.competitive) {
    info.append(h("span", {class: "badge competitive"}, t("competitive_short") +
      (tb.options.stake ? ` · ${t("stake")}${colon()}${tb.options.stake}` : "")));
    // two people at one address: said before the game starts, and during it
    if (!st.counts && tb.seats.filter((s) => s.taken && !s.bot).length > 1)
      info.append(h("span", {class: "warn", id: "nocount"}, t("nocount")));
  }
  if (you < 0) info.append(h("span", {}, t("spectator")));
  if (!votes()) {  // (for whom it asks an answer, it is among the actions)
    const vote = cancelVoteView();
    if (vote) info.append(vote);
  }
  return info;
}

// The friendly cancel vote: who proposed, who accepted, and for a seated person who has not
// answered yet, the two buttons (then the vote is among the player's actions, above the hand).
const votes = () => { const c = S.state.cancel; return !!c && c.voters.includes(S.state.you) && !c.accepted.includes(S.state.you); };

function cancelVoteView() {
  const st = S.state, c = st.cancel;
  if (!c) return null;
  const box = h("span", {id: "cancel-vote", class: "vote"},
    `${fill("cancel_proposed", {name: seatName(c.proposer)})} (${c.accepted.length}/${c.voters.length}, `,
    h("span", {id: "cancel-left"}, `${secondsLeft(c.time_left)}`), "s)");
  if (votes())
    box.append(" ", h("button", {class: "primary", id: "cancel-accept", "data-action": "cancel-vote", "data-accept": "1"}, t("accept")),
      " ", h("button", {id: "cancel-refuse", "data-action": "cancel-vote", "data-accept": "0"}, t("refuse")));
  return box;
}

// A private table's invitation link, with its copy button (under the felt).
function inviteView() {
  const tb = S.state.table;
  if (!tb.options.private || !S.invite || fixed() || replayed()) return null;
  const link = `${location.origin}/#/t/${tb.id}/${S.invite}`;
  return h("div", {id: "invite"}, h("label", {for: "invite-link"}, `${t("invite")}${colon()}`),
    h("input", {readonly: true, value: link, size: 24, id: "invite-link"}),
    h("button", {id: "copy-invite", "data-action": "copy-invite"}, t("copy")));
}

// A player's initial in a disc of a colour its name gives (the same at every table).
function avatar(name) {
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.codePointAt(0)) % 100003;
  const hue = Math.round(hash * 137.508) % 360;  // (the golden angle: "Robot 2" and "Robot 3" far apart)
  const disc = h("span", {class: "avatar", "aria-hidden": "true"}, [...name.trim()][0]?.toUpperCase() || "?");
  disc.style.setProperty("--hue", hue);  // (the CSSOM: the CSP refuses style attributes)
  return disc;
}

function lastTrick(v) { return v && v.tricks.length ? v.tricks[v.tricks.length - 1] : null; }

function feltView() {
  const st = S.state, tb = st.table, v = st.view, you = st.you, n = tb.seats.length, host = amHost();
  // (waiting: no cards on the felt, the empty seats' buttons have room; see style.css)
  const felt = h("div", {id: "felt", class: tb.status === "playing" ? null : "waiting"});
  const me = you >= 0 ? you : 0;
  const last = lastTrick(v);
  // the previous trick: on request while the next is played (until it is gathered), and alone
  // on the felt between two tricks
  const showLast = v && last && (S.showLastAt === v.tricks_done || v.trick.length === 0);
  for (let i = 0; i < n; i++) {
    // Play passes counter-clockwise (R4): position 1, the next seat, is drawn on your right.
    const s = tb.seats[i], pos = (i - me + n) % n;
    const el = h("div", {class: `seat p${n} pos-${pos}` + (v && v.turn === i ? " turn" : ""), "data-seat": i});
    // the name cut with an ellipsis when long, the badges after it always shown
    el.append(h("span", {class: "name", title: seatName(i)}, s.taken ? avatar(seatName(i)) : null,
      (s.host ? h("span", {class: "star", title: t("host")}, "★ ") : null),
      h("span", {class: "who"}, seatName(i)), isGuest(s) ? guestMark() : null,
      s.away ? h("span", {class: "badge"}, t("away")) : null,
      v && v.dealer === i ? h("span", {class: "badge", title: t("dealer")}, "D") : null,
      v && v.taker === i && v.phase !== "bidding" ? h("span", {class: "badge"}, t("taker")) : null,  // (once the auction is over)
      v && v.taker === i && v.called ? h("span", {class: "badge called-king" + (/[HD]$/.test(v.called) ? " red" : ""),
        title: `${t("called")}${colon()}${cardName(v.called)}`}, cardShort(v.called)) : null,  // the king it called (at five)
      v ? h("span", {class: "badge"}, v.hand_sizes[i]) : null));
    if (!s.taken && tb.status !== "playing") {
      el.append(h("div", {class: "seat-buttons"},
        you < 0 ? h("button", {class: "sit", "data-action": "sit", "data-seat": i}, t("sit")) : null,
        host ? h("small", {class: "seat-caption"}, t("add_robot")) : null,  // what the levels' buttons do
        ...(host ? BOT_LEVELS.map(([kind, cls, level]) => h("button", {class: cls, "data-action": "add-bot", "data-seat": i,
          "data-bot": kind, title: t(level + "_hint")}, t(level))) : [])));
    } else if (s.bot && host && tb.status !== "playing" && !tb.challenge) {
      el.append(h("div", {}, h("button", {"data-action": "remove-bot", "data-seat": i}, "✕")));
    }
    const played = h("div", {class: "played"});
    const said = v && v.phase === "bidding" ? v.bids.filter((b) => b.seat === i).pop() : null;
    if (said) played.append(h("span", {class: "said" + (said.bid === "pass" ? " pass" : "")}, t(said.bid)));  // its last bid, at its seat
    if (v) {
      let card = null;
      if (showLast && last) card = last.cards[(i - last.leader + n) % n];
      else if (v.trick_leader != null) card = v.trick[(i - v.trick_leader + n) % n];
      // the card just played comes in from its seat's side (not again at each redraw)
      const fresh = !showLast && S.lastPlayed === card ? ` fresh from-${pos}` : "";
      if (card) played.append(cardEl(card, (showLast && last && last.winner === i ? "winner" : "") + fresh));
    }
    el.append(played);
    felt.append(el);
  }
  felt.append(centreView(v, showLast ? last : null));
  // Between two deals the result sits over the felt, with the button for the next deal.
  if (st.next_deal && st.last_result) felt.append(resultView(st.last_result, nextDealBox(st)));
  return felt;
}

function centreView(v, last) {
  const center = h("div", {id: "center"});
  if (v && v.chien && (v.phase === "call" || v.phase === "ecart"))  // (at the chelem's question it is put aside)
    center.append(h("div", {class: "chien-shown"}, t("chien"), h("div", {id: "chien"}, sortCards(v.chien).map((c) => cardEl(c, "small")))));
  if (last) center.append(h("div", {}, `${t("last")} → ${seatName(last.winner)}`));
  if (v && v.phase === "play" && v.tricks_done <= 1) {
    // Shown to everyone at the start of the play (R11, R14): the écart's trumps and the poignées.
    if (v.ecart_trumps.length) center.append(h("div", {id: "ecart-trumps"}, t("ecarttrumps"),
      h("div", {}, sortCards(v.ecart_trumps).map((c) => cardEl(c, "small")))));
    for (const [seat, cards] of Object.entries(v.poignees)) {
      center.append(h("div", {class: "poignee-shown", "data-seat": seat}, `${t("poigneeof")} ${seatName(+seat)}`,
        h("div", {}, sortCards(cards).map((c) => cardEl(c, "small")))));
    }
  }
  return center;
}

function nextDealBox(st) {
  // the seated people present who have not asked for the next deal yet
  const nd = st.next_deal, seats = st.table.seats;
  const waiting = seats.map((s, i) => i).filter((i) => seats[i].taken && !seats[i].bot && !seats[i].away && !nd.ready.includes(i));
  return h("div", {class: "next-deal"},
    st.you >= 0 ? h("button", {class: "primary", id: "next-deal", "data-action": "next-deal",
      disabled: nd.ready.includes(st.you)}, t("nextdeal")) : null,
    h("small", {id: "next-deal-in"}, ` ${t("nextdealin")} `, h("span", {id: "next-deal-left"}, secondsLeft(nd.time_left)), " s",
      waiting.length ? ` · ${t("readywait")} ${waiting.map((i) => (i === st.you ? t("you") : seatName(i))).join(", ")}` : ""));
}

function actionsView(v) {
  const box = h("div", {id: "actions"});
  if (votes()) box.append(cancelVoteView());
  if (v.turn !== v.seat) return box;
  const hint = hintView(v);
  if (hint) box.append(hint);
  for (const a of v.legal) {
    if ("bid" in a) box.append(h("button", {class: "bid", "data-action": "bid", "data-bid": a.bid}, t(a.bid)));
    else if ("call" in a) box.append(h("button", {class: "call", "data-action": "call", "data-call": a.call}, t("call"), " ", cardEl(a.call, "small")));
    else if ("chelem" in a) box.append(h("button", {class: "chelem", "data-action": "chelem", "data-chelem": String(a.chelem)},
      a.chelem ? t("chelem") : t("nochelem")));
  }
  const eo = v.ecart_options;
  if (v.phase === "ecart" && eo && v.hand.some((c) => !eo.allowed.includes(c))) box.append(h("small", {class: "reason"}, t("ecartreason")));
  if (v.phase === "ecart" && eo) {
    box.append(h("span", {}, `${t("select")} ${eo.size} ${t("cards")} (${S.selected.size}/${eo.size})` +
      (eo.trumps_needed ? ` · ${eo.trumps_needed} ${t("trumpsneeded")}` : "")),
      h("button", {class: "primary", id: "ecart", "data-action": "ecart", disabled: S.selected.size !== eo.size}, t("ecart")));
  }
  const po = v.poignee_options;
  if (po && v.phase === "play") {
    if (S.poignee) {
      // Choosing the cards to show (R14): any of the allowed trumps, the Excuse only with all of them.
      const count = S.poignee;
      box.append(h("span", {}, `${t("poigneepick")} ${count} (${S.selected.size}/${count})`),
        h("div", {id: "poignee-pick"}, sortCards(po.allowed).map((c) =>
          cardEl(c, "small legal" + (S.selected.has(c) ? " selected" : ""), {"data-action": "toggle"}))),
        h("button", {class: "primary", id: "poignee-show", "data-action": "poignee-show", disabled: S.selected.size !== count}, t("poignee")),
        h("button", {id: "poignee-cancel", "data-action": "poignee-cancel"}, t("cancel")));
    } else {
      for (const [size, count] of Object.entries(po.sizes)) {
        box.append(h("button", {class: "poignee", "data-action": "poignee-start", "data-count": count}, `${t("poignee")} (${t(size)}, ${count})`));
      }
    }
  }
  return box;
}

// Where the écart being chosen is kept for a reload of the page: this table, this deal.
function handView(v) {
  // fanned tighter when long; on a phone the cards overlap in rows of ``--cols`` (style.css)
  const n = v.hand.length;
  const hand = h("div", {id: "hand", class: n > 24 ? "many lots" : n > 18 ? "many" : null});
  hand.style.setProperty("--n", n);  // (the CSSOM: the CSP refuses style attributes)
  // (rows on a phone held upright: two, or three for the taker's 30 cards at three players)
  hand.style.setProperty("--half", n > 26 ? Math.ceil(n / 3) : n > 8 ? Math.ceil(n / 2) : n);
  if (n > 26) hand.classList.add("three-rows");
  const mine = v.turn === v.seat;
  const plays = new Set(mine ? v.legal.filter((a) => "play" in a).map((a) => a.play) : []);
  const eo = mine && v.phase === "ecart" ? v.ecart_options : null;
  const allowed = eo ? new Set(eo.allowed) : null;
  // the chien's cards, marked in the taker's hand while it chooses the écart
  const chien = v.phase === "ecart" && v.chien ? new Set(v.chien) : new Set();
  if (eo) sessionStorage.setItem(ecartKey(), JSON.stringify([...S.selected]));  // the choice survives a reload (table/index.js)
  const hinted = hintedCards();
  for (const c of sortCards(v.hand)) {
    let cls = chien.has(c) ? "from-chien" : "";
    const attrs = chien.has(c) ? {"data-chien": "1"} : {};
    if (eo) {
      if (!allowed.has(c)) { cls += " disabled"; attrs.title = `${cardName(c)} ${t("notallowed")}`; }
      else { cls += " legal" + (S.selected.has(c) ? " selected" : ""); attrs["data-action"] = "toggle"; }
      if (hinted.has(c)) cls += " hinted";
    } else if (plays.size) {
      if (plays.has(c)) { cls += " legal"; attrs["data-action"] = "play"; } else cls += " disabled";
      if (S.armed && S.armed.card === c && S.armed.version === S.version) { cls += " armed"; attrs.title = t("confirm_play"); }
      if (hinted.has(c)) cls += " hinted";
    }
    hand.append(cardEl(c, cls, attrs));
  }
  return hand;
}

function toolsView() {
  const st = S.state, v = st.view, last = lastTrick(v);
  const tools = h("div", {id: "tools"});
  if (v && last && v.trick.length) {
    const on = S.showLastAt === v.tricks_done;
    tools.append(h("button", {id: "last", "data-action": "show-last"}, t(on ? "current" : "last")));
  }
  // at a challenge's table: back to the challenge's page (once the deal is over, its panel says it)
  if (atEvent()) tools.append(h("button", {id: "event-back", "data-action": "event-back"}, t("ev_back")));
  else if (fixed() && st.table.status !== "finished") tools.append(h("button", {id: "challenge-back", "data-action": "challenge-back"}, t("ch_back")));
  else if (!fixed()) tools.append(h("button", {id: "leave", "data-action": "leave"}, t("leave")));
  if (st.table.status === "playing" && st.you >= 0 && !st.cancel && !fixed() && !replayed())
    tools.append(h("button", {id: "propose-cancel", "data-action": "propose-cancel"}, t("cancelgame")));
  const wrap = h("div", {}, tools, inviteView());
  if (st.last_result && S.resultShown && !st.next_deal) wrap.append(resultView(st.last_result));
  return wrap;
}

function hostView() {
  const tb = S.state.table;
  if (!amHost() || tb.status === "playing" || fixed()) return null;
  return h("section", {class: "panel"}, h("h3", {}, t("options")),
    kept("options:" + JSON.stringify(tb.options), () => optionsForm(tb.options, t("save"), "set_options")),
    // (a finished game's rematch is in its end's panel, at the top; a cancelled one's too)
    tb.status === "finished" && !ended() ? h("button", {class: "primary", id: "new-game", "data-action": "new-game"}, t("newgame")) : null);
}
