// The Tell-Tale party kept between encounters (docs/tell-tale/party.md): its
// PCs and companions as they stood, each player's level and lands, and
// level-ups ("tell_tale.party", calculators/tell_tale/party.py).
//
// Every rule is Python's: who is kept, what a level-up raises and what
// regeneration restores. This module sends the actions and draws the answers,
// with textContent only. Keeping the party on the device (the copy put aside,
// two tabs, a full storage, export, import, links) is the trackers' shell
// (tracker-shell.js), under the party's own key. "Keep the party from the
// encounter" reads the fight the encounter page keeps on this device (its
// combatants, which Python checks one by one); the encounter page adds the
// party to a set-up from the party kept here (encounter-party.js).

import { digest, el, pageSignal, plural, readJson, writeJson } from "./dom.js";
import { read, trackerName, vocabulary } from "./tracker-kit.js";
import { TrackerShell, answerParts, labelUndo } from "./tracker-shell.js";
import { trackerControls } from "./tracker-form.js";
import { askToKeepStorage } from "./encounter-party.js";
import { BACKUP as BACKUP_SUFFIX, ENCOUNTER, PARTY } from "./storage.js";

/** @typedef {import("./tracker-kit.js").Action} Action */
/** The party as Python keeps it, its members and their companions: types written from Python's TypedDicts
 * (calculators/typescript.py; make lint). Its undo records are only sent back.
 * @typedef {import("../../types/trackers").Party} Party
 * @typedef {import("../../types/trackers").Member} Member
 * @typedef {import("../../types/trackers").Companion} Companion */
/** What the party's page draws with (party.vocabulary): [stat, label, the companion's], the levels, and every action
 * as declared (each control that sends one carries its name in data-do).
 * @typedef {{stats: [string, string, boolean][], starting_level: number, max_level: number, max_members: number,
 *   actions: import("./tracker-form.js").Spec[]}} PartyWords */

const BACKUP = PARTY + BACKUP_SUFFIX; // when the party was last exported as a file, and its text then

/** The fight the encounter page keeps on this device, as far as this page needs it (its combatants; Python checks each),
 * or null (none kept, or not an object with combatants).
 * @returns {{combatants: Record<string, unknown>[]} | null} */
function keptFight() {
  try {
    const fight = JSON.parse(read(ENCOUNTER) ?? "null");
    return fight && typeof fight === "object" && Array.isArray(fight.combatants) ? fight : null;
  } catch {
    return null; // unreadable: the encounter page says so; nothing to keep from here
  }
}

/** @param {Member | Companion} c */
const said = (c) => `Vitality ${c.vitality}/${c.max_vitality}` + (c.counters ? `, ${plural(c.counters, "counter")}` : "")
  + (c.poisoned ? ", poisoned" : "") + (c.vitality < 0 ? ", dead" : "") + (c.exiled ? ", exiled" : "");

/** A member's line: level, numbers, lands, companion, and its controls. @param {Member} m @param {HTMLElement[]} controls */
function memberLine(m, controls) {
  return el("li", { "data-member": m.name },
    el("strong", { text: m.name }), ` level ${m.level}: ${said(m)}; Power ${m.power}, Toughness ${m.toughness}, Speed ${m.speed}`
      + (m.initiative != null ? `, Initiative ${m.initiative}` : "") + (m.hand != null ? `, ${plural(m.hand, "card")} in hand` : "") + ".",
    m.lands.length ? el("span", { class: "party-lands", text: ` Lands: ${m.lands.join(", ")}.` }) : null,
    m.companion ? el("span", { text: ` Companion ${m.companion.name} (${m.companion.mount ? "a mount" : "a familiar"}): ${said(m.companion)}.` }) : null,
    ...controls.flatMap((c) => [" ", c]));
}

/** When `party` was last backed up as a file, and whether it changed since: [date or null, " It has changed since." or ""].
 * @param {Party | null} party */
function lastBackup(party) {
  const kept = /** @type {{at?: unknown, digest?: unknown} | null} */ (readJson(BACKUP, null));
  const at = typeof kept?.at === "string" && !Number.isNaN(Date.parse(kept.at)) ? new Date(kept.at) : null;
  return /** @type {[Date | null, string]} */ ([at, at && kept?.digest !== digest(JSON.stringify(party)) ? " It has changed since." : ""]);
}
/** The sentence on the last backup. @param {Party | null} party */
function backupSaid(party) {
  const [at, since] = lastBackup(party);
  return at ? `The party was last backed up as a file ${at.toLocaleString()}.${since} Back it up above.` : "The party has never been backed up as a file: back it up above.";
}

const MAY_CLEAR = "This browser has not agreed to keep this site's storage for good: it may clear it on its own (Safari after 7 days without a visit, unless the site is on the home screen).";
/** What the browser may do to `party` kept here: nothing, once it keeps the site's storage for good; until then,
 * each change asks it again (`changed`), and the line says what could happen and when the last backup was.
 * @param {Party | null} party @param {boolean} changed @returns {Promise<string>} */
