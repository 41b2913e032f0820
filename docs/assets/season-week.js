// The season tracker's Weekend: the next week's form (each player's four
// rows, the Vote Pools, the roll-offs), filled in from the week before, and
// the answer of each week under that week's own heading: the week just
// entered under "Week N: the result", above the next week's form; a refusal,
// or a week undone, under the form's "Week N: the Weekend". Python checks and
// decides everything (season.js sends the actions).

import { button, el, plural } from "./dom.js";
import { markFieldAtFault, newSeed } from "./tracker-answer.js";
import { answerArea, field, number, playerTitle, select } from "./season-fields.js";

/** @typedef {import("./season.js").Season} Season */
/** @typedef {import("./season.js").SeasonPage} SeasonPage */
/** @typedef {import("./season.js").WeekendAction} WeekendAction */
/** @typedef {import("./season.js").WeekendEntry} WeekendEntry */
/** @typedef {import("./season.js").WeekendRow} WeekendRow */
/** @typedef {import("./season.js").SeasonStep} SeasonStep */
/** @typedef {import("./tracker-kit.js").Action} Action */
/** A row the Weekend form is filled with: one the log kept, or one of the Roster (Worth and Draw null until it has played).
 * @typedef {{name: string, division: string, worth: number | null, draw: number | null, votes?: number, bonus?: number, opponent_votes?: number}} LineupRow */
/** A player's four rows, null for an empty slot. @typedef {(LineupRow | null)[]} Lineup */
/** The next Weekend's form: its fields by name (`${slot}_${player}_${field}`, `${player}_vote_pool`, rolls).
 * @typedef {HTMLFormElement & {elements: HTMLFormControlsCollection & Record<string, HTMLInputElement | HTMLSelectElement>}} WeekForm */
/** A section of the page: its heading and body (season.js). @typedef {{section: HTMLElement, heading: HTMLElement, body: HTMLElement}} Section */

const PRIMARY = "md-button md-button--primary";
/** A player's cards of the week: field, label (after the player's name), help, and the key of a Weekend's `cards` it fills. */

/** The roll-offs the page rolled for the week just entered, in words: each with the duel or the Championship
 * it settled and each player's die ("Godlike duel: Ana 6, Ben 5"), from the week's record as Python kept it;
 * the bare rolls when the record does not account for them all.
 * @param {Season} state @param {Record<string, string>} divisions division -> its name */
export function rolledWords(state, divisions) {
  const week = state.weeks[state.weeks.length - 1];
  const rolls = /** @type {WeekendAction | undefined} */ (state.log[state.log.length - 1]?.action)?.rolls ?? [];
  /** @type {[string, number[]][]} */
  const named = [
    ...week.duels.flatMap((d) => (d.roll ? [/** @type {[string, number[]]} */ ([`${divisions[d.slot]} duel`, d.roll])] : [])),
    ...Object.entries(state.champions).flatMap(([d, c]) => (c?.roll && c.week === week.week ? [/** @type {[string, number[]]} */ ([`${divisions[d]} Championship`, c.roll])] : [])),
  ];
  /** @param {number[]} roll */
  const dice = ([a, b]) => `${state.players.first.name} ${a}, ${state.players.second.name} ${b}`;
  return named.length === rolls.length ? named.map(([what, roll]) => `${what}: ${dice(roll)}`).join("; ") : rolls.map(dice).join("; ");
}

/**
 * The Weekend's parts, shared by the functions below: the page, its two sections (`result` above, `week` the form),
 * the form and its fields, the answers, and the week whose result shows while the season's log still has it.
 * @typedef {{page: SeasonPage, result: Section, week: Section, words: SeasonPage["words"], slots: [string, string][],
 *   players: string[], divisionNames: Record<string, string>, pool: string, cardFields: SeasonPage["words"]["card_fields"],
 *   form: WeekForm, answer: HTMLElement, resultAnswer: HTMLElement, rosterLists: Record<string, HTMLElement>,
 *   poolFields: Record<string, HTMLElement>, cards: Record<string, HTMLElement>, extras: Record<string, HTMLDetailsElement>,
 *   rolls: HTMLInputElement, enter: HTMLButtonElement, clearWeek: HTMLButtonElement, shown: {week: number, headline: string} | null}} Weekend
 */

