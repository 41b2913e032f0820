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
import { typed } from "./tracker-form.js";

export { typed };

/**
 * One field of an action (encounter_actions.Field, as published).
 * @typedef {{key: string, kind: string, label: string, help?: string, required?: boolean, choices?: [string, string][],
 *   sides?: number, pick?: string, blank?: string, needs?: [string, string[]], dice?: boolean, each?: FieldSpec[],
 *   flag?: FieldSpec, form?: boolean, roll?: [string, string, string]}} FieldSpec
 */
/**
 * One action (encounter_actions.ActionSpec, as published).
 * @typedef {{name: string, label: string, place: string, records: boolean, menu: boolean, rolls: boolean, needs: string[],
 *   actor: string, target: string, chance: boolean, fields: FieldSpec[]}} ActionSpec
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

/**
 * What the form drew for the action chosen: its declaration, and each field's control, its wrapper (hidden when the
 * field is not asked for), its help and, under a situation's field, what the attacker's roll is in it, by field key.
 * @typedef {{spec: ActionSpec, controls: Record<string, HTMLElement>, wraps: Record<string, HTMLElement>,
 *   helps: Record<string, HTMLElement>, notes: Record<string, HTMLElement>}} Drawn
 */

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
/** @param {Drawn} drawn @param {string} key */
const select = (drawn, key) => /** @type {HTMLSelectElement} */ (drawn.controls[key]);

/** One field's control, wrapped with its label and help, noted in `drawn`. @param {Drawn} drawn @param {FieldSpec} f
 * @param {(suffix: string) => string} ids */
function control(drawn, f, ids) {
  const { spec } = drawn;
  const id = ids(f.key);
  const attrs = { id, name: f.key, "data-enc": hook(spec, f), "aria-describedby": f.help ? `${id}-help` : null };
  /** @type {HTMLElement} */
  let input;
  if (f.kind === "who") input = el("select", attrs);
  else if (f.kind === "choice") input = el("select", attrs, ...(f.choices ?? []).map(([v, t]) => el("option", { value: v, text: t })));
  else if (f.kind === "ids") input = el("fieldset", { ...attrs, class: "enc-keyword-boxes enc-ids" }, el("legend", { text: f.label }));
  else if (f.kind === "line") input = el("fieldset", { ...attrs, class: "enc-line" }, el("legend", { text: f.label }));
  else input = el("input", { ...attrs, type: "text", autocomplete: "off", inputmode: f.kind === "text" || f.kind === "number" ? "text" : "numeric" });
  drawn.controls[f.key] = input;
  const help = f.help ? el("small", { id: `${id}-help`, text: f.help }) : null;
  if (help) drawn.helps[f.key] = help;
  if (f.kind === "ids" || f.kind === "line") return input;
  // The situation of an attack roll: what the attacker's roll is then, as Python words it (showNeeded), under it.
  const says = rollFields(spec).some((r) => r.roll?.[1] === f.key) ? el("small", { id: `${id}-says`, class: "enc-roll-says", "data-enc": `${f.key}-says`, hidden: true }) : null;
  if (says) {
    drawn.notes[f.key] = says;
    input.setAttribute("aria-describedby", [attrs["aria-describedby"], says.id].filter(Boolean).join(" "));
  }
  return el("div", { class: "calc-field" }, el("label", { for: id, text: f.label }), input, help, says);
}

/** Row `i` of a line: whom it passes, their dice and flag.
 * @param {FieldSpec} f @param {number} i @param {Combatant[]} others @param {(suffix: string) => string} ids */
