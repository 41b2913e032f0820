// The encounter's add form (docs/tell-tale/encounter.md): a combatant's
// name, kind, owner, side, numbers and keywords, sent as one "add" action.
// Its labels are the add action's as Python declares them
// (encounter_actions.py); Python checks every value.

import { unchangedSince } from "./dom.js";
import { el } from "./tracker-kit.js";
import { markFieldAtFault } from "./tracker-shell.js";
import { fillSelect, namer, typed } from "./encounter-form.js";

/** @typedef {import("./encounter.js").Combatant} Combatant */
/** @typedef {import("./tracker-kit.js").Action} Action */
/**
 * What the add form needs of its page.
 * @typedef {{words: import("./encounter.js").EncounterWords, state: () => import("./encounter.js").Encounter | null,
 *   byId: (id: string | null) => Combatant | undefined, ids: (suffix: string) => string,
 *   run: (action: Action, options?: {roll?: boolean, quiet?: boolean}) => Promise<import("./tracker-kit.js").StepAnswer<import("./encounter.js").Encounter> | null>,
 *   added: (result: import("./calc-runtime.js").Tracked<import("./encounter.js").Encounter>) => void}} AddPage
 */

/**
 * The add form's controls, by field key ("extra": Token or Planeswalker, one of them at most), and the parts redrawn.
 * @typedef {{add: Record<string, HTMLInputElement | HTMLSelectElement>, numbers: string[], keywordsSummary: HTMLElement,
 *   usual: HTMLOptionElement, addAgain: HTMLButtonElement, addError: HTMLElement}} AddControls
 */

/** The add form's fields, drawn into `addForm` from the add action's declaration: its text, its choices, a box for
 * each number, its flags as one "Also" choice, its keywords folded.
 * @param {HTMLFormElement} addForm @param {AddPage} page @param {import("./encounter-form.js").ActionSpec} spec @returns {AddControls} */
function drawFields(addForm, page, spec) {
  const { words, ids } = page;
  const keywordLabel = namer(words).keyword;
  const of = (/** @type {string} */ kind) => spec.fields.filter((f) => f.kind === kind);
  /** @param {string} key */
  const label = (key) => /** @type {import("./encounter-form.js").FieldSpec} */ (spec.fields.find((f) => f.key === key)).label;
  /** @type {Record<string, HTMLInputElement | HTMLSelectElement>} */
  const add = {};
  /** @param {string} name @param {string} text @param {HTMLInputElement | HTMLSelectElement} control */
  const addField = (name, text, control) => {
    add[name] = control;
    control.id = ids(`add-${name}`);
    control.name = name;
    return el("div", { class: "calc-field" }, el("label", { for: control.id, text }), control);
  };
  const numberBox = () => el("input", { type: "text", inputmode: "numeric", autocomplete: "off" });
  const keywordsSummary = el("summary", { text: "Keywords: none" });
  const usual = /** @type {HTMLOptionElement} */ (el("option", { value: "" }));
  const addAgain = /** @type {HTMLButtonElement} */ (el("button", { type: "button", class: "md-button", "data-enc": "add-again", "data-do": "another", hidden: true }));
  const numbers = of("number").map((f) => f.key);
  addForm.append(
    el("div", { class: "calc-fields" },
      addField("name", label("name"), el("input", { type: "text", autocomplete: "off", maxlength: "40" })),
      addField("kind", label("kind"), el("select", {}, ...words.kinds.map(([v, t]) => el("option", { value: v, text: t })))),
      addField("owner", label("owner"), el("select", {})),
      addField("side", label("side"), el("select", {}, usual, ...words.sides.map(([v, t]) => el("option", { value: v, text: t[0].toUpperCase() + t.slice(1) })))),
      addField("extra", "Also", el("select", {}, el("option", { value: "", text: "–" }), ...of("flag").map((f) => el("option", { value: f.key, text: f.label }))))),
    el("div", { class: "enc-numbers" }, ...numbers.map((key) => addField(key, label(key), numberBox()))),
    // 24 boxes: folded, so that Add sits under the numbers (on a phone they were 400 px between)
    el("details", { class: "enc-add-keywords", "data-enc": "add-keywords" }, keywordsSummary,
      el("fieldset", { class: "enc-keyword-boxes" }, el("legend", { class: "md-visually-hidden", text: label("keywords") }),
        ...words.keywords.map(([k]) => el("label", { class: "enc-check" }, el("input", { type: "checkbox", name: "add-keyword", value: k }), " " + keywordLabel(k))))),
    el("div", { class: "calc-actions" }, el("button", { type: "submit", class: "md-button md-button--primary", "data-enc": "add", "data-do": spec.name, text: "Add" }), addAgain),
    el("p", { class: "calc-error", role: "alert", "data-enc": "add-error" }));
  addForm.addEventListener("change", (event) => {
    if (/** @type {HTMLInputElement | HTMLSelectElement} */ (event.target).name !== "add-keyword") return;
    const chosen = [.../** @type {NodeListOf<HTMLInputElement>} */ (addForm.querySelectorAll("input[name=add-keyword]:checked"))].map((i) => keywordLabel(i.value));
    keywordsSummary.textContent = `Keywords: ${chosen.length ? chosen.join(", ") : "none"}`;
  });
  return { add, numbers, keywordsSummary, usual, addAgain, addError: /** @type {HTMLElement} */ (addForm.querySelector("[data-enc=add-error]")) };
}

