// The Tell-Tale encounter tracker's page (docs/tell-tale/encounter.md).
//
// Every rule is in Python (calculators/tell_tale/encounter*.py), reached
// through the calculators' worker as compute("track:tell_tale.encounter",
// {state, action}, seed): this module only draws the state Python answers
// and sends the actions the controls describe. Keeping it on the device,
// export, import, links, bring back and other tabs are the trackers' shell
// (tracker-shell.js). Everything shown goes in with textContent.

import { NOT_KEPT, logResult, storedSettings } from "./house-rules.js";
import { onPageEnd, pageSignal, plural, tableSettings } from "./dom.js";
import { el, place, redraw, trackerName, vocabulary } from "./tracker-kit.js";
import { TrackerShell, answerParts, button, labelRedo, labelUndo, markFieldAtFault, newSeed, rulesLine } from "./tracker-shell.js";
import { CHANNEL, PLAYERS_HASH, setUpPlayers } from "./encounter-players.js";
import { bannerView, turnSettings } from "./encounter-banner.js";
import { actionForm, namer } from "./encounter-form.js";
import { trackerControls } from "./tracker-form.js";
import { addCombatant } from "./encounter-add.js";
import { rosterList } from "./encounter-roster.js";
import { partyKeeper } from "./encounter-party.js";
import { isPhoneHash, setUpPhone } from "./encounter-join.js";
import { phoneSeats } from "./encounter-phones.js";
import { viewFeed } from "./players-view.js";
import * as keys from "./storage.js";

const STORE = keys.ENCOUNTER; // and STORE + keys.ASIDE, the encounter a new one, an import or a link put aside

/** A fight as Python answers it, its combatants and its log's entries: types written from Python's TypedDicts
 * (calculators/typescript.py; make lint). Its undo records are only sent back.
 * @typedef {import("../../types/trackers").Encounter} Encounter
 * @typedef {import("../../types/trackers").Combatant} Combatant
 * @typedef {import("../../types/trackers").LogEntry} LogEntry */
/**
 * The tracker's vocabulary (encounter.vocabulary in Python): [name, label] pairs, each status's mark,
 * [step, label, rule], [status, label, for summons only], each kind's usual side, and every action as declared.
 * @typedef {{settings: string[], keywords: [string, string][], kinds: [string, string][], sides: [string, string][],
 *   usual_sides: Record<string, string>, marks: Record<string, string>, steps: [string, string, string][],
 *   edit_statuses: [string, string, boolean][], actions: import("./encounter-form.js").ActionSpec[],
 *   party: import("../../types/trackers").TrackerName}} EncounterWords
 */
/** @typedef {import("./tracker-kit.js").Action} Action */
/**
 * What the page's parts read of the fight and do with it: the fight as last answered, its combatants by id and in
 * turn order, whose turn it is, each action as declared, a step's label, and a way to send an action.
 * @typedef {{words: EncounterWords, ids: (suffix: string) => string, state: () => Encounter | null,
 *   byId: (id: string | null) => Combatant | undefined, current: () => string | null, inOrder: () => Combatant[],
 *   declared: (name: string) => import("./encounter-form.js").ActionSpec, steps: Record<string, string>,
 *   run: (action: Action, options?: {roll?: boolean, quiet?: boolean}) => Promise<import("./tracker-kit.js").StepAnswer<Encounter> | null>}} Fight
 */

/** This game's house rulings in table-settings.json, by name ({} when it cannot be read).
 * @returns {Promise<Record<string, import("./house-rules.js").TableSetting>>} */
const settingsSpec = () => tableSettings().then((spec) => spec?.settings?.tell_tale ?? {});

// ---------------------------------------------------------------- the page's parts

/** The page's sections and the bar, empty; `fill(phones)` puts them in order, the players' phones' section among them.
 * @param {(suffix: string) => string} ids @param {(name: string) => import("./encounter-form.js").ActionSpec} declared */
