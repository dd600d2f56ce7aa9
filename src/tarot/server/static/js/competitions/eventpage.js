// An event's page #/e/<id> (competitions/events.js fetches it and does its actions): its details, what the
// viewer may do (register, invite, start it, go to its table), the players (their tables once it
// started, ranks once over), the live ranking and each deal's tables side by side (shown once every
// table has played that deal), and once it is over the secret that dealt every deal.
import {h} from "../core/dom.js";
import {colon, fill, lang, plural, t} from "../core/i18n.js";
import {S} from "../core/store.js";
import {profileHash} from "../players/account.js";

const pct = (x) => (x == null ? "–" : Number(x / 100).toLocaleString(lang(), {style: "percent", maximumFractionDigits: 2}));
const score = (x) => Number(x).toLocaleString(lang(), {signDisplay: "exceptZero"}).replace("-", "\u2212");
const panel = (attrs, ...kids) => h("section", {class: "panel", ...attrs}, ...kids);
const count = (n, one, many) => fill(plural(n) ? many : one, {n});
const botName = (seat) => `${t("botname_heuristic")} ${seat + 1}`;
const player = (name) => h("a", {href: profileHash(name)}, name);

export function whenText(epoch) {
  const d = new Date(epoch * 1000), thisYear = d.getFullYear() === new Date().getFullYear();
  return d.toLocaleString(lang(), {weekday: "short", day: "numeric", month: "short", ...(thisYear ? {} : {year: "numeric"}),
    hour: "2-digit", minute: "2-digit"});
}

// (an event by invitation is not open to all while it takes registrations: its badge says so)
export function statusBadge(e) {
  const said = e.status === "registering" && e.access === "invite" ? "registering_invite" : e.status;
  return h("span", {class: "ev-status " + e.status, "data-status": e.status}, t("ev_status_" + said));
}

// The lobby's line: "Tue 3 Dec, 20:00 · by Anne · 4 per table · 8 deals · 5 registered · open to all"
// (each fact unbroken, "8 donnes" never "8 / donnes" on two lines: the lines break between them)
export function eventFacts(e) {
  const facts = [fill("ev_by", {name: e.organiser}), fill("ev_per_table", {n: e.players}),
    count(e.deals, "ev_deals_1", "ev_deals_n"), count(e.registered.length, "ev_registered_1", "ev_registered_n"),
    t("ev_access_" + e.access), ...(e.imposed_taker ? [t("ev_imposed_on")] : [])];
  return [h("b", {class: "ev-when"}, whenText(e.starts)), ...facts.flatMap((f) => [" · ", h("span", {class: "ev-fact"}, f)])];
}

export function eventPage(pg, signedIn, inviteForm) {
  if (pg.status === "loading") return [panel({}, h("p", {class: "note"}, "…"))];
  if (pg.status === "none") return [panel({id: "ev-missing"}, backLink(), h("h2", {}, t("ev_err_no_event")))];
  if (pg.status === "error") return [panel({}, h("p", {class: "form-error"}, t("acc_err_generic")))];
  const e = pg.data, started = e.status === "playing" || e.status === "finished";
  return [head(e), youPanel(pg, signedIn, inviteForm), playersPanel(e),
    started ? rankingPanel(e) : null, started ? dealsPanel(e) : null, fairnessPanel(e)].filter(Boolean);
}

// "← Lobby", over an event's page (and over the page of an event that does not exist)
const backLink = () => h("p", {class: "ev-back"}, h("a", {href: "#/"}, "← ", t("ev_to_lobby")));

function head(e) {
  const fact = (label, value) => h("div", {}, h("dt", {}, label), h("dd", {}, value));
  return panel({id: "ev-head"}, backLink(),
    h("h2", {}, h("span", {id: "ev-title"}, e.name), " ", statusBadge(e)),
    h("dl", {class: "ev-facts"}, fact(t("ev_organiser"), player(e.organiser)), fact(t("ev_starts"), whenText(e.starts)),
      fact(t("ev_players"), e.players), fact(t("deals"), e.deals), fact(t("ev_access"), t("ev_access_" + e.access)),
      fact(t("ev_robots"), t(e.bots ? "ev_yes" : "ev_no")), fact(t("ev_imposed"), t(e.imposed_taker ? "ev_yes" : "ev_no"))),
    h("p", {class: "note"}, fill(e.bots ? "ev_how_bots" : "ev_how_nobots", {n: e.players})));
}

