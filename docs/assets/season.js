// The RPGDL season tracker (docs/rpgdl/season-tracker.md, rulebook/render.py).
//
// Every rule is decided in Python (calculators/rpgdl/league.py, reached as
// compute("track:rpgdl.season", {state, action}, seed)); the page only draws
// the season it answers and sends the actions its forms describe. This
// module lays the page out, sends the actions and draws the season after
// each; its parts are modules of their own: the Weekend (season-week.js),
// the players (season-players.js), the rulings (season-rulings.js), the
// standings and divisions (season-tables.js). Keeping it on the device,
// export, import, links, bring back and other tabs are the trackers' shell
// (tracker-shell.js). Everything shown goes in with textContent.

import { button, el, plural, tableSettings } from "./dom.js";
import { trackerName, vocabulary } from "./tracker-kit.js";
import { TrackerShell } from "./tracker-shell.js";
import { answerParts, labelRedo, labelUndo, markFieldAtFault, rulesLine } from "./tracker-answer.js";
import { weekend } from "./season-week.js";
import { playerTitle } from "./season-fields.js";
import { trackerControls } from "./tracker-form.js";
import { playerForms } from "./season-players.js";
import { rulingsForm, tableRulings } from "./season-rulings.js";
import { divisionsTable, standingsTable, weeksPlayed } from "./season-tables.js";
import { SEASON } from "./storage.js";

const STORE = SEASON; // and STORE + ASIDE (storage.js), the season an import, a link or "new season" pushed aside

let uid = 0;

/** The season as Python answers it and everything it holds: types written from Python's TypedDicts
 * (calculators/rpgdl/league_types.py; calculators/typescript.py, make lint). Its undo records are only sent back.
 * @typedef {import("../../types/trackers").Season} Season
 * @typedef {import("../../types/trackers").Settings} Settings
 * @typedef {import("../../types/trackers").Player} Player
 * @typedef {import("../../types/trackers").PoolDuelist} PoolDuelist
 * @typedef {import("../../types/trackers").Week} Week
 * @typedef {import("../../types/trackers").Duel} Duel
 * @typedef {import("../../types/trackers").Standing} Standing
 * @typedef {import("../../types/trackers").Champion} Champion
 * @typedef {import("../../types/trackers").SeasonResult} SeasonResult
 * @typedef {import("../../types/trackers").SeasonEntry} LogEntry
 * @typedef {import("../../types/trackers").DuelistRow} WeekendRow */
/** An action on the season (checks.Action): `do` names it; the other fields are that action's.
 * @typedef {import("./tracker-kit.js").Action} Action */
/**
 * A Weekend as the log keeps it (league._weekend, completed): each player's four rows under the player's
 * name (null: an empty slot), the Vote Pools and the roll-offs used.
 * @typedef {Action & {week: number, first: (WeekendRow | null)[], second: (WeekendRow | null)[],
 *   vote_pools: Record<string, number>, rolls?: number[][], cards?: Record<string, {votes: number, trainwrecks: number}>}} WeekendAction
 */
/** A log entry of a Weekend. @typedef {LogEntry & {action: WeekendAction}} WeekendEntry */
/** A step on the season that worked (runner.track): the new season and what happened.
 * @typedef {import("./calc-runtime.js").Tracked<Season>} SeasonStep */
/** @typedef {import("./calc-runtime.js").Refusal} Refusal */
/**
 * What the page draws with (league_input.vocabulary): the players, [division, name] pairs, each division's
 * Championship points, [goal, label] pairs, the rulings' names, the weeks of a season and a Vote Pool unless changed.
 * @typedef {{players: string[], divisions: [string, string][], points: Record<string, number>, goals: [string, string][],
 *   rulings: string[], weeks: number, vote_pool: number, card_fields: {key: string, label: string, help: string}[],
 *   actions: import("./tracker-form.js").Spec[]}} SeasonWords
 */

/** How an action's answer is shown: `where` takes a refusal (the field at fault in `form` marked, and
 * focused with `focus`), `done` the answer when it worked (default: `where`, which is emptied otherwise).
 * @typedef {{seed?: string | null, form?: HTMLFormElement | null, focus?: boolean, done?: HTMLElement}} ActOptions */
