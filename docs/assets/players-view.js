// The players' view as data, and the stream its followers keep it by: what
// the GM's tracker shows the players (encounter.js playersView()), checked
// here before anything is drawn (its shape, every string's and list's size),
// and sent as the tracker's own state is (tracker-stream.js): whole once, then
// each step as what changed. Two kinds of follower read the same messages: the
// players' window on this device (a BroadcastChannel, encounter-players.js)
// and each player's phone (a WebRTC data channel, encounter-phones.js and
// encounter-join.js):
//   {type: "view", version, view}             the whole view
//   {type: "step", base, version, changes}    what changed since `base`: a
//       field set whole ({key, value}) or rows spliced ({key: "rows", splice})
// A follower holding `base` applies the changes, checks the view they make as
// it checks a whole one, and then holds `version`. One holding anything else
// (it joined late, or missed a message), or whose changes make no view it
// draws, draws nothing from that step and asks for the whole view once
// ({type: "hello"}). A step's message holds the rows it changed, so its
// bytes do not grow with the fight (tests/test_players_feed.py).
//
// This module touches no page, so Node runs it for the tests.

import { applyChanges } from "./tracker-stream.js";

/**
 * One combatant as the players' window shows it: `who`, what it is (and whose); `marks`, what players may
 * see of it; `numbers`, [label, value] pairs (the party's; null for foes); `band`, a foe's health as
 * Python's word (null for the party).
 * @typedef {{name: string, side: string, who: string, acting: boolean, marks: string[], numbers: [string, string][] | null,
 *   band: string | null}} PlayersRow
 */
/**
 * What the GM's tab sends the players' window (encounter.js playersView(); `v`, its version, 1): the phase,
 * the round, whose turn and the step, the last headline, the turn timer's start (ms since the epoch) when
 * it is on, and the rows in turn order.
 * @typedef {{v: number, phase: string, round: number, turn: string, step: string, headline: string,
 *   timer: {since: number} | null, rows: PlayersRow[]}} PlayersView
 */
/** A view checked and copied by checkView, its version left out.
 * @typedef {Omit<PlayersView, "v">} CheckedView */


// Sizes a view may have: an encounter holds 24 combatants (encounter_state.MAX_COMBATANTS), names 40
// characters, log lines 400; a little room above, never more.
const MAX_ROWS = 32;
const MAX_MARKS = 8;
const MAX_NUMBERS = 6;
const PHASES = ["none", "setup", "combat", "over"];
const SIDES = ["party", "foes"];

/** @param {unknown} v @param {number} max */
const text = (v, max) => typeof v === "string" && v.length <= max;
/** @param {unknown} v @param {number} lo @param {number} hi */
const whole = (v, lo, hi) => Number.isInteger(v) && /** @type {number} */ (v) >= lo && /** @type {number} */ (v) <= hi;
/** An object, not an array nor null. Its fields are `any`: a message's, each checked below before it is used.
 * @param {unknown} v @returns {v is Record<string, any>} */
export const plain = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
/** @param {object} o @param {string[]} keys */
const only = (o, keys) => Object.keys(o).length <= keys.length && Object.keys(o).every((k) => keys.includes(k));

/** @param {unknown} r @returns {PlayersRow | null} */
function checkRow(r) {
  if (!plain(r) || !only(r, ["name", "side", "who", "acting", "marks", "numbers", "band"])) return null;
  if (!text(r.name, 40) || !r.name.trim() || !SIDES.includes(r.side) || !text(r.who, 80) || typeof r.acting !== "boolean") return null;
  if (!Array.isArray(r.marks) || r.marks.length > MAX_MARKS || !r.marks.every((m) => text(m, 40))) return null;
  if (r.numbers !== null && !(Array.isArray(r.numbers) && r.numbers.length <= MAX_NUMBERS
    && r.numbers.every((n) => Array.isArray(n) && n.length === 2 && text(n[0], 20) && text(n[1], 20)))) return null;
  if (r.band !== null && !text(r.band, 20)) return null;
  return { name: r.name, side: r.side, who: r.who, acting: r.acting, marks: [...r.marks], numbers: r.numbers && r.numbers.map((/** @type {[string, string]} */ [a, b]) => [a, b]), band: r.band };
}

/** A view as the GM's tab sends it, checked and copied; null for anything else.
 * @param {unknown} view @returns {CheckedView | null} */
export function checkView(view) {
  if (!plain(view) || !only(view, ["v", "phase", "round", "turn", "step", "headline", "timer", "rows"]) || view.v !== 1) return null;
  if (!PHASES.includes(view.phase) || !whole(view.round, 0, 999) || !text(view.turn, 40) || !text(view.step, 40) || !text(view.headline, 400)) return null;
  if (view.timer !== null && !(plain(view.timer) && only(view.timer, ["since"]) && Number.isFinite(view.timer.since) && view.timer.since > 0)) return null;
  if (!Array.isArray(view.rows) || view.rows.length > MAX_ROWS) return null;
  // typed as both: a row may be null until includes(null) below rules that out
  const rows = /** @type {PlayersRow[] & (PlayersRow | null)[]} */ (view.rows.map(checkRow));
  if (rows.includes(null)) return null;
  return { phase: view.phase, round: view.round, turn: view.turn, step: view.step, headline: view.headline, timer: view.timer && { since: view.timer.since }, rows };
}

// ---------------------------------------------------------------- the stream of views

/** A step's changes to a view, as tracker-stream.js applies them.
 * @typedef {import("./tracker-stream.js").Change} Change */
