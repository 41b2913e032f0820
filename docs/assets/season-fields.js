// The season tracker's form fields, in the calculators' forms' markup
// (rulebook/forms.py): a label, the control, its error line (tracker-shell.js
// markFieldAtFault fills it) and its help; and the answer area under a form.

import { el } from "./dom.js";

/** A player's title before it has a name ("First player"): the published actions' choice of a player says it.
 * @param {{actions: import("./tracker-form.js").Spec[]}} words @param {string} who */
export const playerTitle = (words, who) => words.actions.flatMap((a) => a.fields).find((f) => f.key === "player")?.choices?.find(([v]) => v === who)?.[1] ?? who;

/** The control of a field: a text or number input, a menu, a text area. @typedef {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} Control */

/** A field of `control`, named `name`, with its label and help; `fid` is its id, unique in the page (two player
 * forms share their field names). In a row (`row`: the id of the row's legend) the label of a text field and the
 * help are for screen readers only, and the control is named by the row and its label together.
 * @param {string} fid @param {string} name @param {string} label @param {Control} control
 * @param {{help?: string, row?: string, kind?: string}} [options] */
export function field(fid, name, label, control, { help = "", row = "", kind = "int" } = {}) {
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

/** A whole number's input: a numeric keypad, or (`negative`) a number field, which takes a minus sign. */
export function number(value = "", { negative = false } = {}) {
  return el("input", negative
    ? { type: "number", step: "1", autocomplete: "off", value }
    : { type: "text", inputmode: "numeric", autocomplete: "off", value });
}

/** @param {[string, string][]} choices value and label pairs @param {string} value */
export function select(choices, value) {
  const s = el("select", {}, ...choices.map(([v, label]) => el("option", { value: v, text: label })));
  s.value = value;
  return s;
}

/** Where a form's answer shows, in words. */
export function answerArea() {
  return el("div", { class: "calc-answer season-answer", "aria-live": "polite" });
}
