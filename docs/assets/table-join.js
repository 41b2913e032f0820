// A game's table settings page ({{ table-settings tt }}): the house rulings
// this device plays, chosen one by one or reset, and join links, which carry
// a whole table's rulings to another device and ask before they change
// anything there. What a setting may be is table-settings.json's (house-rules.js
// checks it); everything shown is put in with textContent.

import { button, el, gameName, plural } from "./dom.js";
import { checkSetting, findSetting, saveSettings, storedSettings } from "./house-rules.js";

const JOIN_MAX = 2000; // characters of a join link's list

/** @typedef {import("./house-rules.js").TableSpec} TableSpec */
/** @typedef {import("./house-rules.js").TableSetting} TableSetting */
/** @typedef {import("./house-rules.js").Control} Control */
/** @typedef {import("./copy-link.js").CopyText} CopyText */
/** A table settings page's form (rulebook/forms.py, render_settings).
 * @typedef {HTMLFormElement & {dataset: {game: string}}} SettingsForm */
/** What readJoin makes of a join link.
 * @typedef {{apply: {key: string, value: string}[], refused: string[], kept: Set<string>, whole: boolean}} JoinRead */
/** One ruling a join link changes (`back`: to the site's, as the link does not name it).
 * @typedef {{key: string, from: string, to: string, back: boolean}} JoinChange */

/** @param {SettingsForm} form @param {TableSpec} spec @param {CopyText} copyText */
export function setUpSettingsPage(form, spec, copyText) {
  if (form.dataset.ready) return;
  form.dataset.ready = "true";
  const game = form.dataset.game;
  const status = /** @type {HTMLElement} */ (form.querySelector(".ts-status"));
  const show = () => {
    const settings = storedSettings();
    let house = 0;
    // each field of a settings page has the site's choice in data-default
    for (const field of /** @type {NodeListOf<Control & {dataset: {default: string}}>} */ (form.querySelectorAll("[name]"))) {
      const key = `${game}.${field.name}`;
      field.value = Object.hasOwn(settings, key) && !checkSetting(spec, key, settings[key]) ? settings[key] : field.dataset.default;
      if (field.value !== field.dataset.default) house += 1;
      /** @type {Element} */ (field.closest(".ts-setting")).classList.toggle("ts-house", field.value !== field.dataset.default);
    }
    status.textContent = house ? `Your table plays ${plural(house, "house ruling")} in ${gameName(spec, game)}.` : `Your table uses the site's rulings in ${gameName(spec, game)}.`;
  };
  form.addEventListener("input", (event) => {
    const field = /** @type {Control} */ (event.target);
    if (!field.name) return;
    const key = `${game}.${field.name}`;
    const error = checkSetting(spec, key, field.value.trim());
    const line = /** @type {HTMLElement} */ (form.querySelector(`#${CSS.escape(field.id)}-error`));
    line.textContent = error || "";
    line.hidden = !error;
    field.toggleAttribute("aria-invalid", !!error);
    if (error) return;
    const settings = storedSettings();
    if (field.value.trim() === field.dataset.default) delete settings[key];
    else settings[key] = field.value.trim();
    saveSettings(settings);
    show();
  });
  form.addEventListener("click", (event) => {
    const button = /** @type {Element} */ (event.target).closest("button");
    if (!button) return;
    if (button.dataset.action === "reset") {
      const settings = storedSettings();
      for (const key of Object.keys(settings)) if (key.startsWith(game + ".")) delete settings[key];
      saveSettings(settings);
      show();
    } else if (button.dataset.action === "join") {
      copyText(joinLink(spec), button);
    }
  });
  show();
  offerJoin(form, spec, show);
}

/** A link that gives another device this device's house rulings (all games).
 * It carries the whole table: applied, it replaces the other device's rulings.
 * @param {TableSpec} spec @returns {string} */
export function joinLink(spec) {
  const list = Object.entries(checkedSettings(spec)).map(([key, value]) => `${key}:${value}`).join(",");
  const url = new URL(location.href);
  url.search = new URLSearchParams({ join: list || "site" }).toString();
  url.hash = "";
  return url.href;
}

/** The stored settings this site allows, without those equal to the site's ruling.
 * @param {TableSpec} spec @returns {Record<string, string>} */
function checkedSettings(spec) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const [key, value] of Object.entries(storedSettings())) {
    // allowed (checkSetting said null), so the setting is there
    if (!checkSetting(spec, key, value) && value !== /** @type {TableSetting} */ (findSetting(spec, key)).default) out[key] = value;
  }
  return out;
}

/** Read a join link's list: [{key, value}] to apply, the sentences of what was
 * refused, `kept`: the settings it names with a value this site refuses, and
 * `whole`: false when nothing in it can be applied (too long, or all refused).
 * @param {TableSpec} spec @param {string} text @returns {JoinRead} */
