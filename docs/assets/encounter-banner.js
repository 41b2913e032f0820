// The encounter page's banner and bar (docs/tell-tale/encounter.md): where the
// fight stands, with the set-up's turn order and Start, and once it is over
// the next encounter; the bar kept at the bottom of the screen (Undo, Redo,
// End, Next); and two page preferences on this device, the turn timer and
// passing the steps that ask nothing. Each control is labelled as its action
// is declared (encounter_actions.py) and carries its name in data-do.

import { onPageEnd, pageSignal, plural } from "./dom.js";
import { el, read, write } from "./tracker-kit.js";
import { button } from "./tracker-shell.js";
import { clock } from "./encounter-players.js";
import { nextEncounterControls } from "./encounter-party.js";
import * as keys from "./storage.js";

const TIMER = keys.ENCOUNTER + keys.TIMER; // page preferences on this device, not part of the fight (storage.js)
const THROUGH = keys.ENCOUNTER + keys.THROUGH;
const TURN_START = keys.ENCOUNTER + keys.TURN_START; // sessionStorage

/** @typedef {import("./encounter.js").Encounter} Encounter */
/** @typedef {import("./encounter.js").Combatant} Combatant */
/** @typedef {import("./encounter.js").Fight} Fight */

/** The turn timer (off unless chosen: its time in the bar and the players' view) and passing the steps that ask
 * nothing (on unless turned off: Python passes them, {"do": "next", "through": true}, and logs what each did).
 * @param {Fight} fight @param {() => void} tell what the players see, told again */
export function turnSettings(fight, tell) {
  const on = () => read(TIMER) === "on";
  let turnStart = { key: "", at: 0 };
  try {
    const kept = JSON.parse(sessionStorage.getItem(TURN_START) ?? "null");
    if (kept && typeof kept.key === "string" && kept.key.length < 40 && Number.isFinite(kept.at)) turnStart = { key: kept.key, at: kept.at };
  } catch { /* none kept, or unreadable: the turn starts now */ }
  const line = el("span", { class: "enc-timer", "data-enc": "timer", "aria-label": "Time this turn" });
  const tick = () => {
    const state = fight.state();
    line.hidden = !(on() && state?.phase === "combat");
    if (!line.hidden) line.textContent = clock(turnStart.at);
  };
  const ticking = setInterval(tick, 1000);
  onPageEnd(pageSignal(), () => clearInterval(ticking));
  const timerBox = el("input", { type: "checkbox", id: fight.ids("timer-setting"), "data-enc": "timer-setting", checked: on() });
  timerBox.addEventListener("change", () => {
    write(TIMER, timerBox.checked ? "on" : null);
    tick();
    tell();
  });
  const throughOn = () => read(THROUGH) !== "off";
  const throughBox = el("input", { type: "checkbox", id: fight.ids("through-setting"), "data-enc": "through-setting", checked: throughOn() });
  throughBox.addEventListener("change", () => write(THROUGH, throughBox.checked ? null : "off"));
  return {
    line, tick, on, since: () => turnStart.at,
    passing: () => (throughOn() ? { through: true } : {}),
    boxes: () => [el("label", { class: "enc-check enc-timer-setting" }, timerBox, " Turn timer"),
      el("label", { class: "enc-check enc-timer-setting" }, throughBox, " Pass steps that ask nothing")],
    /** A new turn (another round or holder, or the fight over) starts the clock again. */
    note() {
      const state = fight.state();
      const key = state?.phase === "combat" ? `${state.round}:${state.turn}` : "";
      if (key === turnStart.key) return;
      turnStart = { key, at: Date.now() };
      try { sessionStorage.setItem(TURN_START, JSON.stringify(turnStart)); } catch { /* the timer starts again after a reload */ }
    },
  };
}

/** @typedef {ReturnType<typeof turnSettings>} TurnSettings */

/** Fighting the fight that is over again, apart from the next encounter, below the banner's controls, with
 * what it does in words (Python's start on a fight that is over: one step, which Undo takes back).
 * @param {Fight} fight @param {TurnSettings} turn */
function fightAgain({ ids, run }, turn) {
  const note = el("p", { class: "enc-note", id: ids("again-note"),
    text: "Or play this same fight again from round 1: everyone as they stand now, nobody healed, the dead and the exiled with no turn. Undo brings this ending back." });
  return el("div", { class: "enc-again", "data-enc": "again" }, note,
    button("Same fight again, from round 1", () => run({ do: "start", ...turn.passing() }, { roll: true }),
      { class: "md-button", "data-enc": "start-again", "data-do": "start", "aria-describedby": note.id }));
}

/**
 * The banner and the bar, drawn from the fight.
 * @param {Fight} fight @param {TurnSettings} turn
 * @param {{banner: HTMLElement, bar: HTMLElement, barWhere: HTMLElement, nextButton: HTMLElement, barEnd: HTMLElement,
 *   party: ReturnType<typeof import("./encounter-party.js").partyKeeper>, showPlayers: () => void}} parts
 */
