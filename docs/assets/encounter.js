// The Tell-Tale encounter tracker's page (docs/tell-tale/encounter.md).
//
// Every rule is in Python (calculators/tell_tale/encounter*.py), reached
// through the calculators' worker as compute("track:tell_tale.encounter",
// {state, action}, seed): this module only draws the state Python answers
// and sends the actions the controls describe. Keeping it on the device,
// export, import, links, bring back and other tabs are the trackers' shell
// (tracker-shell.js). Everything shown goes in with textContent.

import { NOT_KEPT, logResult, storedSettings } from "./table.js";
import { onPageEnd, pageSignal, plural, tableSettings } from "./dom.js";
import { el, place, read, redraw, trackerName, vocabulary, write } from "./tracker-kit.js";
import { TrackerShell, answerParts, button, labelRedo, labelUndo, markFieldAtFault, newSeed, rulesLine } from "./tracker-shell.js";
import { CHANNEL, PLAYERS_HASH, clock, setUpPlayers } from "./encounter-players.js";
import { actionForm, namer } from "./encounter-form.js";
import { addCombatant } from "./encounter-add.js";
import { rosterList } from "./encounter-roster.js";
import { nextEncounterControls, partyKeeper } from "./encounter-party.js";
import { isPhoneHash, setUpPhone } from "./encounter-join.js";
import { phoneSeats } from "./encounter-phones.js";
import { viewFeed } from "./players-view.js";
import * as keys from "./storage.js";

const STORE = keys.ENCOUNTER; // and STORE + keys.ASIDE, the encounter a new one, an import or a link put aside
const TIMER = STORE + keys.TIMER; // page preferences on this device, not part of the fight (storage.js)
const THROUGH = STORE + keys.THROUGH;
const TURN_START = STORE + keys.TURN_START; // sessionStorage

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

/** This game's house rulings in table-settings.json, by name ({} when it cannot be read).
 * @returns {Promise<Record<string, import("./table.js").TableSetting>>} */
const settingsSpec = () => tableSettings().then((spec) => spec?.settings?.tell_tale ?? {});

// ---------------------------------------------------------------- the page

