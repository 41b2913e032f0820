// The GM's table, kept on this device: house rulings ("table settings"),
// applied to the calculators' forms and marked in the ruling boxes. No server,
// no account: localStorage only. The settings pages and join links are
// table-join.js; the roll log is table-log.js (its logResult exported here
// again, for the modules that import it from this one).
//
// Settings are keyed "<calculators module>.<param>" ("tell_tale.both"), the
// registry's names; what a setting may be is read from the form's own
// controls or from table-settings.json (written by rulebook/site/data.py
// from the registry), and anything else, from a link or from storage, is
// refused, never applied. Everything shown is put in with textContent.

import { siteBase } from "./offline.js";
import { el, plural, readJson, writeJson } from "./dom.js";
import { SETTINGS as SETTINGS_KEY } from "./storage.js";

export { LOG_CAP, NOT_KEPT, logResult } from "./table-log.js";


/** One house ruling of table-settings.json (rulebook/site/data.py):
 * its words, the site's choice, and what it may be (`choices`: value and label pairs).
 * @typedef {{label: string, ruling: string, default: string, kind: string, choices: [string, string][],
 *   min: number | null, max: number | null, calculators: string[]}} TableSetting */
/** table-settings.json: the games' names and settings pages, and each game's house rulings, by name.
 * @typedef {{games: Record<string, string>, pages: Record<string, string>,
 *   settings: Record<string, Record<string, TableSetting>>}} TableSpec */
/** A control of a form: a text field or a menu.
 * @typedef {HTMLInputElement | HTMLSelectElement} Control */
/** @typedef {import("./calc-form.js").CalcForm} CalcForm */

// ---------------------------------------------------------------- the settings on this device

/** @param {string} text */
function quote(text) {
  const s = String(text);
  return `“${s.length > 30 ? s.slice(0, 30) + "…" : s}”`;
}

/** The stored settings, as a plain object of strings (anything else dropped).
 * @returns {Record<string, string>} */
export function storedSettings() {
  const raw = readJson(SETTINGS_KEY, {});
  /** @type {Record<string, string>} */
  const out = {};
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return out;
  for (const [key, value] of Object.entries(raw)) {
    if (typeof value === "string" && /^[a-z_]+\.[a-z0-9_]+$/.test(key)) out[key] = value;
  }
  return out;
}

/** Keep `settings` as this device's house rulings; false when storage refused. @param {Record<string, string>} settings */
export function saveSettings(settings) {
  return writeJson(SETTINGS_KEY, settings);
}

// ---------------------------------------------------------------- checks

/** Null if `value` is allowed for setting `key` of `spec`, else a sentence.
 * @param {TableSpec | null} spec @param {string} key @param {string} value @returns {string | null} */
export function checkSetting(spec, key, value) {
  const setting = findSetting(spec, key);
  if (!setting) return `This site has no house ruling called ${quote(key)}: it was not applied.`;
  const text = String(value);
  if (setting.kind === "choice") {
    if (setting.choices.some(([v]) => v === text)) return null;
    return `${setting.label} cannot be ${quote(text)}: it was not applied (the choices are ${setting.choices.map((c) => c[1]).join("; ")}).`;
  }
  if (!/^[0-9]{1,6}$/.test(text)) return `${setting.label} must be a whole number; got ${quote(text)}: it was not applied.`;
  const n = Number(text);
  if ((setting.min != null && n < setting.min) || (setting.max != null && n > setting.max)) {
    return `${setting.label} must be from ${setting.min} to ${setting.max}; got ${n}: it was not applied.`;
  }
  return null;
}

/** The setting called `key` ("tell_tale.both") in `spec`, or null.
 * @param {TableSpec | null} spec @param {string} key @returns {TableSetting | null} */
export function findSetting(spec, key) {
  const [game, name, extra] = String(key).split(".");
  const settings = spec && spec.settings;
  return extra === undefined && settings && Object.hasOwn(settings, game) && Object.hasOwn(settings[game], name)
    ? settings[game][name] : null;
}

/** Null if `field` (a form control) may take `value`, else a sentence.
 * @param {Control} field @param {string} value @returns {string | null} */
function fitsField(field, value) {
  if (field.tagName === "SELECT") return [.../** @type {HTMLSelectElement} */ (field).options].some((o) => o.value === value) ? null : "not a choice";
  if (!/^-?[0-9]{1,6}$/.test(value)) return "not a number";
  const n = Number(value);
  const min = field.dataset.min ? Number(field.dataset.min) : -Infinity;
  const max = field.dataset.max ? Number(field.dataset.max) : Infinity;
  return n >= min && n <= max ? null : "out of range";
}

// ---------------------------------------------------------------- forms

