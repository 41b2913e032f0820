// The Tell-Tale encounter tracker's page (docs/tell-tale/encounter.md).
//
// Every rule is in Python (calculators/tell_tale/encounter*.py), reached
// through the calculators' worker as compute("track:tell_tale.encounter",
// {state, action}, seed): this module only draws the state Python answers
// and sends the actions the controls describe. Keeping it on the device,
// export, import, links, bring back and other tabs are the trackers' shell
// (tracker-shell.js). Everything shown goes in with textContent.

import { storedSettings } from "./table.js";
import { siteBase } from "./offline.js";
import { el, place, read, redraw, vocabulary, write } from "./tracker-kit.js";
import { TrackerShell, answerParts, button, labelUndo, markFieldAtFault, newSeed, rulesLine } from "./tracker-shell.js";
import { CHANNEL, PLAYERS_HASH, clock, setUpPlayers } from "./encounter-players.js";

const NAME = "tell_tale.encounter";
const STORE = "table-rules:tell_tale.encounter"; // and STORE:before, the encounter a new one, an import or a link put aside
const TIMER = `${STORE}:timer`; // a page preference on this device ("on"), not part of the fight
const THROUGH = `${STORE}:through`; // a page preference ("off": one step at a time); else Next passes the steps that ask nothing (Python's NOTHING_TO_DECIDE)
const TURN_START = `${STORE}:turn-start`; // sessionStorage: when this tab saw the current turn begin, across a reload

/**
 * A combatant as Python answers it (encounter_state.Combatant): the stored fields, then the derived ones.
 * @typedef {{id: string, name: string, kind: string, side: string, owner: string | null, token: boolean,
 *   planeswalker: boolean, power: number, toughness: number, toughness_now: number, vitality: number,
 *   max_vitality: number, speed: number, initiative: number | null, keywords: string[], counters: number,
 *   poisoned: boolean, boost: number, ability_used: boolean, status: string, detained_by: string | null,
 *   actions: number, landed: boolean, power_now: number, speed_now: number, health: string, band: string}} Combatant
 */
/**
 * One line of the action log (encounter_state._check_log); `gm`: the GM's own change, not shown to the players.
 * @typedef {{n: number, round: number, text: string, details: string[], rules: string[], dice: Record<string, string>, gm?: true}} LogEntry
 */
/**
 * A whole encounter as Python answers it (encounter_state.Encounter); its undo records are only sent back.
 * @typedef {{tracker: string, version: number, settings: Record<string, string>, combatants: Combatant[], next_id: number,
 *   order_by: string, order: string[], phase: string, round: number, turn: number, step: string | null,
 *   log: LogEntry[], log_start: number, undo: unknown[]}} Encounter
 */
/**
 * The tracker's vocabulary (encounter.vocabulary in Python): [name, label] pairs, each status's mark,
 * [step, label, rule] and [status, label, for summons only].
 * @typedef {{settings: string[], keywords: [string, string][], kinds: [string, string][], marks: Record<string, string>,
 *   steps: [string, string, string][], other_actions: [string, string][], edit_statuses: [string, string, boolean][],
 *   needs: Record<string, string[]>, dice_needs: Record<string, [string, string[]]>}} EncounterWords
 */
/**
 * A combatant's fields that hold a number (or none): those the card's editor shows in text boxes.
 * @typedef {{[K in keyof Combatant]: Combatant[K] extends number | null ? K : never}[keyof Combatant]} NumberField
 */
/** @typedef {import("./tracker-kit.js").Action} Action */
/**
 * What the action form asks for one action (ACTIONS below).
 * @typedef {{label: string, actor?: string, actorLabel?: string, target?: string, targetLabel?: string,
 *   optionalActor?: boolean, others?: boolean, fields: string[], dice?: boolean}} ActionSpec
 */
