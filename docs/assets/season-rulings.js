// The season tracker's goal and rulings: a form of the rulings a table may
// choose (their labels and choices are table-settings.json's), open until the
// first Weekend, and the device's house rulings that a new season takes.

import { button, el, plural } from "./dom.js";
import { storedSettings } from "./house-rules.js";
import { answerArea, field, number, select } from "./season-fields.js";

/** @typedef {import("./season.js").Season} Season */
/** @typedef {import("./season.js").SeasonPage} SeasonPage */

/** The season's settings by a ruling's name, as the vocabulary and the form's fields name them.
 * @param {import("./season.js").Settings} settings
 * @returns {Record<string, string | number>} */
const byName = (settings) => /** @type {Record<string, string | number>} */ (/** @type {unknown} */ (settings));

/** The device's house rulings (table settings) among `rulings` that differ from `season`'s.
 * @param {Season | null} season @param {string[]} rulings @returns {Record<string, string>} */
export function tableRulings(season, rulings) {
  const stored = storedSettings();
  /** @type {Record<string, string>} */
  const out = {};
  for (const key of rulings) {
    const value = stored[`rpgdl.${key}`];
    if (value != null && season && String(byName(season.settings)[key]) !== value) out[key] = value;
  }
  return out;
}

/** The rulings' form, put in `into`, and how it is drawn. @param {SeasonPage} page @param {HTMLElement} into */
export function rulingsForm(page, into) {
  const { id, words } = page;
  const form = el("form", { class: "calc season-settings", novalidate: true, "aria-labelledby": `${id}-settings` });
  const answer = answerArea();
  const fields = el("div", { class: "calc-fields" });
  const note = el("p", { class: "season-note" });
  const save = button("Save the rulings", () => saveSettings(), { class: "md-button md-button--primary", "data-action": "settings", "data-do": "settings" });
  const fieldset = el("fieldset", { class: "season-settings-fields" }, el("legend", { class: "calc-sr-only", text: "The season's goal and rulings" }), fields);
  form.append(note, fieldset, answer, el("div", { class: "calc-actions" }, save));
  into.append(form);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    saveSettings();
  });

  /** The fields, once table-settings.json (the rulings' labels and choices) is read.
   * @param {import("./house-rules.js").TableSpec | null} spec */
  function build(spec) {
    const rulings = spec?.settings?.rpgdl || {};
    fields.replaceChildren(field(`${id}-goal`, "goal", "Game goal", select(words.goals, words.goals[0][0]),
      { kind: "choice", help: `Most Successes after ${words.weeks} weeks, or the alternate Championship goal` }));
    for (const key of words.rulings) {
      const s = rulings[key];
      if (!s) continue;
      const control = s.kind === "choice" ? select(s.choices, s.default) : number(s.default);
      fields.append(field(`${id}-${key}`, key, s.label, control, { kind: s.kind === "choice" ? "choice" : "int", help: `Ruling ${s.ruling}` }));
    }
  }

  function saveSettings() {
    const state = page.season();
    if (!page.ready() || !state) return;
    /** @type {Record<string, string>} */
    const changes = {};
    for (const control of /** @type {NodeListOf<HTMLInputElement | HTMLSelectElement>} */ (fields.querySelectorAll("[name]"))) {
      if (String(byName(state.settings)[control.name]) !== control.value) changes[control.name] = control.value;
    }
    if (!Object.keys(changes).length) {
      answer.replaceChildren(el("p", { class: "calc-headline", text: "Nothing changed." }));
      return;
    }
    page.act({ do: "settings", settings: changes }, answer, { form });
  }

  /** A season with nothing entered yet takes the device's house rulings (its answer shown under the form). */
  async function applyTableRulings() {
    const state = page.season();
    const changes = state && !state.log.length ? tableRulings(state, words.rulings) : {};
    if (Object.keys(changes).length) await page.act({ do: "settings", settings: changes }, answer);
  }

  /** @param {Season} state @param {boolean} started whether a Weekend is entered (the rulings are fixed then) */
  function render(state, started) {
    for (const control of /** @type {NodeListOf<HTMLInputElement | HTMLSelectElement>} */ (fields.querySelectorAll("[name]"))) control.value = String(byName(state.settings)[control.name]);
    fieldset.disabled = started;
    save.hidden = started;
    const house = Object.keys(tableRulings(state, words.rulings)).length;
    note.textContent = started
      ? "These rulings are fixed for the season once the first Weekend is entered (undo the weeks to change them)."
      : "A new season starts with your table settings; change them here before the first Weekend."
        + (house ? ` Your table settings differ from this season's in ${plural(house, "ruling")}.` : "");
  }

  return { build, render, applyTableRulings };
}
