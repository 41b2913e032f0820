// The page scripts' helpers, each written once and imported by every module
// that needs it: `el` (an element from attributes, text and children, never
// HTML), `button`; `count` and `plural`, numbers in players' words; the
// device's storage without exceptions (`read`, `write`, and as JSON
// `readJson`, `writeJson`); `siteJson()`, a JSON file of the site fetched once
// for all of them (`tableSettings()`: table-settings.json, and `gameName`
// from it); `pageSignal()`, the shown page's lifetime. tracker-kit.js and
// tracker-shell.js export some of them again for the modules that import
// them from there.

import { siteBase } from "./offline.js";

// ---------------------------------------------------------------- one lifetime per page

// Material swaps pages without reloading (instant navigation), so whatever a page's code hangs on
// the window, a channel, a timer or a promise outlives the page unless something ends it, and keeps
// that whole page alive (a page of the site is about 1,650 DOM nodes): tests/test_memory.py walks 100
// pages. Each page gets one AbortController, aborted when Material shows the next page; every
// listener, channel, timer and pending promise of the page's code hangs from its signal.
let lifetime = new AbortController();
if (typeof document$ !== "undefined") {
  let first = true;
  // Subscribed as this module is first run, before page-start.js subscribes its onPage: at each new
  // page the old lifetime ends first, and the new page's code gets the new one.
  document$.subscribe(() => {
    if (!first) {
      lifetime.abort();
      lifetime = new AbortController();
    }
    first = false;
  });
}

/** The lifetime of the page shown now: aborted when Material shows another. Take it when the page's
 * code starts, not in a callback that may run after the page is gone.
 * @returns {AbortSignal} */
export function pageSignal() {
  return lifetime.signal;
}

/** Call `end` when the page whose lifetime is `signal` is left (at once if it is already gone).
 * @param {AbortSignal} signal @param {() => void} end */
export function onPageEnd(signal, end) {
  if (signal.aborted) end();
  else signal.addEventListener("abort", end, { once: true });
}

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

/** What a form's typed fields and boxes hold now, and a test of whether they still do: an answer that clears the
 * form after a worker step clears it only if nothing was typed since it was sent (the next one may be under way).
 * Its lists are left out: the page redraws those from the state the answer brings.
 * @param {HTMLElement} form @returns {() => boolean} */
export function unchangedSince(form) {
  const fields = /** @type {HTMLInputElement[]} */ ([...form.querySelectorAll("input, textarea")]);
  const held = (/** @type {HTMLInputElement} */ f) => (f.type === "checkbox" || f.type === "radio" ? String(f.checked) : f.value);
  const then = fields.map(held);
  return () => fields.every((f, i) => held(f) === then[i]);
}

/** A number as players read it: "12,000". @param {number} n */
export function count(n) {
  return n.toLocaleString("en");
}

/** "1 week", "3 weeks", "2 older entries": a count and its word.
 * @param {number} n @param {string} one @param {string} [many] */
export function plural(n, one, many = one + "s") {
  return `${n} ${n === 1 ? one : many}`;
}

/** A short digest of a text (FNV-1a, 32 bits, in hex): whether a text is the one seen before, without a second copy of
 * it (the party's last backup, a long list in the Table log).
 * @param {string} text */
export function digest(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16);
}

/** localStorage without exceptions: null when it is off or empty.
 * @param {string} key @returns {string | null} */
export function read(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Store (or, for null, forget) a value; false when storage is full or off: the page still works, it just forgets.
 * @param {string} key @param {string | null} value @returns {boolean} */
export function write(key, value) {
  try {
    if (value == null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

/** The JSON stored under `key`, or `fallback` when there is none or it is not JSON (what it holds is the caller's to check).
 * @param {string} key @param {unknown} fallback @returns {unknown} */
export function readJson(key, fallback) {
  try {
    return JSON.parse(read(key) ?? "null") ?? fallback;
  } catch {
    return fallback;
  }
}

/** Store `value` as JSON under `key`; false when storage is full or off. @param {string} key @param {unknown} value */
export function writeJson(key, value) {
  return write(key, JSON.stringify(value));
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
 * @returns {Promise<import("./house-rules.js").TableSpec | null>} */
export function tableSettings() {
  return /** @type {Promise<import("./house-rules.js").TableSpec | null>} */ (siteJson("table-settings.json", null));
}

/** A game's name ("Tell-Tale" for tell_tale), as table-settings.json publishes it (rulebook.GAME_NAMES).
 * @param {import("./house-rules.js").TableSpec | null} spec @param {string} game @returns {string} */
export function gameName(spec, game) {
  return spec?.games && Object.hasOwn(spec.games, game) ? spec.games[game] : game;
}
