// The display options' dialog (the header's ⚙): each change applied and kept at once (core/prefs.js:
// classes of the page's root, nothing to draw again).
import {$, h} from "../core/dom.js";
import {t} from "../core/i18n.js";
import {prefs, setPrefs} from "../core/prefs.js";

export function openPrefs() {
  const p = prefs(), d = $("#prefs-dialog");
  const sizes = ["small", "normal", "large"].map((size) => h("label", {class: "pref-choice"},
    h("input", {type: "radio", name: "pref-size", value: size, checked: p.size === size,
      onchange: () => setPrefs({size})}), " ", t("pref_size_" + size)));
  const check = (key, label, note) => h("label", {class: "pref-check"},
    h("input", {type: "checkbox", id: "pref-" + key, checked: !!p[key], onchange: (e) => setPrefs({[key]: e.target.checked})}),
    h("span", {}, t(label), note ? h("small", {class: "note"}, t(note)) : null));
  d.replaceChildren(h("h2", {id: "prefs-title"}, t("prefs_title")),
    h("fieldset", {}, h("legend", {}, t("pref_size")), h("div", {class: "pref-choices"}, sizes)),
    check("fourColour", "pref_four_colour", "pref_four_colour_note"),
    check("confirm", "pref_confirm", "pref_confirm_note"),
    check("autoplay", "pref_autoplay", null),
    h("div", {class: "dialog-close"}, h("button", {class: "primary", id: "prefs-close", "data-action": "prefs-close"}, t("close"))));
  if (!d.open) d.showModal();
}