function skeleton(ids, declared) {
  const banner = el("section", { class: "enc-banner", "aria-labelledby": ids("banner-title") });
  const roster = el("ol", { class: "enc-roster", "aria-labelledby": ids("roster-title") });
  const rosterBox = el("section", { class: "enc-section" }, el("h2", { id: ids("roster-title"), text: "Combatants" }), roster);
  const form = /** @type {HTMLFormElement} */ (el("form", { class: "enc-act", novalidate: true, "aria-labelledby": ids("act-title") }));
  const answer = el("div", { class: "calc-answer enc-answer", "aria-live": "polite" });
  const errorLine = el("p", { class: "calc-error", role: "alert" });
  const addForm = /** @type {HTMLFormElement} */ (el("form", { class: "enc-add", novalidate: true, "aria-labelledby": ids("add-title") }));
  const log = el("ol", { class: "enc-log", reversed: true });
  const undoButton = /** @type {HTMLButtonElement} */ (el("button", { type: "button", class: "md-button", "data-enc": "undo", "data-do": "undo", text: declared("undo").label }));
  const redoButton = /** @type {HTMLButtonElement} */ (el("button", { type: "button", class: "md-button", "data-enc": "redo", "data-do": "redo", text: declared("redo").label, hidden: true }));
  // The control bar: where the fight stands, Next and Undo, kept at the bottom of the screen while the
  // tracker is in view (sticky, the last thing in it), so a turn needs no scrolling back up. Once no foe
  // stands (Python's foes_standing), End is there too, in one tap: Undo beside it takes it back.
  const barWhere = el("p", { class: "enc-bar-where", "data-enc": "bar-where" });
  const nextButton = el("button", { type: "button", class: "md-button md-button--primary", "data-enc": "next", "data-do": "next", text: declared("next").label });
  // "End" in words short enough for the bar at 360 px beside Undo, Redo and Next; its name in full for screen readers.
  const barEnd = el("button", { type: "button", class: "md-button md-button--primary", "data-enc": "bar-end", "data-do": "end", text: "End", "aria-label": declared("end").label, hidden: true });
  const bar = el("div", { class: "enc-bar", role: "group", "aria-label": "Turn controls", hidden: true }, barWhere, undoButton, redoButton, barEnd, nextButton);
  const rulings = el("details", { class: "calc-rulings enc-rulings" });
  const keep = el("section", { class: "enc-section enc-keep", "aria-labelledby": ids("keep-title") });
  const work = el("div", { class: "enc-work", hidden: true }); // shown once the saved encounter is read
  const actSection = el("section", { class: "enc-section", "data-enc": "act-section" },
    el("h2", { id: ids("act-title"), text: "Resolve an action" }), form, errorLine, answer);
  const addSection = el("section", { class: "enc-section", "data-enc": "add-section" }, el("h2", { id: ids("add-title"), text: declared("add").label }), addForm);
  /** @param {HTMLElement} phones */
  const fill = (phones) => work.replaceChildren(
    banner, rosterBox, actSection, addSection,
    el("section", { class: "enc-section" }, el("h2", { id: ids("log-title"), text: "Action log" }), log),
    el("section", { class: "enc-section" }, el("h2", { id: ids("rulings-title"), text: "Rulings" }), rulings),
    keep, phones, bar);
  return { banner, roster, rosterBox, form, answer, errorLine, addForm, log, undoButton, redoButton, barWhere, nextButton, barEnd, bar,
    rulings, keep, work, actSection, addSection, fill };
}

/** The sections in the order the phase asks for: setting up, the add form first, then the list, then
 * Start; during the fight, where it stands, the list and the action form. No action form while no fight
 * runs. Moved only when the phase changes, so what is being typed keeps its focus.
 * @param {Encounter | null} state @param {ReturnType<typeof skeleton>} parts */
function arrange(state, { work, actSection, addSection, rosterBox, banner }) {
  const setup = !state || state.phase === "setup";
  actSection.hidden = state?.phase !== "combat";
  const order = setup ? [addSection, rosterBox, banner] : [banner, rosterBox, actSection, addSection];
  const now = [...work.children].filter((n) => order.includes(/** @type {HTMLElement} */ (n)));
  if (now.some((n, i) => n !== order[i])) work.prepend(...order);
}

/** The action log, newest first, and what Undo and Redo take back; a step redraws only the entries that changed.
 * @param {HTMLElement} log @param {HTMLButtonElement} undoButton @param {HTMLButtonElement} redoButton */
