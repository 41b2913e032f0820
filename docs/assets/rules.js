// Rule links and calculators. One small module, no framework.
//
// Rule IDs: a copy-link button beside each rule's ID; an old rule ID in the
// address is sent on to where the rule lives now.
//
// Calculators: each <form data-calculator> is driven by one Web Worker that
// runs the Python calculators on Pyodide. The worker is started once, on the
// first page that has a form, and kept across Material's instant page
// switches. Everything shown comes back from Python as data and is put in
// the page with textContent: nothing from the address bar or a form is ever
// parsed as HTML.

import { applyTableToForm, followRulings, markRulingBoxes, showTableLine } from "./table.js";
import { FormLog, commitResults, logInputs, setUpLogPage } from "./table-log.js";
import { setUpSettingsPage } from "./table-join.js";
import { computeInWorker, showRuntimeStatus, startRuntime } from "./calc-runtime.js"; // the worker, its start and its time limit
import { siteBase } from "./offline.js";
import { button, el, pageSignal, tableSettings } from "./dom.js";
import { addressOf, writeAddress } from "./calc-address.js";
import { setUpPrintAddress } from "./print-address.js";

/** Copy `text`, and say so on `button` (`done`: what it says for a moment).
 * @typedef {(text: string, button: HTMLElement, done?: string) => Promise<void>} CopyText */
/** A calculator's form (form[data-calculator], rulebook/forms.py), and the older
 * parameters of the link it was opened from, if any (restoreFromAddress).
 * @typedef {HTMLFormElement & {dataset: {calculator: string, runtime: string}, legacyParams?: Record<string, string>}} CalcForm */
/** A named control of a form.
 * @typedef {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} Field */
/** @typedef {import("./calc-runtime.js").Calculated} Calculated */
/** @typedef {import("./calc-runtime.js").Refusal} Refusal */
/** @typedef {import("./table.js").TableSpec} TableSpec */

// ---------------------------------------------------------------- rule IDs

/** @param {string} text @param {HTMLElement} button @param {string} [done] @returns {Promise<void>} */
async function copyText(text, button, done = "Link copied") {
  let copied = false;
  try {
    await navigator.clipboard.writeText(text);
    copied = true;
  } catch {
    // No clipboard API outside a secure context (a LAN over http): copy the old way.
    const area = Object.assign(document.createElement("textarea"), { value: text, readOnly: true });
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.append(area);
    area.select();
    copied = document.execCommand("copy");
    area.remove();
  }
  if (!copied) {
    window.prompt("Copy this link:", text);
    return;
  }
  // Say it on the button itself: seen, and read out by screen readers.
  const label = button.textContent;
  const name = button.getAttribute("aria-label");
  button.dataset.copied = "true";
  button.textContent = done;
  if (name) button.setAttribute("aria-label", done);
  setTimeout(() => {
    delete button.dataset.copied;
    button.textContent = label;
    if (name) button.setAttribute("aria-label", name);
  }, 1500);
}

/** Whether a result's link goes to the system share sheet: a phone's (a touch screen with navigator.share). */
const canShare = () => typeof navigator.share === "function" && matchMedia("(pointer: coarse)").matches;

/** A result's link, shared: the system share sheet where there is one (canShare), Copy where not or where the
 * sheet fails; a sheet closed unshared is left at that.
 * @param {string} url @param {HTMLElement} button */
async function shareLink(url, button) {
  if (canShare()) {
    try {
      await navigator.share({ title: document.title, url });
      return;
    } catch (err) {
      if (/** @type {Error} */ (err).name === "AbortError") return; // the sheet closed: nothing asked to be copied
    }
  }
  await copyText(url, button);
}

function addRuleButtons() {
  for (const badge of document.querySelectorAll(".rule-id")) {
    if (badge.querySelector("button")) continue;
    const link = badge.querySelector("a");
    if (!link) continue;
    const id = link.textContent;
    // The short address (r/<id>/, rulebook/site/short_links.py): it unfurls in a chat as the rule itself. Its name
    // starts with the visible text (WCAG 2.5.3).
    const copy = button("Copy link", () => copyText(new URL(`r/${id}/`, siteBase()).href, copy),
      { class: "rule-copy", title: "Copy the link to this rule", "aria-label": `Copy link to rule ${id}` });
    badge.append(copy);
  }
}

