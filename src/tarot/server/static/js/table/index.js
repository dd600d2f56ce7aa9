// The table area: what its messages do besides the state (table/reduce.js) and what the
// player's clicks at a table send or change. ``init`` gets main.js's redraw.
import {sortCards} from "../cards/cards.js";
import {$, toast} from "../core/dom.js";
import {t} from "../core/i18n.js";
import {seatName} from "../core/names.js";
import {send} from "../core/net.js";
import {S, change} from "../core/store.js";
import {prefs, touchScreen} from "../core/prefs.js";
import {eventForTable} from "../competitions/events.js";
import {announce} from "./announce.js";

let render = () => {};
const CONFIRM_GAP_MS = 300;  // a card lifted by a tap is played by another tap, not by the same one's echo

// A snapshot or an event: the missed ones asked for after a gap; the day of a challenge's table
// and an event's name asked for when the table opens and when its game is over; the écart
// being chosen before a reload put back; the chime when it becomes one's turn; the event said
// for screen readers (announce.js).
function tableMessage(m, before) {
  if (m.table !== S.table) return;
  if (!("version" in before)) {  // not applied: an event after a gap (or before the snapshot)
    if (m.type === "event" && S.version != null && m.version > S.version + 1)
      send({type: "join", table: S.table, since: S.version});
    return;
  }
  const ev = m.type === "event" ? m.event : null;
  if (ev && ev.kind === "action" && ev.by === "timeout") toast(`${t("timeout")} ${seatName(ev.seat)}`);
  if (S.state.table.challenge && (!ev || ev.kind === "game_end")) send({type: "challenge"});
  if (S.state.table.event && (!ev || ev.kind === "game_end")) eventForTable(S.state.table.event.id);
  restoreEcart();
  announce(m, before);
  if (S.wasMyTurn && !before.wasMyTurn && S.sound) chime();
  forcedCard();
}

// A forced card (the only legal move, nothing else to decide) played by itself, if the player
// asked for it (⚙), after a moment to see it go.
function forcedCard() {
  const v = S.state.view, version = S.version;
  if (!prefs().autoplay || !v || v.turn !== v.seat || v.phase !== "play" || v.legal.length !== 1 || v.poignee_options) return;
  const only = v.legal[0].play;
  if (only) setTimeout(() => { if (S.version === version) act({play: only}); }, 600);
}

// where the écart being chosen is kept (a reload keeps it: table.js writes it, restoreEcart reads it)
export const ecartKey = () => "tarot.ecart." + S.table + "." + (S.state.game ? S.state.game.commitment : "");

function restoreEcart() {
  const v = S.state.view;
  if (!v || v.phase !== "ecart" || v.turn !== v.seat || !v.ecart_options || S.selected.size) return;
  const allowed = new Set(v.ecart_options.allowed);
  const cards = JSON.parse(sessionStorage.getItem(ecartKey()) || "[]").filter((c) => allowed.has(c));
  if (cards.length) change("select", {cards});
}

export const effects = {snapshot: tableMessage, event: tableMessage};

// One action per position: a double-click, or a click while the last one travels, sends nothing more.
function act(action) {
  if (S.sentAt === S.version) return;
  change("sent");
  send({type: "act", action});
}

function copyText(text) {
  const done = () => toast(t("copied"));
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, () => {});
  else { $("#invite-link").select(); document.execCommand("copy"); done(); }
}

export function chime() {
  // An optional sound when it becomes your turn (the header's ♪ switch).
  try {
    const ctx = chime.ctx || (chime.ctx = new AudioContext()), osc = ctx.createOscillator(), g = ctx.createGain();
    osc.frequency.value = 660; g.gain.setValueAtTime(0.15, ctx.currentTime);
    g.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.3);
    osc.connect(g).connect(ctx.destination); osc.start(); osc.stop(ctx.currentTime + 0.3);
  } catch (e) { /* no audio here */ }
}

export function init(hooks) {
  render = hooks.render;
  const redrawn = (f) => (el) => { f(el); render(); };
  return {
    "sit": (el) => send({type: "sit", seat: +el.dataset.seat}),
    "add-bot": (el) => send({type: "add_bot", seat: +el.dataset.seat, bot: el.dataset.bot}),
    "remove-bot": (el) => send({type: "remove_bot", seat: +el.dataset.seat}),
    "new-game": () => send({type: "new_game"}),
    "next-deal": () => send({type: "next_deal"}),
    "bid": (el) => act({bid: el.dataset.bid}),
    "hint": redrawn(() => { change("hint_asked"); send({type: "hint"}); }),
    "call": (el) => act({call: el.dataset.call}),
    "chelem": (el) => act({chelem: el.dataset.chelem === "true"}),
    "play": (el) => {
      // on a touch screen, if the player asked for it (⚙): a first tap lifts the card, a second plays it
      const card = el.dataset.card, armed = S.armed && S.armed.card === card && S.armed.version === S.version;
      if (prefs().confirm && touchScreen()) {
        if (!armed) { change("arm", {card, at: performance.now()}); render(); return; }
        // a second click within a moment is the same touch's echo (seen under load), not a second tap
        if (performance.now() - S.armed.at < CONFIRM_GAP_MS) return;
      }
      act({play: card});
    },
    "toggle": redrawn((el) => change("toggle", {card: el.dataset.card})),
    "ecart": () => act({ecart: [...S.selected]}),
    "poignee-start": redrawn((el) => {
      // Start from the lowest trumps (the Excuse only when they fall short); the player edits.
      const count = +el.dataset.count, po = S.state.view.poignee_options;
      const trumps = sortCards(po.allowed.filter((c) => c !== "EX")).reverse();
      change("poignee_start", {cards: trumps.length >= count ? trumps.slice(0, count) : [...trumps, "EX"], count});
    }),
    "poignee-show": () => { const cards = [...S.selected]; change("poignee_end"); act({poignee: cards}); },
    "poignee-cancel": redrawn(() => change("poignee_end")),
    "show-last": redrawn(() => change("show_last")),
    "close-result": redrawn(() => change("close_result")),
    "copy-invite": () => copyText($("#invite-link").value),
    "propose-cancel": () => { if (confirm(t("cancelconfirm"))) send({type: "cancel_game"}); },
    "cancel-vote": (el) => send({type: "cancel_vote", accept: el.dataset.accept === "1"}),
    "leave": () => {
      if (S.state.table.challenge) { location.hash = "#/challenge"; return; }  // (its seat is never given up)
      if (S.state.table.event) { location.hash = "#/e/" + S.state.table.event.id; return; }  // (nor an event's)
      if (S.state.you >= 0 && S.state.table.status === "playing" && !confirm(t("leaveconfirm"))) return;
      send({type: "leave"}); location.hash = "#/";
    },
  };
}
