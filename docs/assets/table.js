// The GM's table, kept on this device: house rulings ("table settings") and
// the roll log. No server, no account: localStorage only.
//
// Settings are keyed "<calculators module>.<param>" ("tell_tale.both"), the
// registry's names; what a setting may be is read from the form's own
// controls or from table-settings.json (written by hooks/calculator_forms.py
// from the registry), and anything else, from a link or from storage, is
// refused, never applied. Everything shown is put in with textContent.

import { siteBase } from "./offline.js";
import { button, el, plural } from "./dom.js";

const SETTINGS_KEY = "table-rules:settings";
const LOG_KEY = "table-rules:log";
export const LOG_CAP = 200;
const LOG_AFTER_MS = 1500; // a result that stands this long goes in the log
const JOIN_MAX = 2000; // characters of a join link's list

/** One house ruling of table-settings.json (hooks/calculator_forms.py, _setting_json):
 * its words, the site's choice, and what it may be (`choices`: value and label pairs).
 * @typedef {{label: string, ruling: string, default: string, kind: string, choices: [string, string][],
 *   min: number | null, max: number | null, calculators: string[]}} TableSetting */
/** table-settings.json: the games' names and settings pages, and each game's house rulings, by name.
 * @typedef {{games: Record<string, string>, pages: Record<string, string>,
 *   settings: Record<string, Record<string, TableSetting>>}} TableSpec */
/** A table settings page's form (hooks/calculator_forms.py, render_settings).
 * @typedef {HTMLFormElement & {dataset: {game: string}}} SettingsForm */
/** A control of a form: a text field or a menu.
 * @typedef {HTMLInputElement | HTMLSelectElement} Control */
/** One result in the roll log: what rules.js's logEntry writes, as isLogEntry checks it.
 * @typedef {{calculator: string, game: string, title: string, headline: string, url: string, time: string,
 *   outcome?: string | null, seed?: number | null, inputs?: Record<string, string | number> | null,
 *   said?: string | null}} LogEntry */
/** @typedef {import("./rules.js").CalcForm} CalcForm */
/** @typedef {import("./rules.js").CopyText} CopyText */
/** What readJoin makes of a join link.
 * @typedef {{apply: {key: string, value: string}[], refused: string[], kept: Set<string>, whole: boolean}} JoinRead */
/** One ruling a join link changes (`back`: to the site's, as the link does not name it).
 * @typedef {{key: string, from: string, to: string, back: boolean}} JoinChange */

/** A game's name ("Tell-Tale" for tell_tale), as table-settings.json publishes it (rulebook.GAME_NAMES).
 * @param {TableSpec | null} spec @param {string} game @returns {string} */
function gameName(spec, game) {
  return spec?.games && Object.hasOwn(spec.games, game) ? spec.games[game] : game;
}

// ---------------------------------------------------------------- storage

/** @param {string} key @param {unknown} fallback @returns {unknown} */
function read(key, fallback) {
  try {
    /** @type {unknown} */
    const value = JSON.parse(localStorage.getItem(key) ?? "null");
    return value ?? fallback;
  } catch {
    return fallback;
  }
}

/** @param {string} key @param {unknown} value @returns {boolean} */
function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    return false; // storage full or off: the page still works, it just forgets
  }
}

/** @param {string} text */
function quote(text) {
  const s = String(text);
  return `“${s.length > 30 ? s.slice(0, 30) + "…" : s}”`;
}

/** The stored settings, as a plain object of strings (anything else dropped).
 * @returns {Record<string, string>} */
export function storedSettings() {
  const raw = read(SETTINGS_KEY, {});
  /** @type {Record<string, string>} */
  const out = {};
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return out;
  for (const [key, value] of Object.entries(raw)) {
    if (typeof value === "string" && /^[a-z_]+\.[a-z0-9_]+$/.test(key)) out[key] = value;
  }
  return out;
}

