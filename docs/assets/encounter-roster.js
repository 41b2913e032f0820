// The encounter's list of combatants (docs/tell-tale/encounter.md): one line
// per combatant, its full card when opened, and the card's editor. The
// numbers shown are Python's, derived ones included (toughness_full,
// health); the edits go back to Python as actions.

import { el, place, redraw } from "./tracker-kit.js";
import { button } from "./tracker-shell.js";
import { namer, typed } from "./encounter-form.js";

/** @typedef {import("./encounter.js").Combatant} Combatant */
/**
 * A combatant's fields that hold a number (or none): those the card's editor shows in text boxes.
 * @typedef {{[K in keyof Combatant]: Combatant[K] extends number | null ? K : never}[keyof Combatant]} NumberField
 */
/**
 * What the list needs of its page: the tracker's words, the fight as last answered, a way to send an action.
 * @typedef {{words: import("./encounter.js").EncounterWords, state: () => import("./encounter.js").Encounter | null,
 *   inOrder: () => Combatant[], byId: (id: string | null) => Combatant | undefined, current: () => string | null,
 *   run: (action: import("./tracker-kit.js").Action, options?: {roll?: boolean}) => Promise<unknown>, ids: (suffix: string) => string}} RosterPage
 */

/**
 * What a card is drawn with: its page, the tracker's words by name, and a folded part kept open across redraws.
 * @typedef {{page: RosterPage, status: Record<string, string>, keywords: string[], keywordLabel: (k: string) => string,
 *   kindLabel: (k: string) => string, keepOpen: (details: HTMLDetailsElement, which: "card" | "editor", id: string) => HTMLDetailsElement}} Kit
 */

/** The list of combatants, drawn into `roster`. @param {HTMLElement} roster @param {RosterPage} page */
export function rosterList(roster, page) {
  const { words } = page;
  const { keyword: keywordLabel, kind: kindLabel } = namer(words);
  // Which cards and editors are open: kept across redraws (each action redraws the roster).
  /** @type {{card: Set<string>, editor: Set<string>}} */
  const open = { card: new Set(), editor: new Set() };
  /** @type {Kit} */
  const kit = { page, status: words.marks, keywords: words.keywords.map(([k]) => k), keywordLabel, kindLabel,
    keepOpen: (details, which, id) => {
      const set = open[which];
      details.open = set.has(id);
      details.addEventListener("toggle", () => (details.open ? set.add(id) : set.delete(id)));
      return details;
    } };

  /** The cards drawn last, by combatant id: a step redraws only the cards whose numbers changed.
   * @type {Map<string, [string, Element]>} */
  const drawnCards = new Map();
  /** One line per combatant (name, Toughness, Vitality, status marks; "Another" beside it); the full card when opened. */
  function renderRoster() {
    const now = page.current();
    /** @param {Combatant} c */
    const acting = (c) => page.state()?.phase === "combat" && (c.owner ?? c.id) === now;
    const fighting = page.state()?.phase === "combat"; // "Another" is for setting up: not beside every row of a fight
    const cards = redraw(drawnCards, page.inOrder(), (c) => [c.id, JSON.stringify([c, acting(c), fighting, c.owner && page.byId(c.owner)?.name])], (c) => card(kit, c, acting(c), fighting));
    place(roster, cards.length ? cards : [el("li", { class: "enc-empty", text: "Nobody yet: add the combatants above." })]);
  }
  return { render: renderRoster };
}

/** @param {string} label @param {string} value @param {string} key @param {boolean} [low] */
function stat(label, value, key, low = false) {
  return el("div", { class: "enc-stat" + (low ? " enc-low" : "") }, el("dt", { text: label }), el("dd", { "data-stat": key, text: value }));
}

/** One combatant's card: its line, and the full card when opened.
 * @param {Kit} kit @param {Combatant} c @param {boolean} acting @param {boolean} fighting */
