// The score sheet area (issue 33): the page #/sheet for games played with real cards. The page
// itself (scoresheet.js; the sheet in its link: codec.js) is loaded when first shown (a lighter
// first visit); here what the rest of the site needs of it: the route, the lobby's panel, the
// header's link, and its actions, which wait for the page. No server message of its own.
import {h} from "../core/dom.js";
import {t} from "../core/i18n.js";

const ROUTE = /^#\/sheet(?:\/([\w-]*))?\/?$/;
const ACTIONS = ["sheet-add", "sheet-edit-last", "sheet-delete-last", "sheet-share", "sheet-print", "sheet-new"];
let page = null, actions = {}, loading = null, hooks = {render: () => {}};

function load() {
  loading = loading || import("./scoresheet.js").then((m) => {
    actions = m.initSheet(hooks); page = m; hooks.render();
    return m;
  }, (e) => { loading = null; throw e; });
  return loading;
}

export const effects = {};

export function init(given) {
  hooks = given;
  if (ROUTE.test(location.hash)) load();  // (main.js routes once the server has said welcome)
  return Object.fromEntries(ACTIONS.map((name) => [name, (el) => load().then(() => actions[name](el))]));
}

// From main.js's route(): true when ``hash`` is the sheet's page (loaded if it is not yet).
export function routeSheet(hash) {
  if (page) return page.routeSheet(hash);
  if (!ROUTE.test(hash)) return false;
  load();
  return true;
}

// For main.js's draw(): null unless #/sheet is shown, else its key and nodes (empty while loading).
export function sheetView() {
  if (page) return page.sheetView();
  return ROUTE.test(location.hash) ? {key: "sheet-loading", nodes: () => []} : null;
}

export function sheetPanel() {
  return h("section", {class: "panel sh-offer", id: "sheet-offer"},
    h("div", {}, h("h2", {}, t("sh_title")), h("p", {}, t("sh_offer"))),
    h("a", {href: "#/sheet", class: "linkbutton primary", id: "sheet-open"}, t("sh_open")));
}

// For main.js's render(): the header's link to the page (after the ranking's), in the page's language.
export function sheetLink() {
  let a = document.getElementById("sheet-link");
  if (!a) {
    a = h("a", {href: "#/sheet", id: "sheet-link"});
    const ranking = document.getElementById("ranking-link");
    if (ranking) ranking.after(a); else document.querySelector("header")?.append(a);
  }
  a.textContent = t("sh_link");
}
