// The Tell-Tale party between encounters (docs/tell-tale/encounter.md): the
// party kept on this device ("tell_tale.party", calculators/tell_tale/party.py)
// and, on the encounter's side, "Next encounter with this party" (Python's
// next_encounter action, encounter_campaign.py) where the end of the fight shows.
//
// Every rule is Python's: who is kept, what a level-up raises and what
// regeneration restores. This module sends the actions and draws the answers,
// with textContent only. Keeping the party on the device (the copy put aside,
// two tabs, a full storage, export, import, links) is the trackers' shell
// (tracker-shell.js), under the party's own key. The encounter and the party
// talk through two events on the document: "encounter:state" (the fight as last
// drawn, asked for with "party:hello") and "party:add" (the party's members, to
// join the set-up as one encounter action, "add_party").

import { el, plural, readJson, writeJson } from "./dom.js";
import { vocabulary } from "./tracker-kit.js";
import { TrackerShell, answerParts, button, labelUndo } from "./tracker-shell.js";

/** @typedef {import("./encounter.js").Combatant} Combatant */
/** @typedef {import("./encounter.js").Encounter} Encounter */
/** @typedef {import("./tracker-kit.js").Action} Action */
/** A companion as the party keeps it (party.Companion).
 * @typedef {{name: string, power: number, toughness: number, vitality: number, max_vitality: number, speed: number,
 *   keywords: string[], counters: number, poisoned: boolean, exiled: boolean}} Companion */
/** A player's character as the party keeps it (party.Member).
 * @typedef {Companion & {planeswalker: boolean, initiative: number | null, level: number, lands: string[], companion: Companion | null}} Member */
/** The party (party.Party); its undo records are only sent back.
 * @typedef {{tracker: string, version: number, members: Member[], log: string[], undo: unknown[]}} Party */
/** What the party's page draws with (party.vocabulary): [stat, label, the companion's], the levels.
 * @typedef {{stats: [string, string, boolean][], starting_level: number, max_level: number, max_members: number}} PartyWords */
/** The party's members for the set-up, and what the encounter answered.
 * @typedef {{members: Member[], done: (answer: {ok: boolean, error?: string, headline?: string}) => void}} AddParty */

const NAME = "tell_tale.party";
const STORE = "table-rules:tell_tale.party"; // and STORE:before (the party put aside), STORE:backup (when it was last exported)
const BACKUP = `${STORE}:backup`;
const STATE_EVENT = "encounter:state";
const HELLO_EVENT = "party:hello";
const ADD_EVENT = "party:add";

// ---------------------------------------------------------------- the encounter's side

/** The controls shown once the fight is over: the next encounter's button and, when somebody is dead or gone,
 * its declared choice for them (Python's tt.ruling.dead-between-encounters).
 * @param {{declared: (name: string) => import("./encounter-form.js").ActionSpec, combatants: () => Combatant[],
 *   run: (action: Action) => Promise<unknown>, ids: (suffix: string) => string}} page
 * @returns {{field: HTMLElement | null, go: HTMLButtonElement}} */
export function nextEncounterControls({ declared, combatants, run, ids }) {
  const spec = declared("next_encounter");
  const field = spec.fields.find((f) => f.key === "dead");
  // Dead (Python's health) or out of the story (not in the fight, though conscious: exiled).
  const out = combatants().some((c) => c.health === "dead" || (!c.in_fight && c.health === "conscious"));
  const choice = field && out ? el("select", { id: ids("next-dead"), "data-enc": "next-dead" },
    ...(field.choices ?? []).map(([v, t]) => el("option", { value: v, text: t }))) : null;
  const go = button(spec.label, () => run({ do: spec.name, ...(choice ? { dead: choice.value } : {}) }),
    { class: "md-button md-button--primary", "data-enc": "next-encounter" });
  return {
    field: choice && field ? el("div", { class: "calc-fields enc-setup" },
      el("div", { class: "calc-field" }, el("label", { for: choice.id, text: field.label }), choice)) : null,
    go,
  };
}

/** The encounter's end of the two events: it tells the party the fight as drawn, and adds the party when asked.
 * @param {HTMLElement} box the encounter's @param {() => Encounter | null} state
 * @param {(action: Action) => Promise<{ok: boolean, error?: string, headline?: string} | null>} run
 * @returns {() => void} announce: call after each drawing */
