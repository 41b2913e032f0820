// The encounter's action form, drawn from the actions Python declares
// (calculators/tell_tale/encounter_actions.py, published in the tracker's
// vocabulary as `actions`): the menu, then one control per field of the
// chosen action, named by its JSON key, so a refusal marks the field at
// fault. Who may act, whom they may strike and which dice they roll are
// Python's: the declarations' needs, the combatants' derived `chances`,
// `in_fight` and `attack_rolls`, and the fields' needs. This module knows no
// action by name.

import { unchangedSince } from "./dom.js";
import { el } from "./tracker-kit.js";
import { markFieldAtFault } from "./tracker-shell.js";

/**
 * One field of an action (encounter_actions.Field, as published).
 * @typedef {{key: string, kind: string, label: string, help?: string, required?: boolean, choices?: [string, string][],
 *   sides?: number, pick?: string, blank?: string, needs?: [string, string[]], dice?: boolean, each?: FieldSpec[],
 *   flag?: FieldSpec, form?: boolean, roll?: [string, string, string]}} FieldSpec
 */
/**
 * One action (encounter_actions.ActionSpec, as published).
 * @typedef {{name: string, label: string, menu: boolean, rolls: boolean, needs: string[], actor: string, target: string,
 *   chance: boolean, fields: FieldSpec[]}} ActionSpec
 */
/** @typedef {import("./encounter.js").Combatant} Combatant */
/** @typedef {import("./tracker-kit.js").Action} Action */
/**
 * What the form needs of its page: the fight as last answered, in turn order, and a way to send an action.
 * @typedef {{actions: ActionSpec[], inOrder: () => Combatant[], byId: (id: string | null) => Combatant | undefined,
 *   current: () => string | null, run: (action: Action, options?: {roll?: boolean}) => Promise<{ok: boolean} | null>,
 *   ids: (suffix: string) => string}} FormPage
 */

const LINE_MAX = 6; // enemies in a charge's line that the form offers

/** Whether `c` has one of `keys`: a keyword, or a flag of the combatant's that is set (a planeswalker PC's).
 * @param {Combatant | undefined} c @param {string[]} keys */
export const hasAny = (c, keys) => c !== undefined && keys.some((k) => c.keywords.includes(k) || /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (c))[k] === true);

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

/** A keyword's and a kind's name as the vocabulary gives them (the word itself for one it does not name).
 * @param {{keywords: [string, string][], kinds: [string, string][]}} words */
export function namer(words) {
  const keywords = Object.fromEntries(words.keywords);
  const kinds = Object.fromEntries(words.kinds);
  return { keyword: (/** @type {string} */ k) => keywords[k] ?? k, kind: (/** @type {string} */ k) => kinds[k] ?? k };
}

/** @param {HTMLSelectElement} select @param {Combatant[]} people @param {{blank?: string | null}} [options] */
export function fillSelect(select, people, { blank = null } = {}) {
  const keep = select.value;
  select.replaceChildren(...(blank ? [el("option", { value: "", text: blank })] : []), ...people.map((c) => el("option", { value: c.id, text: c.name })));
  if ([...select.options].some((o) => o.value === keep)) select.value = keep;
  return keep;
}

