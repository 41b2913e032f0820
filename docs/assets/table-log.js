// The roll log (the Table log page, docs/table-log.md): each result of a
// calculator on this device, newest first, kept in localStorage, copied as
// Markdown or JSON. A stored entry is checked before it is shown
// (isLogEntry), and everything shown is put in with textContent; a line of
// Markdown escapes all that Markdown would read.

import { siteBase } from "./offline.js";
import { button, count, digest, el, gameName, pageSignal, plural, readJson, writeJson } from "./dom.js";
import { LOG as LOG_KEY } from "./storage.js";

export const LOG_CAP = 200;
/** What a form or the tracker says of a result the log could not keep. */
export const NOT_KEPT = "This result is not in the Table log: this device's storage is full. Clearing the Table log, or saved fights and seasons you no longer need, makes room.";

/** One result in the roll log: what calc-form.js's logEntry writes, as isLogEntry checks it.
 * @typedef {{calculator: string, game: string, title: string, headline: string, url: string, time: string,
 *   outcome?: string | null, seed?: number | null, inputs?: Record<string, string | number> | null,
 *   said?: string | null}} LogEntry */
/** @typedef {import("./copy-link.js").CopyText} CopyText */
/** @typedef {import("./house-rules.js").TableSpec} TableSpec */

/** The longest typed value a log entry keeps as it is, in characters. A longer one (a decklist, a Nom Pool) is
 * kept as a few words instead, its size, first line and digest: 200 entries stay well under the storage's 5 MB,
 * and the list itself is the player's (the form, a file). */
export const LOG_TEXT_MOST = 160;

/** A form's values as a log entry keeps them: `inputs`, each value too long to keep told in words instead, and
 * `replay`, the values its address opens the form with again (those kept as they are).
 * @param {Record<string, string>} params @returns {{inputs: Record<string, string>, replay: Record<string, string>}} */
export function logInputs(params) {
  /** @type {Record<string, string>} */
  const inputs = {};
  /** @type {Record<string, string>} */
  const replay = {};
  for (const [name, value] of Object.entries(params)) {
    if (value === "") continue;
    if (value.length <= LOG_TEXT_MOST) {
      inputs[name] = replay[name] = value;
      continue;
    }
    const lines = value.split("\n").filter((line) => line.trim());
    const line = (lines[0] ?? "").trim();
    const first = line.length > 40 ? `${line.slice(0, 39)}…` : line;
    inputs[name] = `${plural(lines.length, "line")}, ${count(value.length)} characters, digest ${digest(value)}, the first "${first}" (not kept in the log)`;
  }
  return { inputs, replay };
}

/** Results this visit could not keep (a full storage), newest first: the log page shows them, and each
 * new result tries to keep them again, so a little room freed keeps them all. Module state outlives
 * Material's page swaps, not a reload. @type {LogEntry[]} */
let unkept = [];
/** The log page's drawing, while it is shown: a result logged in this tab (one still on its way when
 * the page was left) is drawn at once. @type {(() => void) | null} */
let drawLog = null;

/** How long this tab watches that another tab's write keeps an entry it logged, in ms. */
const WATCHED_MS = 60_000;
/** The entries this tab logged in the last WATCHED_MS, as stored (JSON), with when. Two tabs that log at
 * the same moment each read the log, add an entry and write it back, and the later write lacks the other's
 * entry: the storage event of that write shows it, and the tab puts its entry back (restoreMine).
 * @type {{text: string, at: number}[]} */
let mine = [];

/** A result in the log at once, as its own entry (the same words as the last are another roll).
 * @param {LogEntry} entry @returns {boolean} whether it is kept on the device */
export function logResult(entry) {
  const log = storedLog(); // entries that cannot be shown are kept as they are: nothing saved is lost
  const all = [entry, ...unkept];
  const kept = writeJson(LOG_KEY, [...all, ...log].slice(0, LOG_CAP));
  unkept = kept ? [] : all.slice(0, LOG_CAP);
  if (kept) watch(all);
  drawLog?.();
  return kept;
}