/** @param {Record<string, string>} settings */
function saveSettings(settings) {
  return write(SETTINGS_KEY, settings);
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
function findSetting(spec, key) {
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

/** Give the form's rulings the table's choices (before a link's own values
 * are restored over them).
 * @param {CalcForm} form */
export function applyTableToForm(form) {
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
export function showTableLine(form) {
  const line = /** @type {HTMLElement | null} */ (form.querySelector(".calc-table-line"));
  if (!line || !form.dataset.settings) return;
  const game = form.dataset.calculator.split(".")[0];
  const settings = storedSettings();
  let house = 0;
  let other = 0; // fields that play neither the table's ruling nor, without one, the site's
  for (const field of /** @type {NodeListOf<Control>} */ (form.querySelectorAll(".calc-rulings [name]"))) {
    const key = `${game}.${field.name}`;
    const table = Object.hasOwn(settings, key) && !fitsField(field, settings[key]) ? settings[key] : field.dataset.default;
    if (table !== field.dataset.default) house += 1;
    if (field.value !== table) other += 1;
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
      const note = el("p", { class: "ts-yours" }, `Your table: ${setting.label}: `, el("strong", { text: shown }), " (a house ruling; ", link, ").");
      box.querySelector(".admonition-title")?.after(note);
    }
  }
}

// ---------------------------------------------------------------- settings page

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

// ---------------------------------------------------------------- roll log

/** @type {WeakMap<CalcForm, ReturnType<typeof setTimeout>>} */
const pendingLog = new WeakMap(); // form -> timer of a result not yet logged

/** Log a result once it has stood a moment (typing "1", "17" logs the 17); a roll at once.
 * @param {CalcForm} form @param {LogEntry} entry */
export function logResult(form, entry) {
  clearTimeout(pendingLog.get(form));
  const commit = () => addToLog(entry);
  if (entry.seed != null) commit();
  else pendingLog.set(form, setTimeout(commit, LOG_AFTER_MS));
}

/** A stored entry the log can show: the shape rules.js's logEntry writes. A
 * hand-edited, damaged or older entry that does not fit is skipped, not shown.
 * @param {unknown} e @returns {e is LogEntry} */
export function isLogEntry(e) {
  const text = /** @type {(v: unknown) => v is string} */ ((v) => typeof v === "string");
  const plain = /** @type {(v: unknown) => v is Record<string, unknown>} */ ((v) => v !== null && typeof v === "object" && !Array.isArray(v));
  return plain(e)
    && text(e.calculator) && /^[a-z_]+\.[a-z0-9_]+$/.test(e.calculator)
    && text(e.game) && /^[a-z_]{1,40}$/.test(e.game)
    && text(e.title) && text(e.headline) && text(e.url)
    && (e.outcome == null || text(e.outcome))
    && text(e.time) && !Number.isNaN(Date.parse(e.time))
    && (e.seed == null || (typeof e.seed === "number" && Number.isInteger(e.seed) && e.seed >= 0))
    && (e.inputs == null || (plain(e.inputs) && Object.values(e.inputs).every((v) => text(v) || Number.isFinite(v))))
    && (e.said == null || text(e.said));
}

/** The stored log: the entries that can be shown, newest first, and how many could not
 * (with `games`, table-settings.json's, an entry of a game the site does not have is one of those).
 * @param {Record<string, string> | null} [games] @returns {{entries: LogEntry[], skipped: number}} */
export function loadLog(games = null) {
  const stored = storedLog();
  const entries = /** @type {LogEntry[]} */ (stored.filter((e) => isLogEntry(e) && (!games || Object.hasOwn(games, e.game))));
  return { entries, skipped: stored.length - entries.length };
}

/** @returns {LogEntry[]} */
export function readLog() {
  return loadLog().entries;
}

/** The stored entries as they are, unchecked. @returns {unknown[]} */
function storedLog() {
  const log = read(LOG_KEY, []);
  return Array.isArray(log) ? log.slice(0, LOG_CAP) : [];
}

/** @param {LogEntry} entry */
function addToLog(entry) {
  const log = storedLog(); // entries that cannot be shown are kept as they are: nothing saved is lost
  const last = log[0];
  if (isLogEntry(last) && last.url === entry.url && last.headline === entry.headline) return; // the same result again
  log.unshift(entry);
  write(LOG_KEY, log.slice(0, LOG_CAP));
}

export function clearLog() {
  write(LOG_KEY, []);
}

/** The address of a logged result if it is a page of this site, else null.
 * @param {string} url @returns {string | null} */
function safeLink(url) {
  try {
    const root = siteBase();
    const target = new URL(url, root);
    return target.origin === location.origin && target.pathname.startsWith(root.pathname) ? target.href : null;
  } catch {
    return null;
  }
}

/** What was typed or chosen, as the form said it (an entry from before the
 * log kept the form's words shows the fields' own names).
 * @param {LogEntry} entry @returns {string} */
function inputsText(entry) {
  if (entry.said != null) return entry.said;
  return Object.entries(entry.inputs || {}).map(([k, v]) => `${k.replace(/_/g, " ")}: ${v}`).join("; ");
}

/** Text that Markdown (CommonMark, GitHub's) shows as typed: no emphasis,
 * link, image, code or HTML, and no address turned into a link.
 * @param {string | number} value @returns {string} */
export function markdownText(value) {
  return String(value)
    .replace(/\s+/g, " ")
    .replace(/[\\`*{}[\]()#!|~^@]/g, "\\$&")
    .replace(/(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, "\\_") // inside a word "_" is no emphasis
    .replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/:(?=[^\s\d])/g, "\\:") // "javascript:", "https://": no address ("12:30" stays)
    .replace(/\/\//g, "/\\/")
    .replace(/([A-Za-z0-9])\.(?=[A-Za-z])/g, "$1\\."); // "www.example.com": no address
}

/** A link destination that cannot end early: every character Markdown reads there is percent-encoded.
 * @param {string} href @returns {string} */
function markdownDestination(href) {
  return href.replace(/[^A-Za-z0-9\-._~:/?#=&%+,;$]/g, (/** @type {string} */ c) => "%" + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0"));
}

/** One logged result as a line of Markdown. @param {LogEntry} entry @returns {string} */
export function entryMarkdown(entry) {
  const when = new Date(entry.time).toLocaleString();
  const link = safeLink(entry.url);
  const title = link ? `[${markdownText(entry.title)}](${markdownDestination(link)})` : markdownText(entry.title);
  const seed = entry.seed != null ? ` (rolled, seed ${markdownText(entry.seed)})` : "";
  return `- ${markdownText(when)}: ${title}: **${markdownText(entry.headline)}** (${markdownText(inputsText(entry))})${seed}`;
}

/** @param {HTMLElement} box @param {CopyText} copyText @param {TableSpec | null} spec */
export function setUpLogPage(box, copyText, spec) {
  const games = spec?.games ?? {}; // by calculators module: tell_tale -> Tell-Tale
  if (box.dataset.ready) return;
  box.dataset.ready = "true";
  const filter = el("select", { id: "log-game" },
    el("option", { value: "", text: "Every game" }),
    ...Object.entries(games).map(([value, name]) => el("option", { value, text: name })));
  const count = el("p", { class: "log-count", role: "status" });
  const list = el("ol", { class: "log-entries" });
  /** @type {LogEntry[]} */
  let drawn = []; // the entries on the page: what the copy buttons copy
  const md = button("Copy as Markdown", () => copyText(drawn.map(entryMarkdown).join("\n"), md, "Copied"), { class: "md-button md-button--primary" });
  const json = button("Copy as JSON", () => copyText(JSON.stringify(drawn, null, 1), json, "Copied"));
  const clear = button("Clear the log", () => {
    if (confirm("Clear every result of the log on this device?")) {
      clearLog();
      render();
    }
  });
  const drawEntry = (/** @type {LogEntry} */ entry) => {
    const link = safeLink(entry.url);
    const title = link ? el("a", { href: link, text: entry.title }) : el("span", { text: entry.title });
    const copy = button("Copy", () => copyText(entryMarkdown(entry), copy, "Copied"), { class: "md-button log-copy", "aria-label": `Copy this result: ${entry.headline}` });
    const time = el("time", { datetime: entry.time, text: new Date(entry.time).toLocaleString() });
    const seed = entry.seed != null ? ` · rolled, seed ${entry.seed}` : "";
    return el("li", { class: "log-entry" },
      el("p", { class: "log-head" }, time, " · ", title),
      el("p", { class: "log-headline", text: entry.headline }),
      el("p", { class: "log-inputs", text: inputsText(entry) + seed }),
      copy);
  };
  const render = () => {
    const { entries: all, skipped } = loadLog(spec?.games);
    const entries = all.filter((e) => !filter.value || e.game === filter.value);
    const items = [];
    drawn = [];
    let unread = skipped;
    for (const entry of entries) {
      try {
        items.push(drawEntry(entry));
        drawn.push(entry);
      } catch {
        unread += 1; // one entry that cannot be drawn must not take the others with it
      }
    }
    const n = items.length;
    const others = all.length - entries.length; // kept, but not of the game shown
    const said = n ? `${plural(n, "result")}${filter.value ? ` from ${gameName(spec, filter.value)}` : ""}, newest first.`
      : others ? `No result from ${gameName(spec, filter.value)}; ${others} from other games (choose Every game to see them).`
        : unread ? "No result to show." : "No results yet: a result from any calculator on this device appears here.";
    const note = unread ? ` ${plural(unread, "entry", "entries")} could not be read and ${unread > 1 ? "are" : "is"} not shown.` : "";
    count.textContent = said + note;
    list.replaceChildren(...items);
    for (const button of [md, json]) button.disabled = !n;
    clear.disabled = !n && !unread;
  };
  // The game shown is kept in the address (?game=tell_tale): a reload, or the link, shows the same.
  const asked = new URLSearchParams(location.search).get("game");
  if (asked && Object.hasOwn(games, asked)) filter.value = asked;
  filter.addEventListener("change", () => {
    const address = new URL(location.href);
    if (filter.value) address.searchParams.set("game", filter.value);
    else address.searchParams.delete("game");
    history.replaceState(history.state, "", address);
    render();
  });
  const label = el("label", { for: "log-game", text: "Show" });
  box.replaceChildren(el("div", { class: "log-tools" }, label, filter, md, json, clear), count, list);
  render();
  // Another tab's roll redraws the log; the listener goes with the page (instant navigation
  // builds a new box at each visit, and the old one must stop drawing).
  /** @param {StorageEvent} event */
  const listener = (event) => {
    if (!box.isConnected) return removeEventListener("storage", listener);
    if (event.key === LOG_KEY) render();
  };
  addEventListener("storage", listener);
}