function logView(log, undoButton, redoButton) {
  /** The log entries drawn last, by number (an undone entry's number comes back with other words).
   * @type {Map<string, [string, Element]>} */
  const drawnEntries = new Map();
  /** @type {Element | null} the newest entry, drawn open */
  let newest = null;
  /** @param {Encounter | null} state */
  return function render(state) {
    const entries = state?.log ?? [];
    const last = entries[entries.length - 1];
    labelUndo(undoButton, state?.undo?.length ? last.text : null); // what it takes back: its name for screen readers, its tooltip
    labelRedo(redoButton, state?.redo?.length ?? 0);
    const items = redraw(drawnEntries, [...entries].reverse(), (e) => [String(e.n), JSON.stringify(e)], (e) => {
      const dice = Object.entries(e.dice);
      return el("li", { class: "enc-entry", value: String(e.n), "data-n": String(e.n) },
        el("details", {},
          el("summary", { class: "enc-entry-text", text: e.text }),
          dice.length ? el("p", { class: "calc-seed", text: "Dice: " + dice.map(([k, v]) => `${k} ${v}`).join("; ") + "." }) : null,
          e.details.length ? el("ul", { class: "calc-details" }, ...e.details.map((d) => el("li", { text: d }))) : null,
          e.rules.length ? rulesLine(e.rules) : null));
    });
    // The newest entry is open; the one before it closes when a step pushes it down (or an undo takes it).
    if (items[0] !== newest) {
      newest?.querySelector("details")?.removeAttribute("open");
      items[0]?.querySelector("details")?.setAttribute("open", "");
      newest = items[0] ?? null;
    }
    if (!entries.length) items.push(el("li", { class: "enc-empty", text: "Nothing has happened yet." }));
    if (state && state.log_start) items.push(el("li", { class: "enc-empty", text: `${plural(state.log_start, "older entry", "older entries")} no longer kept.` }));
    place(log, items);
  };
}

/** The table's choices (table settings on this device) for the tracker's rulings, those `spec` allows.
 * @param {string[]} names @param {Record<string, import("./house-rules.js").TableSetting>} spec @returns {Record<string, string>} */
function tableChoices(names, spec) {
  const mine = storedSettings();
  /** @type {Record<string, string>} */
  const out = {};
  for (const name of names) {
    const value = mine[`tell_tale.${name}`];
    if (value !== undefined && spec[name]?.choices?.some(([v]) => v === value)) out[name] = value;
  }
  return out;
}

/** The table's house rulings (table settings on this device) where they differ from the site's, or null.
 * @param {string[]} names */
async function tableRulings(names) {
  const spec = await settingsSpec();
  const table = tableChoices(names, spec);
  const differs = Object.keys(table).filter((n) => table[n] !== spec[n]?.default);
  return differs.length ? table : null;
}

/** This encounter's rulings, each a choice sent as the settings action; "Use my table's rulings" where they differ.
 * @param {HTMLElement} rulings @param {Fight} fight @param {Encounter | null} state */
function renderRulings(rulings, { words, ids, run }, state) {
  const SETTINGS = words.settings; // the table's house rulings the tracker follows
  settingsSpec().then((spec) => {
    const settings = state?.settings ?? Object.fromEntries(SETTINGS.map((n) => [n, spec[n]?.default]));
    const table = tableChoices(SETTINGS, spec);
    const differs = SETTINGS.filter((n) => table[n] !== undefined && table[n] !== settings[n]);
    const changed = SETTINGS.filter((n) => spec[n] && settings[n] !== spec[n].default).length;
    const fields = SETTINGS.filter((n) => spec[n]).map((name) => {
      const select = el("select", { id: ids(`rule-${name}`), name, "data-enc": `rule-${name}`, "data-do": "settings" },
        ...spec[name].choices.map(([v, t]) => el("option", { value: v, text: t })));
      select.value = settings[name];
      select.addEventListener("change", () => run({ do: "settings", settings: { [name]: select.value } }));
      return el("div", { class: "calc-field" }, el("label", { for: select.id, text: spec[name].label }), select);
    });
    rulings.replaceChildren(
      el("summary", { text: changed ? `This encounter's rulings: ${changed} of ${fields.length} changed from the site's` : `This encounter's rulings: the site's (${fields.length})` }),
      el("div", { class: "calc-fields" }, ...fields),
      ...(differs.length ? [el("p", { class: "enc-note", text: `Your table's settings differ on ${plural(differs.length, "ruling")}.` }),
        el("div", { class: "calc-actions" }, button("Use my table's rulings", () => run({ do: "settings", settings: Object.fromEntries(differs.map((n) => [n, table[n]])) }), { "data-enc": "use-table", "data-do": "settings" }))] : []));
    rulings.classList.toggle("calc-changed", changed > 0);
  });
}

/** What the players may see (encounter-players.js checks and draws it): the order, whose turn, the step and
 * round, visible statuses, the party's numbers, each foe's health as the word Python gives (band), and the
 * last headline that is not the GM's own change (Python marks those "gm"); no foe's numbers or keywords, no dice.
 * @param {Fight} fight @param {import("./encounter-banner.js").TurnSettings} turn @returns {import("./players-view.js").PlayersView} */