/** @param {HTMLElement} box @param {{computeInWorker: typeof import("./calc-runtime.js").computeInWorker, copyText: import("./rules.js").CopyText}} page */
export function setUp(box, { computeInWorker, copyText }) {
  const NAME = trackerName(box); // as Python names it (Tracker.name), written on the container by the build
  if (location.hash === PLAYERS_HASH) return setUpPlayers(box); // the players' window: no GM control, no fight of its own
  if (isPhoneHash(location.hash)) return setUpPhone(box); // a player's phone (encounter-join.js): the same, over WebRTC
  const words = /** @type {EncounterWords} */ (vocabulary(box));
  const SETTINGS = words.settings; // the table's house rulings the tracker follows
  const names = namer(words); // a kind's name as the vocabulary gives it
  const STATUS = words.marks; // a status as a card marks it: a standing combatant is not marked
  const STEPS = Object.fromEntries(words.steps.map(([step, label]) => [step, label]));
  const party = partyKeeper(computeInWorker, words.party); // the party kept on this device, at the end of a fight
  /** @param {string} name */
  const declared = (name) => /** @type {import("./encounter-form.js").ActionSpec} */ (words.actions.find((a) => a.name === name));
  /** @type {Encounter | null} */
  let state = null; // the encounter as Python last answered it (the shell's, as last drawn); null: none yet
  /** @type {TrackerShell<Encounter>} */
  const shell = new TrackerShell(box, {
    name: NAME, key: STORE, link: "encounter=", noun: "encounter", a: "an encounter", thing: "fight", computeInWorker, copyText,
    startsEmpty: true, // no encounter until the first action
    draw: (now) => { state = now; render(); },
    fresh: async () => { // a new encounter starts with this table's rulings
      const table = await tableRulings();
      return table ? shell.send({ do: "settings", settings: table }, { from: null }) : { ok: true, state: null };
    },
    replaced: () => { answer.replaceChildren(); errorLine.textContent = ""; markFieldAtFault(form, null); markFieldAtFault(addForm, null); },
    ready: () => { work.hidden = false; },
    fileName: (now) => `encounter-round-${now.round}.json`,
    filePrefix: "encounter",
  });
  /** @param {string} text @param {...HTMLElement} buttons */
  const say = (text, ...buttons) => shell.say(text, ...buttons);
  /** @param {string} suffix */
  const ids = (suffix) => `enc-${suffix}`;

  // -------------------------------------------------------------- skeleton
  const banner = el("section", { class: "enc-banner", "aria-labelledby": ids("banner-title") });
  const roster = el("ol", { class: "enc-roster", "aria-labelledby": ids("roster-title") });
  const rosterBox = el("section", { class: "enc-section" }, el("h2", { id: ids("roster-title"), text: "Combatants" }), roster);
  const form = el("form", { class: "enc-act", novalidate: true, "aria-labelledby": ids("act-title") });
  const answer = el("div", { class: "calc-answer enc-answer", "aria-live": "polite" });
  const errorLine = el("p", { class: "calc-error", role: "alert" });
  const addForm = el("form", { class: "enc-add", novalidate: true, "aria-labelledby": ids("add-title") });
  const log = el("ol", { class: "enc-log", reversed: true });
  const undoButton = el("button", { type: "button", class: "md-button", "data-enc": "undo", text: declared("undo").label });
  const redoButton = el("button", { type: "button", class: "md-button", "data-enc": "redo", text: declared("redo").label, hidden: true });
  // The control bar: where the fight stands, Next and Undo, kept at the bottom of the screen while the
  // tracker is in view (sticky, the last thing in it), so a turn needs no scrolling back up. Once no foe
  // stands (Python's foes_standing), End is there too, in one tap: Undo beside it takes it back.
  const barWhere = el("p", { class: "enc-bar-where", "data-enc": "bar-where" });
  const nextButton = el("button", { type: "button", class: "md-button md-button--primary", "data-enc": "next", text: declared("next").label });
  // "End" in words short enough for the bar at 360 px beside Undo, Redo and Next; its name in full for screen readers.
  const barEnd = el("button", { type: "button", class: "md-button md-button--primary", "data-enc": "bar-end", text: "End", "aria-label": declared("end").label, hidden: true });
  const bar = el("div", { class: "enc-bar", role: "group", "aria-label": "Turn controls", hidden: true }, barWhere, undoButton, redoButton, barEnd, nextButton);
  const rulings = el("details", { class: "calc-rulings enc-rulings" });
  const keep = el("section", { class: "enc-section enc-keep", "aria-labelledby": ids("keep-title") });
  box.classList.add("encounter");
  const feed = viewFeed(); // the players' view as its followers get it: whole once, then each step's changes
  const phones = phoneSeats(box, { view: () => playersView(), whole: () => feed.whole(playersView()), state: () => state, run }); // the players' phones (encounter-phones.js)
  const work = el("div", { class: "enc-work", hidden: true }); // shown once the saved encounter is read
  box.replaceChildren(shell.status, shell.notice, work);
  const actSection = el("section", { class: "enc-section", "data-enc": "act-section" },
    el("h2", { id: ids("act-title"), text: "Resolve an action" }), form, errorLine, answer);
  const addSection = el("section", { class: "enc-section", "data-enc": "add-section" }, el("h2", { id: ids("add-title"), text: declared("add").label }), addForm);
  work.replaceChildren(
    banner, rosterBox, actSection, addSection,
    el("section", { class: "enc-section" }, el("h2", { id: ids("log-title"), text: "Action log" }), log),
    el("section", { class: "enc-section" }, el("h2", { id: ids("rulings-title"), text: "Rulings" }), rulings),
    keep,
    phones.section,
    bar,
  );

  // -------------------------------------------------------------- talking to Python

  /** The table's house rulings (table settings on this device) where they differ from the site's, or null. */
  async function tableRulings() {
    const spec = await settingsSpec();
    const table = tableChoices(spec);
    const differs = Object.keys(table).filter((n) => table[n] !== spec[n]?.default);
    return differs.length ? table : null;
  }

  /** One action through the shell; its answer drawn below the form (unless `quiet`), a refusal beside it.
   * @param {Action} action @param {{roll?: boolean, quiet?: boolean}} [options] */
  async function run(action, { roll = false, quiet = false } = {}) {
    const result = await shell.run(action, { seed: roll ? newSeed() : null });
    if (!result) return null;
    if (!result.ok) {
      errorLine.textContent = result.error;
      if (!quiet) answer.replaceChildren();
      return result;
    }
    errorLine.textContent = "";
    if (!quiet) answer.replaceChildren(...answerParts(result));
    if (declared(action.do)?.rolls) toTableLog(result);
    return result;
  }

  /** A resolved attack, save or charge in the evening's roll log (table.js) at once, each its own entry, in
   * words, linking back to the fight; under the answer, if the storage has no room for it, a line that says so.
   * @param {import("./calc-runtime.js").Tracked<Encounter>} result */
  function toTableLog(result) {
    const kept = logResult({
      calculator: NAME, game: NAME.split(".")[0], title: document.querySelector("h1")?.textContent?.replace(/¶$/, "").trim() || NAME,
      headline: result.headline, said: result.details[0] ?? null, outcome: result.outcome, seed: result.seed,
      time: new Date().toISOString(), url: location.pathname + "#" + ids("log-title"),
    });
    if (!kept) answer.append(el("p", { class: "calc-log-note", role: "status", "data-enc": "log-note", text: NOT_KEPT }));
  }

  // -------------------------------------------------------------- drawing the state

  /** @param {string | null} id */
  const byId = (id) => state?.combatants.find((c) => c.id === id);
  const current = () => (state?.phase === "combat" ? state.order[state.turn] : null);

  /** Turn holders in order, each followed by the familiars and summons that act in its turn.
   * @returns {Combatant[]} */
  function inOrder() {
    if (!state) return [];
    const out = [];
    for (const id of state.order) out.push(byId(id), ...state.combatants.filter((c) => c.owner === id));
    return /** @type {Combatant[]} */ (out.filter(Boolean));
  }

  /** The sections in the order the phase asks for: setting up, the add form first, then the list, then
   * Start; during the fight, where it stands, the list and the action form. No action form while no fight
   * runs. Moved only when the phase changes, so what is being typed keeps its focus. */
  function arrange() {
    const setup = !state || state.phase === "setup";
    actSection.hidden = state?.phase !== "combat";
    const order = setup ? [addSection, rosterBox, banner] : [banner, rosterBox, actSection, addSection];
    const now = [...work.children].filter((n) => order.includes(/** @type {HTMLElement} */ (n)));
    if (now.some((n, i) => n !== order[i])) work.prepend(...order);
  }

  // The list, the action form and the add form: each its own module, drawn from what Python answers.
  const getState = () => state;
  const roster_ = rosterList(roster, { words, state: getState, inOrder, byId, current, run, ids });
  const actions = actionForm(form, { actions: words.actions, inOrder, byId, current, run, ids });
  const adding = addCombatant(addForm, { words, state: getState, byId, ids, run,
    added: (result) => answer.replaceChildren(...answerParts(result)) });

  function render() {
    if (shell.ready) noteTurn(); // not before the saved fight is read: a reload keeps its turn's start
    arrange();
    renderBanner();
    roster_.render();
    if (state?.phase === "combat") actions.render();
    renderLog();
    renderRulings();
    renderKeep();
    tellPlayers();
  }

  // -------------------------------------------------------------- the players' window and the turn timer

  const lifetime = pageSignal(); // the channel, the timer and the pagehide listener end with the page
  const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null;
  channel?.addEventListener("message", (event) => {
    if (event.data?.type === "hello" && shell.ready) channel.postMessage(feed.whole(playersView()));
  });
  onPageEnd(lifetime, () => channel?.close()); // the players' window then finds no GM tab
  window.addEventListener("pagehide", () => { if (shell.ready) channel?.postMessage({ type: "bye" }); }, { signal: lifetime });

  /** What the players may see (encounter-players.js checks and draws it): the order, whose turn, the step and
   * round, visible statuses, the party's numbers, each foe's health as the word Python gives (band), and the
   * last headline that is not the GM's own change (Python marks those "gm"); no foe's numbers or keywords, no dice.
   * @returns {import("./players-view.js").PlayersView} */
  function playersView() {
    if (!state) return { v: 1, phase: "none", round: 0, turn: "", step: "", headline: "", timer: null, rows: [] };
    const shown = [...state.log].reverse().find((e) => !e.gm);
    const holder = current();
    return {
      v: 1, phase: state.phase, round: state.round, turn: holder ? /** @type {Combatant} */ (byId(holder)).name : "", step: holder ? STEPS[/** @type {string} */ (state.step)] : "",
      headline: shown?.text ?? "", timer: timerOn() && holder ? { since: turnStart.at } : null,
      rows: inOrder().map((c) => ({
        name: c.name, side: c.side, acting: Boolean(holder) && (c.owner ?? c.id) === holder,
        who: c.owner ? `${names.kind(c.kind)} of ${/** @type {Combatant} */ (byId(c.owner)).name}` : names.kind(c.kind),
        marks: [STATUS[c.status], c.health !== "conscious" ? c.health : "", c.poisoned ? "poisoned" : ""].filter(Boolean),
        numbers: c.side === "party" ? [["Power", c.power_now === c.power ? `${c.power}` : `${c.power_now}/${c.power}`],
          ["Tough.", `${c.toughness_now}/${c.toughness_full}`], ["Vitality", `${c.vitality}/${c.max_vitality}`],
          ["−1/−1", `${c.counters}`]] : null,
        band: c.side === "party" ? null : c.band,
      })),
    };
  }

  function tellPlayers() {
    if (!shell.ready) return;
    const message = feed.next(playersView());
    if (!message) return; // nothing the players see changed
    channel?.postMessage(message);
    phones.tell(message);
  }

  function showPlayers() {
    if (!shell.ready) return;
    const address = new URL(PLAYERS_HASH, location.href).href;
    const opened = window.open(address, "table-rules-players", "popup,width=960,height=720");
    if (!opened) say(`This browser did not open the players' window (pop-ups blocked?). Open ${address} in another window of this browser.`);
  }

  // The turn timer: a page preference (off unless chosen), shown in the bar and the players' view.
  const timerOn = () => read(TIMER) === "on";
  let turnStart = { key: "", at: 0 };
  try {
    const kept = JSON.parse(sessionStorage.getItem(TURN_START) ?? "null");
    if (kept && typeof kept.key === "string" && kept.key.length < 40 && Number.isFinite(kept.at)) turnStart = { key: kept.key, at: kept.at };
  } catch { /* none kept, or unreadable: the turn starts now */ }
  /** A new turn (another round or holder, or the fight over) starts the clock again. */
  function noteTurn() {
    const key = state?.phase === "combat" ? `${state.round}:${state.turn}` : "";
    if (key === turnStart.key) return;
    turnStart = { key, at: Date.now() };
    try { sessionStorage.setItem(TURN_START, JSON.stringify(turnStart)); } catch { /* the timer starts again after a reload */ }
  }
  const timerLine = el("span", { class: "enc-timer", "data-enc": "timer", "aria-label": "Time this turn" });
  function tickTimer() {
    timerLine.hidden = !(timerOn() && state?.phase === "combat");
    if (!timerLine.hidden) timerLine.textContent = clock(turnStart.at);
  }
  const ticking = setInterval(tickTimer, 1000);
  onPageEnd(lifetime, () => clearInterval(ticking));
  const timerBox = el("input", { type: "checkbox", id: ids("timer-setting"), "data-enc": "timer-setting", checked: timerOn() });
  timerBox.addEventListener("change", () => {
    write(TIMER, timerBox.checked ? "on" : null);
    tickTimer();
    tellPlayers();
  });

  // Steps that ask nothing (untap, upkeep, draw, end) pass on their own: a page preference, on unless turned off.
  // Python passes them ({"do": "next", "through": true}) and logs what each did.
  const throughOn = () => read(THROUGH) !== "off";
  const throughBox = el("input", { type: "checkbox", id: ids("through-setting"), "data-enc": "through-setting", checked: throughOn() });
  throughBox.addEventListener("change", () => write(THROUGH, throughBox.checked ? null : "off"));
  const passing = () => (throughOn() ? { through: true } : {});

  function renderBanner() {
    const title = el("h2", { id: ids("banner-title"), class: "enc-turn" });
    const tools = el("div", { class: "calc-actions" });
    const lines = [];
    if (!state || state.phase === "setup") {
      title.textContent = "Setting up the fight";
      lines.push(el("p", { text: "Add the combatants, give each PC its Initiative (NPCs without one are rolled), then start." }));
      const byField = /** @type {import("./encounter-form.js").FieldSpec} */ (declared("order").fields.find((f) => f.key === "by"));
      const firstField = /** @type {import("./encounter-form.js").FieldSpec} */ (declared("start").fields.find((f) => f.key === "first"));
      const by = el("select", { id: ids("order-by"), "data-enc": "order-by" }, ...(byField.choices ?? []).map(([v, t]) => el("option", { value: v, text: t })));
      by.value = state?.order_by ?? "initiative";
      by.addEventListener("change", () => run({ do: "order", by: by.value }));
      const first = el("select", { id: ids("first"), "data-enc": "first" }, el("option", { value: "", text: "As listed" }),
        ...(state?.order ?? []).map((id) => el("option", { value: id, text: /** @type {Combatant} */ (byId(id)).name })));
      lines.push(el("div", { class: "calc-fields enc-setup" },
        el("div", { class: "calc-field" }, el("label", { for: by.id, text: byField.label }), by),
        ...(by.value === "hand" ? [el("div", { class: "calc-field" }, el("label", { for: first.id, text: firstField.label }), first)] : [])));
      tools.append(
        button(declared("start").label, () => run({ do: "start", ...(first.value ? { first: first.value } : {}), ...passing() }, { roll: true }), { class: "md-button md-button--primary", "data-enc": "start" }),
        button("Roll Initiative for NPCs", () => run({ do: "initiative", all: true }, { roll: true }), { "data-enc": "roll-initiative" }),
        ...party.controls("setup", run, [])); // the party kept on this device (encounter-party.js)
    } else if (state.phase === "combat") {
      const holder = /** @type {Combatant} */ (byId(current()));
      title.textContent = `Round ${state.round}: ${holder.name}'s turn`;
      const team = inOrder().filter((c) => (c.owner ?? c.id) === holder.id);
      lines.push(el("p", { class: "enc-step", "data-step": state.step, text: STEPS[/** @type {string} */ (state.step)] }));
      lines.push(el("p", { class: "enc-team", text: "Actions left: " + team.map((c) => `${c.name} ${c.actions}`).join(", ") + "." }));
      lines.push(el("p", { class: "enc-note", text: "Next step and Undo are in the bar at the bottom of the screen." }));
    } else {
      title.textContent = "The encounter is over";
      lines.push(el("p", { text: `It lasted ${plural(state.round, "round")}. Toughness is back in full; Vitality, counters and poison stay.` }));
      const next = nextEncounterControls({ declared, combatants: () => state?.combatants ?? [], run, ids });
      if (next.field) lines.push(next.field);
      tools.append(next.go, ...party.controls("over", run, state.combatants));
    }
    tools.append(button("Show to players", showPlayers, { "data-enc": "players", title: "A second window for the players: the turn order and what they may see" }),
      el("label", { class: "enc-check enc-timer-setting" }, timerBox, " Turn timer"),
      el("label", { class: "enc-check enc-timer-setting" }, throughBox, " Pass steps that ask nothing"));
    banner.replaceChildren(title, ...lines, tools, ...(state?.phase === "over" ? [fightAgain()] : []));
    renderBar();
  }

  /** Fighting the fight that is over again, apart from the next encounter, below the banner's controls, with
   * what it does in words (Python's start on a fight that is over: one step, which Undo takes back). */
  function fightAgain() {
    const note = el("p", { class: "enc-note", id: ids("again-note"),
      text: "Or play this same fight again from round 1: everyone as they stand now, nobody healed, the dead and the exiled with no turn. Undo brings this ending back." });
    return el("div", { class: "enc-again", "data-enc": "again" }, note,
      button("Same fight again, from round 1", () => run({ do: "start", ...passing() }, { roll: true }),
        { class: "md-button", "data-enc": "start-again", "aria-describedby": note.id }));
  }

  function renderBar() {
    bar.hidden = !state;
    nextButton.hidden = state?.phase !== "combat";
    const noFoe = state?.phase === "combat" && state.foes_standing === 0;
    barEnd.hidden = !noFoe;
    nextButton.classList.toggle("md-button--primary", !noFoe); // End is the step the thumb is offered
    if (!state) return;
    if (state.phase === "combat") {
      const holder = /** @type {Combatant} */ (byId(current()));
      barWhere.replaceChildren(el("span", { class: "enc-bar-who" }, el("strong", { text: `Round ${state.round} · ${holder.name}` }), " ", timerLine),
        el("span", { text: noFoe ? "No foe stands" : STEPS[/** @type {string} */ (state.step)] }));
      tickTimer();
    } else {
      barWhere.replaceChildren(el("strong", { text: state.phase === "over" ? "The encounter is over" : "Setting up the fight" }),
        el("span", { text: plural(state.combatants.length, "combatant") }));
    }
  }

  // -------------------------------------------------------------- log and undo

  /** The log entries drawn last, by number (an undone entry's number comes back with other words).
   * @type {Map<string, [string, Element]>} */
  const drawnEntries = new Map();
  /** @type {Element | null} the newest entry, drawn open */
  let newest = null;
  function renderLog() {
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
  }

  undoButton.addEventListener("click", () => run({ do: "undo" }));
  redoButton.addEventListener("click", () => run({ do: "redo" }));
  nextButton.addEventListener("click", () => run({ do: "next", ...passing() }));
  barEnd.addEventListener("click", () => endFight());

  // -------------------------------------------------------------- rulings

  /** The table's choices (table settings on this device) for the tracker's rulings, those `spec` allows.
   * @param {Record<string, import("./table.js").TableSetting>} spec @returns {Record<string, string>} */
  function tableChoices(spec) {
    const mine = storedSettings();
    /** @type {Record<string, string>} */
    const out = {};
    for (const name of SETTINGS) {
      const value = mine[`tell_tale.${name}`];
      if (value !== undefined && spec[name]?.choices?.some(([v]) => v === value)) out[name] = value;
    }
    return out;
  }

  function renderRulings() {
    settingsSpec().then((spec) => {
      const settings = state?.settings ?? Object.fromEntries(SETTINGS.map((n) => [n, spec[n]?.default]));
      const table = tableChoices(spec);
      const differs = SETTINGS.filter((n) => table[n] !== undefined && table[n] !== settings[n]);
      const changed = SETTINGS.filter((n) => spec[n] && settings[n] !== spec[n].default).length;
      const fields = SETTINGS.filter((n) => spec[n]).map((name) => {
        const select = el("select", { id: ids(`rule-${name}`), name, "data-enc": `rule-${name}` },
          ...spec[name].choices.map(([v, t]) => el("option", { value: v, text: t })));
        select.value = settings[name];
        select.addEventListener("change", () => run({ do: "settings", settings: { [name]: select.value } }));
        return el("div", { class: "calc-field" }, el("label", { for: select.id, text: spec[name].label }), select);
      });
      rulings.replaceChildren(
        el("summary", { text: changed ? `This encounter's rulings: ${changed} of ${fields.length} changed from the site's` : `This encounter's rulings: the site's (${fields.length})` }),
        el("div", { class: "calc-fields" }, ...fields),
        ...(differs.length ? [el("p", { class: "enc-note", text: `Your table's settings differ on ${plural(differs.length, "ruling")}.` }),
          el("div", { class: "calc-actions" }, button("Use my table's rulings", () => run({ do: "settings", settings: Object.fromEntries(differs.map((n) => [n, table[n]])) }), { "data-enc": "use-table" }))] : []));
      rulings.classList.toggle("calc-changed", changed > 0);
    });
  }

  // -------------------------------------------------------------- keeping, sharing, starting over

  // Ending asks once more: a second tap within a few seconds ends the fight (Undo takes it back as well).
  const endLabel = declared("end").label;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let endArmed;
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
  }, { "data-enc": "end" });
  /** End the fight; once it is over, its next step in view and focused: "Next encounter with this party" (the
   * banner's, drawn again by the answer), held above the sticky bar; the banner's title when there is none. */
  async function endFight() {
    const result = await run({ do: "end" });
    if (!result?.ok || !box.isConnected) return;
    const go = /** @type {HTMLElement | null} */ (banner.querySelector("[data-enc=next-encounter]"));
    const target = go ?? /** @type {HTMLElement} */ (banner.querySelector(".enc-turn"));
    if (!go) target.tabIndex = -1;
    target.scrollIntoView({ block: "center" });
    target.focus({ preventScroll: true });
  }
  /** @type {HTMLButtonElement} */ (shell.newButton).before(endButton); // made by the shell's constructor (keepPanel)
  function renderKeep() {
    adding.render();
    endButton.hidden = state?.phase !== "combat";
  }

  keep.append(
    el("h2", { id: ids("keep-title"), text: "Save, share, end, start over" }),
    shell.keep);

  render();
  shell.start();
}