/** The add action the form describes. @param {HTMLFormElement} addForm @param {AddControls} controls
 * @param {import("./encounter-form.js").ActionSpec} spec @param {(kind: string) => boolean} owned @returns {Action} */
function readAdd(addForm, { add, numbers }, spec, owned) {
  /** @type {Action} */
  const action = { do: spec.name, name: add.name.value, kind: add.kind.value };
  for (const key of numbers) {
    const v = typed(add[key].value);
    if (v !== undefined) action[key] = v;
  }
  for (const f of spec.fields) if (f.required && numbers.includes(f.key)) action[f.key] ??= add[f.key].value; // empty: Python says it is needed
  if (add.side.value) action.side = add.side.value;
  if (add.owner.value && owned(add.kind.value)) action.owner = add.owner.value;
  if (add.extra.value) action[add.extra.value] = true;
  action.keywords = [.../** @type {NodeListOf<HTMLInputElement>} */ (addForm.querySelectorAll("input[name=add-keyword]:checked"))].map((i) => i.value);
  return action;
}

/** The add form, drawn into `addForm`; returns its redraw. @param {HTMLFormElement} addForm @param {AddPage} page */
export function addCombatant(addForm, page) {
  const { words } = page;
  const spec = /** @type {import("./encounter-form.js").ActionSpec} */ (words.actions.find((a) => a.name === "add"));
  const owned = (/** @type {string} */ kind) => !Object.hasOwn(words.usual_sides, kind); // a familiar or a summon: it has an owner
  const controls = drawFields(addForm, page, spec);
  const { add, numbers, keywordsSummary, usual, addAgain, addError } = controls;
  // "Another" for the combatant this form added last, beside Add: the thumb is here, the rows are far above
  /** @type {string | null} */
  let lastAdded = null;
  addAgain.addEventListener("click", () => page.run({ do: "another", id: lastAdded }));
  add.kind.addEventListener("change", render);

  function render() {
    const state = page.state();
    const again = lastAdded && state?.combatants.find((c) => c.id === lastAdded);
    addAgain.hidden = !again;
    if (again) addAgain.textContent = addAgain.title = `Add another ${again.name}`; // the title: the whole name, where a long one is cut
    const holders = /** @type {Combatant[]} */ ((state?.order ?? []).map(page.byId)); // every id in the order is a combatant's
    fillSelect(/** @type {HTMLSelectElement} */ (add.owner), holders, { blank: holders.length ? null : "(add its PC or NPC first)" });
    const kind = add.kind.value;
    /** @type {HTMLElement} */ (add.owner.closest(".calc-field")).hidden = !owned(kind);
    // The side left empty: the kind's usual one (Python's), or for a familiar or a summon its owner's
    const side = words.sides.find(([s]) => s === words.usual_sides[kind])?.[1];
    usual.textContent = side ? `The usual: ${side}` : "Its owner's side";
  }

  /** After an add Python took: the form emptied for the next one, unless something was typed meanwhile.
   * @param {Action} action @param {boolean} clear @param {Record<string, string>} chosen */
  function cleared(action, clear, chosen) {
    if (!clear) return;
    for (const key of ["name", ...numbers]) add[key].value = "";
    for (const box of /** @type {NodeListOf<HTMLInputElement>} */ (addForm.querySelectorAll("input[type=checkbox]"))) box.checked = false;
    keywordsSummary.textContent = "Keywords: none";
    // What was this one's own goes too, where still as sent: its side, Token or Planeswalker, and a familiar's or a
    // summon's kind, which becomes its owner's (the next one typed is most often a PC or NPC, which a familiar's
    // kind refused: "Add another" repeats this one).
    if (Object.entries(chosen).every(([key, value]) => add[key].value === value)) {
      add.side.value = add.extra.value = "";
      const owner = owned(chosen.kind) && typeof action.owner === "string" ? page.byId(action.owner) : undefined;
      if (owner) add.kind.value = owner.kind;
    }
  }

  addForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const action = readAdd(addForm, controls, spec, owned);
    const untouched = unchangedSince(addForm); // the next combatant may be typed while Python adds this one
    const chosen = { kind: add.kind.value, side: add.side.value, extra: add.extra.value }; // the selects, which that leaves out
    const result = await page.run(action, { roll: false, quiet: true });
    if (!result) return;
    addError.textContent = result.ok ? "" : result.error;
    markFieldAtFault(addForm, result);
    if (!result.ok) return;
    page.added(result);
    const clear = untouched();
    cleared(action, clear, chosen);
    lastAdded = result.state.combatants.at(-1)?.id ?? null;
    render();
    if (clear) add.name.focus(); // else the focus stays where the next one is being typed
  });
  return { render };
}
