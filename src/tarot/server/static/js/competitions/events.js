// Duplicate events at tables (docs/duplicate.md, "Events at tables"; the API: docs/api.md,
// "Duplicate events"). Here: the lobby's "Events" panel (the events to come, under way and just
// over, and for an account the form that creates one), the data and actions of an event's page
// #/e/<id> (drawn by eventpage.js: register, invite, start, its results refreshed while it
// lasts), the websocket's ``event_start`` (to one's table), and at an event's table its heading
// and, once its game is over, the way to the results. Refusals are said from their ``code``.
import {h, toast} from "../core/dom.js";
import {fill, lang, t, texts} from "../core/i18n.js";
import {forget, kept} from "../core/kept.js";
import {S, change} from "../core/store.js";
import {api} from "../players/account.js";
import {eventFacts, eventPage, statusBadge} from "./eventpage.js";

const REFRESH_MS = 10_000;  // an event's page while it takes registrations or is played
const listing = {status: "idle", events: [], total: 0, more: false};  // GET /api/events (its pages so far), for the lobby
let page = null;  // the page shown: {id, status: loading|ok|none|error, data, msg: {[box]: [kind, text]}, busy}
const known = new Map();  // event id → its page's last data (an event's table names the event)
let hooks = {render: () => {}};

const account = () => !!(S.me && S.me.account);
// A refusal in the player's language from its code (docs/api.md), else a generic text.
const refusal = (r) => (r.data && r.data.code && texts()["ev_err_" + r.data.code]) || t("acc_err_generic");

export const eventsEffects = {
  event_start(m) { toast(t("ev_started")); location.hash = "#/t/" + m.table; },  // one's seat for the whole event
};

export function initEvents(given) {
  hooks = given;
  return {
    "event-register": () => write("POST", "registration", "you"),
    "event-unregister": () => write("DELETE", "registration", "you"),
    "event-start": () => {
      const n = page && page.data ? page.data.registered.length : 0;
      if (confirm(fill("ev_start_confirm", {n}))) write("POST", "start", "start");
    },
    "event-back": () => { location.hash = "#/e/" + S.state.table.event.id; },  // never ``leave``: the seat stays
    "events-more": () => loadEvents(listing.events.length),
  };
}

// --- the lobby's panel ---------------------------------------------------------------------------

// The first page (the list as it is now), or the next one after the ``offset`` events shown
// (then the list is no longer refreshed: that would take the pages shown away).
export async function loadEvents(offset = 0) {
  if (listing.status === "idle") listing.status = "loading";
  const r = await api("GET", "/api/events?offset=" + offset);
  Object.assign(listing, r.ok ? {status: "ok", events: listing.events.slice(0, offset).concat(r.data.events),
    total: r.data.total, more: offset > 0} : {status: "error"});
  hooks.render();
}

export function eventsPanel() {
  let body;
  if (listing.status !== "ok") body = h("p", {class: listing.status === "error" ? "form-error" : "note"},
    listing.status === "error" ? t("acc_err_generic") : "…");
  else if (!listing.events.length) body = h("p", {class: "note", id: "ev-none"}, t("ev_none"));
  else body = [h("ul", {class: "ev-list"}, listing.events.map((e) => h("li", {"data-event": e.id},
    h("div", {class: "ev-line"}, h("a", {href: "#/e/" + e.id, class: "ev-name"}, e.name), statusBadge(e)),
    h("div", {class: "note"}, eventFacts(e))))),
    listing.total > listing.events.length ? h("p", {class: "more"}, h("button", {type: "button", id: "ev-more",
      "data-action": "events-more"}, fill("lobby_more", {n: listing.total - listing.events.length}))) : null];
  return h("section", {class: "panel", id: "events"}, h("h2", {}, t("ev_title")), h("p", {class: "note"}, t("ev_intro")), body,
    account() ? h("details", {id: "ev-create-box", class: "ev-create", open: S.open.has("ev-create-box")},
      h("summary", {}, t("ev_create")), kept("event-create", createForm))
      : h("p", {class: "note", id: "ev-guest"}, t("ev_guest"), " ",
        h("button", {type: "button", class: "link", "data-action": "sign-in"}, t("acc_signin"))));
}

