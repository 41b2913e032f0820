// The names this site keeps a group's evening under in the browser's
// storage, each written here once: the page scripts import them, and the
// tests and benchmarks read them from this file (tests/support/storage.py),
// so a key renamed here is renamed everywhere. Renaming one loses what
// players kept under the old name: keep a reader of the old name if so.

/** localStorage: one tracker's state, under its Python name (Tracker.name; tsc holds each to Python's names).
 * @typedef {`table-rules:${import("../../types/trackers").TrackerName}`} TrackerKey */
/** @type {TrackerKey} */
export const ENCOUNTER = "table-rules:tell_tale.encounter";
/** @type {TrackerKey} */
export const PARTY = "table-rules:tell_tale.party";
/** @type {TrackerKey} */
export const SEASON = "table-rules:rpgdl.season";
/** localStorage: the roll log (table-log.js) and the table's house rulings (house-rules.js). */
export const LOG = "table-rules:log";
export const SETTINGS = "table-rules:settings";
/** IndexedDB: the digest of each tracker's record as last saved, by its key (tracker-kit.js SavedRecord). A tab's
 * localStorage is a copy the browser brings up to date a moment after another tab writes; this one is read fresh. */
export const SAVES = "table-rules:saves";

/** A tracker's key with this suffix: the state a replacement put aside (tracker-kit.js SavedRecord). */
export const ASIDE = ":before";
/** The party's last export to a file, and its text then (party.js). */
export const BACKUP = ":backup";
/** The encounter page's preferences on this device: the turn timer ("on"), and "off" for Next to stop at every
 * step (else it passes the steps that ask nothing, Python's NOTHING_TO_DECIDE). */
export const TIMER = ":timer";
export const THROUGH = ":through";
/** sessionStorage: when this tab saw the current turn begin, across a reload. */
export const TURN_START = ":turn-start";
/** sessionStorage: the GM's offer a player's phone answers (its seat code, then the spare one the GM's tracker
 * sends for the next connection: encounter-join.js). */
export const PHONE = ":phone";
/** sessionStorage: the PC a player's phone plays, whose attacks it sends (encounter-roll.js). */
export const PHONE_PC = ":phone-pc";
/** sessionStorage: the last players' view a phone drew, shown again (checked again) after a reload. */
export const PHONE_VIEW = ":phone-view";
/** The BroadcastChannel between the GM's tab and the players' windows (encounter-players.js). */
export const PLAYERS = ":players";