export function readJoin(spec, text) {
  /** @type {JoinRead["apply"]} */
  const apply = [];
  /** @type {string[]} */
  const refused = [];
  /** @type {Set<string>} */
  const kept = new Set();
  if (text.length > JOIN_MAX) {
    return { apply, refused: [`This join link is too long (${text.length} characters): nothing in it can be applied.`], kept, whole: false };
  }
  if (text === "site") return { apply, refused, kept, whole: true };
  for (const item of text.split(",").slice(0, 100)) {
    const at = item.indexOf(":");
    const key = at < 0 ? item : item.slice(0, at);
    const value = at < 0 ? "" : item.slice(at + 1);
    const error = checkSetting(spec, key, value);
    if (!error) apply.push({ key, value });
    else {
      refused.push(error);
      if (findSetting(spec, key)) kept.add(key);
    }
  }
  return { apply, refused, kept, whole: apply.length > 0 };
}

/** What applying a read join link does on this device: the settings it leaves
 * and each ruling that changes, in the order of the settings pages. A join
 * link carries a whole table (joinLink), so a ruling it does not name goes
 * back to the site's; one it names with a value this site refuses stays as
 * this device has it.
 * @param {TableSpec} spec @param {JoinRead} read
 * @returns {{settings: Record<string, string>, changes: JoinChange[]}} */
export function planJoin(spec, read) {
  const before = checkedSettings(spec);
  /** @type {Record<string, string>} */
  const after = {};
  for (const key of read.kept) if (Object.hasOwn(before, key)) after[key] = before[key];
  const named = new Set(read.kept);
  for (const { key, value } of read.apply) {
    named.add(key);
    if (value === /** @type {TableSetting} */ (findSetting(spec, key)).default) delete after[key]; // applied: the setting is there
    else after[key] = value;
  }
  /** @type {JoinChange[]} */
  const changes = [];
  for (const [game, found] of Object.entries(spec.settings)) {
    for (const [name, setting] of Object.entries(found)) {
      const key = `${game}.${name}`;
      const from = before[key] ?? setting.default;
      const to = after[key] ?? setting.default;
      if (from !== to) changes.push({ key, from, to, back: !named.has(key) });
    }
  }
  return { settings: after, changes };
}

/** One change of a join link, in the settings form's words.
 * @param {TableSpec} spec @param {JoinChange} change @returns {string} */
export function changeWords(spec, { key, from, to, back }) {
  const setting = /** @type {TableSetting} */ (findSetting(spec, key)); // planJoin's changes are the spec's settings
  const shown = (/** @type {string} */ value) => (setting.kind === "choice" ? `“${Object.fromEntries(setting.choices)[value]}”` : value);
  const what = `${gameName(spec, key.split(".")[0])}, ${setting.label}`;
  return back
    ? `${what} goes back to the site's ruling: from ${shown(from)} to ${shown(to)}.`
    : `${what}: from ${shown(from)} to ${shown(to)}.`;
}

/** The join link leaves the address once answered: a reload does not ask again. */
function forgetJoin() {
  const url = new URL(location.href);
  url.searchParams.delete("join");
  history.replaceState(history.state, "", url.pathname + url.search + url.hash);
}

/** @param {SettingsForm} form @param {TableSpec} spec @param {() => void} show */
function offerJoin(form, spec, show) {
  const params = new URLSearchParams(location.search);
  if (!params.has("join")) return;
  const box = /** @type {HTMLElement} */ (form.querySelector(".ts-join"));
  const read = readJoin(spec, /** @type {string} */ (params.get("join")));
  const { changes } = planJoin(spec, read);
  const paragraph = (/** @type {string} */ text, className = "") => el("p", { class: className || null, text });
  const done = (/** @type {string} */ text) => {
    forgetJoin();
    box.replaceChildren(paragraph(text));
    box.setAttribute("role", "status");
  };
  const problems = read.refused.map((text) => paragraph(text, "calc-field-error"));
  box.removeAttribute("role");
  box.hidden = false;
  if (!read.whole || !changes.length) {
    // Nothing to apply: no button that could only wipe this device's rulings.
    const why = read.whole
      ? "This join link gives the rulings this device already plays: nothing to change."
      : "Nothing in this join link can be applied: this device keeps its settings.";
    box.replaceChildren(paragraph(why, "ts-join-title"), ...problems);
    box.setAttribute("role", "status");
    forgetJoin();
    return;
  }
  const title = paragraph(`This join link changes ${plural(changes.length, "ruling")} on this device:`, "ts-join-title");
  const list = el("ul", { class: "ts-join-changes" }, ...changes.map((change) => el("li", { text: changeWords(spec, change) })));
  const notes = changes.some((c) => c.back)
    ? [paragraph("A join link carries all of a table's house rulings: a ruling it does not name goes back to the site's ruling.")]
    : [];
  const yes = button("Apply these changes", () => {
    const { settings } = planJoin(spec, read); // this device's settings now, if another tab changed them
    const count = Object.keys(settings).length;
    if (!saveSettings(settings)) {
      done("This device could not save the settings (its storage is full or turned off): nothing changed.");
      return;
    }
    show();
    done(`Applied: this device now plays ${count ? plural(count, "house ruling") : "the site's rulings"}.`);
  }, { class: "md-button md-button--primary" });
  const no = button("Keep my settings", () => done("Nothing changed: this device keeps its settings."));
  box.replaceChildren(title, list, ...notes, ...problems, el("div", { class: "ts-actions" }, yes, no));
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", "Join a table");
}

