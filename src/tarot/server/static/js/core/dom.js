// Building elements, and the toast.
export const $ = (sel) => document.querySelector(sel);

// h("button", {class: "x", "data-action": "sit", "data-seat": 2}, "Sit"): attributes as given;
// ``on…`` attributes only for events other than clicks (clicks go through the one delegated
// listener of main.js, by ``data-action``).
export const h = (tag, attrs = {}, ...kids) => build(document.createElement(tag), attrs, kids);

// s("path", {d: "…"}): the same for SVG elements (the card faces).
const SVG_NS = "http://www.w3.org/2000/svg";
export const s = (tag, attrs = {}, ...kids) => build(document.createElementNS(SVG_NS, tag), attrs, kids);

function build(el, attrs, kids) {
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (v === true) el.setAttribute(k, "");
    else if (v !== false && v != null) el.setAttribute(k, v);
  }
  for (const kid of kids.flat()) if (kid != null) el.append(kid.nodeType ? kid : String(kid));
  return el;
}

export function toast(text) {
  const el = $("#toast");
  el.textContent = text; el.style.display = "block";
  clearTimeout(toast.timer); toast.timer = setTimeout(() => (el.style.display = "none"), 4000);
}

