// Python's answer to a tracker's step, drawn the same way in both trackers
// (encounter.js, season.js; tracker-shell.js exports it all again): the
// headline, the dice rolled or typed, the details, the rules as links; Undo's
// button named by what it takes back; a refusal beside the field at fault.
// Everything shown goes in with textContent.

import { siteBase } from "./offline.js";
import { el, siteJson } from "./dom.js";

/** One rule in rules.json (rulebook/site/data.py), as far as a rule's link reads it.
 * @typedef {{id: string, url: string, title: string}} RuleEntry */

/** @type {Promise<Map<string, RuleEntry>> | null} */
let ruleUrls = null; // rule ID -> the rule (rules.json), fetched once
/** A rule's ID as a link to it, titled once rules.json is read.
 * @param {string} id */
export function ruleLink(id) {
  const a = el("a", { href: new URL(`r/${id}/`, siteBase()).href, text: id });
  ruleUrls ??= siteJson("rules.json", /** @type {RuleEntry[]} */ ([])).then((rules) => new Map(rules.map((r) => [r.id, r])));
  ruleUrls.then((map) => {
    const rule = map.get(id);
    if (rule) {
      a.href = new URL(rule.url, siteBase()).href;
      a.title = rule.title;
    }
  });
  return a;
}

/** "Rules: A, B" with each ID a link.
 * @param {string[]} ids */
export function rulesLine(ids) {
  const p = el("p", { class: "calc-rules" }, "Rules: ");
  ids.forEach((id, i) => p.append(...(i ? [", "] : []), ruleLink(id)));
  return p;
}

/** Python's answer to an action, drawn: its headline, the dice (rolled here, with the seed, or typed), its
 * details and rules. `names`: the dice's names for players ({rolls: "roll-offs"}).
 * @param {import("./calc-runtime.js").Worked} result @param {Record<string, string>} [names] */
export function answerParts(result, names = {}) {
  /** @type {HTMLElement[]} */
  const parts = [el("p", { class: "calc-headline", "data-outcome": result.outcome, text: result.headline })];
  const dice = Object.entries(result.dice || {});
  if (dice.length) {
    const rolled = result.seed != null;
    parts.push(el("p", { class: "calc-seed", "data-seed": result.seed ?? "",
      text: `${rolled ? "Rolled" : "Dice"}: ${dice.map(([k, v]) => `${names[k] ?? k} ${v}`).join("; ")}${rolled ? ` (seed ${result.seed})` : ""}.` }));
  }
  if (result.details.length) parts.push(el("ol", { class: "calc-details" }, ...result.details.map((d) => el("li", { text: d }))));
  if (result.rules.length) parts.push(rulesLine(result.rules));
  return parts;
}

/** Undo's button: what it takes back (`last`, the log's line; null: nothing) as its name and tooltip. `shown`:
 * its text when there is something to undo (the bar's is short: "Undo").
 * @param {HTMLButtonElement} b @param {string | null | undefined} last @param {string | null} [shown] */
export function labelUndo(b, last, shown = "Undo") {
  b.disabled = !last;
  b.textContent = last ? shown : "Undo";
  b.title = last ? `Undo: ${last}` : "Nothing to undo";
  b.setAttribute("aria-label", last ? b.title : "Undo: nothing to undo");
}

/** Redo's button, beside Undo: shown only while a step undone can be done again (`undone`, how many; a new
 * step clears them), so a bar without one keeps its room.
 * @param {HTMLButtonElement} b @param {number} undone */
export function labelRedo(b, undone) {
  b.hidden = !undone;
  b.title = undone ? `Redo the step undone last (${undone === 1 ? "1 step" : `${undone} steps`} undone)` : "Nothing to redo";
  b.setAttribute("aria-label", b.title);
}

/** A refusal beside the field at fault, in both trackers' forms: the field the answer names is marked
 * invalid and its error line (made under it when the form has none) says the sentence; every earlier mark
 * in `form` is cleared first, and nothing is marked for an answer that names no field of this form. A field
 * in a closed fold (details) opens it.
 * Returns the field marked, or null.
 * @param {HTMLElement} form @param {{ ok: boolean, error?: string, field?: string | null } | null} result */
export function markFieldAtFault(form, result) {
  for (const input of form.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
  for (const line of form.querySelectorAll(".calc-field-error")) {
    line.textContent = "";
    /** @type {HTMLElement} */ (line).hidden = true;
  }
  /** @type {HTMLElement | null} */
  const field = result && !result.ok && result.field ? form.querySelector(`[name="${CSS.escape(result.field)}"]`) : null;
  if (!field || !result) return null;
  const fold = field.closest("details");
  if (fold) fold.open = true; // a field at fault is never left in a closed fold: its sentence shows beside it
  field.setAttribute("aria-invalid", "true");
  /** @type {HTMLElement | null} */
  let line = field.id ? form.querySelector(`#${CSS.escape(field.id)}-error`) : null;
  if (!line && field.id) {
    const made = el("p", { class: "calc-field-error", id: `${field.id}-error` });
    (field.closest(".calc-field") ?? field.parentElement ?? form).append(made);
    const described = new Set((field.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean)).add(made.id);
    field.setAttribute("aria-describedby", [...described].join(" "));
    line = made;
  }
  if (line) {
    line.textContent = result.error ?? "";
    line.hidden = false;
  }
  return field;
}

/** A seed for a step whose dice the page rolls. */
export const newSeed = () => String(crypto.getRandomValues(new Uint32Array(1))[0]);
