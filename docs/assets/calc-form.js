// A calculator's form wired to the calculators' worker: each input sends the form's fields as strings, the
// newest answer is drawn (calc-result.js), its values go into the address (calc-address.js) and a result the
// player is done with into the roll log (table-log.js). The table's house rulings fill the form first, then a
// share link's values; nothing from the address or a form is parsed as HTML.

import { applyHouseRulings, showRulingsLine } from "./house-rules.js";
import { FormLog, logInputs } from "./table-log.js";
import { computeInWorker } from "./calc-runtime.js";
import { addressOf, writeAddress } from "./calc-address.js";
import { canShare, shareLink } from "./copy-link.js";
import { renderResult } from "./calc-result.js";

/** A calculator's form (form[data-calculator], rulebook/forms.py), and the older
 * parameters of the link it was opened from, if any (restoreFromAddress).
 * @typedef {HTMLFormElement & {dataset: {calculator: string, runtime: string}, legacyParams?: Record<string, string>}} CalcForm */
/** A named control of a form.
 * @typedef {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} Field */
/** @typedef {import("./calc-runtime.js").Calculated} Calculated */
/** @typedef {import("./calc-runtime.js").Refusal} Refusal */
/** What asks the worker for the form's result; `logging`: how its result goes to the log (table-log.js's FormLog).
 * @typedef {(logging?: import("./table-log.js").Logging) => void} Update */

const NOT_A_NUMBER = "not a number"; // what a number field holds when its text is no number: Python says so

/** What a field sends: a switch (a yes/no param, rulebook/templates/forms.html) "yes" or "no", as the
 * menus it replaced did, so links and the log read the same; any other field its value.
 * @param {Field} control @returns {string} */
function valueOf(control) {
  if (control instanceof HTMLInputElement && control.type === "checkbox") return control.checked ? "yes" : "no";
  return control.type === "number" && control.validity.badInput ? NOT_A_NUMBER : control.value;
}

/** Put a value in a field: a switch is on for "yes" (whatever its case), off for anything else.
 * @param {Field} control @param {string} value */
function setValue(control, value) {
  if (control instanceof HTMLInputElement && control.type === "checkbox") control.checked = value.trim().toLowerCase() === "yes";
  else control.value = value;
}

/** @param {CalcForm} form @returns {Record<string, string>} */
function readParams(form) {
  /** @type {Record<string, string>} */
  const params = {};
  for (const control of /** @type {NodeListOf<Field>} */ (form.querySelectorAll("input[name], select[name], textarea[name]"))) {
    if (control.name === "seed") continue;
    params[control.name] = valueOf(control);
  }
  // An old link's one-line duelist stands for a row of fields until Python
  // has translated it (result.upgraded).
  /** @type {Record<string, string[]>} */
  const replaces = JSON.parse(form.dataset.legacy || "{}"); // old parameter -> the fields it fills
  for (const [old, value] of Object.entries(form.legacyParams || {})) {
    for (const name of replaces[old] || []) delete params[name];
    params[old] = value;
  }
  return params;
}

/** The id of the form's heading (every calculator form names it). @param {CalcForm} form @returns {string} */
export function formAnchor(form) {
  return /** @type {string} */ (form.getAttribute("aria-labelledby"));
}

/** @param {CalcForm} form @returns {boolean} */
function restoreFromAddress(form) {
  const query = new URLSearchParams(location.search);
  if (query.get("calc") !== form.dataset.calculator) return false;
  for (const control of /** @type {NodeListOf<Field>} */ (form.querySelectorAll("[name]"))) {
    if (query.has(control.name)) setValue(control, /** @type {string} */ (query.get(control.name)));
  }
  if (query.has("seed")) form.dataset.seed = /** @type {string} */ (query.get("seed"));
  /** @type {Record<string, string[]>} */
  const replaces = JSON.parse(form.dataset.legacy || "{}");
  form.legacyParams = Object.fromEntries([...query].filter(([key]) => Object.hasOwn(replaces, key)));
  return true;
}

/** An old link's parameters, answered: the fields they stand for take the values Python translated them to.
 * @param {CalcForm} form @param {Calculated} result */
