// A tracker's controls outside its action menu, drawn from the actions Python
// declares (ActionSpec.public, published in the tracker's vocabulary as
// `actions`): each action where its place says (the bar; an entry of the
// roster, such as a party's member, whose id fills the action's target; the
// set-up), a button when it asks nothing, else a small form of its fields:
// a choice is a select (a value it offers `only` where the entry has that
// set), a number or a text a box, a flag a check box, and a list whose
// entries have fields of their own (`each`) one row per entry of the roster.
// A field the page fills itself (`form: false`) comes from the page's
// `value`; while the page has none, the action's control is not drawn. Every
// control that sends an action carries its name in `data-do`, and a hook of
// the tracker's own (`data-party="level-up"`, a row's `stat-0`). This module
// knows no action by name: adding one to a tracker's declarations draws it.

import { button, el } from "./dom.js";

/** @typedef {import("./tracker-kit.js").Action} Action */
/**
 * One field of an action, as published (Param.public).
 * @typedef {{key: string, kind: string, label: string, help?: string, required?: boolean, refusal?: string,
 *   choices?: [string, string][], only?: [string, string][], minimum?: number, maximum?: number, max_length?: number,
 *   each?: Field[], form?: boolean}} Field
 */
/**
 * One action, as published (ActionSpec.public).
 * @typedef {{name: string, label: string, place: string, records: boolean, needs: string[], target: string,
 *   fields: Field[]}} Spec
 */
/**
 * What the controls need of their page. `hook`: the tracker's own data attribute ("party": data-party). `entries`:
 * the roster now, with each entry's id (what a target or a row's own field is set to), its title (what a control
 * for it says it is about) and a row's legend (the title unless said). `value`: a field the page fills itself, or undefined while it has none. `shown`: whether an action's
 * control is drawn now (an undo with nothing to undo is not). `dress`: a last touch to a drawn control (the undo's
 * label). `run`: send the action. `refuse`: say a sentence where the answer goes (a form not filled enough).
 * @template Entry
 * @typedef {{hook: string, entries: () => Entry[], id: (entry: Entry) => string, title: (entry: Entry) => string,
 *   legend?: (entry: Entry) => string,
 *   value?: (spec: Spec, field: Field) => unknown, shown?: (spec: Spec) => boolean, dress?: (spec: Spec, control: HTMLElement) => void,
 *   run: (action: Action) => unknown, refuse: (sentence: string) => void}} FormPage
 */

/** Typed dice or numbers: "14", "4 17" -> 14, [4, 17]; empty -> undefined; anything else as typed (Python says what is wrong).
 * @param {string} text @returns {number | number[] | string | undefined} */
export function typed(text) {
  const t = String(text).trim();
  if (!t) return undefined;
  const parts = t.split(/[\s,;/]+/).filter(Boolean);
  if (parts.every((p) => /^[+-]?[0-9]{1,6}$/.test(p))) {
    const numbers = parts.map(Number);
    return numbers.length === 1 ? numbers[0] : numbers;
  }
  return t;
}

/** An action's name as a hook: "level_up" -> "level-up". @param {string} name */
const hookOf = (name) => name.replace(/_/g, "-");

/** Whether `entry` has `key`: a keyword of its own, or a value that is set (a member's companion).
 * @param {unknown} entry @param {string} key */
function has(entry, key) {
  const e = /** @type {Record<string, unknown> | undefined} */ (entry);
  return e !== undefined && ((Array.isArray(e.keywords) && e.keywords.includes(key)) || (e[key] != null && e[key] !== false));
}

/** One field's control, labelled; `entry` is the one a roster's or a row's field is about.
 * @template E @param {FormPage<E>} page @param {Field} f @param {string} id @param {string} hook @param {E | undefined} entry */
function control(page, f, id, hook, entry) {
  const attrs = { id, name: f.key, [`data-${page.hook}`]: hook, "aria-describedby": f.help ? `${id}-help` : null };
  /** @type {HTMLElement} */
  let input;
  if (f.kind === "choice") {
    const only = Object.fromEntries(f.only ?? []);
    input = el("select", attrs, ...(f.choices ?? []).filter(([v]) => !only[v] || has(entry, only[v])).map(([v, t]) => el("option", { value: v, text: t })));
  } else if (f.kind === "who") {
    input = el("select", attrs, el("option", { value: "", text: "" }), ...page.entries().map((e) => el("option", { value: page.id(e), text: page.title(e) })));
  } else if (f.kind === "flag") {
    input = el("input", { ...attrs, type: "checkbox" });
    return el("label", { class: "enc-check" }, input, " " + f.label);
  } else {
    input = el("input", { ...attrs, type: "text", autocomplete: "off", inputmode: f.kind === "number" || f.kind === "die" ? "numeric" : "text",
      maxlength: f.max_length ?? null });
  }
  return el("div", { class: "calc-field" }, el("label", { for: id, text: f.label }), input, f.help ? el("small", { id: `${id}-help`, text: f.help }) : null);
}

/** A field's value as the form holds it: undefined when left empty (or at a choice's blank).
 * @param {HTMLElement} root @param {Field} f @param {string} id */