function card(kit, c, acting, fighting) {
  const { page, status: STATUS, keywordLabel, kindLabel } = kit;
  const marks = [STATUS[c.status], c.health !== "conscious" ? c.health : "", c.poisoned ? "poisoned" : "",
    c.token ? "token" : "", c.planeswalker ? (c.ability_used ? "ability used" : "planeswalker") : ""].filter(Boolean);
  const who = [kindLabel(c.kind), c.side === "party" ? "party" : "foes",
    c.owner ? `with ${/** @type {Combatant} */ (page.byId(c.owner)).name}` : `Initiative ${c.initiative ?? "–"}`];
  const full = c.toughness_full;
  const toughness = `${c.toughness_now}/${full}`;
  const line = el("summary", { class: "enc-row-line", "data-enc": `row-${c.id}` },
    el("span", { class: "enc-name", text: c.name }),
    c.owner ? null : el("span", { class: "enc-row-stat enc-initiative", "aria-label": `Initiative ${c.initiative ?? "not given"}`, text: `I ${c.initiative ?? "–"}` }),
    acting ? el("span", { class: "enc-now", text: "acting" }) : null,
    el("span", { class: "enc-row-stat" + (c.toughness_now === 0 ? " enc-low" : ""), "aria-label": `Toughness ${toughness}`, text: `T ${toughness}` }),
    el("span", { class: "enc-row-stat" + (c.vitality <= 0 ? " enc-low" : ""), "aria-label": `Vitality ${c.vitality}/${c.max_vitality}`, text: `V ${c.vitality}/${c.max_vitality}` }),
    marks.length ? el("span", { class: "enc-flags", "data-marks": "", text: marks.join(" · ") }) : null);
  /** @param {number} delta */
  const stepper = (delta) => button(delta < 0 ? "−1" : "+1", () => page.run({ do: "edit", id: c.id, set: { toughness_now: c.toughness_now + delta } }), {
    class: "md-button enc-step-button", "data-enc": `toughness-${delta < 0 ? "down" : "up"}-${c.id}`, "data-do": "edit",
    "aria-label": `${delta < 0 ? "Lower" : "Raise"} ${c.name}'s Toughness left by 1`,
    disabled: delta < 0 ? c.toughness_now <= 0 : c.toughness_now >= full });
  const body = el("div", { class: "enc-card-body" },
    el("p", { class: "enc-who", text: who.join(" · ") }),
    el("div", { class: "enc-toughness", role: "group", "aria-label": `${c.name}'s Toughness left` },
      el("span", { text: "Toughness left" }), stepper(-1), el("strong", { text: toughness }), stepper(1)),
    el("dl", { class: "enc-stats" },
      stat("Power", c.power_now === c.power ? `${c.power}` : `${c.power_now}/${c.power}`, "power", c.power_now < c.power),
      stat("Tough.", toughness, "toughness", c.toughness_now === 0),
      stat("Vitality", `${c.vitality}/${c.max_vitality}`, "vitality", c.vitality <= 0),
      stat("−1/−1", `${c.counters}`, "counters", c.counters > 0),
      stat("Acts", `${c.actions}`, "actions"),
      c.hand === null ? null : stat("Hand", `${c.hand}`, "hand")),
    c.keywords.length ? el("p", { class: "enc-marks" }, el("span", { class: "enc-keywords", text: c.keywords.map(keywordLabel).join(", ") })) : null,
    editor(kit, c));
  return el("li", { class: "enc-card", "data-id": c.id, "data-side": c.side, "data-health": c.health, "aria-current": acting ? "true" : null },
    kit.keepOpen(el("details", { class: "enc-row" }, line, body), "card", c.id),
    fighting ? null : button("Another", () => page.run({ do: "another", id: c.id }), { class: "md-button enc-another", "data-enc": `another-${c.id}`, "data-do": "another",
      "aria-label": `Add another like ${c.name}`, title: `Add another like ${c.name}, numbered` }));
}

/** A card's folded controls: its numbers, Initiative, keywords; move up; remove.
 * @param {Kit} kit @param {Combatant} c */
