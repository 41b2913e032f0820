// The page scripts' helpers, each written once and imported by every module
// that needs it: `el` (an element from attributes, text and children, never
// HTML), `button`, `plural`, and `tableSettings()`, table-settings.json
// fetched once for all of them. tracker-kit.js and tracker-shell.js export
// `el` and `button` again for the modules that import them from there.

import { siteBase } from "./offline.js";

/** el's attributes, `class` and `text` included: each written as text (a number too); true, an
 * attribute without a value; false, null or undefined, left out.
 * @typedef {Record<string, string | number | boolean | null | undefined>} Props */

/** An element with attributes, `class`, `text` (as textContent) and children; never HTML.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag @param {Props} [props] @param {...(Node | string | null | undefined)} children
 * @returns {HTMLElementTagNameMap[K]} */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value == null || value === false) continue;
    // what is left, a string, a number or true, the DOM writes as text
    if (key === "class") node.className = /** @type {string} */ (value);
    else if (key === "text") node.textContent = /** @type {string} */ (value);
    else node.setAttribute(key, /** @type {string} */ (value === true ? "" : value));
  }
  node.append(.../** @type {(Node | string)[]} */ (children.filter((c) => c != null)));
  return node;
}

/** A button (Material's md-button unless `props` gives a class) that calls `onClick`; `props` as el's.
 * @param {string} text @param {((event: MouseEvent) => unknown) | null} onClick @param {Props} [props] */
export function button(text, onClick, props = {}) {
  const b = el("button", { type: "button", class: "md-button", ...props, text });
  if (onClick) b.addEventListener("click", onClick);
  return b;
}

/** "1 week", "3 weeks", "2 older entries": a count and its word.
 * @param {number} n @param {string} one @param {string} [many] */
export function plural(n, one, many = one + "s") {
  return `${n} ${n === 1 ? one : many}`;
}

/** @type {Promise<import("./table.js").TableSpec | null> | null} */
let settings = null;

/** table-settings.json (the games' names, their settings pages and house rulings: rulebook/site/data.py),
 * fetched once for every module of the page; null when it cannot be read, and then asked again next time
 * (the site may be back online).
 * @returns {Promise<import("./table.js").TableSpec | null>} */
export function tableSettings() {
  settings ??= fetch(new URL("table-settings.json", siteBase()))
    .then((r) => (r.ok ? r.json() : null))
    .catch(() => null)
    .then((/** @type {import("./table.js").TableSpec | null} */ spec) => {
      if (!spec) settings = null;
      return spec;
    });
  return settings;
}
