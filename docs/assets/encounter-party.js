// The encounter page between fights: "Next encounter with this party"
// (Python's next_encounter action, calculators/tell_tale/encounter_campaign.py),
// drawn where the end of the fight is shown. Who carries on and what they
// keep is Python's: this module sends the action and draws its declared field.

import { el } from "./dom.js";
import { button } from "./tracker-shell.js";

/** @typedef {import("./encounter.js").Combatant} Combatant */
/** @typedef {import("./tracker-kit.js").Action} Action */

// ---------------------------------------------------------------- the encounter's side

/** The controls shown once the fight is over: the next encounter's button and, when somebody is dead or gone,
 * its declared choice for them (Python's tt.ruling.dead-between-encounters).
 * @param {{declared: (name: string) => import("./encounter-form.js").ActionSpec, combatants: () => Combatant[],
 *   run: (action: Action) => Promise<unknown>, ids: (suffix: string) => string}} page
 * @returns {{field: HTMLElement | null, go: HTMLButtonElement}} */
export function nextEncounterControls({ declared, combatants, run, ids }) {
  const spec = declared("next_encounter");
  const field = spec.fields.find((f) => f.key === "dead");
  // Dead (Python's health) or out of the story (not in the fight, though conscious: exiled).
  const out = combatants().some((c) => c.health === "dead" || (!c.in_fight && c.health === "conscious"));
  const choice = field && out ? el("select", { id: ids("next-dead"), "data-enc": "next-dead" },
    ...(field.choices ?? []).map(([v, t]) => el("option", { value: v, text: t }))) : null;
  const go = button(spec.label, () => run({ do: spec.name, ...(choice ? { dead: choice.value } : {}) }),
    { class: "md-button md-button--primary", "data-enc": "next-encounter" });
  return {
    field: choice && field ? el("div", { class: "calc-fields enc-setup" },
      el("div", { class: "calc-field" }, el("label", { for: choice.id, text: field.label }), choice)) : null,
    go,
  };
}