// ---------------------------------------------------------------- forms

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
function formAnchor(form) {
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

/** @param {CalcForm} form */
function clearFieldErrors(form) {
  for (const input of form.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
  for (const line of /** @type {NodeListOf<HTMLElement>} */ (form.querySelectorAll(".calc-field-error"))) {
    line.textContent = "";
    line.hidden = true;
  }
}

/** @param {CalcForm} form @param {Calculated | Refusal} result */
function renderResult(form, result) {
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
  showTableLine(form);
}

/** @param {CalcForm} form */
function setUpForm(form) {
  if (form.dataset.ready) return;
  form.dataset.ready = "true";
  let latest = 0;
  const log = new FormLog(form);
  // What the log names the form by, read while it is on its page: a result may come after the page is left.
  const title = document.getElementById(formAnchor(form))?.textContent.replace(/^Calculator: /, "").replace(/¶$/, "").trim() || form.dataset.calculator;
  const path = location.pathname;
  const share = form.querySelector("[data-action=share]");
  if (share && canShare()) Object.assign(share, { textContent: "Share link", title: "Share a link that shows this result to anyone" });
  applyTableToForm(form); // the table's house rulings first; a link's own values go over them
  const restored = restoreFromAddress(form);

  /** Compute what the form holds; `logging`: how its result goes to the log (table-log.js's FormLog).
   * @param {import("./table-log.js").Logging} [logging] */
  const update = (logging = "hold") => {
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
        /** @type {Record<string, string[]>} */
        const replaces = JSON.parse(form.dataset.legacy || "{}");
        for (const old of Object.keys(/** @type {Record<string, string>} */ (form.legacyParams))) {
          for (const name of replaces[old] || []) {
            const field = /** @type {Field | null} */ (form.querySelector(`[name="${CSS.escape(name)}"]`));
            if (field) setValue(field, result.upgraded?.[name] ?? field.dataset.default ?? "");
          }
        }
        form.legacyParams = {};
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
  markRulings(form, restored);
  if (restored) {
    // A shared result: the form's heading at the top, so the answer bar,
    // which stays on screen while the form is, shows the result.
    const heading = document.getElementById(formAnchor(form));
    (heading || form).scrollIntoView({ block: "start" });
    update("show"); // a link's result was rolled or typed elsewhere: not a result of this table's
  }
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

/** Call `use` with table-settings.json once it is in: only if it came, unless `evenWithout` (then null if not);
 * never once the page is left.
 * @param {(spec: TableSpec | null) => unknown} use @param {boolean} [evenWithout] */
function withTableSpec(use, evenWithout = false) {
  const lifetime = pageSignal();
  tableSettings().then((spec) => !lifetime.aborted && (spec || evenWithout) && use(spec));
}

function setUpTable() {
  const settings = /** @type {import("./table-join.js").SettingsForm | null} */ (document.querySelector("form.table-settings"));
  // not evenWithout: called only with the spec
  if (settings) withTableSpec((spec) => setUpSettingsPage(settings, /** @type {TableSpec} */ (spec), copyText));
  if (document.querySelector(".admonition.ruling")) withTableSpec(markRulingBoxes);
  if (document.querySelector("[data-gm-follow]")) withTableSpec(followRulings); // a GM screen's numbers: the table's rulings
  const log = /** @type {HTMLElement | null} */ (document.querySelector("[data-table-log]"));
  if (log) withTableSpec((spec) => setUpLogPage(log, copyText, spec), true); // the log shows even without the games' names
}

/** A "Skip to…" link second in the Tab order (after Material's "Skip to content"),
 * on every page with a calculator or a tracker: it puts the focus in `target`'s
 * first control and `heading` (an id) in view.
 * @param {HTMLElement} target @param {string} heading @param {string} text */
function addSkipLink(target, heading, text) {
  const skip = document.querySelector("[data-md-component=skip]");
  if (!skip || skip.querySelector("[data-calc-skip]")) return;
  const link = el("a", { href: "#" + heading, class: "md-skip", "data-calc-skip": "", text });
  link.addEventListener("click", (event) => {
    // Straight into the form: its first field takes the focus, its heading in view.
    event.preventDefault();
    event.stopPropagation(); // Material's instant navigation would take the focus back to the page
    const field = [.../** @type {NodeListOf<Field>} */ (target.querySelectorAll("input, select, textarea"))].find((f) => f.checkVisibility());
    if (field) field.focus({ preventScroll: true });
    else { // a tracker still reading its saved state: the tracker itself
      target.tabIndex = -1;
      target.focus({ preventScroll: true });
    }
    document.getElementById(heading)?.scrollIntoView({ block: "start" });
  });
  skip.append(link);
}

function setUpCalculators() {
  const forms = [.../** @type {NodeListOf<CalcForm>} */ (document.querySelectorAll("form[data-calculator]"))];
  if (!forms.length) return;
  addSkipLink(forms[0], formAnchor(forms[0]), forms.length > 1 ? "Skip to the first calculator" : "Skip to the calculator");
  startRuntime(forms[0].dataset.runtime);
  showRuntimeStatus();
  forms.forEach(setUpForm);
}

// Material swaps pages without reloading: run on every page it shows.
// ---------------------------------------------------------------- trackers

// A fight or a season kept across many rolls (rulebook/render.py): each
// tracker's page code is its own module, loaded only on its page. Literal
// imports, so the build can address each by its content.
/** @type {Record<import("../../types/trackers").TrackerName, () => Promise<typeof import("./season.js") | typeof import("./encounter.js")>>} */
const TRACKERS = {
  "rpgdl.season": () => import("./season.js"),
  "tell_tale.encounter": () => import("./encounter.js"),
  "tell_tale.party": () => import("./party.js"),
};

function setUpTrackers() {
  for (const box of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-tracker]"))) {
    if (box.dataset.ready || !box.dataset.tracker || !Object.hasOwn(TRACKERS, box.dataset.tracker)) continue;
    box.dataset.ready = "true";
    addSkipLink(box, (box.id ||= "tracker"), "Skip to the tracker");
    startRuntime(/** @type {string} */ (box.dataset.runtime)); // every tracker has one (rulebook/render.py)
    const lifetime = pageSignal(); // a module that comes in after the page is left sets nothing up
    TRACKERS[/** @type {import("../../types/trackers").TrackerName} */ (box.dataset.tracker)]().then((module) => lifetime.aborted || module.setUp(box, { computeInWorker, copyText })).catch((/** @type {Error} */ err) => {
      // the page script could not load (offline before it was cached) or the page lacks what it needs
      box.replaceChildren(el("p", { class: "calc-error", role: "alert", text: `This tracker could not start: ${err.message}` }));
    });
  }
}

function onPage() {
  commitResults(true); // the forms of a page Material swapped out: their results are logged
  for (const setUp of [setUpPrintAddress, addRuleButtons, setUpCalculators, setUpTable, setUpTrackers]) setUp();
}

if (typeof document$ !== "undefined") document$.subscribe(onPage);
else document.addEventListener("DOMContentLoaded", onPage);