/** Each slot's two rows, one a player, in `rows`. @param {Weekend} w @param {HTMLElement} rows */
function lineupRows({ page: { id }, slots, players, rosterLists }, rows) {
  for (const [slot, slotName] of slots) {
    for (const who of players) {
      const rowId = `${id}-${slot}-${who}-row`;
      /** @param {string} key @param {string} label @param {import("./season-fields.js").Control} control @param {string} [help] @param {string} [kind] */
      const f = (key, label, control, help = "", kind = "int") => field(`${id}-${slot}_${who}_${key}`, `${slot}_${who}_${key}`, label, control, { row: rowId, kind, help });
      const name = el("input", { type: "text", autocomplete: "off", spellcheck: "false", placeholder: "Name", list: rosterLists[who].id });
      rows.append(el("fieldset", { class: "calc-row", "data-slot": slot, "data-player": who },
        el("legend", { id: rowId, "data-legend": "", text: `${slotName} slot` }),
        f("name", "Name", name, "The duelist's name; with a Nom Pool, one of the Roster", "text"),
        f("division", "Division", select(slots, slot), "", "choice"),
        f("worth", "Worth", number(), "Printed Worth"),
        f("draw", "Draw", number()),
        f("votes", "Votes", number(""), "Votes spent on it, at most its Draw"),
        f("opponent_votes", "Rival's votes", number(""), "Votes the other player spent on it: they raise its Worth too and count toward its Draw"),
        f("bonus", "Other ±", number("", { negative: true }), "Other Worth changes (cards, abilities)")));
    }
  }
}

/** Each player's Vote Pool and cards, folded under one line while they hold their usual values (a pool of 10, no
 * cards): the form fits a phone; in `rows`. @param {Weekend} w @param {HTMLElement} rows */
function extraFields(w, rows) {
  const { id } = w.page;
  for (const who of w.players) {
    w.poolFields[who] = field(`${id}-${who}_vote_pool`, `${who}_vote_pool`, `${playerTitle(w.words, who)}'s Vote Pool`, number(w.pool),
      { help: "Votes their Voters gave this week; their votes on duelists of either side and on cards add up to at most this (10 unless changed)" });
    const inside = el("div", { class: "calc-fields" }, w.poolFields[who]);
    for (const { key, label, help } of w.cardFields) { // the cards each player played this week: their Vote Costs and Trainwrecks (league_cards)
      w.cards[`${who}_card_${key}`] = field(`${id}-${who}_card_${key}`, `${who}_card_${key}`, label, number(""), { help });
      inside.append(w.cards[`${who}_card_${key}`]);
    }
    w.extras[who] = /** @type {HTMLDetailsElement} */ (el("details", { class: "season-fold season-extra", "data-player": who }, el("summary", {}), inside));
    rows.append(w.extras[who]);
  }
}

/** The form's rows of player `who`, as typed (null: an empty slot). @param {Weekend} w @param {string} who */
function rowValues({ form, slots }, who) {
  return slots.map(([slot]) => {
    /** @param {string} key */
    const value = (key) => form.elements[`${slot}_${who}_${key}`].value;
    const out = { name: value("name"), division: value("division"), worth: value("worth"), draw: value("draw"), votes: value("votes"), bonus: value("bonus"), opponent_votes: value("opponent_votes") };
    const empty = !out.name.trim() && !out.worth.trim() && !out.draw.trim() && !(out.votes.trim() && out.votes.trim() !== "0") && !(out.bonus.trim() && out.bonus.trim() !== "0")
      && !(out.opponent_votes.trim() && out.opponent_votes.trim() !== "0");
    return empty ? null : out;
  });
}

/**
 * A name of the Roster fills its division, and its Worth and Draw as last entered, as soon as it is typed or
 * picked (not on leaving the field: the player is typing in the next one by then). Filled values stay marked until
 * the player types over them, so a longer name that also matches replaces them.
 * @param {Weekend} w @param {Event} event
 */