// "YYYY-MM-DDTHH:MM" in the browser's time, and back to ISO 8601 with the browser's offset
const pad = (x) => String(x).padStart(2, "0");
const localInput = (d) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
function isoWithOffset(value) {
  const off = -new Date(value).getTimezoneOffset(), a = Math.abs(off);
  return `${value.length === 16 ? value + ":00" : value}${off < 0 ? "-" : "+"}${pad(Math.floor(a / 60))}:${pad(a % 60)}`;
}

function createForm() {
  const soon = new Date(Date.now() + 3600_000);
  soon.setMinutes(Math.ceil(soon.getMinutes() / 5) * 5, 0, 0);  // in an hour, on a round minute
  const field = (id, label, input) => [h("label", {for: id}, label), input];
  const name = h("input", {id: "ev-name", name: "ev_name", required: true, maxlength: 80, autocomplete: "off"});
  const players = h("select", {id: "ev-players", name: "ev_players"}, [3, 4, 5].map((n) => h("option", {value: n, selected: n === 4}, n)));
  const deals = h("input", {id: "ev-deals", name: "ev_deals", type: "number", min: 1, max: 24, value: 8, required: true});
  const starts = h("input", {id: "ev-starts", name: "ev_starts", type: "datetime-local", required: true,
    value: localInput(soon), min: localInput(new Date())});
  const access = h("select", {id: "ev-access", name: "ev_access"},
    h("option", {value: "open"}, t("ev_access_open")), h("option", {value: "invite"}, t("ev_access_invite")));
  const bots = h("input", {id: "ev-bots", name: "ev_bots", type: "checkbox", checked: true});
  const imposed = h("input", {id: "ev-imposed", name: "ev_imposed", type: "checkbox"});
  const err = h("p", {class: "form-error", id: "ev-create-error", role: "alert", hidden: true});
  const button = h("button", {class: "primary", id: "ev-create-submit"}, t("ev_create_go"));
  const form = h("form", {class: "grid ev-form", id: "ev-create"},
    ...field("ev-name", t("ev_name"), name), ...field("ev-players", t("ev_players"), players),
    ...field("ev-deals", t("deals"), deals), ...field("ev-starts", t("ev_starts"), starts),
    ...field("ev-access", t("ev_access"), access),
    h("label", {for: "ev-bots"}, t("ev_bots")), h("span", {}, bots, " ", h("small", {class: "hint"}, t("ev_bots_hint"))),
    h("label", {for: "ev-imposed"}, t("ev_imposed")),
    h("span", {}, imposed, " ", h("small", {class: "hint"}, t("ev_imposed_hint"))),
    err, h("span"), button);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    err.hidden = true; button.disabled = true;
    const r = await api("POST", "/api/events", {name: name.value, players: +players.value, deals: +deals.value,
      starts: isoWithOffset(starts.value), access: access.value, bots: bots.checked, imposed_taker: imposed.checked});
    button.disabled = false;
    if (!r.ok) { err.textContent = refusal(r); err.hidden = false; return; }
    forget("event-create");  // a new form next time
    change("details", {id: "ev-create-box", open: false});
    location.hash = "#/e/" + r.data.id;
  });
  return form;
}

// --- an event's page -----------------------------------------------------------------------------