function playersView(fight, turn) {
  const state = fight.state();
  if (!state) return { v: 1, phase: "none", round: 0, turn: "", step: "", headline: "", timer: null, rows: [] };
  const names = namer(fight.words); // a kind's name as the vocabulary gives it
  const STATUS = fight.words.marks; // a status as a card marks it: a standing combatant is not marked
  const shown = [...state.log].reverse().find((e) => !e.gm);
  const holder = fight.current();
  return {
    v: 1, phase: state.phase, round: state.round, turn: holder ? /** @type {Combatant} */ (fight.byId(holder)).name : "", step: holder ? fight.steps[/** @type {string} */ (state.step)] : "",
    headline: shown?.text ?? "", timer: turn.on() && holder ? { since: turn.since() } : null,
    rows: fight.inOrder().map((c) => ({
      name: c.name, side: c.side, acting: Boolean(holder) && (c.owner ?? c.id) === holder,
      who: c.owner ? `${names.kind(c.kind)} of ${/** @type {Combatant} */ (fight.byId(c.owner)).name}` : names.kind(c.kind),
      marks: [STATUS[c.status], c.health !== "conscious" ? c.health : "", c.poisoned ? "poisoned" : ""].filter(Boolean),
      numbers: c.side === "party" ? [["Power", c.power_now === c.power ? `${c.power}` : `${c.power_now}/${c.power}`],
        ["Tough.", `${c.toughness_now}/${c.toughness_full}`], ["Vitality", `${c.vitality}/${c.max_vitality}`],
        ["−1/−1", `${c.counters}`]] : null,
      band: c.side === "party" ? null : c.band,
    })),
  };
}

/** End the encounter: a button that asks once more (a second tap within a few seconds ends the fight; Undo takes it
 * back as well), and the ending itself, after which the fight's next step is in view and focused: "Next encounter
 * with this party" (the banner's, drawn again by the answer), held above the sticky bar; the banner's title when
 * there is none. @param {Fight} fight @param {HTMLElement} box @param {HTMLElement} banner */
function endControl(fight, box, banner) {
  const endLabel = fight.declared("end").label;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let endArmed;
  async function endFight() {
    const result = await fight.run({ do: "end" });
    if (!result?.ok || !box.isConnected) return;
    const go = /** @type {HTMLElement | null} */ (banner.querySelector("[data-enc=next-encounter]"));
    const target = go ?? /** @type {HTMLElement} */ (banner.querySelector(".enc-turn"));
    if (!go) target.tabIndex = -1;
    target.scrollIntoView({ block: "center" });
    target.focus({ preventScroll: true });
  }
  const endButton = button(endLabel, () => {
    if (endArmed === undefined) {
      endButton.textContent = "Tap again to end the fight";
      endArmed = setTimeout(() => { endButton.textContent = endLabel; endArmed = undefined; }, 4000);
      return;
    }
    clearTimeout(endArmed);
    endArmed = undefined;
    endButton.textContent = endLabel;
    endFight();
  }, { "data-enc": "end", "data-do": "end" });
  return { endButton, endFight };
}

/** A resolved attack, save or charge in the evening's roll log (house-rules.js) at once, each its own entry, in
 * words, linking back to the fight; under the answer, if the storage has no room for it, a line that says so.
 * @param {string} name the tracker's @param {import("./calc-runtime.js").Tracked<Encounter>} result @param {HTMLElement} answer
 * @param {string} anchor the log's heading */
function toTableLog(name, result, answer, anchor) {
  const kept = logResult({
    calculator: name, game: name.split(".")[0], title: document.querySelector("h1")?.textContent?.replace(/¶$/, "").trim() || name,
    headline: result.headline, said: result.details[0] ?? null, outcome: result.outcome, seed: result.seed,
    time: new Date().toISOString(), url: location.pathname + "#" + anchor,
  });
  if (!kept) answer.append(el("p", { class: "calc-log-note", role: "status", "data-enc": "log-note", text: NOT_KEPT }));
}

/** The players' window on this device (a BroadcastChannel; it ends with the page) and the players' phones.
 * @param {HTMLElement} box @param {TrackerShell<Encounter>} shell @param {Fight} fight @param {import("./encounter-banner.js").TurnSettings} turn */