function typedInto(w, event) {
  const input = /** @type {HTMLInputElement | HTMLSelectElement} */ (event.target);
  delete input.dataset.auto;
  syncExtras(w); // a value other than the usual one keeps its fold open, and its line says it
  const m = /^(\w+)_(first|second)_name$/.exec(input.name || "");
  const state = w.page.season();
  if (!m || !state) return;
  const key = input.value.trim().replace(/\s+/g, " ").toLowerCase();
  const found = state.players[m[2]].nom_pool.find((e) => e.name.toLowerCase() === key && e.discarded == null);
  if (!found) return;
  for (const [k, v] of [["division", found.division], ["worth", found.worth], ["draw", found.draw]]) {
    const target = w.form.elements[`${m[1]}_${m[2]}_${k}`];
    if (v == null || (k !== "division" && target.value.trim() && !target.dataset.auto)) continue;
    target.value = String(v);
    target.dataset.auto = "true";
  }
}

/** Send the Weekend the form holds; its result under "Week N: the result", and the next week's form filled in.
 * @param {Weekend} w */
async function enterWeek(w) {
  const { page, form, result, resultAnswer } = w;
  if (!page.ready()) return;
  const typed = w.rolls.value.trim();
  const seed = typed ? null : newSeed();
  const weekNo = (page.season()?.weeks.length ?? 0) + 1;
  const vote_pools = Object.fromEntries(w.players.map((who) => [who, form.elements[`${who}_vote_pool`].value]));
  const cards = Object.fromEntries(w.players.map((who) => [who, { votes: form.elements[`${who}_card_votes`].value, trainwrecks: form.elements[`${who}_card_trainwrecks`].value }]));
  /** @type {Action & {rolls?: string}} */
  const action = { do: "weekend", week: weekNo, first: rowValues(w, "first"), second: rowValues(w, "second"), vote_pools, cards };
  if (typed) action.rolls = typed;
  const done = await page.act(action, w.answer, { seed, form, focus: true, done: resultAnswer });
  if (!done || !done.ok) return;
  const state = /** @type {SeasonStep} */ (done).state;
  result.heading.textContent = `Week ${weekNo}: the result`;
  result.section.hidden = false;
  w.shown = { week: weekNo, headline: done.headline };
  const rolled = resultAnswer.querySelector(".calc-seed");
  if (rolled && !typed) { // the roll-off field was empty and the page rolled what the week needed: say so
    rolled.textContent = `Rolled for you, as the roll-off field was empty: ${rolledWords(state, w.divisionNames)} (seed ${done.seed}).`;
    rolled.classList.add("season-rolled");
  }
  fillNextWeek(w);
  if (result.section.getBoundingClientRect().top < 0) result.section.scrollIntoView({ block: "start" }); // tapped from the bar below
  resultAnswer.append(el("div", { class: "calc-actions" }, button(`Undo week ${weekNo}`, () => undoWeek(w, w.answer), { "data-action": "undo-week", "data-do": "undo" })));
}

/** Undo the last Weekend and put its line-ups back in the form, to be corrected. @param {Weekend} w @param {HTMLElement} where */
async function undoWeek(w, where) {
  const state = w.page.season();
  // Read as a Weekend only once its `do` says it is one.
  const last = /** @type {WeekendAction | undefined} */ (state?.log[state.log.length - 1]?.action);
  const done = await w.page.act({ do: "undo" }, where);
  if (!done || !done.ok) return;
  if (last?.do === "weekend") fillLineups(w, last.first, last.second, last.vote_pools, { votes: true, cards: last.cards });
  if (!where.closest("[data-section=log]")) { // the log has its own Redo beside its Undo
    where.append(el("div", { class: "calc-actions" }, button(last?.do === "weekend" ? `Redo week ${last.week}` : "Redo",
      () => redoWeek(w, where), { "data-action": "redo-week", "data-do": "redo" })));
  }
  keepInView(where);
}

