// The forms: the name, a table's options (each kept across re-renders, core/kept.js).
import {h} from "../core/dom.js";
import {t} from "../core/i18n.js";
import {send} from "../core/net.js";
import {kept} from "../core/kept.js";
import {S, change} from "../core/store.js";

export function nameForm() {
  const input = h("input", {id: "name", maxlength: 24, required: true, autofocus: true});
  const err = h("p", {class: "form-error", id: "name-error", role: "alert", hidden: true});
  return h("form", {class: "panel", onsubmit: (e) => {
    e.preventDefault();
    if (!input.value.trim()) return;
    err.hidden = true;
    enter(input.value.trim());
  }}, h("label", {for: "name"}, t("name") + " "), input, " ", h("button", {class: "primary", id: "enter"}, t("go")), err);
}

// The hello as a guest named ``name`` (the name form's, play-now's on a first visit), kept for
// the next visit.
export function enter(name) {
  change("named", {name});
  localStorage.setItem("tarot.name", S.name);
  send({type: "hello", name: S.name, token: S.token});
}

// A name the server refused (bad_name, name_taken): said under the field, where the player looks
// (a toast would cover the field on a phone), the field selected to type another. False when the
// form is not on the page (another page is open): the caller says it otherwise.
export function nameRefused(text) {
  const form = kept("name", nameForm), err = form.querySelector("#name-error"), input = form.querySelector("#name");
  err.textContent = text; err.hidden = false;
  if (!form.isConnected) return false;
  input.focus(); input.select();
  return true;
}

// ``type``: the message the form sends with its options (create_table, set_options).
export function optionsForm(opts, label, type) {
  const f = h("form", {class: "grid", id: "options"});
  // each field named by its label (for, id: the lobby's form and the table's have their own ids)
  const id = (name) => `${name}-${type}`, labelFor = (name, text) => h("label", {for: id(name)}, text);
  const sel = h("select", {name: "players", id: id("players")}, [3, 4, 5].map((n) => h("option", {value: n, selected: n === opts.players}, n)));
  f.append(labelFor("players", t("players")), sel,
    labelFor("deals", t("deals")), h("input", {name: "deals", id: id("deals"), type: "number", min: 1, max: 40, value: opts.deals}),
    // the clock: 0 (none) or 5 to 600 seconds; other values are refused with the range, not changed
    labelFor("move_time", t("movetime")), h("input", {name: "move_time", id: id("move_time"), type: "number", min: 0, max: 600, value: opts.move_time || 0,
      oninput: (e) => { const x = +e.target.value; e.target.setCustomValidity(x > 0 && x < 5 ? t("movetimerange") : ""); }}),
    labelFor("private", t("private")), h("input", {name: "private", id: id("private"), type: "checkbox", checked: !!opts.private}),
    labelFor("spectators", t("spectators")), h("input", {name: "spectators", id: id("spectators"), type: "checkbox", checked: opts.spectators !== false}));
  // competitive (ratings, chips, XP) or practice; only a signed-in player may choose competitive
  const account = !!(S.me && S.me.account);
  const stake = h("input", {name: "stake", id: id("stake"), type: "number", min: 0, max: 100000, value: opts.stake || 0, disabled: !opts.competitive});
  f.append(h("label", {for: "competitive-" + type}, t("competitive")),
    h("span", {}, h("input", {name: "competitive", id: "competitive-" + type, type: "checkbox", checked: !!opts.competitive,
      disabled: !account, onchange: (e) => { stake.disabled = !e.target.checked; }}),
    account ? null : h("small", {class: "hint"}, " " + t("competitive_signin"))),
    labelFor("stake", t("stake")), stake,
    h("label", {for: "spectator-chat-" + type}, t("spectator_chat")),
    h("input", {name: "spectator_chat", id: "spectator-chat-" + type, type: "checkbox", checked: opts.spectator_chat === "spectators"}),
    h("button", {class: "primary", id: "submit-options"}, label));
  f.addEventListener("submit", (e) => {
    e.preventDefault();
    const mt = +f.move_time.value;
    send({type, options: {players: +f.players.value, deals: +f.deals.value, move_time: mt > 0 ? mt : null,
      private: f.private.checked, spectators: f.spectators.checked,
      competitive: f.competitive.checked, stake: f.competitive.checked ? +f.stake.value : 0,
      spectator_chat: f.spectator_chat.checked ? "spectators" : "all"}});
  });
  return f;
}
