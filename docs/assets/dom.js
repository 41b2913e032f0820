// The page scripts' helpers, each written once and imported by every module
// that needs it: `el` (an element from attributes, text and children, never
// HTML), `button`, `plural`, and `siteJson()`, a JSON file of the site
// fetched once for all of them (`tableSettings()`: table-settings.json).
// tracker-kit.js and tracker-shell.js export `el` and `button` again for the
// modules that import them from there.

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

/** @type {Map<string, Promise<unknown>>} */
const fetched = new Map(); // file name -> its JSON, asked once for every module of the page

/** A JSON file the build writes at the site's root (rules.json, rule-lookup.json, table-settings.json:
 * rulebook/site/data.py), fetched once for every module of the page; `fallback` when it cannot be read,
 * and then asked again next time (the site may be back online).
 * @template T @param {string} name @param {T} fallback @returns {Promise<T>} */
export function siteJson(name, fallback) {
  let asked = fetched.get(name);
  if (!asked) {
    asked = fetch(new URL(name, siteBase()))
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(r.statusText))))
      .catch(() => {
        fetched.delete(name);
        return fallback;
      });
    fetched.set(name, asked);
  }
  return /** @type {Promise<T>} */ (asked);
}

/** table-settings.json: the games' names, their settings pages and house rulings; null when it cannot be read.
 * @returns {Promise<import("./table.js").TableSpec | null>} */
export function tableSettings() {
  return /** @type {Promise<import("./table.js").TableSpec | null>} */ (siteJson("table-settings.json", null));
}
