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

const NUMBERS = ["power", "toughness", "vitality", "speed", "initiative"];
const FLAGS = ["planeswalker", "token"]; // one of them at most: "Also"

/** The add form, drawn into `addForm`; returns its redraw. @param {HTMLFormElement} addForm @param {AddPage} page */
export function addCombatant(addForm, page) {
  const { words, ids } = page;
  const spec = /** @type {import("./encounter-form.js").ActionSpec} */ (words.actions.find((a) => a.name === "add"));
  /** @param {string} key */
  const label = (key) => /** @type {import("./encounter-form.js").FieldSpec} */ (spec.fields.find((f) => f.key === key)).label;
  const keywordLabel = namer(words).keyword;
  const owned = (/** @type {string} */ kind) => !Object.hasOwn(words.usual_sides, kind); // a familiar or a summon: it has an owner
  /** @type {Record<string, HTMLInputElement | HTMLSelectElement>} */
  const add = {}; // the add form's controls, by name
  /** @param {string} name @param {string} text @param {HTMLInputElement | HTMLSelectElement} control */
  const addField = (name, text, control) => {
    add[name] = control;
    control.id = ids(`add-${name}`);
    control.name = name;
    return el("div", { class: "calc-field" }, el("label", { for: control.id, text }), control);
  };
  const numberBox = () => el("input", { type: "text", inputmode: "numeric", autocomplete: "off" });
  const keywordsSummary = el("summary", { text: "Keywords: none" });
  const usual = el("option", { value: "" });
  // "Another" for the combatant this form added last, beside Add: the thumb is here, the rows are far above
  /** @type {string | null} */
  let lastAdded = null;
  const addAgain = el("button", { type: "button", class: "md-button", "data-enc": "add-again", "data-do": "another", hidden: true });
  addAgain.addEventListener("click", () => page.run({ do: "another", id: lastAdded }));
  addForm.append(
    el("div", { class: "calc-fields" },
      addField("name", label("name"), el("input", { type: "text", autocomplete: "off", maxlength: "40" })),
      addField("kind", label("kind"), el("select", {}, ...words.kinds.map(([v, t]) => el("option", { value: v, text: t })))),
      addField("owner", label("owner"), el("select", {})),
      addField("side", label("side"), el("select", {}, usual, ...words.sides.map(([v, t]) => el("option", { value: v, text: t[0].toUpperCase() + t.slice(1) })))),
      addField("extra", "Also", el("select", {}, el("option", { value: "", text: "–" }), ...FLAGS.map((f) => el("option", { value: f, text: label(f) }))))),
    el("div", { class: "enc-numbers" }, ...NUMBERS.map((key) => addField(key, label(key), numberBox()))),
    // 24 boxes: folded, so that Add sits under the numbers (on a phone they were 400 px between)
    el("details", { class: "enc-add-keywords", "data-enc": "add-keywords" }, keywordsSummary,
      el("fieldset", { class: "enc-keyword-boxes" }, el("legend", { class: "md-visually-hidden", text: label("keywords") }),
        ...words.keywords.map(([k]) => el("label", { class: "enc-check" }, el("input", { type: "checkbox", name: "add-keyword", value: k }), " " + keywordLabel(k))))),
    el("div", { class: "calc-actions" }, el("button", { type: "submit", class: "md-button md-button--primary", "data-enc": "add", "data-do": "add", text: "Add" }), addAgain),
    el("p", { class: "calc-error", role: "alert", "data-enc": "add-error" }));
  const addError = /** @type {HTMLElement} */ (addForm.querySelector("[data-enc=add-error]"));
  add.kind.addEventListener("change", render);
  addForm.addEventListener("change", (event) => {
    if (/** @type {HTMLInputElement | HTMLSelectElement} */ (event.target).name !== "add-keyword") return;
    const chosen = [.../** @type {NodeListOf<HTMLInputElement>} */ (addForm.querySelectorAll("input[name=add-keyword]:checked"))].map((i) => keywordLabel(i.value));
    keywordsSummary.textContent = `Keywords: ${chosen.length ? chosen.join(", ") : "none"}`;
  });

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

  addForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    /** @type {Action} */
    const action = { do: "add", name: add.name.value, kind: add.kind.value };
    for (const key of NUMBERS) {
      const v = typed(add[key].value);
      if (v !== undefined) action[key] = v;
    }
    for (const f of spec.fields) if (f.required && NUMBERS.includes(f.key)) action[f.key] ??= add[f.key].value; // empty: Python says it is needed
    if (add.side.value) action.side = add.side.value;
    if (add.owner.value && owned(add.kind.value)) action.owner = add.owner.value;
    if (add.extra.value) action[add.extra.value] = true;
    action.keywords = [.../** @type {NodeListOf<HTMLInputElement>} */ (addForm.querySelectorAll("input[name=add-keyword]:checked"))].map((i) => i.value);
    const untouched = unchangedSince(addForm); // the next combatant may be typed while Python adds this one
    const chosen = { kind: add.kind.value, side: add.side.value, extra: add.extra.value }; // the selects, which that leaves out
    const result = await page.run(action, { roll: false, quiet: true });
    if (!result) return;
    addError.textContent = result.ok ? "" : result.error;
    markFieldAtFault(addForm, result);
    if (result.ok) {
      page.added(result);
      const clear = untouched();
      if (clear) {
        for (const key of ["name", ...NUMBERS]) add[key].value = "";
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
      lastAdded = result.state.combatants.at(-1)?.id ?? null;
      render();
      if (clear) add.name.focus(); // else the focus stays where the next one is being typed
    }
  });
  return { render };
}