/**
 * What the season's parts (season-week.js, season-players.js, season-rulings.js) need of their page.
 * @typedef {object} SeasonPage
 * @property {string} id the prefix of the page's ids
 * @property {SeasonWords} words the tracker's vocabulary
 * @property {() => Season | null} season the season as last drawn
 * @property {() => boolean} ready whether the saved season is read: no control acts before
 * @property {(action: Action, where: HTMLElement, options?: ActOptions) => Promise<SeasonStep | Refusal | null>} act
 *   one action on the season (null: none may run now), its answer shown
 */
/** A log headline cut for a button: up to its first colon ("Week 3"), or 32 characters. @param {string} headline */
function shortly(headline) {
  const head = headline.split(":")[0];
  const text = head.length <= 32 ? head : headline;
  return text.length <= 32 ? text : `${text.slice(0, 31)}…`;
}

// ---------------------------------------------------------------- the tracker

/** The page's sections, each a heading and a body, in order: the Weekend first, since it is what a table does each
 * week, and the week just entered above it. @param {string} id the page's */
function sectionsOf(id) {
  /** @param {string} key @param {string} title */
  const section = (key, title) => {
    const heading = el("h2", { id: `${id}-${key}`, class: "season-heading", text: title });
    const body = el("div", { class: "season-body" });
    return { section: el("section", { class: "season-section", "aria-labelledby": heading.id, "data-section": key }, heading, body), heading, body };
  };
  return {
    result: section("result", "The week entered"),
    week: section("week", "The next Weekend"),
    standings: section("standings", "Standings"),
    weeks: section("weeks", "Weeks played"),
    players: section("players", "Players and decks"),
    settings: section("settings", "Rulings and goal"),
    log: section("log", "Log"),
    keep: section("keep", "Keep and share"),
  };
}

/** The one-line summaries of the folded players and rulings. @param {Record<string, HTMLElement>} folds
 * @param {Season} now @param {Record<string, string>} names @param {SeasonWords} words @param {boolean} started */
function foldSummaries(folds, now, names, { players: PLAYERS, goals: GOALS }, started) {
  const problems = PLAYERS.map((p) => now.players[p]).filter((pl) => pl.nom_pool_problems.length || pl.season_deck_problems.length);
  /** @type {HTMLElement} */ (folds.players.querySelector("summary")).textContent = `${names.first} and ${names.second}: ` + (problems.length
    ? `problems in ${problems.map((pl) => pl.name).join(" and ")}'s decks`
    : PLAYERS.some((p) => now.players[p].nom_pool.length) ? "decks checked, Rosters kept" : "no Nom Pools yet");
  const goal = /** @type {[string, string]} */ (GOALS.find(([g]) => g === now.settings.goal))[1];
  /** @type {HTMLElement} */ (folds.settings.querySelector("summary")).textContent = `${goal}; ${now.settings.trainwreck_limit} Trainwrecks lose` + (started ? " (fixed for this season)" : "");
}

/** The log, oldest first, and what Undo and Redo take back. @param {HTMLElement} logList @param {HTMLButtonElement} undoButton
 * @param {HTMLButtonElement} redoButton @param {Season} now */
function renderLog(logList, undoButton, redoButton, now) {
  logList.replaceChildren(...now.log.map((entry) => el("li", { "data-do": String(entry.action.do) },
    el("p", { class: "season-log-headline", text: entry.headline }),
    entry.rules.length ? el("details", { class: "season-rules" }, el("summary", { text: `Rules applied (${entry.rules.length})` }), rulesLine(entry.rules)) : null)));
  const last = now.log[now.log.length - 1]?.headline ?? null;
  labelUndo(undoButton, last, last && `Undo: ${shortly(last)}`);
  labelRedo(redoButton, now.redo?.length ?? 0);
}

/** Where the season stands, for the status line. @param {Season} now @param {SeasonWords} words */
function standing(now, { players: PLAYERS, weeks: WEEKS }) {
  const played = now.weeks.length;
  if (now.result.over) return `The game is over after ${plural(played, "week")}; the season is saved on this device.`;
  if (!played) {
    const named = PLAYERS.some((p) => now.log.some((e) => e.action.do === "player" && e.action.player === p));
    return named ? "Week 1 next: the players are set up; enter the first Weekend." : "A new season: name the players, or enter the first Weekend.";
  }
  const of = now.settings.goal === "championship" ? "" : ` of ${WEEKS}`;
  return `${played}${of} weeks played. Week ${played + 1} is filled in from week ${played}: change what changed. Saved on this device.`;
}