/** The action form of the encounter page. @param {HTMLFormElement} form @param {FormPage} page */
export function actionForm(form, page) {
  const { ids } = page;
  const specs = Object.fromEntries(page.actions.filter((a) => a.menu).map((a) => [a.name, a]));
  const first = Object.keys(specs)[0]; // a new turn starts on it: the holder's attack
  const menu = el("select", { id: ids("do"), name: "do", "data-enc": "do" });
  const fields = el("div", { class: "calc-fields" });
  const resolve = el("button", { type: "submit", class: "md-button", "data-enc": "resolve" });
  const rollButton = el("button", { type: "button", class: "md-button md-button--primary", "data-enc": "roll", text: "Roll for me" });
  // "Roll for me" right under who acts and whom: within the thumb's reach on a phone; the typed dice below it, then Resolve.
  const rollRow = el("div", { class: "calc-actions enc-roll-row" }, rollButton);
  const diceFields = el("div", { class: "enc-numbers enc-dice" }); // short boxes side by side: the dice take a third of the height
  form.append(el("div", { class: "calc-fields" }, el("div", { class: "calc-field enc-wide" }, el("label", { for: menu.id, text: "What happens" }), menu)),
    fields, rollRow, diceFields, el("div", { class: "calc-actions" }, resolve));

  /** The controls of the action drawn, by field key; the spec they were drawn for.
   * @type {Record<string, HTMLElement>} */
  let controls = {};
  /** @type {Record<string, HTMLElement>} */
  let wraps = {};
  /** A field's help, and under a situation's field what the attacker's roll is in it, by field key.
   * @type {Record<string, HTMLElement>} */
  let helps = {};
  /** @type {Record<string, HTMLElement>} */
  let notes = {};
  /** @type {ActionSpec | null} */
  let drawn = null;
  /** @type {string | null} */
  let lastHolder = null;
  /** @type {string | null} */
  let lastActor = null; // whose target the target list holds: another actor gets its own nearest enemy

  /** The data-enc of a field's control: "actor" and "target" for the fields that name them, else its key.
   * @param {ActionSpec} spec @param {FieldSpec} f */
  const hook = (spec, f) => (f.key === spec.actor ? "actor" : f.key === spec.target ? "target" : f.key);

  /** Whether `c` may take `spec`: what its declaration needs, and for a chance, a chance for it now.
   * @param {Combatant} c @param {ActionSpec} spec */
  const mayTake = (c, spec) => (!spec.needs.length || hasAny(c, spec.needs)) && (!spec.chance || Boolean(c.chances[spec.name]?.length));
  /** Whether `c` is offered as the one who takes `spec`: one the actor's field picks ("actor": who may take it and can
   * act now, Python's derived `in_fight`), or anybody its field offers otherwise (a spell's source may be dead).
   * @param {Combatant} c @param {ActionSpec} spec */
  const offeredToAct = (c, spec) => spec.fields.find((f) => f.key === spec.actor)?.pick !== "actor" || (mayTake(c, spec) && c.in_fight);
  /** The fields of `spec` that are an attack roll, its line's included. @param {ActionSpec} spec */
  const rollFields = (spec) => spec.fields.flatMap((f) => [f, ...(f.each ?? [])]).filter((f) => f.roll);

  /** One field's control, wrapped with its label and help. @param {ActionSpec} spec @param {FieldSpec} f */
  function control(spec, f) {
    const id = ids(f.key);
    const attrs = { id, name: f.key, "data-enc": hook(spec, f), "aria-describedby": f.help ? `${id}-help` : null };
    /** @type {HTMLElement} */
    let input;
    if (f.kind === "who") input = el("select", attrs);
    else if (f.kind === "choice") input = el("select", attrs, ...(f.choices ?? []).map(([v, t]) => el("option", { value: v, text: t })));
    else if (f.kind === "ids") input = el("fieldset", { ...attrs, class: "enc-keyword-boxes enc-ids" }, el("legend", { text: f.label }));
    else if (f.kind === "line") input = el("fieldset", { ...attrs, class: "enc-line" }, el("legend", { text: f.label }));
    else input = el("input", { ...attrs, type: "text", autocomplete: "off", inputmode: f.kind === "text" || f.kind === "number" ? "text" : "numeric" });
    controls[f.key] = input;
    const help = f.help ? el("small", { id: `${id}-help`, text: f.help }) : null;
    if (help) helps[f.key] = help;
    if (f.kind === "ids" || f.kind === "line") return input;
    // The situation of an attack roll: what the attacker's roll is then, as Python words it (showNeeded), under it.
    const says = rollFields(spec).some((r) => r.roll?.[1] === f.key) ? el("small", { id: `${id}-says`, class: "enc-roll-says", "data-enc": `${f.key}-says`, hidden: true }) : null;
    if (says) {
      notes[f.key] = says;
      input.setAttribute("aria-describedby", [attrs["aria-describedby"], says.id].filter(Boolean).join(" "));
    }
    return el("div", { class: "calc-field" }, el("label", { for: id, text: f.label }), input, help, says);
  }

  /** Row `i` of a line: whom it passes, their dice and flag. @param {FieldSpec} f @param {number} i @param {Combatant[]} others */
  function lineRow(f, i, others) {
    /** @param {string} name */
    const rid = (name) => ids(`line-${i}-${name}`);
    const who = el("select", { id: rid("who"), "data-enc": `line-${i}` }, el("option", { value: "", text: "(nobody)" }),
      ...others.map((c) => el("option", { value: c.id, text: c.name })));
    return el("div", { class: "enc-line-row", "data-row": i },
      el("div", { class: "calc-field enc-wide" }, el("label", { for: rid("who"), text: `${i + 1}.` }), who),
      ...(f.each ?? []).map((e) => el("div", { class: "calc-field" }, el("label", { for: rid(e.key), text: e.label }),
        el("input", { id: rid(e.key), type: "text", inputmode: "numeric", autocomplete: "off", "data-enc": `line-${i}-${e.key}` }))),
      f.flag ? el("label", { class: "enc-check" }, el("input", { type: "checkbox", id: rid(f.flag.key), "data-enc": `line-${i}-${f.flag.key}` }), " " + f.flag.label) : null);
  }

  /** The rows of a line with somebody in them, and one more to add the next; dice only where there is somebody.
   * @param {HTMLElement} line */
  function showLineRows(line) {
    let open = true;
    for (const row of /** @type {NodeListOf<HTMLElement>} */ (line.querySelectorAll(".enc-line-row"))) {
      const chosen = Boolean(/** @type {HTMLSelectElement} */ (row.querySelector("select")).value);
      row.hidden = !open;
      for (const part of /** @type {NodeListOf<HTMLElement>} */ (row.querySelectorAll(".calc-field:not(.enc-wide), .enc-check"))) part.hidden = !chosen;
      open = chosen;
    }
  }

  /** The nearest living enemy of `actor`: the next combatant of the other side after it in turn order still
   * in the fight (then any of the other side, then anyone else); null: nobody.
   * @param {string} actor @param {Combatant[]} people @returns {string | null} */
  function nearestEnemy(actor, people) {
    const me = page.byId(actor);
    if (!me) return people[0]?.id ?? null;
    const i = people.findIndex((c) => c.id === actor);
    const after = [...people.slice(i + 1), ...people.slice(0, Math.max(i, 0))].filter((c) => c.id !== actor);
    const pick = after.find((c) => c.side !== me.side && c.in_fight) ?? after.find((c) => c.side !== me.side) ?? after[0];
    return pick?.id ?? null;
  }

  /** Whom a field offers. @param {FieldSpec} f @param {ActionSpec} spec @param {Combatant | undefined} actor @param {Combatant[]} people */
  function offered(f, spec, actor, people) {
    if (f.key === spec.actor) return people.filter((c) => offeredToAct(c, spec));
    if (f.pick === "chances") return (actor?.chances[spec.name] ?? []).map((id) => page.byId(id)).filter((c) => c !== undefined);
    if (f.pick === "enemies") return people.filter((c) => c.id !== actor?.id && c.side !== actor?.side);
    if (f.pick === "others") return people.filter((c) => c.id !== actor?.id);
    return people;
  }

  /** @param {string} key */
  const select = (key) => /** @type {HTMLSelectElement} */ (controls[key]);

  function render() {
    const people = page.inOrder();
    const holder = page.current();
    const newTurn = Boolean(holder) && holder !== lastHolder;
    lastHolder = holder;
    // The menu offers an action only if somebody in the fight may take it (a charge needs Trample, a First
    // Strike an enemy's move); a new turn starts on its holder's attack, whatever the last turn did.
    const open = Object.values(specs).filter((spec) => (!spec.needs.length && !spec.chance) || people.some((c) => offeredToAct(c, spec))).map((s) => s.name);
    const was = menu.value;
    if ([...menu.options].map((o) => o.value).join() !== open.join()) menu.replaceChildren(...open.map((n) => el("option", { value: n, text: specs[n].label, "data-do": n })));
    menu.value = newTurn || !open.includes(was) ? first : was;
    const spec = specs[menu.value];
    if (spec !== drawn) {
      controls = {};
      helps = {};
      notes = {};
      wraps = Object.fromEntries(spec.fields.filter((f) => f.form !== false).map((f) => [f.key, control(spec, f)]));
      const typedDice = spec.fields.filter((f) => f.dice && wraps[f.key]).map((f) => wraps[f.key]);
      fields.replaceChildren(...Object.values(wraps).filter((w) => !typedDice.includes(w)));
      diceFields.replaceChildren(...typedDice);
      drawn = spec;
      lastActor = null;
    }
    const actorField = spec.fields.find((f) => f.key === spec.actor);
    if (actorField) {
      const actors = offered(actorField, spec, undefined, people);
      fillSelect(select(spec.actor), actors, { blank: actorField.blank || null });
      if (newTurn && !actorField.blank && holder && actors.some((c) => c.id === holder)) select(spec.actor).value = holder; // a new turn: its holder acts
    }
    const actor = page.byId(actorField ? select(spec.actor).value : null);
    for (const f of spec.fields) {
      if (f.form === false) continue;
      if (f.kind === "who" && f.key !== spec.actor) {
        const kept = fillSelect(select(f.key), offered(f, spec, actor, people), { blank: f.blank || null });
        const target = page.byId(select(f.key).value);
        // Another actor (a new turn, or chosen), or a target no longer worth striking: the nearest living enemy.
        if (f.pick === "others" && actor && (newTurn || actor.id !== lastActor || kept !== select(f.key).value || !target || !target.in_fight || target.side === actor.side)) {
          const enemy = nearestEnemy(actor.id, people);
          if (enemy) select(f.key).value = enemy;
        }
      } else if (f.kind === "ids") {
        const box = controls[f.key];
        const checked = new Set([...box.querySelectorAll("input:checked")].map((i) => /** @type {HTMLInputElement} */ (i).value));
        box.replaceChildren(/** @type {HTMLElement} */ (box.querySelector("legend")), ...offered(f, spec, actor, people).map((c) => el("label", { class: "enc-check" },
          el("input", { type: "checkbox", value: c.id, "data-enc": `${f.key}-${c.id}`, checked: checked.has(c.id) }), " " + c.name)));
      } else if (f.kind === "line") {
        const line = controls[f.key];
        const others = offered(f, spec, actor, people);
        const picked = [...line.querySelectorAll(".enc-line-row select")].map((s) => /** @type {HTMLSelectElement} */ (s).value);
        line.replaceChildren(/** @type {HTMLElement} */ (line.querySelector("legend")), ...Array.from({ length: Math.min(LINE_MAX, Math.max(1, others.length)) }, (_, i) => lineRow(f, i, others)));
        /** @type {NodeListOf<HTMLSelectElement>} */ (line.querySelectorAll(".enc-line-row select")).forEach((s, i) => {
          if (picked[i] && others.some((c) => c.id === picked[i])) s.value = picked[i];
          s.addEventListener("change", () => showLineRows(line));
        });
        showLineRows(line);
      }
    }
    lastActor = actor?.id ?? null;
    showNeeded();
    rollRow.hidden = !spec.rolls;
    resolve.textContent = spec.rolls ? "Resolve with these dice" : "Do it";
  }

  /** The fields this actor and this target are asked for (a field's needs: a second d20 only with Double Strike,
   * the enemy's opposed d20 only when it strikes first too). */
  function showNeeded() {
    const spec = /** @type {ActionSpec} */ (drawn);
    /** @type {Record<string, Combatant | undefined>} */
    const who = { actor: page.byId(spec.actor ? select(spec.actor).value : null), target: page.byId(spec.target ? select(spec.target).value : null) };
    for (const f of spec.fields) {
      if (wraps[f.key]) wraps[f.key].hidden = f.needs !== undefined && !hasAny(who[f.needs[0]], f.needs[1]);
    }
    // Each attack roll as Python words it for its roller in the situation chosen (a poisoned attacker's disadvantage,
    // and the two d20s it takes), before the roll: under the situation, and as the d20's help.
    for (const f of rollFields(spec)) {
      const [whose, situation, usual] = /** @type {[string, string, string]} */ (f.roll);
      const says = who[whose]?.attack_rolls[situation && controls[situation] ? select(situation).value : usual] ?? "";
      if (situation && notes[situation]) Object.assign(notes[situation], { textContent: says, hidden: !says });
      if (helps[f.key] && controls[f.key] && spec.fields.includes(f)) helps[f.key].textContent = says || f.help || "";
    }
  }

  /** The action the form describes: each shown field that holds something, the dice in `dice`. @returns {Action} */
  function readAction() {
    const spec = /** @type {ActionSpec} */ (drawn);
    /** @type {Action} */
    const action = { do: spec.name };
    /** @type {Record<string, unknown>} */
    const dice = {};
    for (const f of spec.fields) {
      const c = controls[f.key];
      if (!c || wraps[f.key].hidden) continue;
      if (f.kind === "who" || f.kind === "choice") {
        const value = /** @type {HTMLSelectElement} */ (c).value;
        if (value && (f.required || f.kind === "who" || value !== f.choices?.[0]?.[0])) action[f.key] = value; // a choice left at its default: left out
      } else if (f.kind === "ids") {
        const chosen = [...c.querySelectorAll("input:checked")].map((i) => /** @type {HTMLInputElement} */ (i).value);
        if (chosen.length) action[f.key] = chosen;
      } else if (f.kind === "line") {
        const rows = [...c.querySelectorAll(".enc-line-row")].filter((r) => /** @type {HTMLSelectElement} */ (r.querySelector("select")).value);
        action[f.key] = rows.map((r) => /** @type {HTMLSelectElement} */ (r.querySelector("select")).value);
        if (f.flag) {
          const flagged = rows.filter((r) => /** @type {HTMLInputElement} */ (r.querySelector("input[type=checkbox]")).checked).map((r) => /** @type {HTMLSelectElement} */ (r.querySelector("select")).value);
          if (flagged.length) action[f.flag.key] = flagged;
        }
        const each = rows.map((r) => Object.fromEntries((f.each ?? []).map((e) => [e.key, typed(/** @type {HTMLInputElement} */ (r.querySelector(`[data-enc$="-${e.key}"]`)).value)]).filter(([, v]) => v !== undefined)));
        if (each.some((d) => Object.keys(d).length)) action.dice = each;
      } else {
        const value = typed(/** @type {HTMLInputElement} */ (c).value);
        if (value !== undefined) (f.dice ? dice : action)[f.key] = value;
      }
    }
    if (Object.keys(dice).length) action.dice = dice;
    return action;
  }

  function clearTyped() {
    for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (form.querySelectorAll("input[type=text]"))) input.value = "";
    for (const box of /** @type {NodeListOf<HTMLInputElement>} */ (form.querySelectorAll("input[type=checkbox]"))) box.checked = false;
  }

  /** @param {boolean} roll */
  async function send(roll) {
    if (!drawn) return; // no fight drawn yet (the saved one is still being read): nothing to send
    const untouched = unchangedSince(form); // dice typed for the next action while Python resolves this one stay
    const result = await page.run(readAction(), { roll });
    if (result) markFieldAtFault(form, /** @type {{ok: boolean}} */ (result));
    if (result?.ok && untouched()) clearTyped();
  }
  form.addEventListener("submit", (event) => { event.preventDefault(); send(false); });
  rollButton.addEventListener("click", () => send(true));
  menu.addEventListener("change", render);
  form.addEventListener("change", (event) => {
    const hooked = /** @type {HTMLElement} */ (event.target).dataset.enc;
    if (hooked === "actor") render();
    else if (hooked !== "do") showNeeded(); // the target or the situation: the fields asked for, the rolls said
  });
  return { render };
}