// The tracker's words as Python declares them (encounter.vocabulary, published
// with the page in the container's data-vocabulary): set by setUp.
/** @type {string[]} */
let SETTINGS = []; // the table's house rulings the tracker follows
/** @type {string[]} */
let KEYWORDS = []; // the keywords it knows; Python refuses any other
/** @type {Record<string, string>} */
let KEYWORD_NAMES = {};
/** @type {[string, string][]} */
let KINDS = [];
/** @type {Record<string, string>} */
let STATUS = {}; // a status as a card marks it: a standing combatant is not marked
/** @type {Record<string, string>} */
let STEPS = {};
/** @type {[string, string][]} */
let OTHER = []; // the other character actions' menu
/** @type {[string, string, boolean][]} */
let EDIT_STATUSES = []; // [status, name, for summons only]: what the GM may set by hand
/** @type {Record<string, string[]>} */
let NEEDS = {}; // action -> the keywords one of which its taker needs ("planeswalker": a planeswalker PC)
/** @type {Record<string, [string, string[]]>} */
let DICE_NEEDS = {}; // die -> [whose keywords decide ("actor" or "target"), the keywords that call for it]
// What each action asks for: its controls, the JSON names of who acts and who is acted on;
// others: the one acting is never offered as its own target.
/** @type {Record<string, ActionSpec>} */
const ACTIONS = {
  attack: { label: "Attack", actor: "attacker", actorLabel: "Attacker", target: "target", others: true, fields: ["situation", "d20", "crit_d4", "second_d20", "second_crit_d4"], dice: true },
  charge: { label: "Trample charge through a line", actor: "attacker", actorLabel: "Charger", fields: ["situation", "line"], dice: true },
  first_strike: { label: "First Strike (enemy nears)", actor: "attacker", actorLabel: "First Striker", target: "target", targetLabel: "Enemy coming in range", others: true, fields: ["situation", "d20", "target_d20", "crit_d4", "second_d20", "second_crit_d4"], dice: true },
  reach: { label: "Reach: a flyer passes over", actor: "attacker", actorLabel: "Reach character", target: "target", targetLabel: "Flyer passing over", others: true, fields: ["situation", "d20", "crit_d4", "second_d20", "second_crit_d4"], dice: true },
  act: { label: "Move, kneel, get up…", actor: "id", actorLabel: "Who", fields: ["what"] },
  tap: { label: "Force to its knees (save)", actor: "source", actorLabel: "Forced by", optionalActor: true, target: "target", others: true, fields: ["effect_d20", "save_d20"], dice: true },
  exile: { label: "Exile (takes all actions)", actor: "caster", actorLabel: "Caster", target: "target", others: true, fields: ["effect_d20", "save_d20"], dice: true },
  detain: { label: "Detain (opposed save)", actor: "source", actorLabel: "Detained by", target: "target", others: true, fields: ["effect_d20", "save_d20"], dice: true },
  damage: { label: "Damage from a spell or effect", actor: "source", actorLabel: "Source", optionalActor: true, target: "target", fields: ["amount"] },
  life: { label: "Gain or lose life", target: "target", targetLabel: "Who", fields: ["amount"] },
  cure: { label: "Regenerate, return or burn", target: "target", targetLabel: "Who", fields: ["how", "amount"] },
  extort: { label: "Extort", actor: "user", actorLabel: "Who", fields: [] },
  ability: { label: "Planeswalker ability", actor: "user", actorLabel: "Planeswalker", fields: ["cost", "mana"] },
};
/** @type {Record<string, [string, string]>} */
const DICE_FIELDS = {
  d20: ["Attack d20", "Two with advantage or disadvantage; empty to roll."],
  crit_d4: ["Critical d4", "Only on a kept 20."],
  second_d20: ["Second d20", "Double Strike's second roll."],
  second_crit_d4: ["Second critical d4", "Only if the second roll keeps a 20."],
  target_d20: ["Enemy's d20", "When it has First Strike too: opposed rolls."],
  effect_d20: ["Effect's d20", "Rolled by the side forcing it."],
  save_d20: ["Saver's d20", "Two with advantage or disadvantage."],
  amount: ["Amount", "Damage; life (below 0 to lose it); burn damage."],
  cost: ["Loyalty cost", "As printed: +1, -3, 0."],
  mana: ["Mana available", "Empty: not checked."],
};
const LINE_MAX = 6; // enemies in a charge's line that the form offers

// ---------------------------------------------------------------- small helpers

/** Whether `c` has one of `keys`: a keyword, or a flag of the combatant's that is set (a planeswalker PC's).
 * @param {Combatant | undefined} c @param {string[]} keys */
const hasAny = (c, keys) => c !== undefined && keys.some((k) => c.keywords.includes(k) || /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (c))[k] === true);
/** Whether `c` may take action `kind` (encounter_state.ACTION_NEEDS). @param {Combatant | undefined} c @param {string} kind */
const mayTake = (c, kind) => !NEEDS[kind] || hasAny(c, NEEDS[kind]);

/** @param {number} n @param {string} one @param {string} [many] */
const plural = (n, one, many = one + "s") => `${n} ${n === 1 ? one : many}`;
/** @param {string} k */
const keywordLabel = (k) => KEYWORD_NAMES[k] ?? k;

/** Typed dice or numbers: "14", "4 17" -> 14, [4, 17]; empty -> undefined; anything else as typed (Python says what is wrong).
 * @param {string} text @returns {number | number[] | string | undefined} */
function typed(text) {
  const t = String(text).trim();
  if (!t) return undefined;
  const parts = t.split(/[\s,;/]+/).filter(Boolean);
  if (parts.every((p) => /^[+-]?[0-9]{1,6}$/.test(p))) {
    const numbers = parts.map(Number);
    return numbers.length === 1 ? numbers[0] : numbers;
  }
  return t;
}

/** @type {Promise<import("./table.js").TableSpec | null> | null} */
let tableSpec = null; // table-settings.json: the rulings' labels and choices
/** This game's house rulings in table-settings.json, by name ({} when it cannot be read).
 * @returns {Promise<Record<string, import("./table.js").TableSetting>>} */
function settingsSpec() {
  tableSpec ??= fetch(new URL("table-settings.json", siteBase())).then((r) => (r.ok ? r.json() : null)).catch(() => null);
  return tableSpec.then((spec) => spec?.settings?.tell_tale ?? {});
}

// ---------------------------------------------------------------- the page

