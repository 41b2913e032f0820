// The RPGDL season tracker (docs/rpgdl/season-tracker.md, hooks/trackers.py).
//
// Every rule is decided in Python (calculators/rpgdl/league.py, reached as
// compute("track:rpgdl.season", {state, action}, seed)); this module only
// draws the season it answers and sends the actions its forms describe.
// Keeping it on the device, export, import, links, bring back and other tabs
// are the trackers' shell (tracker-shell.js). Everything shown goes in with
// textContent.

import { storedSettings } from "./table.js";
import { button, el, plural, tableSettings } from "./dom.js";
import { vocabulary } from "./tracker-kit.js";
import { TrackerShell, answerParts, labelUndo, markFieldAtFault, rulesLine } from "./tracker-shell.js";

const NAME = "rpgdl.season";
const PRIMARY = "md-button md-button--primary";
const STORE = "table-rules:rpgdl.season"; // and STORE:before, the season an import, a link or "new season" pushed aside

let uid = 0;

/**
 * The season as Python answers it (calculators/rpgdl/league.py, Season): what is kept by player or by
 * division is keyed by the vocabulary's names; `run_out`, by player, the week each division ran out (absent:
 * not yet). Its undo records are only sent back.
 * @typedef {{tracker: string, version: number, settings: Settings, players: Record<string, Player>, weeks: Week[],
 *   standings: Standing[], champions: Record<string, Champion | null>, run_out: Record<string, Partial<Record<string, number>>>,
 *   result: SeasonResult, log: LogEntry[], undo: unknown[]}} Season
 */
/**
 * The season's goal and rulings by name (league_input.read_settings): the Trainwreck limit a number, the rest choices.
 * @typedef {{goal: string, trainwreck_limit: number, [ruling: string]: string | number}} Settings
 */
/**
 * A player (league._player): the Nom Pool, the Season Deck as {card: copies}, and the problems of each.
 * @typedef {{name: string, nom_pool: PoolDuelist[], nom_pool_problems: string[], season_deck: Record<string, number>,
 *   season_deck_total: number, season_deck_problems: string[]}} Player
 */
/**
 * A duelist of a Nom Pool: its last Worth and Draw (null until it has played), and the week it lost (null: still in the Roster).
 * @typedef {{name: string, division: string, worth: number | null, draw: number | null, discarded: number | null}} PoolDuelist
 */
/**
 * One Weekend's record (league._weekend): its duels and scores, and by player the duelists that returned or were
 * discarded; the champions it crowned, by division.
 * @typedef {{week: number, duels: Duel[], first_successes: number, second_successes: number, first_trainwrecks: number,
 *   second_trainwrecks: number, returned: Record<string, string[]>, discarded: Record<string, string[]>,
 *   crowned: Record<string, string>}} Week
 */
/**
 * One slot of a Weekend: both rows (null: left empty) and how its duel went (`fought` false: no duel).
 * @typedef {{slot: string, first: WeekendRow | null, second: WeekendRow | null, fought: boolean, first_worth: number | null,
 *   second_worth: number | null, winner: string | null, successes: number, trainwreck: boolean, reasons: string[],
 *   sudden_death: boolean, roll: number[] | null}} Duel
 */
/**
 * The running totals after a week (league._standing): each player's count under `${player}_${what}`
 * (successes, trainwrecks, points), and the outcome then.
 * @typedef {{week: number, outcome: string, winner: string | null, [count: string]: number | string | null}} Standing
 */
/** A division's champion: the player, the week, and the roll-off when both ran out together.
 * @typedef {{player: string, week: number, roll: number[] | null}} Champion */
/** Where the game stands (league._result): its outcome word, the winner, whether it is over, and one sentence.
 * @typedef {{outcome: string, winner: string | null, over: boolean, weeks_played: number, headline: string}} SeasonResult */
/** One entry of the log: the action as completed, and what it did.
 * @typedef {{action: Action, headline: string, details: string[], rules: string[]}} LogEntry */
/** An action on the season (checks.Action): `do` names it; the other fields are that action's.
 * @typedef {import("./tracker-kit.js").Action} Action */
/**
 * A Weekend as the log keeps it (league._weekend, completed): each player's four rows under the player's
 * name (null: an empty slot), the Vote Pools and the roll-offs used.
 * @typedef {Action & {week: number, first: (WeekendRow | null)[], second: (WeekendRow | null)[],
 *   vote_pools: Record<string, number>, rolls?: number[][]}} WeekendAction
 */
/** A log entry of a Weekend. @typedef {LogEntry & {action: WeekendAction}} WeekendEntry */
/** A duelist's row of a Weekend as Python checked it (league_input.read_row).
 * @typedef {{name: string, division: string, worth: number, draw: number, votes: number, bonus: number}} WeekendRow */
/** A row the Weekend form is filled with: one the log kept, or one of the Roster (Worth and Draw null until it has played).
 * @typedef {{name: string, division: string, worth: number | null, draw: number | null, votes?: number, bonus?: number}} LineupRow */
/** A player's four rows, null for an empty slot. @typedef {(LineupRow | null)[]} Lineup */
/** A step on the season that worked (runner.track): the new season and what happened.
 * @typedef {import("./calc-runtime.js").Tracked<Season>} SeasonStep */