function message(pg, box) {
  const m = pg.msg[box];
  return m ? h("p", {class: m[0] === "error" ? "form-error" : "ev-ok", id: "ev-msg-" + box, role: "alert"}, m[1]) : null;
}

function youPanel(pg, signedIn, inviteForm) {
  const e = pg.data, you = e.you, box = panel({id: "ev-you"});
  const button = (id, action, label, primary) => h("button", {id, class: primary ? "primary" : null, "data-action": action,
    disabled: pg.busy}, label);
  if (e.status === "cancelled") box.append(message(pg, "start") || h("p", {}, t("ev_cancelled_note")));
  else if (e.status === "registering") {
    if (!signedIn) box.append(h("p", {class: "note", id: "ev-guest"}, t("ev_guest"), " ",
      h("button", {type: "button", class: "link", "data-action": "sign-in"}, t("acc_signin"))));
    else if (you && you.registered) box.append(h("div", {class: "ev-row"}, h("p", {id: "ev-registered"}, "✓ ", t("ev_you_registered")),
      button("ev-unregister", "event-unregister", t("ev_unregister"))));
    else if (e.access === "invite" && !(you && you.invited)) box.append(h("p", {class: "note", id: "ev-not-invited"}, t("ev_err_not_invited")));
    else box.append(h("div", {class: "ev-row"}, h("p", {}, t("ev_register_note")), button("ev-register", "event-register", t("ev_register"), true)));
    const said = message(pg, "you");
    if (said) box.append(said);
    if (you && you.organiser) {
      box.append(h("div", {class: "ev-organiser"}, h("h3", {}, t("ev_organising")),
        h("div", {class: "ev-row"}, h("p", {class: "note"}, t("ev_start_note")), button("ev-start", "event-start", t("ev_start"), true)),
        message(pg, "start"), e.access === "invite" ? [inviteForm(), message(pg, "invite")] : null));
    }
  } else if (you && you.table && e.status === "finished") {
    box.append(h("p", {id: "ev-seat"}, fill("ev_your_seat_was", {table: you.table_no, seat: you.seat + 1})));
  } else if (you && you.table) {
    box.append(h("div", {class: "ev-row"}, h("p", {id: "ev-seat"}, fill("ev_your_seat", {table: you.table_no, seat: you.seat + 1})),
      h("a", {href: "#/t/" + you.table, class: "linkbutton primary", id: "ev-go"}, t("ev_go"))));
  }
  const mine = e.status === "finished" && S.me && e.players_list.find((p) => p.name === S.me.name && p.rank != null);
  if (mine) box.append(h("p", {id: "ev-your-rank"}, h("b", {}, fill("ev_your_rank", {rank: mine.rank, n: e.ranking.length})),
    " · ", pct(mine.percentage)));
  if (e.status === "playing" && !(you && you.table)) box.append(h("p", {class: "note"}, t("ev_under_way")));
  return box.childNodes.length ? box : null;
}

function playersPanel(e) {
  const started = e.players_list.some((p) => p.table != null), over = e.status === "finished";
  const list = over ? [...e.players_list].sort((a, b) => (a.rank ?? 1e9) - (b.rank ?? 1e9)) : e.players_list;
  const mine = S.me && S.me.name;
  return panel({id: "ev-players"}, h("h3", {}, `${t("ev_players_title")} (${e.players_list.length})`),
    !list.length ? h("p", {class: "note"}, t("ev_nobody")) : h("div", {class: "sheet-wrap"}, h("table", {class: "tables ranking"},
      h("thead", {}, h("tr", {}, over ? h("th", {class: "num"}, "#") : null, h("th", {}, t("acc_player")),
        started ? [h("th", {class: "num"}, t("ev_table")), h("th", {class: "num"}, t("ev_seat"))] : null,
        over ? h("th", {class: "num"}, "%") : null)),
      h("tbody", {}, list.map((p) => h("tr", {class: p.name === mine ? "me" : false}, over ? h("td", {class: "num rank"}, p.rank ?? "–") : null,
        h("td", {class: "who"}, player(p.name)),
        started ? [h("td", {class: "num"}, p.table ?? "–"), h("td", {class: "num"}, p.seat == null ? "–" : p.seat + 1)] : null,
        over ? h("td", {class: "num"}, pct(p.percentage)) : null))))));
}