/** One action on the season through `shell`, its answer shown (ActOptions).
 * @param {TrackerShell<Season>} shell @param {HTMLElement} box */
const actOn = (shell, box) => async (/** @type {Action} */ action, /** @type {HTMLElement} */ where, /** @type {ActOptions} */ { seed = null, form = null, focus = false, done = where } = {}) => {
  if (shell.busy || !shell.ready || shell.choosing) return null;
  markFieldAtFault(form || box, null);
  const result = await shell.run(action, { seed });
  if (!result) return null;
  if (!result.ok) {
    where.replaceChildren(el("p", { class: "calc-error", role: "alert", text: result.error }));
    where.dataset.state = "error";
    const field = form && markFieldAtFault(form, result);
    if (field && focus) { // the Enter bar may be far below the field at fault
      field.focus({ preventScroll: true });
      // its sentence, right under it, in the middle of the screen: clear of the sticky Enter bar
      (form?.querySelector(`#${CSS.escape(field.id)}-error`) ?? field).scrollIntoView({ block: "center" });
    }
  } else {
    if (done !== where) where.replaceChildren();
    done.replaceChildren(...answerParts(result, { rolls: "roll-offs" }));
    done.dataset.state = "result";
    done.dataset.outcome = result.outcome;
  }
  return result;
};

/** The players' and rulings' folds and forms, and the log with Undo and Redo.
 * @param {SeasonPage} page @param {ReturnType<typeof sectionsOf>} sections @param {ReturnType<typeof weekend>} week */
function seasonParts(page, sections, week) {
  // Players and rulings are set up before the first Weekend; after it they fold away under a one-line summary.
  /** @param {string} name */
  const fold = (name) => el("details", { class: "season-fold", open: true }, el("summary", { text: name })); // its line is written once the season is read
  const folds = { players: fold("The players"), settings: fold("The rulings") };
  sections.players.body.append(folds.players);
  sections.settings.body.append(folds.settings);
  const logList = el("ol", { class: "season-log" });
  const logAnswer = el("div", { class: "calc-answer season-answer", "aria-live": "polite" });
  const undoButton = button("Undo", () => week.undoWeek(logAnswer), { "data-action": "undo", "data-do": "undo" });
  const redoButton = button("Redo", () => week.redoWeek(logAnswer), { "data-action": "redo", "data-do": "redo", hidden: true });
  sections.log.body.append(el("div", { class: "calc-actions" }, undoButton, redoButton), logAnswer, logList);
  return { folds, players: playerForms(page, folds.players), rulings: rulingsForm(page, folds.settings), logList, logAnswer, undoButton, redoButton };
}

/** The controls of the actions the season's own parts do not draw (each of theirs carries its action's name in
 * data-do), drawn from their declarations (tracker-form.js): a menu's or the bar's above the log, a player's under the
 * players, a set-up's under the rulings; their answers in the log's.
 * @param {HTMLElement} box @param {SeasonPage} page @param {HTMLElement} answer */
function moreControls(box, page, answer) {
  const own = new Set([...box.querySelectorAll(":is(button, select, option, input)[data-do]")].map((c) => /** @type {HTMLElement} */ (c).dataset.do));
  const controls = trackerControls(page.words.actions.filter((a) => a.place !== "shell" && !own.has(a.name)), {
    hook: "season", run: (action) => page.act(action, answer),
    refuse: (sentence) => answer.replaceChildren(el("p", { class: "calc-error", role: "alert", text: sentence })),
    entries: () => page.words.players, id: (who) => who, title: (who) => page.season()?.players[who].name ?? playerTitle(page.words, who),
  });
  const parts = { bar: el("div", { class: "calc-actions" }), roster: el("div", {}), setup: el("div", {}) };
  return { ...parts, render: () => {
    parts.bar.replaceChildren(...controls.at("menu"), ...controls.bar());
    parts.roster.replaceChildren(...page.words.players.flatMap((who) => controls.roster(who)));
    parts.setup.replaceChildren(...controls.setup());
  } };
}

