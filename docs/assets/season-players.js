// The season tracker's players: each player's name, Nom Pool and Season Deck
// in a form of its own, with what Python found of them (legal or not, the
// Roster left). Python checks every line (season.js sends the actions).

import { button, el } from "./dom.js";
import { answerArea, field, playerTitle } from "./season-fields.js";

/** @typedef {import("./season.js").Season} Season */
/** @typedef {import("./season.js").Player} Player */
/** @typedef {import("./season.js").SeasonPage} SeasonPage */
/** @typedef {import("./tracker-kit.js").Action} Action */
/** A player's form: name, nom_pool and season_deck.
 * @typedef {HTMLFormElement & {elements: HTMLFormControlsCollection & Record<string, HTMLInputElement | HTMLTextAreaElement>}} PlayerForm */

/** @param {Player} player */
const poolText = (player) => player.nom_pool.map((e) => `${e.name}, ${e.division[0].toUpperCase()}${e.division.slice(1)}`).join("\n");
/** @param {Player} player */
const deckText = (player) => Object.entries(player.season_deck).map(([card, n]) => `${n} ${card}`).join("\n");

/** What Python found of a player's Nom Pool and Season Deck, and the Roster left. @param {Player} player */
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

/** The players' forms, put in `into`, and how they are drawn. @param {SeasonPage} page @param {HTMLElement} into */
export function playerForms(page, into) {
  const { id, words } = page;
  /** @type {Record<string, {form: PlayerForm, title: HTMLElement, answer: HTMLElement, pool: HTMLTextAreaElement, deck: HTMLTextAreaElement}>} */
  const forms = {};
  for (const who of words.players) {
    const form = /** @type {PlayerForm} */ (el("form", { class: "calc season-player", novalidate: true, "data-player": who }));
    const title = el("h3", { id: `${id}-player-${who}`, text: playerTitle(words, who) });
    form.setAttribute("aria-labelledby", title.id);
    const answer = answerArea();
    const pool = el("textarea", { rows: 5, spellcheck: "false" });
    const deck = el("textarea", { rows: 4, spellcheck: "false" });
    form.append(title, el("div", { class: "calc-fields" },
      field(`${id}-${who}-name`, "name", "Name", el("input", { type: "text", autocomplete: "off", maxlength: 40 }), { kind: "text", help: "Up to 40 characters" }),
      field(`${id}-${who}-nom_pool`, "nom_pool", "Nom Pool: one duelist a line, 'Worker 8, Heavy'", pool, { kind: "text", help: "20 duelists; fixed once the first Weekend is entered" }),
      field(`${id}-${who}-season_deck`, "season_deck", "Season Deck: one card a line, '4 Axeman'", deck, { kind: "text", help: "40 cards or more, at most 4 of each" })),
    el("div", { class: "season-roster", "aria-live": "polite" }), answer,
    el("div", { class: "calc-actions" }, button("Save", () => savePlayer(who), { class: "md-button md-button--primary", "data-action": "save", "data-do": "player" })));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      savePlayer(who);
    });
    forms[who] = { form, title, answer, pool, deck };
    into.append(form);
  }

  /** @param {string} who */
  function savePlayer(who) {
    const state = page.season();
    if (!page.ready() || !state) return;
    const { form, answer } = forms[who];
    const player = state.players[who];
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
    page.act(action, answer, { form });
  }

  /** @param {Season} state @param {boolean} started whether a Weekend is entered (the Nom Pools are fixed then) */
  function render(state, started) {
    for (const who of words.players) {
      const { form, title, pool, deck } = forms[who];
      const player = state.players[who];
      title.textContent = `${playerTitle(words, who)}: ${player.name}`;
      form.elements.name.value = player.name;
      pool.value = poolText(player);
      deck.value = deckText(player);
      pool.readOnly = started;
      /** @type {HTMLElement} */ (form.querySelector(".season-roster")).replaceChildren(...rosterView(player));
    }
  }

  return { render };
}