function rankingPanel(e) {
  const mine = S.me && S.me.id;
  return panel({id: "ev-ranking"}, h("h3", {}, t(e.status === "finished" ? "ev_ranking_final" : "ev_ranking_live")),
    !e.ranking.length ? h("p", {class: "note", id: "ev-no-ranking"}, t("ev_no_ranking")) : h("div", {class: "sheet-wrap"},
      h("table", {class: "tables ranking ev-ranking"},
        h("thead", {}, h("tr", {}, h("th", {class: "num"}, "#"), h("th", {}, t("acc_player")), h("th", {class: "num"}, "%"),
          h("th", {class: "num"}, t("deals")), h("th", {class: "num"}, t("ch_attack")))),
        h("tbody", {}, e.ranking.map((r) => h("tr", {class: r.player === mine ? "me" : false},
          h("td", {class: "num rank"}, r.rank), h("td", {class: "who"}, player(r.name)), h("td", {class: "num"}, pct(r.percentage)),
          h("td", {class: "num"}, r.deals), h("td", {class: "num ev-attack"}, r.attack || "–")))))),  // (none: a dash, not "0")
    h("p", {class: "note"}, t("ev_ranking_note")));
}

function markEl(mark) {
  const bar = h("span");
  bar.style.width = `${Math.max(0, Math.min(100, mark))}%`;  // (CSSOM: the CSP allows no style attribute)
  return h("span", {class: "ch-mark"}, h("span", {class: "ch-bar", "aria-hidden": "true"}, bar), h("b", {}, pct(mark)));
}

function tableResult(tb) {
  const name = (i) => tb.names[i] || botName(i);
  const passed = tb.contract === "pass" || tb.taker == null;
  return h("div", {class: "ev-table", "data-table": tb.table},
    h("div", {class: "ev-table-head"}, h("b", {}, fill("ev_table_n", {n: tb.table})),
      tb.game != null ? [h("a", {href: `#/g/${tb.game}`, class: "ev-replay"}, "▶ ", t("ch_replay")), " ",
        h("a", {href: `#/g/${tb.game}/1/0/review`, class: "review-link"}, t("rv_link"))] : null),
    h("p", {class: "ev-contract"}, passed ? t("ch_allpassed") : [h("b", {}, t(tb.contract)), " · ", fill("ev_taken_by", {name: name(tb.taker)})]),
    h("table", {class: "tables ev-seats"}, h("tbody", {}, tb.names.map((_, i) => h("tr", {class: tb.sides[i]},
      h("td", {class: "who"}, name(i), i === tb.taker ? h("small", {class: "ev-role"}, ` ${t("taker")}`) : null,
        i === tb.partner && i !== tb.taker ? h("small", {class: "ev-role"}, ` ${t("ev_partner")}`) : null),
      h("td", {class: "num"}, score(tb.scores[i])), h("td", {class: "num"}, markEl(tb.marks[i])))))));
}

function dealsPanel(e) {
  return panel({id: "ev-deals"}, h("h3", {}, `${t("deals")} (${e.results.length}/${e.deals})`),
    h("p", {class: "note"}, t("ev_deals_note")),
    e.results.map((d) => h("div", {class: "ev-deal", "data-deal": d.deal}, h("h4", {}, fill("ch_deal", {k: d.deal})),
      h("div", {class: "ev-tables"}, d.tables.map(tableResult)))));
}

// Each deal's commitment, published before the event; the secret that dealt them once it is over.
function fairnessPanel(e) {
  return panel({id: "ev-secret"}, h("h3", {}, t("fairness")), h("p", {class: "note"}, t("ev_commitments_note")),
    h("ol", {id: "ev-commitments", class: "mono"}, (e.commitments || []).map((c) =>
      h("li", {title: c}, c.slice(0, 16) + "…"))),
    e.secret ? h("p", {class: "note"}, t("ev_secret_note")) : null,
    e.secret ? h("p", {}, `${t("ev_secret")}${colon()}`, h("code", {class: "mono", id: "ev-secret-value"}, e.secret)) : null);
}