/** @param {HTMLElement} box @param {{computeInWorker: typeof import("./calc-runtime.js").computeInWorker, copyText: import("./copy-link.js").CopyText}} page */
export function setUp(box, { computeInWorker, copyText }) {
  const NAME = trackerName(box); // as Python names it (Tracker.name), written on the container by the build
  const id = `season-${++uid}`;
  // The players, divisions, Championship points, goals, rulings and weeks: league_input.vocabulary, published with the page.
  const words = /** @type {SeasonWords} */ (vocabulary(box));
  const { players: PLAYERS } = words;
  /** @type {Season | null} */
  let state = null; // the season Python last answered (the shell's, as last drawn)
  /** @type {TrackerShell<Season>} */
  const shell = new TrackerShell(box, {
    name: NAME, key: STORE, link: "season=", noun: "season", a: "a season", thing: "season", computeInWorker, copyText,
    /** @param {Season | null} now */
    draw: (now) => { state = now; render(); },
    /** @param {Season} now */
    worth: (now) => now.log.length > 0, // a season with nothing entered is not put aside
    fresh: async () => { // a new season, with the table's rulings
      const made = await shell.send({ do: "show" }, { from: null });
      const changes = made.ok ? tableRulings(made.state, words.rulings) : {};
      // changes only when `made` worked
      return Object.keys(changes).length ? shell.send({ do: "settings", settings: changes }, { from: /** @type {SeasonStep} */ (made).state }) : made;
    },
    standing: () => standing(/** @type {Season} */ (state), words),
    /** @param {SeasonStep} result */
    describe: (result) => `${result.state.players.first.name} against ${result.state.players.second.name}, ${result.headline}`,
    /** @param {Season} now */
    fileName: (now) => `rpgdl-season-${PLAYERS.map((p) => now.players[p].name).join("-vs-").replace(/[^A-Za-z0-9-]+/g, "-").slice(0, 60)}-week-${now.weeks.length}.json`,
    filePrefix: "rpgdl-season",
    ready: async () => {
      work.hidden = false;
      week.fillNextWeek(); // a reload finds the next Weekend filled in as after entering the last one
      await rulings.applyTableRulings();
    },
  });

  const headline = el("p", { class: "season-headline", "aria-live": "polite" });
  const top = el("div", { class: "season-top" }, headline, shell.status, shell.notice);
  const sections = sectionsOf(id);
  const work = el("div", { class: "season-work", hidden: true }, ...Object.values(sections).map((s) => s.section)); // shown once the saved season is read
  box.replaceChildren(top, work);
  box.classList.add("season");
  /** @type {SeasonPage} */
  const page = { id, words, season: () => state, ready: () => shell.ready, act: actOn(shell, box) };
  const week = weekend(page, sections.result, sections.week);

  const { folds, players, rulings, logList, logAnswer, undoButton, redoButton } = seasonParts(page, sections, week);
  const more = moreControls(box, page, logAnswer);
  sections.log.body.prepend(more.bar);
  sections.players.body.append(more.roster);
  sections.settings.body.append(more.setup);
  /** @type {boolean | null} */
  let foldedFor = null; // whether the folds were last set for a season under way
  sections.keep.body.append(shell.keep);

  function render() {
    if (!state) return;
    const now = state;
    /** @type {Record<string, string>} */
    const names = { first: now.players.first.name, second: now.players.second.name };
    box.dataset.outcome = now.result.outcome;
    box.dataset.weeks = String(now.weeks.length);
    headline.textContent = `${names.first} against ${names.second}: ${now.result.headline}`;
    sections.standings.body.replaceChildren(standingsTable(now, words, names), divisionsTable(now, words, names));
    week.render(now, names);
    sections.weeks.body.replaceChildren(...weeksPlayed(now));

    const started = now.weeks.length > 0;
    players.render(now, started);
    rulings.render(now, started);
    if (foldedFor !== started) {
      foldedFor = started;
      // A season starts with its players: their names and decks first until the first Weekend, then below the weeks.
      (started ? sections.settings.section : sections.result.section).before(sections.players.section);
      for (const f of Object.values(folds)) f.open = !started;
    }
    foldSummaries(folds, now, names, words, started);
    renderLog(logList, undoButton, redoButton, now);
    more.render();
  }
  tableSettings().then((spec) => { rulings.build(spec); return shell.start(); });
}