function upgradeLegacy(form, result) {
  /** @type {Record<string, string[]>} */
  const replaces = JSON.parse(form.dataset.legacy || "{}");
  for (const old of Object.keys(/** @type {Record<string, string>} */ (form.legacyParams))) {
    for (const name of replaces[old] || []) {
      const field = /** @type {Field | null} */ (form.querySelector(`[name="${CSS.escape(name)}"]`));
      if (field) setValue(field, result.upgraded?.[name] ?? field.dataset.default ?? "");
    }
  }
  form.legacyParams = {};
}

/** @param {HTMLInputElement} input @param {number} by */
function step(input, by) {
  const next = (parseInt(input.value, 10) || 0) + by;
  const min = input.dataset.min == null ? -Infinity : Number(input.dataset.min);
  const max = input.dataset.max == null ? Infinity : Number(input.dataset.max);
  input.value = String(Math.min(max, Math.max(min, next)));
}

/** The folded rulings say whether this table has changed any of them.
 * @param {CalcForm} form @param {boolean} [open] */
function markRulings(form, open = false) {
  const box = /** @type {HTMLDetailsElement | null} */ (form.querySelector(".calc-rulings"));
  if (!box) return;
  const fields = [.../** @type {NodeListOf<Field>} */ (box.querySelectorAll("[name]"))];
  const changed = fields.filter((f) => f.dataset.default !== undefined && valueOf(f) !== f.dataset.default).length;
  /** @type {HTMLElement} */ (box.querySelector("summary")).textContent = changed
    ? `Rulings: ${changed} of ${fields.length} changed from the site's choice`
    : `Rulings: the site's choices (${fields.length})`;
  box.classList.toggle("calc-changed", changed > 0);
  if (open && changed) box.open = true;
  showRulingsLine(form);
}

/** @param {CalcForm} form */
export function setUpForm(form) {
  if (form.dataset.ready) return;
  form.dataset.ready = "true";
  const log = new FormLog(form);
  const share = form.querySelector("[data-action=share]");
  if (share && canShare()) Object.assign(share, { textContent: "Share link", title: "Share a link that shows this result to anyone" });
  applyHouseRulings(form); // the table's house rulings first; a link's own values go over them
  const restored = restoreFromAddress(form);
  const update = updater(form, log);
  listen(form, update, log);
  markRulings(form, restored);
  if (restored) {
    // A shared result: the form's heading at the top, so the answer bar,
    // which stays on screen while the form is, shows the result.
    const heading = document.getElementById(formAnchor(form));
    (heading || form).scrollIntoView({ block: "start" });
    update("show"); // a link's result was rolled or typed elsewhere: not a result of this table's
  }
}

/** The form's Update: only the newest answer is drawn; every answer reaches the log.
 * @param {CalcForm} form @param {FormLog} log @returns {Update} */
function updater(form, log) {
  let latest = 0;
  // What the log names the form by, read while it is on its page: a result may come after the page is left.
  const title = document.getElementById(formAnchor(form))?.textContent.replace(/^Calculator: /, "").replace(/¶$/, "").trim() || form.dataset.calculator;
  const path = location.pathname;
  return (logging = "hold") => {
    let params = readParams(form);
    const seed = form.dataset.seed ? form.dataset.seed : null;
    const ticket = ++latest;
    log.sent(ticket, logging);
    form.setAttribute("aria-busy", "true");
    /** @param {Calculated | Refusal} result */
    const entry = (result) => (result.ok ? logEntry(form, params, result, title, path) : null);
    computeInWorker(form.dataset.calculator, params, seed).then((result) => {
      // A newer input is on its way, or the page is gone: nothing to draw, but a committed result is logged.
      if (ticket !== latest || !form.isConnected) return log.answered(ticket, entry(result));
      form.removeAttribute("aria-busy");
      if (result.ok && Object.keys(form.legacyParams || {}).length) {
        upgradeLegacy(form, result);
        params = readParams(form);
      }
      writeAddress(form, params);
      renderResult(form, result);
      log.answered(ticket, entry(result));
    }, () => {
      form.removeAttribute("aria-busy");
      log.answered(ticket, null);
    });
  };
}

/** The form's listeners: typing computes, leaving a field or Enter commits to the log, the buttons step, roll
 * and share. They live as long as the form.
 * @param {CalcForm} form @param {Update} update @param {FormLog} log */
