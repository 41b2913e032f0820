// What the trackers' pages share (encounter.js, season.js): placing nodes
// drawn again, the device's storage (a tracker's saved record, its copy put
// aside, other tabs, a full storage), a file to import, and a record packed
// into a link. What is kept where, and how big it may grow, is told to
// players on docs/saved-data.md: change both together. `el`, `button` and the
// storage's `read` and `write` are dom.js's, exported again here for the
// trackers' modules that import them from this one.

import { count, digest, pageSignal, read, write } from "./dom.js";
import { ASIDE, SAVES } from "./storage.js";

export { button, el, read, write } from "./dom.js";
export { step } from "./tracker-stream.js";

/** An action for a tracker's step, sent to Python as JSON: `do`, its name, and its fields.
 * @typedef {{do: string, [field: string]: unknown}} Action */
/** The longest state and share link a tracker takes, in characters (see limits).
 * @typedef {{state: number, link: number}} Limits */
/** Python's answer to one step of a tracker whose states are S (see step).
 * @template [S=unknown]
 * @typedef {import("./calc-runtime.js").Tracked<S> | import("./calc-runtime.js").Refusal} StepAnswer */

/** `parent`'s children made `nodes`, in order, moving only what is out of place: a node drawn
 * before and unchanged stays where it is, with its focus, its open details and its typed text, and
 * the browser restyles only what moved (a tracker's step redraws one entry, not the whole log).
 * @param {Element} parent @param {Element[]} nodes */
export function place(parent, nodes) {
  nodes.forEach((node, i) => {
    if (parent.children[i] !== node) parent.insertBefore(node, parent.children[i] ?? null);
  });
  while (parent.children.length > nodes.length) /** @type {Element} */ (parent.lastElementChild).remove();
}

/** Draw what `key` says is unchanged from the last drawing again: each item's node is kept, by its
 * id, for as long as its key (the JSON of all it shows) stays the same.
 * @template T
 * @param {Map<string, [string, Element]>} drawn what was drawn last, by id (updated here)
 * @param {T[]} items @param {(item: T) => [string, string]} idAndKey @param {(item: T) => Element} draw
 * @returns {Element[]} */
export function redraw(drawn, items, idAndKey, draw) {
  const kept = new Map();
  const nodes = items.map((item) => {
    const [id, key] = idAndKey(item);
    const old = drawn.get(id);
    const node = old && old[0] === key ? old[1] : draw(item);
    kept.set(id, [key, node]);
    return node;
  });
  drawn.clear();
  for (const [id, pair] of kept) drawn.set(id, pair);
  return nodes;
}

// ---------------------------------------------------------------- a tracker's saved record

/** The tracker's name as Python declares it (Tracker.name), which the build writes on its container: a page
 * script keeps no copy of it.
 * @param {HTMLElement} box @returns {import("../../types/trackers").TrackerName} */
export function trackerName(box) {
  return /** @type {import("../../types/trackers").TrackerName} */ (box.dataset.tracker);
}

/** The tracker's vocabulary (its kinds, keywords, divisions, points...), as
 * Python declares it (`Tracker.vocabulary`): rulebook/render.py publishes it
 * as JSON in the container's data-vocabulary, so no page script keeps a copy.
 * Its shape is each tracker's: the page casts it to its own type.
 * @param {HTMLElement} box @returns {Record<string, unknown>} */
export function vocabulary(box) {
  try {
    const words = JSON.parse(box.dataset.vocabulary || "null");
    if (words && typeof words === "object" && !Array.isArray(words)) return words;
  } catch {
    // drawn below as a build fault: a page built without it cannot draw its tracker
  }
  throw new Error(`The page has no vocabulary for the ${box.dataset.tracker} tracker: build the site again.`);
}

/** The tracker's limits as Python declares them (Tracker.max_state_chars,
 * max_link_chars), published in the container's data-limits: `state`, the
 * characters a state may have; `link`, those of a whole share link.
 * @param {HTMLElement} box @returns {Limits} */
export function limits(box) {
  try {
    const found = JSON.parse(box.dataset.limits || "null");
    if (Number.isSafeInteger(found?.state) && found.state > 0 && Number.isSafeInteger(found?.link) && found.link > 0) return { state: found.state, link: found.link };
  } catch {
    // drawn below as a build fault
  }
  throw new Error(`The page has no limits for the ${box.dataset.tracker} tracker: build the site again.`);
}
/** What browsers keep in localStorage for one site: 5 Mi characters, keys and values (Chromium, Firefox; Safari about as much). */
export const QUOTA_CHARS = 5 * 1024 * 1024;
const NEAR_FULL = 0.8; // past this share of QUOTA_CHARS the page says so

/** Characters this site keeps in localStorage, keys and values (what the quota counts). */
export function storedChars() {
  let total = 0;
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i) ?? "";
      total += key.length + (localStorage.getItem(key) ?? "").length;
    }
  } catch {
    return 0;
  }
  return total;
}

