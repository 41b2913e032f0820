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

/** The Weekend's two sections (`result`, above; `week`, the form) and what the page does with them.
 * @param {SeasonPage} page @param {Section} result @param {Section} week */
export function weekend(page, result, week) {
  const { id, words } = page;
  const SLOTS = words.divisions;
  const PLAYERS = words.players;
  const divisionNames = Object.fromEntries(SLOTS);
  const POOL = String(words.vote_pool); // a Vote Pool unless changed for the week (rpgdl.ruling.vote-pool)
  const CARD_FIELDS = words.card_fields; // each player's card fields, `<who>_card_<key>` (league_cards.CARD_FORM)
  const form = /** @type {WeekForm} */ (el("form", { class: "calc season-form", novalidate: true, "aria-labelledby": week.heading.id }));
  const answer = answerArea(); // under the form's heading: a refusal, or a week undone
  const resultAnswer = answerArea(); // under "Week N: the result": the week just entered
  /** @type {{week: number, headline: string} | null} */
  let shown = null; // the week whose result shows, while the season's log still has it
  result.body.append(resultAnswer);
  result.section.hidden = true;

  /** @type {Record<string, HTMLElement>} */
  const rosterLists = Object.fromEntries(PLAYERS.map((who) => [who, el("datalist", { id: `${id}-roster-${who}` })]));
  const rows = el("div", { class: "calc-fields" });
  for (const [slot, slotName] of SLOTS) {
    for (const who of PLAYERS) {
      const rowId = `${id}-${slot}-${who}-row`;
      /** @param {string} key @param {string} label @param {import("./season-fields.js").Control} control @param {string} [help] @param {string} [kind] */
      const f = (key, label, control, help = "", kind = "int") => field(`${id}-${slot}_${who}_${key}`, `${slot}_${who}_${key}`, label, control, { row: rowId, kind, help });
      const name = el("input", { type: "text", autocomplete: "off", spellcheck: "false", placeholder: "Name", list: rosterLists[who].id });
      rows.append(el("fieldset", { class: "calc-row", "data-slot": slot, "data-player": who },
        el("legend", { id: rowId, "data-legend": "", text: `${slotName} slot` }),
        f("name", "Name", name, "The duelist's name; with a Nom Pool, one of the Roster", "text"),
        f("division", "Division", select(SLOTS, slot), "", "choice"),
        f("worth", "Worth", number(), "Printed Worth"),
        f("draw", "Draw", number()),
        f("votes", "Votes", number(""), "Votes spent on it, at most its Draw"),
        f("opponent_votes", "Rival's votes", number(""), "Votes the other player spent on it: they raise its Worth too and count toward its Draw"),
        f("bonus", "Other ±", number("", { negative: true }), "Other Worth changes (cards, abilities)")));
    }
  }
  /** @type {Record<string, HTMLElement>} */
  const poolFields = {};
  /** @type {Record<string, HTMLElement>} the cards each player played this week: their Vote Costs and Trainwrecks (league_cards) */
  const cardFields = {};
  /** @type {Record<string, HTMLDetailsElement>} each player's Vote Pool and cards, folded under one line while they hold
   * their usual values (a pool of 10, no cards): the form fits a phone */
  const extras = {};
  for (const who of PLAYERS) {
    poolFields[who] = field(`${id}-${who}_vote_pool`, `${who}_vote_pool`, `${who === "first" ? "First" : "Second"} player's Vote Pool`, number(POOL),
      { help: "Votes their Voters gave this week; their votes on duelists of either side and on cards add up to at most this (10 unless changed)" });
    const inside = el("div", { class: "calc-fields" }, poolFields[who]);
    for (const { key, label, help } of CARD_FIELDS) {
      cardFields[`${who}_card_${key}`] = field(`${id}-${who}_card_${key}`, `${who}_card_${key}`, label, number(""), { help });
      inside.append(cardFields[`${who}_card_${key}`]);
    }
    extras[who] = /** @type {HTMLDetailsElement} */ (el("details", { class: "season-fold season-extra", "data-player": who }, el("summary", {}), inside));
    rows.append(extras[who]);
  }
  const rolls = el("input", { type: "text", inputmode: "decimal", autocomplete: "off", placeholder: "empty: the page rolls" });
  rows.append(field(`${id}-rolls`, "rolls", "Sudden Death roll-offs", rolls, {
    kind: "dice", help: "Two d6 per roll-off, the first player's first, Godlike first (a Championship roll-off last); leave empty and the page rolls them",
  }));
  const enter = button("Enter the Weekend", null, { class: PRIMARY, "data-action": "weekend", "data-do": "weekend" });
  // Clearing sits at the form's top, away from Enter in the bar (one slip from losing what was typed), and can be taken back.
  const clearWeek = button("Clear the line-ups", null, { "data-action": "clear" });
  form.append(el("div", { class: "calc-actions season-clear" }, clearWeek), rows, ...Object.values(rosterLists), el("div", { class: "calc-actions" }, enter));
  week.body.append(answer, form);

  /** The form's rows of player `who`, as typed (null: an empty slot). @param {string} who */
  function rowValues(who) {
    return SLOTS.map(([slot]) => {
      /** @param {string} key */
      const value = (key) => form.elements[`${slot}_${who}_${key}`].value;
      const out = { name: value("name"), division: value("division"), worth: value("worth"), draw: value("draw"), votes: value("votes"), bonus: value("bonus"), opponent_votes: value("opponent_votes") };
      const empty = !out.name.trim() && !out.worth.trim() && !out.draw.trim() && !(out.votes.trim() && out.votes.trim() !== "0") && !(out.bonus.trim() && out.bonus.trim() !== "0")
        && !(out.opponent_votes.trim() && out.opponent_votes.trim() !== "0");
      return empty ? null : out;
    });
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    enterWeek();
  });
  form.addEventListener("click", (event) => {
    const action = /** @type {Element} */ (event.target).closest("button")?.dataset.action;
    if (action === "weekend") enterWeek();
    else if (action === "clear") clearByHand();
  });
  form.addEventListener("input", (event) => {
    // A name of the Roster fills its division, and its Worth and Draw as last
    // entered, as soon as it is typed or picked (not on leaving the field:
    // the player is typing in the next one by then). Filled values stay
    // marked until the player types over them, so a longer name that also
    // matches replaces them.
    const input = /** @type {HTMLInputElement | HTMLSelectElement} */ (event.target);
    delete input.dataset.auto;
    syncExtras(); // a value other than the usual one keeps its fold open, and its line says it
    const m = /^(\w+)_(first|second)_name$/.exec(input.name || "");
    const state = page.season();
    if (!m || !state) return;
    const key = input.value.trim().replace(/\s+/g, " ").toLowerCase();
    const found = state.players[m[2]].nom_pool.find((e) => e.name.toLowerCase() === key && e.discarded == null);
    if (!found) return;
    for (const [k, v] of [["division", found.division], ["worth", found.worth], ["draw", found.draw]]) {
      const target = form.elements[`${m[1]}_${m[2]}_${k}`];
      if (v == null || (k !== "division" && target.value.trim() && !target.dataset.auto)) continue;
      target.value = String(v);
      target.dataset.auto = "true";
    }
  });

  async function enterWeek() {
    if (!page.ready()) return;
    const typed = rolls.value.trim();
    const seed = typed ? null : newSeed();
    const weekNo = (page.season()?.weeks.length ?? 0) + 1;
    const vote_pools = Object.fromEntries(PLAYERS.map((who) => [who, form.elements[`${who}_vote_pool`].value]));
    const cards = Object.fromEntries(PLAYERS.map((who) => [who, { votes: form.elements[`${who}_card_votes`].value, trainwrecks: form.elements[`${who}_card_trainwrecks`].value }]));
    /** @type {Action & {rolls?: string}} */
    const action = { do: "weekend", week: weekNo, first: rowValues("first"), second: rowValues("second"), vote_pools, cards };
    if (typed) action.rolls = typed;
    const done = await page.act(action, answer, { seed, form, focus: true, done: resultAnswer });
    if (!done || !done.ok) return;
    const state = /** @type {SeasonStep} */ (done).state;
    result.heading.textContent = `Week ${weekNo}: the result`;
    result.section.hidden = false;
    shown = { week: weekNo, headline: done.headline };
    const rolled = resultAnswer.querySelector(".calc-seed");
    if (rolled && !typed) { // the roll-off field was empty and the page rolled what the week needed: say so
      rolled.textContent = `Rolled for you, as the roll-off field was empty: ${rolledWords(state, divisionNames)} (seed ${done.seed}).`;
      rolled.classList.add("season-rolled");
    }
    fillNextWeek();
    if (result.section.getBoundingClientRect().top < 0) result.section.scrollIntoView({ block: "start" }); // tapped from the bar below
    resultAnswer.append(el("div", { class: "calc-actions" }, button(`Undo week ${weekNo}`, () => undoWeek(answer), { "data-action": "undo-week", "data-do": "undo" })));
  }

  /** Undo the last Weekend and put its line-ups back in the form, to be corrected. @param {HTMLElement} where */
  async function undoWeek(where) {
    const state = page.season();
    // Read as a Weekend only once its `do` says it is one.
    const last = /** @type {WeekendAction | undefined} */ (state?.log[state.log.length - 1]?.action);
    const done = await page.act({ do: "undo" }, where);
    if (!done || !done.ok) return;
    if (last?.do === "weekend") fillLineups(last.first, last.second, last.vote_pools, { votes: true, cards: last.cards });
    if (!where.closest("[data-section=log]")) { // the log has its own Redo beside its Undo
      where.append(el("div", { class: "calc-actions" }, button(last?.do === "weekend" ? `Redo week ${last.week}` : "Redo",
        () => redoWeek(where), { "data-action": "redo-week", "data-do": "redo" })));
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
   * @param {HTMLElement} where */
  async function redoWeek(where) {
    const done = await page.act({ do: "redo" }, where);
    if (done && done.ok) fillNextWeek();
    keepInView(where);
  }

  /** Put line-ups in the form: rows as a Weekend action keeps them (null: an empty slot); with `votes`, the votes
   * and other changes too, and with `cards`, each player's cards as the Weekend kept them (a week undone).
   * @param {Lineup} first @param {Lineup} second @param {Record<string, number>} [pools]
   * @param {{votes?: boolean, cards?: WeekendAction["cards"]}} [options] */
  function fillLineups(first, second, pools, { votes = false, cards } = {}) {
    clearLineups();
    for (const [who, line] of /** @type {[string, Lineup][]} */ ([["first", first], ["second", second]])) {
      SLOTS.forEach(([slot], i) => {
        const row = line[i];
        if (!row) return;
        for (const key of /** @type {(keyof LineupRow)[]} */ (["name", "division", "worth", "draw", ...(votes ? ["votes", "bonus", "opponent_votes"] : [])])) {
          const value = row[key];
          if (value == null || ((key === "votes" || key === "bonus" || key === "opponent_votes") && !value)) continue; // 0 votes: left empty
          form.elements[`${slot}_${who}_${key}`].value = String(value);
        }
      });
      if (pools?.[who] != null) form.elements[`${who}_vote_pool`].value = String(pools[who]);
      for (const { key } of CARD_FIELDS) {
        const value = /** @type {Record<string, unknown> | undefined} */ (cards?.[who])?.[key];
        if (typeof value === "number" && value) form.elements[`${who}_card_${key}`].value = String(value); // none: left empty
      }
    }
    syncExtras({ close: true });
  }

  /** Whether player `who`'s Vote Pool and cards hold their usual values: the usual pool (or none typed), no cards.
   * @param {string} who */
  function usual(who) {
    const pool = form.elements[`${who}_vote_pool`].value.trim();
    return (pool === "" || pool === POOL) && CARD_FIELDS.every(({ key }) => ["", "0"].includes(form.elements[`${who}_card_${key}`].value.trim()));
  }

  /** Each player's fold: open while a value in it is not the usual one (typed, or put back by an undo), its line
   * saying what it holds; with `close` (the page filled the form), closed again where all are usual.
   * @param {{close?: boolean}} [options] */
  function syncExtras({ close = false } = {}) {
    for (const who of PLAYERS) {
      if (!usual(who)) extras[who].open = true;
      else if (close) extras[who].open = false;
      /** @param {string} key @param {string} one */
      const held = (key, one) => {
        const typed = form.elements[`${who}_${key}`].value.trim() || "0"; // empty: none, as Python reads it
        return /^\d+$/.test(typed) ? plural(Number(typed), one) : `${one}s: ${typed}`;
      };
      const name = page.season()?.players[who].name ?? playerTitle(words, who);
      /** @type {HTMLElement} */ (extras[who].querySelector("summary")).textContent =
        `${name}'s Vote Pool ${form.elements[`${who}_vote_pool`].value.trim() || POOL}; cards: ${held("card_votes", "vote")}, ${held("card_trainwrecks", "Trainwreck")}`;
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
    const state = /** @type {Season} */ (page.season());
    const entry = /** @type {WeekendEntry | undefined} */ ([...state.log].reverse().find((e) => e.action.do === "weekend"));
    clearLineups();
    if (!entry || state.result.over) return;
    const record = state.weeks[state.weeks.length - 1];
    /** @type {Record<string, Lineup>} */
    const lines = {};
    for (const who of PLAYERS) {
      const pool = state.players[who].nom_pool;
      /** @param {string} name */
      const left = (name) => pool.find((e) => e.name.toLowerCase() === name.toLowerCase() && e.discarded == null);
      /** @type {Set<string>} */
      const used = new Set();
      /** @type {Lineup} */
      const line = /** @type {(WeekendRow | null)[]} */ (entry.action[who]).map((row, i) => {
        if (!row) return null;
        const shown = row.name || `${state.players[who].name}'s ${SLOTS[i][1]}`;
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

  /** Clear the form at the player's tap, saying so, with a way back to what was typed. */
  function clearByHand() {
    const typed = [...form.querySelectorAll("input, select")].map((f) => [f, /** @type {HTMLInputElement} */ (f).value]);
    clearLineups();
    const back = button("Put them back", () => {
      for (const [f, value] of /** @type {[HTMLInputElement, string][]} */ (typed)) f.value = value;
      syncExtras({ close: true });
      answer.replaceChildren(el("p", { text: "The line-ups are back as they were typed." }));
    }, { "data-action": "unclear" });
    answer.replaceChildren(el("p", { text: "The line-ups are cleared." }), el("div", { class: "calc-actions" }, back));
    answer.dataset.state = "cleared";
  }

  function clearLineups() {
    for (const input of form.querySelectorAll("input")) {
      input.value = "";
      delete input.dataset.auto;
    }
    for (const [slot] of SLOTS) for (const who of PLAYERS) form.elements[`${slot}_${who}_division`].value = slot;
    for (const who of PLAYERS) form.elements[`${who}_vote_pool`].value = POOL;
    markFieldAtFault(form, null);
    syncExtras({ close: true });
  }

  /** Draw the form for the season as it is now; the result of a week no longer in its log (undone, or
   * another season opened) goes. @param {Season} state @param {Record<string, string>} names */
  function render(state, names) {
    if (shown && state.log.filter((e) => e.action.do === "weekend")[shown.week - 1]?.headline !== shown.headline) {
      shown = null;
      resultAnswer.replaceChildren();
      result.section.hidden = true;
    }
    const open = !state.result.over;
    week.heading.textContent = open ? `Week ${state.weeks.length + 1}: the Weekend` : "The game is over";
    form.hidden = !open;
    enter.textContent = `Enter week ${state.weeks.length + 1}`;
    for (const legend of form.querySelectorAll("legend[data-legend]")) {
      const fs = /** @type {HTMLElement} */ (legend.parentElement);
      legend.textContent = `${divisionNames[/** @type {string} */ (fs.dataset.slot)]} slot, ${names[/** @type {string} */ (fs.dataset.player)]}`;
    }
    for (const who of PLAYERS) {
      /** @type {HTMLLabelElement} */ (poolFields[who].querySelector("label")).textContent = `${names[who]}'s Vote Pool`;
      for (const { key, label } of CARD_FIELDS) /** @type {HTMLLabelElement} */ (cardFields[`${who}_card_${key}`].querySelector("label")).textContent = `${names[who]}'s ${label}`;
      rosterLists[who].replaceChildren(...state.players[who].nom_pool.filter((e) => e.discarded == null)
        .map((e) => el("option", { value: e.name, label: `${e.division}${e.worth != null ? `, Worth ${e.worth}, Draw ${e.draw}` : ""}` })));
    }
    syncExtras(); // the players' names in the folds' lines
    week.body.querySelector(".season-over")?.remove();
    if (!open) week.body.prepend(el("p", { class: "season-over calc-headline", text: state.result.headline }));
  }

  return { form, render, fillNextWeek, undoWeek, redoWeek };
}