export function bannerView(fight, turn, parts) {
  const { banner, party } = parts;
  const { declared, ids, run } = fight;

  /** The set-up's lines and tools: the turn order, who began, Start, NPCs' Initiative, the party.
   * @param {Encounter | null} state @param {HTMLElement[]} lines @param {HTMLElement} tools */
  function setup(state, lines, tools) {
    lines.push(el("p", { text: "Add the combatants, give each PC its Initiative (NPCs without one are rolled), then start." }));
    const byField = /** @type {import("./encounter-form.js").FieldSpec} */ (declared("order").fields.find((f) => f.key === "by"));
    const firstField = /** @type {import("./encounter-form.js").FieldSpec} */ (declared("start").fields.find((f) => f.key === "first"));
    const by = el("select", { id: ids("order-by"), "data-enc": "order-by", "data-do": "order" }, ...(byField.choices ?? []).map(([v, t]) => el("option", { value: v, text: t })));
    by.value = state?.order_by ?? "initiative";
    by.addEventListener("change", () => run({ do: "order", by: by.value }));
    const first = el("select", { id: ids("first"), "data-enc": "first" }, el("option", { value: "", text: "As listed" }),
      ...(state?.order ?? []).map((id) => el("option", { value: id, text: /** @type {Combatant} */ (fight.byId(id)).name })));
    lines.push(el("div", { class: "calc-fields enc-setup" },
      el("div", { class: "calc-field" }, el("label", { for: by.id, text: byField.label }), by),
      ...(by.value === "hand" ? [el("div", { class: "calc-field" }, el("label", { for: first.id, text: firstField.label }), first)] : [])));
    tools.append(
      button(declared("start").label, () => run({ do: "start", ...(first.value ? { first: first.value } : {}), ...turn.passing() }, { roll: true }), { class: "md-button md-button--primary", "data-enc": "start", "data-do": "start" }),
      button("Roll Initiative for NPCs", () => run({ do: "initiative", all: true }, { roll: true }), { "data-enc": "roll-initiative", "data-do": "initiative" }),
      ...party.controls("setup", run, [])); // the party kept on this device (encounter-party.js)
  }

  function render() {
    const state = fight.state();
    const title = el("h2", { id: ids("banner-title"), class: "enc-turn" });
    const tools = el("div", { class: "calc-actions" });
    /** @type {HTMLElement[]} */
    const lines = [];
    if (!state || state.phase === "setup") {
      title.textContent = "Setting up the fight";
      setup(state, lines, tools);
    } else if (state.phase === "combat") {
      const holder = /** @type {Combatant} */ (fight.byId(fight.current()));
      title.textContent = `Round ${state.round}: ${holder.name}'s turn`;
      const team = fight.inOrder().filter((c) => (c.owner ?? c.id) === holder.id);
      lines.push(el("p", { class: "enc-step", "data-step": state.step, text: fight.steps[/** @type {string} */ (state.step)] }));
      lines.push(el("p", { class: "enc-team", text: "Actions left: " + team.map((c) => `${c.name} ${c.actions}`).join(", ") + "." }));
      lines.push(el("p", { class: "enc-note", text: "Next step and Undo are in the bar at the bottom of the screen." }));
    } else {
      title.textContent = "The encounter is over";
      lines.push(el("p", { text: `It lasted ${plural(state.round, "round")}. Toughness is back in full; Vitality, counters and poison stay.` }));
      const next = nextEncounterControls({ declared, combatants: () => fight.state()?.combatants ?? [], run, ids });
      if (next.field) lines.push(next.field);
      tools.append(next.go, ...party.controls("over", run, state.combatants));
    }
    tools.append(button("Show to players", parts.showPlayers, { "data-enc": "players", title: "A second window for the players: the turn order and what they may see" }),
      ...turn.boxes());
    banner.replaceChildren(title, ...lines, tools, ...(state?.phase === "over" ? [fightAgain(fight, turn)] : []));
    renderBar(state);
  }

  /** @param {Encounter | null} state */
  function renderBar(state) {
    const { bar, barWhere, nextButton, barEnd } = parts;
    bar.hidden = !state;
    nextButton.hidden = state?.phase !== "combat";
    const noFoe = state?.phase === "combat" && state.foes_standing === 0;
    barEnd.hidden = !noFoe;
    nextButton.classList.toggle("md-button--primary", !noFoe); // End is the step the thumb is offered
    if (!state) return;
    if (state.phase === "combat") {
      const holder = /** @type {Combatant} */ (fight.byId(fight.current()));
      barWhere.replaceChildren(el("span", { class: "enc-bar-who" }, el("strong", { text: `Round ${state.round} · ${holder.name}` }), " ", turn.line),
        el("span", { text: noFoe ? "No foe stands" : fight.steps[/** @type {string} */ (state.step)] }));
      turn.tick();
    } else {
      barWhere.replaceChildren(el("strong", { text: state.phase === "over" ? "The encounter is over" : "Setting up the fight" }),
        el("span", { text: plural(state.combatants.length, "combatant") }));
    }
  }
  return { render };
}
