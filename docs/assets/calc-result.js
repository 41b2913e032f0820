// A calculator's answer drawn in its form: the headline, the dice rolled, the steps, the rules that decided it and
// the chance chart; or the refusal's sentence beside the field at fault. Everything comes from Python as data and
// goes in with textContent.

import { el } from "./dom.js";

/** @typedef {import("./calc-form.js").CalcForm} CalcForm */
/** @typedef {import("./calc-runtime.js").Calculated} Calculated */
/** @typedef {import("./calc-runtime.js").Refusal} Refusal */

/** @param {CalcForm} form */
function clearFieldErrors(form) {
  for (const input of form.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
  for (const line of /** @type {NodeListOf<HTMLElement>} */ (form.querySelectorAll(".calc-field-error"))) {
    line.textContent = "";
    line.hidden = true;
  }
}

/** @param {CalcForm} form @param {Calculated | Refusal} result */
export function renderResult(form, result) {
  const box = /** @type {HTMLElement} */ (form.querySelector(".calc-result"));
  const explain = /** @type {HTMLElement} */ (form.querySelector(".calc-explain"));
  const alert = /** @type {HTMLElement} */ (form.querySelector(".calc-answer [role=alert]"));
  clearFieldErrors(form);
  if (!result.ok) {
    // Never leave an old answer standing as if it were current.
    box.replaceChildren();
    box.removeAttribute("data-outcome");
    explain.replaceChildren();
    alert.textContent = result.error;
    form.dataset.state = "error";
    const field = result.field && form.querySelector(`[name="${CSS.escape(result.field)}"]`);
    if (field) {
      field.setAttribute("aria-invalid", "true");
      const line = /** @type {HTMLElement | null} */ (form.querySelector(`#${CSS.escape(field.id)}-error`));
      if (line) {
        line.textContent = result.error;
        line.hidden = false;
      }
    }
    return;
  }
  alert.textContent = "";
  form.dataset.state = "result";
  const parts = [el("p", { class: "calc-headline", text: result.headline })];
  const dice = Object.entries(result.dice);
  if (result.seed != null) {
    // Rolled dice go into their fields, as if typed; the seed stays shown.
    for (const [name, value] of dice) {
      const field = /** @type {HTMLInputElement | null} */ (form.querySelector(`.calc-dice [name="${CSS.escape(name)}"]`));
      if (field) field.value = value;
    }
    parts.push(el("p", { class: "calc-seed", text: `Rolled ${dice.map(([k, v]) => `${labelOf(form, k)}: ${v}`).join(", ")} (seed ${result.seed})` }));
  }
  box.replaceChildren(...parts);
  box.dataset.outcome = result.outcome;
  /** @type {Record<string, string>} */
  const rules = JSON.parse(form.dataset.rules || "{}"); // rule ID -> its address
  const more = [];
  if (result.details.length) more.push(el("ol", { class: "calc-details" }, ...result.details.map((d) => el("li", { text: d }))));
  if (result.rules.length) {
    const p = el("p", { class: "calc-rules" }, "Rules: ");
    result.rules.forEach((id, i) => p.append(...(i ? [", "] : []), el("a", { href: rules[id] || "#" + id, text: id })));
    more.push(p);
  }
  if (result.odds.length) more.push(oddsTable(result));
  explain.replaceChildren(...more);
}

/** @param {CalcForm} form @param {string} name */
function labelOf(form, name) {
  const field = form.querySelector(`[name="${CSS.escape(name)}"]`);
  const label = field && form.querySelector(`label[for="${CSS.escape(field.id)}"]`);
  return label ? label.textContent : name;
}

/** @param {number} p @returns {string} */
function percent(p) {
  return `${p.toFixed(p < 1 && p > 0 ? 2 : 1)}%`;
}

/** The chance chart of every calculator whose answer has odds: one generic table drawn from
 * what Python publishes (runner.Odd), a row per outcome with its bar, its percentage and its exact
 * fraction. The bars are scaled to the likeliest outcome, so the shape reads at a glance even when every
 * chance is small; they are decoration (aria-hidden): the table's text says it all to a screen reader.
 * @param {Calculated} result @returns {HTMLTableElement} */
function oddsTable(result) {
  const top = Math.max(...result.odds.map((o) => o.percent));
  const rows = result.odds.map((o) => {
    const mine = o.label === result.highlight;
    const bar = el("span", { class: "calc-bar", "aria-hidden": "true" });
    // An impossible outcome gets no bar; a possible one at least a sliver.
    bar.style.width = o.numerator === 0 || top === 0 ? "0" : `max(3px, ${(100 * o.percent / top).toFixed(2)}%)`;
    return el("tr", mine ? { class: "calc-mine" } : {},
      el("th", { scope: "row", text: (mine ? "▶ " : "") + o.label }),
      el("td", { class: "calc-chance" }, el("span", { class: "calc-chance-line" },
        el("span", { class: "calc-bar-track" }, bar), el("span", { class: "calc-pct", text: percent(o.percent) }))),
      // a long fraction may break after its slash, never inside a number
      el("td", { class: "calc-exact" }, ...(o.denominator === 1 ? [String(o.numerator)] : [`${o.numerator}/`, el("wbr"), String(o.denominator)])));
  });
  return el("table", { class: "calc-odds" },
    el("caption", { text: result.odds_title || "Odds" }),
    el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "Result" }), el("th", { scope: "col", text: "Chance" }), el("th", { scope: "col", text: "Exactly" }))),
    el("tbody", {}, ...rows));
}
