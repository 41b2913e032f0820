// The start of every page's code, run on each page Material shows: the rule IDs' copy buttons, the calculators'
// forms (calc-form.js), the house rulings' pages and boxes (house-rules.js, table-join.js), the Table log (table-log.js),
// the trackers' own modules and a "Skip to" link to the first form or tracker. Material swaps pages without
// reloading, so each of these looks at the page it is given and leaves what it has set up alone.

import { followRulings, markRulingBoxes } from "./house-rules.js";
import { commitResults, setUpLogPage } from "./table-log.js";
import { setUpSettingsPage } from "./table-join.js";
import { computeInWorker, showRuntimeStatus, startRuntime } from "./calc-runtime.js"; // the worker, its start and its time limit
import { siteBase } from "./offline.js";
import { button, el, pageSignal, tableSettings } from "./dom.js";
import { setUpPrintAddress } from "./print-address.js";
import { copyText } from "./copy-link.js";
import { formAnchor, setUpForm } from "./calc-form.js";

/** @typedef {import("./calc-form.js").CalcForm} CalcForm */
/** @typedef {import("./calc-form.js").Field} Field */
/** @typedef {import("./house-rules.js").TableSpec} TableSpec */

// ---------------------------------------------------------------- rule IDs

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

// ---------------------------------------------------------------- house rulings and forms

/** Call `use` with table-settings.json once it is in: only if it came, unless `evenWithout` (then null if not);
 * never once the page is left.
 * @param {(spec: TableSpec | null) => unknown} use @param {boolean} [evenWithout] */
function withTableSpec(use, evenWithout = false) {
  const lifetime = pageSignal();
  tableSettings().then((spec) => !lifetime.aborted && (spec || evenWithout) && use(spec));
}

/** The house rulings where a page shows them (the settings page, the ruling boxes a choice changes, a GM
 * screen's numbers), and the Table log's page. */
function setUpRulingsAndLog() {
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
  for (const setUp of [setUpPrintAddress, addRuleButtons, setUpCalculators, setUpRulingsAndLog, setUpTrackers]) setUp();
}

// Material swaps pages without reloading: run on every page it shows.
if (typeof document$ !== "undefined") document$.subscribe(onPage);
else document.addEventListener("DOMContentLoaded", onPage);