async function storageSaid(party, changed) {
  if (!party?.members.length) return "";
  const persisted = await navigator.storage?.persisted?.().catch(() => false);
  if (persisted) return "This browser keeps this site's storage until you clear it yourself.";
  if (!changed) return `${MAY_CLEAR} ${backupSaid(party)}`;
  const answered = await askToKeepStorage();
  return answered.startsWith("This browser agreed") ? answered : `${answered} ${backupSaid(party)}`;
}

/** @param {HTMLElement} box @param {{computeInWorker: typeof import("./calc-runtime.js").computeInWorker, copyText: import("./copy-link.js").CopyText}} page */
export function setUp(box, { computeInWorker, copyText }) {
  const words = /** @type {PartyWords} */ (vocabulary(box));
  /** @type {Party | null} */
  let party = null;
  const list = el("ul", { class: "party-members", "data-party": "members" });
  const answer = el("div", { class: "calc-answer", "aria-live": "polite", "data-party": "answer" });
  const tools = el("div", { class: "calc-actions" });
  const setupSlot = el("div", {}); // the set-up's forms (a level-up) while there is a party
  const backupLine = el("p", { class: "tracker-note", "data-party": "backup" });
  const storageLine = el("p", { class: "tracker-note", "data-party": "storage" });
  /** @param {string} sentence */
  const refuse = (sentence) => answer.replaceChildren(el("p", { class: "calc-error", role: "alert", text: sentence }));
  // Each action's control, drawn from its declaration: the bar's (keep, undo), each member's, the set-up's.
  const controls = trackerControls(words.actions, {
    hook: "party", run, refuse,
    entries: () => /** @type {Member[]} */ (party?.members ?? []),
    id: (m) => m.name,
    title: (m) => m.name,
    legend: (m) => `${m.name}, level ${m.level}`,
    // The page fills a field it keeps itself: the fight kept on this device's combatants, as Python checks them.
    value: (_spec, f) => {
      const fight = f.key === "combatants" ? keptFight() : null;
      return fight?.combatants.length ? fight.combatants.map(({ chances, ...c }) => c) : undefined;
    },
    shown: (spec) => spec.records || Boolean(party?.undo.length), // Undo only with something to undo
    dress: (spec, control) => { if (!spec.records) labelUndo(/** @type {HTMLButtonElement} */ (control), party?.log.length ? party.log[party.log.length - 1] : null); },
  });
  /** @type {TrackerShell<Party>} */
  const shell = new TrackerShell(box, {
    name: trackerName(box), key: PARTY, // as Python names it (Tracker.name), written on the container by the build
    link: "party=", noun: "party", a: "a party", thing: "party", computeInWorker, copyText, startsEmpty: true,
    draw: (now) => { party = now; render(); },
    worth: (now) => now.members.length > 0,
    standing: (now) => (now?.members.length ? "The party is kept on this device." : "No party is kept on this device yet."),
    replaced: () => answer.replaceChildren(),
    fileName: () => `party-${new Date().toISOString().slice(0, 10)}.json`,
    filePrefix: "party",
    exported: (now) => { writeJson(BACKUP, { at: new Date().toISOString(), digest: digest(JSON.stringify(now)) }); render(); void storageWords(false); },
  });
  box.replaceChildren(shell.status, shell.notice, el("div", { class: "party-work" },
    list, tools, answer, setupSlot, backupLine, storageLine,
    el("p", { class: "tracker-note", text: "To bring the party into a new fight, open the encounter tracker: while a fight is set up it offers Add the party." }),
    el("details", { class: "calc-rulings party-keep" }, el("summary", { text: "Export, import, share the party" }), shell.keep)));

  /** One party action; its answer drawn below the buttons.
   * @param {Action} action */
  async function run(action) {
    const result = await shell.run(action);
    if (!result) return null;
    answer.replaceChildren(...(result.ok ? answerParts(result) : [el("p", { class: "calc-error", role: "alert", text: result.error })]));
    if (result.ok && action.do !== "show") void storageWords(true);
    return result;
  }

  /** @param {boolean} changed */
  const storageWords = (changed) => storageSaid(party, changed).then((text) => { storageLine.textContent = text; });

  function render() {
    const members = party?.members ?? [];
    list.replaceChildren(...members.map((m) => memberLine(m, controls.roster(m))));
    if (!members.length) list.replaceChildren(el("li", { class: "enc-empty", text: "No party is kept yet: after a fight, keep its PCs and companions here." }));
    tools.replaceChildren(...controls.bar()); // Python says when the fight has no PC to keep
    setupSlot.replaceChildren(...controls.setup());
    renderBackup();
  }

  function renderBackup() {
    const [at, since] = lastBackup(party);
    backupLine.replaceChildren(
      el("span", { text: !party?.members.length ? "" : at ? `Last backed up as a file ${at.toLocaleString()}.${since} ` : "Not backed up as a file yet. " }),
      ...(party?.members.length ? [shell.exportNow("Back up now (a file)")] : []));
  }

  // The fight kept on this device changed (the encounter page in another tab): whether there is a party to keep.
  window.addEventListener("storage", (event) => {
    if (event.key === ENCOUNTER && shell.ready) render();
  }, { signal: pageSignal() });
  render();
  shell.start().then(() => storageWords(false), () => {});
}