/** Give the form's rulings the house rulings kept on this device (before a link's own values
 * are restored over them).
 * @param {CalcForm} form */
export function applyHouseRulings(form) {
  const game = form.dataset.calculator.split(".")[0];
  const settings = storedSettings();
  for (const field of /** @type {NodeListOf<Control>} */ (form.querySelectorAll(".calc-rulings [name]"))) {
    const key = `${game}.${field.name}`;
    if (Object.hasOwn(settings, key) && !fitsField(field, settings[key])) field.value = settings[key];
  }
}

/** Say near the form which rulings it plays: the site's, the table's house
 * rulings, or a link's own (a shared result keeps the rulings it was made with).
 * @param {CalcForm} form */
export function showRulingsLine(form) {
  const line = /** @type {HTMLElement | null} */ (form.querySelector(".calc-table-line"));
  if (!line || !form.dataset.settings) return;
  const game = form.dataset.calculator.split(".")[0];
  const settings = storedSettings();
  let house = 0;
  let other = 0; // fields that play neither the table's ruling nor, without one, the site's
  for (const field of /** @type {NodeListOf<Control>} */ (form.querySelectorAll(".calc-rulings [name]"))) {
    const key = `${game}.${field.name}`;
    const chosen = Object.hasOwn(settings, key) && !fitsField(field, settings[key]) ? settings[key] : field.dataset.default;
    if (chosen !== field.dataset.default) house += 1;
    if (field.value !== chosen) other += 1;
  }
  line.replaceChildren(el("a", { href: form.dataset.settings, text: other
    ? `This result's own rulings: ${other > 1 ? `${other} differ` : "1 differs"} from ${house ? "your table's" : "the site's"}`
    : house ? `Table settings: ${plural(house, "house ruling")}` : "Table settings: the site's rulings" }));
  line.hidden = false;
}

// ---------------------------------------------------------------- ruling boxes

/** In each ruling box of the page, what this table plays where it is not the site's ruling.
 * @param {TableSpec | null} spec */
export function markRulingBoxes(spec) {
  if (!spec) return;
  const settings = storedSettings();
  for (const old of document.querySelectorAll(".ts-yours")) old.remove();
  for (const [game, found] of Object.entries(spec.settings)) {
    for (const [name, setting] of Object.entries(found)) {
      const key = `${game}.${name}`;
      if (!Object.hasOwn(settings, key) || settings[key] === setting.default || checkSetting(spec, key, settings[key])) continue;
      const heading = document.getElementById(setting.ruling);
      const box = heading?.parentElement?.querySelector(`[id="${CSS.escape(setting.ruling)}"] ~ .admonition.ruling`);
      if (!box) continue;
      const shown = setting.kind === "choice" ? Object.fromEntries(setting.choices)[settings[key]] : settings[key];
      const link = el("a", { href: new URL(spec.pages[game], siteBase()).href, text: "change" });
      // The link and its "; " in one element, which paper leaves out whole (print.css).
      const note = el("p", { class: "ts-yours" }, `Your table: ${setting.label}: `, el("strong", { text: shown }), " (a house ruling",
        el("span", { class: "ts-change" }, "; ", link), ").");
      box.querySelector(".admonition-title")?.after(note);
    }
  }
}

// ---------------------------------------------------------------- GM screen tables

/** In each cell of a GM screen's tables that a house ruling changes, the words Python wrote for this table's
 * choices (data-gm-values, keyed by the values of the settings in data-gm-follow: rulebook/gm_screen.py);
 * a setting this device has not chosen, or holds a value the site refuses, counts as the site's ruling.
 * @param {TableSpec | null} spec */
export function followRulings(spec) {
  if (!spec) return;
  const settings = storedSettings();
  for (const cell of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-gm-follow]"))) {
    /** @type {unknown} */
    let values = null;
    try {
      values = JSON.parse(cell.dataset.gmValues ?? "");
    } catch {
      continue;
    }
    if (!values || typeof values !== "object") continue;
    const keys = (cell.dataset.gmFollow ?? "").split(" ");
    const found = keys.map((key) => findSetting(spec, key));
    if (found.some((setting) => !setting)) continue;
    const chosen = keys.map((key, i) => {
      const setting = /** @type {TableSetting} */ (found[i]);
      if (!Object.hasOwn(settings, key) || checkSetting(spec, key, settings[key])) return setting.default;
      return setting.kind === "choice" ? settings[key] : String(Number(settings[key])); // "04" is 4
    });
    const said = /** @type {Record<string, unknown>} */ (values)[chosen.join(" ")];
    if (typeof said !== "string") continue;
    cell.textContent = said;
    cell.classList.toggle("gm-yours", chosen.some((value, i) => value !== found[i]?.default));
  }
}