/** Watch entries just written: another tab's write over them is undone. @param {LogEntry[]} entries */
function watch(entries) {
  const now = Date.now();
  mine = [...entries.map((e) => ({ text: JSON.stringify(e), at: now })), ...mine]
    .filter((m) => now - m.at < WATCHED_MS).slice(0, LOG_CAP);
}

/** Put back this tab's recent entries that another tab's write left out, each where its time puts it
 * (newest first). An emptied log is a clear (clearLog): nothing is put back. @param {string | null} written */
function restoreMine(written) {
  const now = Date.now();
  if (written === null || written === "[]") { // a clear: nothing of it comes back
    mine = [];
    return;
  }
  mine = mine.filter((m) => now - m.at < WATCHED_MS);
  if (!mine.length) return;
  const log = storedLog();
  /** @type {Map<string, number>} */
  const stored = new Map(); // each stored entry's JSON -> how many times it is there
  for (const text of log.map((e) => JSON.stringify(e))) stored.set(text, (stored.get(text) ?? 0) + 1);
  const missing = [];
  for (const m of mine) {
    const left = stored.get(m.text) ?? 0;
    if (left > 0) stored.set(m.text, left - 1);
    else missing.push(/** @type {LogEntry} */ (JSON.parse(m.text)));
  }
  if (!missing.length) return;
  const merged = [...log];
  for (const entry of missing) {
    const when = Date.parse(entry.time);
    const at = merged.findIndex((e) => isLogEntry(e) && Date.parse(e.time) <= when);
    merged.splice(at < 0 ? merged.length : at, 0, entry);
  }
  if (!writeJson(LOG_KEY, merged.slice(0, LOG_CAP))) unkept = [...missing, ...unkept].slice(0, LOG_CAP);
  drawLog?.();
}
// For the document's life, like the module: another tab's write of the log is checked for this tab's entries.
addEventListener("storage", (event) => {
  if (event.key === LOG_KEY) restoreMine(event.newValue);
  else if (event.key === null) mine = []; // the whole storage cleared
});

/** How a computation's result goes to the log: "log" when it comes (a roll, or a typed result its
 * player has committed to), "hold" until its player commits to it, "show" never (a shared link's).
 * @typedef {"log" | "hold" | "show"} Logging */

/** The forms whose results are not all logged yet: committed when the page is hidden or left. @type {Set<FormLog>} */
const open = new Set();

/** A calculator form's way to the log. The form recomputes as its player types ("1", then "17"), so a
 * typed result is held until its player commits to it: Enter, a change, the focus leaving the field,
 * a roll, or the page left or hidden; then it is logged, once, even after the page is gone. */
export class FormLog {
  /** @param {HTMLElement} form */
  constructor(form) {
    this.form = form;
    /** @type {Map<number, Logging>} */
    this.waiting = new Map(); // computations sent and not answered
    this.latest = 0;
    /** @type {LogEntry | null} */
    this.held = null; // the latest result shown, not yet committed
  }

  /** A computation sent. @param {number} ticket @param {Logging} logging */
  sent(ticket, logging) {
    this.waiting.set(ticket, logging);
    this.latest = ticket;
    this.held = null; // an edit goes on: the result it replaces was not committed to
    open.add(this);
  }

  /** Its answer: the entry of a result, null for a refusal or a failure. @param {number} ticket @param {LogEntry | null} entry */
  answered(ticket, entry) {
    const logging = this.waiting.get(ticket);
    this.waiting.delete(ticket);
    if (ticket === this.latest) this.held = null;
    if (!entry) return;
    if (logging === "log") this.keep(entry);
    else if (logging === "hold" && ticket === this.latest) this.held = entry;
  }

  /** The player commits to what the form shows, or to what it is about to show. */
  commit() {
    if (this.waiting.get(this.latest) === "hold") this.waiting.set(this.latest, "log");
    else if (this.held) {
      const entry = this.held;
      this.held = null;
      this.keep(entry);
    }
  }