/** What a follower is sent: the whole view, or what changed since the view it holds (`base`).
 * @typedef {{type: "view", version: string, view: PlayersView} | {type: "step", base: string, version: string, changes: Change[]}} ViewMessage */

const VIEW_KEYS = ["phase", "round", "turn", "step", "headline", "timer", "rows"];
const ASK_AGAIN = 1000; // ms: a follower that asked for the whole view asks again only after this

/** The changes that make view `a` into view `b`: each field that differs, set whole, and the rows that differ,
 * spliced (one splice a run of changed rows when the count is the same; else one for all between the rows kept at
 * both ends). @param {PlayersView} a @param {PlayersView} b @returns {Change[]} */
export function viewChanges(a, b) {
  /** @type {Change[]} */
  const changes = [];
  for (const key of VIEW_KEYS) {
    const was = /** @type {Record<string, unknown>} */ (a)[key], now = /** @type {Record<string, unknown>} */ (b)[key];
    if (key !== "rows" && JSON.stringify(was) !== JSON.stringify(now)) changes.push({ key, value: now });
  }
  const splice = rowSplices(a.rows.map((r) => JSON.stringify(r)), b.rows.map((r) => JSON.stringify(r)), b.rows);
  if (splice.length) changes.push({ key: "rows", splice });
  return changes;
}

/** @param {string[]} was @param {string[]} now @param {PlayersRow[]} rows @returns {[number, number, unknown[]][]} */
function rowSplices(was, now, rows) {
  /** @type {[number, number, unknown[]][]} */
  const out = [];
  if (was.length === now.length) {
    for (let i = 0; i < now.length; i++) {
      if (was[i] === now[i]) continue;
      let end = i;
      while (end < now.length && was[end] !== now[end]) end++;
      out.push([i, end - i, rows.slice(i, end)]);
      i = end;
    }
    return out;
  }
  let head = 0, tail = 0;
  while (head < Math.min(was.length, now.length) && was[head] === now[head]) head++;
  while (tail < Math.min(was.length, now.length) - head && was[was.length - 1 - tail] === now[now.length - 1 - tail]) tail++;
  out.push([head, was.length - head - tail, rows.slice(head, now.length - tail)]);
  return out;
}

/** The GM's side: the messages that keep followers at the view now. `next(view)` is the step from the view last
 * sent (null when nothing changed; the whole view the first time); `whole(view)`, the whole view, for a follower
 * that asks. Versions are this tracker tab's own (a random token and a count), so no other tab's match.
 * @param {string} [token] */
export function viewFeed(token = Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => b.toString(16).padStart(2, "0")).join("")) {
  /** @type {PlayersView | null} */
  let last = null;
  let count = 0;
  let version = "";
  /** @param {PlayersView} view */
  const hold = (view) => { last = view; version = `${token}.${++count}`; };
  return {
    /** @param {PlayersView} view @returns {ViewMessage | null} */
    next(view) {
      const before = last, base = version;
      if (before === null) return this.whole(view);
      const changes = viewChanges(before, view);
      if (!changes.length) return null;
      hold(view);
      return { type: "step", base, version, changes };
    },
    /** @param {PlayersView} view @returns {ViewMessage} */
    whole(view) {
      if (last === null || JSON.stringify(last) !== JSON.stringify(view)) hold(view);
      return { type: "view", version, view };
    },
  };
}

/** Whether `changes` are shaped as viewChanges makes them (the view they make is checked after).
 * @param {unknown} changes @returns {changes is Change[]} */
function checkChanges(changes) {
  // two fields each: the key, and the value or the splices
  return Array.isArray(changes) && changes.length <= VIEW_KEYS.length && changes.every((c) => plain(c) && Object.keys(c).length === 2
    && typeof c.key === "string" && VIEW_KEYS.includes(c.key) && ("value" in c
      || c.key === "rows" && Array.isArray(c.splice) && c.splice.length <= MAX_ROWS
        && c.splice.every((/** @type {unknown} */ s) => Array.isArray(s) && s.length === 3 && whole(s[0], 0, MAX_ROWS) && whole(s[1], 0, MAX_ROWS)
          && Array.isArray(s[2]) && s[2].length <= MAX_ROWS)));
}

/** A follower's side: `take(message)` reads one message from the GM's tracker (anything, from a peer) and answers
 * the view to draw, checked (checkView) and whole, or null: a message that is not a view's, or a step it cannot follow, after
 * which it calls `ask()` (at most once a second) for the whole view. It never draws a view it did not check.
 * @param {() => void} ask @param {() => number} [now] */
export function viewFollower(ask, now = () => performance.now()) {
  /** @type {PlayersView | null} */
  let held = null;
  let version = "";
  let asked = -Infinity;
  const lost = () => {
    if (now() - asked >= ASK_AGAIN) { asked = now(); ask(); }
    return null;
  };
  /** @param {unknown} view @param {unknown} to @returns {PlayersView | null} */
  const keep = (view, to) => {
    const checked = checkView(view);
    if (!checked) return null;
    held = { v: 1, ...checked };
    version = text(to, 40) ? /** @type {string} */ (to) : "";
    return held;
  };
  return {
    /** @param {unknown} m @returns {PlayersView | null} */
    take(m) {
      if (!plain(m)) return null;
      if (m.type === "view") return keep(m.view, m.version);
      if (m.type !== "step") return null;
      if (held === null || !version || m.base !== version || !text(m.version, 40) || !checkChanges(m.changes)) return lost();
      let after;
      try {
        after = applyChanges(held, m.changes);
      } catch {
        return lost();
      }
      return keep(after, m.version) ?? lost();
    },
    /** The version held ("" for none). */
    version: () => version,
  };
}