/** The answer where the tap was, when the season redrawn above it (the players' fold opening or closing) moved it.
 * @param {HTMLElement} where */
function keepInView(where) {
  const { top, bottom } = where.getBoundingClientRect();
  if (top < 0 || bottom > innerHeight) where.scrollIntoView({ block: "center" });
}

/** Redo the step undone last, as it was (its roll-offs as they came); a Weekend's result shows under its week.
 * @param {Weekend} w @param {HTMLElement} where */
async function redoWeek(w, where) {
  const done = await w.page.act({ do: "redo" }, where);
  if (done && done.ok) fillNextWeek(w);
  keepInView(where);
}

/** Put line-ups in the form: rows as a Weekend action keeps them (null: an empty slot); with `votes`, the votes
 * and other changes too, and with `cards`, each player's cards as the Weekend kept them (a week undone).
 * @param {Weekend} w @param {Lineup} first @param {Lineup} second @param {Record<string, number>} [pools]
 * @param {{votes?: boolean, cards?: WeekendAction["cards"]}} [options] */
function fillLineups(w, first, second, pools, { votes = false, cards } = {}) {
  const { form } = w;
  clearLineups(w);
  for (const [who, line] of /** @type {[string, Lineup][]} */ ([["first", first], ["second", second]])) {
    w.slots.forEach(([slot], i) => {
      const row = line[i];
      if (!row) return;
      for (const key of /** @type {(keyof LineupRow)[]} */ (["name", "division", "worth", "draw", ...(votes ? ["votes", "bonus", "opponent_votes"] : [])])) {
        const value = row[key];
        if (value == null || ((key === "votes" || key === "bonus" || key === "opponent_votes") && !value)) continue; // 0 votes: left empty
        form.elements[`${slot}_${who}_${key}`].value = String(value);
      }
    });
    if (pools?.[who] != null) form.elements[`${who}_vote_pool`].value = String(pools[who]);
    for (const { key } of w.cardFields) {
      const value = /** @type {Record<string, unknown> | undefined} */ (cards?.[who])?.[key];
      if (typeof value === "number" && value) form.elements[`${who}_card_${key}`].value = String(value); // none: left empty
    }
  }
  syncExtras(w, { close: true });
}

/** Whether player `who`'s Vote Pool and cards hold their usual values: the usual pool (or none typed), no cards.
 * @param {Weekend} w @param {string} who */
function usual({ form, pool, cardFields }, who) {
  const typed = form.elements[`${who}_vote_pool`].value.trim();
  return (typed === "" || typed === pool) && cardFields.every(({ key }) => ["", "0"].includes(form.elements[`${who}_card_${key}`].value.trim()));
}

/** Each player's fold: open while a value in it is not the usual one (typed, or put back by an undo), its line
 * saying what it holds; with `close` (the page filled the form), closed again where all are usual.
 * @param {Weekend} w @param {{close?: boolean}} [options] */
function syncExtras(w, { close = false } = {}) {
  const { form, extras } = w;
  for (const who of w.players) {
    if (!usual(w, who)) extras[who].open = true;
    else if (close) extras[who].open = false;
    /** @param {string} key @param {string} one */
    const held = (key, one) => {
      const typed = form.elements[`${who}_${key}`].value.trim() || "0"; // empty: none, as Python reads it
      return /^\d+$/.test(typed) ? plural(Number(typed), one) : `${one}s: ${typed}`;
    };
    const name = w.page.season()?.players[who].name ?? playerTitle(w.words, who);
    /** @type {HTMLElement} */ (extras[who].querySelector("summary")).textContent =
      `${name}'s Vote Pool ${form.elements[`${who}_vote_pool`].value.trim() || w.pool}; cards: ${held("card_votes", "vote")}, ${held("card_trainwrecks", "Trainwreck")}`;
  }
}

/**
 * The next Weekend's form from the last one: each duelist still in the Roster
 * keeps its slot, name, division and last Worth and Draw; a slot whose
 * duelist lost takes the next duelist of that division left in the Nom Pool
 * (with its last Worth and Draw, if it has played). Votes and other changes
 * start empty; the Vote Pools carry over. Python checks it all again.
 * @param {Weekend} w
 */