function playersLinks(box, shell, fight, turn) {
  const lifetime = pageSignal(); // the channel and the pagehide listener end with the page
  const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null;
  const feed = viewFeed(); // the players' view as its followers get it: whole once, then each step's changes
  const view = () => playersView(fight, turn);
  const phones = phoneSeats(box, { view, whole: () => feed.whole(view()), state: fight.state, run: fight.run }); // encounter-phones.js
  function tell() {
    if (!shell.ready) return;
    const message = feed.next(view());
    if (!message) return; // nothing the players see changed
    channel?.postMessage(message);
    phones.tell(message);
  }
  channel?.addEventListener("message", (event) => {
    if (event.data?.type === "hello" && shell.ready) channel.postMessage(feed.whole(view()));
  });
  onPageEnd(lifetime, () => channel?.close()); // the players' window then finds no GM tab
  window.addEventListener("pagehide", () => { if (shell.ready) channel?.postMessage({ type: "bye" }); }, { signal: lifetime });
  function show() {
    if (!shell.ready) return;
    const address = new URL(PLAYERS_HASH, location.href).href;
    const opened = window.open(address, "table-rules-players", "popup,width=960,height=720");
    if (!opened) shell.say(`This browser did not open the players' window (pop-ups blocked?). Open ${address} in another window of this browser.`);
  }
  return { section: phones.section, tell, show };
}

// ---------------------------------------------------------------- the page

// The actions whose controls the page's own parts draw by hand: the add form (encounter-add.js), each card's
// (encounter-roster.js), the banner's and the set-up's (encounter-banner.js, encounter-party.js) and the bar's (above).
// The menu's (encounter-form.js) and every other (tracker-form.js, `moreControls`) are drawn from their declarations,
// so a new action of any place needs no JS.
const HAND_DRAWN = new Set(["add", "another", "edit", "remove", "settings", "initiative", "order", "start", "next", "end", "next_encounter",
  "add_party", "undo", "redo"]);

/** The controls of the actions drawn from their declarations outside the menu (tracker-form.js), under the list: the
 * bar's and the set-up's, then each combatant's that may take them (its keywords, the declaration's needs), named;
 * a form not filled enough says so on the action form's error line.
 * @param {Fight} fight @param {HTMLElement} errorLine */
function moreControls(fight, errorLine) {
  const controls = trackerControls(fight.words.actions.filter((a) => !a.menu && a.place !== "shell" && !HAND_DRAWN.has(a.name)), {
    hook: "enc", run: (action) => fight.run(action), refuse: (sentence) => { errorLine.textContent = sentence; },
    entries: fight.inOrder, id: (c) => c.id, title: (c) => c.name,
  });
  const box = el("div", { class: "enc-more", "data-enc": "more" });
  return { box, render: () => box.replaceChildren(...controls.bar(), ...controls.setup(), ...fight.inOrder().flatMap((c) => {
    const own = controls.roster(c);
    return own.length ? [el("div", { class: "calc-actions", "data-combatant": c.id }, el("span", { text: `${c.name}:` }), ...own)] : [];
  })) };
}

/** Each action as declared, by name. @param {EncounterWords} words */
const declaredIn = (words) => (/** @type {string} */ name) => /** @type {import("./encounter-form.js").ActionSpec} */ (words.actions.find((a) => a.name === name));

/** The fight as the page's parts read it. @param {EncounterWords} words @param {(suffix: string) => string} ids
 * @param {() => Encounter | null} state @param {Fight["run"]} run @returns {Fight} */
function fightOf(words, ids, state, run) {
  /** @param {string | null} id */
  const byId = (id) => state()?.combatants.find((c) => c.id === id);
  const current = () => { const now = state(); return now?.phase === "combat" ? now.order[now.turn] : null; };
  /** Turn holders in order, each followed by the familiars and summons that act in its turn. @returns {Combatant[]} */
  const inOrder = () => /** @type {Combatant[]} */ ((state()?.order ?? []).flatMap((id) => [byId(id), ...(state()?.combatants ?? []).filter((c) => c.owner === id)]).filter(Boolean));
  const declared = declaredIn(words);
  return { words, ids, state, byId, current, inOrder, declared, run, steps: Object.fromEntries(words.steps.map(([step, label]) => [step, label])) };
}