/** "8.6 KB", "1.2 MB": a stored size for players (characters counted as bytes, as the quota does near enough).
 * @param {number} chars */
export function size(chars) {
  return chars < 1000 ? `${chars} bytes` : chars < 1e6 ? `${(chars / 1000).toFixed(1)} KB` : `${(chars / 1e6).toFixed(1)} MB`;
}

/** Run `work` while no other tab of this browser runs one for the same `name`: a read, a check and a write
 * in it are one step, so two tabs saving at the same instant take turns. Without Web Locks (an address that
 * is not https, Safari before 15.4) it runs at once.
 * @template T @param {string} name @param {() => Promise<T>} work @returns {Promise<T>} */
export function locked(name, work) {
  const locks = globalThis.navigator?.locks;
  return locks ? /** @type {Promise<T>} */ (locks.request(name, { mode: "exclusive" }, work)) : work();
}

/** What a record's text is known by in SAVES ("none": no record). @param {string | null} text */
const stamp = (text) => (text == null ? "none" : `${text.length}:${digest(text)}`);

/** @type {Promise<IDBDatabase | null> | null} */
let savesBase = null;

/** One request on SAVES' store; undefined when IndexedDB is off or failed (then the check rests on localStorage).
 * @param {IDBTransactionMode} mode @param {(store: IDBObjectStore) => IDBRequest} ask @returns {Promise<unknown>} */
async function saves(mode, ask) {
  savesBase ??= new Promise((resolve) => {
    try {
      const opening = indexedDB.open(SAVES, 1);
      opening.onupgradeneeded = () => opening.result.createObjectStore("stamps");
      opening.onsuccess = () => resolve(opening.result);
      opening.onerror = opening.onblocked = () => resolve(null);
    } catch {
      resolve(null);
    }
  });
  const base = await savesBase;
  if (!base) return undefined;
  return new Promise((resolve) => {
    try {
      const done = base.transaction("stamps", mode);
      const request = ask(done.objectStore("stamps"));
      done.oncomplete = () => resolve(request.result);
      done.onerror = done.onabort = () => resolve(undefined);
    } catch {
      resolve(undefined);
    }
  });
}

/**
 * One tracker's record on this device: the current state under `key`, the
 * one a replacement put aside under `key:before`, and the text this tab last
 * read or wrote there, so that a change made in another tab is never written
 * over unseen. Each save reads, compares and writes under the record's lock
 * (locked), so another tab's save cannot land between the compare and the
 * write. Nothing here knows what a state means: the page checks every text
 * read back (with Python) before it believes it.
 */
export class SavedRecord {
  /** @param {string} key */
  constructor(key) {
    this.key = key;
    this.asideKey = key + ASIDE;
    this.seen = read(key);
  }

  /** The stored text, now; it becomes what this tab has seen. */
  load() {
    this.seen = read(this.key);
    return this.seen;
  }

  /** The copy put aside, or null. */
  aside() {
    return read(this.asideKey);
  }

  /** Put `text` aside (the one put aside before is replaced); false when storage refused.
   * @param {string | null} text */
  putAside(text) {
    return write(this.asideKey, text);
  }

  /** Whether another tab wrote the record since this tab last read or wrote it, as far as this tab's copy of
   * localStorage knows yet. */
  changedElsewhere() {
    return read(this.key) !== this.seen;
  }

  /** Whether another tab saved the record since this tab last read or wrote it, as SAVES says; call it under the
   * lock. This tab's copy of localStorage may not show that save yet: SAVES does. A record never saved since SAVES
   * began, or with IndexedDB off, is judged by localStorage alone.
   * @returns {Promise<boolean>} */
  async savedElsewhere() {
    if (this.changedElsewhere()) return true;
    const last = await saves("readonly", (store) => store.get(this.key));
    return typeof last === "string" && last !== stamp(this.seen);
  }

  /** Note `text` in SAVES as the record's last saved. @param {string | null} text */
  noteSaved(text) {
    return saves("readwrite", (store) => store.put(stamp(text), this.key));
  }

  /** This tab goes on with the record as stored (read just now, by a player's choice): SAVES says so too, so a
   * record written without the lock (an older page of this site) does not make every later save ask. */
  adopt() {
    const text = this.load();
    return locked(this.key, async () => (read(this.key) === text ? this.noteSaved(text) : undefined));
  }

  /** Save `text` (null: forget) over what this tab last saw, under the record's lock. Null when done;
   * "elsewhere" when another tab saved in between: nothing is written over it, and with `asideIfElsewhere`
   * `text` is put aside instead ("elsewhere, full" when there was no room for that either);
   * "full" when storage refused (nothing is written).
   * @param {string | null} text @param {{asideIfElsewhere?: boolean}} [options]
   * @returns {Promise<"elsewhere" | "elsewhere, full" | "full" | null>} */
  save(text, { asideIfElsewhere = false } = {}) {
    return locked(this.key, async () => {
      if (await this.savedElsewhere()) return asideIfElsewhere && !this.putAside(text) ? "elsewhere, full" : "elsewhere";
      if (!write(this.key, text)) return "full";
      this.seen = text;
      await this.noteSaved(text);
      return null;
    });
  }