function fillNextWeek(w) {
  const state = /** @type {Season} */ (w.page.season());
  const entry = /** @type {WeekendEntry | undefined} */ ([...state.log].reverse().find((e) => e.action.do === "weekend"));
  clearLineups(w);
  if (!entry || state.result.over) return;
  const record = state.weeks[state.weeks.length - 1];
  /** @type {Record<string, Lineup>} */
  const lines = {};
  for (const who of w.players) {
    const pool = state.players[who].nom_pool;
    /** @param {string} name */
    const left = (name) => pool.find((e) => e.name.toLowerCase() === name.toLowerCase() && e.discarded == null);
    /** @type {Set<string>} */
    const used = new Set();
    /** @type {Lineup} */
    const line = /** @type {(WeekendRow | null)[]} */ (entry.action[who]).map((row, i) => {
      if (!row) return null;
      const shown = row.name || `${state.players[who].name}'s ${w.slots[i][1]}`;
      const stays = pool.length ? Boolean(row.name && left(row.name)) : record.returned[who].includes(shown);
      if (!stays) return null;
      const known = pool.length ? left(row.name) : null;
      used.add(row.name.toLowerCase());
      return { name: row.name, division: row.division, worth: known?.worth ?? row.worth, draw: known?.draw ?? row.draw };
    });
    w.slots.forEach(([slot], i) => {
      if (line[i] || !pool.length) return;
      const next = pool.find((e) => e.division === slot && e.discarded == null && !used.has(e.name.toLowerCase()));
      if (!next) return;
      used.add(next.name.toLowerCase());
      line[i] = { name: next.name, division: next.division, worth: next.worth, draw: next.draw };
    });
    lines[who] = line;
  }
  fillLineups(w, lines.first, lines.second, entry.action.vote_pools);
}

/** Clear the form at the player's tap, saying so, with a way back to what was typed. @param {Weekend} w */
function clearByHand(w) {
  const typed = [...w.form.querySelectorAll("input, select")].map((f) => [f, /** @type {HTMLInputElement} */ (f).value]);
  clearLineups(w);
  const back = button("Put them back", () => {
    for (const [f, value] of /** @type {[HTMLInputElement, string][]} */ (typed)) f.value = value;
    syncExtras(w, { close: true });
    w.answer.replaceChildren(el("p", { text: "The line-ups are back as they were typed." }));
  }, { "data-action": "unclear" });
  w.answer.replaceChildren(el("p", { text: "The line-ups are cleared." }), el("div", { class: "calc-actions" }, back));
  w.answer.dataset.state = "cleared";
}

/** @param {Weekend} w */
function clearLineups(w) {
  const { form } = w;
  for (const input of form.querySelectorAll("input")) {
    input.value = "";
    delete input.dataset.auto;
  }
  for (const [slot] of w.slots) for (const who of w.players) form.elements[`${slot}_${who}_division`].value = slot;
  for (const who of w.players) form.elements[`${who}_vote_pool`].value = w.pool;
  markFieldAtFault(form, null);
  syncExtras(w, { close: true });
}

/** Draw the form for the season as it is now; the result of a week no longer in its log (undone, or
 * another season opened) goes. @param {Weekend} w @param {Season} state @param {Record<string, string>} names */