  /** The entry in the log; if the storage has no room for it, the form's answer bar says so, until a result is kept.
   * @param {LogEntry} entry */
  keep(entry) {
    const kept = logResult(entry);
    let note = /** @type {HTMLElement | null} */ (this.form.querySelector(".calc-log-note"));
    if (kept && !note) return;
    if (!note) {
      note = el("p", { class: "calc-log-note", role: "status" });
      this.form.querySelector(".calc-result")?.after(note);
    }
    note.textContent = kept ? "" : NOT_KEPT;
    note.hidden = kept;
  }
}

/** Commit every form's result: the page is hidden (a tab switched, a phone locked) or unloaded,
 * or (`gone`) Material has swapped the page, and only forms no longer on the page are committed. */
export function commitResults(gone = false) {
  for (const log of open) {
    if (gone && log.form.isConnected) continue;
    log.commit(); // a result still on its way is logged when it comes
    if (gone) open.delete(log);
  }
}
addEventListener("pagehide", () => commitResults());
document.addEventListener("visibilitychange", () => { if (document.visibilityState === "hidden") commitResults(); });

/** A stored entry the log can show: the shape calc-form.js's logEntry writes. A
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

/** The log: the entries that can be shown, newest first, those of this visit the storage had no room
 * for first; how many of them are such (`unkept`); and how many stored entries could not be shown (with
 * `games`, table-settings.json's, an entry of a game the site does not have is one of those).
 * @param {Record<string, string> | null} [games] @returns {{entries: LogEntry[], unkept: number, skipped: number}} */
export function loadLog(games = null) {
  const stored = storedLog();
  const entries = /** @type {LogEntry[]} */ (stored.filter((e) => isLogEntry(e) && (!games || Object.hasOwn(games, e.game))));
  return { entries: [...unkept, ...entries], unkept: unkept.length, skipped: stored.length - entries.length };
}

/** @returns {LogEntry[]} */
export function readLog() {
  return loadLog().entries;
}

/** The stored entries as they are, unchecked. @returns {unknown[]} */
function storedLog() {
  const log = readJson(LOG_KEY, []);
  return Array.isArray(log) ? log.slice(0, LOG_CAP) : [];
}

export function clearLog() {
  unkept = [];
  mine = [];
  writeJson(LOG_KEY, []);
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
  const drawEntry = (/** @type {LogEntry} */ entry, /** @type {boolean} */ kept) => {
    const link = safeLink(entry.url);
    const title = link ? el("a", { href: link, text: entry.title }) : el("span", { text: entry.title });
    const copy = button("Copy", () => copyText(entryMarkdown(entry), copy, "Copied"), { class: "md-button log-copy", "aria-label": `Copy this result: ${entry.headline}` });
    const time = el("time", { datetime: entry.time, text: new Date(entry.time).toLocaleString() });
    const seed = entry.seed != null ? ` · rolled, seed ${entry.seed}` : "";
    return el("li", { class: "log-entry" },
      el("p", { class: "log-head" }, time, " · ", title),
      el("p", { class: "log-headline", text: entry.headline }),
      el("p", { class: "log-inputs", text: inputsText(entry) + seed }),
      kept ? null : el("p", { class: "log-unkept", text: "Not kept on this device: its storage is full." }),
      copy);
  };
  const render = () => {
    const { entries: all, unkept, skipped } = loadLog(spec?.games);
    const notKept = new Set(all.slice(0, unkept));
    const entries = all.filter((e) => !filter.value || e.game === filter.value);
    const items = [];
    drawn = [];
    let unread = skipped;
    for (const entry of entries) {
      try {
        items.push(drawEntry(entry, !notKept.has(entry)));
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
    const full = unkept ? ` ${plural(unkept, "result")} of this visit ${unkept > 1 ? "are" : "is"} shown but not kept: this device's storage is full. Copy ${unkept > 1 ? "them" : "it"} now, or clear the log (or saved fights and seasons you no longer need) to make room.` : "";
    count.textContent = said + note + full;
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
  // Another tab's roll redraws the log, until the page is left (instant navigation builds a new box
  // at each visit, and the old one must stop drawing).
  addEventListener("storage", (event) => {
    if (event.key === LOG_KEY) render();
  }, { signal: pageSignal() });
  drawLog = () => (box.isConnected ? render() : (drawLog = null));
}