function lineRow(f, i, others, ids) {
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
 * @param {FormPage} page @param {string} actor @param {Combatant[]} people @returns {string | null} */
function nearestEnemy(page, actor, people) {
  const me = page.byId(actor);
  if (!me) return people[0]?.id ?? null;
  const i = people.findIndex((c) => c.id === actor);
  const after = [...people.slice(i + 1), ...people.slice(0, Math.max(i, 0))].filter((c) => c.id !== actor);
  const pick = after.find((c) => c.side !== me.side && c.in_fight) ?? after.find((c) => c.side !== me.side) ?? after[0];
  return pick?.id ?? null;
}

/** Whom a field offers. @param {FormPage} page @param {FieldSpec} f @param {ActionSpec} spec @param {Combatant | undefined} actor
 * @param {Combatant[]} people */
function offered(page, f, spec, actor, people) {
  if (f.key === spec.actor) return people.filter((c) => offeredToAct(c, spec));
  if (f.pick === "chances") return (actor?.chances[spec.name] ?? []).map((id) => page.byId(id)).filter((c) => c !== undefined);
  if (f.pick === "enemies") return people.filter((c) => c.id !== actor?.id && c.side !== actor?.side);
  if (f.pick === "others") return people.filter((c) => c.id !== actor?.id);
  return people;
}

/** A line's rows drawn again for whom it may pass, what was chosen kept. @param {FieldSpec} f @param {HTMLElement} line
 * @param {Combatant[]} others @param {(suffix: string) => string} ids */
function fillLine(f, line, others, ids) {
  const picked = [...line.querySelectorAll(".enc-line-row select")].map((s) => /** @type {HTMLSelectElement} */ (s).value);
  line.replaceChildren(/** @type {HTMLElement} */ (line.querySelector("legend")), ...Array.from({ length: Math.min(LINE_MAX, Math.max(1, others.length)) }, (_, i) => lineRow(f, i, others, ids)));
  /** @type {NodeListOf<HTMLSelectElement>} */ (line.querySelectorAll(".enc-line-row select")).forEach((s, i) => {
    if (picked[i] && others.some((c) => c.id === picked[i])) s.value = picked[i];
    s.addEventListener("change", () => showLineRows(line));
  });
  showLineRows(line);
}

/** Whom each field of the drawn action offers, for this actor. `fresh`: another actor than last time, or a new turn.
 * @param {FormPage} page @param {Drawn} drawn @param {Combatant | undefined} actor @param {Combatant[]} people @param {boolean} fresh */
function fillFields(page, drawn, actor, people, fresh) {
  const { spec, controls } = drawn;
  for (const f of spec.fields) {
    if (f.form === false) continue;
    if (f.kind === "who" && f.key !== spec.actor) {
      const kept = fillSelect(select(drawn, f.key), offered(page, f, spec, actor, people), { blank: f.blank || null });
      const target = page.byId(select(drawn, f.key).value);
      // Another actor (a new turn, or chosen), or a target no longer worth striking: the nearest living enemy.
      if (f.pick === "others" && actor && (fresh || kept !== select(drawn, f.key).value || !target || !target.in_fight || target.side === actor.side)) {
        const enemy = nearestEnemy(page, actor.id, people);
        if (enemy) select(drawn, f.key).value = enemy;
      }
    } else if (f.kind === "ids") {
      const box = controls[f.key];
      const checked = new Set([...box.querySelectorAll("input:checked")].map((i) => /** @type {HTMLInputElement} */ (i).value));
      box.replaceChildren(/** @type {HTMLElement} */ (box.querySelector("legend")), ...offered(page, f, spec, actor, people).map((c) => el("label", { class: "enc-check" },
        el("input", { type: "checkbox", value: c.id, "data-enc": `${f.key}-${c.id}`, checked: checked.has(c.id) }), " " + c.name)));
    } else if (f.kind === "line") {
      fillLine(f, controls[f.key], offered(page, f, spec, actor, people), page.ids);
    }
  }
}

/** The fields this actor and this target are asked for (a field's needs: a second d20 only with Double Strike,
 * the enemy's opposed d20 only when it strikes first too), and each attack roll as Python words it.
 * @param {FormPage} page @param {Drawn} drawn */
function showNeeded(page, drawn) {
  const { spec, controls, wraps, helps, notes } = drawn;
  /** @type {Record<string, Combatant | undefined>} */
  const who = { actor: page.byId(spec.actor ? select(drawn, spec.actor).value : null), target: page.byId(spec.target ? select(drawn, spec.target).value : null) };
  for (const f of spec.fields) {
    if (wraps[f.key]) wraps[f.key].hidden = f.needs !== undefined && !hasAny(who[f.needs[0]], f.needs[1]);
  }
  // Each attack roll as Python words it for its roller in the situation chosen (a poisoned attacker's disadvantage,
  // and the two d20s it takes), before the roll: under the situation, and as the d20's help.
  for (const f of rollFields(spec)) {
    const [whose, situation, usual] = /** @type {[string, string, string]} */ (f.roll);
    const says = who[whose]?.attack_rolls[situation && controls[situation] ? select(drawn, situation).value : usual] ?? "";
    if (situation && notes[situation]) Object.assign(notes[situation], { textContent: says, hidden: !says });
    if (helps[f.key] && controls[f.key] && spec.fields.includes(f)) helps[f.key].textContent = says || f.help || "";
  }
}

/** A line's part of the action: whom it passes, the flagged among them, and their dice.
 * @param {Action} action @param {FieldSpec} f @param {HTMLElement} c */
function readLine(action, f, c) {
  const rows = [...c.querySelectorAll(".enc-line-row")].filter((r) => /** @type {HTMLSelectElement} */ (r.querySelector("select")).value);
  action[f.key] = rows.map((r) => /** @type {HTMLSelectElement} */ (r.querySelector("select")).value);
  if (f.flag) {
    const flagged = rows.filter((r) => /** @type {HTMLInputElement} */ (r.querySelector("input[type=checkbox]")).checked).map((r) => /** @type {HTMLSelectElement} */ (r.querySelector("select")).value);
    if (flagged.length) action[f.flag.key] = flagged;
  }
  const each = rows.map((r) => Object.fromEntries((f.each ?? []).map((e) => [e.key, typed(/** @type {HTMLInputElement} */ (r.querySelector(`[data-enc$="-${e.key}"]`)).value)]).filter(([, v]) => v !== undefined)));
  if (each.some((d) => Object.keys(d).length)) action.dice = each;
}

/** The action the form describes: each shown field that holds something, the dice in `dice`.
 * @param {Drawn} drawn @returns {Action} */
function readAction({ spec, controls, wraps }) {
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
      readLine(action, f, c);
    } else {
      const value = typed(/** @type {HTMLInputElement} */ (c).value);
      if (value !== undefined) (f.dice ? dice : action)[f.key] = value;
    }
  }
  if (Object.keys(dice).length) action.dice = dice;
  return action;
}