function render(w, state, names) {
  const { form, week } = w;
  if (w.shown && state.log.filter((e) => e.action.do === "weekend")[w.shown.week - 1]?.headline !== w.shown.headline) {
    w.shown = null;
    w.resultAnswer.replaceChildren();
    w.result.section.hidden = true;
  }
  const open = !state.result.over;
  week.heading.textContent = open ? `Week ${state.weeks.length + 1}: the Weekend` : "The game is over";
  form.hidden = !open;
  w.enter.textContent = `Enter week ${state.weeks.length + 1}`;
  for (const legend of form.querySelectorAll("legend[data-legend]")) {
    const fs = /** @type {HTMLElement} */ (legend.parentElement);
    legend.textContent = `${w.divisionNames[/** @type {string} */ (fs.dataset.slot)]} slot, ${names[/** @type {string} */ (fs.dataset.player)]}`;
  }
  for (const who of w.players) {
    /** @type {HTMLLabelElement} */ (w.poolFields[who].querySelector("label")).textContent = `${names[who]}'s Vote Pool`;
    for (const { key, label } of w.cardFields) /** @type {HTMLLabelElement} */ (w.cards[`${who}_card_${key}`].querySelector("label")).textContent = `${names[who]}'s ${label}`;
    w.rosterLists[who].replaceChildren(...state.players[who].nom_pool.filter((e) => e.discarded == null)
      .map((e) => el("option", { value: e.name, label: `${e.division}${e.worth != null ? `, Worth ${e.worth}, Draw ${e.draw}` : ""}` })));
  }
  syncExtras(w); // the players' names in the folds' lines
  week.body.querySelector(".season-over")?.remove();
  if (!open) week.body.prepend(el("p", { class: "season-over calc-headline", text: state.result.headline }));
}

/** The Weekend's two sections (`result`, above; `week`, the form) and what the page does with them.
 * @param {SeasonPage} page @param {Section} result @param {Section} week */
export function weekend(page, result, week) {
  const { id, words } = page;
  const players = words.players;
  /** @type {Weekend} */
  const w = {
    page, result, week, words, slots: words.divisions, players, divisionNames: Object.fromEntries(words.divisions),
    pool: String(words.vote_pool), // a Vote Pool unless changed for the week (rpgdl.ruling.vote-pool)
    cardFields: words.card_fields, // each player's card fields, `<who>_card_<key>` (league_cards.CARD_FORM)
    form: /** @type {WeekForm} */ (el("form", { class: "calc season-form", novalidate: true, "aria-labelledby": week.heading.id })),
    answer: answerArea(), // under the form's heading: a refusal, or a week undone
    resultAnswer: answerArea(), // under "Week N: the result": the week just entered
    rosterLists: Object.fromEntries(players.map((who) => [who, el("datalist", { id: `${id}-roster-${who}` })])),
    poolFields: {}, cards: {}, extras: {},
    rolls: el("input", { type: "text", inputmode: "decimal", autocomplete: "off", placeholder: "empty: the page rolls" }),
    enter: button("Enter the Weekend", null, { class: PRIMARY, "data-action": "weekend", "data-do": "weekend" }),
    // Clearing sits at the form's top, away from Enter in the bar (one slip from losing what was typed), and can be taken back.
    clearWeek: button("Clear the line-ups", null, { "data-action": "clear" }),
    shown: null,
  };
  const { form } = w;
  result.body.append(w.resultAnswer);
  result.section.hidden = true;
  const rows = el("div", { class: "calc-fields" });
  lineupRows(w, rows);
  extraFields(w, rows);
  rows.append(field(`${id}-rolls`, "rolls", "Sudden Death roll-offs", w.rolls, {
    kind: "dice", help: "Two d6 per roll-off, the first player's first, Godlike first (a Championship roll-off last); leave empty and the page rolls them",
  }));
  form.append(el("div", { class: "calc-actions season-clear" }, w.clearWeek), rows, ...Object.values(w.rosterLists), el("div", { class: "calc-actions" }, w.enter));
  week.body.append(w.answer, form);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    enterWeek(w);
  });
  form.addEventListener("click", (event) => {
    const action = /** @type {Element} */ (event.target).closest("button")?.dataset.action;
    if (action === "weekend") enterWeek(w);
    else if (action === "clear") clearByHand(w);
  });
  form.addEventListener("input", (event) => typedInto(w, event));
  return {
    form,
    /** @param {Season} state @param {Record<string, string>} names */
    render: (state, names) => render(w, state, names),
    fillNextWeek: () => fillNextWeek(w),
    /** @param {HTMLElement} where */
    undoWeek: (where) => undoWeek(w, where),
    /** @param {HTMLElement} where */
    redoWeek: (where) => redoWeek(w, where),
  };
}