/** @param {HTMLElement} box @param {{computeInWorker: typeof import("./calc-runtime.js").computeInWorker, copyText: import("./copy-link.js").CopyText}} page */
export function setUp(box, { computeInWorker, copyText }) {
  const NAME = trackerName(box); // as Python names it (Tracker.name), written on the container by the build
  if (location.hash === PLAYERS_HASH) return setUpPlayers(box); // the players' window: no GM control, no fight of its own
  if (isPhoneHash(location.hash)) return setUpPhone(box); // a player's phone (encounter-join.js): the same, over WebRTC
  const words = /** @type {EncounterWords} */ (vocabulary(box));
  const declared = declaredIn(words);
  /** @type {Encounter | null} */
  let state = null; // the encounter as Python last answered it (the shell's, as last drawn); null: none yet
  /** @param {string} suffix */
  const ids = (suffix) => `enc-${suffix}`;
  const parts = skeleton(ids, declared);
  const { answer, errorLine, form, addForm } = parts;
  /** @type {TrackerShell<Encounter>} */
  const shell = new TrackerShell(box, {
    name: NAME, key: STORE, link: "encounter=", noun: "encounter", a: "an encounter", thing: "fight", computeInWorker, copyText,
    startsEmpty: true, // no encounter until the first action
    draw: (now) => { state = now; render(); },
    fresh: async () => { // a new encounter starts with this table's rulings
      const table = await tableRulings(words.settings);
      return table ? shell.send({ do: "settings", settings: table }, { from: null }) : { ok: true, state: null };
    },
    replaced: () => { answer.replaceChildren(); errorLine.textContent = ""; markFieldAtFault(form, null); markFieldAtFault(addForm, null); },
    ready: () => { parts.work.hidden = false; },
    fileName: (now) => `encounter-round-${now.round}.json`,
    filePrefix: "encounter",
  });

  /** One action through the shell; its answer drawn below the form (unless `quiet`), a refusal beside it.
   * @param {Action} action @param {{roll?: boolean, quiet?: boolean}} [options] */
  async function run(action, { roll = false, quiet = false } = {}) {
    const result = await shell.run(action, { seed: roll ? newSeed() : null });
    if (!result) return null;
    errorLine.textContent = result.ok ? "" : result.error;
    if (!quiet) answer.replaceChildren(...(result.ok ? answerParts(result) : []));
    if (result.ok && declared(action.do)?.rolls) toTableLog(NAME, result, answer, ids("log-title"));
    return result;
  }
  const fight = fightOf(words, ids, () => state, run);
  const { byId, current, inOrder } = fight;

  box.classList.add("encounter");
  const turn = turnSettings(fight, () => players.tell());
  const players = playersLinks(box, shell, fight, turn);
  box.replaceChildren(shell.status, shell.notice, parts.work);
  parts.fill(players.section);
  // The list, the action form, the add form, the banner and the log: each drawn from what Python answers.
  const roster_ = rosterList(parts.roster, { words, state: fight.state, inOrder, byId, current, run, ids });
  const actions = actionForm(form, { actions: words.actions, inOrder, byId, current, run, ids });
  const adding = addCombatant(addForm, { words, state: fight.state, byId, ids, run, added: (result) => answer.replaceChildren(...answerParts(result)) });
  const party = partyKeeper(computeInWorker, words.party); // the party kept on this device, at the end of a fight
  const banner = bannerView(fight, turn, { ...parts, party, showPlayers: players.show });
  const renderLog = logView(parts.log, parts.undoButton, parts.redoButton);
  const { endButton, endFight } = endControl(fight, box, parts.banner);
  const more = moreControls(fight, errorLine);
  parts.rosterBox.append(more.box);

  function render() {
    if (shell.ready) turn.note(); // not before the saved fight is read: a reload keeps its turn's start
    arrange(state, parts);
    banner.render();
    roster_.render();
    if (state?.phase === "combat") actions.render();
    renderLog(state);
    renderRulings(parts.rulings, fight, state);
    adding.render();
    more.render();
    endButton.hidden = state?.phase !== "combat";
    players.tell();
  }

  parts.undoButton.addEventListener("click", () => run({ do: "undo" }));
  parts.redoButton.addEventListener("click", () => run({ do: "redo" }));
  parts.nextButton.addEventListener("click", () => run({ do: "next", ...turn.passing() }));
  parts.barEnd.addEventListener("click", () => endFight());
  /** @type {HTMLButtonElement} */ (shell.newButton).before(endButton); // made by the shell's constructor (keepPanel)
  parts.keep.append(el("h2", { id: ids("keep-title"), text: "Save, share, end, start over" }), shell.keep);
  render();
  shell.start();
}
