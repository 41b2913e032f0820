// The encounter page between fights (docs/tell-tale/encounter.md): "Next
// encounter with this party" (Python's next_encounter action,
// calculators/tell_tale/encounter_campaign.py) where the end of the fight
// shows, and, while a fight is set up, "Add the party" from the party kept on
// this device (docs/tell-tale/party.md, party.js; Python's add_party action
// checks every member). Who carries on and what they keep is Python's.

import { el, readJson } from "./dom.js";
import { button } from "./tracker-shell.js";

/** @typedef {import("./encounter.js").Combatant} Combatant */
/** @typedef {import("./tracker-kit.js").Action} Action */

export const ENCOUNTER_STORE = "table-rules:tell_tale.encounter"; // encounter.js's STORE
export const PARTY_STORE = "table-rules:tell_tale.party"; // and PARTY_STORE:before, the party put aside (party.js)

// ---------------------------------------------------------------- the encounter's side

/** A refusal's line beside a control of the banner (the action form's error line is hidden while no fight runs),
 * and `run` made to say a refusal there.
 * @param {(action: Action) => Promise<unknown>} run @param {string} hook
 * @returns {[HTMLElement, (action: Action) => Promise<void>]} */
function sayingRefusals(run, hook) {
  const line = el("p", { class: "calc-error", role: "alert", "data-enc": hook });
  return [line, async (action) => {
    line.textContent = "";
    const answer = /** @type {{ok?: boolean, error?: string} | null} */ (await run(action));
    if (answer && answer.ok === false) line.textContent = answer.error ?? "";
  }];
}

/** The controls shown once the fight is over: the next encounter's button and, when somebody is dead or gone,
 * its declared choice for them (Python's tt.ruling.dead-between-encounters), with the line a refusal is said on.
 * @param {{declared: (name: string) => import("./encounter-form.js").ActionSpec, combatants: () => Combatant[],
 *   run: (action: Action) => Promise<unknown>, ids: (suffix: string) => string}} page
 * @returns {{field: HTMLElement, go: HTMLButtonElement}} */
export function nextEncounterControls({ declared, combatants, run, ids }) {
  const spec = declared("next_encounter");
  const field = spec.fields.find((f) => f.key === "dead");
  // Dead (Python's health) or out of the story (not in the fight, though conscious: exiled).
  const out = combatants().some((c) => c.health === "dead" || (!c.in_fight && c.health === "conscious"));
  const choice = field && out ? el("select", { id: ids("next-dead"), "data-enc": "next-dead" },
    ...(field.choices ?? []).map(([v, t]) => el("option", { value: v, text: t }))) : null;
  const [line, send] = sayingRefusals(run, "next-error");
  const go = button(spec.label, () => send({ do: spec.name, ...(choice ? { dead: choice.value } : {}) }),
    { class: "md-button md-button--primary", "data-enc": "next-encounter" });
  return {
    field: el("div", {}, ...(choice && field ? [el("div", { class: "calc-fields enc-setup" },
      el("div", { class: "calc-field" }, el("label", { for: choice.id, text: field.label }), choice))] : []), line),
    go,
  };
}

/** The members of the party kept on this device (party.js), as saved there, or [] (none, or not a list): the
 * add_party action sends them to Python, which checks every member before anyone joins.
 * @returns {unknown[]} */
function keptMembers() {
  const party = /** @type {{members?: unknown} | null} */ (readJson(PARTY_STORE, null));
  return Array.isArray(party?.members) ? party.members : [];
}

/** The party's controls in the banner: while setting up, "Add the party" (the party kept on this device);
 * once the fight is over, the way to the party's page, to keep it or level it up.
 * @param {string} phase @param {(action: Action) => Promise<unknown>} run @returns {HTMLElement[]} */
export function partyControls(phase, run) {
  const members = keptMembers();
  const names = members.map((m) => /** @type {{name?: unknown}} */ (m)?.name).filter((n) => typeof n === "string");
  if (phase === "setup" && members.length) {
    const [line, send] = sayingRefusals(run, "party-error");
    return [button(`Add the party (${names.join(", ").slice(0, 80) || "kept on this device"})`, () => send({ do: "add_party", members }),
      { class: "md-button", "data-enc": "add-party" }), line];
  }
  if (phase === "over") {
    return [el("a", { class: "md-button", href: "../party/", "data-enc": "to-party", text: members.length ? "Keep or level up the party" : "Keep this party on this device" })];
  }
  return [];
}