  /** Replace the record by `text` and put what is stored now aside, both or
   * neither, under the record's lock: null when done, "full" when storage had
   * no room for both (then nothing changed, the older copy put aside
   * included). A record equal to `text`, or none, is not put aside; nor one
   * the page calls worth nothing (`keep: false`, a season with nothing
   * entered): the older copy stays. With `overSeen`, only over what this tab
   * last saw: "elsewhere" (nothing written) when another tab saved since.
   * @param {string | null} text @param {{keep?: boolean, overSeen?: boolean}} [options]
   * @returns {Promise<"elsewhere" | "full" | null>} */
  replace(text, { keep = true, overSeen = false } = {}) {
    return locked(this.key, async () => {
      if (overSeen && await this.savedElsewhere()) return "elsewhere";
      const now = read(this.key);
      const before = this.aside();
      const aside = keep && now != null && now !== text;
      if (aside && !write(this.asideKey, now)) return "full";
      if (!write(this.key, text)) {
        if (aside) write(this.asideKey, before);
        return "full";
      }
      this.seen = text;
      await this.noteSaved(text);
      return null;
    });
  }

  /** How much this record takes, with a warning when the site's storage nears
   * what browsers keep: one sentence for the page.
   * @param {string} what */
  sizeNote(what) {
    const mine = (read(this.key) ?? "").length;
    const aside = (this.aside() ?? "").length;
    const all = storedChars();
    let text = mine ? `Kept on this device: ${what}, ${size(mine)}` : `Nothing of ${what} is kept on this device yet`;
    text += aside ? `; the one put aside, ${size(aside)}.` : ".";
    if (all > QUOTA_CHARS * NEAR_FULL) {
      text += ` This site's storage on this device is nearly full (${size(all)} of about ${size(QUOTA_CHARS)}): export what you want to keep, then start afresh to make room.`;
    }
    return text;
  }

  /** Call `onChange(text)` when another tab writes the record, until the page is left (dom.js's pageSignal).
   * @param {(text: string | null) => void} onChange */
  watch(onChange) {
    window.addEventListener("storage", (event) => {
      if (event.storageArea === localStorage && event.key === this.key && event.newValue !== this.seen) onChange(event.newValue);
    }, { signal: pageSignal() });
  }
}

/** The sentence for a save that storage refused; `what` is "the fight", "the season".
 * @param {"full" | "elsewhere"} why @param {string} what */
export function notKept(why, what) {
  return why === "full"
    ? `This device's storage is full, so ${what} was not saved after this change: export it as a file to be safe, or make room.`
    : `${what[0].toUpperCase()}${what.slice(1)} was changed in another tab, so this change was not saved over it.`;
}

/** A file to import, as text; throws the sentence all trackers give when it is too big to be `what` (`most` characters).
 * @param {File} file @param {string} what @param {number} most @returns {Promise<string>} */
export async function importFile(file, what, most) {
  /** @param {number} n @param {string} unit */
  const tooBig = (n, unit) => new Error(`The file ${file.name} is ${count(n)} ${unit} long: too big to be ${what} (at most ${count(most)} characters). Nothing you had has changed.`);
  if (file.size > most * 4) throw tooBig(file.size, "bytes"); // UTF-8: at most 4 bytes a character
  const text = await file.text();
  if (text.length > most) throw tooBig(text.length, "characters");
  return text;
}

// ---------------------------------------------------------------- links

/** @param {Uint8Array} bytes */
function toBase64Url(bytes) {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Text deflated and written in base64url: what a share link carries.
 * @param {string} text @returns {Promise<string>} */
export async function pack(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  return toBase64Url(new Uint8Array(await new Response(stream).arrayBuffer()));
}

/** The text a link carries, at most `max` characters; throws a sentence about `what` ("season") when it cannot be read.
 * @param {string} code @param {string} what @param {number} max @returns {Promise<string>} */
export async function unpack(code, what, max) {
  const broken = `the link's ${what} was cut short or changed`;
  if (!/^[A-Za-z0-9_-]+$/.test(code) || code.length > max) throw new Error(broken);
  if (typeof DecompressionStream === "undefined") throw new Error(`this browser cannot unpack ${what} links; ask for the exported file instead`);
  let bytes;
  try {
    bytes = Uint8Array.from(atob(code.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  } catch {
    throw new Error(broken);
  }
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw")).getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      if (text.length > max) {
        reader.cancel();
        throw new Error(`the link's ${what} unpacks to more than ${count(max)} characters`);
      }
    }
  } catch (err) {
    if (/** @type {Error} */ (err).message.startsWith("the link")) throw err;
    throw new Error(broken);
  }
  return text + decoder.decode();
}