function editor(kit, c) {
  const { page, keywords: KEYWORDS, keywordLabel } = kit;
  const { words } = page;
  /** @param {string} name */
  const fid = (name) => page.ids(`${c.id}-${name}`);
  /** @type {[NumberField, string][]} */
  const fields = [["power", "Power"], ["toughness", "Toughness (full)"], ["toughness_now", "Toughness left"], ["vitality", "Vitality"],
    ["max_vitality", "Full Vitality"], ["speed", "Speed"], ["counters", "−1/−1 counters"]];
  if (!c.owner) fields.push(["initiative", "Initiative"]);
  const inputs = fields.map(([key, label]) => {
    const input = el("input", { id: fid(key), name: key, type: "text", inputmode: "numeric", autocomplete: "off", value: c[key] ?? "" });
    return el("div", { class: "calc-field" }, el("label", { for: fid(key), text: label }), input);
  });
  const status = el("select", { id: fid("status"), name: "status" },
    ...words.edit_statuses.filter(([, , summonsOnly]) => !summonsOnly || c.kind === "summon").map(([s, label]) => el("option", { value: s, text: label })));
  const shownStatus = words.edit_statuses.some(([s]) => s === c.status) ? c.status : "standing"; // detained: only an action sets or ends it
  status.value = shownStatus;
  const poisoned = el("select", { id: fid("poisoned"), name: "poisoned" }, el("option", { value: "false", text: "No" }), el("option", { value: "true", text: "Yes" }));
  poisoned.value = String(c.poisoned);
  const keywords = el("fieldset", { class: "enc-keyword-boxes" }, el("legend", { text: "Keywords" }),
    ...KEYWORDS.map((k) => el("label", { class: "enc-check" },
      el("input", { type: "checkbox", name: "keywords", value: k, checked: c.keywords.includes(k) }), " " + keywordLabel(k))));
  const form = el("form", { class: "enc-edit-form", novalidate: true },
    el("div", { class: "enc-numbers" }, ...inputs,
      el("div", { class: "calc-field" }, el("label", { for: fid("poisoned"), text: "Poisoned" }), poisoned)),
    el("div", { class: "calc-fields" }, el("div", { class: "calc-field" }, el("label", { for: fid("status"), text: "Status" }), status)),
    keywords,
    el("div", { class: "calc-actions" },
      el("button", { type: "submit", class: "md-button md-button--primary", "data-do": "edit", text: `Save ${c.name}` }),
      button("Roll Initiative", () => page.run({ do: "initiative", id: c.id }, { roll: true }), { "data-do": "initiative", hidden: Boolean(c.owner) || undefined }),
      button("Move up in the order", () => moveUp(page, c.id), { "data-do": "order", hidden: Boolean(c.owner) || undefined }),
      button(`Remove ${c.name}`, () => page.run({ do: "remove", id: c.id }), { "data-do": "remove" })));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    /** @type {Record<string, unknown>} */
    const set = {}; // what the edit changes: field -> value, as JSON
    for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (form.querySelectorAll("input[type=text]"))) {
      const raw = input.value.trim();
      const value = raw === "" ? (input.name === "initiative" ? null : undefined) : typed(raw);
      if (value !== undefined && value !== c[/** @type {NumberField} */ (input.name)]) set[input.name] = value;
    }
    if (status.value !== shownStatus) set.status = status.value;
    if (poisoned.value !== String(c.poisoned)) set.poisoned = poisoned.value === "true";
    const chosen = [.../** @type {NodeListOf<HTMLInputElement>} */ (form.querySelectorAll("input[name=keywords]:checked"))].map((i) => i.value);
    if (chosen.join() !== c.keywords.join()) set.keywords = chosen;
    if (!Object.keys(set).length) return;
    page.run({ do: "edit", id: c.id, set });
  });
  return kit.keepOpen(el("details", { class: "enc-edit" }, el("summary", { text: `Change ${c.name}` }), form), "editor", c.id);
}

/** @param {RosterPage} page @param {string} id */
function moveUp(page, id) {
  const order = [.../** @type {import("./encounter.js").Encounter} */ (page.state()).order]; // a card's button: there is a fight
  const i = order.indexOf(id);
  if (i <= 0) return;
  [order[i - 1], order[i]] = [order[i], order[i - 1]];
  page.run({ do: "order", ids: order });
}