/** @typedef {import("./calc-runtime.js").Refusal} Refusal */
/**
 * What the page draws with (league_input.vocabulary): the players, [division, name] pairs, each division's
 * Championship points, [goal, label] pairs, the rulings' names and the weeks of a season.
 * @typedef {{players: string[], divisions: [string, string][], points: Record<string, number>, goals: [string, string][],
 *   rulings: string[], weeks: number}} SeasonWords
 */
/** The next Weekend's form: its fields by name (`${slot}_${player}_${field}`, `${player}_vote_pool`, rolls).
 * @typedef {HTMLFormElement & {elements: HTMLFormControlsCollection & Record<string, HTMLInputElement | HTMLSelectElement>}} WeekForm */
/** A player's form: name, nom_pool and season_deck.
 * @typedef {HTMLFormElement & {elements: HTMLFormControlsCollection & Record<string, HTMLInputElement | HTMLTextAreaElement>}} PlayerForm */

/** A log headline cut for a button: up to its first colon ("Week 3"), or 32 characters. @param {string} headline */
function shortly(headline) {
  const head = headline.split(":")[0];
  const text = head.length <= 32 ? head : headline;
  return text.length <= 32 ? text : `${text.slice(0, 31)}…`;
}

/** The season as its log alone: what a link carries (league_check.compact). @param {Season} state */
function compact(state) {
  return { tracker: state.tracker, version: state.version, log: state.log.map((e) => ({ action: e.action })) };
}

// ---------------------------------------------------------------- the tracker