function valueOf(root, f, id) {
  const c = /** @type {HTMLInputElement | HTMLSelectElement | null} */ (root.querySelector(`#${CSS.escape(id)}`));
  if (!c) return undefined;
  if (c instanceof HTMLInputElement && c.type === "checkbox") return c.checked || undefined;
  if (f.kind === "number" || f.kind === "die") return typed(c.value);
  if (f.kind === "choice" && !f.required && c.value === f.choices?.[0]?.[0]) return undefined; // left at its default
  return c.value.trim() ? c.value : undefined;
}

/** The controls of `spec` for `entry` (none: the bar's or the set-up's), or null when it is not drawn now.
 * @template E @param {FormPage<E>} page @param {Spec} spec @param {E} [entry] @returns {HTMLElement | null} */
function actionControl(page, spec, entry) {
  if (page.shown && !page.shown(spec)) return null;
  if (entry && spec.needs.length && !spec.needs.some((k) => has(entry, k))) return null;
  /** @type {Action} */
  const fixed = { do: spec.name };
  if (entry && spec.target) fixed[spec.target] = page.id(entry);
  for (const f of spec.fields.filter((g) => g.form === false)) {
    const value = page.value?.(spec, f);
    if (value === undefined) return null; // the page has nothing to fill it with yet
    fixed[f.key] = value;
  }
  const asked = spec.fields.filter((f) => f.form !== false && f.key !== (entry ? spec.target : null));
  const entries = asked.some((f) => f.each) ? page.entries() : [];
  if (asked.some((f) => f.each) && !entries.length) return null; // a row for each entry, and there is none
  const hook = hookOf(spec.name);
  const base = `${page.hook}-${hook}${entry ? `-${page.id(entry)}` : ""}`.replace(/[^A-Za-z0-9_-]/g, "_");
  const go = button(spec.label, null, { class: asked.length ? "md-button md-button--primary" : "md-button", "data-do": spec.name,
    [`data-${page.hook}`]: hook, "aria-label": entry && !asked.length ? `${page.title(entry)}: ${spec.label}` : null });
  page.dress?.(spec, go);
  if (!asked.length) {
    go.addEventListener("click", () => page.run(fixed));
    return go;
  }
  /** @type {HTMLElement[]} */
  const parts = [];
  /** @type {(() => unknown)[]} */
  const readers = [];
  for (const f of asked) {
    if (f.kind === "list" && f.each) {
      const each = f.each;
      const rows = entries.map((e, i) => el("fieldset", { class: "calc-fields" }, el("legend", { text: (page.legend ?? page.title)(e) }),
        ...each.filter((r) => r.form !== false).map((r) => control(page, r, `${base}-${r.key}-${i}`, `${r.key}-${i}`, e))));
      parts.push(...rows);
      readers.push(() => {
        const chosen = entries.map((e, i) => Object.fromEntries(each.map((r) => [r.key, r.form === false ? page.id(e) : valueOf(rows[i], r, `${base}-${r.key}-${i}`)])
          .filter(([, v]) => v !== undefined))).filter((row) => each.every((r) => !r.required || row[r.key] !== undefined));
        return [f.key, chosen.length ? chosen : undefined];
      });
    } else {
      const field = control(page, f, `${base}-${f.key}`, `${hook}-${f.key}`, entry);
      parts.push(field);
      readers.push(() => [f.key, valueOf(field, f, `${base}-${f.key}`)]);
    }
  }
  const form = el("form", { class: `tracker-form tracker-form-${spec.place}`, "data-form": spec.name }, ...parts, el("div", { class: "calc-actions" }, go));
  go.type = "submit";
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    /** @type {Action} */
    const action = { ...fixed };
    for (const read of readers) {
      const [key, value] = /** @type {[string, unknown]} */ (read());
      if (value !== undefined) action[key] = value;
    }
    const missing = asked.find((f) => f.required && action[f.key] === undefined);
    if (missing) return page.refuse(missing.refusal || `${spec.label}: ${missing.label} needs a value.`);
    page.run(action);
  });
  if (spec.place !== "setup") return form;
  const list = asked.find((f) => f.each);
  return el("details", { class: "calc-rulings tracker-setup", "data-form": spec.name },
    el("summary", { text: spec.label + (list?.help ? ` (${list.help.replace(/\.$/, "")})` : "") }), form);
}

/**
 * The controls of a tracker's actions outside its menu: `bar()` and `setup()` the controls of the actions placed
 * there, `roster(entry)` those of one entry's. A set-up's box stays open or closed across redraws.
 * @template E @param {Spec[]} specs @param {FormPage<E>} page
 */
export function trackerControls(specs, page) {
  /** @type {Record<string, boolean>} */
  const open = {};
  /** @param {string} place @param {E} [entry] */
  const at = (place, entry) => specs.filter((s) => s.place === place).map((s) => actionControl(page, s, entry)).filter((c) => c !== null);
  const setup = () => at("setup").map((box) => {
    const name = /** @type {string} */ (box.dataset.form);
    if (box instanceof HTMLDetailsElement) {
      box.open = open[name] ?? false;
      box.addEventListener("toggle", () => { open[name] = box.open; });
    }
    return box;
  });
  return {
    /** The controls of the actions placed at `place` that are about no entry (the bar's, a menu's, the set-up's).
     * @param {string} place */
    at: (place) => (place === "setup" ? setup() : at(place)),
    bar: () => at("bar"),
    /** @param {E} entry */
    roster: (entry) => at("roster", entry),
    setup,
  };
}