function listen(form, update, log) {
  form.addEventListener("input", (event) => {
    if (/** @type {Field} */ (event.target).closest(".calc-rulings")) markRulings(form);
    if (/** @type {Field} */ (event.target).closest(".calc-dice")) delete form.dataset.seed; // typed dice replace rolled ones
    // A number field halfway through "-3" holds no number yet: wait for the rest.
    if (/** @type {Field} */ (event.target).type === "number" && /** @type {Field} */ (event.target).validity.badInput) return;
    update();
  });
  form.addEventListener("change", (event) => {
    if (/** @type {Field} */ (event.target).type === "number" && /** @type {Field} */ (event.target).validity.badInput) update();
    log.commit(); // a field left changed, a choice made, Enter: the player is done with this result
  });
  form.addEventListener("focusout", () => log.commit());
  form.addEventListener("keydown", (event) => {
    // Enter: done with this result (a form of many fields is not submitted by Enter, nor is a same value "changed")
    if (event.key === "Enter" && !(event.target instanceof HTMLTextAreaElement)) log.commit();
    const input = /** @type {HTMLInputElement} */ (event.target); // it steps only such a field
    if (!input.matches(".calc-int input[inputmode=numeric]") || !["ArrowUp", "ArrowDown"].includes(event.key)) return;
    event.preventDefault(); // arrow keys step the number, as in a number field
    step(input, event.key === "ArrowUp" ? 1 : -1);
    update();
  });
  form.addEventListener("submit", (event) => { event.preventDefault(); log.commit(); });
  form.addEventListener("click", (event) => {
    const button = /** @type {Element} */ (event.target).closest("button");
    if (!button) return;
    if (button.dataset.step) {
      // a stepper button: its input beside it
      step(/** @type {HTMLInputElement} */ (/** @type {HTMLElement} */ (button.parentElement).querySelector("input")), Number(button.dataset.step));
      update();
    } else if (button.dataset.action === "roll") {
      log.commit(); // what was typed before stands; the roll is a result of its own
      form.dataset.seed = String(crypto.getRandomValues(new Uint32Array(1))[0]);
      for (const dice of /** @type {NodeListOf<HTMLInputElement>} */ (form.querySelectorAll(".calc-dice input"))) dice.value = "";
      update("log");
    } else if (button.dataset.action === "share") {
      const params = readParams(form);
      writeAddress(form, params, true);
      // The link lands on this form's heading, with the answer bar in view.
      shareLink(new URL(addressOf(form, params, "#" + formAnchor(form)), location.href).href, button);
    }
  });
}

/** What was typed or chosen, in the form's own words: "Rating 7; Offset: Once per sequence".
 * @param {CalcForm} form @param {Record<string, string>} inputs @returns {string} */
function inputWords(form, inputs) {
  const words = [];
  for (const [name, value] of Object.entries(inputs)) {
    const control = /** @type {Field | null} */ (form.querySelector(`[name="${CSS.escape(name)}"]`));
    if (!control) continue; // an older parameter: its fields say it
    const ids = control.getAttribute("aria-labelledby"); // its labels are in the form: read even after the page is gone
    const label = (ids ? ids.split(" ").map((id) => form.querySelector(`#${CSS.escape(id)}`)?.textContent ?? "").join(" ")
      : control.labels?.[0]?.textContent ?? name).replace(/\s+/g, " ").trim();
    const shown = control instanceof HTMLSelectElement ? control.selectedOptions[0]?.textContent ?? value
      : control.type === "checkbox" ? (value === "yes" ? "Yes" : "No") : value;
    words.push(`${label}: ${shown}`);
  }
  return words.join("; ");
}

/** The roll log's entry for a result (table-log.js checks the shape with isLogEntry); `title` and `path`:
 * the form's name and page.
 * @param {CalcForm} form @param {Record<string, string>} params @param {Calculated} result @param {string} title @param {string} path
 * @returns {import("./table-log.js").LogEntry} */
function logEntry(form, params, result, title, path) {
  const { inputs, replay } = logInputs(params); // a long list is told in words, not kept twice over
  return {
    said: inputWords(form, inputs),
    time: new Date().toISOString(),
    calculator: form.dataset.calculator,
    game: form.dataset.calculator.split(".")[0],
    title,
    inputs,
    seed: result.seed,
    outcome: result.outcome,
    headline: result.headline,
    url: path + addressOf(form, replay, "#" + formAnchor(form)),
  };
}