/** @param {HTMLElement} box @param {{computeInWorker: typeof import("./calc-runtime.js").computeInWorker, copyText: import("./rules.js").CopyText}} page */
export function setUp(box, { computeInWorker, copyText }) {
  const id = `season-${++uid}`;
  // The players, the divisions by name, the Championship points shown beside a champion
  // (Python counts them), the goals, the rulings and the weeks of a season: league_input.vocabulary,
  // published with the page.
  const { players: PLAYERS, divisions: SLOTS, points: POINTS, goals: GOALS, rulings: RULINGS, weeks: WEEKS } = /** @type {SeasonWords} */ (vocabulary(box));
  /** @type {Season | null} */
  let state = null; // the season Python last answered (the shell's, as last drawn)
  /** @type {import("./table.js").TableSpec | null} */
  let spec = null; // table-settings.json: the rulings' labels and choices
  /** @type {TrackerShell<Season>} */
  const shell = new TrackerShell(box, {
    name: NAME, key: STORE, link: "season=", noun: "season", a: "a season", thing: "season", computeInWorker, copyText,
    /** @param {Season | null} now */
    draw: (now) => { state = now; render(); },
    /** @param {Season} now */
    worth: (now) => now.log.length > 0, // a season with nothing entered is not put aside
    fresh: async () => { // a new season, with the table's rulings
      const made = await shell.send({ do: "show" }, { from: null });
      const changes = made.ok ? tableRulings(made.state) : {};
      // changes only when `made` worked
      return Object.keys(changes).length ? shell.send({ do: "settings", settings: changes }, { from: /** @type {SeasonStep} */ (made).state }) : made;
    },
    standing: () => standing(),
    /** @param {SeasonStep} result */
    describe: (result) => `${result.state.players.first.name} against ${result.state.players.second.name}, ${result.headline}`,
    forLink: compact,
    /** @param {Season} now */
    fileName: (now) => `rpgdl-season-${PLAYERS.map((p) => now.players[p].name).join("-vs-").replace(/[^A-Za-z0-9-]+/g, "-").slice(0, 60)}-week-${now.weeks.length}.json`,
    filePrefix: "rpgdl-season",
    ready: async () => {
      work.hidden = false;
      fillNextWeek(); // a reload finds the next Weekend filled in as after entering the last one
      if (!/** @type {Season} */ (state).log.length) await applyTableRulings(settingsAnswer);
    },
  });

  const headline = el("p", { class: "season-headline", "aria-live": "polite" });
  const top = el("div", { class: "season-top" }, headline, shell.status, shell.notice);
  /** @type {Record<string, {heading: HTMLElement, body: HTMLElement}>} */
  const sections = {};
  /** @param {string} key @param {string} title @param {boolean} [open] never given */
  const section = (key, title, open) => {
    const heading = el("h2", { id: `${id}-${key}`, class: "season-heading", text: title });
    const body = el("div", { class: "season-body" });
    sections[key] = { heading, body };
    return el("section", { class: "season-section", "aria-labelledby": heading.id, "data-section": key }, heading, body);
  };
  const work = el("div", { class: "season-work", hidden: true }); // shown once the saved season is read
  box.replaceChildren(top, work);
  work.replaceChildren( // the Weekend first: it is what a table does each week
    section("week", "The next Weekend"),
    section("standings", "Standings"),
    section("weeks", "Weeks played"),
    section("players", "Players and decks"),
    section("settings", "Rulings and goal"),
    section("log", "Log"),
    section("keep", "Keep and share"));
  box.classList.add("season");

  // -------------------------------------------------------------- talking to Python

  /** One action on the season; the answer shown in `where` (a form's answer area). */
  /** @param {Action} action @param {HTMLElement} where @param {{seed?: string | null, form?: HTMLFormElement | null}} [options] */
  async function act(action, where, { seed = null, form = null } = {}) {
    if (shell.busy || !shell.ready || shell.choosing) return null;
    clearErrors(form || box);
    const result = await shell.run(action, { seed });
    if (!result) return null;
    if (!result.ok) showError(where, form, result);
    else {
      where.replaceChildren(...answerParts(result, { rolls: "roll-offs" }));
      where.dataset.state = "result";
      where.dataset.outcome = result.outcome;
    }
    return result;
  }

  /** @param {HTMLElement} scope */
  function clearErrors(scope) {
    markFieldAtFault(scope, null);
  }

  /** @param {HTMLElement} where @param {HTMLFormElement | null} form @param {Refusal} result */
  function showError(where, form, result) {
    where.replaceChildren(el("p", { class: "calc-error", role: "alert", text: result.error }));
    where.dataset.state = "error";
    const field = form && markFieldAtFault(form, result);
    if (field && form === weekForm) field.focus(); // the Enter bar may be far below the field at fault
  }

  // -------------------------------------------------------------- fields like the forms'

  /** @param {string} name @param {string} label @param {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} control
   * @param {{help?: string, row?: string, kind?: string, key?: string}} [options] */
  function field(name, label, control, { help = "", row = "", kind = "int", key = name } = {}) {
    const fid = `${id}-${key}`; // unique in the page: two player forms share their field names
    control.id = fid;
    control.name = name;
    control.setAttribute("aria-describedby", help ? `${fid}-help ${fid}-error` : `${fid}-error`);
    if (row) control.setAttribute("aria-labelledby", `${row} ${fid}-label`);
    return el("div", { class: `calc-field calc-${kind}`, "data-param": name },
      el("label", { for: fid, id: `${fid}-label`, class: row && kind === "text" ? "calc-sr-only" : null, text: label }),
      control,
      el("p", { class: "calc-field-error", id: `${fid}-error`, hidden: true }),
      help ? el("small", { id: `${fid}-help`, class: row ? "calc-sr-only" : null, text: help }) : null);
  }

  const number = (value = "", { negative = false } = {}) => el("input", negative
    ? { type: "number", step: "1", autocomplete: "off", value }
    : { type: "text", inputmode: "numeric", autocomplete: "off", value });

  /** @param {[string, string][]} choices value and label pairs @param {string} value */
  function select(choices, value) {
    const s = el("select", {}, ...choices.map(([v, label]) => el("option", { value: v, text: label })));
    s.value = value;
    return s;
  }

  const answerArea = () => el("div", { class: "calc-answer season-answer", "aria-live": "polite" });

  // Players and rulings are set up before the first Weekend; after it they fold away under a one-line summary.
  /** @type {Record<string, HTMLDetailsElement>} */
  const folds = {};
  for (const key of ["players", "settings"]) {
    // A name from the start: the summary's line is written once the season is read.
    folds[key] = el("details", { class: "season-fold", open: true }, el("summary", { text: key === "players" ? "The players" : "The rulings" }));
    sections[key].body.append(folds[key]);
  }
  /** @type {boolean | null} */
  let foldedFor = null; // whether the folds were last set for a season under way

  // -------------------------------------------------------------- the next Weekend

  const weekForm = /** @type {WeekForm} */ (el("form", { class: "calc season-form", novalidate: true, "aria-labelledby": `${id}-week` }));
  const weekAnswer = answerArea();
  /** @type {Record<string, HTMLElement>} */
  const rosterLists = {};
  for (const who of PLAYERS) {
    rosterLists[who] = el("datalist", { id: `${id}-roster-${who}` });
  }
  const rows = el("div", { class: "calc-fields" });
  for (const [slot, slotName] of SLOTS) {
    for (const who of PLAYERS) {
      const rowId = `${id}-${slot}-${who}-row`;
      /** @param {string} key */
      const f = (key) => `${slot}_${who}_${key}`;
      const name = el("input", { type: "text", autocomplete: "off", spellcheck: "false", placeholder: "Name", list: rosterLists[who].id });
      rows.append(el("fieldset", { class: "calc-row", "data-slot": slot, "data-player": who },
        el("legend", { id: rowId, "data-legend": "", text: `${slotName} slot` }),
        field(f("name"), "Name", name, { row: rowId, kind: "text", help: "The duelist's name; with a Nom Pool, one of the Roster" }),
        field(f("division"), "Division", select(SLOTS, slot), { row: rowId, kind: "choice" }),
        field(f("worth"), "Worth", number(), { row: rowId, help: "Printed Worth" }),
        field(f("draw"), "Draw", number(), { row: rowId }),
        field(f("votes"), "Votes", number(""), { row: rowId, help: "Votes spent on it, at most its Draw" }),
        field(f("bonus"), "Other ±", number("", { negative: true }), { row: rowId, help: "Other Worth changes (cards, abilities)" })));
    }
  }
  /** @type {Record<string, HTMLElement>} */
  const poolFields = {};
  for (const who of PLAYERS) {
    poolFields[who] = field(`${who}_vote_pool`, `${who === "first" ? "First" : "Second"} player's Vote Pool`, number("10"),
      { kind: "int", help: "Votes their Voters gave this week; the votes on their four duelists add up to at most this (10 unless changed)" });
    rows.append(poolFields[who]);
  }
  const rolls = el("input", { type: "text", inputmode: "decimal", autocomplete: "off", placeholder: "empty: the page rolls" });
  rows.append(field("rolls", "Sudden Death roll-offs", rolls, {
    kind: "dice", help: "Two d6 per roll-off, the first player's first, Godlike first (a Championship roll-off last); leave empty and the page rolls them",
  }));
  const enter = button("Enter the Weekend", null, { class: PRIMARY, "data-action": "weekend" });
  const clearWeek = button("Clear all", null, { "data-action": "clear" }); // short: it shares the bar with Enter on a phone
  weekForm.append(rows, rosterLists.first, rosterLists.second, el("div", { class: "calc-actions" }, enter, clearWeek));
  // The answer above the form: the week just entered, then the next one filled in below it (and in view when the game ends).
  sections.week.body.append(weekAnswer, weekForm);

  /** The Weekend form's rows of player `who`, as typed (null: an empty slot). @param {string} who */
  function rowValues(who) {
    return SLOTS.map(([slot]) => {
      /** @param {string} key */
      const value = (key) => weekForm.elements[`${slot}_${who}_${key}`].value;
      const out = { name: value("name"), division: value("division"), worth: value("worth"), draw: value("draw"), votes: value("votes"), bonus: value("bonus") };
      const empty = !out.name.trim() && !out.worth.trim() && !out.draw.trim() && !(out.votes.trim() && out.votes.trim() !== "0") && !(out.bonus.trim() && out.bonus.trim() !== "0");
      return empty ? null : out;
    });
  }

  weekForm.addEventListener("submit", (event) => {
    event.preventDefault();
    enterWeek();
  });
  weekForm.addEventListener("click", (event) => {
    const action = /** @type {Element} */ (event.target).closest("button")?.dataset.action;
    if (action === "weekend") enterWeek();
    else if (action === "clear") clearLineups();
  });
  weekForm.addEventListener("input", (event) => {
    // A name of the Roster fills its division, and its Worth and Draw as last
    // entered, as soon as it is typed or picked (not on leaving the field:
    // the player is typing in the next one by then). Filled values stay
    // marked until the player types over them, so a longer name that also
    // matches replaces them.
    const input = /** @type {HTMLInputElement | HTMLSelectElement} */ (event.target);
    delete input.dataset.auto;
    const m = /^(\w+)_(first|second)_name$/.exec(input.name || "");
    if (!m || !state) return;
    const key = input.value.trim().replace(/\s+/g, " ").toLowerCase();
    const found = state.players[m[2]].nom_pool.find((e) => e.name.toLowerCase() === key && e.discarded == null);
    if (!found) return;
    for (const [k, v] of [["division", found.division], ["worth", found.worth], ["draw", found.draw]]) {
      const target = weekForm.elements[`${m[1]}_${m[2]}_${k}`];
      if (v == null || (k !== "division" && target.value.trim() && !target.dataset.auto)) continue;
      target.value = String(v);
      target.dataset.auto = "true";
    }
  });

  async function enterWeek() {
    if (!shell.ready) return;
    const typed = rolls.value.trim();
    const seed = typed ? null : String(crypto.getRandomValues(new Uint32Array(1))[0]);
    const week = state ? state.weeks.length + 1 : 1;
    const vote_pools = Object.fromEntries(PLAYERS.map((who) => [who, weekForm.elements[`${who}_vote_pool`].value]));
    /** @type {Action & {rolls?: string}} */
    const action = { do: "weekend", week, first: rowValues("first"), second: rowValues("second"), vote_pools };
    if (typed) action.rolls = typed;
    const result = await act(action, weekAnswer, { seed, form: weekForm });
    if (result && result.ok) {
      fillNextWeek();
      if (weekAnswer.getBoundingClientRect().top < 0) weekAnswer.scrollIntoView({ block: "start" }); // tapped from the bar below
      const again = button(`Undo week ${week}`, null, { "data-action": "undo-week" });
      again.addEventListener("click", () => undoWeek(weekAnswer));
      weekAnswer.append(el("div", { class: "calc-actions" }, again));
    }
  }

  /** Undo the last Weekend and put its line-ups back in the form, to be corrected. @param {HTMLElement} where */
  async function undoWeek(where) {
    // Read as a Weekend only once its `do` says it is one.
    const last = /** @type {WeekendAction | undefined} */ (state?.log[state.log.length - 1]?.action);
    const result = await act({ do: "undo" }, where);
    if (result && result.ok && last?.do === "weekend") fillLineups(last.first, last.second, last.vote_pools, { votes: true });
  }

  /** Put line-ups in the form: rows as a Weekend action keeps them (null: an empty slot).
   * @param {Lineup} first @param {Lineup} second @param {Record<string, number>} [pools] @param {{votes?: boolean}} [options] */
  function fillLineups(first, second, pools, { votes = false } = {}) {
    clearLineups();
    for (const [who, line] of /** @type {[string, Lineup][]} */ ([["first", first], ["second", second]])) {
      SLOTS.forEach(([slot], i) => {
        const row = line[i];
        if (!row) return;
        for (const key of /** @type {(keyof LineupRow)[]} */ (["name", "division", "worth", "draw", ...(votes ? ["votes", "bonus"] : [])])) {
          const value = row[key];
          if (value == null || ((key === "votes" || key === "bonus") && !value)) continue; // 0 votes: left empty
          weekForm.elements[`${slot}_${who}_${key}`].value = String(value);
        }
      });
      if (pools?.[who] != null) weekForm.elements[`${who}_vote_pool`].value = String(pools[who]);
    }
  }

  /**
   * The next Weekend's form from the last one: each duelist still in the Roster
   * keeps its slot, name, division and last Worth and Draw; a slot whose
   * duelist lost takes the next duelist of that division left in the Nom Pool
   * (with its last Worth and Draw, if it has played). Votes and other changes
   * start empty; the Vote Pools carry over. Python checks it all again.
   */
  function fillNextWeek() {
    const entry = /** @type {WeekendEntry | undefined} */ ([.../** @type {Season} */ (state).log].reverse().find((e) => e.action.do === "weekend"));
    clearLineups();
    if (!entry || /** @type {Season} */ (state).result.over) return;
    const record = /** @type {Season} */ (state).weeks[/** @type {Season} */ (state).weeks.length - 1];
    /** @type {Record<string, Lineup>} */
    const lines = {};
    for (const who of PLAYERS) {
      const pool = /** @type {Season} */ (state).players[who].nom_pool;
      /** @param {string} name */
      const left = (name) => pool.find((e) => e.name.toLowerCase() === name.toLowerCase() && e.discarded == null);
      /** @type {Set<string>} */
      const used = new Set();
      /** @type {Lineup} */
      const line = /** @type {(WeekendRow | null)[]} */ (entry.action[who]).map((row, i) => {
        if (!row) return null;
        const shown = row.name || `${/** @type {Season} */ (state).players[who].name}'s ${SLOTS[i][1]}`;
        const stays = pool.length ? Boolean(row.name && left(row.name)) : record.returned[who].includes(shown);
        if (!stays) return null;
        const known = pool.length ? left(row.name) : null;
        used.add(row.name.toLowerCase());
        return { name: row.name, division: row.division, worth: known?.worth ?? row.worth, draw: known?.draw ?? row.draw };
      });
      SLOTS.forEach(([slot], i) => {
        if (line[i] || !pool.length) return;
        const next = pool.find((e) => e.division === slot && e.discarded == null && !used.has(e.name.toLowerCase()));
        if (!next) return;
        used.add(next.name.toLowerCase());
        line[i] = { name: next.name, division: next.division, worth: next.worth, draw: next.draw };
      });
      lines[who] = line;
    }
    fillLineups(lines.first, lines.second, entry.action.vote_pools);
  }

  /** Where the season stands, for the status line. */
  function standing() {
    const played = /** @type {Season} */ (state).weeks.length;
    const championship = /** @type {Season} */ (state).settings.goal === "championship";
    if (/** @type {Season} */ (state).result.over) return `The game is over after ${plural(played, "week")}; the season is saved on this device.`;
    if (!played) {
      const named = PLAYERS.some((p) => /** @type {Season} */ (state).log.some((e) => e.action.do === "player" && e.action.player === p));
      return named ? "Week 1 next: the players are set up; enter the first Weekend." : "A new season: name the players, or enter the first Weekend.";
    }
    const of = championship ? "" : ` of ${WEEKS}`;
    return `${played}${of} weeks played. Week ${played + 1} is filled in from week ${played}: change what changed. Saved on this device.`;
  }

  function clearLineups() {
    for (const input of weekForm.querySelectorAll("input")) {
      input.value = "";
      delete input.dataset.auto;
    }
    for (const [slot] of SLOTS) for (const who of PLAYERS) weekForm.elements[`${slot}_${who}_division`].value = slot;
    for (const who of PLAYERS) weekForm.elements[`${who}_vote_pool`].value = "10";
    clearErrors(weekForm);
  }

  // -------------------------------------------------------------- players and decks

  /** @type {Record<string, {form: PlayerForm, title: HTMLElement, answer: HTMLElement, pool: HTMLTextAreaElement, deck: HTMLTextAreaElement}>} */
  const playerForms = {};
  for (const who of PLAYERS) {
    const form = /** @type {PlayerForm} */ (el("form", { class: "calc season-player", novalidate: true, "data-player": who }));
    const title = el("h3", { id: `${id}-player-${who}`, text: who === "first" ? "First player" : "Second player" });
    form.setAttribute("aria-labelledby", title.id);
    const answer = answerArea();
    const pool = el("textarea", { rows: "5", spellcheck: "false" });
    const deck = el("textarea", { rows: "4", spellcheck: "false" });
    form.append(title, el("div", { class: "calc-fields" },
      field("name", "Name", el("input", { type: "text", autocomplete: "off", maxlength: "40" }), { kind: "text", help: "Up to 40 characters", key: `${who}-name` }),
      field("nom_pool", "Nom Pool: one duelist a line, 'Worker 8, Heavy'", pool, { kind: "text", help: "20 duelists; fixed once the first Weekend is entered", key: `${who}-nom_pool` }),
      field("season_deck", "Season Deck: one card a line, '4 Axeman'", deck, { kind: "text", help: "40 cards or more, at most 4 of each", key: `${who}-season_deck` })),
    el("div", { class: "season-roster", "aria-live": "polite" }), answer,
    el("div", { class: "calc-actions" }, button("Save", null, { class: PRIMARY, "data-action": "save" })));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      savePlayer(who);
    });
    form.addEventListener("click", (event) => {
      if (/** @type {Element} */ (event.target).closest("button")?.dataset.action === "save") savePlayer(who);
    });
    playerForms[who] = { form, title, answer, pool, deck };
    folds.players.append(form);
  }

  /** @param {Player} player */
  const poolText = (player) => player.nom_pool.map((e) => `${e.name}, ${e.division[0].toUpperCase()}${e.division.slice(1)}`).join("\n");
  /** @param {Player} player */
  const deckText = (player) => Object.entries(player.season_deck).map(([card, n]) => `${n} ${card}`).join("\n");

  /** @param {string} who */
  function savePlayer(who) {
    if (!shell.ready) return;
    const { form, answer } = playerForms[who];
    const player = /** @type {Season} */ (state).players[who];
    /** @type {Action & {name?: string, nom_pool?: string, season_deck?: string}} */
    const action = { do: "player", player: who };
    const name = form.elements.name.value;
    if (name.trim().replace(/\s+/g, " ") !== player.name) action.name = name;
    if (!form.elements.nom_pool.readOnly && form.elements.nom_pool.value.trim() !== poolText(player)) action.nom_pool = form.elements.nom_pool.value;
    if (form.elements.season_deck.value.trim() !== deckText(player)) action.season_deck = form.elements.season_deck.value;
    if (Object.keys(action).length === 2) {
      answer.replaceChildren(el("p", { class: "calc-headline", text: "Nothing changed." }));
      return;
    }
    act(action, answer, { form });
  }

  // -------------------------------------------------------------- rulings and goal

  const settingsForm = el("form", { class: "calc season-settings", novalidate: true, "aria-labelledby": `${id}-settings` });
  const settingsAnswer = answerArea();
  const settingsFields = el("div", { class: "calc-fields" });
  const settingsNote = el("p", { class: "season-note" });
  settingsForm.append(settingsNote, el("fieldset", { class: "season-settings-fields" }, el("legend", { class: "calc-sr-only", text: "The season's goal and rulings" }), settingsFields),
    settingsAnswer, el("div", { class: "calc-actions" }, button("Save the rulings", null, { class: PRIMARY, "data-action": "settings" })));
  folds.settings.append(settingsForm);
  settingsForm.addEventListener("submit", (event) => {
    event.preventDefault();
    saveSettings();
  });
  settingsForm.addEventListener("click", (event) => {
    if (/** @type {Element} */ (event.target).closest("button")?.dataset.action === "settings") saveSettings();
  });

  function buildSettingsFields() {
    const rulings = spec?.settings?.rpgdl || {};
    settingsFields.replaceChildren(field("goal", "Game goal", select(GOALS, GOALS[0][0]), { kind: "choice", help: `Most Successes after ${WEEKS} weeks, or the alternate Championship goal` }));
    for (const key of RULINGS) {
      const s = rulings[key];
      if (!s) continue;
      const control = s.kind === "choice" ? select(s.choices, s.default) : number(s.default);
      settingsFields.append(field(key, s.label, control, { kind: s.kind === "choice" ? "choice" : "int", help: `Ruling ${s.ruling}` }));
    }
  }

  function saveSettings() {
    if (!shell.ready) return;
    /** @type {Record<string, string>} */
    const changes = {};
    for (const control of /** @type {NodeListOf<HTMLInputElement | HTMLSelectElement>} */ (settingsFields.querySelectorAll("[name]"))) {
      if (String(/** @type {Season} */ (state).settings[control.name]) !== control.value) changes[control.name] = control.value;
    }
    if (!Object.keys(changes).length) {
      settingsAnswer.replaceChildren(el("p", { class: "calc-headline", text: "Nothing changed." }));
      return;
    }
    act({ do: "settings", settings: changes }, settingsAnswer, { form: settingsForm });
  }

  /** The device's house rulings (table settings) that differ from `season`'s. @param {Season | null} season */
  function tableRulings(season) {
    const stored = storedSettings();
    /** @type {Record<string, string>} */
    const out = {};
    for (const key of RULINGS) {
      const value = stored[`rpgdl.${key}`];
      if (value != null && season && String(season.settings[key]) !== value) out[key] = value;
    }
    return out;
  }

  // -------------------------------------------------------------- log, undo

  const logList = el("ol", { class: "season-log" });
  const logAnswer = answerArea();
  const undoButton = button("Undo", null, { "data-action": "undo" });
  sections.log.body.append(el("div", { class: "calc-actions" }, undoButton), logAnswer, logList);
  undoButton.addEventListener("click", () => undoWeek(logAnswer));

  // -------------------------------------------------------------- keep and share

  sections.keep.body.append(shell.keep);

  /** @param {HTMLElement} where */
  async function applyTableRulings(where) {
    const changes = state && !state.log.length ? tableRulings(state) : {};
    if (Object.keys(changes).length) await act({ do: "settings", settings: changes }, where);
  }

  // -------------------------------------------------------------- drawing the season

  function render() {
    if (!state) return;
    /** @type {Record<string, string>} */
    const names = { first: state.players.first.name, second: state.players.second.name };
    const championship = state.settings.goal === "championship";
    box.dataset.outcome = state.result.outcome;
    box.dataset.weeks = String(state.weeks.length);
    headline.textContent = `${names.first} against ${names.second}: ${state.result.headline}`;

    // Standings
    const groups = [["Successes", "successes"], ["Trainwrecks", "trainwrecks"], ...(championship ? [["Points", "points"]] : [])];
    const head1 = el("tr", {}, el("th", { scope: "col", rowspan: "2", text: "Week" }),
      ...groups.map(([label]) => el("th", { scope: "colgroup", colspan: "2", text: label })));
    const head2 = el("tr", {}, ...groups.flatMap(() => PLAYERS.map((p) => el("th", { scope: "col", class: "season-name", title: names[p], text: names[p] }))));
    const body = state.standings.map((s) => el("tr", { "data-week": String(s.week) }, el("th", { scope: "row", text: String(s.week) }),
      ...groups.flatMap(([, key]) => PLAYERS.map((p) => el("td", { "data-key": `${p}_${key}`, text: String(s[`${p}_${key}`]) })))));
    const limit = state.settings.trainwreck_limit;
    sections.standings.body.replaceChildren(
      state.standings.length
        ? el("div", { class: "season-scroll" }, el("table", { class: "season-standings" },
          el("caption", { text: `After each week (running totals; ${limit} Trainwrecks lose at once)` }),
          el("thead", {}, head1, head2), el("tbody", {}, ...body)))
        : el("p", { class: "season-note", text: "No Weekend yet: enter the first one below." }),
      divisionsTable(names, championship));

    // The next Weekend
    const open = !state.result.over;
    sections.week.heading.textContent = open ? `Week ${state.weeks.length + 1}: the Weekend` : "The game is over";
    weekForm.hidden = !open;
    enter.textContent = `Enter week ${state.weeks.length + 1}`;
    for (const legend of weekForm.querySelectorAll("legend[data-legend]")) {
      const fs = /** @type {HTMLElement} */ (legend.parentElement);
      legend.textContent = `${/** @type {[string, string]} */ (SLOTS.find(([s]) => s === fs.dataset.slot))[1]} slot, ${names[/** @type {string} */ (fs.dataset.player)]}`;
    }
    for (const who of PLAYERS) {
      /** @type {HTMLLabelElement} */ (poolFields[who].querySelector("label")).textContent = `${names[who]}'s Vote Pool`;
      rosterLists[who].replaceChildren(...state.players[who].nom_pool.filter((e) => e.discarded == null)
        .map((e) => el("option", { value: e.name, label: `${e.division}${e.worth != null ? `, Worth ${e.worth}, Draw ${e.draw}` : ""}` })));
    }
    if (!open) sections.week.body.querySelector(".season-over")?.remove();
    if (!open) sections.week.body.prepend(el("p", { class: "season-over calc-headline", text: state.result.headline }));
    else sections.week.body.querySelector(".season-over")?.remove();

    // Weeks played
    const weekEntries = state.log.filter((e) => e.action.do === "weekend");
    sections.weeks.body.replaceChildren(...(weekEntries.length ? weekEntries.map((entry, i) => el("details", { class: "season-week", open: i === weekEntries.length - 1, "data-week": String(i + 1) },
      el("summary", { text: entry.headline }),
      el("ul", {}, ...entry.details.map((d) => el("li", { text: d }))))) : [el("p", { class: "season-note", text: "None yet." })]));

    // Players
    const started = state.weeks.length > 0;
    for (const who of PLAYERS) {
      const { form, title, pool, deck } = playerForms[who];
      const player = state.players[who];
      title.textContent = `${who === "first" ? "First" : "Second"} player: ${player.name}`;
      form.elements.name.value = player.name;
      pool.value = poolText(player);
      deck.value = deckText(player);
      pool.readOnly = started;
      /** @type {HTMLElement} */ (form.querySelector(".season-roster")).replaceChildren(...rosterView(player));
    }

    if (foldedFor !== started) {
      foldedFor = started;
      for (const fold of Object.values(folds)) fold.open = !started;
    }
    const problems = PLAYERS.map((p) => /** @type {Season} */ (state).players[p]).filter((pl) => pl.nom_pool_problems.length || pl.season_deck_problems.length);
    /** @type {HTMLElement} */ (folds.players.querySelector("summary")).textContent = `${names.first} and ${names.second}: ` + (problems.length
      ? `problems in ${problems.map((pl) => pl.name).join(" and ")}'s decks`
      : PLAYERS.some((p) => /** @type {Season} */ (state).players[p].nom_pool.length) ? "decks checked, Rosters kept" : "no Nom Pools yet");
    const goal = /** @type {[string, string]} */ (GOALS.find(([g]) => g === /** @type {Season} */ (state).settings.goal))[1];
    /** @type {HTMLElement} */ (folds.settings.querySelector("summary")).textContent = `${goal}; ${state.settings.trainwreck_limit} Trainwrecks lose` + (started ? " (fixed for this season)" : "");

    // Rulings
    for (const control of /** @type {NodeListOf<HTMLInputElement | HTMLSelectElement>} */ (settingsFields.querySelectorAll("[name]"))) control.value = String(state.settings[control.name]);
    /** @type {HTMLFieldSetElement} */ (settingsForm.querySelector("fieldset")).disabled = started;
    /** @type {HTMLElement} */ (settingsForm.querySelector("[data-action=settings]")).hidden = started;
    const house = tableRulings(state);
    settingsNote.textContent = started
      ? "These rulings are fixed for the season once the first Weekend is entered (undo the weeks to change them)."
      : "A new season starts with your table settings; change them here before the first Weekend."
        + (Object.keys(house).length ? ` Your table settings differ from this season's in ${plural(Object.keys(house).length, "ruling")}.` : "");

    // Log
    logList.replaceChildren(...state.log.map((entry, i) => el("li", { "data-do": entry.action.do },
      el("p", { class: "season-log-headline", text: entry.headline }),
      entry.rules.length ? el("details", { class: "season-rules" }, el("summary", { text: `Rules applied (${entry.rules.length})` }), rulesLine(entry.rules)) : null)));
    const last = state.log[state.log.length - 1]?.headline ?? null;
    labelUndo(undoButton, last, last && `Undo: ${shortly(last)}`);
  }

  /** @param {Record<string, string>} names @param {boolean} championship */
  function divisionsTable(names, championship) {
    const pools = PLAYERS.some((p) => /** @type {Season} */ (state).players[p].nom_pool.length);
    if (!pools) return el("p", { class: "season-note", text: "Enter the Nom Pools under Players and decks to follow each Roster and who runs out of a division." });
    /** @param {string} p @param {string} d */
    const cell = (p, d) => {
      const pool = /** @type {Season} */ (state).players[p].nom_pool;
      if (!pool.length) return el("td", { text: "no Nom Pool" });
      const left = pool.filter((e) => e.division === d && e.discarded == null).length;
      const out = /** @type {Season} */ (state).run_out[p][d];
      const text = out == null ? `${left} left` : out ? `run out (week ${out})` : "none in the Nom Pool";
      return el("td", { "data-key": `${p}_${d}`, class: out != null ? "season-out" : null, text });
    };
    const rows = SLOTS.map(([d, label]) => {
      const champ = /** @type {Season} */ (state).champions[d];
      return el("tr", {}, el("th", { scope: "row", text: label }), cell("first", d), cell("second", d),
        ...(championship ? [el("td", { "data-key": `champion_${d}`, text: champ ? `${names[champ.player]} (${POINTS[d]})` : "—" })] : []));
    });
    return el("div", { class: "season-scroll" }, el("table", { class: "season-divisions" },
      el("caption", { text: championship ? "Divisions: duelists left in each Roster, and the champions" : "Divisions: duelists left in each Roster" }),
      el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "Division" }), ...PLAYERS.map((p) => el("th", { scope: "col", class: "season-name", title: names[p], text: names[p] })),
        ...(championship ? [el("th", { scope: "col", text: "Champion (points)" })] : []))),
      el("tbody", {}, ...rows)));
  }

  /** @param {Player} player */
  function rosterView(player) {
    if (!player.nom_pool.length) return [el("p", { class: "season-note", text: "No Nom Pool: Weekends take any names, and the Roster is not kept." })];
    const out = [];
    const problems = [...player.nom_pool_problems, ...player.season_deck_problems];
    out.push(el("p", { class: problems.length ? "season-problems-title" : "season-legal",
      text: `Nom Pool ${player.nom_pool_problems.length ? "not legal" : "legal"}; Season Deck: ${player.season_deck_total} cards${player.season_deck_problems.length ? ", not legal" : Object.keys(player.season_deck).length ? ", legal" : ""}.` }));
    if (problems.length) out.push(el("ul", { class: "season-problems" }, ...problems.map((p) => el("li", { text: p }))));
    const lost = player.nom_pool.filter((e) => e.discarded != null);
    out.push(el("p", { class: "season-note", text: `Roster: ${player.nom_pool.length - lost.length} of ${player.nom_pool.length} left.` + (lost.length ? ` Defeated: ${lost.map((e) => `${e.name} (week ${e.discarded})`).join(", ")}.` : "") }));
    return out;
  }

  // -------------------------------------------------------------- starting

  async function start() {
    spec = await tableSettings();
    buildSettingsFields();
    await shell.start();
  }

  start();
}