/** @param {HTMLElement} box @param {{computeInWorker: typeof import("./calc-runtime.js").computeInWorker, copyText: import("./rules.js").CopyText}} page */
export function setUp(box, { computeInWorker, copyText }) {
  if (location.hash === PLAYERS_HASH) return setUpPlayers(box); // the players' window: no GM control, no fight of its own
  const words = /** @type {EncounterWords} */ (vocabulary(box));
  SETTINGS = words.settings;
  KEYWORDS = words.keywords.map(([k]) => k);
  KEYWORD_NAMES = Object.fromEntries(words.keywords);
  KINDS = words.kinds;
  STATUS = words.marks;
  STEPS = Object.fromEntries(words.steps.map(([step, label]) => [step, label]));
  OTHER = words.other_actions;
  EDIT_STATUSES = words.edit_statuses;
  NEEDS = words.needs;
  DICE_NEEDS = words.dice_needs;
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
    smaller: { state: (now) => ({ ...now, undo: [] }), note: "It leaves out the undo history, to fit." },
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
  const undoButton = el("button", { type: "button", class: "md-button", "data-enc": "undo", text: "Undo" });
  // The control bar: where the fight stands, Next and Undo, kept at the bottom of the screen while the
  // tracker is in view (sticky, the last thing in it), so a turn needs no scrolling back up.
  const barWhere = el("p", { class: "enc-bar-where", "data-enc": "bar-where" });
  const nextButton = el("button", { type: "button", class: "md-button md-button--primary", "data-enc": "next", text: "Next step" });
  const bar = el("div", { class: "enc-bar", role: "group", "aria-label": "Turn controls", hidden: true }, barWhere, undoButton, nextButton);
  const rulings = el("details", { class: "calc-rulings enc-rulings" });
  const keep = el("section", { class: "enc-section enc-keep", "aria-labelledby": ids("keep-title") });
  box.classList.add("encounter");
  const work = el("div", { class: "enc-work", hidden: true }); // shown once the saved encounter is read
  box.replaceChildren(shell.status, shell.notice, work);
  const actSection = el("section", { class: "enc-section", "data-enc": "act-section" },
    el("h2", { id: ids("act-title"), text: "Resolve an action" }), form, errorLine, answer);
  const addSection = el("section", { class: "enc-section", "data-enc": "add-section" }, el("h2", { id: ids("add-title"), text: "Add a combatant" }), addForm);
  work.replaceChildren(
    banner, rosterBox, actSection, addSection,
    el("section", { class: "enc-section" }, el("h2", { id: ids("log-title"), text: "Action log" }), log),
    el("section", { class: "enc-section" }, el("h2", { id: ids("rulings-title"), text: "Rulings" }), rulings),
    keep,
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
    return result;
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

  function render() {
    if (shell.ready) noteTurn(); // not before the saved fight is read: a reload keeps its turn's start
    arrange();
    renderBanner();
    renderRoster();
    renderForm();
    renderLog();
    renderRulings();
    renderKeep();
    tellPlayers();
  }

  // -------------------------------------------------------------- the players' window and the turn timer

  const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null;
  channel?.addEventListener("message", (event) => {
    if (!box.isConnected) return channel.close(); // a page Material swapped out: the players' window finds no GM tab
    if (event.data?.type === "hello" && shell.ready) tellPlayers();
  });
  window.addEventListener("pagehide", () => { if (box.isConnected && shell.ready) channel?.postMessage({ type: "bye" }); });

  /** What the players may see (encounter-players.js checks and draws it): the order, whose turn, the step and
   * round, visible statuses, the party's numbers, each foe's health as the word Python gives (band), and the
   * last headline that is not the GM's own change (Python marks those "gm"); no foe's numbers or keywords, no dice.
   * @returns {import("./encounter-players.js").PlayersView} */
  function playersView() {
    if (!state) return { v: 1, phase: "none", round: 0, turn: "", step: "", headline: "", timer: null, rows: [] };
    const shown = [...state.log].reverse().find((e) => !e.gm);
    const holder = current();
    return {
      v: 1, phase: state.phase, round: state.round, turn: holder ? /** @type {Combatant} */ (byId(holder)).name : "", step: holder ? STEPS[/** @type {string} */ (state.step)] : "",
      headline: shown?.text ?? "", timer: timerOn() && holder ? { since: turnStart.at } : null,
      rows: inOrder().map((c) => ({
        name: c.name, side: c.side, acting: Boolean(holder) && (c.owner ?? c.id) === holder,
        who: c.owner ? `${/** @type {[string, string]} */ (KINDS.find(([k]) => k === c.kind))[1]} of ${/** @type {Combatant} */ (byId(c.owner)).name}` : /** @type {[string, string]} */ (KINDS.find(([k]) => k === c.kind))[1],
        marks: [STATUS[c.status], c.health !== "conscious" ? c.health : "", c.poisoned ? "poisoned" : ""].filter(Boolean),
        numbers: c.side === "party" ? [["Power", c.power_now === c.power ? `${c.power}` : `${c.power_now}/${c.power}`],
          ["Tough.", `${c.toughness_now}/${c.toughness + Math.max(0, c.boost)}`], ["Vitality", `${c.vitality}/${c.max_vitality}`],
          ["−1/−1", `${c.counters}`]] : null,
        band: c.side === "party" ? null : c.band,
      })),
    };
  }

  function tellPlayers() {
    if (shell.ready) channel?.postMessage({ type: "view", view: playersView() });
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
    if (!box.isConnected) return clearInterval(ticking);
    timerLine.hidden = !(timerOn() && state?.phase === "combat");
    if (!timerLine.hidden) timerLine.textContent = clock(turnStart.at);
  }
  const ticking = setInterval(tickTimer, 1000);
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
      const by = el("select", { id: ids("order-by"), "data-enc": "order-by" },
        el("option", { value: "initiative", text: "By Initiative" }), el("option", { value: "hand", text: "By hand, from whoever began" }));
      by.value = state?.order_by ?? "initiative";
      by.addEventListener("change", () => run({ do: "order", by: by.value }));
      const first = el("select", { id: ids("first"), "data-enc": "first" }, el("option", { value: "", text: "As listed" }),
        ...(state?.order ?? []).map((id) => el("option", { value: id, text: /** @type {Combatant} */ (byId(id)).name })));
      lines.push(el("div", { class: "calc-fields enc-setup" },
        el("div", { class: "calc-field" }, el("label", { for: by.id, text: "Turn order" }), by),
        ...(by.value === "hand" ? [el("div", { class: "calc-field" }, el("label", { for: first.id, text: "Who began the fight" }), first)] : [])));
      tools.append(
        button("Start the fight", () => run({ do: "start", ...(first.value ? { first: first.value } : {}), ...passing() }, { roll: true }), { class: "md-button md-button--primary", "data-enc": "start" }),
        button("Roll Initiative for NPCs", () => run({ do: "initiative", all: true }, { roll: true }), { "data-enc": "roll-initiative" }));
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
      tools.append(button("Start another fight", () => run({ do: "start", ...passing() }, { roll: true }), { class: "md-button md-button--primary", "data-enc": "start" }));
    }
    tools.append(button("Show to players", showPlayers, { "data-enc": "players", title: "A second window for the players: the turn order and what they may see" }),
      el("label", { class: "enc-check enc-timer-setting" }, timerBox, " Turn timer"),
      el("label", { class: "enc-check enc-timer-setting" }, throughBox, " Pass steps that ask nothing"));
    banner.replaceChildren(title, ...lines, tools);
    renderBar();
  }

  function renderBar() {
    bar.hidden = !state;
    nextButton.hidden = state?.phase !== "combat";
    if (!state) return;
    if (state.phase === "combat") {
      const holder = /** @type {Combatant} */ (byId(current()));
      barWhere.replaceChildren(el("span", { class: "enc-bar-who" }, el("strong", { text: `Round ${state.round} · ${holder.name}` }), " ", timerLine),
        el("span", { text: STEPS[/** @type {string} */ (state.step)] }));
      tickTimer();
    } else {
      barWhere.replaceChildren(el("strong", { text: state.phase === "over" ? "The encounter is over" : "Setting up the fight" }),
        el("span", { text: plural(state.combatants.length, "combatant") }));
    }
  }

  /** @param {string} label @param {string} value @param {string} key @param {boolean} [low] */
  function stat(label, value, key, low = false) {
    return el("div", { class: "enc-stat" + (low ? " enc-low" : "") }, el("dt", { text: label }), el("dd", { "data-stat": key, text: value }));
  }

  // Which cards and editors are open: kept across redraws (each action redraws the roster).
  /** @type {Set<string>} */
  const openCards = new Set();
  /** @type {Set<string>} */
  const openEditors = new Set();
  /** @param {HTMLDetailsElement} details @param {Set<string>} set @param {string} id */
  const keepOpen = (details, set, id) => {
    details.open = set.has(id);
    details.addEventListener("toggle", () => (details.open ? set.add(id) : set.delete(id)));
    return details;
  };

  /** One line per combatant (name, Toughness, Vitality, status marks; "Another" beside it); the full card when opened. */
  /** The cards drawn last, by combatant id: a step redraws only the cards whose numbers changed.
   * @type {Map<string, [string, Element]>} */
  const drawnCards = new Map();
  function renderRoster() {
    const now = current();
    /** @param {Combatant} c */
    const acting = (c) => /** @type {Encounter} */ (state).phase === "combat" && (c.owner ?? c.id) === now;
    const cards = redraw(drawnCards, inOrder(), (c) => [c.id, JSON.stringify([c, acting(c), c.owner && byId(c.owner)?.name])], (c) => card(c, acting(c)));
    place(roster, cards.length ? cards : [el("li", { class: "enc-empty", text: "Nobody yet: add the combatants above." })]);
  }

  /** One combatant's card: its line, and the full card when opened.
   * @param {Combatant} c @param {boolean} acting */
  function card(c, acting) {
    const marks = [STATUS[c.status], c.health !== "conscious" ? c.health : "", c.poisoned ? "poisoned" : "",
      c.token ? "token" : "", c.planeswalker ? (c.ability_used ? "ability used" : "planeswalker") : ""].filter(Boolean);
    const who = [/** @type {[string, string]} */ (KINDS.find(([k]) => k === c.kind))[1], c.side === "party" ? "party" : "foes",
      c.owner ? `with ${/** @type {Combatant} */ (byId(c.owner)).name}` : `Initiative ${c.initiative ?? "–"}`];
    const full = c.toughness + Math.max(0, c.boost);
    const toughness = `${c.toughness_now}/${full}`;
    const line = el("summary", { class: "enc-row-line", "data-enc": `row-${c.id}` },
      el("span", { class: "enc-name", text: c.name }),
      acting ? el("span", { class: "enc-now", text: "acting" }) : null,
      el("span", { class: "enc-row-stat" + (c.toughness_now === 0 ? " enc-low" : ""), "aria-label": `Toughness ${toughness}`, text: `T ${toughness}` }),
      el("span", { class: "enc-row-stat" + (c.vitality <= 0 ? " enc-low" : ""), "aria-label": `Vitality ${c.vitality}/${c.max_vitality}`, text: `V ${c.vitality}/${c.max_vitality}` }),
      marks.length ? el("span", { class: "enc-flags", "data-marks": "", text: marks.join(" · ") }) : null);
    /** @param {number} delta */
    const stepper = (delta) => button(delta < 0 ? "−1" : "+1", () => run({ do: "edit", id: c.id, set: { toughness_now: c.toughness_now + delta } }), {
      class: "md-button enc-step-button", "data-enc": `toughness-${delta < 0 ? "down" : "up"}-${c.id}`,
      "aria-label": `${delta < 0 ? "Lower" : "Raise"} ${c.name}'s Toughness left by 1`,
      disabled: delta < 0 ? c.toughness_now <= 0 : c.toughness_now >= full });
    const body = el("div", { class: "enc-card-body" },
      el("p", { class: "enc-who", text: who.join(" · ") }),
      el("div", { class: "enc-toughness", role: "group", "aria-label": `${c.name}'s Toughness left` },
        el("span", { text: "Toughness left" }), stepper(-1), el("strong", { text: toughness }), stepper(1)),
      el("dl", { class: "enc-stats" },
        stat("Power", c.power_now === c.power ? `${c.power}` : `${c.power_now}/${c.power}`, "power", c.power_now < c.power),
        stat("Tough.", toughness, "toughness", c.toughness_now === 0),
        stat("Vitality", `${c.vitality}/${c.max_vitality}`, "vitality", c.vitality <= 0),
        stat("−1/−1", `${c.counters}`, "counters", c.counters > 0),
        stat("Acts", `${c.actions}`, "actions")),
      c.keywords.length ? el("p", { class: "enc-marks" }, el("span", { class: "enc-keywords", text: c.keywords.map(keywordLabel).join(", ") })) : null,
      editor(c));
    return el("li", { class: "enc-card", "data-id": c.id, "data-side": c.side, "data-health": c.health, "aria-current": acting ? "true" : null },
      keepOpen(el("details", { class: "enc-row" }, line, body), openCards, c.id),
      button("Another", () => run({ do: "another", id: c.id }), { class: "md-button enc-another", "data-enc": `another-${c.id}`,
        "aria-label": `Add another like ${c.name}`, title: `Add another like ${c.name}, numbered` }));
  }

  /** A card's folded controls: its numbers, Initiative, keywords; move up; remove.
   * @param {Combatant} c */
  function editor(c) {
    /** @param {string} name */
    const fid = (name) => ids(`${c.id}-${name}`);
    /** @type {[NumberField, string][]} */
    const fields = [["power", "Power"], ["toughness", "Toughness (full)"], ["toughness_now", "Toughness left"], ["vitality", "Vitality"],
      ["max_vitality", "Full Vitality"], ["speed", "Speed"], ["counters", "−1/−1 counters"]];
    if (!c.owner) fields.push(["initiative", "Initiative"]);
    const inputs = fields.map(([key, label]) => {
      const input = el("input", { id: fid(key), name: key, type: "text", inputmode: "numeric", autocomplete: "off", value: c[key] ?? "" });
      return el("div", { class: "calc-field" }, el("label", { for: fid(key), text: label }), input);
    });
    const status = el("select", { id: fid("status"), name: "status" },
      ...EDIT_STATUSES.filter(([, , summonsOnly]) => !summonsOnly || c.kind === "summon").map(([s, label]) => el("option", { value: s, text: label })));
    const shownStatus = EDIT_STATUSES.some(([s]) => s === c.status) ? c.status : "standing"; // detained: only an action sets or ends it
    status.value = shownStatus;
    const poisoned = el("select", { id: fid("poisoned"), name: "poisoned" }, el("option", { value: "false", text: "No" }), el("option", { value: "true", text: "Yes" }));
    poisoned.value = String(c.poisoned);
    const keywords = el("fieldset", { class: "enc-keyword-boxes" }, el("legend", { text: "Keywords" }),
      ...KEYWORDS.map((k) => el("label", { class: "enc-check" },
        el("input", { type: "checkbox", name: "keywords", value: k, checked: c.keywords.includes(k) }), " " + keywordLabel(k))));
    const form = el("form", { class: "enc-edit-form", novalidate: true },
      el("div", { class: "enc-numbers" }, ...inputs,
        el("div", { class: "calc-field" }, el("label", { for: fid("poisoned"), text: "Poisoned" }), poisoned)),
      el("div", { class: "calc-fields" }, el("div", { class: "calc-field" }, el("label", { for: fid("status"), text: "Status" }), status)),
      keywords,
      el("div", { class: "calc-actions" },
        el("button", { type: "submit", class: "md-button md-button--primary", text: `Save ${c.name}` }),
        button("Roll Initiative", () => run({ do: "initiative", id: c.id }, { roll: true }), { hidden: Boolean(c.owner) || undefined }),
        button("Move up in the order", () => moveUp(c.id), { hidden: Boolean(c.owner) || undefined }),
        button(`Remove ${c.name}`, () => run({ do: "remove", id: c.id }))));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      /** @type {Record<string, unknown>} */
      const set = {}; // what the edit changes: field -> value, as JSON
      for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (form.querySelectorAll("input[type=text]"))) {
        const raw = input.value.trim();
        const value = raw === "" ? (input.name === "initiative" ? null : undefined) : typed(raw);
        if (value !== undefined && value !== c[/** @type {NumberField} */ (input.name)]) set[input.name] = value;
      }
      if (status.value !== shownStatus) set.status = status.value;
      if (poisoned.value !== String(c.poisoned)) set.poisoned = poisoned.value === "true";
      const chosen = [.../** @type {NodeListOf<HTMLInputElement>} */ (form.querySelectorAll("input[name=keywords]:checked"))].map((i) => i.value);
      if (chosen.join() !== c.keywords.join()) set.keywords = chosen;
      if (!Object.keys(set).length) return;
      run({ do: "edit", id: c.id, set });
    });
    return keepOpen(el("details", { class: "enc-edit" }, el("summary", { text: `Change ${c.name}` }), form), openEditors, c.id);
  }

  /** @param {string} id */
  function moveUp(id) {
    const order = [.../** @type {Encounter} */ (state).order]; // a card's button: there is a fight
    const i = order.indexOf(id);
    if (i <= 0) return;
    [order[i - 1], order[i]] = [order[i], order[i - 1]];
    run({ do: "order", ids: order });
  }

  // -------------------------------------------------------------- the action form

  const actionSelect = el("select", { id: ids("do"), name: "do", "data-enc": "do" },
    ...Object.entries(ACTIONS).map(([value, spec]) => el("option", { value, text: spec.label })));
  const actorSelect = el("select", { id: ids("actor"), name: "actor", "data-enc": "actor" });
  const targetSelect = el("select", { id: ids("target"), name: "target", "data-enc": "target" });
  const actorLabel = el("label", { for: actorSelect.id, text: "Attacker" });
  const targetLabel = el("label", { for: targetSelect.id, text: "Target" });
  const situation = el("select", { id: ids("situation"), name: "situation", "data-enc": "situation" },
    el("option", { value: "normal", text: "Normal" }), el("option", { value: "advantage", text: "Advantage (surprise…)" }),
    el("option", { value: "disadvantage", text: "Disadvantage (cover…)" }));
  const what = el("select", { id: ids("what"), name: "what", "data-enc": "what" }, ...OTHER.map(([v, t]) => el("option", { value: v, text: t })));
  const how = el("select", { id: ids("how"), name: "how", "data-enc": "how" },
    el("option", { value: "regenerate", text: "Regenerate" }), el("option", { value: "return", text: "Return (PC or companion)" }),
    el("option", { value: "burn", text: "Burn one's own PC (amount)" }));
  /** @type {Record<string, HTMLInputElement>} */
  const texts = Object.fromEntries(Object.entries(DICE_FIELDS).map(([name]) => [name,
    el("input", { id: ids(name), name, type: "text", inputmode: name === "cost" || name === "amount" ? "text" : "numeric", autocomplete: "off", "data-enc": name, "aria-describedby": ids(`${name}-help`) })]));
  const line = el("fieldset", { class: "enc-line" }, el("legend", { text: "Enemies in the line, in order (dice empty to roll)" }));
  /** @type {Record<string, HTMLElement>} */
  const wrap = {
    actor: el("div", { class: "calc-field" }, actorLabel, actorSelect),
    target: el("div", { class: "calc-field" }, targetLabel, targetSelect),
    situation: el("div", { class: "calc-field" }, el("label", { for: situation.id, text: "Situation" }), situation),
    what: el("div", { class: "calc-field" }, el("label", { for: what.id, text: "Action" }), what),
    how: el("div", { class: "calc-field" }, el("label", { for: how.id, text: "How" }), how),
    line,
    ...Object.fromEntries(Object.entries(DICE_FIELDS).map(([name, [label, help]]) => [name, el("div", { class: "calc-field" },
      el("label", { for: ids(name), text: label }), texts[name], el("small", { id: ids(`${name}-help`), text: help }))])),
  };
  const resolve = el("button", { type: "submit", class: "md-button md-button--primary", "data-enc": "resolve", text: "Resolve" });
  const rollButton = el("button", { type: "button", class: "md-button", "data-enc": "roll", text: "Roll for me" });
  form.append(
    el("div", { class: "calc-fields" }, el("div", { class: "calc-field enc-wide" }, el("label", { for: actionSelect.id, text: "What happens" }), actionSelect),
      wrap.actor, wrap.target, wrap.situation, wrap.what, wrap.how,
      ...Object.keys(DICE_FIELDS).map((n) => wrap[n]), line),
    el("div", { class: "calc-actions" }, resolve, rollButton));

  /** Row `i` of a charge's line: whom it passes and their dice. @param {number} i @param {Combatant[]} others */
  function lineRow(i, others) {
    /** @param {string} name */
    const rid = (name) => ids(`line-${i}-${name}`);
    const who = el("select", { id: rid("who"), "data-enc": `line-${i}` }, el("option", { value: "", text: "(nobody)" }),
      ...others.map((c) => el("option", { value: c.id, text: c.name })));
    /** @param {string} name @param {string} label */
    const box = (name, label) => el("div", { class: "calc-field" }, el("label", { for: rid(name), text: label }),
      el("input", { id: rid(name), type: "text", inputmode: "numeric", autocomplete: "off", "data-enc": `line-${i}-${name}` }));
    return el("div", { class: "enc-line-row", "data-row": i },
      el("div", { class: "calc-field enc-wide" }, el("label", { for: rid("who"), text: `Enemy ${i + 1}` }), who),
      box("d20", "Attack d20"), box("crit_d4", "Critical d4"), box("effect_d20", "Knock-down d20 (charger)"), box("save_d20", "Save d20 (enemy)"),
      el("label", { class: "enc-check" }, el("input", { type: "checkbox", id: rid("jump"), "data-enc": `line-${i}-jump` }), " Jumps aside (Vigilance)"));
  }

  /** @param {HTMLSelectElement} select @param {Combatant[]} people @param {{blank?: string | null}} [options] */
  function fillSelect(select, people, { blank = null } = {}) {
    const keep = select.value;
    select.replaceChildren(...(blank ? [el("option", { value: "", text: blank })] : []), ...people.map((c) => el("option", { value: c.id, text: c.name })));
    if ([...select.options].some((o) => o.value === keep)) select.value = keep;
    return keep;
  }

  /** The nearest living enemy of `actor`: the next combatant of the other side after it in turn order
   * still standing in the fight (then any of the other side, then anyone else); null: nobody.
   * @param {string} actor @param {Combatant[]} people @returns {string | null} */
  function nearestEnemy(actor, people) {
    const me = byId(actor);
    if (!me) return people[0]?.id ?? null;
    const i = people.findIndex((c) => c.id === actor);
    const after = [...people.slice(i + 1), ...people.slice(0, Math.max(i, 0))].filter((c) => c.id !== actor);
    /** @param {Combatant} c */
    const inFight = (c) => c.health === "conscious" && c.status !== "exiled" && c.status !== "dispelled";
    const pick = after.find((c) => c.side !== me.side && inFight(c)) ?? after.find((c) => c.side !== me.side) ?? after[0];
    return pick?.id ?? null;
  }

  /** @type {string | null} */
  let lastHolder = null;
  /** @type {string | null} */
  let lastActor = null; // whose target the target list holds: another actor gets its own nearest enemy
  function renderForm() {
    const people = inOrder();
    const holder = current();
    const newTurn = Boolean(holder) && holder !== lastHolder;
    lastHolder = holder;
    // The menu offers an action only if somebody in the fight may take it (a charge needs Trample…);
    // a new turn starts on its holder's attack, whatever the last turn did.
    const open = Object.keys(ACTIONS).filter((kind) => !NEEDS[kind] || people.some((c) => mayTake(c, kind)));
    const was = actionSelect.value;
    if ([...actionSelect.options].map((o) => o.value).join() !== open.join()) {
      actionSelect.replaceChildren(...open.map((value) => el("option", { value, text: ACTIONS[value].label })));
    }
    actionSelect.value = newTurn || !open.includes(was) ? "attack" : was;
    const kind = actionSelect.value;
    const spec = ACTIONS[kind];
    fillSelect(actorSelect, people.filter((c) => mayTake(c, kind)), { blank: spec.optionalActor ? "(none)" : null });
    if (newTurn && !spec.optionalActor) actorSelect.value = holder ?? ""; // a new turn: its holder acts
    const actor = spec.actor ? actorSelect.value : "";
    const kept = fillSelect(targetSelect, spec.others ? people.filter((c) => c.id !== actor) : people);
    const target = byId(targetSelect.value);
    const mine = byId(actor);
    // Another actor (a new turn, or chosen), or a target no longer worth striking: the nearest living enemy.
    if (spec.others && mine && (newTurn || actor !== lastActor || kept !== targetSelect.value || !target || target.health !== "conscious" || target.side === mine.side)) {
      const enemy = nearestEnemy(actor, people);
      if (enemy) targetSelect.value = enemy;
    }
    if (spec.others) lastActor = actor;
    actorLabel.textContent = spec.actorLabel ?? "Who";
    targetLabel.textContent = spec.targetLabel ?? "Target";
    wrap.actor.hidden = !spec.actor;
    wrap.target.hidden = !spec.target;
    for (const name of ["situation", "what", "how", "line"]) wrap[name].hidden = !spec.fields.includes(name);
    showDice();
    rollButton.hidden = !spec.dice;
    resolve.textContent = spec.dice ? "Resolve with these dice" : "Do it";
    if (spec.fields.includes("line")) {
      const others = people.filter((c) => c.id !== actorSelect.value && c.side !== mine?.side); // a charge runs through enemies
      const rows = [...line.querySelectorAll(".enc-line-row")];
      const picked = rows.map((r) => /** @type {HTMLSelectElement} */ (r.querySelector("select")).value);
      line.replaceChildren(/** @type {HTMLLegendElement} */ (line.querySelector("legend")), ...Array.from({ length: Math.min(LINE_MAX, Math.max(1, others.length)) }, (_, i) => lineRow(i, others)));
      /** @type {NodeListOf<HTMLSelectElement>} */ (line.querySelectorAll(".enc-line-row select")).forEach((s, i) => {
        if (picked[i] && others.some((c) => c.id === picked[i])) s.value = picked[i];
        s.addEventListener("change", showLineRows);
      });
      showLineRows();
    }
  }

  /** The dice fields this action asks for of this actor and this target: a second attack roll only with
   * Double Strike, the enemy's opposed d20 only when it strikes first too (encounter_state.DICE_NEEDS). */
  function showDice() {
    const fields = ACTIONS[actionSelect.value].fields;
    /** @type {Record<string, Combatant | undefined>} */
    const who = { actor: byId(actorSelect.value), target: byId(targetSelect.value) };
    for (const name of Object.keys(DICE_FIELDS)) {
      const need = DICE_NEEDS[name];
      wrap[name].hidden = !fields.includes(name) || (need !== undefined && !hasAny(who[need[0]], need[1]));
    }
  }

  /** The rows of the line with somebody in them, and one more to add the next enemy; dice only where there is somebody. */
  function showLineRows() {
    let open = true;
    for (const row of /** @type {NodeListOf<HTMLElement>} */ (line.querySelectorAll(".enc-line-row"))) {
      const chosen = Boolean(/** @type {HTMLSelectElement} */ (row.querySelector("select")).value);
      row.hidden = !open;
      for (const part of /** @type {NodeListOf<HTMLElement>} */ (row.querySelectorAll(".calc-field:not(.enc-wide), .enc-check"))) part.hidden = !chosen;
      open = chosen;
    }
  }

  /** The action the form describes. @returns {Action} */
  function readAction() {
    const kind = actionSelect.value;
    const spec = ACTIONS[kind];
    /** @type {Action} */
    const action = { do: kind };
    if (spec.actor && actorSelect.value) action[spec.actor] = actorSelect.value;
    if (spec.target) action[spec.target] = targetSelect.value;
    const fields = spec.fields;
    if (fields.includes("situation") && situation.value !== "normal") action.mode = situation.value;
    if (fields.includes("what")) action.what = what.value;
    if (fields.includes("how")) action.how = how.value;
    for (const name of ["amount", "cost", "mana"]) {
      if (!wrap[name].hidden && texts[name].value.trim() !== "") action[name] = typed(texts[name].value);
    }
    /** @type {Record<string, number | number[] | string | undefined>} */
    const dice = {};
    for (const name of ["d20", "crit_d4", "second_d20", "second_crit_d4", "target_d20", "effect_d20", "save_d20"]) {
      if (!wrap[name].hidden && texts[name].value.trim() !== "") dice[name] = typed(texts[name].value);
    }
    if (Object.keys(dice).length) action.dice = dice;
    if (fields.includes("line")) {
      const rows = [...line.querySelectorAll(".enc-line-row")].filter((r) => /** @type {HTMLSelectElement} */ (r.querySelector("select")).value);
      action.targets = rows.map((r) => /** @type {HTMLSelectElement} */ (r.querySelector("select")).value);
      const jump = rows.filter((r) => /** @type {HTMLInputElement} */ (r.querySelector("input[type=checkbox]")).checked).map((r) => /** @type {HTMLSelectElement} */ (r.querySelector("select")).value);
      if (jump.length) action.jump = jump;
      /** @type {Record<string, number | number[] | string | undefined>[]} */
      const perEnemy = rows.map((r) => Object.fromEntries(["d20", "crit_d4", "effect_d20", "save_d20"]
        .map((name) => [name, typed(/** @type {HTMLInputElement} */ (r.querySelector(`[data-enc$="-${name}"]`)).value)]).filter(([, v]) => v !== undefined)));
      if (perEnemy.some((d) => Object.keys(d).length)) action.dice = perEnemy;
    }
    return action;
  }

  function clearDice() {
    for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (form.querySelectorAll("input[type=text]"))) input.value = "";
    for (const box of /** @type {NodeListOf<HTMLInputElement>} */ (form.querySelectorAll("input[type=checkbox]"))) box.checked = false;
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const result = await run(readAction());
    if (result) markFieldAtFault(form, result);
    if (result?.ok) clearDice();
  });
  rollButton.addEventListener("click", async () => {
    const result = await run(readAction(), { roll: true });
    if (result) markFieldAtFault(form, result);
    if (result?.ok) clearDice();
  });
  actionSelect.addEventListener("change", renderForm);
  actorSelect.addEventListener("change", renderForm);
  targetSelect.addEventListener("change", showDice);

  // -------------------------------------------------------------- adding a combatant

  /** @type {Record<string, HTMLInputElement | HTMLSelectElement>} */
  const add = {}; // the add form's controls, by name
  /** @param {string} name @param {string} label @param {HTMLInputElement | HTMLSelectElement} control */
  const addField = (name, label, control) => {
    add[name] = control;
    control.id = ids(`add-${name}`);
    control.name = name;
    return el("div", { class: "calc-field" }, el("label", { for: control.id, text: label }), control);
  };
  const numberBox = () => el("input", { type: "text", inputmode: "numeric", autocomplete: "off" });
  const keywordsSummary = el("summary", { text: "Keywords: none" });
  // "Another" for the combatant this form added last, beside Add: the thumb is here, the rows are far above
  /** @type {string | null} */
  let lastAdded = null;
  const addAgain = el("button", { type: "button", class: "md-button", "data-enc": "add-again", hidden: true });
  addAgain.addEventListener("click", () => run({ do: "another", id: lastAdded }));
  addForm.append(
    el("div", { class: "calc-fields" },
      addField("name", "Name", el("input", { type: "text", autocomplete: "off", maxlength: "40" })),
      addField("kind", "Kind", el("select", {}, ...KINDS.map(([v, t]) => el("option", { value: v, text: t })))),
      addField("owner", "Belongs to", el("select", {})),
      addField("side", "Side", el("select", {}, el("option", { value: "", text: "The usual (PCs: party)" }),
        el("option", { value: "party", text: "Party" }), el("option", { value: "foes", text: "Foes" }))),
      addField("extra", "Also", el("select", {}, el("option", { value: "", text: "–" }),
        el("option", { value: "planeswalker", text: "Planeswalker" }), el("option", { value: "token", text: "Token" })))),
    el("div", { class: "enc-numbers" },
      addField("power", "Power", numberBox()), addField("toughness", "Toughness", numberBox()),
      addField("vitality", "Vitality", numberBox()), addField("speed", "Speed", numberBox()),
      addField("initiative", "Initiative", numberBox())),
    // 24 boxes: folded, so that Add sits under the numbers (on a phone they were 400 px between)
    el("details", { class: "enc-add-keywords", "data-enc": "add-keywords" }, keywordsSummary,
      el("fieldset", { class: "enc-keyword-boxes" }, el("legend", { class: "md-visually-hidden", text: "Keywords" }),
        ...KEYWORDS.map((k) => el("label", { class: "enc-check" }, el("input", { type: "checkbox", name: "add-keyword", value: k }), " " + keywordLabel(k))))),
    el("div", { class: "calc-actions" }, el("button", { type: "submit", class: "md-button md-button--primary", "data-enc": "add", text: "Add" }), addAgain),
    el("p", { class: "calc-error", role: "alert", "data-enc": "add-error" }));
  const addError = /** @type {HTMLElement} */ (addForm.querySelector("[data-enc=add-error]"));
  add.kind.addEventListener("change", renderAddForm);
  addForm.addEventListener("change", (event) => {
    if (/** @type {HTMLInputElement | HTMLSelectElement} */ (event.target).name !== "add-keyword") return;
    const chosen = [.../** @type {NodeListOf<HTMLInputElement>} */ (addForm.querySelectorAll("input[name=add-keyword]:checked"))].map((i) => keywordLabel(i.value));
    keywordsSummary.textContent = `Keywords: ${chosen.length ? chosen.join(", ") : "none"}`;
  });

  function renderAddForm() {
    const again = lastAdded && state?.combatants.find((c) => c.id === lastAdded);
    addAgain.hidden = !again;
    if (again) addAgain.textContent = addAgain.title = `Add another ${again.name}`; // the title: the whole name, where a long one is cut
    const holders = /** @type {Combatant[]} */ ((state?.order ?? []).map(byId)); // every id in the order is a combatant's
    fillSelect(/** @type {HTMLSelectElement} */ (add.owner), holders, { blank: holders.length ? null : "(add its PC or NPC first)" });
    /** @type {HTMLElement} */ (add.owner.closest(".calc-field")).hidden = !["familiar", "summon"].includes(add.kind.value);
  }

  addForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    /** @type {Action} */
    const action = { do: "add", name: add.name.value, kind: add.kind.value };
    for (const key of ["power", "toughness", "vitality", "speed", "initiative"]) {
      const v = typed(add[key].value);
      if (v !== undefined) action[key] = v;
    }
    for (const key of ["power", "toughness", "vitality"]) action[key] ??= add[key].value; // empty: Python says it is needed
    if (add.side.value) action.side = add.side.value;
    if (add.owner.value && ["familiar", "summon"].includes(add.kind.value)) action.owner = add.owner.value;
    if (add.extra.value) action[add.extra.value] = true;
    action.keywords = [.../** @type {NodeListOf<HTMLInputElement>} */ (addForm.querySelectorAll("input[name=add-keyword]:checked"))].map((i) => i.value);
    const result = await run(action, { roll: false, quiet: true });
    if (!result) return;
    addError.textContent = result.ok ? "" : result.error;
    markFieldAtFault(addForm, result);
    if (result.ok) {
      answer.replaceChildren(...answerParts(result));
      for (const key of ["name", "power", "toughness", "vitality", "speed", "initiative"]) add[key].value = "";
      for (const box of /** @type {NodeListOf<HTMLInputElement>} */ (addForm.querySelectorAll("input[type=checkbox]"))) box.checked = false;
      keywordsSummary.textContent = "Keywords: none";
      lastAdded = result.state.combatants.at(-1)?.id ?? null;
      renderAddForm();
      add.name.focus();
    }
  });

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
  nextButton.addEventListener("click", () => run({ do: "next", ...passing() }));

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

  const endButton = button("End the encounter", () => run({ do: "end" }), { "data-enc": "end" });
  /** @type {HTMLButtonElement} */ (shell.newButton).before(endButton); // made by the shell's constructor (keepPanel)
  function renderKeep() {
    renderAddForm();
    endButton.hidden = state?.phase !== "combat";
  }

  keep.append(
    el("h2", { id: ids("keep-title"), text: "Save, share, end, start over" }),
    shell.keep);

  render();
  shell.start();
}