// From main.js's route(): true when ``hash`` is an event's page (its data is then fetched).
export function routeEvent(hash) {
  const m = hash.match(/^#\/e\/(\d+)\/?$/);
  if (!m) { page = null; return false; }
  if (!page || page.id !== +m[1]) page = {id: +m[1], status: "loading", data: null, msg: {}, busy: false};
  load(page);
  return true;
}

async function load(pg) {
  const r = await api("GET", `/api/events/${pg.id}`);
  if (page !== pg) return;  // another page since
  if (r.ok) { pg.status = "ok"; pg.data = r.data; known.set(pg.id, r.data); }
  else if (!pg.data) pg.status = r.status === 404 || r.status === 422 ? "none" : "error";
  hooks.render();
}

// Register, unregister, start: the answer is the page again (or, for the start, asked again).
async function write(method, path, box) {
  const pg = page;
  if (!pg || pg.busy) return;
  pg.busy = true; pg.msg = {}; hooks.render();
  const r = await api(method, `/api/events/${pg.id}/${path}`);
  pg.busy = false;
  if (!r.ok) pg.msg = {[box]: ["error", refusal(r)]};
  else if (r.data && r.data.id) { pg.data = r.data; known.set(pg.id, pg.data); }
  if (page !== pg) return;
  if (path === "start" || !r.ok) load(pg); else hooks.render();
}

function inviteForm(id) {
  const names = h("input", {id: "ev-invite-names", autocomplete: "off", placeholder: t("ev_invite_placeholder")});
  const form = h("form", {class: "ev-invite", id: "ev-invite"}, h("label", {for: "ev-invite-names"}, t("ev_invite_label")),
    h("div", {class: "ev-invite-row"}, names, h("button", {id: "ev-invite-submit"}, t("ev_invite_go"))));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const list = names.value.split(",").map((x) => x.trim()).filter(Boolean);
    if (!list.length || !page) return;
    const r = await api("POST", `/api/events/${id}/invitations`, {names: list});
    if (!page || page.id !== id) return;
    if (!r.ok) page.msg = {invite: ["error", refusal(r)]};
    else {
      const sent = list.length - r.data.unknown.length;
      page.msg = {invite: r.data.unknown.length ? ["error", fill("ev_unknown", {names: r.data.unknown.join(", ")})
        + (sent ? ` ${fill("ev_invited", {n: sent})}` : "")] : ["ok", fill("ev_invited", {n: sent})]};
      names.value = r.data.unknown.join(", ");  // what is left to correct
    }
    hooks.render();
  });
  return form;
}

// For main.js's draw(): null unless an event's page is shown, else its key and nodes.
export function eventView() {
  if (!page) return null;
  const key = "event|" + JSON.stringify([lang(), page.id, page.status, page.data, page.msg, page.busy,
    S.me && [S.me.id, S.me.account]]);
  return {key, nodes: () => [h("div", {class: "narrow", id: "event-page"},
    ...eventPage(page, account(), () => kept("event-invite:" + page.id, () => inviteForm(page.id))))]};
}

// The page again every 10 s while the event takes registrations or is played, or while its first
// load failed (a 429 from the API's read limit lasts 10 s) (not while hidden).
setInterval(() => {
  const st = page && (page.data ? page.data.status : page.status);
  if (!document.hidden && location.hash.startsWith("#/e/") && ["registering", "playing", "error"].includes(st) && !page.busy) load(page);
}, REFRESH_MS);

// The lobby's list again every 30 s while the lobby is shown (events open, start and end), or
// after a load that failed.
setInterval(() => {
  if (!document.hidden && !S.table && ["ok", "error"].includes(listing.status) && !listing.more
      && /^(#\/?)?$/.test(location.hash)) loadEvents();
}, 30_000);

// --- at an event's table ---------------------------------------------------------------------------

// The event a table belongs to: its page's data (its name; whether it is over), asked for when the
// table opens and when its game ends.
export async function eventForTable(id) {
  const r = await api("GET", `/api/events/${id}`);
  if (r.ok) { known.set(id, r.data); hooks.render(); }
}

export const eventKey = (ev) => JSON.stringify(known.has(ev.id) && [known.get(ev.id).name, known.get(ev.id).status]);

// The table's heading, in its info bar: "Event — table N", and the event's name to its page.
export function eventTitle(ev) {
  const d = known.get(ev.id);
  return h("div", {id: "event-title", class: "ev-title"}, h("h2", {}, fill("ev_heading", {n: ev.table})),
    h("a", {href: "#/e/" + ev.id, id: "event-link"}, d ? d.name : t("ev_page"), " ›"));
}

// Once the table's game is over: the way to the event's results (the other tables may still play).
export function eventEnd() {
  const st = S.state, ev = st.table.event;
  if (!ev || st.table.status !== "finished") return null;
  const d = known.get(ev.id), over = d && d.status === "finished";
  return h("section", {class: "panel ev-end", id: "event-over"},
    h("p", {}, h("b", {}, t("ev_table_done")), " ", t(over ? "ev_over" : "ev_others_playing")),
    h("a", {href: "#/e/" + ev.id, class: "linkbutton primary", id: "event-results"}, t("ev_results")));
}