/** The typed dice and boxes emptied, once their action is done. @param {HTMLFormElement} form */
function clearTyped(form) {
  for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (form.querySelectorAll("input[type=text]"))) input.value = "";
  for (const box of /** @type {NodeListOf<HTMLInputElement>} */ (form.querySelectorAll("input[type=checkbox]"))) box.checked = false;
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

  /** @type {Drawn | null} */
  let drawn = null;
  /** @type {string | null} */
  let lastHolder = null;
  /** @type {string | null} */
  let lastActor = null; // whose target the target list holds: another actor gets its own nearest enemy

  /** The action `spec` drawn afresh: its fields, the typed dice apart. @param {ActionSpec} spec @returns {Drawn} */
  function draw(spec) {
    /** @type {Drawn} */
    const made = { spec, controls: {}, wraps: {}, helps: {}, notes: {} };
    made.wraps = Object.fromEntries(spec.fields.filter((f) => f.form !== false).map((f) => [f.key, control(made, f, ids)]));
    const typedDice = spec.fields.filter((f) => f.dice && made.wraps[f.key]).map((f) => made.wraps[f.key]);
    fields.replaceChildren(...Object.values(made.wraps).filter((w) => !typedDice.includes(w)));
    diceFields.replaceChildren(...typedDice);
    lastActor = null;
    return made;
  }

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
    if (spec !== drawn?.spec) drawn = draw(spec);
    const actorField = spec.fields.find((f) => f.key === spec.actor);
    if (actorField) {
      const actors = offered(page, actorField, spec, undefined, people);
      fillSelect(select(drawn, spec.actor), actors, { blank: actorField.blank || null });
      if (newTurn && !actorField.blank && holder && actors.some((c) => c.id === holder)) select(drawn, spec.actor).value = holder; // a new turn: its holder acts
    }
    const actor = page.byId(actorField ? select(drawn, spec.actor).value : null);
    fillFields(page, drawn, actor, people, newTurn || actor?.id !== lastActor);
    lastActor = actor?.id ?? null;
    showNeeded(page, drawn);
    rollRow.hidden = !spec.rolls;
    resolve.textContent = spec.rolls ? "Resolve with these dice" : "Do it";
  }

  /** @param {boolean} roll */
  async function send(roll) {
    if (!drawn) return; // no fight drawn yet (the saved one is still being read): nothing to send
    const untouched = unchangedSince(form); // dice typed for the next action while Python resolves this one stay
    const result = await page.run(readAction(drawn), { roll });
    if (result) markFieldAtFault(form, /** @type {{ok: boolean}} */ (result));
    if (result?.ok && untouched()) clearTyped(form);
  }
  form.addEventListener("submit", (event) => { event.preventDefault(); send(false); });
  rollButton.addEventListener("click", () => send(true));
  menu.addEventListener("change", render);
  form.addEventListener("change", (event) => {
    const hooked = /** @type {HTMLElement} */ (event.target).dataset.enc;
    if (hooked === "actor") render();
    else if (hooked !== "do" && drawn) showNeeded(page, drawn); // the target or the situation: the fields asked for, the rolls said
  });
  return { render };
}