export function partyLink(box, state, run) {
  const announce = () => document.dispatchEvent(new CustomEvent(STATE_EVENT, { detail: state() }));
  /** @param {Event} event */
  const onAdd = async (event) => {
    if (!box.isConnected) return document.removeEventListener(ADD_EVENT, onAdd);
    const { members, done } = /** @type {CustomEvent<AddParty>} */ (event).detail;
    const answer = await run({ do: "add_party", members });
    done(answer ?? { ok: false, error: "The encounter is busy: try again in a moment." });
  };
  const onHello = () => (box.isConnected ? announce() : document.removeEventListener(HELLO_EVENT, onHello));
  document.addEventListener(ADD_EVENT, onAdd);
  document.addEventListener(HELLO_EVENT, onHello);
  return announce;
}

// ---------------------------------------------------------------- the party's own tracker

/** @param {HTMLElement} box @param {{computeInWorker: typeof import("./calc-runtime.js").computeInWorker, copyText: import("./rules.js").CopyText}} page */
export function setUp(box, { computeInWorker, copyText }) {
  const words = /** @type {PartyWords} */ (vocabulary(box));
  /** @type {Party | null} */
  let party = null;
  /** @type {Encounter | null | undefined} */
  let fight; // the encounter as its page last drew it (the event): null, none yet; undefined, no encounter heard from
  const list = el("ul", { class: "party-members", "data-party": "members" });
  const answer = el("div", { class: "calc-answer", "aria-live": "polite", "data-party": "answer" });
  const tools = el("div", { class: "calc-actions" });
  const levelBox = el("details", { class: "party-level", "data-party": "level" });
  const backupLine = el("p", { class: "tracker-note", "data-party": "backup" });
  const storageLine = el("p", { class: "tracker-note", "data-party": "storage" });
  const undoButton = button("Undo", () => run({ do: "undo" }), { "data-party": "undo" });
  /** @type {TrackerShell<Party>} */
  const shell = new TrackerShell(box, {
    name: NAME, key: STORE, link: "party=", noun: "party", a: "a party", thing: "party", computeInWorker, copyText,
    startsEmpty: true,
    draw: (now) => { party = now; render(); },
    worth: (now) => now.members.length > 0,
    standing: (now) => (now?.members.length ? "The party is kept on this device." : "No party is kept on this device yet."),
    replaced: () => answer.replaceChildren(),
    fileName: () => `party-${new Date().toISOString().slice(0, 10)}.json`,
    filePrefix: "party",
    exported: (now) => { writeJson(BACKUP, { at: new Date().toISOString(), text: JSON.stringify(now) }); render(); },
  });
  box.replaceChildren(shell.status, shell.notice, el("div", { class: "party-work" },
    list, tools, answer, levelBox, backupLine, storageLine,
    el("details", { class: "party-keep" }, el("summary", { text: "Export, import, share the party" }), shell.keep)));

  /** One party action; its answer drawn below the buttons.
   * @param {Action} action */
  async function run(action) {
    const result = await shell.run(action);
    if (!result) return null;
    answer.replaceChildren(...(result.ok ? answerParts(result) : [el("p", { class: "calc-error", role: "alert", text: result.error })]));
    return result;
  }

  /** Keep the encounter's party; the first time a party is kept, ask the browser to keep the site's storage. */
  async function keepFromFight() {
    if (!fight) return;
    const first = !party?.members.length;
    const result = await run({ do: "keep", combatants: fight.combatants.map(({ chances, ...c }) => c) });
    if (result?.ok && first) askToPersist();
  }

  async function askToPersist() {
    if (!navigator.storage?.persist) return storageSaid("This browser cannot be asked to keep the site's storage: back the party up as a file now and then.");
    const granted = await navigator.storage.persist().catch(() => false);
    storageSaid(granted
      ? "This browser agreed to keep this site's storage until you clear it yourself."
      : "This browser did not agree to keep this site's storage for good: it may clear it (Safari after 7 days without a visit, unless the site is on the home screen). Back the party up as a file.");
  }
  /** @param {string} text */
  function storageSaid(text) { storageLine.textContent = text; }

  function addToFight() {
    if (!party) return;
    const detail = /** @type {AddParty} */ ({ members: party.members, done: (a) => {
      answer.replaceChildren(el("p", { class: a.ok ? "" : "calc-error", role: a.ok ? "status" : "alert", text: a.ok ? a.headline ?? "" : a.error ?? "" }));
    } });
    document.dispatchEvent(new CustomEvent(ADD_EVENT, { detail }));
  }

  /** @param {Companion} c */
  const said = (c) => `Vitality ${c.vitality}/${c.max_vitality}` + (c.counters ? `, ${plural(c.counters, "counter")}` : "")
    + (c.poisoned ? ", poisoned" : "") + (c.vitality < 0 ? ", dead" : "") + (c.exiled ? ", exiled" : "");

  function render() {
    const members = party?.members ?? [];
    list.replaceChildren(...members.map((m) => el("li", { "data-member": m.name },
      el("strong", { text: m.name }), ` level ${m.level}: ${said(m)}; Power ${m.power}, Toughness ${m.toughness}, Speed ${m.speed}`
        + (m.initiative != null ? `, Initiative ${m.initiative}` : "") + ".",
      m.lands.length ? el("span", { class: "party-lands", text: ` Lands: ${m.lands.join(", ")}.` }) : null,
      m.companion ? el("span", { text: ` Companion ${m.companion.name}: ${said(m.companion)}.` }) : null)));
    if (!members.length) list.replaceChildren(el("li", { class: "enc-empty", text: "No party is kept yet: after a fight, keep its PCs and companions here." }));
    tools.replaceChildren( // Python says when a fight has no PC to keep
      ...(fight?.combatants.length ? [button(members.length ? "Keep this party (update it from the fight)" : "Keep this party on this device", keepFromFight,
        { class: "md-button md-button--primary", "data-party": "keep" })] : []),
      ...(members.length && fight !== undefined && (fight === null || fight.phase === "setup") ? [button("Add the party to this set-up", addToFight, { class: "md-button md-button--primary", "data-party": "add" })] : []),
      ...(party?.undo.length ? [undoButton] : []));
    labelUndo(undoButton, party?.log.length ? party.log[party.log.length - 1] : null);
    renderLevel(members);
    renderBackup();
  }

  /** The level-up form: for each player, the stat raised (the companion's only with one) and the new land's name.
   * @param {Member[]} members */
  function renderLevel(members) {
    levelBox.hidden = !members.length;
    const open = levelBox.open;
    const rows = members.map((m, i) => {
      const stat = el("select", { id: `party-stat-${i}`, "data-party": `stat-${i}` },
        el("option", { value: "", text: "Does not level up" }),
        ...words.stats.filter(([, , forCompanion]) => !forCompanion || m.companion).map(([k, label]) => el("option", { value: k, text: label })));
      const land = el("input", { id: `party-land-${i}`, type: "text", maxlength: "40", autocomplete: "off", "data-party": `land-${i}` });
      return { m, stat, land, row: el("fieldset", { class: "calc-fields" }, el("legend", { text: `${m.name}, level ${m.level}` }),
        el("div", { class: "calc-field" }, el("label", { for: stat.id, text: "+1 to" }), stat),
        el("div", { class: "calc-field" }, el("label", { for: land.id, text: "New land (its name)" }), land)) };
    });
    const go = button("Level up", () => {
      const choices = rows.filter((r) => r.stat.value).map((r) => ({ member: r.m.name, stat: r.stat.value, ...(r.land.value.trim() ? { land: r.land.value } : {}) }));
      if (!choices.length) return answer.replaceChildren(el("p", { class: "calc-error", role: "alert", text: "Choose the stat each levelling player raises." }));
      run({ do: "level_up", choices });
    }, { class: "md-button md-button--primary", "data-party": "level-up" });
    levelBox.replaceChildren(el("summary", { text: "Level up (one land, +1 to a stat, regenerate)" }), ...rows.map((r) => r.row), el("div", { class: "calc-actions" }, go));
    levelBox.open = open;
  }

  function renderBackup() {
    const kept = /** @type {{at?: unknown, text?: unknown} | null} */ (readJson(BACKUP, null));
    const at = typeof kept?.at === "string" && !Number.isNaN(Date.parse(kept.at)) ? new Date(kept.at) : null;
    const since = at && kept?.text !== JSON.stringify(party) ? " It has changed since." : "";
    backupLine.replaceChildren(
      el("span", { text: !party?.members.length ? "" : at ? `Last backed up as a file ${at.toLocaleString()}.${since} ` : "Not backed up as a file yet. " }),
      ...(party?.members.length ? [shell.exportNow("Back up now (a file)")] : []));
  }

  /** @param {Event} event */
  const onState = (event) => {
    if (!box.isConnected) return document.removeEventListener(STATE_EVENT, onState);
    fight = /** @type {CustomEvent<Encounter | null>} */ (event).detail;
    if (shell.ready) render();
  };
  document.addEventListener(STATE_EVENT, onState);
  if (navigator.storage?.persisted) navigator.storage.persisted().then((yes) => { if (yes) storageSaid("This browser keeps this site's storage until you clear it yourself."); }).catch(() => {});
  render();
  shell.start().then(() => document.dispatchEvent(new CustomEvent(HELLO_EVENT)));
}
